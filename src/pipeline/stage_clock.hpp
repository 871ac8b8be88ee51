// SPDX-License-Identifier: BSD-3-Clause
// Timing and labelling the stages of a run: a steady clock, Kokkos Tools regions, the
// progress report's throttle, and sizes as people read them.
#pragma once

#include <Kokkos_Core.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

namespace apsp::Impl {

using Clock = std::chrono::steady_clock;
inline double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

/// A Kokkos Tools region (shows in SpaceTimeStack and similar reports).
struct ScopedRegion {
  explicit ScopedRegion(const std::string& name) { Kokkos::Profiling::pushRegion(name); }
  ~ScopedRegion() { Kokkos::Profiling::popRegion(); }
  ScopedRegion(const ScopedRegion&) = delete;
  ScopedRegion& operator=(const ScopedRegion&) = delete;
};

/// The solver's after-round hook for a progress report: calls `report(done, rounds, seconds)`
/// at most every `interval` seconds and after the last round. Kernels run behind their
/// launches, so it fences `exec` to know what is done, and only when it reports.
template <class ExecSpace>
class ProgressThrottle {
 public:
  ProgressThrottle(std::function<void(int, int, double)> report, double interval, Clock::time_point start)
      : report_(std::move(report)), interval_(interval), start_(start) {}
  void operator()(int done, int rounds) {
    if (!report_) return;
    if (done < rounds && seconds_since(start_) - reported_ < interval_) return;
    ExecSpace().fence();
    reported_ = seconds_since(start_);
    report_(done, rounds, reported_);
  }

 private:
  std::function<void(int, int, double)> report_;
  double interval_;
  Clock::time_point start_;
  double reported_ = 0;
};

}  // namespace apsp::Impl
