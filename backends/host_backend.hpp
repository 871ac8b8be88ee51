// SPDX-License-Identifier: BSD-3-Clause
// CPU backends (Serial, OpenMP), kernel tuning: one thread per team walks every thread tile of its tile.
// A thread tile row is 16 int32: one AVX-512 vector or two AVX2 ones (vpaddd + vpminsd each).
// With AVX2 a 4 x 16 tile is 8 of the 16 ymm registers in accumulators, leaving room for the
// operands and broadcasts; with AVX-512 an 8 x 16 tile is 8 of the 32 zmm registers (measured
// 1.23x faster than 4 x 16 there: more independent chains). With B = 64 the two staged
// operand tiles take 32 KiB, small enough to stay in the core's private caches.
#pragma once

namespace apsp {

template <class ExecSpace>
struct HostBackendTraits {
  /// int32 per vector register of the build's target: what min_plus_run works in.
#if defined(__AVX512F__)
  static constexpr int kVectorInts = 16;
#elif defined(__AVX2__) || !defined(__x86_64__)
  static constexpr int kVectorInts = 8;
#else
  // Plain x86-64 (SSE2, the portable build): one XMM register. A 32-byte vector type there was
  // split into scalar code (the V = 4000 OpenMP solve took 19 s instead of 0.5 s).
  static constexpr int kVectorInts = 4;
#endif
  static constexpr int kTileRows = kVectorInts == 16 ? 8 : 4;
  static constexpr int kTileCols = 16;
  static constexpr int kRowRun = kTileRows;  // one contiguous block
  static constexpr int kColRun = kTileCols;
  static constexpr bool kRegisterTiles = false;
  static constexpr int default_block = 64;
  static constexpr int kMinBlock = 0;
  static constexpr int kMaxSlice = 0;  // no cap
  static constexpr int kMaxBlock = 0;  // no fixed cap: staged tiles have a pitch of B
  // The largest B taken: two staged 1024^2 tiles are 8 MiB of scratch per thread; beyond that
  // a block is padding and cache misses (B = 65536 for V = 130 would pad to 17 GB).
  static constexpr int kLargestBlock = 1024;
  static constexpr int kPivotRun = 1;
  static constexpr int kPairedEntries = 0;  // no pair form: one vpaddd + vpminsd per relaxation
  static constexpr int kChunk = 16;
  static constexpr int kScratchPad = 0;
  static constexpr int kMaxTeamThreads = 1;
  using LaunchBounds = Kokkos::LaunchBounds<>;
  KOKKOS_INLINE_FUNCTION static constexpr int slice_depth(int block) { return block; }
  static int vector_length(int /*block*/) { return 1; }
  static int team_size(int /*block*/) { return 1; }
  /// dst[0, N) = src[0, N) for 16-byte aligned runs: a plain loop, which GCC vectorises once
  /// it knows the alignment (without it, its SLP vectoriser shuffles with vpermd).
  template <int N>
  KOKKOS_FORCEINLINE_FUNCTION static void copy_run(int32_t* dst, const int32_t* src) {
    const auto* s = static_cast<const int32_t*>(__builtin_assume_aligned(src, 16));
    APSP_UNROLL
    for (int j = 0; j < N; ++j) dst[j] = s[j];
  }
  template <int N>
  KOKKOS_FORCEINLINE_FUNCTION static void store_run(int32_t* dst, const int32_t* src) {
    auto* d = static_cast<int32_t*>(__builtin_assume_aligned(dst, 16));
    APSP_UNROLL
    for (int j = 0; j < N; ++j) d[j] = src[j];
  }
  /// Staging is synchronous on the CPU.
  template <int N>
  KOKKOS_FORCEINLINE_FUNCTION static void copy_async(int32_t* dst, const int32_t* src) {
    copy_run<N>(dst, src);
  }
  static void async_commit() {}
  template <int K>
  static void async_wait() {}
  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION static T recompute_later(T v) {
    return v;
  }
  KOKKOS_FORCEINLINE_FUNCTION static int32_t min_plus(int32_t c, int32_t a, int32_t b) {
    return Impl::portable_min_plus(c, a, b);
  }
  /// c[j] = min(c[j], a + b[j]) for j < N, written with GCC's vector types of kVectorInts int32:
  /// one AVX-512 register where the build targets AVX-512 (measured twice as fast as AVX2 on a Zen
  /// 5 core), else one AVX2 register (two SSE ones). x86 has no fused add-min and no three-input
  /// integer min: one vpaddd and one vpminsd per vector is the least there is, so the width is what
  /// is left to gain. Left to GCC's SLP vectoriser, the same element loop was vectorised or not
  /// depending on the code around it: a change to the staging loop turned a quarter of phase 3's
  /// accumulators into scalar cmov chains (phase 3 20 % slower).
  template <int N>
  KOKKOS_FORCEINLINE_FUNCTION static void min_plus_run(int32_t* c, int32_t a, const int32_t* b) {
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDA_ARCH__)
    constexpr int W = kVectorInts;
    if constexpr (N % W == 0) {
      using V = int32_t __attribute__((vector_size(4 * W)));
      APSP_UNROLL
      for (int m = 0; m < N; m += W) {
        V cv, bv;
        __builtin_memcpy(&cv, c + m, sizeof(V));
        __builtin_memcpy(&bv, b + m, sizeof(V));
        const V s = bv + a;
        cv = s < cv ? s : cv;
        __builtin_memcpy(c + m, &cv, sizeof(V));
      }
      return;
    }
#endif
    APSP_UNROLL
    for (int j = 0; j < N; ++j) c[j] = min_plus(c[j], a, b[j]);
  }
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
