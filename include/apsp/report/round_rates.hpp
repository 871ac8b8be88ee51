// SPDX-License-Identifier: BSD-3-Clause
// The solve round by round: each round's rate from the time it ended, the median round's and
// the slowest one's. A whole solve's efficiency folds together what the machine gives in the
// steady state, what the solve's start and end cost, and whatever else ran on the CPUs: on a
// shared 16-vCPU host one round of a V = 6000 solve took 3.6x the median one's time and the
// solve read 51 % against 77 % in the run before (docs/results.md). The median round says
// what the machine gave while nothing disturbed it; the slowest says whether something did.
//
// Only where a round has finished when the solver's after-round hook runs: the CPU backends,
// whose round is one kernel that returns when done. A GPU's rounds run behind their launches
// (the hook would time the launches), and an MPI rank's rounds wait on the others; neither is
// timed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace apsp {

/// The rounds of one solve that are alike: every one but round 0 (it also carries the
/// solve's start, phases 1 and 2 of round 0 with nothing beside them) and those with fewer
/// than B pivots (the last when B does not divide V; its fixed costs weigh more). Rates are
/// V^2 x the round's pivots over its seconds: the relaxations Floyd-Warshall makes in it, the
/// solve's own numerator (V^3 over all rounds).
struct RoundRates {
  int timed = 0;           ///< rounds summarised; 0: none (fewer than three alike, or not timed)
  double median = 0;       ///< relaxations/s of the median round (the mean of the two middle ones)
  double slowest = 0;      ///< relaxations/s of the slowest
  int slowest_round = -1;  ///< its number (round 0 is the first)
  bool known() const { return timed > 0; }
};

/// `ends[k]`: seconds from the solve's start to the end of round k (one per round, in order);
/// V vertices, block B.
inline RoundRates round_rates(const std::vector<double>& ends, int64_t vertices, int block) {
  RoundRates r;
  const auto rounds = static_cast<int64_t>(ends.size());
  if (block <= 0 || rounds != (vertices + block - 1) / block) return r;
  const double per_round = double(vertices) * double(vertices) * double(block);
  std::vector<double> rates;
  for (int64_t k = 1; k < rounds; ++k) {
    const double seconds = ends[size_t(k)] - ends[size_t(k - 1)];
    if (vertices - k * block < block || seconds <= 0) continue;
    const double rate = per_round / seconds;
    if (rates.empty() || rate < r.slowest) r.slowest = rate, r.slowest_round = int(k);
    rates.push_back(rate);
  }
  if (rates.size() < 3) return RoundRates{};
  std::sort(rates.begin(), rates.end());
  const size_t m = rates.size() / 2;
  r.median = rates.size() % 2 != 0 ? rates[m] : (rates[m - 1] + rates[m]) / 2;
  r.timed = int(rates.size());
  return r;
}

}  // namespace apsp
