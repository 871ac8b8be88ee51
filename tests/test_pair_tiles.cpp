// SPDX-License-Identifier: BSD-3-Clause
// The tiles of a pair of rounds (solver/gpu/pair_kernels.hpp), counted against what blocked
// Floyd-Warshall asks of rounds k and q = k + 1: with the pair's opening (phases 1 and 2 of
// each, round k's phase 3 on tile row and column q), every tile gets each round once; the
// lagging parts take round q alone on tile row and column k, the fused ones both rounds off rows
// and columns k and q; the cross parts hold exactly what the next block's opening needs (tile
// rows and columns R, those of it not finished already) and the rest parts nothing of R.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "apsp/solver/gpu/pair_kernels.hpp"

namespace apsp::test {
namespace {

using Tiles = Impl::PairTiles<int32_t>;

TEST(PairTiles, EveryTileGetsBothRoundsOnce) {
  for (int nb = 2; nb <= 9; ++nb)
    for (int k = 0; k + 1 < nb; k += 2)
      for (int next = 0; next <= 2 && k + 2 + next <= nb; ++next) {
        SCOPED_TRACE("nb " + std::to_string(nb) + ", k " + std::to_string(k) + ", next " + std::to_string(next));
        const int q = k + 1;
        std::vector<int> rk(size_t(nb * nb), 0), rq(size_t(nb * nb), 0);
        auto at = [&](int i, int j) { return size_t(i) * size_t(nb) + size_t(j); };
        // The opening: phases 1 and 2 of k, round k on row and column q, phases 1 and 2 of q.
        for (int t = 0; t < nb; ++t) {
          ++rk[at(k, t)];
          if (t != k) ++rk[at(t, k)];
          if (t != k) ++rk[at(q, t)];
          if (t != k && t != q) ++rk[at(t, q)];
          ++rq[at(q, t)];
          if (t != q) ++rq[at(t, q)];
        }
        const auto in_next = [&](int t) { return t >= k + 2 && t < k + 2 + next; };
        for (auto part : {Tiles::rest_fused, Tiles::rest_lagging, Tiles::cross_fused, Tiles::cross_lagging}) {
          const Tiles tiles{nullptr, 0, 128, k, nb, next, part, {}, {}, nullptr};
          const bool cross = part == Tiles::cross_fused || part == Tiles::cross_lagging;
          for (int id = 0; id < tiles.league(); ++id) {
            int i = -1, j = -1;
            tiles.tile_of(id, i, j);
            ASSERT_TRUE(i >= 0 && i < nb && j >= 0 && j < nb) << i << " " << j;
            EXPECT_EQ(cross, in_next(i) || in_next(j)) << "tile (" << i << ", " << j << ")";
            if (tiles.fused()) {
              EXPECT_TRUE(i != k && i != q && j != k && j != q) << "tile (" << i << ", " << j << ")";
              ++rk[at(i, j)];
            } else {
              EXPECT_TRUE(i == k || j == k) << "tile (" << i << ", " << j << ")";
            }
            ++rq[at(i, j)];
          }
        }
        for (int i = 0; i < nb; ++i)
          for (int j = 0; j < nb; ++j) {
            EXPECT_EQ(rk[at(i, j)], 1) << "round k, tile (" << i << ", " << j << ")";
            EXPECT_EQ(rq[at(i, j)], 1) << "round q, tile (" << i << ", " << j << ")";
          }
      }
}

}  // namespace
}  // namespace apsp::test
