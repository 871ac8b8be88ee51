// SPDX-License-Identifier: BSD-3-Clause
// The team shape both GPU backends give the phase kernels (backend_traits.hpp names each
// member): one thread per thread tile of kTileRows x kTileCols results kept in registers, the
// operands staged in team scratch in 16-byte runs, B at most 128. What differs between CUDA and
// HIP (the block, the slice depth, the pair form's share, asynchronous copies, teams per
// multiprocessor) stays in cuda_backend.hpp and hip_backend.hpp.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace apsp {

template <int TileRows, int TileCols, int MaxSlice>
struct RegisterTileTeam {
  static constexpr int kTileRows = TileRows;
  static constexpr int kTileCols = TileCols;
  static constexpr int kRowRun = 4;  // 16-byte runs: one LDS.128 / ds_read_b128 each
  static constexpr int kColRun = 4;
  static constexpr bool kRegisterTiles = true;
  static constexpr int kMinBlock = 16;       // a team (B^2 / 64 threads) covers a row of B / 4 runs
  static constexpr int kBlockMultiple = 16;  // B: a power of two from 16, so whole thread tiles
  static constexpr int kMaxSlice = MaxSlice;
  static constexpr int kMaxBlock = 128;  // staged slices have a fixed pitch of 128 + kScratchPad
  static constexpr int kLargestBlock = kMaxBlock;
  static constexpr int kPivotRun = 2;    // pivots read at once from each A row: one 8-byte load
  static constexpr int kChunk = 4;       // one 16-byte access per thread
  static constexpr int kScratchPad = 4;  // keeps rows 16-byte aligned, shifts banks by 4
  // The tuned product in 16-bit lanes where a tile allows it (solver/gpu/packed_tiles.hpp): only
  // where a packed add-min is one instruction.
  static constexpr bool kPackedTiles = false;
  // The largest team: a B = 128 tile.
  static constexpr int kMaxTeamThreads = (128 / kTileRows) * (128 / kTileCols);
  KOKKOS_INLINE_FUNCTION static constexpr int slice_depth(int block) { return block < kMaxSlice ? block : kMaxSlice; }
  /// (kPackedTiles) min(lo, 2^15 - 1) and min(hi, 2^15 - 1) in one word, lo in the low half, for
  /// lo, hi >= 0 (solver/gpu/packed_tiles.hpp); a backend may have one instruction for it.
  KOKKOS_INLINE_FUNCTION static int32_t pack_capped(int32_t lo, int32_t hi) {
    const uint32_t cap = 0x7fff, l = uint32_t(lo) < cap ? uint32_t(lo) : cap,
                   h = uint32_t(hi) < cap ? uint32_t(hi) : cap;
    return int32_t(l | h << 16);
  }
  /// (kPackedTiles) max(a, b, c): a backend may have one instruction for it.
  KOKKOS_INLINE_FUNCTION static int32_t max3(int32_t a, int32_t b, int32_t c) {
    const int32_t ab = a > b ? a : b;
    return ab > c ? ab : c;
  }
  // One thread per thread tile; Kokkos puts team threads on threadIdx.y, so with one vector
  // lane consecutive lanes of a warp (wavefront) are consecutive team ranks.
  static int vector_length(int /*block*/) { return 1; }
  static int team_size(int block) { return (block / kTileRows) * (block / kTileCols); }
};

}  // namespace apsp
