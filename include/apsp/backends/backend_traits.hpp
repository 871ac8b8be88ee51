// SPDX-License-Identifier: BSD-3-Clause
// A backend's kernel tuning: tile shape, team shape and the min-plus primitive. The
// algorithm (include/apsp/solver/) is written once against this interface; the backend's
// runtime services (devices, pinned memory, queues) are in backend_runtime.hpp, and the list
// of enabled backends in enabled_backends.hpp.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#if defined(KOKKOS_ENABLE_HIP)
#include "apsp/backends/hip_space.hpp"
#endif

// Full unrolling of the short fixed loops over a thread tile or a run.
#if defined(__CUDA_ARCH__) || defined(__clang__) || defined(__NVCC__)
#define APSP_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define APSP_UNROLL _Pragma("GCC unroll 64")
#else
#define APSP_UNROLL
#endif

// A function compiled on its own, not into its caller: on a GPU, registers allocated for it
// alone (solver/gpu/packed_tiles.hpp).
#if defined(__NVCC__) || defined(__HIPCC__)
#define APSP_NOINLINE __noinline__
#elif defined(__GNUC__)
#define APSP_NOINLINE __attribute__((noinline))
#else
#define APSP_NOINLINE
#endif

namespace apsp {

/// Backend tuning knobs for the blocked Floyd-Warshall kernels.
///
/// - `default_block`: edge length B of a tile (the blocking factor); the matrix is padded
///   to a multiple of it. Overridable at run time (`--block-size`), as long as it stays a
///   multiple of `kBlockMultiple` (whole thread tiles and staging runs).
/// - `kMinBlock`, `kMaxBlock`, `kMaxSlice`: the smallest B, and the largest B and slice depth
///   that staged slices are laid out for (0: any, with pitches worked out at run time; with
///   limits the staged slices have fixed pitches); `kLargestBlock`: the largest B taken.
/// - `kTileRows` x `kTileCols`: the block of results one thread keeps in registers while
///   pivots stream through (the "thread tile"), made of runs of `kRowRun` consecutive rows
///   and `kColRun` consecutive columns (see include/apsp/solver/gpu/thread_tile.hpp).
/// - `kRegisterTiles`: true when a team has one thread per thread tile and each thread keeps
///   its tile in registers across every pivot of a round (GPU); false when one thread walks all
///   the thread tiles of a tile (CPU).
/// - `slice_depth(B)`: pivots whose operands are staged in team scratch at a time (B on the
///   CPU: the whole tiles; a slice of them on a GPU, whose shared memory is small), a
///   multiple of `kPivotRun`, the pivots read from each row of the A operand at a time.
/// - `team_size(B)` x `vector_length(B)`: the team's threads and vector lanes.
/// - `LaunchBounds`, `kMaxTeamThreads`: the team size bound the kernels are compiled for (on a
///   GPU it caps the registers per thread so that enough teams share a multiprocessor).
/// - `Schedule`: how a kernel's teams are handed to threads (Kokkos::Schedule; the CPU's
///   are handed out one at a time).
/// - `kChunk`: operands are staged in runs of kChunk contiguous int32, one run per loop item,
///   so the run vectorises on a CPU and is one 16-byte access on a GPU.
/// - `copy_run<N>`, `store_run<N>`: copy N contiguous int32 (16-byte aligned where N is a
///   multiple of 4) with wide accesses; `copy_async<N>` + `async_commit` + `async_wait<K>`:
///   stage into team scratch asynchronously (a plain copy on the CPU); `recompute_later(v)`:
///   v, with what derives from it computed where used (register pressure on a GPU).
/// - register tiles only: `kAsyncCopies`, whether copy_async copies without the thread waiting
///   (CUDA's LDGSTS); if not, the tuned product stages through registers instead
///   (gpu/register_tiles.hpp), and `settle(v)` keeps the computation of v where it is written
///   (before the barrier that ends a slice).
/// - `kScratchPad`: int32 added to each row of a staged tile (bank-conflict padding).
/// - `min_plus(c, a, b)`: min(c, a + b), the relaxation; a backend may use a fused
///   instruction for it. `min_plus_run<N>(c, a, b)`: c[j] = min_plus(c[j], a, b[j]) for
///   j < N, a thread-tile row against one pivot (a CPU backend writes it with vectors).
/// - `kPairedEntries`: of a thread tile's entries, how many are relaxed against two pivots
///   at once by `min_plus_pair(c, a0, b0, a1, b1, unit())` = min(c, a0 + b0, a1 + b1) (a
///   three-input min and two adds that run on another pipe than the fused add-min); 0: none.
/// - `kPackedTiles`: whether the tuned product runs in 16-bit lanes where a tile's entries allow
///   it (include/apsp/solver/gpu/packed_tiles.hpp); then `packed_min_plus(c, a, b)` relaxes the two
///   halves of a word at once, `team_all(team, v)` is a barrier that returns whether v holds
///   on every thread of the team, `pack_capped(lo, hi)` puts two values capped at 2^15 - 1
///   in one word and `max3(a, b, c)` is the largest of three (register_tile_team.hpp has the
///   portable forms).
template <class ExecSpace>
struct BackendTraits;

namespace Impl {
KOKKOS_FORCEINLINE_FUNCTION int32_t portable_min_plus(int32_t c, int32_t a, int32_t b) {
  const int32_t s = a + b;
  return s < c ? s : c;
}
/// Per 16-bit half of the words: min(c, a + b), the sum modulo 2^16 (as the packed instruction).
KOKKOS_FORCEINLINE_FUNCTION int32_t portable_packed_min_plus(int32_t c, int32_t a, int32_t b) {
  uint32_t r = 0;
  for (int h = 0; h < 32; h += 16) {
    const uint32_t s = ((uint32_t(a) >> h) + (uint32_t(b) >> h)) & 0xffffu, old = (uint32_t(c) >> h) & 0xffffu;
    r |= (s < old ? s : old) << h;
  }
  return int32_t(r);
}
}  // namespace Impl

}  // namespace apsp

#include "apsp/backends/hip_backend.hpp"  // the traits compile everywhere (host tests use the tile shape)
#include "apsp/backends/host_backend.hpp"
#if defined(KOKKOS_ENABLE_CUDA)
#include "apsp/backends/cuda_backend.hpp"
#endif
