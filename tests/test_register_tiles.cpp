// SPDX-License-Identifier: BSD-3-Clause
// The GPU shape of the tile operations (solver/gpu/register_tiles.hpp) run on the host, for a GPU
// backend's tile shape whose traits compile there (HIP's: no AMD GPU was at hand to run it on):
// a team is that many host threads with a real barrier, each running the very function a GPU
// thread runs, and the result is compared with min-plus products and Floyd-Warshall computed
// entry by entry.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "apsp/backends/backend_traits.hpp"
#include "apsp/core/constants.hpp"
#include "apsp/solver/gpu/register_tiles.hpp"
#include "host_team.hpp"
#include "reference.hpp"

namespace {

using apsp::Impl::Fixed;
using apsp::test::first_difference;
using register_tiles_test::at;
using register_tiles_test::HostTeam;
using register_tiles_test::reference_product;
using register_tiles_test::Shape;

/// A random ld x ld matrix of weights in [0, 100] (and kInf in one entry of `inf_one_in`).
std::vector<int32_t> random_matrix(int ld, unsigned seed, int inf_one_in = 7) {
  std::mt19937 rng(seed);
  std::vector<int32_t> m(size_t(ld) * size_t(ld));
  for (auto& v : m) v = rng() % unsigned(inf_one_in) == 0 ? apsp::kInf : int32_t(rng() % 101);
  return m;
}

template <class Traits>
void expect_products_match(int B, int pivots, bool tuned, bool c_is_a) {
  using S = Shape<Traits>;
  const int ld = 3 * B + 8;  // the tiles (0, 0), (0, 1), (1, 0) of a wider matrix
  std::vector<int32_t> m = random_matrix(ld, unsigned(B * 131 + pivots * 7 + tuned + 2 * c_is_a));
  const int64_t a = c_is_a ? 0 : int64_t(B) * ld, bk = B, c = 0;  // phase 2: C is A
  // Past `pivots` (the last round's padding past V) A's columns and Bk's rows are INF, as in a solve.
  for (int r = 0; r < B; ++r)
    for (int p = pivots; p < B; ++p) m[at(a, r, ld, p)] = m[at(bk, p, ld, r)] = apsp::kInf;
  std::vector<int32_t> expected = m;
  reference_product(expected, ld, c, a, bk, B, pivots);
  std::vector<int32_t> slices = S::scratch(B);
  HostTeam::run(S::threads(B), [&](const HostTeam& team) {
    if (tuned) {
      constexpr int kB = Traits::kMaxBlock, kS = Traits::slice_depth(kB);
      S::Ops::product(team, m.data() + c, m.data() + a, m.data() + bk, ld, Fixed<kB>{}, Fixed<kS>{}, Fixed<kB / kS>{},
                      slices.data());
    } else {
      const int depth = Traits::slice_depth(B);
      S::Ops::product(team, m.data() + c, m.data() + a, m.data() + bk, ld, B, depth, (pivots + depth - 1) / depth,
                      slices.data());
    }
  });
  EXPECT_EQ(first_difference(m, expected, ld), "")
      << "B " << B << ", pivots " << pivots << (tuned ? ", tuned" : ", general") << (c_is_a ? ", C is A" : "");
}

template <class Traits>
void expect_closure_matches(int B, int pivots) {
  using S = Shape<Traits>;
  const int ld = B + 4;
  std::vector<int32_t> m = random_matrix(ld, unsigned(B * 17 + pivots), 3);
  for (int r = 0; r < B; ++r) m[at(0, r, ld, r)] = 0;
  std::vector<int32_t> expected = m;
  for (int p = 0; p < pivots; ++p)
    for (int r = 0; r < B; ++r)
      for (int j = 0; j < B; ++j) {
        const int32_t s = expected[at(0, r, ld, p)] + expected[at(0, p, ld, j)];
        if (s < expected[at(0, r, ld, j)]) expected[at(0, r, ld, j)] = s;
      }
  std::vector<int32_t> buffers(size_t(4) * size_t(B), -7777);
  HostTeam::run(S::threads(B),
                [&](const HostTeam& team) { S::Ops::close(team, m.data(), ld, B, pivots, buffers.data()); });
  EXPECT_EQ(first_difference(m, expected, ld), "") << "B " << B << ", pivots " << pivots;
}

using Hip = apsp::HipBackendTraits;

TEST(RegisterTilesHipShape, TunedProductMatchesEntryByEntry) {
  expect_products_match<Hip>(Hip::kMaxBlock, Hip::kMaxBlock, true, false);
  expect_products_match<Hip>(Hip::kMaxBlock, Hip::kMaxBlock, true, true);
}

TEST(RegisterTilesHipShape, GeneralProductsAtEveryBlockAndShortRounds) {
  for (int B = Hip::kMinBlock; B <= Hip::kMaxBlock; B *= 2)
    for (int pivots : {B, B - 1, B / 2 + 3, 1}) expect_products_match<Hip>(B, pivots, false, pivots % 2 == 1);
}

TEST(RegisterTilesHipShape, ClosureMatchesFloydWarshall) {
  for (int B = Hip::kMinBlock; B <= Hip::kMaxBlock; B *= 2)
    for (int pivots : {B, B - 5}) expect_closure_matches<Hip>(B, pivots);
}

TEST(RegisterTilesHipShape, PairFormIsTwoRelaxationsUpToInfinity) {
  const int32_t inf = apsp::kInf;
  for (int32_t c : {0, 5, 100, inf})
    for (int32_t a0 : {0, 3, inf})
      for (int32_t a1 : {0, 7, inf})
        for (int32_t b0 : {0, 2, inf})
          for (int32_t b1 : {1, 9, inf}) {
            const int64_t exact = std::min({int64_t(c), int64_t(a0) + b0, int64_t(a1) + b1});
            EXPECT_EQ(Hip::min_plus_pair(c, a0, b0, a1, b1, Hip::unit()), exact);
          }
}

}  // namespace
