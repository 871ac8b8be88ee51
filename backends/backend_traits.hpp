// SPDX-License-Identifier: BSD-3-Clause
// The one place where a backend may differ: tile shape, team shape and the min-plus
// primitive. The algorithm (include/apsp/blocked_fw_kernels.hpp) is written once against
// this interface.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace apsp {

/// Backend tuning knobs for the blocked Floyd-Warshall kernels.
///
/// - `default_block`: edge length B of a tile (the blocking factor); the matrix is padded
///   to a multiple of it. Overridable at run time (`--block-size`), as long as it stays a
///   multiple of `kTileRows` and `kTileCols`.
/// - `kTileRows` x `kTileCols`: the block of results one thread keeps in registers in
///   phase 3 (the "thread tile"). One thread covers rows [r0, r0+kTileRows) and columns
///   [c0, c0+kTileCols) of its tile, contiguous, so both operand loads are unit stride.
/// - `team_size(B)` x `vector_length(B)`: the team's threads and vector lanes (every phase
///   uses the same team shape). Tile rows go over threads, runs of a row over lanes.
/// - `kChunk`: tile rows are moved and updated in runs of kChunk contiguous int32, one
///   run per loop item, so the run vectorises on a CPU and coalesces on a GPU.
/// - `kScratchPad`: int32 added to each row of a staged tile (bank-conflict padding).
/// - `HostStagingSpace`: where the result lands on the host before it is written
///   (the matrix's own memory when the host can read it; pinned memory for a GPU).
/// - `visible_devices()`: accelerators a process may choose among (0 for the host).
/// - `min_plus(c, a, b)`: min(c, a + b), the relaxation; a backend may use a fused
///   instruction for it.
template <class ExecSpace>
struct BackendTraits;

namespace Impl {
KOKKOS_FORCEINLINE_FUNCTION int32_t portable_min_plus(int32_t c, int32_t a, int32_t b) {
  const int32_t s = a + b;
  return s < c ? s : c;
}
}  // namespace Impl

}  // namespace apsp

#include "host_backend.hpp"
#if defined(KOKKOS_ENABLE_CUDA)
#include "cuda_backend.hpp"
#endif
