// SPDX-License-Identifier: BSD-3-Clause
// CUDA backend, kernel tuning. On sm_90 (Hopper) a relaxation is one fused add-min instruction
// (__viaddmin_s32 -> SASS VIADDMNMX) on the integer ALU pipe, or half of a pair: two adds as
// IMAD on the FMA pipe and one three-input min (VIMNMX3) on the ALU pipe for two pivots. Phase 2
// and 3 mix the two so that both pipes work; elsewhere the portable min.
#pragma once

#include <cuda_pipeline.h>

#include "apsp/backends/backend_traits.hpp"  // the template specialised here

#include "apsp/backends/cuda_min_plus_pair.hpp"
#include "apsp/backends/register_tile_team.hpp"

namespace apsp {

// Thread tile 8 x 8 (two runs of 4 rows by two runs of 4 columns, B/2 apart) and B = 128:
// a team of 256 threads, each keeping 64 results in registers for a whole round, staging the
// operands 16 pivots at a time in two alternating buffers (37 KiB of shared memory, under the
// 40 KiB of team scratch Kokkos 4.6 grants). docs/results-log.md has the block-size study. Overridable
// at build time (-DAPSP_CUDA_TILE_ROWS=... -DAPSP_CUDA_TILE_COLS=... -DAPSP_CUDA_BLOCK=...).
#ifndef APSP_CUDA_TILE_ROWS
#define APSP_CUDA_TILE_ROWS 8
#endif
#ifndef APSP_CUDA_TILE_COLS
#define APSP_CUDA_TILE_COLS 8
#endif
#ifndef APSP_CUDA_BLOCK
#define APSP_CUDA_BLOCK 128
#endif
// Of a thread tile's 64 entries, how many take the pair form for each two pivots (the rest:
// two fused add-mins). scripts/minplus_mix.sh measures every mix; docs/results-log.md has the
// figures behind this choice.
#ifndef APSP_CUDA_PAIRED_ENTRIES
#define APSP_CUDA_PAIRED_ENTRIES 40
#endif

// The tuned product in 16-bit lanes wherever a tile's entries allow it (gpu/packed_tiles.hpp): on
// by default where the build targets an architecture with a one-instruction packed add-min
// (VIADDMNMX.U16x2: Hopper and Blackwell); -DAPSP_CUDA_PACKED=0 turns it off.
#ifndef APSP_CUDA_PACKED
#if defined(KOKKOS_ARCH_HOPPER90) || defined(KOKKOS_ARCH_BLACKWELL100) || defined(KOKKOS_ARCH_BLACKWELL120)
#define APSP_CUDA_PACKED 1
#else
#define APSP_CUDA_PACKED 0
#endif
#endif

// Pivots staged per slice: 16 (or B when smaller). Two slices of A's columns and Bk's rows take
// 2 x (128 x 20 + 16 x 132) int32 = 37 KiB at B = 128.
template <>
struct BackendTraits<Kokkos::Cuda> : RegisterTileTeam<APSP_CUDA_TILE_ROWS, APSP_CUDA_TILE_COLS, 16> {
  static constexpr int default_block = APSP_CUDA_BLOCK;
  // entries of a thread tile relaxed against two pivots at once with min_plus_pair
  static constexpr int kPairedEntries = APSP_CUDA_PAIRED_ENTRIES;
  static constexpr bool kAsyncCopies = true;  // LDGSTS (copy_async)
  static constexpr bool kPackedTiles = APSP_CUDA_PACKED != 0;
  // Compiled for teams of up to kMaxTeamThreads (a B = 128 tile) and kMinTeams of them per
  // multiprocessor: 65536 registers / (2 x 256 threads) = at most 128 registers per thread.
  static constexpr int kMinTeams = kMaxTeamThreads >= 512 ? 1 : 512 / kMaxTeamThreads;
  using LaunchBounds = Kokkos::LaunchBounds<kMaxTeamThreads, kMinTeams>;
  using Schedule = Kokkos::Schedule<Kokkos::Static>;  ///< the hardware schedules the teams
  /// dst[0, N) = src[0, N) with the widest aligned accesses (LDS.128 / LDG.E.128 for runs of
  /// 4k int32, LDS.64 for 2): the compiler does not always prove the alignment by itself.
  template <int N>
  KOKKOS_FORCEINLINE_FUNCTION static void copy_run(int32_t* dst, const int32_t* src) {
#if defined(__CUDA_ARCH__)
    if constexpr (N % 4 == 0) {
      APSP_UNROLL
      for (int q = 0; q < N / 4; ++q) {
        const int4 v = reinterpret_cast<const int4*>(src)[q];
        dst[4 * q] = v.x, dst[4 * q + 1] = v.y, dst[4 * q + 2] = v.z, dst[4 * q + 3] = v.w;
      }
    } else if constexpr (N == 2) {
      const int2 v = *reinterpret_cast<const int2*>(src);
      dst[0] = v.x, dst[1] = v.y;
    } else {
      for (int j = 0; j < N; ++j) dst[j] = src[j];
    }
#else
    for (int j = 0; j < N; ++j) dst[j] = src[j];
#endif
  }
  /// The same, to memory (STS.128, STG.E.128).
  template <int N>
  KOKKOS_FORCEINLINE_FUNCTION static void store_run(int32_t* dst, const int32_t* src) {
#if defined(__CUDA_ARCH__)
    static_assert(N % 4 == 0, "runs of whole 16-byte words");
    APSP_UNROLL
    for (int q = 0; q < N / 4; ++q)
      reinterpret_cast<int4*>(dst)[q] = make_int4(src[4 * q], src[4 * q + 1], src[4 * q + 2], src[4 * q + 3]);
#else
    for (int j = 0; j < N; ++j) dst[j] = src[j];
#endif
  }
  /// Global memory to shared memory without passing through registers (sm_80 and later:
  /// LDGSTS), so that a team's next slice is in flight while it computes on the current one.
  template <int N>
  KOKKOS_FORCEINLINE_FUNCTION static void copy_async(int32_t* dst, const int32_t* src) {
    static_assert(N == 4, "16-byte copies");
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 800)
    __pipeline_memcpy_async(dst, src, 16);
#else
    for (int j = 0; j < N; ++j) dst[j] = src[j];
#endif
  }
  /// Closes the group of copies issued since the last commit.
  KOKKOS_FORCEINLINE_FUNCTION static void async_commit() {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 800)
    __pipeline_commit();
#endif
  }
  /// Waits until at most K committed groups of this thread's copies are still in flight.
  template <int K>
  KOKKOS_FORCEINLINE_FUNCTION static void async_wait() {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 800)
    __pipeline_wait_prior(K);
