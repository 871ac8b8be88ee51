// SPDX-License-Identifier: BSD-3-Clause
// The run report's figures that come from the solver and from the device's ceiling, combined
// over every process (run_stages.hpp's solve and finish stages). Collective: every process
// calls each function in the same order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "apsp/backends/backend_runtime.hpp"
#include "apsp/pipeline/run_report.hpp"
#include "apsp/report/ceiling.hpp"
#include "processes.hpp"

namespace apsp::Impl {

/// A solve's seconds and counts into `rep`: the slowest process's seconds, like every other
/// figure (processes leave a barrier at slightly different times, and one's time blocked in MPI
/// may exceed another's solve), the relaxations summed.
template <class Procs>
void record_solve(RunReport& rep, const SolveSeconds& s, Procs& procs, bool phases_timed) {
  rep.phases_timed = phases_timed;
  for (int i = 0; i < 3; ++i) rep.phase_seconds[i] = procs.slowest(s.phase[i]);
  rep.seconds.mpi = procs.slowest(s.mpi);
  rep.seconds.staging = procs.slowest(s.staging);
  rep.block_rounds = s.block_rounds;
  if constexpr (Procs::kMpi) {  // every rank's, in microseconds (the policy gathers int32)
    auto us = [](double seconds) { return int32_t(std::min(seconds * 1e6, 2.0e9)); };
    const std::vector<int32_t> all = procs.concatenate({us(s.mpi), us(s.staging), us(s.opening)});
    rep.rank_waits.assign(all.begin(), all.end());
    for (double& w : rep.rank_waits) w *= 1e-6;
  }
  // The share of what the products computed (padding past V included: a CPU's blocks at C's
  // edges, a GPU's whole tiles), not of V^3 or of the padded n^3: against n^3, a CPU's share at
  // V = 4000, B = 256 read 0.94 where every block ran in 16-bit lanes, which understated the
  // ceiling by 6 %.
  // No product computed (one tile: phase 1 alone): no relaxation in 16-bit lanes either.
  const double computed = double(procs.total(s.computed));
  rep.ceiling.share16 = computed > 0 ? std::min(1.0, double(procs.total(s.lanes16)) / computed) : 0.0;
  const double left_out = double(procs.total(s.left_out));
  rep.ceiling.left_out = left_out > 0 ? left_out / (computed + left_out) : 0.0;
  rep.matrix16_from = s.matrix16_from;
}

/// The devices' rates for the run's ceiling into `rep`, summed over the processes where every
/// one has them, else none; `measure`: a CPU calibrates now where no earlier run did.
template <class ExecSpace, class Procs>
void record_ceiling(RunReport& rep, Procs& procs, const CeilingOptions& options, bool measure) {
  DeviceCeiling mine;
  procs.collectively([&] { mine = BackendRuntime<ExecSpace>::ceiling(options, measure); });
  auto summed = [&](const LaneRates& r) {
    const LaneRates sum{double(procs.total(int64_t(r.int32))), double(procs.total(int64_t(r.lanes16)))};
    return procs.total(r.int32 > 0 ? 0 : 1) > 0 ? LaneRates{} : sum;
  };
  rep.ceiling.rates = summed(mine.rates);
  rep.ceiling.basis = mine.basis;
  rep.ceiling.measured = summed(mine.measured);
}

/// The run's ceiling from the rates, weighed by the share of relaxations in 16-bit lanes.
inline void weigh_ceiling(RunReport& rep) {
  rep.ceiling.relax_per_s = weighted_ceiling(rep.ceiling.rates, rep.ceiling.share16);
  rep.ceiling.measured_relax_per_s = weighted_ceiling(rep.ceiling.measured, rep.ceiling.share16);
}

}  // namespace apsp::Impl
