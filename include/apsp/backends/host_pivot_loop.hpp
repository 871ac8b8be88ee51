// SPDX-License-Identifier: BSD-3-Clause
// The micro-kernel's pivot loop (host_microkernel.hpp): every pivot of a pass over an MR x NV
// block of C held in registers, with the prefetches of the next block's lines spread over it
// and, where host_simd_isa.hpp's kPanelAhead says so, of the B panel's a few pivots ahead.
// Written once on host_simd.hpp's lane types; assembly replaces it for the default block of two
// ISAs: AVX2's 6 x 2 (host_pivot_loop_avx2.hpp) and AVX-512's 8 x 2 (host_pivot_loop_avx512.hpp).
//
// Two empty asm statements (in_register) steer GCC's register allocation, which otherwise made
// this loop slower than its instructions (seen with GCC 12 on AVX2, scripts/cpu_ceiling.sh):
// - after each load of B: GCC folded the load into every add that used it, MR loads per register
//   instead of one (Zen 3 takes two vector loads per cycle: the loop became load-bound);
// - on each accumulator at the end of a pivot: without it GCC wrote each min to a new register
//   and copied it back, and spilled an accumulator to the stack (a store-to-load chain per pivot).
#pragma once

#include <cstdint>

#include "apsp/backends/host_simd.hpp"

namespace apsp::host_simd {

// 32-bit offsets on purpose, as in solver/tile_ops.hpp: a_pitch * MR stays far below 2^31.
// NOLINTBEGIN(bugprone-implicit-widening-of-multiplication-result)

/// The block of C that the caller relaxes next (rows `ld` bytes apart; AheadLines::kPerRow
/// cache lines per row: a 16-bit block's width, of which an int32 block is half), asked for
/// while this one is relaxed, one line every few pivots spread over the pass. The same
/// prefetches issued all at once before the pass changed nothing measurable for this loop (the
/// likely reason: a core keeps only so many misses in flight), and each block's first loads of
/// C stalled: 8 % of a 16-bit solve's samples on the 2-vCPU EPYC, 2 % with this. (AVX2's
/// assembly loop issues them all before its pass: host_pivot_loop_avx2.hpp says why.) Null
/// `at`: nothing to fetch.
struct NextBlock {
  const char* at = nullptr;
  int64_t ld = 0;
};

/// The lines of `next` that a pass of `depth` pivots over an MR x NV block asks for (for
/// writing): line q (q < count) before pivot q << shift, spread over the pass.
template <int MR, int NV>
struct AheadLines {
  static constexpr int kPerRow = (2 * NV * kInts * int(sizeof(int32_t)) + 63) / 64;
  NextBlock next;
  int count = 0, shift = 0;
  APSP_SIMD_INLINE AheadLines(NextBlock block, int depth) : next(block), count(block.at != nullptr ? MR * kPerRow : 0) {
    while (count > 0 && (count << (shift + 1)) <= depth) ++shift;
  }
  APSP_SIMD_INLINE void fetch(int q) const { prefetch(next.at + (q / kPerRow) * next.ld + (q % kPerRow) * 64, true); }
};

/// `Lanes`: I32 or U16. c(i, v) = min over p < depth of (c(i, v), a[i * a_pitch + p] + b(p, v));
/// B: per pivot, NV registers of lanes, contiguous (pivot p at b + p * NV * Lanes::W).
template <class Lanes, int MR, int NV>
struct PivotLoop {
  /// Whether relax_at() takes C where it lies (only where assembly loads and stores it).
  static constexpr bool kInPlace = false;
  APSP_SIMD_INLINE static void relax(Reg (&c)[MR][NV], const int32_t* a, int a_pitch, const typename Lanes::Lane* b,
                                     int depth, const AheadLines<MR, NV>& ahead) {
    const int every = (1 << ahead.shift) - 1;
    for (int p = 0; p < depth; ++p) {
      if ((p & every) == 0 && (p >> ahead.shift) < ahead.count) ahead.fetch(p >> ahead.shift);
      const typename Lanes::Lane* pivot_row = b + p * (NV * Lanes::W);
      if constexpr (kPanelAhead > 0) {
        // B's row kPanelAhead pivots on. An address to ask for, never read (past the panel near
        // its end: a prefetch does not fault), so an integer: a pointer may not leave its array.
        const uintptr_t ahead_row = reinterpret_cast<uintptr_t>(pivot_row) + uintptr_t(kPanelAhead * NV * kBytes);
        APSP_SIMD_UNROLL
        for (int l = 0; l < NV * kBytes / 64; ++l)
          prefetch(reinterpret_cast<const void*>(ahead_row + uintptr_t(l) * 64));  // NOLINT(performance-no-int-to-ptr)
      }
      Reg bv[NV];
      APSP_SIMD_UNROLL
      for (int v = 0; v < NV; ++v) {
        bv[v] = Lanes::load(pivot_row + v * Lanes::W);
        in_register(bv[v]);
      }
      APSP_SIMD_UNROLL
      for (int i = 0; i < MR; ++i) {
        const Reg av = I32::broadcast(a + i * a_pitch + p);
        APSP_SIMD_UNROLL
        for (int v = 0; v < NV; ++v) c[i][v] = Lanes::add_min(c[i][v], av, bv[v]);
      }
      APSP_SIMD_UNROLL
      for (int i = 0; i < MR; ++i) {
        APSP_SIMD_UNROLL
        for (int v = 0; v < NV; ++v) in_register(c[i][v]);
      }
    }
  }
};

// NOLINTEND(bugprone-implicit-widening-of-multiplication-result)

}  // namespace apsp::host_simd

#include "apsp/backends/host_pivot_loop_avx2.hpp"
#include "apsp/backends/host_pivot_loop_avx512.hpp"
