// SPDX-License-Identifier: BSD-3-Clause
// The GPU shape of the tile operations (BackendTraits::kRegisterTiles): a team has one thread
// per thread tile, and each thread keeps its results in registers from a round's first pivot
// to its last. Written against a team that has only team_rank() and team_barrier(), so that
// the host tests run these very functions on a team of host threads
// (tests/test_register_tiles.cpp) for a GPU backend's tile shape.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

#include "apsp/solver/gpu/packed_tiles.hpp"
#include "apsp/solver/gpu/slice_staging.hpp"
#include "apsp/solver/gpu/thread_tile.hpp"

namespace apsp::Impl {

// 32-bit offsets on purpose (see tile_ops.hpp).
// NOLINTBEGIN(bugprone-implicit-widening-of-multiplication-result)

template <class Traits>
struct RegisterTiles {
  using Tile = ThreadTile<Traits>;

  /// c = min(c, a (min,+) bk) for one product shape (see TileOps::min_plus_product), over
  /// `slice_count` slices of S pivots staged in `slices` (two alternating buffers): Block,
  /// Slice and Slices are int, or Fixed<...> for the backend's tuned shape (a whole tile of
  /// pivots: the counts, pitches and offsets then fold into immediates). Returns whether it ran
  /// in 16-bit lanes (the same on every thread of the team). `marks`: see
  /// PackedTiles::product.
  template <class Team, class Block, class Slice, class Slices>
  KOKKOS_FORCEINLINE_FUNCTION static bool product(const Team& team, int32_t* c, const int32_t* a, const int32_t* bk,
                                                  int64_t ld, Block B, Slice S, Slices slice_count, int32_t* slices,
                                                  OperandMarks marks = {}) {
    const ProductShape<Traits, Block, Slice> sh{B, S};
    constexpr bool kFixed = !std::is_same_v<Slice, int>;
    if constexpr (kFixed && Traits::kPairedEntries > 0) Traits::check_unit();
    // In 16-bit lanes where the tile allows it (gpu/packed_tiles.hpp), else in int32 below.
    if constexpr (kFixed && Traits::kPackedTiles) {
      constexpr int kRounds = int(Slices{}) * int(Slice{}) / int(Block{});  // whole rounds
      if (PackedTiles<Traits>::template product<kRounds>(team, c, a, bk, ld, slices, marks)) return true;
    }
    const int me = Traits::recompute_later(team.team_rank());
    Tile t(me, B);
    t.load(c, ld);
    SliceCopies<Traits> copies(me, ld, sh);
    const int n = int(slice_count);
    if constexpr (kFixed && !Traits::kAsyncCopies) {
      // Staged through registers: slice i + 1 is loaded before slice i is relaxed and written
      // to the other buffer after it (that buffer was last read in slice i - 1, which the
      // barrier ending it closed). One barrier per slice; the last slice loads nothing.
      // Without settle(), hipcc moved the relaxation's arithmetic past the barrier (its results
      // are used only in the next slice), so that the loads were waited for at once.
      constexpr int kRuns = ProductShape<Traits, Block, Slice>{}.runs();  // a fixed shape's: a constant
      copies.issue(slices, a, bk, ld, sh);
      team.team_barrier();
      for (int i = 0; i + 1 < n; ++i) {
        const int32_t* buf = slices + (i & 1) * sh.buffer();
        int32_t held[2 * kRuns][ProductShape<Traits, Block, Slice>::W];
        copies.template load<kRuns>(held, a, bk, ld, sh);
        t.template relax<Traits::kPivotRun, true>(buf, sh.ap(), buf + sh.b_offset(), sh.bp(), S);
        t.settle();  // relaxed here, while the loads are in flight: not after the barrier
        copies.template store<kRuns>(slices + ((i + 1) & 1) * sh.buffer(), held);
        team.team_barrier();
      }
      const int32_t* last = slices + ((n - 1) & 1) * sh.buffer();
      t.template relax<Traits::kPivotRun, true>(last, sh.ap(), last + sh.b_offset(), sh.bp(), S);
    } else {
      // Asynchronous copies (or any shape but the tuned one): slice i + 1 is copied into the
      // other buffer while slice i is relaxed.
      copies.issue(slices, a, bk, ld, sh);
      Traits::async_commit();
      for (int i = 0; i < n; ++i) {
        int32_t* buf = slices + (i & 1) * sh.buffer();
        if (i + 1 < n) {  // the other buffer was released by the barrier ending the last slice
          copies.issue(slices + ((i + 1) & 1) * sh.buffer(), a, bk, ld, sh);
          Traits::async_commit();
          Traits::template async_wait<1>();  // this thread's copies of slice i are done
        } else {
          Traits::template async_wait<0>();
        }
        team.team_barrier();  // ... and everyone's
        // The same call thrice, each with another type of slice depth (compile-time or not).
        // The tuned shape (every count fixed) relaxes in the backend's instruction mix.
        if constexpr (kFixed)
          // NOLINTNEXTLINE(bugprone-branch-clone)
          t.template relax<Traits::kPivotRun, true>(buf, sh.ap(), buf + sh.b_offset(), sh.bp(), S);
        else if (S == Traits::kMaxSlice)
          t.template relax<Traits::kPivotRun>(buf, sh.ap(), buf + sh.b_offset(), sh.bp(), Fixed<Traits::kMaxSlice>{});
        else
          t.template relax<Traits::kPivotRun>(buf, sh.ap(), buf + sh.b_offset(), sh.bp(), S);
        if (i + 1 < n) team.team_barrier();
      }
    }
    t.store(c, ld);
    return false;
  }

  /// Floyd-Warshall on one B x B tile (ld) over its first `pivots` pivots: each thread holds
  /// its entries in registers; per step the owners of row p and column p publish them to
  /// `buffers` (4 B int32 of team scratch), double-buffered so that one barrier per step
  /// suffices. Row p and column p do not change in step p (the diagonal is 0).
  template <class Team>
  KOKKOS_FORCEINLINE_FUNCTION static void close(const Team& team, int32_t* t, int64_t ld, int B, int pivots,
                                                int32_t* buffers) {
    Tile tile(team.team_rank(), B);
    tile.load(t, ld);
    tile.publish(0, buffers, buffers + B);
    team.team_barrier();
    for (int p = 0; p < pivots; ++p) {
      const int32_t* now = buffers + (p & 1) * 2 * B;
      tile.template relax<1>(now, 1, now + B, 0, 1);
      if (p + 1 < pivots) {
        int32_t* next = buffers + ((p + 1) & 1) * 2 * B;
        tile.publish(p + 1, next, next + B);
      }
      team.team_barrier();
    }
    tile.store(t, ld);
  }
};

// NOLINTEND(bugprone-implicit-widening-of-multiplication-result)

}  // namespace apsp::Impl
