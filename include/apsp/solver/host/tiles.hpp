// SPDX-License-Identifier: BSD-3-Clause
// The tile product of the CPU backends (one thread per tile), built as a GEMM is: the operands
// packed (solver/host/operands.hpp), then a register-blocked micro-kernel
// (include/apsp/backends/host_microkernel.hpp) over every MR x NR block of the target tile, each block kept
// in vector registers across all the product's pivots (C read and written once).
//
// 16-bit lanes where exact, decided per block of C. A block whose entries are all at most
// 2^15 - 1 runs on uint16 lanes (twice the relaxations per instruction); any other block takes
// int32 lanes. Values enter the lanes capped: f(x) = min(x, 2^15 - 1), for C and for both
// operands (host_simd_u16.hpp), so a sum s = f(a) + f(b) is at most 2^16 - 2 and the add never
// wraps. Why the result is the int32 result, for a, b >= 0 and c <= 2^15 - 1: if neither operand
// is capped, s = a + b; otherwise s >= 2^15 - 1 >= c and a + b > c, so neither form replaces c.
// Hence min(c, a + b) = min(c, s) for every relaxation, and as a relaxation never raises c the
// condition holds to the end of the product. (The GPU's 16-bit product rests on the same
// argument, gpu/packed_tiles.hpp; an add that saturates would make the cap needless, but on
// the CPUs measured it issues at half the rate of the plain add, host_simd_u16.hpp.)
//
// A block holding INF (unreachable pairs: early rounds, graphs of several components) takes
// 16-bit lanes too where its other entries are below 2^15 - 1 and every finite entry of the
// operands it meets is at most 2^14 - 1 (flags set as they are packed, host/operands.hpp). INF
// narrows to 2^15 - 1, in C and in the operands. Then two finite operands sum to at most
// 2^15 - 2, exactly; a sum with an INF operand is 2^15 - 1 or more, which replaces nothing, as in
// int32 (INF + b >= INF >= c): not a finite c (below 2^15 - 1), and not an INF c (2^15 - 1);
// an INF c becomes the exact finite sum or stays 2^15 - 1. So 2^15 - 1 at the end means INF, and
// is widened back to it.
//
// Blocks go row by row, left to right (C's rows stream from memory). Operands come packed for
// the whole round (phase 3), or are packed into team scratch when a block first needs them in
// a lane type: Bk whole, A's rows of a block row. While a block is relaxed, the next block's C
// is prefetched (host_simd::NextBlock: from inside the micro-kernel's loop, or on AVX2 just
// before it), and at the end of a block row the next block row's A rows.
//
// C may be the same tile as A or Bk (phase 2), so an operand part may be packed after some
// blocks of C were written. That gives the same result: the pivot tile P is closed
// (P (min,+) P = P, zero diagonal), so for a row tile T every T' between min(T, P (min,+) T) and
// T has P (min,+) T' = P (min,+) T, and likewise for a column tile.
#pragma once

#include <cstddef>
#include <cstdint>

#include "apsp/backends/host_microkernel.hpp"
#include "apsp/solver/host/block_walk.hpp"
#include "apsp/solver/host/operands.hpp"
#include "apsp/solver/host/tile_blocks.hpp"
#include "apsp/solver/host/tile_closure.hpp"

namespace apsp::Impl {

// 32-bit offsets on purpose, as in tile_ops.hpp: B * ld < 2^31 (check_block_size, padded_size).
// NOLINTBEGIN(bugprone-implicit-widening-of-multiplication-result)

/// `Traits`: the host backend's (kTileRows = MR, kTileRegs = NV, kHostLanes16, kLargestBlock).
template <class Traits>
struct HostTiles {
  /// One product's operands and its blocks (host/tile_blocks.hpp), whose shapes these are.
  using Product = HostTileBlocks<Traits>;
  using Operands = typename Product::Operands;
  using Packed = typename Product::Packed;
  using I32 = typename Product::I32;
  using Reg = typename Product::Reg;
  static constexpr int MR = Product::MR, W = Product::W, NR16 = Product::NR16;
  /// Sub-tiles of the blocked closure.
  static constexpr int kSubTile = Operands::kUnit;

  /// Team scratch of a product of B x B tiles that packs its own operands.
  static size_t scratch_ints(int B) { return Operands::a_ints(B) + Operands::bk_ints(B); }
  static size_t scratch_bytes(int B) { return scratch_ints(B) * sizeof(int32_t) + 64; }
  static Packed in_scratch(int32_t* scratch, int B) { return Packed(B, scratch, scratch + Operands::a_ints(B)); }

