// SPDX-License-Identifier: BSD-3-Clause
// The CPU solve's 16-bit stage (solver/host/sixteen.hpp): the test that starts it, the in-place
// narrowing and widening, and whole solves that take it or do not, against the naive
// Floyd-Warshall, on every CPU backend of a build with 16-bit lanes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "apsp/solver/blocked_fw.hpp"
#include "apsp/solver/host/sixteen.hpp"
#include "apsp/solver/lane_tally.hpp"
#include "backends_under_test.hpp"
#include "reference.hpp"

namespace apsp::test {
namespace {

/// Whether ExecSpace's solve has the 16-bit stage: a CPU backend (tile operations that pack
/// rounds; a GPU's traits have no kHostLanes16) built with 16-bit lanes.
template <class ExecSpace, bool = Impl::TileOps<ExecSpace>::kPacksRounds>
struct TakesSixteen : std::false_type {};
template <class ExecSpace>
struct TakesSixteen<ExecSpace, true> : std::bool_constant<BackendTraits<ExecSpace>::kHostLanes16> {};

template <class ExecSpace>
class HostSixteen : public ::testing::Test {
 protected:
  static constexpr bool kRuns = TakesSixteen<ExecSpace>::value;
};
TYPED_TEST_SUITE(HostSixteen, Backends, BackendName);

// A matrix of entries below 2^15 (and the padding it was built with) narrowed in place reads as
// the same entries in 16 bits, padding 2^15 - 1, and widened gives back every int32 entry,
// padding included; the whole matrix's test passes it, and fails on one entry of 2^15 or INF,
// wherever it lies; the test after a round looks at its pivot row and column.
TYPED_TEST(HostSixteen, NarrowAndWidenInPlaceGiveTheMatrixBack) {
  if constexpr (!TestFixture::kRuns) {
    GTEST_SKIP() << "no 16-bit stage on this backend";
  } else {
    using Stage = Impl::HostSixteen<TypeParam, Impl::TileOps<TypeParam>>;
    for (const int v : {1, 63, 200, 257}) {
      SCOPED_TRACE("V=" + std::to_string(v));
      DistanceMatrix<TypeParam> d(v, 64);
      const int64_t n = d.n;
      int32_t* m = d.data.data();
      std::mt19937 rng{uint32_t(v)};
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) m[i * n + j] = i < v && j < v ? int32_t(rng() % 32768) : (i == j ? 0 : kInf);
      const std::vector<int32_t> before(m, m + n * n);
      const RowBlock rb = RowBlock::of(d);
      EXPECT_TRUE(Stage::below_2_15(rb));
      Stage::narrow(rb);
      const auto* m16 = reinterpret_cast<const uint16_t*>(m);
      int64_t wrong = 0;
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
          wrong += m16[i * n + j] != (i < v && j < v ? uint16_t(before[size_t(i * n + j)]) : uint16_t(32767));
      EXPECT_EQ(wrong, 0) << "narrowed";
      Stage::widen(rb);
      wrong = 0;
      for (int64_t i = 0; i < n * n; ++i) wrong += m[i] != before[size_t(i)];
      EXPECT_EQ(wrong, 0) << "widened";
      for (const int32_t far : {32768, kInf}) {
        m[(v - 1) * n + (v - 1) / 2] = far;
        EXPECT_FALSE(Stage::below_2_15(rb)) << far;
      }
      m[(v - 1) * n + (v - 1) / 2] = 32767;
      EXPECT_TRUE(Stage::below_2_15(rb));
      // After round k the pivot row and column alone: an entry of 2^15 in either is found, one
      // elsewhere is not looked at (the round's products would have noted it).
      if (v >= 2 * 64) {
        const int k = 1;
        for (const int64_t at : {int64_t(64 + 5) * n + v - 1, int64_t(v - 1) * n + 64 + 7, int64_t(3) * n + 2}) {
          m[at] = 32768;
          EXPECT_EQ(Stage::cross_below_2_15(rb, k), at == 3 * n + 2) << at;
          EXPECT_FALSE(Stage::below_2_15(rb));
          m[at] = 1;
        }
      }
    }
  }
}

// Whole solves: dense graphs of light weights take the stage before their last round (the round
// it began is what the whole solver reports; rounds of 16 pivots leave pairs unjoined a while), and give the naive
// Floyd-Warshall's distances; a vertex no edge reaches (INF in its column to the end) or weights whose distances all
// pass 2^15 keep the int32 matrix, with the same distances.
TYPED_TEST(HostSixteen, SolvesTakeTheStageWhereTheDistancesAllow) {
  if constexpr (!TestFixture::kRuns) {
    GTEST_SKIP() << "no 16-bit stage on this backend";
  } else {
    using Stage = Impl::HostSixteen<TypeParam, Impl::TileOps<TypeParam>>;
    const int step = BackendTraits<TypeParam>::kBlockMultiple;
    struct Case {
      const char* name;
      int32_t wmin, wmax;
      bool unreached, takes;
    } cases[] = {{"light", 0, 1000, false, true},
                 {"light, one vertex unreached", 0, 1000, true, false},
                 {"heavy", 40000, 50000, false, false}};
    for (const int b : {step, 4 * step})
      for (const int v : {3 * b, 5 * b + 3})
        for (const Case& c : cases) {
          SCOPED_TRACE(std::string(c.name) + ", V=" + std::to_string(v) + " B=" + std::to_string(b));
          Graph g = random_graph(v, 0.3, c.wmin, c.wmax, 7 + uint32_t(v));
          if (c.unreached)
            g.edges.erase(std::remove_if(g.edges.begin(), g.edges.end(),
                                         [&](const Edge& e) { return e.dst == v - 1 && e.src != v - 1; }),
                          g.edges.end());
          int next = 0, reported = -1, rounds = 0;
          const auto got = blocked_apsp<TypeParam>(g, b, [&](const DistanceMatrix<TypeParam>& d) {
            LaneTally<TypeParam> tally;
            next = Stage::solve(
                RowBlock::of(d), [](int, int) {}, tally.slots());
            rounds = int(d.n / b);
          });
          // The whole solver on the same graph, and the round it reports (0: none).
          const auto solved = blocked_apsp<TypeParam>(g, b, [&](const DistanceMatrix<TypeParam>& d) {
            LaneTally<TypeParam> tally;
            reported = BlockedFloydWarshall<TypeParam>::solve(
                d, nullptr, [](int, int) {}, tally.slots());
          });
          const auto naive = naive_apsp(g);
          EXPECT_EQ(first_difference(got, naive, v), "");
          EXPECT_EQ(first_difference(solved, naive, v), "");
          if (c.takes) {
            EXPECT_GT(next, 0);
            EXPECT_LT(next, rounds);
            EXPECT_EQ(reported, next);
          } else {
            EXPECT_EQ(next, rounds);
            EXPECT_EQ(reported, 0);
          }
        }
  }
}

}  // namespace
}  // namespace apsp::test
