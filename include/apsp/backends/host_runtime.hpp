// SPDX-License-Identifier: BSD-3-Clause
// Runtime services of the CPU backends (Serial, OpenMP): the host is the device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include "apsp/backends/backend_runtime.hpp"  // the template specialised here

namespace apsp {

template <class ExecSpace>
struct HostBackendRuntime {
  using HostStagingSpace = typename ExecSpace::memory_space;
  static constexpr const char* kMpiDeviceApi = nullptr;  // MPI reads host memory anyway
  /// The CPU model, from /proc/cpuinfo where there is one.
  static std::string device_name() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);)
      if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    return "CPU";
  }
  /// No devices to choose among.
  static int visible_devices() { return 0; }
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
