// SPDX-License-Identifier: BSD-3-Clause
// The CPU product's packed operands (solver/host/tiles.hpp): their layout, and the packing of an
// A operand (a tile of the pivot column) and a Bk operand (a tile of the pivot row) into it, in
// int32 and in 16-bit lanes. A product packs its own into team scratch; the round driver packs a
// whole round's once (solver/round_operands.hpp), for every product of phase 3 to share.
#pragma once

#include <cstddef>
#include <cstdint>
#include <numeric>

#include "apsp/backends/host_microkernel.hpp"
#include "apsp/core/constants.hpp"

namespace apsp::Impl {

// 32-bit offsets on purpose, as in tile_ops.hpp: B * ld < 2^31 (check_block_size, padded_size).
// NOLINTBEGIN(bugprone-implicit-widening-of-multiplication-result)

/// `Traits`: the host backend's (kTileRows = MR, kTileRegs = NV, kHostLanes16).
template <class Traits>
struct HostOperands {
  using I32 = host_simd::I32;
  using U16 = host_simd::U16;
  using Reg = host_simd::Reg;
  static constexpr int MR = Traits::kTileRows;
  static constexpr int NV = Traits::kTileRegs;
  static constexpr int W = host_simd::kInts;
  static constexpr int NR = NV * W;    ///< columns of an int32 block of C
  static constexpr int NR16 = 2 * NR;  ///< columns of a 16-bit block (NV registers of 2W lanes)
  static constexpr bool k16 = Traits::kHostLanes16;
  /// The unit of the packed extents: whole blocks of either lane type.
  static constexpr int kUnit = std::lcm(MR, NR16);
  static constexpr int round_up(int x, int to) { return (x + to - 1) / to * to; }
  /// Bp: the pitch of the packed operands of B x B tiles.
  static constexpr int pitch(int B) { return round_up(B, kUnit); }

  /// int32 of one packed A (a32: Bp rows of Bp, a copy; a16: the same as U16 broadcast words)
  /// and of one packed Bk (b32: 2 Bp / NR16 panels of Bp pivots x NR; b16: Bp / NR16 panels of
  /// Bp pivots x NR16 uint16), each followed (16-bit builds) by its "small" flags: per lane type,
  /// whether every finite entry packed is at most 2^14 - 1 (A: per block row of MR rows; Bk: one);
  /// then, in a round's packing (round_operands.hpp), whether the operand holds a finite entry
  /// (its last kFiniteInts: a product with an operand of INF alone changes nothing and is left
  /// out). Each a multiple of 16 int32: parts stay 64-byte aligned.
  static constexpr int flag_stride(int B) { return round_up(pitch(B) / MR, 16); }
  static constexpr int kFiniteInts = 16;
  static size_t a_ints(int B) {
    return size_t(pitch(B)) * pitch(B) * (k16 ? 2 : 1) + (k16 ? 2 * size_t(flag_stride(B)) : 0) + kFiniteInts;
  }
  static size_t bk_ints(int B) {
    return size_t(pitch(B)) * pitch(B) + (k16 ? size_t(pitch(B)) * pitch(B) / 2 + 16 : 0) + kFiniteInts;
  }
  /// Whether the rows x cols entries at `t` (ld) hold one that is not INF: from the first entry
  /// on, so that a tile of a connected graph's late rounds costs one comparison.
  static int32_t holds_finite(const int32_t* t, int64_t ld, int rows, int cols) {
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        if (t[r * ld + c] != kInf) return 1;
    return 0;
  }
  /// The largest finite entry an operand may hold for a block of C with INF to take 16-bit
  /// lanes (solver/host/tiles.hpp): two of them sum to at most 2^15 - 2, below INF's 2^15 - 1.
  static constexpr uint32_t kSmallLimit = 0x4000;

  /// Where one product's operands are packed.
  struct Packed {
    int pitch;  ///< Bp: of a32 and a16 rows, and the pivots of a panel
    int flags;  ///< flag_stride(B)
    int32_t *a32, *a16, *b32;
    uint16_t* b16;
    int32_t *a_small, *bk_small;  ///< [lane type (1: 16-bit) * flags + block row], [lane type]
    /// An A at `a` (a_ints) and a Bk at `bk` (bk_ints); either may be null (not packed here).
    Packed(int B, int32_t* a, int32_t* bk)
        : pitch(HostOperands::pitch(B)),
          flags(flag_stride(B)),
          a32(a),
          a16(k16 && a != nullptr ? a + pitch * pitch : nullptr),
          b32(bk),
          b16(k16 && bk != nullptr ? reinterpret_cast<uint16_t*>(bk + pitch * pitch) : nullptr),
          a_small(k16 && a != nullptr ? a + 2 * pitch * pitch : nullptr),
          bk_small(k16 && bk != nullptr ? bk + pitch * pitch + pitch * pitch / 2 : nullptr) {}
    /// Whether block row i0's A rows and Bk, as packed in a lane type, are small (see above).
    bool small(bool k16Lanes, int i0) const {
      return a_small[int(k16Lanes) * flags + i0 / MR] != 0 && bk_small[int(k16Lanes)] != 0;
    }
  };

