// SPDX-License-Identifier: BSD-3-Clause
// The CPU's tile operations on a matrix of 16-bit entries (solver/host/sixteen.hpp): once every
// distance of a graph is below 2^15 (random graphs after their first round or two), the solve
// goes on in a uint16 copy of the matrix, and a block of C is loaded into the micro-kernel's
// 16-bit lanes as it is: no test of its entries, no narrowing or widening, and half the bytes
// of C, of the packed operands and of phase 2's tiles. The micro-kernel is the int32 matrix's
// (host_microkernel.hpp, U16 lanes); the packing and the products are this file's.
//
// Why every result is exact: every entry is at most 2^15 - 1 (the matrix is narrowed only when
// every distance is below 2^15; padding entries are 2^15 - 1), so a sum of two is at most
// 2^16 - 2 and the plain add never wraps; a relaxation never raises an entry, so the bound
// holds to the end.
//
// Lanes are in memory order (C is loaded as it lies), so Bk's panels are copies of its rows'
// runs, and A's entries are the broadcast words of I32::pair16 (the value in both halves).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "apsp/backends/host_microkernel.hpp"
#include "apsp/solver/host/block_walk.hpp"
#include "apsp/solver/host/operands.hpp"
#include "apsp/solver/host/tile_closure.hpp"

namespace apsp::Impl {

// 32-bit offsets on purpose, as in tile_ops.hpp: B * ld < 2^31 (check_block_size, padded_size).
// NOLINTBEGIN(bugprone-implicit-widening-of-multiplication-result)

/// `Traits`: the host backend's (kTileRows = MR, kTileRegs = NV, kHostLanes16).
template <class Traits>
struct HostTiles16 {
  using I32 = host_simd::I32;
  using U16 = host_simd::U16;
  using Reg = host_simd::Reg;
  /// The block of C, the packing unit and the operands' pitch: the int32 matrix's (HostOperands).
  using Shape = HostOperands<Traits>;
  static constexpr int MR = Shape::MR, NV = Shape::NV, NR16 = Shape::NR16, kUnit = Shape::kUnit;
  static constexpr int round_up(int x, int to) { return Shape::round_up(x, to); }
  static constexpr int pitch(int B) { return Shape::pitch(B); }
  /// The largest entry: padding, and what every sum stays below twice over.
  static constexpr uint16_t kCap = uint16_t(U16::kCap);

  /// int32 of one packed A (Bp rows of Bp broadcast words) and of one packed Bk (Bp / NR16
  /// panels of Bp pivots x NR16 uint16), each a multiple of 16 (64-byte aligned parts).
  static size_t a_ints(int B) { return size_t(pitch(B)) * size_t(pitch(B)); }
  static size_t bk_ints(int B) { return size_t(round_up(pitch(B) * pitch(B) / 2, 16)); }

  /// Where one product's operands are packed.
  struct Packed {
    int pitch;
    int32_t* a;   ///< a_ints
    uint16_t* b;  ///< bk_ints as uint16
    Packed(int B, int32_t* a_at, int32_t* bk_at)
        : pitch(HostTiles16::pitch(B)), a(a_at), b(reinterpret_cast<uint16_t*>(bk_at)) {}
  };

  /// A (rows x pivots, ld) as broadcast words; rows from `rows` to the next block row zeros.
  static void pack_a(const Packed& s, const uint16_t* a, int64_t ld, int rows, int pivots) {
    const int padded = round_up(rows, MR);
    for (int i = 0; i < padded; ++i) {
      int32_t* out = s.a + i * s.pitch;
      if (i < rows) {
        const uint16_t* row = a + i * ld;
        for (int p = 0; p < pivots; ++p) out[p] = int32_t(uint32_t(row[p]) * 0x10001u);
      } else {
        for (int p = 0; p < pivots; ++p) out[p] = 0;
      }
    }
  }
  /// Bk (pivots x cols, ld) into panels of NR16 columns; columns past `cols` zeros (never read
  /// past them: the matrix may end there).
  static void pack_bk(const Packed& s, const uint16_t* bk, int64_t ld, int cols, int pivots) {
    for (int j0 = 0; j0 < cols; j0 += NR16) {
      uint16_t* panel = s.b + j0 * s.pitch;
      const int w = cols - j0 < NR16 ? cols - j0 : NR16;
      if (w == NR16) {  // a constant size: the copy in registers, not a call
        for (int p = 0; p < pivots; ++p) std::memcpy(panel + p * NR16, bk + p * ld + j0, sizeof(uint16_t) * NR16);
        continue;
      }
      for (int p = 0; p < pivots; ++p) {
        std::memcpy(panel + p * NR16, bk + p * ld + j0, size_t(w) * sizeof(uint16_t));
        for (int j = w; j < NR16; ++j) panel[p * NR16 + j] = 0;
      }
    }
  }

