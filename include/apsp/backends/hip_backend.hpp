// SPDX-License-Identifier: BSD-3-Clause
// HIP backend (AMD Instinct: CDNA, gfx908 / gfx90a), kernel tuning. Compiled and inspected, never
// run: no AMD GPU was at hand (README, docs/results-log.md).
//
// What differs from the CUDA backend and why:
// - A wavefront is 64 lanes; a compute unit (CU) has four SIMDs, 64 KiB of LDS (team scratch)
//   and, per SIMD lane, 256 VGPRs (gfx908; gfx90a: 512 shared with the AGPRs). A team of 256
//   threads (B = 128, an 8 x 8 thread tile each) is four wavefronts, one per SIMD.
// - One team per CU, with up to 256 VGPRs a thread: a thread's 64 results and a slice's
//   operands (8 pivots: 64 values of A and 64 of Bk, which the compiler loads all at once) need
//   about 200. Compiled for two teams per CU (128 VGPRs), the phase kernels spilled 128 values
//   to AGPRs and 15 to 30 more to scratch (scripts/show_hip_kernel.sh, docs/results-log.md).
// - Slices of 8 pivots: 2 x (128 x 12 + 8 x 132) int32 = 20 KiB of LDS (16 pivots would double
//   the operand registers). No asynchronous copy from global memory to LDS that this compiler
//   exposes (CDNA's LDS-direct buffer loads are 4 bytes a lane and not reachable from HIP C++):
//   the tuned product stages through registers, the next slice's loads in flight while the
//   current one is relaxed (kAsyncCopies = false, gpu/register_tiles.hpp).
// - No fused add-min: a relaxation is v_add_u32 + v_min_i32, but CDNA has a three-input min
//   (v_min3_i32), so two pivots at once, min(c, a0 + b0, a1 + b1), take two adds and one min3:
//   1.5 instructions per relaxation instead of 2. Every entry of the tuned kernel takes that
//   form (kPairedEntries = 64); the compiler forms v_min3_i32 from two nested mins of sums
//   (scripts/show_hip_kernel.sh counts them).
// The traits compile for the host too (every device instruction is guarded), so the host tests
// run this tile shape through the same templates (tests/test_register_tiles.cpp).
#pragma once

#include <cstdint>

#include "apsp/backends/backend_traits.hpp"  // the template specialised here

#include "apsp/backends/register_tile_team.hpp"

#ifndef APSP_HIP_TILE_ROWS
#define APSP_HIP_TILE_ROWS 8
#endif
#ifndef APSP_HIP_TILE_COLS
#define APSP_HIP_TILE_COLS 8
#endif
#ifndef APSP_HIP_BLOCK
#define APSP_HIP_BLOCK 128
#endif
#ifndef APSP_HIP_SLICE
#define APSP_HIP_SLICE 8
#endif

namespace apsp {

// NOLINTBEGIN(bugprone-implicit-widening-of-multiplication-result): run offsets are a few int32
struct HipBackendTraits : RegisterTileTeam<APSP_HIP_TILE_ROWS, APSP_HIP_TILE_COLS, APSP_HIP_SLICE> {
  static constexpr int default_block = APSP_HIP_BLOCK;
  // Every entry relaxed two pivots at a time with min_plus_pair (v_add_u32 x 2 + v_min3_i32).
  static constexpr int kPairedEntries = kTileRows * kTileCols;
  static constexpr bool kAsyncCopies = false;  // staged through registers (see above)
  // Teams of up to 256 threads, one per CU: a thread may use every VGPR of its SIMD lane.
  static constexpr int kMinTeams = 1;
  using LaunchBounds = Kokkos::LaunchBounds<kMaxTeamThreads, kMinTeams>;
  using Schedule = Kokkos::Schedule<Kokkos::Static>;  ///< the hardware schedules the teams