#endif
  }
  /// `v` (a pointer, an index, a leading dimension), hidden from the optimiser: what is derived
  /// from it is computed where it is used instead of being kept in registers (or spilled) from
  /// the start of a long loop, or hoisted out of the kernel's loop over tiles.
  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION static T recompute_later(T v) {
#if defined(__CUDA_ARCH__)
    if constexpr (sizeof(T) == 8)
      asm volatile("" : "+l"(v));
    else
      asm volatile("" : "+r"(v));
#endif
    return v;
  }
  KOKKOS_FORCEINLINE_FUNCTION static int32_t min_plus(int32_t c, int32_t a, int32_t b) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
    return __viaddmin_s32(a, b, c);
#else
    return Impl::portable_min_plus(c, a, b);
#endif
  }
  /// The multiplier of min_plus_pair's IMAD adds: blockDim.z, which is 1 in every team launch
  /// of Kokkos (blocks of vector length x team size x 1; check_unit() stops a kernel where it
  /// is not), read through inline assembly so that no compiler folds it (LLVM would fold a
  /// known 1, and ptxas fuses a plain add whose one use is a min into a VIADDMNMX, leaving the
  /// FMA pipe idle). ptxas reads it from the constant bank: no register, no instruction.
  KOKKOS_FORCEINLINE_FUNCTION static int32_t unit() {
#if defined(__CUDA_ARCH__)
    int32_t z;
    asm("mov.u32 %0, %%ntid.z;" : "=r"(z));
    return z;
#else
    return 1;
#endif
  }
  /// Stops the kernel (an illegal-instruction error at the next fence) if unit() is not 1, a
  /// launch shape Kokkos does not use today: never a wrong result. A trap, not Kokkos::abort,
  /// whose message formatting would give the kernel a stack frame.
  KOKKOS_FORCEINLINE_FUNCTION static void check_unit() {
#if defined(__CUDA_ARCH__)
    if (unit() != 1) __trap();
#endif
  }
  /// min(c, a0 + b0, a1 + b1), two relaxations: on sm_90 two IMAD and one VIMNMX3
  /// (cuda_min_plus_pair.hpp). The sums wrap like the fused instruction's: exact while
  /// INF + INF fits in int32 (apsp::kInf).
  KOKKOS_FORCEINLINE_FUNCTION static int32_t min_plus_pair(int32_t c, int32_t a0, int32_t b0, int32_t a1, int32_t b1,
                                                           int32_t one) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
    return cuda::min_plus_pair_sm90(c, a0, b0, a1, b1, one);
