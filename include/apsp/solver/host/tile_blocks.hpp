// SPDX-License-Identifier: BSD-3-Clause
// One CPU tile product's blocks (host/tiles.hpp): its operands, what of them is packed in each
// lane type, and each MR x NR16 block of C relaxed in 16-bit lanes where its entries allow it
// (the tests and why they are exact: host/tiles.hpp), else as two int32 blocks. Blocks that would
// reach past C's rows or columns (B not a multiple of the block) run on a copy; the packed
// operands are padded with zeros there.
#pragma once

#include <cstdint>

#include "apsp/backends/host_microkernel.hpp"
#include "apsp/core/constants.hpp"
#include "apsp/solver/host/block_walk.hpp"
#include "apsp/solver/host/operands.hpp"

namespace apsp::Impl {

// 32-bit offsets on purpose, as in tile_ops.hpp: B * ld < 2^31 (check_block_size, padded_size).
// NOLINTBEGIN(bugprone-implicit-widening-of-multiplication-result)

/// `Traits`: the host backend's (kTileRows = MR, kTileRegs = NV, kHostLanes16, kLargestBlock).
/// Made as an aggregate: {packed operands, c, a, bk, ld, rows, cols, pivots}.
template <class Traits>
struct HostTileBlocks {
  using Operands = HostOperands<Traits>;
  using Packed = typename Operands::Packed;
  using I32 = host_simd::I32;
  using U16 = host_simd::U16;
  using Reg = host_simd::Reg;
  static constexpr int MR = Operands::MR, NV = Operands::NV, W = Operands::W, NR16 = Operands::NR16;
  static constexpr bool k16 = Operands::k16;
  static constexpr int kLine = 16;  ///< int32 per cache line
  static constexpr int kMaxRowBlocks = (Traits::kLargestBlock + MR - 1) / MR;

  const Packed& s;
  int32_t* c;
  const int32_t *a, *bk;
  int64_t ld;
  int rows, cols, pivots;
  host_simd::NextBlock next{};              ///< the block after the one being relaxed
  bool rows_packed[2][kMaxRowBlocks] = {};  ///< [int32, uint16][i0 / MR]: A's rows of the block
  bool bk_packed[2] = {};                   ///< [int32, uint16]: Bk
  bool far = false;                         ///< a block of C held an entry of 2^15 or more

  void all_packed() {
    for (auto& lanes : rows_packed)
      for (bool& done : lanes) done = true;
    bk_packed[0] = bk_packed[1] = true;
  }

  /// Block (i0, j0): in 16-bit lanes if its entries allow it (returns true), else as two
  /// int32 blocks.
  bool block(int i0, int j0) {
    return on_block(i0, j0, [&](int32_t* corner, int64_t cld) { return block_at(corner, cld, i0, j0); });
  }
  /// Block (i0, j0) in int32 lanes alone (product_int32).
  void block32(int i0, int j0) {
    on_block(i0, j0, [&](int32_t* corner, int64_t cld) {
      relax32_pair(corner, cld, i0, j0);
      return false;
    });
  }
  /// `relax(corner, cld)` on block (i0, j0) of C in place, or on a copy where the block
  /// reaches past C's rows or columns; returns what `relax` returns.
  template <class Relax>
  bool on_block(int i0, int j0, Relax&& relax) {
    return Impl::on_block<MR, NR16>(c, ld, rows, cols, i0, j0, relax);
  }

  /// Whether every entry of the block at `corner` is below 2^15 (block_at's first test).
  static bool below_cap(const int32_t* corner, int64_t cld) {
    Reg any = I32::splat(0);  // the OR of the block's entries
    for (int i = 0; i < MR; ++i)
      for (int v = 0; v < 2 * NV; ++v) any = I32::bit_or(any, I32::loadu(corner + i * cld + v * W));
    return I32::below_2_15(any);
  }
  /// Whether every entry of the block is INF or below 2^15 - 1 (with_inf's test of C).
  static bool finite_below_cap(const int32_t* corner, int64_t cld) {
    Reg finite = I32::splat(0);
    for (int i = 0; i < MR; ++i)
      for (int v = 0; v < 2 * NV; ++v)
        finite = I32::bit_or(finite, I32::inf_as_zero(I32::loadu(corner + i * cld + v * W), kInf));
    return I32::below_2_15(finite);
  }

  /// Whether the whole block at `corner` (block row i0) passes block_at's tests for 16-bit
  /// lanes, the operands' int32 flags standing for the 16-bit ones (a sample: product_int32).
  bool qualifies(const int32_t* corner, int64_t cld, int i0) const {
    if constexpr (k16) return below_cap(corner, cld) || (s.small(false, i0) && finite_below_cap(corner, cld));
    return false;
  }

