// SPDX-License-Identifier: BSD-3-Clause
// The tiles of a block of R rounds (solver/gpu/round_block_kernels.hpp), counted against blocked
// Floyd-Warshall: the opening (the diagonal block D, as RowBlock::diagonal gives it, closed by
// the phase kernels round by round; then the strips in one product each) and the fused products
// give every tile each round once, D's rounds in order and never writing tile row or column p in
// round p's phase 3 (its operands); the strips part holds exactly the block's rows and columns
// off D, the cross part exactly the next block's rows and columns off the block's, the rest
// nothing of them.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "apsp/solver/gpu/round_block_kernels.hpp"
#include "apsp/solver/phase_kernels.hpp"
#include "apsp/solver/row_block.hpp"

namespace apsp::test {
namespace {

TEST(RoundBlockTiles, EveryTileGetsEachRoundOnce) {
  for (const int R : {4, 8, 16})
    for (int nb = R; nb <= 2 * R + 6; ++nb)
      for (int k = 0; k + R <= nb; k += R)
        for (int next = 0; next <= R && k + R + next <= nb; ++next) {
          SCOPED_TRACE("R " + std::to_string(R) + ", nb " + std::to_string(nb) + ", k " + std::to_string(k) +
                       ", next " + std::to_string(next));
          auto at = [&](int i, int j) { return size_t(i) * size_t(nb) + size_t(j); };
          std::vector<int> got(size_t(nb * nb * R), 0), last(size_t(nb * nb), -1);
          auto apply = [&](int i, int j, int r) {
            ++got[at(i, j) * R + size_t(r)];
            EXPECT_GT(r, last[at(i, j)]) << "tile (" << i << ", " << j << ") took round " << r << " out of order";
            last[at(i, j)] = r;
          };
          const auto in_block = [&](int t) { return t >= k && t < k + R; };
          // D as the driver makes it (RowBlock::diagonal), here of a matrix of nb one-entry tiles;
          // the tile maps from its fields as BlockedFloydWarshall::phase2 and phase3 build them.
          std::vector<int32_t> entries(size_t(nb) * size_t(nb));
          const RowBlock D = RowBlock{entries.data(), 0, nb, nb, 1, nb, nb}.diagonal(k, R);
          ASSERT_EQ(D.col_tiles, R);
          ASSERT_EQ(D.row_tiles, R);
          for (int r = 0; r < R; ++r) {  // D, as a matrix of R tile rows
            const int p = k + r;
            ASSERT_EQ(D.k_local(r), r);
            ASSERT_EQ(D.pivots(r), 1);
            apply(p, p, r);  // phase 1
            const Impl::PivotRowColumnTiles<int32_t> cross{
                nullptr, nullptr, 0, D.block, r, D.col_tiles, D.row_tiles, D.k_local(r), true, true, D.pivots(r)};
            for (int id = 0; id < cross.row_teams() + cross.column_teams(); ++id) {
              bool in_row = false;
              int other = -1;
              cross.tile_of(id, in_row, other);
              ASSERT_TRUE(other >= 0 && other < R && other != r) << other;
              apply(in_row ? p : k + other, in_row ? k + other : p, r);
            }
            const Impl::RemainingTiles<int32_t> others{nullptr,     nullptr,      0, D.block,    r,
                                                       D.col_tiles, D.k_local(r), 1, D.pivots(r)};
            for (int id = 0; id < (D.row_tiles - 1) * (D.col_tiles - 1); ++id) {
              int i = -1, j = -1;
              others.tile_of(id, i, j);
              ASSERT_TRUE(i >= 0 && i < R && j >= 0 && j < R) << i << " " << j;
              EXPECT_TRUE(i != r && j != r) << "round " << p << " writes its own operand (" << i << ", " << j << ")";
              apply(k + i, k + j, r);
            }
          }
          // D is closed: every strip tile takes the R rounds at once.
          const Impl::BlockTiles<int32_t> strips{nullptr, 0, 128, k, R, nb, 0, Impl::BlockTiles<int32_t>::strips};
          for (int id = 0; id < strips.league(); ++id) {
            int i = -1, j = -1;
            strips.tile_of(id, i, j);
            ASSERT_TRUE(i >= 0 && i < nb && j >= 0 && j < nb) << i << " " << j;
            EXPECT_NE(in_block(i), in_block(j)) << "tile (" << i << ", " << j << ") is not a strip's, off D";
            for (int r = 0; r < R; ++r) apply(i, j, r);
          }
          // The strips are final now: so is every fused tile after its one product.
          const auto in_next = [&](int t) { return t >= k + R && t < k + R + next; };
          for (auto part : {Impl::BlockTiles<int32_t>::rest, Impl::BlockTiles<int32_t>::cross}) {
            const Impl::BlockTiles<int32_t> tiles{nullptr, 0, 128, k, R, nb, next, part, nullptr, nullptr};
            for (int id = 0; id < tiles.league(); ++id) {
              int i = -1, j = -1;
              tiles.tile_of(id, i, j);
              ASSERT_TRUE(i >= 0 && i < nb && j >= 0 && j < nb) << i << " " << j;
              EXPECT_FALSE(in_block(i) || in_block(j)) << "fused tile (" << i << ", " << j << ") on the strips";
              EXPECT_EQ(part == Impl::BlockTiles<int32_t>::cross, in_next(i) || in_next(j))
                  << "tile (" << i << ", " << j << ")";
              for (int r = 0; r < R; ++r) apply(i, j, r);
            }
          }
          for (int i = 0; i < nb; ++i)
            for (int j = 0; j < nb; ++j)
              for (int r = 0; r < R; ++r)
                EXPECT_EQ(got[at(i, j) * R + size_t(r)], 1) << "round " << k + r << ", tile (" << i << ", " << j << ")";
        }
}

// The strips' product reads strip operands that other teams of its kernel lower meanwhile, so it
// takes no least entries (PackedTiles' case 3 subtracts them from every operand); the fused
// products, over final operands, take them.
TEST(RoundBlockTiles, OnlyTheFusedProductsTakeTheStripsLeastEntries) {
  const int nb = 10;
  const std::vector<int32_t> marks(size_t(12 * nb), 0);
  for (auto part :
       {Impl::BlockTiles<int32_t>::strips, Impl::BlockTiles<int32_t>::rest, Impl::BlockTiles<int32_t>::cross}) {
    const Impl::BlockTiles<int32_t> t{nullptr, 0, 128, 0, 4, nb, 4, part, marks.data(), nullptr, int64_t(6) * nb};
    EXPECT_EQ(t.marks_of(5, 7).least, part == Impl::BlockTiles<int32_t>::strips ? 0 : int64_t(6) * nb);
    EXPECT_EQ(t.marks_of(5, 7).bk, marks.data() + nb + 7);
  }
}

}  // namespace
}  // namespace apsp::test
