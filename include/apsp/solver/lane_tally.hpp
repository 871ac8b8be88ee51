// SPDX-License-Identifier: BSD-3-Clause
// How many of a solve's relaxations ran in 16-bit lanes: the product kernels add what each tile
// product did that way (TileOps::min_plus_product's count) into one of kSlots counters, chosen by
// team, so that a GPU's thousands of teams contend little (one atomic add per tile product, by
// one thread). The run's ceiling weighs the device's 16-bit and int32 rates by this share
// (report/ceiling.hpp).
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace apsp {

inline constexpr int kLaneTallySlots = 256;

/// Adds `relaxations` to the team's slot of `slots` (none: not counted).
template <class Team>
KOKKOS_FORCEINLINE_FUNCTION void count_lanes16(const Team& team, int64_t* slots, int64_t relaxations) {
  if (slots != nullptr && relaxations > 0 && team.team_rank() == 0)
    Kokkos::atomic_add(&slots[team.league_rank() % kLaneTallySlots], relaxations);
}

/// The counters of one solve, where ExecSpace runs.
template <class ExecSpace>
class LaneTally {
 public:
  LaneTally() : slots_("apsp::lanes16_tally", kLaneTallySlots) {}
  int64_t* slots() const { return slots_.data(); }
  /// The relaxations counted so far (after a fence).
  int64_t total() const {
    int64_t sum = 0;
    const auto slots = slots_;  // by value: a lambda in a member function would capture `this`, a host pointer
    Kokkos::parallel_reduce(
        "apsp::lanes16_total", Kokkos::RangePolicy<ExecSpace>(0, kLaneTallySlots),
        KOKKOS_LAMBDA(int i, int64_t& s) { s += slots(i); }, sum);
    return sum;
  }

 private:
  Kokkos::View<int64_t*, typename ExecSpace::memory_space> slots_;
};

}  // namespace apsp
