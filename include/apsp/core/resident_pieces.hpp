// SPDX-License-Identifier: BSD-3-Clause
// A fresh mapping made resident by several threads before its first write, in huge pages while
// the system hands them out quickly and in usual pages after: on a VM whose host takes idle
// memory back, a huge page it must fetch again costs several times the 512 usual pages it holds,
// while one the host still holds costs a fraction of them (docs/python.md).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace apsp {

/// A huge page whose first touch takes longer than this came from far away: the VM's host had
/// taken the memory back (the 2-vCPU EPYC VM: 0.2-0.3 ms a huge page where the host still held
/// it, 4.5-8 ms a few seconds after it was freed, where the same 2 MiB in 512 usual pages took
/// 0.6-1.1 ms).
inline constexpr double kSlowHugePageSeconds = 1e-3;

/// [data, data + bytes) of a fresh mapping (map_huge_pages' data) in 2 MiB pieces, split into
/// `shares` contiguous runs in order, one per thread: each thread makes its own run resident
/// (so that its pages lie where the thread that writes those rows first runs), then helps with
/// what is left of the others'. In each run, after the first piece that takes longer than
/// `slow_seconds`, the rest is advised into usual pages (MADV_NOHUGEPAGE), and the process notes
/// it (note_slow_huge_page); with `huge_first` false, every piece is (the caller knows that huge
/// pages would come slowly). Nothing is written that the kernel had not cleared already.
class ResidentPieces {
 public:
  ResidentPieces(void* data, size_t bytes, int shares, double slow_seconds = kSlowHugePageSeconds,
                 bool huge_first = true);
  /// Thread `share`'s part (each share called once, all at once or one after another). Returns
  /// the pieces it made resident within `slow_seconds`.
  int64_t run(int share);

 private:
  struct Run {
    std::atomic<int64_t> next{0};
    int64_t last = 0;
    std::atomic<bool> usual{false};  ///< the rest of the run advised into usual pages
  };
  bool make_resident(Run& run, int64_t piece);  ///< true: within slow_seconds

  char* data_;
  size_t end_;  ///< whole pages
  int shares_;
  double slow_seconds_;
  std::unique_ptr<Run[]> runs_;
};

}  // namespace apsp
