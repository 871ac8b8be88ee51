// SPDX-License-Identifier: BSD-3-Clause
// CPU backends (Serial, OpenMP), kernel tuning: one thread per team computes its whole tile with
// the register-blocked micro-kernel of host_microkernel.hpp (the product: solver/host/tiles.hpp).
// The block of C a micro-kernel keeps in registers, MR rows x NV registers, per register file:
//   AVX-512 (32 zmm)      8 x 2: 16 accumulators, 2 operand registers, broadcasts folded into
//                         the adds ({1to16}) or one register
//   AVX2 (16 ymm)         6 x 2: 12 accumulators, 2 operand registers, 1 broadcast, 1 sum (all
//                         16; the shape of the classic AVX2 GEMM micro-kernels). Against 4 x 2
//                         on a Zen 3 core the solve ran 1.2-1.4x faster: each pivot's B panel
//                         row, streamed from L2 when a tile's panels outgrow L1, serves 6 rows
//                         instead of 4 (docs/results.md).
//   SSE (16 xmm)          4 x 2:  8 accumulators (6 x 2 measured no faster there)
//   NEON (32 regs)        8 x 2: 16 accumulators, 2 operand registers, broadcasts (ld1r)
// (scripts/cpu_ceiling.sh measures these shapes' loops against the register ceiling.)
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "apsp/backends/backend_traits.hpp"  // the template specialised here
#include "apsp/backends/host_simd.hpp"

// 16-bit lanes in the host product where a block of C allows it (solver/host/tiles.hpp);
// -DAPSP_HOST_LANES16=0 keeps every block in int32 lanes (for comparison).
#ifndef APSP_HOST_LANES16
#define APSP_HOST_LANES16 1
#endif

namespace apsp {

// The block of C per ISA (above); -DAPSP_HOST_TILE_ROWS=.. -DAPSP_HOST_TILE_REGS=.. try others.
#ifndef APSP_HOST_TILE_ROWS
#if defined(APSP_SIMD_AVX512) || defined(APSP_SIMD_NEON)
#define APSP_HOST_TILE_ROWS 8
#elif defined(APSP_SIMD_AVX2)
#define APSP_HOST_TILE_ROWS 6
#else
#define APSP_HOST_TILE_ROWS 4
#endif
#endif
#ifndef APSP_HOST_TILE_REGS
#define APSP_HOST_TILE_REGS 2
#endif

template <class ExecSpace>
struct HostBackendTraits {
  static constexpr int kTileRows = APSP_HOST_TILE_ROWS;
  static constexpr int kTileRegs = APSP_HOST_TILE_REGS;
  /// Whether blocks of C whose entries fit take uint16 lanes (where the ISA has them).
  static constexpr bool kHostLanes16 = host_simd::kHas16 && APSP_HOST_LANES16 != 0;
  /// Columns of a block of C (a 16-bit block's, two int32 blocks side by side).
  static constexpr int kTileCols = 2 * kTileRegs * host_simd::kInts;
  /// B: any multiple of 16 (the product runs blocks at C's edges on a padded copy).
  static constexpr int kBlockMultiple = 16;
  static constexpr int kRowRun = kTileRows;
  static constexpr int kColRun = kTileCols;
  static constexpr bool kRegisterTiles = false;
  /// Measured per ISA (docs/results.md): B = 256 with AVX-512 (an Emerald Rapids core, 2 MiB of
  /// L2: 10 % faster than 128 on one thread), 192 elsewhere (a Zen 3 core, 512 KiB of L2: 192
  /// and 224 ahead of 128 and 256). Each round reads and writes the matrix once: 8 / B bytes a
  /// relaxation.
#if defined(APSP_SIMD_AVX512)
  static constexpr int default_block = 256;
#else
  static constexpr int default_block = 192;
#endif
  static constexpr int kMinBlock = 0;
  static constexpr int kMaxSlice = 0;  // no cap
  static constexpr int kMaxBlock = 0;  // no fixed cap: staged operands have a pitch of B
  // The largest B taken: the packed operands of a 1024^2 tile are 14 MiB of scratch per thread;
  // beyond that a block is padding and cache misses (B = 65536 for V = 130 would pad to 17 GB).
  static constexpr int kLargestBlock = 1024;
  static constexpr int kPivotRun = 1;
  static constexpr int kPairedEntries = 0;
  static constexpr int kChunk = 16;
  static constexpr int kScratchPad = 0;
  static constexpr int kMaxTeamThreads = 1;
  using LaunchBounds = Kokkos::LaunchBounds<>;
  /// Tiles handed out one at a time, to whichever thread is free: a round waits for its last
  /// tile, and on a shared or hybrid CPU some threads run slower than others (on the GPU hosts'
  /// 16-vCPU Xeon, 16-thread solves of one binary took 0.39 to 0.68 s with the tiles split
  /// evenly in advance).
  using Schedule = Kokkos::Schedule<Kokkos::Dynamic>;
  KOKKOS_INLINE_FUNCTION static constexpr int slice_depth(int block) { return block; }
  static int vector_length(int /*block*/) { return 1; }
  static int team_size(int /*block*/) { return 1; }
};

#if defined(KOKKOS_ENABLE_SERIAL)
template <>
struct BackendTraits<Kokkos::Serial> : HostBackendTraits<Kokkos::Serial> {};
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
template <>
struct BackendTraits<Kokkos::OpenMP> : HostBackendTraits<Kokkos::OpenMP> {};
#endif

}  // namespace apsp
