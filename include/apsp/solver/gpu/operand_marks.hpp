// SPDX-License-Identifier: BSD-3-Clause
// What a GPU's phase 2 notes about each tile of the pivot column and row
// (Ops::kMarksOperands, round_operands.hpp), and what the products of phase 3 read from it:
// whether every finite entry is small enough for the 16-bit product of a tile that holds INF
// (gpu/packed_tiles.hpp, its case 2; read only where the backend has that product), its least entry
// (for case 3: C's entries within 2^15 - 1 of the operands' least sum), and whether it holds a
// finite entry at all: a product with an operand of INF alone changes nothing (every sum through
// it is at least INF, and C's entries are at most INF), so the product kernels skip it
// (OperandMarks::changes_nothing). Graphs of several components, and long-path graphs in their
// early rounds, have many such products: in a 200 x 200 grid numbered row by row about two
// thirds, in 4 components of consecutive vertices fifteen in sixteen. A pass over 2 V B entries
// that phase 2 has just written (in L2 on a GPU), one flag and one least entry per tile.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "apsp/core/constants.hpp"

namespace apsp {

/// One operand tile's (or strip's) mark: bits of what holds for every entry. 0: a finite entry
/// above PackedTiles' kSmall.
struct OperandMark {
  static constexpr int32_t kSmall = 1;                    ///< every finite entry is small (Ops::small_entry)
  static constexpr int32_t kNoFinite = 2;                 ///< every entry is INF (so small too)
  static constexpr int32_t kUnseen = kSmall | kNoFinite;  ///< before any entry is read
};

/// The marks of both operands of one product (the marks below): where the two marks are, two
/// independent loads. Null: not marked. A product of two rounds (gpu/pair_kernels.hpp) has the
/// second round's marks in a2 and bk2 (null: one round).
struct OperandMarks {
  const int32_t* a = nullptr;
  const int32_t* bk = nullptr;
  const int32_t* a2 = nullptr;
  const int32_t* bk2 = nullptr;
  /// Ints from each mark to its tile's least entry (mark_operand_region); 0: none kept, where an
  /// operand may fall below what was marked while the product reads it (the strips of a wide
  /// block: gpu/round_block_kernels.hpp).
  int64_t least = 0;
  /// Both operands small (PackedTiles' case 2), in every round of the product; a product
  /// issues these loads beside its loads of C.
  KOKKOS_INLINE_FUNCTION bool small() const {
    return a != nullptr && (*a & *bk & OperandMark::kSmall) != 0 &&
           (a2 == nullptr || (*a2 & *bk2 & OperandMark::kSmall) != 0);
  }
  /// In every round of the product an operand holds INF alone: no sum through it is below INF,
  /// so C stays as it is and the product need not run (read before anything else is loaded).
  /// (PackedTiles' case 3) The least entry of A and of Bk over every round of the product, into
  /// a_least and bk_least: a + b >= a_least + bk_least for every pair the product adds. False
  /// where the marks keep none.
  KOKKOS_INLINE_FUNCTION bool least_entries(int32_t& a_least, int32_t& bk_least) const {
    if (a == nullptr || least == 0) return false;
    a_least = a[least];
    bk_least = bk[least];
    if (a2 != nullptr) {
      a_least = a2[least] < a_least ? a2[least] : a_least;
      bk_least = bk2[least] < bk_least ? bk2[least] : bk_least;
    }
    return true;
  }
  KOKKOS_INLINE_FUNCTION bool changes_nothing() const {
    return a != nullptr && ((*a | *bk) & OperandMark::kNoFinite) != 0 &&
           (a2 == nullptr || ((*a2 | *bk2) & OperandMark::kNoFinite) != 0);
  }
};

/// Where phase 2 writes the marks of the tiles it computes (RoundOperands::marks_of): tile
/// (i, k) of the rows held at `a[i]`, tile (k, j) at `bk[j]`; null: phase 2 marks nothing.
struct MarkTargets {
  int32_t* a = nullptr;
  int32_t* bk = nullptr;
  int64_t least = 0;  ///< ints from each mark to its tile's least entry; 0: none kept
};

/// Entries per load in the kernels that do nothing but mark (StripMarkKernel, the MPI layer's
/// BandMarkKernel): two 16-byte loads.
inline constexpr int kMarkRun = 8;

namespace Impl {
/// What a team's thread has seen of a region so far (mark_operand_region).
struct RegionSeen {
  bool large = false, finite = false;
  int32_t lowest = kInf;
  template <class Ops>
  KOKKOS_INLINE_FUNCTION void see(int32_t v) {
    large |= !Ops::small_entry(v);
    finite |= v < kInf;
    lowest = v < lowest ? v : lowest;
  }
};

/// One thread's share of a region in runs of kRun contiguous entries (kRun > 1: wide loads,
/// `Ops::Traits::copy_run`, so the region's rows must hold whole 16-byte aligned runs).
template <class Ops, int kRun, class Member>
KOKKOS_INLINE_FUNCTION void scan_region(const Member& team, const int32_t* first, int64_t n, int rows, int cols, int B,
                                        RegionSeen& seen) {
  const int size = team.team_size(), rank = team.team_rank(), runs = cols / kRun;
  if (runs == 0) return;
  // threads along a row (at most B, as many as the row has runs), rows at once
  const int most = runs < B ? runs : B, across = size < most ? size : most, rows_step = size / across;
  const int r0 = rank / across, c0 = rank % across;
  if (r0 >= rows_step) return;
  for (int r = r0; r < rows; r += rows_step)
    for (int c = c0; c < runs; c += across) {
      const int32_t* at = first + int64_t(r) * n + int64_t(c) * kRun;
      if constexpr (kRun > 1) {
        int32_t v[kRun];
        Ops::Traits::template copy_run<kRun>(v, at);
        for (int q = 0; q < kRun; ++q) seen.see<Ops>(v[q]);
      } else {
        seen.see<Ops>(*at);
      }
    }
}
}  // namespace Impl

/// Marks a region of `rows` x `cols` entries (ld n, at most B entries across per pass) as a
/// team: *flag = its OperandMark bits (small: Ops::small_entry; no finite entry: every entry
/// INF), and if `least` is not 0, flag[least] = its least entry (INF where it holds INF alone).
/// The team's earlier writes to the region are visible after its barrier. No team reduction:
/// each thread clears the bits its entries deny and lowers the least entry to its own (at most
/// two atomics per thread), which keeps phase 2's kernel, where this follows the product, free
/// of spills. kRun > 1 (the kernels that do nothing but mark, on a backend with wide loads): runs
/// of kRun entries per load where the region allows them: one entry per load, a mark kernel's
/// threads kept too few loads in flight (one H200, ncu, V = 40000: 0.88-0.94 ms a launch for a
/// block of sixteen rounds' strips, about 0.64 GB; in runs of eight 0.18-0.21 ms, fa06fe9).
template <class Ops, int kRun = 1, class Member>
KOKKOS_INLINE_FUNCTION void mark_operand_region(const Member& team, const int32_t* first, int64_t n, int rows, int cols,
                                                int B, int32_t* flag, int64_t least = 0) {
  Kokkos::single(Kokkos::PerTeam(team), [&] {
    *flag = OperandMark::kUnseen;
    if (least != 0) flag[least] = kInf;
  });
  team.team_barrier();
  Impl::RegionSeen seen;
  bool wide = false;
  if constexpr (kRun > 1 && Ops::Traits::kRegisterTiles) {  // a GPU's traits: copy_run's wide loads
    wide = cols % kRun == 0 && n % 4 == 0 && reinterpret_cast<uintptr_t>(first) % 16 == 0;
    if (wide) Impl::scan_region<Ops, kRun>(team, first, n, rows, cols, B, seen);
  }
  if (!wide) Impl::scan_region<Ops, 1>(team, first, n, rows, cols, B, seen);
  const int32_t denied = (seen.large ? OperandMark::kSmall : 0) | (seen.finite ? OperandMark::kNoFinite : 0);
  if (denied != 0) Kokkos::atomic_and(flag, ~denied);  // no result waited for: a reduction in L2 on a GPU
  if (least != 0 && seen.lowest < kInf) Kokkos::atomic_fetch_min(flag + least, seen.lowest);
}

/// The same for one B x B tile.
template <class Ops, class Member>
KOKKOS_INLINE_FUNCTION void mark_operand_tile(const Member& team, const int32_t* tile, int64_t n, int B, int32_t* flag,
                                              int64_t least = 0) {
  mark_operand_region<Ops>(team, tile, n, B, B, B, flag, least);
}

}  // namespace apsp
