// SPDX-License-Identifier: BSD-3-Clause
// CUDA backend. On sm_90 (Hopper) the relaxation is one fused add-min instruction
// (__viaddmin_s32 -> SASS VIADDMNMX); elsewhere the portable min.
#pragma once

namespace apsp {

template <>
struct BackendTraits<Kokkos::Cuda> {
  static constexpr int kTileRows = 8;
  static constexpr int kTileCols = 8;
  static constexpr int default_block = 128;
  static constexpr int kChunk = 4;
  static constexpr int kScratchPad = 4;
  using HostStagingSpace = Kokkos::CudaHostPinnedSpace;
  // One thread per 8 x 8 thread tile (256 threads for B = 128), as team_size x 32 lanes:
  // the lanes of a warp take consecutive runs of a tile row, so tile copies coalesce.
  static constexpr int kVectorLength = 32;
  static int team_size(int block) {
    const int tiles = (block / kTileRows) * (block / kTileCols);
    return tiles > kVectorLength ? tiles / kVectorLength : 1;
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
