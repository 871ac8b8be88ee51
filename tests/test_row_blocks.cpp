// SPDX-License-Identifier: BSD-3-Clause
// The pieces a distributed run stands on, in one process: the split of tile rows among
// processes, and a matrix built as blocks of rows (what each rank builds) against the whole.
#include <gtest/gtest.h>

#include "apsp/solver/tile_row_partition.hpp"
#include "backends_under_test.hpp"
#include "reference.hpp"

namespace apsp::test {
namespace {

TEST(TileRowPartition, ContiguousBalancedAndOwned) {
  for (int tiles = 1; tiles <= 40; ++tiles)
    for (int parts = 1; parts <= 9; ++parts) {
      const TileRowPartition p{tiles, parts};
      int next = 0, smallest = tiles, largest = 0;
      for (int r = 0; r < parts; ++r) {
        EXPECT_EQ(p.first(r), next) << tiles << " tiles, " << parts << " parts, rank " << r;
        for (int t = p.first(r); t < p.first(r) + p.count(r); ++t) EXPECT_EQ(p.owner(t), r) << tiles << "/" << parts;
        next += p.count(r);
        smallest = std::min(smallest, p.count(r));
        largest = std::max(largest, p.count(r));
      }
      EXPECT_EQ(next, tiles);
      EXPECT_LE(largest - smallest, 1);
    }
}

template <class ExecSpace>
class RowBlocks : public ::testing::Test {};
TYPED_TEST_SUITE(RowBlocks, Backends, BackendName);

// Rows built block by block (each block keeping only the edges out of its rows) equal the
// rows of the whole matrix, for splits that leave some blocks empty.
TYPED_TEST(RowBlocks, BuiltPerBlockMatchTheWholeMatrix) {
  using E = TypeParam;
  const int B = BackendTraits<E>::default_block;
  const Graph g = random_graph(3 * B + 5, 0.05, 0, 9, 77);
  TempDir dir;
  write_graph(dir.file("g.bin"), g);
  const GraphFile file = GraphFile::open(dir.file("g.bin"));
  DistanceMatrix<E> whole(g.vertices, B);
  initialise_from_edges(whole, file);
  auto all = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), whole.data);
  for (int parts : {1, 2, 3, 6}) {
    const TileRowPartition p{whole.blocks(), parts};
    for (int r = 0; r < parts; ++r) {
      DistanceMatrix<E> rows(g.vertices, B, int64_t(p.first(r)) * B, int64_t(p.count(r)) * B);
      initialise_from_edges(rows, file);
      auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rows.data);
      ASSERT_EQ(h.extent(0), size_t(rows.rows * rows.n));
      for (size_t i = 0; i < h.extent(0); ++i)
        ASSERT_EQ(h(i), all(size_t(rows.first_row * rows.n) + i)) << parts << " parts, rank " << r << ", entry " << i;
    }
  }
}

}  // namespace
}  // namespace apsp::test
