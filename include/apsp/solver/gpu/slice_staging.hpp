// SPDX-License-Identifier: BSD-3-Clause
// How a tile product stages its operands in team scratch: the slice layout (pitches, buffer
// sizes, the backend's tuned compile-time shape), the product's shape, and one thread's share
// of the asynchronous copies that fill a slice buffer.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "apsp/backends/backend_traits.hpp"
#include "apsp/solver/gpu/thread_tile.hpp"

namespace apsp::Impl {

// 32-bit offsets on purpose: products of tile indices and pitches stay below B * ld < 2^31
// (check_block_size, padded_size), and 64-bit ones cost a GPU thread registers it has not got.
// NOLINTBEGIN(bugprone-implicit-widening-of-multiplication-result)

/// A compile-time int: where the backend caps B and S (kMaxBlock, kMaxSlice), counts,
/// pitches and offsets built from it fold into immediates.
template <int N>
struct Fixed {
  KOKKOS_FORCEINLINE_FUNCTION constexpr operator int() const { return N; }
};

/// The staged slices' layout for a backend.
template <class Traits>
struct SliceLayout {
  /// Row pitches (int32) of the staged slices: A's rows hold S pivots, Bk's rows B columns.
  /// Where the backend caps B and S (kMaxBlock, kMaxSlice), compile-time constants: the
  /// unrolled pivot steps then address scratch with immediate offsets from a few base
  /// registers instead of an integer add per load.
  static constexpr bool kFixedPitches = Traits::kMaxBlock > 0;
  /// Whether the backend has a tuned product kernel (min_plus_product<true>), and its slice.
  static constexpr bool kHasTuned = Traits::kRegisterTiles && kFixedPitches;
  static constexpr int kTunedSlice = Traits::slice_depth(Traits::kMaxBlock);
  /// Whether a product of this round takes the tuned kernel.
  static bool tuned(int B, int pivots) { return kHasTuned && B == Traits::kMaxBlock && pivots == B; }
  /// The pitch of rows of `extent` int32 that the backend caps at `Cap`.
  template <int Cap>
  using PitchFor = std::conditional_t<kFixedPitches, Fixed<Cap + Traits::kScratchPad>, int>;
  template <int Cap>
  KOKKOS_FORCEINLINE_FUNCTION static constexpr PitchFor<Cap> pitch(int extent) {
    if constexpr (kFixedPitches) {
      (void)extent;
      return PitchFor<Cap>{};
    } else {
      return extent + Traits::kScratchPad;
    }
  }
  KOKKOS_FORCEINLINE_FUNCTION static constexpr auto a_pitch(int S) { return pitch<Traits::kMaxSlice>(S); }
  KOKKOS_FORCEINLINE_FUNCTION static constexpr auto b_pitch(int B) { return pitch<Traits::kMaxBlock>(B); }

  /// Team scratch buffers of a product: two alternating slices with register tiles.
  static constexpr int kBuffers = Traits::kRegisterTiles ? 2 : 1;
};

/// The shape of a tile product with register tiles: B and the slice depth S, each an int or,
/// for the backend's tuned block (kMaxBlock), a compile-time Fixed<N>, so that the counts,
/// pitches and offsets below fold into immediates instead of costing integer instructions
/// (which share the ALU pipe with the add-min) in every slice.
template <class Traits, class Block, class Slice>
struct ProductShape {
  Block B;
  Slice S;
  static constexpr int W = Traits::kChunk;
  KOKKOS_FORCEINLINE_FUNCTION constexpr int threads() const { return ThreadTile<Traits>::count(int(B)); }
  KOKKOS_FORCEINLINE_FUNCTION constexpr auto ap() const { return SliceLayout<Traits>::a_pitch(int(S)); }
  KOKKOS_FORCEINLINE_FUNCTION constexpr auto bp() const { return SliceLayout<Traits>::b_pitch(int(B)); }
  /// int32 per slice buffer: A's B rows of S pivots, then Bk's S rows of B.
  KOKKOS_FORCEINLINE_FUNCTION constexpr int b_offset() const { return int(B) * int(ap()); }
  KOKKOS_FORCEINLINE_FUNCTION constexpr int buffer() const { return b_offset() + int(S) * int(bp()); }
  /// Runs of W int32 per row of each operand slice, and the rows between one thread's runs.
  KOKKOS_FORCEINLINE_FUNCTION constexpr int a_row_runs() const { return int(S) / W; }
  KOKKOS_FORCEINLINE_FUNCTION constexpr int b_row_runs() const { return int(B) / W; }
  KOKKOS_FORCEINLINE_FUNCTION constexpr int a_rows_apart() const { return threads() / a_row_runs(); }
  KOKKOS_FORCEINLINE_FUNCTION constexpr int b_rows_apart() const { return threads() / b_row_runs(); }
  /// Runs each thread copies of each operand: B S / W over B^2 / 64 threads (2 at B = 128).
  KOKKOS_FORCEINLINE_FUNCTION constexpr int runs() const { return int(B) * a_row_runs() / threads(); }
};

/// int32 of one slice buffer (ProductShape::buffer).
template <class Traits>
KOKKOS_FORCEINLINE_FUNCTION int slice_buffer_ints(int B) {
  return ProductShape<Traits, int, int>{B, Traits::slice_depth(B)}.buffer();
}

/// One thread's share of staging the slices of a tile product with register tiles: its
/// runs of A's and Bk's rows lie a fixed number of rows apart (team size and runs per row
/// are powers of two), so a slice costs one asynchronous 16-byte copy per run and moving two
/// offsets on, not the index arithmetic of a generic loop. Per thread only four 32-bit
/// offsets (registers are what a GPU thread is short of: 64-bit pointers here made the
/// compiler spill); the operands' corners and the steps are the same for the whole team.
template <class Traits>
struct SliceCopies {
  int a_src, b_src;  ///< this thread's first run of A and of Bk in the next slice, from the corner
  int a_dst, b_dst;  ///< their places in a slice buffer
  // Between one thread's runs, in the operands and in the buffer (the same for the team;
  // constants for a fixed shape, worked out once per tile otherwise).
  int a_step, b_step, a_dst_step, b_dst_step;

