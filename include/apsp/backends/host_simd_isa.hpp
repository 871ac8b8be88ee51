// SPDX-License-Identifier: BSD-3-Clause
// The CPU's vector registers: which instruction set the build targets, the register type, and
// what both lane types need (host_simd_i32.hpp, host_simd_u16.hpp; host_simd.hpp includes all).
// These files (with host_pivot_loop_avx2.hpp and host_pivot_loop_avx512.hpp, the loops in assembly, and the row
// they share, host_pivot_loop_x86_row.hpp, and host_register_ceiling.hpp, the ceiling's) are the
// one place where an instruction set is named. The widest registers the build targets:
//   AVX-512 (F + BW)   64 bytes   vpaddd + vpminsd / vpaddw + vpminuw on zmm
//   AVX2               32 bytes   the same on ymm
//   SSE4.1, SSE2       16 bytes   (SSE2: min by compare and blend; no 16-bit lanes)
//   NEON (AArch64)     16 bytes   add + smin / add + umin
//   anything else      16 bytes   plain C++ on four lanes (and in device passes of GPU builds)
// Written with each ISA's intrinsics rather than Kokkos SIMD: Kokkos 3.4 has none, and Kokkos 4's
// has no 16-bit element types. Compiler vector types were tried first (host_backend.hpp before
// this file): GCC turned the same element loop into scalar code or not depending on the code
// around it.
#pragma once

#include <cstdint>
#include <cstring>

// APSP_SIMD_SCALAR: plain C++ whatever the target (the tests compile each ISA's path they can run).
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__) && !defined(APSP_SIMD_SCALAR)
#if defined(__AVX512F__) && defined(__AVX512BW__)
#define APSP_SIMD_AVX512 1
#elif defined(__AVX2__)
#define APSP_SIMD_AVX2 1
#elif defined(__SSE4_1__)
#define APSP_SIMD_SSE41 1
#elif defined(__SSE2__) || defined(__x86_64__)
#define APSP_SIMD_SSE2 1
#elif defined(__ARM_NEON) && defined(__aarch64__)
#define APSP_SIMD_NEON 1
#endif
#endif

#if defined(APSP_SIMD_AVX512) || defined(APSP_SIMD_AVX2) || defined(APSP_SIMD_SSE41) || defined(APSP_SIMD_SSE2)
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
// GCC 12 warns inside its own AVX-512 intrinsics (_mm512_undefined_epi32 as pass-through: GCC bug
// 105593); the warning is placed in the header, so silencing it there silences nothing else.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#else
#include <immintrin.h>
#endif
#elif defined(APSP_SIMD_NEON)
#include <arm_neon.h>
#endif

#if defined(__GNUC__) || defined(__clang__)
#define APSP_SIMD_INLINE inline __attribute__((always_inline))
#else
#define APSP_SIMD_INLINE inline
#endif
// Full unrolling of the micro-kernel's short fixed loops.
#if defined(__clang__) || defined(__NVCC__)
#define APSP_SIMD_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define APSP_SIMD_UNROLL _Pragma("GCC unroll 16")
#else
#define APSP_SIMD_UNROLL
#endif

namespace apsp::host_simd {

#if defined(APSP_SIMD_AVX512)
constexpr const char* kIsa = "AVX-512";
using Reg = __m512i;
#elif defined(APSP_SIMD_AVX2)
constexpr const char* kIsa = "AVX2";
using Reg = __m256i;
#elif defined(APSP_SIMD_SSE41)
constexpr const char* kIsa = "SSE4.1";
using Reg = __m128i;
#elif defined(APSP_SIMD_SSE2)
constexpr const char* kIsa = "SSE2";
using Reg = __m128i;
#elif defined(APSP_SIMD_NEON)
constexpr const char* kIsa = "NEON";
using Reg = int32x4_t;
#else
constexpr const char* kIsa = "scalar";
struct Reg {
  int32_t v[4];
};
#endif

/// Bytes of one vector register; int32 lanes per register.
constexpr int kBytes = int(sizeof(Reg));
constexpr int kInts = kBytes / 4;
/// Whether the ISA has the 16-bit lanes' instructions (add, unsigned min, saturating narrowing);
/// where not, the host product stays in int32.
#if defined(APSP_SIMD_AVX512) || defined(APSP_SIMD_AVX2) || defined(APSP_SIMD_SSE41) || defined(APSP_SIMD_NEON)
constexpr bool kHas16 = true;
#else
constexpr bool kHas16 = false;
#endif
/// The largest value a 16-bit lane holds as itself (host_simd_u16.hpp): larger values, and INF,
/// enter the lanes as this cap, and two capped values sum to at most 2^16 - 2.
constexpr int32_t kCap16 = 0x7fff;

/// Keeps `r` in a register: the compiler may no longer fold the load that made it into the
/// instructions that use it (GCC folded each of the B operand's loads into every add, which made
/// the micro-kernel bound by vector loads: two per cycle on Zen 3). Emits no instruction.
APSP_SIMD_INLINE void in_register(Reg& r) {
#if defined(APSP_SIMD_AVX512)
  asm("" : "+v"(r));
#elif defined(APSP_SIMD_AVX2) || defined(APSP_SIMD_SSE41) || defined(APSP_SIMD_SSE2)
  asm("" : "+x"(r));
#elif defined(APSP_SIMD_NEON)
  asm("" : "+w"(r));
#else
  (void)r;
#endif
}

/// How many pivots ahead the micro-kernel's loop asks for the lines of the B panel
/// (host_pivot_loop.hpp, and AVX-512's in assembly; 0: it does not). Each block of C reads a whole panel, from L2 (the
/// panels of a tile row's blocks do not all fit L1). AVX-512: 16; on the 16-vCPU Xeon the
/// phase-3 product ran 1.015-1.040x faster with 8 than with none and every CPU busy,
/// 1.006-1.042x on one, in 16-bit and in int32 lanes (scripts/host_product_ab.sh,
/// docs/results.md; measured with the intrinsics loop, before AVX-512's in assembly), and with
/// the loop in assembly 1.005-1.012x without any; 16 against 8: 1.007-1.011x with every CPU
/// busy, 1.003-1.015x on one (24 and 32 no better), 1.002-1.015x on the Zen 5 EPYC. Whole
/// solves vary more than that from run to run. Not measured to help elsewhere: AVX2's loop
/// (assembly) ran 0.97-0.99x with the 8-pivot prefetch on the Zen 3 EPYC, and Arm was never run
/// on hardware.
#if defined(APSP_SIMD_AVX512)
constexpr int kPanelAhead = 16;
#else
constexpr int kPanelAhead = 0;
#endif

/// Asks for the cache line holding `p` (to be read, or written: `for_write`) ahead of its use.
APSP_SIMD_INLINE void prefetch(const void* p, bool for_write = false) {
#if defined(__GNUC__) || defined(__clang__)
  if (for_write)
    __builtin_prefetch(p, 1, 3);
  else
    __builtin_prefetch(p, 0, 3);
#else
  (void)p, (void)for_write;
#endif
}

}  // namespace apsp::host_simd