  /// C (rows x cols, ld) = min(C, A (min,+) Bk) over `pivots` pivots, the operands in `s`.
  static void product(uint16_t* c, int64_t ld, int rows, int cols, int pivots, const Packed& s) {
    for (int i0 = 0; i0 < rows; i0 += MR)
      for (int j0 = 0; j0 < cols; j0 += NR16) {
        const host_simd::NextBlock next = next_block<MR, NR16>(c, ld, rows, cols, i0, j0);
        on_block<MR, NR16>(c, ld, rows, cols, i0, j0, [&](uint16_t* corner, int64_t cld) {
          relax(corner, cld, s.a + i0 * s.pitch, s.pitch, s.b + j0 * s.pitch, pivots, next);
          return true;
        });
      }
  }

  /// The same with A (rows x pivots) and Bk (pivots x cols) packed first into `scratch`
  /// (scratch_ints(B)): C may be A or Bk (phase 2, the closure), whose entries are all read
  /// before C is written.
  static void product(uint16_t* c, const uint16_t* a, const uint16_t* bk, int64_t ld, int rows, int cols, int pivots,
                      int32_t* scratch, int B) {
    const Packed s(B, scratch, scratch + a_ints(B));
    pack_a(s, a, ld, rows, pivots);
    pack_bk(s, bk, ld, cols, pivots);
    product(c, ld, rows, cols, pivots, s);
  }
  static size_t scratch_ints(int B) { return a_ints(B) + bk_ints(B); }

  /// Sub-tiles of the blocked closure.
  static constexpr int kSubTile = kUnit;
  static size_t close_scratch_ints() { return scratch_ints(kSubTile); }

  /// Floyd-Warshall on one B x B tile (ld) over its first `pivots` pivots, blocked in sub-tiles
  /// of kSubTile (host/tile_closure.hpp).
  static void close(uint16_t* t, int64_t ld, int B, int pivots, int32_t* scratch) {
    blocked_closure(
        t, ld, B, pivots, kSubTile,
        [&](uint16_t* diagonal, int extent, int depth) { close_elementwise(diagonal, ld, extent, depth); },
        [&](uint16_t* c, const uint16_t* a, const uint16_t* bk, int rows, int cols, int depth) {
          product(c, a, bk, ld, rows, cols, depth, scratch, kSubTile);
        });
  }

  /// The same, pivot by pivot (row p and column p do not change in step p: the diagonal is 0).
  static void close_elementwise(uint16_t* t, int64_t ld, int B, int pivots) {
    constexpr int W = U16::W;
    const int whole = B / W * W;
    for (int p = 0; p < pivots; ++p) {
      const uint16_t* pivot_row = t + p * ld;
      for (int r = 0; r < B; ++r) {
        uint16_t* row = t + r * ld;
        const uint16_t x = row[p];
        const Reg a = I32::splat(int32_t(uint32_t(x) * 0x10001u));
        for (int j = 0; j < whole; j += W) store(row + j, U16::add_min(load(row + j), a, load(pivot_row + j)));
        for (int j = whole; j < B; ++j) {
          const auto s = uint16_t(x + pivot_row[j]);
          row[j] = s < row[j] ? s : row[j];
        }
      }
    }
  }

 private:
  static Reg load(const uint16_t* p) { return I32::loadu(reinterpret_cast<const int32_t*>(p)); }
  static void store(uint16_t* p, Reg v) { I32::storeu(reinterpret_cast<int32_t*>(p), v); }

  /// One MR x NR16 block of C at `c` (rows `ld` apart) over every pivot.
  static void relax(uint16_t* c, int64_t ld, const int32_t* a, int a_pitch, const uint16_t* b, int pivots,
                    host_simd::NextBlock next) {
    host_simd::MicroTile<U16, MR, NV>::relax_at(c, ld, a, a_pitch, b, pivots, next);
  }
};

// NOLINTEND(bugprone-implicit-widening-of-multiplication-result)

}  // namespace apsp::Impl
