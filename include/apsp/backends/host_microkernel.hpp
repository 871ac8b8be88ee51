// SPDX-License-Identifier: BSD-3-Clause
// The CPU's micro-kernel, the shape of a GEMM micro-kernel: an MR x NV block of C in vector
// registers (MR rows, NV registers of each), the A operand broadcast from memory one row at a
// time, the B operand streamed from a packed panel, every pivot of a tile product in one pass.
// Per pivot: NV loads, MR broadcasts and MR * NV add-mins, no load or store of C (every few
// pivots, a prefetch of the next block's C: NextBlock). Written once on host_simd.hpp's lane
// types (int32 or uint16 lanes), for every ISA.
// The loop over the pivots: host_pivot_loop.hpp.
#pragma once

#include <cstdint>

#include "apsp/backends/host_pivot_loop.hpp"
#include "apsp/backends/host_simd.hpp"

namespace apsp::host_simd {

// 32-bit offsets on purpose, as in solver/tile_ops.hpp: a_pitch * MR stays far below 2^31.
// NOLINTBEGIN(bugprone-implicit-widening-of-multiplication-result)

/// `Lanes`: I32 or U16. A operand: its rows `a_pitch` words apart, one word per pivot (an int32
/// distance, or for U16 the capped distance in both halves). B operand: per pivot, NV registers
/// of lanes, contiguous (pivot p at b + p * NV * Lanes::W).
template <class Lanes, int MR, int NV>
struct MicroTile {
  static constexpr int kRows = MR, kRegs = NV;
  static constexpr int kNextLines = AheadLines<MR, NV>::kPerRow;
  Reg acc[MR][NV];

  /// acc(i, v) = min over p < depth of (acc(i, v), a[i * a_pitch + p] + b(p, v)).
  /// Meanwhile, `next`'s lines are prefetched (for writing), one every 2^shift pivots.
  APSP_SIMD_INLINE void relax(const int32_t* a, int a_pitch, const typename Lanes::Lane* b, int depth,
                              NextBlock next = {}) {
    Reg c[MR][NV];
    for_each([&](int i, int v) { c[i][v] = acc[i][v]; });
    PivotLoop<Lanes, MR, NV>::relax(c, a, a_pitch, b, depth, AheadLines<MR, NV>(next, depth));
    for_each([&](int i, int v) { acc[i][v] = c[i][v]; });
  }

  /// The block of C at `c`, its rows `ld` lanes apart and register v of a row at its lane
  /// v * kStep (Lanes::W: contiguous; 2 W: the int32 matrix's blocks), relaxed in place over
  /// pivots [0, depth): loaded, relaxed and stored as relax() does, or by the pivot loop itself
  /// where it can (PivotLoop::kInPlace: AVX-512's 8 x 2 in assembly).
  template <int kStep = Lanes::W>
  APSP_SIMD_INLINE static void relax_at(typename Lanes::Lane* c, int64_t ld, const int32_t* a, int a_pitch,
                                        const typename Lanes::Lane* b, int depth, NextBlock next = {}) {
    using Loop = PivotLoop<Lanes, MR, NV>;
    if constexpr (Loop::kInPlace) {
      constexpr int kSecond = kStep * int(sizeof *c);
      Loop::template relax_at<kSecond>(reinterpret_cast<char*>(c), ld * int64_t(sizeof *c), a, a_pitch, b, depth,
                                       AheadLines<MR, NV>(next, depth));
    } else {
      MicroTile t;
      for (int i = 0; i < MR; ++i)
        for (int v = 0; v < NV; ++v) t.acc[i][v] = I32::loadu(reinterpret_cast<const int32_t*>(c + i * ld + v * kStep));
      t.relax(a, a_pitch, b, depth, next);
      for (int i = 0; i < MR; ++i)
        for (int v = 0; v < NV; ++v) I32::storeu(reinterpret_cast<int32_t*>(c + i * ld + v * kStep), t.acc[i][v]);
    }
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
