// SPDX-License-Identifier: BSD-3-Clause
// What a run's relaxations per second are measured against: the device's ceiling, the rate at
// which the instructions of the tile product can retire on the device and threads the run used
// (docs/performance.md, "The ceiling"). Each backend's runtime gives its device's rates in both
// lane types (BackendRuntime::ceiling): a GPU's from its own properties (multiprocessors, clock)
// times the per-multiprocessor rate of the product's add-min instructions; a CPU's from a short
// calibration of the register-resident add-min (backends/host_register_ceiling.hpp) on the
// run's threads, cached per machine. The run's ceiling weighs the two by the share of its
// relaxations that ran in 16-bit lanes (solver/lane_tally.hpp).
#pragma once

#include <optional>
#include <string>

namespace apsp {

/// Relaxations per second in each lane type; 0: none (no 16-bit product, or not known).
struct LaneRates {
  double int32 = 0, lanes16 = 0;
};

/// One process's device, as its runtime knows it.
struct DeviceCeiling {
  LaneRates rates;
  std::string basis;  ///< how the rates were found ("132 SMs x 1.98 GHz x ...", "calibrated ...")
  /// A CPU's calibration made by this call, before the cache kept the higher of it and its own
  /// figure (`rates`); 0: none made (taken from the cache, or a GPU's attributes).
  LaneRates measured;
  bool known() const { return rates.int32 > 0; }
};

/// --no-ceiling, --calibrate.
struct CeilingOptions {
  bool skip = false;         ///< report no ceiling (and measure nothing)
  bool recalibrate = false;  ///< a CPU measures again instead of taking the cached figure
};

/// The run's ceiling: `rates` summed over its processes, the share of relaxations in 16-bit lanes.
struct RunCeiling {
  LaneRates rates;
  double share16 = 0;
  /// The share of the products' relaxations left out (an operand of INF alone: nothing to
  /// change), which the efficiency does not count as done.
  double left_out = 0;
  double relax_per_s = 0;  ///< 0: unknown (skipped, or a device without figures)
  std::string basis;
  bool measured_after = false;  ///< a CPU calibrated after the run (the banner could not say how)
  /// A CPU's calibration made right after this run's solve (its first with these CPUs, or
  /// --calibrate), summed over the processes, and the run's ceiling at those rates: the machine
  /// as it was just then, where `rates` is the best it has shown (a shared host's neighbours
  /// can lower a calibration by a third from one hour to the next). 0: none made.
  LaneRates measured;
  double measured_relax_per_s = 0;
  bool known() const { return relax_per_s > 0; }
};

/// The rate at which V^3 relaxations, `share16` of them in 16-bit lanes, would run: each part
/// at its own rate (a harmonic weighting: the time of each part adds up).
inline double weighted_ceiling(const LaneRates& r, double share16) {
  if (r.int32 <= 0) return 0;
  if (r.lanes16 <= 0 || share16 <= 0) return r.int32;
  const double s = share16 < 1 ? share16 : 1;
  return 1.0 / (s / r.lanes16 + (1 - s) / r.int32);
}

/// A CPU calibration's cache: one JSON file, $XDG_CACHE_HOME/apsp_kokkos/cpu_ceiling.json (or
/// ~/.cache/...), figures keyed by CPU model, ISA, threads and their CPUs. A cache that cannot be
/// read or written is no error: the calibration then runs again.
std::string calibration_cache_path();
std::optional<LaneRates> cached_calibration(const std::string& key);
/// Stores `rates` under `key`, each the higher of it and the figure cached there, and returns
/// what is stored. A ceiling is what the CPUs can do: a process or a hypervisor that takes them
/// during a calibration only lowers the figure (on the 2-vCPU EPYC the same 2-thread calibration
/// measured about 1.0e11 and 1.9e11 within an hour, and the runs after the low one reported
/// efficiencies of 86 to 99 %).
LaneRates store_calibration(const std::string& key, const LaneRates& rates);

}  // namespace apsp
