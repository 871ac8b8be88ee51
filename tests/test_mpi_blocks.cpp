// SPDX-License-Identifier: BSD-3-Clause
// Blocks of rounds across ranks (mpi/distributed_blocks.hpp) on every rank of a real launch
// (ctest runs this at 1, 2 and 3 ranks): each rank's rows against the same rows of the
// single-device solver, for blocks of 2, 4 and 16 rounds cut at the ranks' bands and before a
// short last round, on graphs of long paths across ranks, of unreachable pairs (products left
// out on a GPU) and of distances past 2^15 (no 16-bit lanes), by every pivot-row path the build
// has.
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>
#include <vector>

#include "apsp/mpi/distributed_blocks.hpp"
#include "apsp/mpi/runtime.hpp"
#include "backends_under_test.hpp"
#include "mpi_world.hpp"
#include "reference.hpp"

namespace apsp::test {
namespace {

template <class ExecSpace>
class DistributedBlocksTest : public ::testing::Test {};
TYPED_TEST_SUITE(DistributedBlocksTest, Backends, BackendName);

/// A chain from the last vertex down to 0 (every path crosses every rank), four components of
/// random edges (pairs unreachable for good), and light and heavy random graphs.
std::vector<Graph> block_graphs(int32_t v) {
  Graph chain{v, {}};
  for (int32_t i = 0; i + 1 < v; ++i) chain.edges.push_back({v - 1 - i, v - 2 - i, 7});
  Graph parts{v, {}};
  for (const auto& e : random_graph(v, 0.2, 0, 1000, 11).edges)
    if (e.src * 4 / v == e.dst * 4 / v) parts.edges.push_back(e);
  return {chain, parts, random_graph(v, 0.05, 0, 1000, 12), random_graph(v, 0.05, 40000, 97000, 13)};
}

/// The pivot rows' paths of this backend and MPI (test_mpi_layer.cpp says which and why).
template <class E>
std::vector<mpi::PivotPath> paths() {
  using Path = mpi::PivotPath;
  std::vector<Path> out{Path::mpi_staged};
  if (host_is_device<E>() || mpi::device_aware(BackendRuntime<E>::kMpiDeviceApi)) out.push_back(Path::mpi_direct);
  if (mpi::PivotRows<E, int32_t>::has_device_peers() && mpi::PivotRows<E, int32_t>::device_peers_work(MPI_COMM_WORLD))
    out.push_back(Path::device_peer);
  return out;
}

/// Solves `g` in blocks of `rounds` and compares each rank's rows; returns the relaxations this
/// rank's products left out.
template <class E>
int64_t check_blocks(const Graph& g, int B, int rounds, mpi::PivotPath path, const std::vector<int32_t>& expected,
                     const std::string& file_path) {
  const int n = int(padded_size(g.vertices, B));
  const TileRowPartition part{n / B, ranks()};
  const GraphFile file = GraphFile::open(file_path);
  DistanceMatrix<E> d(g.vertices, B, int64_t(part.first(rank())) * B, int64_t(part.count(rank())) * B);
  initialise_from_edges(d, file);
  typename mpi::DistributedBlocks<E>::Seconds s;
  int rounds_seen = 0;
  mpi::DistributedBlocks<E> blocks(MPI_COMM_WORLD, d, part, path, rounds);
  blocks.solve(s, [&](int done, int all) {
    EXPECT_EQ(done, ++rounds_seen);
    EXPECT_EQ(all, n / B);
  });
  EXPECT_EQ(rounds_seen, n / B);
  EXPECT_EQ(rows_differing(d, expected), 0) << "rank " << rank();
  return blocks.left_out();
}

// B = 16: 21 tile rows (V = 20 B + 5, the last round short), so that the blocks are cut at the
// ranks' bands (7 tile rows each at 3 ranks) and before the last round; on a GPU also its tuned
// block with blocks of 16 and fewer.
TYPED_TEST(DistributedBlocksTest, RowsMatchTheSingleDeviceSolver) {
  using E = TypeParam;
  std::vector<int> blocks{16};
  if (!host_is_device<E>()) blocks.push_back(BackendTraits<E>::default_block);
  SharedDir dir;
  for (const int B : blocks) {
    const auto graphs = block_graphs(20 * B + 5);
    for (size_t gi = 0; gi < graphs.size(); ++gi) {
      const std::string path = dir.file("g" + std::to_string(B) + "_" + std::to_string(gi) + ".bin");
      if (rank() == 0) write_graph(path, graphs[gi]);
      MPI_Barrier(MPI_COMM_WORLD);
      const auto expected = blocked_apsp<E>(graphs[gi], B);
      for (const mpi::PivotPath p : paths<E>())
        for (const int rounds : {2, 4, 16}) {
          SCOPED_TRACE("B=" + std::to_string(B) + " graph " + std::to_string(gi) + " path " + std::to_string(int(p)) +
                       " rounds " + std::to_string(rounds));
          int64_t left_out = check_blocks<E>(graphs[gi], B, rounds, p, expected, path);
          MPI_Allreduce(MPI_IN_PLACE, &left_out, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
          // Where the backend marks operands (a GPU), the products with an operand of INF alone
          // are left out: the four components have many; a CPU marks none here.
          if (Impl::TileOps<E>::kMarksOperands) {
            if (gi == 1) {
              EXPECT_GT(left_out, 0);
            }
          } else {
            EXPECT_EQ(left_out, 0);
          }
        }
    }
  }
}

// The blocks never straddle two ranks' bands, never exceed the rounds asked for, and take a
// short last round alone.
TYPED_TEST(DistributedBlocksTest, BlocksLieWithinOneRanksRows) {
  using E = TypeParam;
  const int B = 16;
  for (const int v : {5 * B + 3, 21 * B, 40 * B + 1})
    for (const int rounds : {1, 2, 4, 8, 16}) {
      const int n = int(padded_size(v, B));
      const TileRowPartition part{n / B, ranks()};
      DistanceMatrix<E> d(v, B, int64_t(part.first(rank())) * B, int64_t(part.count(rank())) * B);
      const mpi::DistributedBlocks<E> blocks(MPI_COMM_WORLD, d, part, mpi::PivotPath::mpi_staged, rounds);
      for (int k = 0; k < n / B;) {
        const int size = blocks.block_rounds(k);
        EXPECT_TRUE(size == 1 || size == 2 || size == 4 || size == 8 || size == 16) << size;
        EXPECT_LE(size, rounds);
        EXPECT_EQ(part.owner(k), part.owner(k + size - 1)) << "V=" << v << " k=" << k << " size " << size;
        if (size > 1) {
          EXPECT_LE(int64_t(k + size) * B, v + B - 1) << "a short round inside a block";
        }
        k += size;
      }
    }
}

}  // namespace
}  // namespace apsp::test