  /// dst[0, N) = src[0, N) with the widest aligned accesses (global_load_dwordx4 /
  /// ds_read_b128 for runs of 4k int32, ds_read_b64 for 2): the vector types say the alignment
  /// that the compiler cannot always prove. (GCC vector types: the host tests compile this too.)
  template <int N>
  KOKKOS_FORCEINLINE_FUNCTION static void copy_run(int32_t* dst, const int32_t* src) {
#if !defined(__CUDACC__)  // nvcc (the host tests of a CUDA build) takes no vector types in device code
    if constexpr (N % 4 == 0) {
      using V4 = int32_t __attribute__((vector_size(16)));
      APSP_UNROLL
      for (int q = 0; q < N / 4; ++q) {
        const V4 v = reinterpret_cast<const V4*>(src)[q];
        dst[4 * q] = v[0], dst[4 * q + 1] = v[1], dst[4 * q + 2] = v[2], dst[4 * q + 3] = v[3];
      }
      return;
    } else if constexpr (N == 2) {
      using V2 = int32_t __attribute__((vector_size(8)));
      const V2 v = *reinterpret_cast<const V2*>(src);
      dst[0] = v[0], dst[1] = v[1];
      return;
    }
#endif
    for (int j = 0; j < N; ++j) dst[j] = src[j];
  }
  /// The same, to memory (ds_write_b128, global_store_dwordx4).
  template <int N>
  KOKKOS_FORCEINLINE_FUNCTION static void store_run(int32_t* dst, const int32_t* src) {
    static_assert(N % 4 == 0, "runs of whole 16-byte words");
#if !defined(__CUDACC__)
    using V4 = int32_t __attribute__((vector_size(16)));
    APSP_UNROLL
    for (int q = 0; q < N / 4; ++q)
      reinterpret_cast<V4*>(dst)[q] = V4{src[4 * q], src[4 * q + 1], src[4 * q + 2], src[4 * q + 3]};
#else
    for (int j = 0; j < N; ++j) dst[j] = src[j];
#endif
  }
  /// No asynchronous copy (see the file comment): a plain copy, for the first slice and the
  /// general shapes.
  template <int N>
  KOKKOS_FORCEINLINE_FUNCTION static void copy_async(int32_t* dst, const int32_t* src) {
    static_assert(N == 4, "16-byte copies");
    copy_run<N>(dst, src);
  }
  KOKKOS_FORCEINLINE_FUNCTION static void async_commit() {}
  template <int K>
  KOKKOS_FORCEINLINE_FUNCTION static void async_wait() {}
  /// `v` is computed where this is called (an empty asm that reads it): the compiler may not
  /// sink its computation past the barrier that follows (gpu/register_tiles.hpp).
  KOKKOS_FORCEINLINE_FUNCTION static void settle(int32_t v) {
#if defined(__HIP_DEVICE_COMPILE__)
    asm volatile("" ::"v"(v));
#else
    (void)v;
#endif
  }
  /// A CDNA SIMD has 256 to 512 VGPRs per lane: nothing to hide from the optimiser.
  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION static T recompute_later(T v) {
    return v;
  }
  KOKKOS_FORCEINLINE_FUNCTION static int32_t min_plus(int32_t c, int32_t a, int32_t b) {
    return Impl::portable_min_plus(c, a, b);
  }
  /// 1, and known to be: the pair form needs no hidden multiplier here (CUDA's keeps ptxas from
  /// fusing its adds into add-mins; there is no add-min to fuse into on CDNA).
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int32_t unit() { return 1; }
  KOKKOS_FORCEINLINE_FUNCTION static void check_unit() {}
  /// min(c, a0 + b0, a1 + b1): two v_add_u32 and one v_min3_i32 (the compiler's combine of
  /// two nested mins). Exact while INF + INF fits in int32 (apsp::kInf).
  KOKKOS_FORCEINLINE_FUNCTION static int32_t min_plus_pair(int32_t c, int32_t a0, int32_t b0, int32_t a1, int32_t b1,
                                                           int32_t one) {
    return Impl::portable_min_plus(Impl::portable_min_plus(c, a0 * one, b0), a1 * one, b1);
  }
  template <int N>
  KOKKOS_FORCEINLINE_FUNCTION static void min_plus_run(int32_t* c, int32_t a, const int32_t* b) {
    for (int j = 0; j < N; ++j) c[j] = min_plus(c[j], a, b[j]);
  }
};
// NOLINTEND(bugprone-implicit-widening-of-multiplication-result)

#if defined(KOKKOS_ENABLE_HIP)
template <>
struct BackendTraits<hip::Space> : HipBackendTraits {};
#endif

}  // namespace apsp
