// SPDX-License-Identifier: BSD-3-Clause
// The registers and staged slices of the tile product in 16-bit lanes (gpu/packed_tiles.hpp):
// a thread's 8 x 8 block of C as four packed words per row, one thread's share of staging a slice
// (capped, packed, optionally shifted), the slice's pivots against the block, and the block back
// to C for each of the product's three cases.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "apsp/backends/backend_traits.hpp"
#include "apsp/core/constants.hpp"
#include "apsp/solver/gpu/slice_staging.hpp"
#include "apsp/solver/gpu/thread_tile.hpp"

namespace apsp::Impl {

// 32-bit offsets on purpose (see tile_ops.hpp).
// NOLINTBEGIN(bugprone-implicit-widening-of-multiplication-result)

/// The lanes of the packed product (PackedTiles, packed_tiles.hpp) for a backend whose traits set
/// kPackedTiles: B = kMaxBlock, slices of kMaxSlice pivots, one thread per 8 x 8 block of the
/// tile. What the traits provide: packed_min_plus(c, a, b) (per 16-bit lane, min(c, a + b)).
template <class Traits>
struct PackedLanes {
  static constexpr int B = Traits::kMaxBlock;
  static constexpr int S = Traits::kMaxSlice;
  static constexpr int kThreads = ThreadTile<Traits>::count(B);
  static constexpr uint32_t kCap = 0x7fff;
  static constexpr int32_t kSmall = (kCap - 1) / 2;  ///< an operand's finite entries, for case 2
  // A thread's block: rows ty * 4 + [0, 4) and B / 2 + ty * 4 + [0, 4) (two runs of four, so
  // that a warp's A operands are two 16-byte words), columns tx * 8 + [0, 8): four words of two.
  static constexpr int kRows = 8, kRowRun = 4, kCols = 8, kWords = kCols / 2;
  static constexpr int kColThreads = B / kCols;
  static_assert(kThreads == kColThreads * (B / kRows), "one thread per 8 x 8 block of the tile");
  // A staged slice: A's B rows by S pivots, pivot-major, each value twice in its word (so one
  // 16-byte load gives four rows' operands ready for a packed add); then Bk's S rows by B
  // columns, two columns per word. Rows padded by 4 words (16-byte aligned).
  static constexpr int kAPitch = B + 4;  // past B: padding (PackedTiles::product keeps case 3's offsets there)
  static constexpr int kBPitch = B / 2 + 4;
  static constexpr int kBOffset = S * kAPitch;
  static constexpr int kBuffer = kBOffset + S * kBPitch;
  // Its two buffers fit in the int32 product's two, the scratch it is given.
  static_assert(kBuffer <= ProductShape<Traits, Fixed<B>, Fixed<S>>{}.buffer(), "scratch");
  // Staging: thread `me` takes A's row me % B, pivots [(me / B) * kAPer, + kAPer), and (if
  // me < kBThreads) Bk's pivot row me / kColThreads, columns (me % kColThreads) * 8 + [0, 8).
  static constexpr int kAGroups = kThreads / B;
  static constexpr int kAPer = S / kAGroups;
  static constexpr int kBThreads = S * kColThreads;
  static_assert(kThreads % B == 0 && S % kAGroups == 0 && kAPer % 4 == 0 && kBThreads <= kThreads,
                "whole 16-byte runs per thread");

  /// One thread's share of staging a slice: loaded into registers before the current slice is
  /// relaxed, capped, packed and stored into the other buffer after it, so that nothing waits
  /// for the loads meanwhile.
  struct Staging {
    int a_src, b_src;  ///< offsets of this thread's runs in the next slice, from a and bk
    int a_dst, b_dst;  ///< and in a slice buffer
    bool b_part;       ///< whether this thread stores a run of Bk (every thread loads one)
    int32_t held_a[kAPer];
    int32_t held_b[kCols];

    KOKKOS_FORCEINLINE_FUNCTION Staging(int me, int64_t ld)
        : a_src((me % B) * int(ld) + (me / B) * kAPer),
          b_src((me / kColThreads % S) * int(ld) + (me % kColThreads) * kCols),
          a_dst((me / B) * kAPer * kAPitch + me % B),
          b_dst(kBOffset + (me / kColThreads % S) * kBPitch + (me % kColThreads) * kWords),
          b_part(me < kBThreads),
          held_a{},
          held_b{} {}
    KOKKOS_FORCEINLINE_FUNCTION void load(const int32_t* a, const int32_t* bk, int64_t ld) {
      Traits::template copy_run<kAPer>(held_a, a + a_src);
      Traits::template copy_run<kCols>(held_b, bk + b_src);
      a_src += S;
      b_src += S * int(ld);
    }
    /// Packs the held entries into `buf`; kShifted (case 3): less a0 (A's) and b0 (Bk's), each
    /// entry packed as soon as it is shifted.
    template <bool kShifted>
    KOKKOS_FORCEINLINE_FUNCTION void store(int32_t* buf, int32_t a0 = 0, int32_t b0 = 0) const {
      APSP_UNROLL
      for (int j = 0; j < kAPer; ++j) {
        const int32_t x = kShifted ? held_a[j] - a0 : held_a[j];
        buf[a_dst + j * kAPitch] = Traits::pack_capped(x, x);
      }
      int32_t w[kWords];
      APSP_UNROLL
      for (int q = 0; q < kWords; ++q)
        w[q] = kShifted ? Traits::pack_capped(held_b[2 * q] - b0, held_b[2 * q + 1] - b0)
                        : Traits::pack_capped(held_b[2 * q], held_b[2 * q + 1]);
      if (kBThreads == kThreads || b_part) Traits::template store_run<kWords>(buf + b_dst, w);
    }
  };

