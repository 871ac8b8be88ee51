// SPDX-License-Identifier: BSD-3-Clause
// CPU backends (Serial, OpenMP): one thread per team walks every thread tile of its tile.
// A 4 x 16 int32 thread tile is 8 AVX2 registers of accumulators (4 rows x 2 ymm), which
// leaves room for the operand vectors and broadcasts in the 16 ymm registers; the compiler
// vectorises the column loop (vpaddd + vpminsd). With B = 64 the two staged operand tiles
// take 32 KiB, small enough to stay in the core's private caches.
#pragma once

#include <fstream>
#include <string>

namespace apsp {

template <class ExecSpace>
struct HostBackendTraits {
  using HostStagingSpace = typename ExecSpace::memory_space;
  static constexpr int kTileRows = 4;
  static constexpr int kTileCols = 16;
  static constexpr int default_block = 64;
  static constexpr int kChunk = 16;
  static constexpr int kScratchPad = 0;
  static int vector_length(int /*block*/) { return 1; }
  /// The CPU model, from /proc/cpuinfo where there is one.
  static std::string device_name() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);)
      if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    return "CPU";
  }
  static int team_size(int /*block*/) { return 1; }
  /// No devices to choose among.
  static int visible_devices() { return 0; }
  /// The host is the device: the pipeline checks host memory instead.
  static int64_t device_memory_available() { return INT64_MAX; }
  KOKKOS_FORCEINLINE_FUNCTION static int32_t min_plus(int32_t c, int32_t a, int32_t b) {
    return Impl::portable_min_plus(c, a, b);
  }
};

#if defined(KOKKOS_ENABLE_SERIAL)
template <>
struct BackendTraits<Kokkos::Serial> : HostBackendTraits<Kokkos::Serial> {};
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
template <>
struct BackendTraits<Kokkos::OpenMP> : HostBackendTraits<Kokkos::OpenMP> {};
#endif

}  // namespace apsp
