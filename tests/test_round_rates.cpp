// SPDX-License-Identifier: BSD-3-Clause
// The rounds' summary of a run (report/round_rates.hpp): which rounds are alike, their median
// and slowest rates, against durations made up here and summarised another way.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "apsp/report/round_rates.hpp"

namespace apsp::test {
namespace {

/// Each round's end from its duration.
std::vector<double> ends_of(const std::vector<double>& durations) {
  std::vector<double> ends;
  ends.reserve(durations.size());
  double t = 0;
  for (const double d : durations) ends.push_back(t += d);
  return ends;
}

TEST(RoundRates, MedianAndSlowestOfTheRoundsAlike) {
  const int64_t v = 2048;
  const int b = 256;  // 8 rounds of 256 pivots: rounds 1 to 7 alike
  const std::vector<double> durations{5.0, 1.0, 2.0, 1.5, 1.0, 4.0, 1.25, 1.0};
  const RoundRates r = round_rates(ends_of(durations), v, b);
  ASSERT_TRUE(r.known());
  EXPECT_EQ(r.timed, 7);
  // Rates fall as durations rise: the median rate is that of the median duration, the slowest
  // that of the longest (round 0's 5 s does not count).
  std::vector<double> alike(durations.begin() + 1, durations.end());
  std::sort(alike.begin(), alike.end());
  const double per_round = double(v) * double(v) * b;
  EXPECT_DOUBLE_EQ(r.median, per_round / alike[3]);
  EXPECT_DOUBLE_EQ(r.slowest, per_round / 4.0);
  EXPECT_EQ(r.slowest_round, 5);
}

TEST(RoundRates, TheLastRoundWithFewerPivotsIsLeftOut) {
  const int64_t v = 2000;
  const int b = 256;  // 8 rounds, the last of 208 pivots; rounds 1 to 6 alike
  const std::vector<double> durations{1.0, 2.0, 2.0, 1.0, 1.0, 3.0, 1.0, 9.0};
  const RoundRates r = round_rates(ends_of(durations), v, b);
  ASSERT_TRUE(r.known());
  EXPECT_EQ(r.timed, 6);
  EXPECT_EQ(r.slowest_round, 5);  // not round 7, whose 9 s do not count
  // Six rates: the median is the mean of the two middle ones (durations 1 and 2).
  const double per_round = double(v) * double(v) * b;
  EXPECT_DOUBLE_EQ(r.median, (per_round / 1.0 + per_round / 2.0) / 2);
}

TEST(RoundRates, NoneWithFewerThanThreeAlikeOrRoundsMissing) {
  EXPECT_FALSE(round_rates(ends_of({1.0, 1.0, 1.0}), 700, 256).known());        // rounds 1 and 2: one alike
  EXPECT_TRUE(round_rates(ends_of({1.0, 1.0, 1.0, 1.0}), 1024, 256).known());   // three alike
  EXPECT_FALSE(round_rates(ends_of({1.0, 1.0, 1.0, 1.0}), 1280, 256).known());  // a round not timed
  EXPECT_FALSE(round_rates({}, 1280, 256).known());                             // none timed (a GPU)
}

}  // namespace
}  // namespace apsp::test
