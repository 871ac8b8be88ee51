// SPDX-License-Identifier: BSD-3-Clause
// CUDA backend. On sm_90 (Hopper) the relaxation is one fused add-min instruction
// (__viaddmin_s32 -> SASS VIADDMNMX); elsewhere the portable min.
#pragma once

#include <string>

namespace apsp {

// Thread-tile shape: 8 x 4 measured fastest at B = 64 (docs/results.md: 8 x 8 holds 120
// registers and leaves 3 warps per scheduler; 8 x 4, 91 registers and 5). Overridable at
// build time (-DAPSP_CUDA_TILE_ROWS=... -DAPSP_CUDA_TILE_COLS=...) for studies.
#ifndef APSP_CUDA_TILE_ROWS
#define APSP_CUDA_TILE_ROWS 8
#endif
#ifndef APSP_CUDA_TILE_COLS
#define APSP_CUDA_TILE_COLS 4
#endif

template <>
struct BackendTraits<Kokkos::Cuda> {
  static constexpr int kTileRows = APSP_CUDA_TILE_ROWS;
  static constexpr int kTileCols = APSP_CUDA_TILE_COLS;
  // B = 64: Kokkos (4.6 and older) gives a team at most the 48 KiB of static shared memory
  // per block, not the 227 KiB a Hopper block may opt in to, and phases 2 and 3 stage two
  // B x (B + 4) int32 tiles: 34 KiB at B = 64, 135 KiB at B = 128.
  static constexpr int default_block = 64;
  static constexpr int kChunk = 4;       // one 16-byte access per lane
  static constexpr int kScratchPad = 4;  // keeps rows 16-byte aligned, shifts banks by 4
  using HostStagingSpace = Kokkos::CudaHostPinnedSpace;
  // A team is team_size x vector_length threads: the lanes of a warp take consecutive runs of
  // a tile row (coalesced copies); one thread per thread tile in phase 3.
  static int vector_length(int block) {
    int v = 1;
    while (v < 32 && 2 * v <= block / kChunk) v *= 2;
    return v;
  }
  static int team_size(int block) {
    const int tiles = (block / kTileRows) * (block / kTileCols);
    return tiles > vector_length(block) ? tiles / vector_length(block) : 1;
  }
  static std::string device_name() {
    int id = 0;
    cudaDeviceProp prop{};
    if (cudaGetDevice(&id) != cudaSuccess || cudaGetDeviceProperties(&prop, id) != cudaSuccess) return "CUDA device";
    return std::string(prop.name) + " (device " + std::to_string(id) + ")";
  }
  /// GPUs this process can see (callable before Kokkos is initialised: ranks pick theirs).
  static int visible_devices() {
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
  }
  static int64_t device_memory_available() {
    size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) return INT64_MAX;
    return static_cast<int64_t>(free_bytes);
  }
  KOKKOS_FORCEINLINE_FUNCTION static int32_t min_plus(int32_t c, int32_t a, int32_t b) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
    return __viaddmin_s32(a, b, c);
#else
    return Impl::portable_min_plus(c, a, b);
#endif
  }
};

}  // namespace apsp
