// SPDX-License-Identifier: BSD-3-Clause
// The tile operations every phase kernel is made of: the min-plus product of two tiles into a
// third (phases 2 and 3) and the closure of one tile under its own pivots (phase 1).
#pragma once

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "apsp/backends/backend_traits.hpp"
#include "apsp/solver/gpu/register_tiles.hpp"
#include "apsp/solver/gpu/slice_staging.hpp"
#include "apsp/solver/gpu/thread_tile.hpp"
#include "apsp/solver/host/tiles.hpp"
#include "apsp/solver/round_operands.hpp"

namespace apsp::Impl {

// 32-bit offsets on purpose: products of tile indices and pitches stay below B * ld < 2^31
// (check_block_size, padded_size), and 64-bit ones cost a GPU thread registers it has not got.
// NOLINTBEGIN(bugprone-implicit-widening-of-multiplication-result)

/// Tile operations shared by the three phase kernels.
///
/// Two execution shapes, chosen by the backend (BackendTraits::kRegisterTiles):
/// - register tiles (GPU, gpu/register_tiles.hpp): a team has one thread per thread tile, and each
///   thread keeps its results in registers from the first pivot to the last; the operands are
///   staged in team scratch a slice of `slice_depth(B)` pivots at a time in two alternating
///   buffers, so a B = 128 tile needs 37 KiB of shared memory (CUDA), not the 135 KiB of two
///   whole staged tiles.
/// - one thread per tile (CPU, host/tiles.hpp): the operands packed whole into panels, and a
///   register-blocked micro-kernel over every block of the tile, in 16-bit lanes where exact.
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
  using Schedule = typename Traits::Schedule;
  static int team_size(int B) { return Traits::team_size(B); }
  static int vector_length(int B) { return Traits::vector_length(B); }
  /// Team scratch: each kernel's int32 are defined once (product_ints, closure_ints); the launch
  /// asks for them plus the alignment (product_scratch, closure_scratch) and the kernel takes
  /// exactly them (scratch()), so the two cannot drift apart.
  static constexpr size_t kScratchAlign = 64;
  KOKKOS_INLINE_FUNCTION static size_t product_ints(int B) {
    if constexpr (Traits::kRegisterTiles) {
      return size_t(Layout::kBuffers) * size_t(slice_buffer_ints<Traits>(B));
    } else {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)  // host code, absent from device passes
      return HostTiles<Traits>::scratch_ints(B);
#else
      return 0;
#endif
    }
  }
  KOKKOS_INLINE_FUNCTION static size_t closure_ints(int B) {
    if constexpr (Traits::kRegisterTiles) {
      return size_t(4) * size_t(B);
    } else {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
      return HostTiles<Traits>::close_scratch_ints(B);
#else
      return 0;
#endif
    }
  }
  static size_t product_scratch(int B) { return product_ints(B) * sizeof(int32_t) + kScratchAlign; }
  static size_t closure_scratch(int B) { return closure_ints(B) * sizeof(int32_t) + kScratchAlign; }
  /// The CPU's products share a round's packed operands (round_operands.hpp); a GPU's stage
  /// their own slices.
  static constexpr bool kPacksRounds = !Traits::kRegisterTiles;
  /// A GPU marks each round's operands instead (round_operands.hpp): whether a tile holds a
  /// finite entry at all (a product with an operand of INF alone is left out, on every GPU), and
  /// with the 16-bit product whether its finite entries are small (PackedTiles' case 2: tiles
  /// that hold INF take 16-bit lanes where the operands allow it).
  static constexpr bool kMarksOperands = Traits::kRegisterTiles;
  /// (kMarksOperands) what the marking kernel asks of each entry for the "small" bit, which only
  /// the 16-bit product reads.
  KOKKOS_INLINE_FUNCTION static bool small_entry(int32_t v) { return PackedTiles<Traits>::small_entry(v); }
  /// (kMarksOperands) Whether the marks keep each tile's least entry: only the 16-bit product
  /// reads it (PackedTiles' case 3); without it, the marking kernels take no second atomic.
  static constexpr bool kKeepsLeast = Traits::kPackedTiles;
  static constexpr bool kHasTuned = Layout::kHasTuned;
  static bool tuned(int B, int pivots) { return Layout::tuned(B, pivots); }

  KOKKOS_FORCEINLINE_FUNCTION static int32_t* scratch(const Member& team, size_t ints) {
    return static_cast<int32_t*>(team.team_scratch(0).get_shmem_aligned(ints * sizeof(int32_t), kScratchAlign));
  }

  /// C = min(C, A (min,+) Bk) for B x B tiles with leading dimension ld, over the first
  /// `pivots` columns of A and rows of Bk (fewer than B only in the last round, where the rest
  /// are padding past V: rounded up to a slice, not computed). C may be the same tile as A or
  /// Bk (phase 2): every read of them comes before the first write.
  ///
  /// With register tiles, a slice is A's columns [s, s + S) (B rows of S, pitch a_pitch(S)) and
  /// Bk's rows [s, s + S) (S rows of B, pitch b_pitch(B)); two slice buffers alternate: slice
  /// s + 1 is copied while slice s is relaxed. On the CPU, HostTiles packs the whole operands.
  ///
  /// kTuned: the backend's tuned shape (B = kMaxBlock, a whole round: see tuned()), compiled
  /// with every count fixed, in a kernel of its own: one shape per kernel keeps a GPU thread
  /// within its registers.
  ///
  /// `marks`: whether every finite entry of A and Bk is small (kMarksOperands), which lets
  /// a tile holding INF take the 16-bit product.
  ///
  /// Returns how many of its relaxations ran in 16-bit lanes (report/ceiling.hpp weighs the
  /// device's two rates by them): B * B * pivots or 0 on a GPU, the blocks that qualified on a CPU.
  ///
  /// kRounds (tuned only): 2 for the product of two whole rounds on one pass over C, A's 2B
  /// columns from a and Bk's 2B rows from bk (gpu/pair_kernels.hpp); `pivots` then counts both.
  template <bool kTuned = false, int kRounds = 1>
  KOKKOS_FORCEINLINE_FUNCTION static int64_t min_plus_product(const Member& team, int32_t* c, const int32_t* a,
                                                              const int32_t* bk, int64_t ld, int B, int pivots,
                                                              OperandMarks marks = {}) {
    static_assert(kRounds == 1 || (kTuned && Traits::kRegisterTiles), "two rounds at once: a GPU's tuned shape only");
    if constexpr (Traits::kRegisterTiles) {
      const int S = Traits::slice_depth(B);
      int32_t* slices = scratch(team, product_ints(B));
      if constexpr (kTuned)
        return RegisterTiles<Traits>::product(team, c, a, bk, ld, Fixed<Traits::kMaxBlock>{},
                                              Fixed<Layout::kTunedSlice>{},
                                              Fixed<kRounds * Traits::kMaxBlock / Layout::kTunedSlice>{}, slices, marks)
                   ? int64_t(B) * B * pivots
                   : 0;
      // the padding past V (last round) is skipped, rounded up to a slice
      RegisterTiles<Traits>::product(team, c, a, bk, ld, B, S, (pivots + S - 1) / S, slices);
      return 0;
    } else {
      (void)marks;
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)  // host code, absent from device passes
      return host_product(c, a, bk, ld, B, pivots, scratch(team, product_ints(B)));
#else
      (void)team, (void)c, (void)a, (void)bk, (void)ld, (void)B, (void)pivots;
      return 0;
#endif
    }
  }

  /// The general product of min_plus_product (no marks) on `slices`, team scratch of
  /// product_ints(B) the caller took once: several products one after the other in one team
  /// (a block of rounds across ranks, mpi/band_tiles.hpp), with a team barrier between them.
  KOKKOS_FORCEINLINE_FUNCTION static int64_t general_product(const Member& team, int32_t* c, const int32_t* a,
                                                             const int32_t* bk, int64_t ld, int B, int pivots,
                                                             int32_t* slices) {
    if constexpr (Traits::kRegisterTiles) {
      const int S = Traits::slice_depth(B);
      RegisterTiles<Traits>::product(team, c, a, bk, ld, B, S, (pivots + S - 1) / S, slices);
      return 0;
    } else {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
      (void)team;
      return host_product(c, a, bk, ld, B, pivots, slices);
#else
      (void)team, (void)c, (void)a, (void)bk, (void)ld, (void)B, (void)pivots, (void)slices;
      return 0;
#endif
    }
  }

  /// The relaxations a product computes over `pivots` pivots on a rows x cols part of a C tile,
  /// in either lane type (the lane tally's second count): whole thread tiles, as a GPU computes
  /// its B x B tiles and a CPU the MR x NR16 blocks at C's edges.
  KOKKOS_INLINE_FUNCTION static int64_t computed(int rows, int cols, int pivots) {
    constexpr int R = Traits::kTileRows, C = Traits::kTileCols;
    return int64_t((rows + R - 1) / R * R) * int64_t((cols + C - 1) / C * C) * pivots;
  }
  /// The same for packed_product's part of tile (i, j).
  KOKKOS_INLINE_FUNCTION static int64_t packed_computed(int B, int pivots, const PackedRound& round, int i, int j) {
    return computed(round.extent(round.first_tile + i, B), round.extent(j, B), pivots);
  }

  // The CPU's product and closure with scratch the caller took once (host/rounds.hpp runs many
  // of them in one worker). Host code: empty in device passes, as the rest of the CPU's path.
  static size_t host_scratch_ints(int B) {
    return product_ints(B) > closure_ints(B) ? product_ints(B) : closure_ints(B);
  }
  static int64_t host_product(int32_t* c, const int32_t* a, const int32_t* bk, int64_t ld, int B, int pivots,
                              int32_t* scratch) {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    return HostTiles<Traits>::product(c, a, bk, ld, B, pivots, scratch) * HostTiles<Traits>::block_relaxations(pivots);
#else
    (void)c, (void)a, (void)bk, (void)ld, (void)B, (void)pivots, (void)scratch;
    return 0;
#endif
  }
  static void host_close(int32_t* t, int64_t ld, int B, int pivots, int32_t* scratch) {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    HostTiles<Traits>::close(t, ld, B, pivots, scratch);
#else
    (void)t, (void)ld, (void)B, (void)pivots, (void)scratch;
#endif
  }

  // The CPU's round packing (kPacksRounds): the sizes and the packing of one A operand (tile
  // (i, k)) and one Bk operand (tile (k, j)), and a product whose operands are packed already.
  static size_t a_ints(int B) { return HostOperands<Traits>::a_ints(B); }
  static size_t bk_ints(int B) { return HostOperands<Traits>::bk_ints(B); }
  /// `lanes16`: the 16-bit forms too (PackedRound::lanes16).
  KOKKOS_INLINE_FUNCTION static void pack_a(int32_t* out, const int32_t* a, int64_t ld, int B, int pivots,
                                            bool lanes16 = true) {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    using O = HostOperands<Traits>;
    O::pack_a_whole(typename O::Packed(B, out, nullptr), a, ld, B, pivots, lanes16);
    out[O::a_ints(B) - O::kFiniteInts] = O::holds_finite(a, ld, B, pivots);
#else
    (void)out, (void)a, (void)ld, (void)B, (void)pivots, (void)lanes16;
#endif
  }
  KOKKOS_INLINE_FUNCTION static void pack_bk(int32_t* out, const int32_t* bk, int64_t ld, int B, int pivots,
                                             bool lanes16 = true) {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    using O = HostOperands<Traits>;
    O::pack_bk_whole(typename O::Packed(B, nullptr, out), bk, ld, B, pivots, lanes16);
    out[O::bk_ints(B) - O::kFiniteInts] = O::holds_finite(bk, ld, pivots, B);
#else
    (void)out, (void)bk, (void)ld, (void)B, (void)pivots, (void)lanes16;
#endif
  }
  /// Whether A or Bk, packed for tile (i, j) (i of the kernel's rows), is INF alone: the product
  /// changes nothing (every sum is at least INF) and is left out.
  KOKKOS_INLINE_FUNCTION static bool packed_changes_nothing(const PackedRound& round, int i, int j) {
    constexpr int kF = HostOperands<Traits>::kFiniteInts;
    return (round.a[(i + 1) * round.a_ints - kF] & round.bk[(j + 1) * round.bk_ints - kF]) == 0;
  }
  /// C = min(C, A (min,+) Bk) with A, Bk the packed operands of tile row i (of the kernel's
  /// rows) and tile column j; C's rows and columns past V (padding) are left as they are.
  /// Returns the relaxations that ran in 16-bit lanes, as min_plus_product.
  KOKKOS_FORCEINLINE_FUNCTION static int64_t packed_product(const Member& /*team*/, int32_t* c, int64_t ld, int B,
                                                            int pivots, const PackedRound& round, int i, int j) {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    return host_packed_product(c, ld, B, pivots, round, i, j);
#else
    (void)c, (void)ld, (void)B, (void)pivots, (void)round, (void)i, (void)j;
    return 0;
#endif
  }
  static int64_t host_packed_product(int32_t* c, int64_t ld, int B, int pivots, const PackedRound& round, int i,
                                     int j) {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    using Tiles = HostTiles<Traits>;
    const typename Tiles::Packed packed(B, round.a + i * round.a_ints, round.bk + j * round.bk_ints);
    const int rows = round.extent(round.first_tile + i, B), cols = round.extent(j, B);
    if (round.lanes16 == 0) {  // int32 operands alone this round (RoundOperands::layout)
      if (Tiles::product_int32(c, ld, rows, cols, pivots, packed)) round.note_qualified();
      round.note_far();  // its blocks untested
      return 0;
    }
    bool far = false;
    const int sixteen = Tiles::product(c, ld, rows, cols, pivots, packed, &far);
    if (sixteen > 0) round.note_qualified();
    if (far) round.note_far();
    return sixteen * Tiles::block_relaxations(pivots);
#else
    (void)c, (void)ld, (void)B, (void)pivots, (void)round, (void)i, (void)j;
    return 0;
#endif
  }

  /// Floyd-Warshall on one B x B tile (ld) over its first `pivots` pivots (the rest: padding). Row p and column p do
  /// not change in step p (the diagonal is 0), so every thread may read them during the step.
  KOKKOS_FORCEINLINE_FUNCTION static void close_tile(const Member& team, int32_t* t, int64_t ld, int B, int pivots) {
    if constexpr (Traits::kRegisterTiles) {
      RegisterTiles<Traits>::close(team, t, ld, B, pivots, scratch(team, closure_ints(B)));
    } else {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
      host_close(t, ld, B, pivots, scratch(team, closure_ints(B)));
#else
      (void)team, (void)t, (void)ld, (void)B, (void)pivots;
#endif
    }
  }
};

// NOLINTEND(bugprone-implicit-widening-of-multiplication-result)

}  // namespace apsp::Impl