  /// C = min(C, A (min,+) Bk) for B x B tiles over the first `pivots` pivots (the rest: padding
  /// past V), packing A and Bk into `scratch`. Returns how many of its blocks took 16-bit lanes.
  static int product(int32_t* c, const int32_t* a, const int32_t* bk, int64_t ld, int B, int pivots, int32_t* scratch) {
    return product(c, a, bk, ld, B, B, pivots, in_scratch(scratch, B), false);
  }
  /// A rows x cols part of a C tile, with A and Bk packed already for the whole tile, in every
  /// lane type (solver/round_operands.hpp).
  /// `far` (may be null): set where a block held an entry of 2^15 or more (host/sixteen.hpp).
  static int product(int32_t* c, int64_t ld, int rows, int cols, int pivots, const Packed& packed,
                     bool* far = nullptr) {
    return product(c, nullptr, nullptr, ld, rows, cols, pivots, packed, true, far);
  }
  /// The same where only the int32 operands were packed (a round of a graph whose blocks stopped
  /// qualifying for 16-bit lanes, round_operands.hpp): every block in int32 lanes, without the
  /// per-block test. Returns whether the first whole block would have taken 16-bit lanes (a
  /// sample, so that the round driver packs the 16-bit forms again once blocks qualify).
  static bool product_int32(int32_t* c, int64_t ld, int rows, int cols, int pivots, const Packed& packed) {
    Product p{packed, c, nullptr, nullptr, ld, rows, cols, pivots};
    p.all_packed();
    const bool qualifies = rows >= MR && cols >= NR16 && p.qualifies(c, ld, 0);
    for (int i0 = 0; i0 < rows; i0 += MR)
      for (int j0 = 0; j0 < cols; j0 += NR16) {
        p.ahead(i0, j0);
        p.block32(i0, j0);
      }
    return qualifies;
  }

  /// A rows x cols C, an A of rows x pivots and a Bk of pivots x cols (each at most the B that
  /// `s` was made for; rows and cols multiples of W), packed already or into `s`.
  static int product(int32_t* c, const int32_t* a, const int32_t* bk, int64_t ld, int rows, int cols, int pivots,
                     const Packed& s, bool packed, bool* far = nullptr) {
    Product p{s, c, a, bk, ld, rows, cols, pivots};
    if (packed) p.all_packed();
    int sixteen = 0;
    for (int i0 = 0; i0 < rows; i0 += MR)
      for (int j0 = 0; j0 < cols; j0 += NR16) {
        p.ahead(i0, j0);
        sixteen += p.block(i0, j0);
      }
    if (far != nullptr) *far = p.far;
    return sixteen;
  }

  /// Relaxations of one MR x NR16 block of C over `pivots` pivots (the unit product() counts).
  static int64_t block_relaxations(int pivots) { return int64_t(MR) * NR16 * pivots; }

  /// Team scratch of close(): a product's at kSubTile.
  static size_t close_scratch_ints(int /*B*/) { return scratch_ints(kSubTile); }
  static size_t close_scratch_bytes(int B) { return close_scratch_ints(B) * sizeof(int32_t) + 64; }

  /// Floyd-Warshall on one B x B tile (ld) over its first `pivots` pivots (phase 1), blocked as
  /// the whole solve is, in sub-tiles of kSubTile (the last row and column of them narrower
  /// where B is not a multiple): phase 1 runs on one thread while the others wait, and element
  /// by element it took 6 % of the solve at B = 256 on 2 threads.
  static void close(int32_t* t, int64_t ld, int B, int pivots, int32_t* scratch) {
    const Packed s = in_scratch(scratch, kSubTile);
    blocked_closure(
        t, ld, B, pivots, kSubTile,
        [&](int32_t* diagonal, int extent, int depth) { close_elementwise(diagonal, ld, extent, depth); },
        [&](int32_t* c, const int32_t* a, const int32_t* bk, int rows, int cols, int depth) {
          product(c, a, bk, ld, rows, cols, depth, s, false);
        });
  }

  /// The same, pivot by pivot. Row p and column p do not change in step p (the diagonal is 0),
  /// so they are read in place.
  static void close_elementwise(int32_t* t, int64_t ld, int B, int pivots) {
    for (int p = 0; p < pivots; ++p) {
      const int32_t* pivot_row = t + p * ld;
      for (int r = 0; r < B; ++r) {
        int32_t* row = t + r * ld;
        const Reg a = I32::splat(row[p]);
        for (int j = 0; j < B; j += W)
          I32::storeu(row + j, I32::add_min(I32::loadu(row + j), a, I32::loadu(pivot_row + j)));
      }
    }
  }
};

// NOLINTEND(bugprone-implicit-widening-of-multiplication-result)

}  // namespace apsp::Impl
