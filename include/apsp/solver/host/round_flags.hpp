// SPDX-License-Identifier: BSD-3-Clause
// What the threads of the CPU round driver (host/rounds.hpp) tell each other: per item a flag
// holding the stamp of the last round that finished it (round k writes k + 2), how a thread
// waits for one, and each worker's share of the round's phase-3 tiles.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <thread>

namespace apsp::Impl {

/// A thread's wait for another thread's item: spin briefly, then give the CPU away (with more
/// threads than CPUs the item waited for may need this one).
inline void pause_or_yield(int spins) {
  if (spins < 64) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#elif defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
  } else {
    std::this_thread::yield();
  }
}
inline void wait_for(const std::atomic<int>& flag, int stamp) {
  for (int spins = 0; flag.load(std::memory_order_acquire) != stamp; ++spins) pause_or_yield(spins);
}

/// A worker's share of item 6: items [next, end), which others may take too.
struct alignas(64) HostRoundShare {
  std::atomic<int> next{0};
  int end = 0;
};

/// Each item's flag holds the stamp of the last round that finished it.
struct HostRoundFlags {
  explicit HostRoundFlags(int nb, int workers)
      : shares(new HostRoundShare[size_t(workers)]),
        operand(new std::atomic<int>[size_t(2 * nb)]),
        read(new std::atomic<int>[size_t(2 * nb)]),
        claim(new std::atomic<int>[size_t(2 * nb)]),
        row(new std::atomic<int>[size_t(nb)]),
        column(new std::atomic<int>[size_t(nb)]),
        row2(new std::atomic<int>[size_t(nb)]),
        column2(new std::atomic<int>[size_t(nb)]) {
    for (int t = 0; t < 2 * nb; ++t) operand[t] = read[t] = claim[t] = 0;
    for (int t = 0; t < nb; ++t) row[t] = column[t] = row2[t] = column2[t] = 0;
  }
  std::unique_ptr<HostRoundShare[]> shares;           ///< item 6, split among the workers
  std::atomic<int> next{0}, pivot{0};                 ///< the next item to take; the pivot's closure (item 2)
  std::atomic<int> ahead{0};                          ///< items 7 taken
  int ahead_lanes16 = 1;                              ///< item 7's packing: with 16-bit forms (PackedRound)
  std::unique_ptr<std::atomic<int>[]> operand;        ///< operand t packed (items 1, 7): A t < nb, Bk t - nb
  std::unique_ptr<std::atomic<int>[]> read;           ///< products of this round done reading operand t
  std::unique_ptr<std::atomic<int>[]> claim;          ///< operand t taken by an item 7 (its round's stamp)
  std::unique_ptr<std::atomic<int>[]> row, column;    ///< tile (k + 1, t) / (t, k + 1) updated (item 3)
  std::unique_ptr<std::atomic<int>[]> row2, column2;  ///< the same tiles through phase 2 of round k + 1 (item 5)
};

}  // namespace apsp::Impl