#else
    return Impl::portable_min_plus(Impl::portable_min_plus(c, a0 * one, b0), a1 * one, b1);
#endif
  }
  /// Per 16-bit half: min(c, a + b) (gpu/packed_tiles.hpp keeps every sum below 2^16). One
  /// VIADDMNMX.U16x2 on sm_90.
  KOKKOS_FORCEINLINE_FUNCTION static int32_t packed_min_plus(int32_t c, int32_t a, int32_t b) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
    return int32_t(__viaddmin_u16x2(uint32_t(a), uint32_t(b), uint32_t(c)));
#else
    return Impl::portable_packed_min_plus(c, a, b);
#endif
  }
  /// Two values capped at 2^15 - 1 in one word (lo low), for lo, hi >= 0: one I2IP on sm_90
  /// (cvt.pack.sat.s16.s32: signed saturation caps a non-negative int32 at 2^15 - 1) in place of
  /// two VIMNMX and a PRMT on the ALU pipe.
  KOKKOS_FORCEINLINE_FUNCTION static int32_t pack_capped(int32_t lo, int32_t hi) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
    uint32_t d;
    asm("cvt.pack.sat.s16.s32 %0, %1, %2;" : "=r"(d) : "r"(hi), "r"(lo));
    return int32_t(d);
#else
    return RegisterTileTeam<APSP_CUDA_TILE_ROWS, APSP_CUDA_TILE_COLS, 16>::pack_capped(lo, hi);
#endif
  }
  /// max(a, b, c): one VIMNMX3 on sm_90 (a DPX instruction), where PackedTiles takes the
  /// largest entry of each block of C it loads.
  KOKKOS_FORCEINLINE_FUNCTION static int32_t max3(int32_t a, int32_t b, int32_t c) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
    return __vimax3_s32(a, b, c);
#else
    return RegisterTileTeam<APSP_CUDA_TILE_ROWS, APSP_CUDA_TILE_COLS, 16>::max3(a, b, c);
#endif
  }
  /// Whether v holds on every thread of the team: a team is the whole block (one vector lane),
  /// so one barrier with a vote (BAR.RED.AND).
  template <class Team>
  KOKKOS_FORCEINLINE_FUNCTION static bool team_all(const Team& /*team*/, bool v) {
#if defined(__CUDA_ARCH__)
    return __syncthreads_and(int(v)) != 0;
#else
    return v;  // device code only
#endif
  }
  /// c[j] = min(c[j], a + b[j]) for j < N: one VIADDMNMX each on sm_90.
  template <int N>
  KOKKOS_FORCEINLINE_FUNCTION static void min_plus_run(int32_t* c, int32_t a, const int32_t* b) {
    APSP_UNROLL
    for (int j = 0; j < N; ++j) c[j] = min_plus(c[j], a, b[j]);
  }
};

}  // namespace apsp
