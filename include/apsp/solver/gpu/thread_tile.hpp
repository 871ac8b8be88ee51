// SPDX-License-Identifier: BSD-3-Clause
// The thread tile: the block of results one thread keeps in registers while the pivots of a
// staged slice stream through it (the innermost loop of every phase).
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

#include "apsp/backends/backend_traits.hpp"

namespace apsp::Impl {

/// The block of results one thread owns: kTileRows x kTileCols entries of a B x B tile, made
/// of runs of kRowRun consecutive rows spaced B / (kTileRows / kRowRun) apart, and likewise of
/// kColRun consecutive columns. Spacing the runs lets the lanes of a warp read consecutive
/// 16-byte words of a staged row (no bank conflicts); a host backend takes one run each way
/// (a contiguous block, one vector per row segment). Thread tile `index` of a tile starts at
///   r0 = (index / column positions) * kRowRun,  c0 = (index % column positions) * kColRun.
template <class Traits>
struct ThreadTile {
  static constexpr int R = Traits::kTileRows, C = Traits::kTileCols;
  static constexpr int RR = Traits::kRowRun, CR = Traits::kColRun;
  static constexpr int kRowRuns = R / RR, kColRuns = C / CR;
  static_assert(R % RR == 0 && C % CR == 0, "a thread tile is made of whole runs");
  static_assert(RR % 4 == 0 && CR % 4 == 0, "runs are 16-byte row segments");

  int r0, c0, row_step, col_step;
  int32_t acc[R][C];

  /// Thread tiles per B x B tile.
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int count(int B) { return (B / R) * (B / C); }

  /// `Block`: int, or a compile-time Fixed<N> (the divisions then fold away).
  template <class Block>
  KOKKOS_FORCEINLINE_FUNCTION ThreadTile(int index, Block B)
      : row_step(int(B) / kRowRuns), col_step(int(B) / kColRuns) {
    const int column_positions = col_step / CR;
    r0 = index / column_positions * RR;
    c0 = index % column_positions * CR;
  }
  KOKKOS_FORCEINLINE_FUNCTION int row(int i) const { return r0 + (i / RR) * row_step + i % RR; }
  KOKKOS_FORCEINLINE_FUNCTION int col(int j) const { return c0 + (j / CR) * col_step + j % CR; }

  // Every run starts on a 16-byte boundary (runs are multiples of 4 int32; rows of the matrix
  // and of the staged tiles are too), which lets the compiler use 16-byte loads and stores
  // (LDS.128 / LDG.E.128 on a GPU).
  /// Element offset of run m of row i from the thread tile's first entry, in 32 bits: one
  /// 64-bit pointer per thread instead of one per run keeps a GPU thread within its registers.
  KOKKOS_FORCEINLINE_FUNCTION int offset(int i, int m, int64_t ld) const {
    return ((i / RR) * row_step + i % RR) * int(ld) + m * col_step;
  }
  KOKKOS_FORCEINLINE_FUNCTION void load(const int32_t* c, int64_t ld) {
    const int32_t* base = c + r0 * ld + c0;
    APSP_UNROLL
    for (int i = 0; i < R; ++i) {
      APSP_UNROLL
      for (int m = 0; m < kColRuns; ++m) {
        Traits::template copy_run<CR>(&acc[i][m * CR], base + offset(i, m, ld));
      }
    }
  }
  KOKKOS_FORCEINLINE_FUNCTION void store(int32_t* c, int64_t ld) const {
    int32_t* base = Traits::recompute_later(c + r0 * ld + c0);
    APSP_UNROLL
    for (int i = 0; i < R; ++i) {
      APSP_UNROLL
      for (int m = 0; m < kColRuns; ++m) {
        Traits::template store_run<CR>(base + offset(i, m, ld), &acc[i][m * CR]);
      }
    }
  }

