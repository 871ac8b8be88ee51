// SPDX-License-Identifier: BSD-3-Clause
// The tile operations of a solve that also finds predecessors, on 64-bit path keys
// (path_keys.hpp): the same round driver and phase kernels as the distance solve
// (BlockedFloydWarshall<ExecSpace, PathTileOps<ExecSpace>>), with a product that keeps the
// argument of the minimum. A relaxation is c = min(c, (a with its predecessor field cleared) +
// b) on int64: the predecessor rides along in the low bits, so the minimum's argument costs
// no compare of its own.
//
// Two shapes, as for distances (BackendTraits::kRegisterTiles):
// - GPU: a team of (B/4)^2 threads, each holding a 4 x 4 block of keys in registers (its
//   rows and columns B/4 apart, so that a warp reads consecutive keys of a staged row); the
//   operands are staged kSlice pivots at a time in team scratch, the A operand's predecessor
//   fields cleared on the way in.
// - CPU: one thread per tile, a row at a time, the innermost loop over a row of the B operand
//   (add, compare, select on int64 vectors).
#pragma once

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "apsp/backends/backend_traits.hpp"
#include "apsp/paths/path_keys.hpp"

namespace apsp::Impl {

// 32-bit offsets on purpose, as in tile_ops.hpp: B * ld < 2^31 (check_block_size, padded_size).
// NOLINTBEGIN(bugprone-implicit-widening-of-multiplication-result)

template <class ExecSpace>
struct PathTileOps {
  using Value = PathKeys::Key;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  static constexpr bool kGpu = BackendTraits<ExecSpace>::kRegisterTiles;
  static constexpr Value kKeep = PathKeys::kKeepCost;

  /// GPU shape: a 4 x 4 thread tile, B up to kMaxBlock (256 threads), kSlice pivots staged.
  static constexpr int kTile = 4;
  static constexpr int kSlice = 16;
  static constexpr int kMaxBlock = 64;
  /// GPU: the largest tile of a 256-thread team. Host: three tiles of 32 KiB of keys at B = 64
  /// stay in a core's L2.
  static constexpr int default_block = 64;
  static constexpr int kLargestHostBlock = 1024;
#ifndef APSP_PATH_MIN_TEAMS
#define APSP_PATH_MIN_TEAMS 2
#endif
  static constexpr int kMinTeams = APSP_PATH_MIN_TEAMS;

  // Teams of 256 per multiprocessor the kernels are compiled for (APSP_PATH_MIN_TEAMS): 2 caps a
  // thread at 128 registers; unbounded, nvcc took 200 for phase 3 and one team fitted.
  using LaunchBounds =
      std::conditional_t<kGpu, Kokkos::LaunchBounds<(kMaxBlock / kTile) * (kMaxBlock / kTile), kMinTeams>,
                         Kokkos::LaunchBounds<>>;
  static int team_size(int B) { return kGpu ? (B / kTile) * (B / kTile) : 1; }
  static int vector_length(int /*B*/) { return 1; }
  /// The staged A slice (B rows of kSlice keys, one key of padding against bank conflicts) and
  /// B slice (kSlice rows of B keys).
  static constexpr int kAPitch = kSlice + 1;
  // Called in the kernels too (the device functions must not call host ones: nvcc compiled
  // such a kernel to nothing, with only a warning).
  // Team scratch (GPU kernels only): each kernel's keys defined once; the launch asks for them
  // plus the alignment, the kernel takes exactly them.
  static constexpr size_t kScratchAlign = 64;
  KOKKOS_INLINE_FUNCTION static size_t product_values(int B) { return size_t(B * kAPitch + kSlice * B); }
  KOKKOS_INLINE_FUNCTION static size_t closure_values(int B) { return size_t(B * (B + 1)); }
  KOKKOS_INLINE_FUNCTION static size_t product_scratch(int B) {
    return kGpu ? product_values(B) * sizeof(Value) + kScratchAlign : 0;
  }
  KOKKOS_INLINE_FUNCTION static size_t closure_scratch(int B) {
    return kGpu ? closure_values(B) * sizeof(Value) + kScratchAlign : 0;
  }
  KOKKOS_FORCEINLINE_FUNCTION static Value* scratch(const Member& team, size_t values) {
    return static_cast<Value*>(team.team_scratch(0).get_shmem_aligned(values * sizeof(Value), kScratchAlign));
  }
  static constexpr bool kHasTuned = false;
  static constexpr bool kPacksRounds = false;  // each product stages its own operands
  static bool tuned(int /*B*/, int /*pivots*/) { return false; }

  /// Whether `block` suits this backend's path solve; `rule` says which do.
  static bool block_ok(int block, const char*& rule) {
    rule = kGpu ? "it must be a multiple of 16 up to 64" : "it must be a multiple of 8 up to 1024";
    return kGpu ? block > 0 && block % kSlice == 0 && block <= kMaxBlock
                : block > 0 && block % 8 == 0 && block <= kLargestHostBlock;
  }

  KOKKOS_FORCEINLINE_FUNCTION static Value relax(Value c, Value a_cleared, Value b) {
    const Value s = a_cleared + b;
    return s < c ? s : c;
  }

