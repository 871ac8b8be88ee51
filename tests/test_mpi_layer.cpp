// SPDX-License-Identifier: BSD-3-Clause
// The MPI layer's pieces on every rank of a real launch (ctest runs this at 1, 2 and 3 ranks):
// the row partition as the ranks hold it, the distributed rounds against the single-device
// solver (every pivot-row path the build has, timed and untimed), the shared output file, and the
// agreement on errors and on the self-check's verdict.
#include <gtest/gtest.h>
#include <mpi.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "apsp/mpi/distributed_fw.hpp"
#include "apsp/mpi/runtime.hpp"
#include "apsp/mpi/shared_output.hpp"
#include "backends_under_test.hpp"
#include "mpi/collective.hpp"
#include "mpi/mpi_ranks.hpp"
#include "mpi_world.hpp"
#include "reference.hpp"

namespace apsp::test {
namespace {

/// Ranks on this rank's node (the most on any node).
int most_ranks_on_a_node() {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int here = 1, most = 1;
  MPI_Comm_size(node, &here);
  MPI_Comm_free(&node);
  MPI_Allreduce(&here, &most, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return most;
}

std::vector<char> read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(f), {});
}

TEST(MpiPartition, RanksHoldEveryTileRowOnceInOrder) {
  for (int tiles : {1, 2, 3, 7, 40}) {
    const TileRowPartition p{tiles, ranks()};
    int mine[2] = {p.first(rank()), p.count(rank())};
    std::vector<int> all(size_t(2 * ranks()));
    MPI_Allgather(mine, 2, MPI_INT, all.data(), 2, MPI_INT, MPI_COMM_WORLD);
    int next = 0;
    for (int r = 0; r < ranks(); ++r) {
      EXPECT_EQ(all[size_t(2 * r)], next) << tiles << " tiles, rank " << r;
      next += all[2 * size_t(r) + 1];
    }
    EXPECT_EQ(next, tiles);
  }
}

template <class ExecSpace>
class DistributedRounds : public ::testing::Test {};
TYPED_TEST_SUITE(DistributedRounds, Backends, BackendName);

// Each rank builds its rows and runs the rounds with the others; its rows must equal the same
// rows of the single-device solve (which every rank computes on its own), for graphs with
// fewer tile rows than ranks, V not a multiple of B, and long paths across ranks.
TYPED_TEST(DistributedRounds, RowsMatchTheSingleDeviceSolver) {
  using E = TypeParam;
  const int B = BackendTraits<E>::default_block;
  Graph chain{3 * B + 5, {}};
  for (int32_t i = 0; i + 1 < chain.vertices; ++i)
    chain.edges.push_back({chain.vertices - 1 - i, chain.vertices - 2 - i, 7});
  const std::vector<Graph> graphs{random_graph(B / 2 + 3, 0.2, 0, 1000, 5), random_graph(3 * B + 5, 0.03, 0, 1000, 6),
                                  chain};
  SharedDir dir;
  for (size_t gi = 0; gi < graphs.size(); ++gi) {
    const Graph& g = graphs[gi];
    const std::string path = dir.file("g" + std::to_string(gi) + ".bin");
    if (rank() == 0) write_graph(path, g);
    MPI_Barrier(MPI_COMM_WORLD);
    const auto expected = blocked_apsp<E>(g, B);
    const GraphFile file = GraphFile::open(path);
    const int n = int(padded_size(g.vertices, B));
    const TileRowPartition part{n / B, ranks()};
    // Every path pivot rows can take with this backend and this MPI: staged through pinned
    // host memory always; handed to MPI where they lie where MPI can read that memory (a host
    // backend, or CUDA- or ROCm-aware MPI); the devices' own broadcast where the build has it
    // (NCCL); each GPU's copies from the owner's memory where the node's GPUs can (IPC).
    using Path = mpi::PivotPath;
    std::vector<Path> paths{Path::mpi_staged};
    if (host_is_device<E>() || mpi::device_aware(BackendRuntime<E>::kMpiDeviceApi)) paths.push_back(Path::mpi_direct);
    // NCCL takes one GPU per rank: not where ranks outnumber a node's GPUs (they share one).
    if (mpi::DistributedFloydWarshall<E>::has_device_collectives() &&
        BackendRuntime<E>::visible_devices() >= most_ranks_on_a_node())
      paths.push_back(Path::device_collective);
    if (mpi::DistributedFloydWarshall<E>::has_device_peers() && most_ranks_on_a_node() == ranks() &&
        mpi::DistributedFloydWarshall<E>::device_peers_work(MPI_COMM_WORLD))
      paths.push_back(Path::device_peer);
    for (const Path path : paths)
      for (const bool timed : {false, true}) {
        SCOPED_TRACE("V=" + std::to_string(g.vertices) + " path " + std::to_string(int(path)) +
                     (timed ? " timed" : ""));
        DistanceMatrix<E> d(g.vertices, B, int64_t(part.first(rank())) * B, int64_t(part.count(rank())) * B);
        initialise_from_edges(d, file);
        typename mpi::DistributedFloydWarshall<E>::Seconds s;
        int rounds_seen = 0;
        mpi::DistributedFloydWarshall<E>(MPI_COMM_WORLD, d, part, path).solve(s, timed, [&](int done, int rounds) {
          EXPECT_EQ(done, ++rounds_seen);
          EXPECT_EQ(rounds, n / B);
        });
        EXPECT_EQ(rounds_seen, n / B);
        EXPECT_EQ(rows_differing(d, expected), 0) << "rank " << rank();
      }
  }
}

// Every rank writes its rows of one file, through the node's shared mapping and through
// MPI-IO; the file appears only at commit, and a file never committed leaves nothing behind.
TEST(MpiSharedOutput, EveryRankWritesItsRowsOfOneFile) {
  SharedDir dir;
  const int64_t v = 37, ld = 40;
  const TileRowPartition part{int(v), ranks()};  // one row per "tile"
  std::vector<int32_t> m(size_t(v * ld));
  for (size_t i = 0; i < m.size(); ++i) m[i] = int32_t(i * 7919 % 100003);
  for (const bool one_node : {true, false}) {
    const std::string path = dir.file(one_node ? "mapped" : "mpiio");
    {
      mpi::SharedOutputFile out(MPI_COMM_WORLD, path, v, one_node, 2);
      const int64_t first = part.first(rank()), rows = part.count(rank());
      std::atomic<int64_t> covered{0};
      std::atomic<int> with_memory{0};
      out.reserve_rows(first, rows, [&](int64_t, int64_t count, char* memory) {  // from several threads
        covered += count;
        with_memory += memory != nullptr;
        return false;
      });
      EXPECT_EQ(with_memory.load(), 0);
      EXPECT_EQ(covered, rows);
      out.write_rows(m.data() + first * ld, first, rows, ld);
      out.commit();
    }
    if (rank() == 0) {
      const auto bytes = read_bytes(path);
      ASSERT_EQ(bytes.size(), size_t(v * v * 4)) << path;
      const auto* got = reinterpret_cast<const int32_t*>(bytes.data());
      for (int64_t r = 0; r < v; ++r)
        for (int64_t c = 0; c < v; ++c) ASSERT_EQ(got[r * v + c], m[size_t(r * ld + c)]) << path;
    }
  }
  const std::string kept = dir.file("kept");
  if (rank() == 0) write_raw(kept, {42});
  MPI_Barrier(MPI_COMM_WORLD);
  { mpi::SharedOutputFile out(MPI_COMM_WORLD, kept, v, true, 1); }  // no commit: as when a run fails
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank() == 0) {
    const auto bytes = read_bytes(kept);
    ASSERT_EQ(bytes.size(), 4u);
    EXPECT_EQ(*reinterpret_cast<const int32_t*>(bytes.data()), 42);
    for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(kept).parent_path()))
      EXPECT_EQ(entry.path().filename().string().rfind("kept.tmp", 0), std::string::npos) << entry.path();
  }
}