  template <class Shape>
  KOKKOS_FORCEINLINE_FUNCTION SliceCopies(int me, int64_t ld, const Shape& sh) {
    constexpr int W = Shape::W;
    // check_block_size keeps threads >= runs per row: B >= kMinBlock. Offsets stay far
    // below 2^31: at most B rows of ld elements.
    const int a_row = me / sh.a_row_runs(), a_col = me % sh.a_row_runs() * W;
    const int b_row = me / sh.b_row_runs(), b_col = me % sh.b_row_runs() * W;
    a_src = a_row * int(ld) + a_col;
    b_src = b_row * int(ld) + b_col;
    a_dst = a_row * int(sh.ap()) + a_col;
    b_dst = sh.b_offset() + b_row * int(sh.bp()) + b_col;
    a_step = sh.a_rows_apart() * int(ld);
    b_step = sh.b_rows_apart() * int(ld);
    a_dst_step = sh.a_rows_apart() * int(sh.ap());
    b_dst_step = sh.b_rows_apart() * int(sh.bp());
  }

  /// Starts the copies of the next slice of A and Bk into `buf` and moves on to the one after.
  template <class Shape>
  KOKKOS_FORCEINLINE_FUNCTION void issue(int32_t* buf, const int32_t* a, const int32_t* bk, int64_t ld,
                                         const Shape& sh) {
    constexpr int W = Shape::W;
    // No unroll pragma: a fixed shape's count is a constant (unrolled anyway); a runtime one
    // unrolled would cost registers.
    for (int k = 0; k < sh.runs(); ++k) {
      Traits::template copy_async<W>(buf + a_dst + k * a_dst_step, a + (a_src + k * a_step));
      Traits::template copy_async<W>(buf + b_dst + k * b_dst_step, bk + (b_src + k * b_step));
    }
    a_src += int(sh.S);
    b_src += int(sh.S) * int(ld);
  }

  /// Staging through registers, for a backend without asynchronous copies (kAsyncCopies
  /// false): load() takes the next slice's kRuns runs of A and of Bk into `held` before the
  /// current slice is relaxed, store() writes them to their buffer after it, so that the loads
  /// are in flight meanwhile. kRuns: runs() of a fixed shape.
  template <int kRuns, class Shape>
  KOKKOS_FORCEINLINE_FUNCTION void load(int32_t (&held)[2 * kRuns][Shape::W], const int32_t* a, const int32_t* bk,
                                        int64_t ld, const Shape& sh) {
    constexpr int W = Shape::W;
    APSP_UNROLL
    for (int k = 0; k < kRuns; ++k) {
      Traits::template copy_run<W>(held[k], a + (a_src + k * a_step));
      Traits::template copy_run<W>(held[kRuns + k], bk + (b_src + k * b_step));
    }
    a_src += int(sh.S);
    b_src += int(sh.S) * int(ld);
  }
  template <int kRuns, int W>
  KOKKOS_FORCEINLINE_FUNCTION void store(int32_t* buf, const int32_t (&held)[2 * kRuns][W]) const {
    APSP_UNROLL
    for (int k = 0; k < kRuns; ++k) {
      Traits::template store_run<W>(buf + a_dst + k * a_dst_step, held[k]);
      Traits::template store_run<W>(buf + b_dst + k * b_dst_step, held[kRuns + k]);
    }
  }
};

// NOLINTEND(bugprone-implicit-widening-of-multiplication-result)

}  // namespace apsp::Impl
