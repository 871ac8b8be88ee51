// SPDX-License-Identifier: BSD-3-Clause
// The tuned product in 16-bit lanes (solver/gpu/packed_tiles.hpp) and the products of several
// rounds on one pass over C, run on the host in HIP's tile shape (host_team.hpp), CUDA's packed
// add-min emulated: which tiles take 16-bit lanes, and every result against the product entry
// by entry.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "apsp/backends/backend_traits.hpp"
#include "apsp/core/constants.hpp"
#include "apsp/solver/gpu/packed_tiles.hpp"
#include "apsp/solver/gpu/register_tiles.hpp"
#include "apsp/solver/round_operands.hpp"
#include "host_team.hpp"
#include "reference.hpp"

namespace {

using apsp::Impl::Fixed;
using apsp::test::first_difference;
using register_tiles_test::at;
using register_tiles_test::HostTeam;
using register_tiles_test::PackedHip;
using register_tiles_test::reference_product;
using register_tiles_test::Shape;
using Hip = apsp::HipBackendTraits;

/// What packed_product_matches builds: C's entries uniform in [c_from, c_from + c_max] (and INF
/// one in `c_inf_one_in` if not 0), the operands' in [op_from, op_from + op_max] with INF one in
/// 9 and op_from + op_max itself on a whole pivot of each (so that the largest sums occur; where
/// C holds INF, one INF entry of C has no other path, and another no path at all), `planted`
/// (if not 0) in one entry of C; C may be A (phase 2); `operands_small` is what the caller
/// tells the product, and `least` which least entries of the operands (case 3): none, their
/// own, or 100 below them (a lower bound is all case 3 needs). `past_shift` (if not negative)
/// plants o + kCap + past_shift in one entry of C, o the least entries' sum.
struct PackedCase {
  int c_max, op_max;
  int32_t planted = 0;
  bool c_is_a = false;
  int c_inf_one_in = 0;
  bool operands_small = false;
  int c_from = 0, op_from = 0;
  enum Least { none, exact, below } least = none;
  int past_shift = -1;
};

/// The least entry of the B x B tile at `corner`.
int32_t least_of(const std::vector<int32_t>& m, int64_t corner, int64_t ld, int rows, int cols) {
  int32_t least = apsp::kInf;
  for (int r = 0; r < rows; ++r)
    for (int j = 0; j < cols; ++j) least = std::min(least, m[at(corner, r, ld, j)]);
  return least;
}

/// The tuned product C = min(C, A (min,+) Bk) on tiles (0, 0), (1, 0) (or C itself: phase 2)
/// and (0, 1) of a wider matrix, built as `pc` says, compared with the product entry by entry.
/// Returns whether the team took the packed product.
bool packed_product_matches(const PackedCase& pc, unsigned seed) {
  using S = Shape<PackedHip>;
  constexpr int kB = PackedHip::kMaxBlock, kS = PackedHip::slice_depth(kB);
  constexpr int32_t kCap = apsp::Impl::PackedTiles<PackedHip>::kCap;
  const int ld = 3 * kB + 8;
  std::mt19937 rng(seed);
  std::vector<int32_t> m(size_t(ld) * size_t(ld));
  for (auto& v : m) v = rng() % 9 == 0 ? apsp::kInf : pc.op_from + int32_t(rng() % unsigned(pc.op_max + 1));
  const int64_t a = pc.c_is_a ? 0 : int64_t(kB) * ld, bk = kB, c = 0;
  for (int r = 0; r < kB; ++r) m[at(a, r, ld, 7)] = m[at(bk, 7, ld, r)] = pc.op_from + pc.op_max;
  for (int r = 0; r < kB; ++r)
    for (int j = 0; j < kB; ++j)
      m[at(c, r, ld, j)] = pc.c_inf_one_in != 0 && rng() % unsigned(pc.c_inf_one_in) == 0
                               ? apsp::kInf
                               : pc.c_from + int32_t(rng() % unsigned(pc.c_max + 1));
  if (pc.planted != 0) m[at(c, kB / 3, ld, kB / 5)] = pc.planted;
  if (pc.c_inf_one_in != 0) {
    // Entry (kB / 2, kB / 4) of C, INF, reached only through pivot 7: the largest sum.
    const int r = kB / 2, j = kB / 4;
    for (int p = 0; p < kB; ++p)
      if (p != 7) m[at(a, r, ld, p)] = m[at(bk, p, ld, j)] = apsp::kInf;
    m[at(c, r, ld, j)] = apsp::kInf;
    // Entry (kB / 2 + 1, kB / 4 + 1), INF, whose every sum has one INF operand: INF stays.
    for (int p = 0; p < kB; ++p) {
      m[at(a, r + 1, ld, p)] = p == 3 ? 1 : apsp::kInf;
      m[at(bk, p, ld, j + 1)] = p == 3 ? apsp::kInf : 2;
    }
    m[at(c, r + 1, ld, j + 1)] = apsp::kInf;
  }
  // The marks: A's and Bk's bits, then their least entries (OperandMarks::least = 2).
  const int32_t lower = pc.least == PackedCase::below ? 100 : 0;
  int32_t marks[4] = {pc.operands_small ? 1 : 0, pc.operands_small ? 1 : 0, 0, 0};
  if (pc.past_shift >= 0)  // before C is read for the least entries: C may be A
    m[at(c, kB - 1, ld, kB - 2)] = apsp::kInf;
  marks[2] = least_of(m, a, ld, kB, kB) - lower;
  marks[3] = least_of(m, bk, ld, kB, kB) - lower;
  if (pc.past_shift >= 0) m[at(c, kB - 1, ld, kB - 2)] = marks[2] + marks[3] + kCap + pc.past_shift;
  apsp::OperandMarks told{};
  if (pc.operands_small || pc.least != PackedCase::none)
    told = apsp::OperandMarks{&marks[0], &marks[1], nullptr, nullptr, pc.least != PackedCase::none ? 2 : 0};
  std::vector<int32_t> expected = m;
  reference_product(expected, ld, c, a, bk, kB, kB);
  std::vector<int32_t> slices = S::scratch(kB);
  const int before = PackedHip::packed_teams.load();
  HostTeam::run(S::threads(kB), [&](const HostTeam& team) {
    S::Ops::product(team, m.data() + c, m.data() + a, m.data() + bk, ld, Fixed<kB>{}, Fixed<kS>{}, Fixed<kB / kS>{},
                    slices.data(), told);
  });
  EXPECT_EQ(first_difference(m, expected, ld), "")
      << "c_max " << pc.c_max << ", op_max " << pc.op_max << ", planted " << pc.planted << ", C INF one in "
      << pc.c_inf_one_in << (pc.c_is_a ? ", C is A" : "") << (pc.operands_small ? ", operands small" : "")
      << ", C from " << pc.c_from << ", operands from " << pc.op_from << ", least " << int(pc.least);
  return PackedHip::packed_teams.load() != before;
}

TEST(PackedTiles, AddMinPerHalfWord) {
  for (uint32_t c : {0u, 5u, 0x7fffu, 0xffffu})
    for (uint32_t a : {0u, 3u, 0x7fffu})
      for (uint32_t b : {0u, 9u, 0x7fffu}) {
        const uint32_t lo = std::min((a + b) & 0xffffu, c), hi = std::min((b + 2 * a) & 0xffffu, c ^ 1u);
        const int32_t got = apsp::Impl::portable_packed_min_plus(int32_t(c | (c ^ 1u) << 16), int32_t(a | a << 16),
                                                                 int32_t(b | (b + a) << 16));
        EXPECT_EQ(uint32_t(got), lo | hi << 16) << c << " " << a << " " << b;
      }
}

TEST(PackedTiles, TakenWhereEveryEntryOfCFitsAndExact) {
  // Sums below, at and above the cap, operands above it and INF: every result as in int32.
  EXPECT_TRUE(packed_product_matches({32767, 16000}, 1));
  EXPECT_TRUE(packed_product_matches({32767, 40000}, 2));
  EXPECT_TRUE(packed_product_matches({1000, 600}, 3));
  EXPECT_TRUE(packed_product_matches({30000, 20000, 32767}, 4));  // an entry at the cap itself
  // Told that the operands are small changes nothing where C holds no INF.
  EXPECT_TRUE(packed_product_matches({32767, 40000, 0, false, 0, true}, 9));
}

TEST(PackedTiles, PhaseTwoWithCAsTheOperand) { EXPECT_TRUE(packed_product_matches({20000, 12000, 0, true}, 5)); }

TEST(PackedTiles, Int32WhereAnEntryOfCDoesNotFit) {
  EXPECT_FALSE(packed_product_matches({1000, 600, 32768}, 6));  // one entry past the cap
  EXPECT_FALSE(packed_product_matches({1000, 600, apsp::kInf}, 7));
  EXPECT_FALSE(packed_product_matches({20000, 12000, apsp::kInf, true}, 8));
}

TEST(PackedTiles, TakenWithInfWhereTheOperandsAreSmall) {
  // Operands up to kSmall (sums up to kCap - 1), C's finite entries up to kCap - 1, INF in C
  // one in 3 (and everywhere but one entry): every result as in int32, INF where no path.
  constexpr int kSmall = apsp::Impl::PackedTiles<PackedHip>::kSmall;
  EXPECT_TRUE(packed_product_matches({32766, kSmall, 0, false, 3, true}, 10));
  EXPECT_TRUE(packed_product_matches({32766, kSmall, apsp::kInf, false, 0, true}, 11));
  EXPECT_TRUE(packed_product_matches({100, 50, 0, false, 1, true}, 12));
  EXPECT_TRUE(packed_product_matches({500, 300, 0, false, 2, true}, 13));
}

TEST(PackedTiles, Int32WithInfUnlessTheOperandsAreSmallAndCBelowTheCap) {
  constexpr int kSmall = apsp::Impl::PackedTiles<PackedHip>::kSmall;
  EXPECT_FALSE(packed_product_matches({1000, 600, 0, false, 3, false}, 14));                  // not told
  EXPECT_FALSE(packed_product_matches({1000, 600, 32767, false, 3, true}, 15));               // C at the cap
  EXPECT_FALSE(packed_product_matches({32766, kSmall, 40000, false, 3, true}, 16));           // past it
  EXPECT_FALSE(packed_product_matches({32766, kSmall, apsp::kInf - 1, false, 3, true}, 17));  // just short of INF
}

// Case 3: distances past the cap whose tile lies within kCap of the operands' least sum o
// (operands from 30000: o about 60000), some of C below o (no relaxation of the product reaches
// them), operands spread past the cap (their shifted entries capped), INF among them.
TEST(PackedTiles, TakenAfterAnOffsetWhereCLiesWithinTheCapOfTheLeastSum) {
  using Case = PackedCase;
  Case from_57000{35000, 40000};
  from_57000.c_from = 57000, from_57000.op_from = 30000, from_57000.least = Case::exact;
  EXPECT_TRUE(packed_product_matches(from_57000, 18));
  Case bounds_below = from_57000;  // least entries 100 below the operands' own: still exact
  bounds_below.least = Case::below;
  EXPECT_TRUE(packed_product_matches(bounds_below, 19));
  Case at_the_limit = from_57000;  // an entry of C at o + kCap itself
  at_the_limit.past_shift = 0;
  EXPECT_TRUE(packed_product_matches(at_the_limit, 20));
  Case heavy{30000, 60000};  // weights 40000..100000: C in [80000, 110000], every entry past 2^16
  heavy.c_from = 80000, heavy.op_from = 40000, heavy.least = Case::exact;
  EXPECT_TRUE(packed_product_matches(heavy, 21));
  Case told_small_too = heavy;  // the small mark alone does not make case 2
  told_small_too.operands_small = true;
  EXPECT_TRUE(packed_product_matches(told_small_too, 22));
}

TEST(PackedTiles, Int32WhereCSpreadsPastTheCapOfTheLeastSumOrHoldsInf) {
  using Case = PackedCase;
  Case past{35000, 40000};
  past.c_from = 57000, past.op_from = 30000, past.least = Case::exact;
  past.past_shift = 1;  // one entry of C at o + kCap + 1
  EXPECT_FALSE(packed_product_matches(past, 23));
  Case untold = past;  // the same tile within the cap, but no least entries kept
  untold.past_shift = -1, untold.least = Case::none;
  EXPECT_FALSE(packed_product_matches(untold, 24));
  Case inf = untold;  // INF in C (and the marks do not say the operands are small)
  inf.least = Case::exact, inf.c_inf_one_in = 50;
  EXPECT_FALSE(packed_product_matches(inf, 25));
}

/// Two rounds on one pass over C (gpu/pair_kernels.hpp), or four (gpu/round_block_kernels.hpp): the tuned
/// product over kRounds B pivots, A's columns and Bk's rows side by side as the rounds' operands
/// lie in the matrix, against the product entry by entry; in int32 (HIP's shape) and in 16-bit
/// lanes (PackedHip), the latter with C holding INF and the operands marked small (case 2
/// through every round: a pair's four tiles' marks, a quad's two strips'), or with operands from
/// `op_from` and C from 2 op_from - 2000 and their least entries marked (case 3: each round's
/// own for a pair, the strips' for a quad).
template <class Traits, int kRounds = 2>
bool rounds_match(unsigned seed, int op_max, int c_inf_one_in, bool marked, int op_from = 0) {
  using S = Shape<Traits>;
  constexpr int kB = Traits::kMaxBlock, kS = Traits::slice_depth(kB);
  const int ld = (kRounds + 2) * kB + 8;
  std::mt19937 rng(seed);
  std::vector<int32_t> m(size_t(ld) * size_t(ld));
  for (auto& v : m) v = rng() % 9 == 0 ? apsp::kInf : op_from + int32_t(rng() % unsigned(op_max + 1));
  const int64_t c = int64_t(2) * kB, a = int64_t(kB) * ld, bk = int64_t(2) * kB * ld + int64_t(2) * kB;
  const int32_t c_from = op_from > 0 ? 2 * op_from - 2000 : 0;
  for (int r = 0; r < kB; ++r)
    for (int j = 0; j < kB; ++j)
      m[at(c, r, ld, j)] =
          c_inf_one_in != 0 && rng() % unsigned(c_inf_one_in) == 0 ? apsp::kInf : c_from + int32_t(rng() % 30000);
  std::vector<int32_t> expected = m;
  reference_product(expected, ld, c, a, bk, kB, kRounds * kB);
  std::vector<int32_t> slices = S::scratch(kB);
  // Each round's (or the strips') marks, then their least entries.
  const int32_t bits = op_from > 0 ? 0 : 1;
  std::vector<int32_t> f(8, bits);
  const int per = kRounds == 2 ? kB : kRounds * kB;  // the pivots one mark covers
  for (int t = 0; t < kRounds * kB / per; ++t) {
    f[size_t(4) + size_t(2) * size_t(t)] = least_of(m, a + int64_t(t) * per, ld, kB, per);
    f[size_t(5) + size_t(2) * size_t(t)] = least_of(m, bk + int64_t(t) * per * ld, ld, per, kB);
  }
  const int64_t least = op_from > 0 ? 4 : 0;
  apsp::OperandMarks marks{};
  if (marked)
    marks = kRounds == 2 ? apsp::OperandMarks{&f[0], &f[1], &f[2], &f[3], least}
                         : apsp::OperandMarks{&f[0], &f[1], nullptr, nullptr, least};
  bool sixteen = false;
  HostTeam::run(S::threads(kB), [&](const HostTeam& team) {
    const bool s = S::Ops::product(team, m.data() + c, m.data() + a, m.data() + bk, ld, Fixed<kB>{}, Fixed<kS>{},
                                   Fixed<kRounds * kB / kS>{}, slices.data(), marks);
    if (team.team_rank() == 0) sixteen = s;
  });
  EXPECT_EQ(first_difference(m, expected, ld), "") << "seed " << seed;
  return sixteen;
}

TEST(RegisterTilesHipShape, TwoRoundsOnOnePassMatchTheProduct) {
  EXPECT_FALSE(rounds_match<Hip>(21, 100, 0, false));
  EXPECT_FALSE(rounds_match<Hip>(22, 100, 5, false));
}

TEST(PackedTiles, TwoRoundsOnOnePassMatchTheProduct) {
  constexpr int kSmall = apsp::Impl::PackedTiles<PackedHip>::kSmall;
  EXPECT_TRUE(rounds_match<PackedHip>(23, 1000, 0, false));     // case 1 through both rounds
  EXPECT_TRUE(rounds_match<PackedHip>(24, kSmall, 4, true));    // case 2: INF in C, all marked
  EXPECT_FALSE(rounds_match<PackedHip>(25, kSmall, 4, false));  // not told: int32
  // Case 3: operands from 30000, C from 58000, each round's least entries marked.
  EXPECT_TRUE(rounds_match<PackedHip>(30, 40000, 0, true, 30000));
  EXPECT_FALSE(rounds_match<PackedHip>(31, 40000, 0, false, 30000));  // no least entries: int32
}

TEST(RegisterTilesHipShape, FourRoundsOnOnePassMatchTheProduct) {
  EXPECT_FALSE((rounds_match<Hip, 4>(26, 100, 5, false)));
}

TEST(PackedTiles, FourRoundsOnOnePassMatchTheProduct) {
  constexpr int kSmall = apsp::Impl::PackedTiles<PackedHip>::kSmall;
  EXPECT_TRUE((rounds_match<PackedHip, 4>(27, 1000, 0, false)));         // case 1 through every round
  EXPECT_TRUE((rounds_match<PackedHip, 4>(28, kSmall, 4, true)));        // case 2: INF in C, strips marked
  EXPECT_FALSE((rounds_match<PackedHip, 4>(29, kSmall, 4, false)));      // not told: int32
  EXPECT_TRUE((rounds_match<PackedHip, 4>(32, 40000, 0, true, 30000)));  // case 3: the strips' least entries
}

}  // namespace