  /// Which case of packed_tiles.hpp a product takes: 1, 2 or 3.
  enum class Lanes { fit, inf_held, shifted };

  /// Whether every entry of a tile is INF or at most kSmall: an operand of case 2.
  KOKKOS_INLINE_FUNCTION static bool small_entry(int32_t v) { return v <= kSmall || v == kInf; }

  /// (Case 3) A thread's block of C read again into its lanes as c - o, 0 where c is below o.
  KOKKOS_FORCEINLINE_FUNCTION static void load_shifted(int32_t (&acc)[kRows][kWords], const int32_t* corner, int64_t ld,
                                                       int32_t base) {
    APSP_UNROLL
    for (int i = 0; i < kRows; ++i) {
      int32_t v[kCols];
      Traits::template copy_run<kCols>(v, corner + row_offset(i) * ld);
      APSP_UNROLL
      for (int j = 0; j < kCols; ++j) v[j] = v[j] - base > 0 ? v[j] - base : 0;
      APSP_UNROLL
      for (int q = 0; q < kWords; ++q) acc[i][q] = Traits::pack_capped(v[2 * q], v[2 * q + 1]);
    }
  }

  /// A thread's block from its lanes to C (from `out`); in case 2 a lane at kCap or above is
  /// INF; in case 3 an entry is min(c, base + lane), C read again.
  template <Lanes kLanes>
  KOKKOS_FORCEINLINE_FUNCTION static void store(const int32_t (&acc)[kRows][kWords], int32_t* out, int64_t ld,
                                                int32_t base = 0) {
    // lo = x - hi * 2^16, an IMAD (the FMA pipe): with the constant in view the compiler turns
    // it back into x & 0xffff, a LOP3 on the ALU pipe.
    const uint32_t unit = Traits::recompute_later(0x10000u);
    APSP_UNROLL
    for (int i = 0; i < kRows; ++i) {
      int32_t v[kCols];
      APSP_UNROLL
      for (int q = 0; q < kWords; ++q) {
        const uint32_t hi = uint32_t(acc[i][q]) >> 16;
        v[2 * q] = int32_t(uint32_t(acc[i][q]) - hi * unit);
        v[2 * q + 1] = int32_t(hi);
      }
      if constexpr (kLanes == Lanes::inf_held) {
        APSP_UNROLL
        for (int j = 0; j < kCols; ++j) v[j] = uint32_t(v[j]) >= kCap ? kInf : v[j];
      }
      if constexpr (kLanes == Lanes::shifted) {
        int32_t was[kCols];
        Traits::template copy_run<kCols>(was, out + row_offset(i) * ld);
        APSP_UNROLL
        for (int j = 0; j < kCols; ++j) v[j] = v[j] + base < was[j] ? v[j] + base : was[j];
      }
      Traits::template store_run<kCols>(out + row_offset(i) * ld, v);
    }
  }

  /// Row i of a thread's block, from its first row.
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int row_offset(int i) { return (i / kRowRun) * (B / 2) + i % kRowRun; }

  /// The S pivots of one staged slice against a thread's block: per pivot two 16-byte loads of
  /// A (eight rows, each value twice), one of Bk (eight columns) and 32 packed add-mins.
  KOKKOS_FORCEINLINE_FUNCTION static void relax(int32_t (&acc)[kRows][kWords], const int32_t* buf, int ty, int tx) {
    const int32_t* a_rows = buf + ty * kRowRun;
    const int32_t* b_cols = buf + kBOffset + tx * kWords;
    APSP_UNROLL
    for (int p = 0; p < S; ++p) {
      int32_t av[kRows], bv[kWords];
      Traits::template copy_run<kRowRun>(av, a_rows + p * kAPitch);
      Traits::template copy_run<kRowRun>(av + kRowRun, a_rows + p * kAPitch + B / 2);
      Traits::template copy_run<kWords>(bv, b_cols + p * kBPitch);
      APSP_UNROLL
      for (int i = 0; i < kRows; ++i) {
        APSP_UNROLL
        for (int q = 0; q < kWords; ++q) acc[i][q] = Traits::packed_min_plus(acc[i][q], av[i], bv[q]);
      }
    }
  }
};

// NOLINTEND(bugprone-implicit-widening-of-multiplication-result)

}  // namespace apsp::Impl