  bool block_at(int32_t* corner, int64_t cld, int i0, int j0) {
    if constexpr (k16) {
      if (below_cap(corner, cld)) return relax16(corner, cld, i0, j0, false);
      far = true;
      if (with_inf(corner, cld, i0)) return relax16(corner, cld, i0, j0, true);
    }
    need<false>(i0);
    relax32_pair(corner, cld, i0, j0);
    return false;
  }

  /// The block as two int32 blocks: registers v of columns 2 v W + [0, W), then the others.
  void relax32_pair(int32_t* corner, int64_t cld, int i0, int j0) const {
    relax32(corner, cld, i0, Operands::panel32(s.pitch, j0, 0), next);
    relax32(corner + W, cld, i0, Operands::panel32(s.pitch, j0, 1), {});
  }

  /// Whether a block that fails the first test takes 16-bit lanes with INF as 2^15 - 1: its
  /// entries are INF or below 2^15 - 1, and the operands it meets are small (HostOperands).
  /// The int32 operands' flags filter first (packed anyway for the int32 path); the 16-bit
  /// operands' flags decide, since in phase 2 the two may be packed at different times.
  /// (Out of line, reading the block again: the int32 path keeps the registers it had.)
  [[gnu::noinline]] bool with_inf(const int32_t* corner, int64_t cld, int i0) {
    need<false>(i0);
    if (!s.small(false, i0) || !finite_below_cap(corner, cld)) return false;
    need<true>(i0);
    return s.small(true, i0);
  }

  /// Block (i0, j0) in 16-bit lanes; `inf`: its INF lanes (2^15 - 1 after narrowing) back to INF.
  /// C is read again (from L1, where block_at's test just brought it): passed in registers
  /// to this out-of-line function, the block went through the stack twice.
  bool relax16(int32_t* corner, int64_t cld, int i0, int j0, bool inf) {
    need<true>(i0);
    host_simd::MicroTile<U16, MR, NV> t;
    for (int i = 0; i < MR; ++i)
      for (int v = 0; v < NV; ++v)
        t.acc[i][v] =
            U16::narrow(I32::loadu(corner + i * cld + 2 * v * W), I32::loadu(corner + i * cld + 2 * v * W + W));
    t.relax(s.a16 + i0 * s.pitch, s.pitch, s.b16 + j0 * s.pitch, pivots, next);
    for (int i = 0; i < MR; ++i)
      for (int v = 0; v < NV; ++v) {
        Reg lo, hi;
        U16::widen(t.acc[i][v], lo, hi);
        if (inf) {
          lo = I32::restore_inf(lo, kInf);
          hi = I32::restore_inf(hi, kInf);
        }
        I32::storeu(corner + i * cld + 2 * v * W, lo);
        I32::storeu(corner + i * cld + 2 * v * W + W, hi);
      }
    return true;
  }

  /// One int32 block: registers v of columns 2 v W + [0, W) from `corner` (every other W
  /// columns of the 16-bit block's), B operand at b32 + `panel`.
  void relax32(int32_t* corner, int64_t cld, int i0, int panel, host_simd::NextBlock ahead) const {
    host_simd::MicroTile<I32, MR, NV>::template relax_at<2 * W>(corner, cld, s.a32 + i0 * s.pitch, s.pitch,
                                                                s.b32 + panel, pivots, ahead);
  }

  /// Packs, in a lane type, what block row i0 needs and is not packed yet.
  template <bool k16Lanes>
  void need(int i0) {
    if (!bk_packed[k16Lanes]) {
      bk_packed[k16Lanes] = true;
      Operands::template pack_bk<k16Lanes>(s, bk, ld, cols, pivots);
    }
    if (bool& done = rows_packed[k16Lanes][i0 / MR]; !done) {
      done = true;
      Operands::template pack_a_rows<k16Lanes>(s, a, ld, i0, rows, pivots);
    }
  }

  /// Before block (i0, j0): the next block, whose C its micro-kernel prefetches (a whole
  /// block of C; one at C's edge goes through a copy and is not fetched ahead), and in the
  /// last block of a block row the next block row's A rows (packed at its first block, unless
  /// packed already).
  void ahead(int i0, int j0) {
    next = next_block<MR, NR16>(c, ld, rows, cols, i0, j0);
    if (j0 + NR16 >= cols && a != nullptr)  // the last block of its row
      for (int i = i0 + MR; i < i0 + 2 * MR && i < rows; ++i)
        for (int p = 0; p < pivots; p += kLine) host_simd::prefetch(a + i * ld + p);
  }
};

// NOLINTEND(bugprone-implicit-widening-of-multiplication-result)

}  // namespace apsp::Impl
