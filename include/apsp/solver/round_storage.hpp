// SPDX-License-Identifier: BSD-3-Clause
// The memory a round's packed operands lie in (round_operands.hpp): a View in the execution
// space's memory, on the host in transparent huge pages where the system grants them.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include "apsp/solver/host_pages.hpp"

namespace apsp {

/// Where a round's operands are packed: a View, and on the host the huge pages it lies in.
template <class MemorySpace>
struct RoundStorage {
  Kokkos::View<int32_t*, MemorySpace> view;
  std::shared_ptr<int32_t[]> pages;  ///< what keeps host memory; null where the View manages its own

  /// `ints` values, uninitialised. On the host in transparent huge pages where the system
  /// grants them: every product reads them, and in 4 KiB pages they took 3500 page faults at
  /// V = 4000; with the threads' scratch also in huge pages the solve took 0.980x the time at
  /// 1 thread and 0.990x at 2 on the Zen 5 EPYC (docs/results.md). Made resident before the
  /// first round packs into them, in huge pages only while they come quickly (host_pages.hpp):
  /// a huge page the VM's host had taken back costs 4.5-8 ms to fault in on that VM.
  static RoundStorage allocate(int64_t ints) {
    if constexpr (std::is_same_v<MemorySpace, Kokkos::HostSpace>) {
      // 64-byte aligned, as the packed tiles' loads need, also below one huge page.
      std::shared_ptr<int32_t[]> pages =
          labelled_host_pages<int32_t>(size_t(ints), "apsp::round_operands", PageSize::resident);
      return {Kokkos::View<int32_t*, MemorySpace>(pages.get(), size_t(ints)), pages};
    } else {
      return {Kokkos::View<int32_t*, MemorySpace>(
                  Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("apsp::round_operands")), size_t(ints)),
              nullptr};
    }
  }
};

}  // namespace apsp