  /// c = min(c, a (x) bk) over the first `pivots` pivots (rounded up to a slice on a GPU: the
  /// padding past V is isolated and changes nothing). c may be the same tile as a or bk (phase
  /// 2): on the GPU every read comes before the first write; on the CPU a row may read entries
  /// already lowered in this product, which are keys of real paths, so the result is the same.
  template <bool kTuned = false>
  KOKKOS_FORCEINLINE_FUNCTION static void min_plus_product(const Member& team, Value* c, const Value* a,
                                                           const Value* bk, int64_t ld, int B, int pivots) {
    if constexpr (kGpu) {
      const int q = B / kTile, threads = q * q, me = team.team_rank();
      const int tx = me % q, ty = me / q;
      Value acc[kTile][kTile];
      APSP_UNROLL
      for (int i = 0; i < kTile; ++i) {
        APSP_UNROLL
        for (int j = 0; j < kTile; ++j) acc[i][j] = c[(ty + i * q) * ld + tx + j * q];
      }
      Value* sa = scratch(team, product_values(B));
      Value* sb = sa + B * kAPitch;
      for (int s = 0; s < pivots; s += kSlice) {
        if (s > 0) team.team_barrier();  // the last slice has been read by everyone
        for (int e = me; e < B * kSlice; e += threads) {
          const int r = e / kSlice, p = e % kSlice;  // A: B rows of kSlice
          sa[r * kAPitch + p] = a[r * ld + s + p] & kKeep;
          const int pr = e / B, col = e % B;  // Bk: kSlice rows of B
          sb[pr * B + col] = bk[(s + pr) * ld + col];
        }
        team.team_barrier();
        APSP_UNROLL
        for (int p = 0; p < kSlice; ++p) {
          Value av[kTile], bv[kTile];
          APSP_UNROLL
          for (int i = 0; i < kTile; ++i) av[i] = sa[(ty + i * q) * kAPitch + p];
          APSP_UNROLL
          for (int j = 0; j < kTile; ++j) bv[j] = sb[p * B + tx + j * q];
          APSP_UNROLL
          for (int i = 0; i < kTile; ++i) {
            APSP_UNROLL
            for (int j = 0; j < kTile; ++j) acc[i][j] = relax(acc[i][j], av[i], bv[j]);
          }
        }
      }
      APSP_UNROLL
      for (int i = 0; i < kTile; ++i) {
        APSP_UNROLL
        for (int j = 0; j < kTile; ++j) c[(ty + i * q) * ld + tx + j * q] = acc[i][j];
      }
    } else {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, B), [&](const int r) {
        Value* row = c + r * ld;
        for (int p = 0; p < pivots; ++p) {
          const Value ap = a[r * ld + p] & kKeep;
          const Value* brow = bk + p * ld;
          for (int j = 0; j < B; ++j) row[j] = relax(row[j], ap, brow[j]);
        }
      });
    }
  }

  /// Floyd-Warshall on one B x B tile over its first `pivots` pivots. Row p and column p do not
  /// change in step p (the diagonal is (0, 0, none)), so every thread may read them.
  KOKKOS_FORCEINLINE_FUNCTION static void close_tile(const Member& team, Value* t, int64_t ld, int B, int pivots) {
    if constexpr (kGpu) {
      const int q = B / kTile, me = team.team_rank(), tx = me % q, ty = me / q, pitch = B + 1;
      Value* s = scratch(team, closure_values(B));
      Value acc[kTile][kTile];
      APSP_UNROLL
      for (int i = 0; i < kTile; ++i) {
        APSP_UNROLL
        for (int j = 0; j < kTile; ++j) s[(ty + i * q) * pitch + tx + j * q] = t[(ty + i * q) * ld + tx + j * q];
      }
      team.team_barrier();
      APSP_UNROLL
      for (int i = 0; i < kTile; ++i) {
        APSP_UNROLL
        for (int j = 0; j < kTile; ++j) acc[i][j] = s[(ty + i * q) * pitch + tx + j * q];
      }
      for (int p = 0; p < pivots; ++p) {
        APSP_UNROLL
        for (int i = 0; i < kTile; ++i) {
          const Value ap = s[(ty + i * q) * pitch + p] & kKeep;
          APSP_UNROLL
          for (int j = 0; j < kTile; ++j) acc[i][j] = relax(acc[i][j], ap, s[p * pitch + tx + j * q]);
        }
        // Step p wrote its row and column unchanged, so one barrier (before step p + 1 reads
        // them) is enough.
        APSP_UNROLL
        for (int i = 0; i < kTile; ++i) {
          APSP_UNROLL
          for (int j = 0; j < kTile; ++j) s[(ty + i * q) * pitch + tx + j * q] = acc[i][j];
        }
        team.team_barrier();
      }
      APSP_UNROLL
      for (int i = 0; i < kTile; ++i) {
        APSP_UNROLL
        for (int j = 0; j < kTile; ++j) t[(ty + i * q) * ld + tx + j * q] = acc[i][j];
      }
    } else {
      for (int p = 0; p < pivots; ++p) {
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, B), [&](const int r) {
          Value* row = t + r * ld;
          const Value ap = row[p] & kKeep;
          const Value* prow = t + p * ld;
          for (int j = 0; j < B; ++j) row[j] = relax(row[j], ap, prow[j]);
        });
        team.team_barrier();
      }
    }
  }
};

// NOLINTEND(bugprone-implicit-widening-of-multiplication-result)

}  // namespace apsp::Impl
