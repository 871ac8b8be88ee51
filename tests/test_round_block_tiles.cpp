// SPDX-License-Identifier: BSD-3-Clause
// The tiles of a block of R rounds (solver/round_block_kernels.hpp), counted against blocked
// Floyd-Warshall: the opening (for each round p of the block, phases 1 and 2, then round p on the
// rest of the block's tile rows and columns) and the fused products give every tile each round
// once, the opening's rounds in order and never writing tile row or column p in round p (its
// operands); the cross part holds exactly the next block's rows and columns off the block's,
// the rest nothing of them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "apsp/solver/round_block_kernels.hpp"

namespace apsp::test {
namespace {

TEST(RoundBlockTiles, EveryTileGetsEachRoundOnce) {
  for (const int R : {4, 8})
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
          for (int r = 0; r < R; ++r) {
            const int p = k + r;
            for (int t = 0; t < nb; ++t) {  // phases 1 and 2 of round p
              apply(p, t, r);
              if (t != p) apply(t, p, r);
            }
            const Impl::StripRoundTiles<int32_t> strips{nullptr, 0, 128, k, R, r, nb, 128};
            for (int id = 0; id < strips.league(); ++id) {
              int i = -1, j = -1;
              strips.tile_of(id, i, j);
              ASSERT_TRUE(i >= 0 && i < nb && j >= 0 && j < nb) << i << " " << j;
              EXPECT_TRUE(in_block(i) || in_block(j)) << "tile (" << i << ", " << j << ") is off the strips";
              EXPECT_TRUE(i != p && j != p) << "round " << p << " writes its own operand (" << i << ", " << j << ")";
              apply(i, j, r);
            }
          }
          // The strips are final now: every fused tile takes the R rounds at once.
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

}  // namespace
}  // namespace apsp::test
