// SPDX-License-Identifier: BSD-3-Clause
// The tile operations every phase kernel is made of: the min-plus product of two tiles into a
// third (phases 2 and 3) and the closure of one tile under its own pivots (phase 1).
#pragma once

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "apsp/solver/register_tiles.hpp"
#include "apsp/solver/slice_staging.hpp"
#include "apsp/solver/thread_tile.hpp"
#include "backend_traits.hpp"

namespace apsp::Impl {

// 32-bit offsets on purpose: products of tile indices and pitches stay below B * ld < 2^31
// (check_block_size, padded_size), and 64-bit ones cost a GPU thread registers it has not got.
// NOLINTBEGIN(bugprone-implicit-widening-of-multiplication-result)

/// Tile operations shared by the three phase kernels.
///
/// Two execution shapes, chosen by the backend (BackendTraits::kRegisterTiles):
/// - register tiles (GPU, register_tiles.hpp): a team has one thread per thread tile, and each
///   thread keeps its results in registers from the first pivot to the last; the operands are
///   staged in team scratch a slice of `slice_depth(B)` pivots at a time in two alternating
///   buffers, so a B = 128 tile needs 37 KiB of shared memory (CUDA), not the 135 KiB of two
///   whole staged tiles.
/// - one thread walks every thread tile (CPU): the operands are staged whole
///   (slice_depth = B) and each thread tile is loaded, relaxed and stored in turn.
template <class ExecSpace>
struct TileOps {
  using Traits = BackendTraits<ExecSpace>;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Tile = ThreadTile<Traits>;
  using Layout = SliceLayout<Traits>;

  // What the round driver (blocked_fw.hpp) asks of any tile operations: the entry type, the
  // team shape and scratch of each kernel, and whether a round takes the tuned kernels.
  using Value = int32_t;
  using LaunchBounds = typename Traits::LaunchBounds;
  static int team_size(int B) { return Traits::team_size(B); }
  static int vector_length(int B) { return Traits::vector_length(B); }
  static size_t product_scratch(int B) { return product_scratch_bytes<Traits>(B); }
  static size_t closure_scratch(int B) { return closure_scratch_bytes<Traits>(B); }
  static constexpr bool kHasTuned = Layout::kHasTuned;
  static bool tuned(int B, int pivots) { return Layout::tuned(B, pivots); }

  KOKKOS_FORCEINLINE_FUNCTION static int32_t* scratch(const Member& team, size_t ints) {
    return static_cast<int32_t*>(team.team_scratch(0).get_shmem_aligned(ints * sizeof(int32_t), 64));
  }

  /// dst(r, c) <- src[r * ld + c] for r < rows, c < cols, rows over the team's threads, each
  /// row in runs of kChunk contiguous int32 (the CPU's staging; register tiles use
  /// SliceCopies). Rows and runs are two loops, not one range split by a division: an integer
  /// division per 16-int run made the OpenMP backend's phase 2 four times slower.
  KOKKOS_FORCEINLINE_FUNCTION static void stage(const Member& team, int32_t* dst, int dst_pitch, const int32_t* src,
                                                int64_t ld, int rows, int cols) {
    constexpr int W = Traits::kChunk;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, rows), [&](const int r) {
      for (int c = 0; c < cols; c += W) {
        int32_t v[W];
        Traits::template copy_run<W>(v, src + r * ld + c);
        Traits::template store_run<W>(dst + r * dst_pitch + c, v);
      }
    });
  }
  /// C = min(C, A (min,+) Bk) for B x B tiles with leading dimension ld, over the first
  /// `pivots` columns of A and rows of Bk (fewer than B only in the last round, where the rest
  /// are padding past V: rounded up to a slice, not computed). C may be the same tile as A or
  /// Bk (phase 2): every read of them comes before the first write.
  ///
  /// A slice is A's columns [s, s + S) (B rows of S, pitch a_pitch(S)) and Bk's rows
  /// [s, s + S) (S rows of B, pitch b_pitch(B)). With register tiles two slice buffers
  /// alternate: slice s + 1 is copied while slice s is relaxed.
  ///
  /// kTuned: the backend's tuned shape (B = kMaxBlock, a whole round: see tuned()), compiled
  /// with every count fixed, in a kernel of its own: one shape per kernel keeps a GPU thread
  /// within its registers.
  template <bool kTuned = false>
  KOKKOS_FORCEINLINE_FUNCTION static void min_plus_product(const Member& team, int32_t* c, const int32_t* a,
                                                           const int32_t* bk, int64_t ld, int B, int pivots) {
    const int S = Traits::slice_depth(B);
    const auto ap = Layout::a_pitch(S);
    const auto bp = Layout::b_pitch(B);
    int32_t* slices = scratch(team, size_t(Layout::kBuffers) * slice_buffer_ints<Traits>(B));
    if constexpr (Traits::kRegisterTiles) {
      if constexpr (kTuned)
        RegisterTiles<Traits>::product(team, c, a, bk, ld, Fixed<Traits::kMaxBlock>{}, Fixed<Layout::kTunedSlice>{},
                                       Fixed<Traits::kMaxBlock / Layout::kTunedSlice>{}, slices);
      else  // the padding past V (last round) is skipped, rounded up to a slice
        RegisterTiles<Traits>::product(team, c, a, bk, ld, B, S, (pivots + S - 1) / S, slices);
    } else {
      for (int s = 0; s < pivots; s += S) {
        constexpr int U = Traits::kPivotRun;
        const int rest = (pivots - s + U - 1) / U * U;  // (std::min is host-only for nvcc)
        const int depth = rest < S ? rest : S;
        if (s > 0) team.team_barrier();
        stage(team, slices, ap, a + s, ld, B, S);
        stage(team, slices + B * ap, bp, bk + int64_t(s) * ld, ld, S, B);
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, Tile::count(B)), [&](const int index) {
          Tile t(index, B);
          t.load(c, ld);
          t.template relax<Traits::kPivotRun>(slices, ap, slices + B * ap, bp, depth);
          t.store(c, ld);
        });
      }
    }
  }

  /// Floyd-Warshall on one B x B tile (ld) over its first `pivots` pivots (the rest: padding). Row p and column p do
  /// not change in step p (the diagonal is 0), so every thread may read them during the step.
  KOKKOS_FORCEINLINE_FUNCTION static void close_tile(const Member& team, int32_t* t, int64_t ld, int B, int pivots) {
    if constexpr (Traits::kRegisterTiles) {
      RegisterTiles<Traits>::close(team, t, ld, B, pivots, scratch(team, size_t(4) * B));
    } else {
      constexpr int W = Traits::kChunk;
      for (int p = 0; p < pivots; ++p) {
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, B), [&](const int r) {
          const int32_t a = t[r * ld + p];
          for (int c = 0; c < B; c += W) {
            int32_t* row = Tile::aligned16(t + r * ld + c);
            const int32_t* pivot = Tile::aligned16(t + p * ld + c);
            APSP_UNROLL
            for (int w = 0; w < W; ++w) row[w] = Traits::min_plus(row[w], a, pivot[w]);
          }
        });
        team.team_barrier();
      }
    }
  }
};

// NOLINTEND(bugprone-implicit-widening-of-multiplication-result)

}  // namespace apsp::Impl
