// SPDX-License-Identifier: BSD-3-Clause
// How many of a solve's relaxations ran in 16-bit lanes, how many its products computed in
// all, and how many they left out (a product with an operand of INF alone: round_operands.hpp):
// the product kernels add what each tile product did (TileOps::min_plus_product's count, and
// TileOps::computed) into one of kSlots counters of each kind, chosen by team, so that a GPU's
// thousands of teams contend little (one atomic add per tile product and kind, by one thread).
// The run's ceiling weighs the device's 16-bit and int32 rates by the share of the one in the
// other, and its efficiency counts the relaxations not left out (report/ceiling.hpp). All three
// count what the products compute, padding past V included: a CPU computes its blocks at C's
// edges whole, a GPU its tiles.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace apsp {

inline constexpr int kLaneTallySlots = 256;

/// Adds `sixteen` relaxations in 16-bit lanes and `computed` in all to the team's slots of
/// `slots` (none: not counted): 16-bit ones in [0, kLaneTallySlots), all in the next
/// kLaneTallySlots.
template <class Team>
KOKKOS_FORCEINLINE_FUNCTION void count_lanes16(const Team& team, int64_t* slots, int64_t sixteen, int64_t computed) {
  if (slots != nullptr && team.team_rank() == 0) {
    const int slot = team.league_rank() % kLaneTallySlots;
    if (sixteen > 0) Kokkos::atomic_add(&slots[slot], sixteen);
    Kokkos::atomic_add(&slots[kLaneTallySlots + slot], computed);
  }
}

/// Returns `changes_nothing` (a tile product with an operand of INF alone:
/// OperandMarks::changes_nothing, TileOps::packed_changes_nothing), and then counts its
/// `relaxations` as left out (slots [2 kLaneTallySlots, 3 kLaneTallySlots)); the caller returns.
/// The same on every thread of the team.
template <class Team>
KOKKOS_FORCEINLINE_FUNCTION bool left_out(const Team& team, int64_t* slots, bool changes_nothing, int64_t relaxations) {
  if (!changes_nothing) return false;
  if (slots != nullptr && team.team_rank() == 0)
    Kokkos::atomic_add(&slots[2 * kLaneTallySlots + team.league_rank() % kLaneTallySlots], relaxations);
  return true;
}

/// The counters of one solve, where ExecSpace runs.
template <class ExecSpace>
class LaneTally {
 public:
  LaneTally() : slots_("apsp::lanes16_tally", 3 * kLaneTallySlots) {}
  int64_t* slots() const { return slots_.data(); }
  /// The relaxations counted so far in 16-bit lanes (after a fence).
  int64_t total() const { return sum(0); }
  /// The relaxations the products computed so far, in either lane type (after a fence).
  int64_t computed() const { return sum(kLaneTallySlots); }
  /// The relaxations of the products left out, as they would have computed them (after a fence).
  int64_t left_out() const { return sum(2 * kLaneTallySlots); }
  /// Slots [from, from + kLaneTallySlots) summed (public: nvcc takes no device lambda in a
  /// private member function).
  int64_t sum(int from) const {
    int64_t s = 0;
    const auto slots = slots_;  // by value: a lambda in a member function would capture `this`, a host pointer
    Kokkos::parallel_reduce(
        "apsp::lanes16_total", Kokkos::RangePolicy<ExecSpace>(from, from + kLaneTallySlots),
        KOKKOS_LAMBDA(int i, int64_t& part) { part += slots(i); }, s);
    return s;
  }

 private:
  Kokkos::View<int64_t*, typename ExecSpace::memory_space> slots_;
};

}  // namespace apsp