  /// Offset in b32 of the int32 panel of half `h` (0, 1) of the 16-bit panel at column j0.
  static int panel32(int pitch, int j0, int h) { return (j0 / NR16 * 2 + h) * pitch * NR; }

  /// Rows [i0, i0 + MR) of A (zeros from row `rows` on), its first `pivots` columns: copied
  /// (int32), or as broadcast words (uint16).
  template <bool k16Lanes>
  static void pack_a_rows(const Packed& s, const int32_t* a, int64_t ld, int i0, int rows, int pivots) {
    int32_t* out = (k16Lanes ? s.a16 : s.a32) + i0 * s.pitch;
    Reg finite = I32::splat(0);
    for (int i = 0; i < MR; ++i, out += s.pitch)
      for (int p = 0; p < pivots; p += W) {
        const Reg v = i0 + i < rows ? I32::loadu(a + (i0 + i) * ld + p) : I32::splat(0);
        if constexpr (k16) finite = I32::bit_or(finite, I32::inf_as_zero(v, kInf));
        I32::storeu(out + p, k16Lanes ? I32::pair16(v) : v);
      }
    if constexpr (k16) s.a_small[int(k16Lanes) * s.flags + i0 / MR] = I32::below<kSmallLimit>(finite);
  }
  /// The first `pivots` rows of Bk (zeros past its `cols` columns), row by row (whole rows
  /// stream from memory; two lines of each of B rows 4 KiB or more apart do not): narrowed into
  /// 16-bit panels of NR16 columns (the lane order of U16::narrow, as C's), or into the two
  /// int32 panels of each NR16 columns.
  template <bool k16Lanes>
  static void pack_bk(const Packed& s, const int32_t* bk, int64_t ld, int cols, int pivots) {
    alignas(64) int32_t edge[NR16] = {};
    const int whole = cols / NR16 * NR16;
    Reg finite = I32::splat(0);
    for (int p = 0; p < pivots; ++p) {
      const int32_t* row = bk + p * ld;
      for (int j0 = 0; j0 < cols; j0 += NR16) {
        const int32_t* run = row + j0;
        if (j0 == whole) {  // never read past Bk's columns (the matrix may end there)
          for (int j = 0; j < cols - whole; ++j) edge[j] = run[j];
          run = edge;
        }
        for (int v = 0; v < NV; ++v) {
          const Reg lo = I32::loadu(run + 2 * v * W), hi = I32::loadu(run + 2 * v * W + W);
          if constexpr (k16)
            finite = I32::bit_or(finite, I32::bit_or(I32::inf_as_zero(lo, kInf), I32::inf_as_zero(hi, kInf)));
          if constexpr (k16Lanes) {
            U16::store(s.b16 + (j0 * s.pitch + p * NR16) + v * 2 * W, U16::narrow(lo, hi));
          } else {
            I32::store(s.b32 + panel32(s.pitch, j0, 0) + p * NR + v * W, lo);
            I32::store(s.b32 + panel32(s.pitch, j0, 1) + p * NR + v * W, hi);
          }
        }
      }
    }
    if constexpr (k16) s.bk_small[int(k16Lanes)] = I32::below<kSmallLimit>(finite);
  }
  /// A whole (rows x pivots), in int32 lanes and, where the build has them and `lanes16`, in
  /// 16-bit lanes.
  static void pack_a_whole(const Packed& s, const int32_t* a, int64_t ld, int rows, int pivots, bool lanes16 = true) {
    for (int i0 = 0; i0 < rows; i0 += MR) {
      pack_a_rows<false>(s, a, ld, i0, rows, pivots);
      if constexpr (k16)
        if (lanes16) pack_a_rows<true>(s, a, ld, i0, rows, pivots);
    }
  }
  /// Bk whole (pivots x cols), likewise.
  static void pack_bk_whole(const Packed& s, const int32_t* bk, int64_t ld, int cols, int pivots, bool lanes16 = true) {
    pack_bk<false>(s, bk, ld, cols, pivots);
    if constexpr (k16)
      if (lanes16) pack_bk<true>(s, bk, ld, cols, pivots);
  }
};

// NOLINTEND(bugprone-implicit-widening-of-multiplication-result)

}  // namespace apsp::Impl