// A stage that fails on some ranks fails on every rank, with the error of the lowest failing
// rank and its kind (bad input, bad option, other).
TEST(MpiErrorAgreement, EveryRankThrowsTheLowestFailingRanksError) {
  EXPECT_NO_THROW(mpi::collectively(MPI_COMM_WORLD, [] {}));
  const int last = ranks() - 1;
  try {
    mpi::collectively(MPI_COMM_WORLD, [&] {
      if (rank() >= last) throw InputError("bad edge on rank " + std::to_string(rank()));
    });
    ADD_FAILURE() << "no error on rank " << rank();
  } catch (const InputError& e) {
    const std::string expected =
        (last > 0 ? "rank " + std::to_string(last) + ": " : std::string()) + "bad edge on rank " + std::to_string(last);
    EXPECT_EQ(std::string(e.what()), expected);
  }
  EXPECT_THROW(mpi::collectively(MPI_COMM_WORLD,
                                 [&] {
                                   if (rank() == 0) throw std::invalid_argument("bad option");
                                 }),
               std::invalid_argument);
  EXPECT_THROW(mpi::collectively(MPI_COMM_WORLD,
                                 [&] {
                                   if (rank() == last) throw std::runtime_error("disk full");
                                 }),
               std::runtime_error);
  EXPECT_TRUE(mpi::failure_agreed());
}

// The self-check's verdict over ranks: rows summed, the lowest failing rank's mismatch.
TEST(MpiErrorAgreement, SelfCheckVerdictsCombine) {
  VerifyReport mine;
  mine.rows_checked = rank() + 1;
  mine.seconds = 0.5 * rank();
  const bool fails = rank() % 2 == 1 || ranks() == 1;
  if (fails) {
    mine.passed = false;
    mine.first_mismatch = "d(" + std::to_string(rank()) + ", 0) = 1, Dijkstra gives 2";
  }
  const VerifyReport all = mpi::combine_verdicts(MPI_COMM_WORLD, mine);
  EXPECT_EQ(all.rows_checked, int64_t(ranks()) * (ranks() + 1) / 2);
  EXPECT_DOUBLE_EQ(all.seconds, 0.5 * (ranks() - 1));
  EXPECT_FALSE(all.passed);
  const int first = ranks() == 1 ? 0 : 1;
  EXPECT_EQ(all.first_mismatch, "d(" + std::to_string(first) + ", 0) = 1, Dijkstra gives 2");
  EXPECT_EQ(mpi::devices_of_all_ranks(MPI_COMM_WORLD, "CPU"),
            ranks() > 1 ? "CPU x" + std::to_string(ranks()) : std::string("CPU"));
}

}  // namespace
}  // namespace apsp::test
