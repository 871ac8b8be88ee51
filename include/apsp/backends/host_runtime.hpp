// SPDX-License-Identifier: BSD-3-Clause
// Runtime services of the CPU backends (Serial, OpenMP): the host is the device.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "apsp/backends/backend_runtime.hpp"  // the template specialised here
#include "apsp/backends/backend_traits.hpp"
#include "apsp/backends/host_register_ceiling.hpp"
#include "apsp/core/cpus.hpp"
#include "apsp/report/ceiling.hpp"

namespace apsp {

template <class ExecSpace>
struct HostBackendRuntime {
  using HostStagingSpace = typename ExecSpace::memory_space;
  static constexpr const char* kMpiDeviceApi = nullptr;  // MPI reads host memory anyway
  /// The CPU model (cpu_model: with its family and model numbers where the name has none).
  static std::string device_name() { return cpu_model(); }
  /// Whether the product has 16-bit lanes (and the ceiling a 16-bit rate).
  static constexpr bool kLanes16 = BackendTraits<ExecSpace>::kHostLanes16;
  /// The register-resident add-min on every thread of the run (report/ceiling.hpp), in the
  /// lane types the product uses: measured (about 0.1 s each, best of four windows) where
  /// `measure` and not cached, else taken from the cache; unknown when neither. The cache keeps
  /// the highest figure measured (store_calibration).
  static DeviceCeiling ceiling(const CeilingOptions& options, bool measure) {
    if (options.skip) return {};
    const int threads = ExecSpace().concurrency();
    // The lane types are part of the key: an int32-only build (-DAPSP_HOST_LANES16=0) stores no
    // 16-bit rate, and a build with 16-bit lanes that read its entry would take the int32 rate
    // for the whole ceiling (on the Xeon: "efficiency 1.54").
    const std::string lanes = kLanes16 ? host_ceiling::kMeasured : "int32 lanes only";
    const std::string key = device_name() + " | " + host_simd::kIsa + " | " + std::to_string(threads) +
                            " threads on CPUs " + cpu_list(thread_cpus()) + " | " + lanes;
    const std::string where = calibration_cache_path();
    const std::string what = std::string("register add-min (") + host_simd::kIsa + ") on " + std::to_string(threads) +
                             (threads == 1 ? " thread" : " threads");
    if (!options.recalibrate)
      if (const auto cached = cached_calibration(key))
        return {*cached, what + ", calibrated earlier (" + where + ")", {}};
    if (!measure)
      return {{},
              options.recalibrate ? "calibrated after the run (--calibrate)"
                                  : "calibrated after the run (first run with these CPUs and threads)",
              {}};
    LaneRates r;
    r.int32 = calibrate<host_simd::I32>(threads);
    if constexpr (kLanes16) r.lanes16 = calibrate<host_simd::U16>(threads);
    const LaneRates kept = store_calibration(key, r);
    // This measurement as a share of the kept figure (the lane type furthest below it; 1: it is
    // the kept figure): on a shared host, how much of their best the CPUs gave just now.
    double share = kept.int32 > 0 ? r.int32 / kept.int32 : 1;
    if (kLanes16 && kept.lanes16 > 0) share = std::min(share, r.lanes16 / kept.lanes16);
    return {kept,
            what +
                (share < 1 ? ", calibrated now at " + std::to_string(int(100 * share)) +
                                 " % of an earlier calibration's higher figure, which is kept"
                           : ", calibrated now") +
                (where.empty() ? "" : " (cached in " + where + ")"),
            r};
  }
  /// No devices to choose among.
  static int visible_devices() { return 0; }
  static std::string visible_device_names() { return ""; }
  /// The host is the device: the pipeline checks host memory instead.
  static int64_t device_memory_available() { return INT64_MAX; }
  /// The host writes the result from its own memory: nothing to pin, no device copies.
  static bool pin_host_memory(void* /*p*/, size_t /*bytes*/) { return false; }
  static void unpin_host_memory(void* /*p*/) {}
  static void copy_rows_to_host(const ExecSpace& /*exec*/, void* /*dst*/, size_t /*dst_pitch*/, const void* /*src*/,
                                size_t /*src_pitch*/, size_t /*width*/, size_t /*rows*/) {}
  /// The second work queue and its events (see the CUDA runtime): on the host one instance
  /// runs everything in the order it was enqueued, so the events have nothing to order.
  static ExecSpace side_instance() { return ExecSpace(); }
  struct Event {};
  static void record(Event& /*e*/, const ExecSpace& /*exec*/) {}
  static void wait(const ExecSpace& /*exec*/, const Event& /*e*/) {}

 private:
  /// Relaxations per second of `threads` threads, each on its own index of a static range (one
  /// per thread of the execution space, so each runs where the run's threads run): the best of
  /// kWindows windows of 25 ms, since one window can meet a clock change or another process
  /// (single 0.1 s windows on the Xeon host gave 2.5e10 and 3.9e10 for the same thread).
  template <class Lanes>
  static double calibrate(int threads) {
    constexpr int kWindows = 4;
    std::vector<double> work(size_t(threads) * kWindows, 0), seconds(size_t(threads) * kWindows, 1);
    Kokkos::parallel_for("apsp::calibrate_ceiling",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Static>>(0, threads), [&](int t) {
                           host_ceiling::registers_pass<Lanes>(2000);  // the clock settles under vector load
                           for (int w = 0; w < kWindows; ++w) {
                             double done = 0;
                             const double t0 = host_ceiling::now();
                             double t1 = t0;
                             while (t1 - t0 < 0.025) {
                               done += host_ceiling::registers_pass<Lanes>(5000);
                               t1 = host_ceiling::now();
                             }
                             work[size_t(t) * kWindows + size_t(w)] = done;
                             seconds[size_t(t) * kWindows + size_t(w)] = t1 - t0;
                           }
                         });
    double best = 0;
    for (int w = 0; w < kWindows; ++w) {  // window w ran on every thread at about the same time
      double total = 0, longest = 0;
      for (int t = 0; t < threads; ++t) {
        total += work[size_t(t) * kWindows + size_t(w)];
        longest = std::max(longest, seconds[size_t(t) * kWindows + size_t(w)]);
      }
      best = std::max(best, total / longest);
    }
    return best;
  }
};

#if defined(KOKKOS_ENABLE_SERIAL)
template <>
struct BackendRuntime<Kokkos::Serial> : HostBackendRuntime<Kokkos::Serial> {};
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
template <>
struct BackendRuntime<Kokkos::OpenMP> : HostBackendRuntime<Kokkos::OpenMP> {};
#endif

}  // namespace apsp