  /// acc(r, c) = min over p < depth of (acc(r, c), a(r, p) + bk(p, c)), with a(r, p) at
  /// a[r * a_pitch + p] and bk(p, c) at bk[p * b_pitch + c]. U pivots at a time: each of the
  /// thread's rows of a gives a run of U pivots (one 8-byte load for U = 2 on a GPU) and each
  /// pivot row of bk a few 16-byte runs; depth is a multiple of U. A compile-time depth
  /// (Fixed<N>) unrolls the whole slice: no loop counter or branch between pivots. kMixed: two
  /// pivots at a time in the backend's mix of instruction forms (relax_two_pivots), for the
  /// tuned kernels only: the general ones keep more in registers and would spill.
  template <int U, bool kMixed = false, class APitch, class BPitch, class Depth>
  KOKKOS_FORCEINLINE_FUNCTION void relax(const int32_t* a, APitch a_pitch, const int32_t* bk, BPitch b_pitch,
                                         Depth depth) {
    if constexpr (std::is_same_v<Depth, int>) {
      for (int p0 = 0; p0 < depth; p0 += U) relax_pivots<U, kMixed>(a, a_pitch, bk, b_pitch, p0);
    } else {
      constexpr int kDepth = Depth{};
      APSP_UNROLL
      for (int p0 = 0; p0 < kDepth; p0 += U) relax_pivots<U, kMixed>(a, a_pitch, bk, b_pitch, p0);
    }
  }
  /// Pivots [p0, p0 + U).
  template <int U, bool kMixed, class APitch, class BPitch>
  KOKKOS_FORCEINLINE_FUNCTION void relax_pivots(const int32_t* a, APitch a_pitch, const int32_t* bk, BPitch b_pitch,
                                                int p0) {
    int32_t av[R][U];
    APSP_UNROLL
    for (int i = 0; i < R; ++i) Traits::template copy_run<U>(av[i], a + row(i) * a_pitch + p0);
    if constexpr (kMixed && U == 2 && Traits::kPairedEntries > 0) {
      relax_two_pivots(av, bk + p0 * b_pitch, b_pitch);
    } else {
      APSP_UNROLL
      for (int q = 0; q < U; ++q) {
        int32_t bv[C];
        load_pivot_row(bv, bk + (p0 + q) * b_pitch);
        APSP_UNROLL
        for (int i = 0; i < R; ++i) Traits::template min_plus_run<C>(acc[i], av[i][q], bv);
      }
    }
  }
  /// The thread's columns of one staged pivot row.
  KOKKOS_FORCEINLINE_FUNCTION void load_pivot_row(int32_t (&bv)[C], const int32_t* pivot_row) const {
    APSP_UNROLL
    for (int m = 0; m < kColRuns; ++m) Traits::template copy_run<CR>(&bv[m * CR], pivot_row + col(m * CR));
  }
  /// Two pivots: the first Traits::kPairedEntries entries, column by column, in the pair form,
  /// the rest with two fused add-mins (the mix that keeps both of a GPU's integer pipes busy).
  /// Column by column, so that each pivot row value dies soon after its first use: taken row by
  /// row, the 16 values of both rows stayed live together and phase 3 spilled (it has no
  /// registers to spare at 128 per thread).
  template <class BPitch>
  KOKKOS_FORCEINLINE_FUNCTION void relax_two_pivots(const int32_t (&av)[R][2], const int32_t* bk, BPitch b_pitch) {
    int32_t b0[C], b1[C];
    load_pivot_row(b0, bk);
    load_pivot_row(b1, bk + b_pitch);
    const int32_t one = Traits::unit();
    APSP_UNROLL
    for (int e = 0; e < R * C; ++e) {
      const int i = e % R, j = e / R;
      if (e < Traits::kPairedEntries) {
        acc[i][j] = Traits::min_plus_pair(acc[i][j], av[i][0], b0[j], av[i][1], b1[j], one);
      } else {
        acc[i][j] = Traits::min_plus(acc[i][j], av[i][0], b0[j]);
      }
    }
    APSP_UNROLL
    for (int e = Traits::kPairedEntries; e < R * C; ++e) {
      const int i = e % R, j = e / R;
      acc[i][j] = Traits::min_plus(acc[i][j], av[i][1], b1[j]);
    }
  }

  /// Every result computed at this point of the program (Traits::settle), not moved later.
  KOKKOS_FORCEINLINE_FUNCTION void settle() {
    APSP_UNROLL
    for (int i = 0; i < R; ++i) {
      APSP_UNROLL
      for (int j = 0; j < C; ++j) Traits::settle(acc[i][j]);
    }
  }

  /// Phase 1 in registers: writes this thread's entries of column p to column[r] and of row p
  /// to row[c] (the operands of pivot step p, as `relax` reads them with depth 1, a_pitch 1).
  KOKKOS_FORCEINLINE_FUNCTION void publish(int p, int32_t* column, int32_t* row_out) const {
    APSP_UNROLL
    for (int j = 0; j < C; ++j)
      if (col(j) == p) {
        APSP_UNROLL
        for (int i = 0; i < R; ++i) column[row(i)] = acc[i][j];
      }
    APSP_UNROLL
    for (int i = 0; i < R; ++i)
      if (row(i) == p) {
        APSP_UNROLL
        for (int j = 0; j < C; ++j) row_out[col(j)] = acc[i][j];
      }
  }

  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION static T* aligned16(T* p) {
    return static_cast<T*>(__builtin_assume_aligned(p, 16));
  }
};

}  // namespace apsp::Impl
