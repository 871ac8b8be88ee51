// SPDX-License-Identifier: BSD-3-Clause
// The CPU's micro-kernel, the shape of a GEMM micro-kernel: an MR x NV block of C in vector
// registers (MR rows, NV registers of each), the A operand broadcast from memory one row at a
// time, the B operand streamed from a packed panel, every pivot of a tile product in one pass.
// Per pivot: NV loads, MR broadcasts and MR * NV add-mins, no load or store of C (every few
// pivots, a prefetch of the next block's C: NextBlock). Written once on host_simd.hpp's lane
// types (int32 or uint16 lanes), for every ISA.
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

/// The block of C that the caller relaxes next (rows `ld` bytes apart; MicroTile::kNextLines
/// cache lines per row: a 16-bit block's width, of which an int32 block is half), asked for
/// while this one is relaxed, one line every few pivots spread over the pass. The same
/// prefetches issued all at once before the pass changed nothing measurable (the likely reason:
/// a core keeps only so many misses in flight), and each block's first loads of C stalled: 8 %
/// of a 16-bit solve's samples on the 2-vCPU EPYC, 2 % with this. Null `at`: nothing to fetch.
struct NextBlock {
  const char* at = nullptr;
  int64_t ld = 0;
};

/// `Lanes`: I32 or U16. A operand: its rows `a_pitch` words apart, one word per pivot (an int32
/// distance, or for U16 the capped distance in both halves). B operand: per pivot, NV registers
/// of lanes, contiguous (pivot p at b + p * NV * Lanes::W).
template <class Lanes, int MR, int NV>
struct MicroTile {
  static constexpr int kRows = MR, kRegs = NV;
  static constexpr int kNextLines = (2 * NV * kInts * int(sizeof(int32_t)) + 63) / 64;
  Reg acc[MR][NV];

  /// acc(i, v) = min over p < depth of (acc(i, v), a[i * a_pitch + p] + b(p, v)).
  /// Meanwhile, `next`'s lines are prefetched (for writing), one every 2^shift pivots.
  APSP_SIMD_INLINE void relax(const int32_t* a, int a_pitch, const typename Lanes::Lane* b, int depth,
                              NextBlock next = {}) {
    Reg c[MR][NV];
    for_each([&](int i, int v) { c[i][v] = acc[i][v]; });
    const int lines = next.at != nullptr ? MR * kNextLines : 0;
    int shift = 0;
    while (lines > 0 && (lines << (shift + 1)) <= depth) ++shift;
    const int every = (1 << shift) - 1;
    for (int p = 0; p < depth; ++p) {
      if ((p & every) == 0 && (p >> shift) < lines) {
        const int q = p >> shift;
        prefetch(next.at + (q / kNextLines) * next.ld + (q % kNextLines) * 64, true);
      }
      const typename Lanes::Lane* pivot_row = b + p * (NV * Lanes::W);
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
      for_each([&](int i, int v) { in_register(c[i][v]); });
    }
    for_each([&](int i, int v) { acc[i][v] = c[i][v]; });
  }

 private:
  template <class F>
  APSP_SIMD_INLINE static void for_each(F&& f) {
    APSP_SIMD_UNROLL
    for (int i = 0; i < MR; ++i) {
      APSP_SIMD_UNROLL
      for (int v = 0; v < NV; ++v) f(i, v);
    }
  }
};

// NOLINTEND(bugprone-implicit-widening-of-multiplication-result)

}  // namespace apsp::host_simd
