// SPDX-License-Identifier: BSD-3-Clause
// The CPU's vector registers, for the host tile product (host_microkernel.hpp) and the ceiling
// microbenchmark (scripts/cpu_ceiling.cpp): the one place where an instruction set is named.
// Two lane types of the same register: I32 (int32 lanes: add, signed min) and U16 (uint16 lanes:
// saturating add, unsigned min), each with the loads, stores and broadcasts the micro-kernel
// uses, and the conversions between them. The widest registers the build targets:
//   AVX-512 (F + BW)   64 bytes   vpaddd + vpminsd / vpaddusw + vpminuw on zmm
//   AVX2               32 bytes   the same on ymm
//   SSE4.1, SSE2       16 bytes   (SSE2: min by compare and blend; no 16-bit lanes)
//   NEON (AArch64)     16 bytes   add + smin / uqadd + umin
//   anything else      16 bytes   plain C++ on four lanes (and in device passes of GPU builds)
// Written with each ISA's intrinsics rather than Kokkos SIMD: Kokkos 3.4 has none, and Kokkos 4's
// has no saturating 16-bit add. Compiler vector types were tried first (host_backend.hpp before
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
/// Whether the ISA has the 16-bit lanes' instructions (saturating add, unsigned min, saturating
/// narrowing); where not, the host product stays in int32.
#if defined(APSP_SIMD_AVX512) || defined(APSP_SIMD_AVX2) || defined(APSP_SIMD_SSE41) || defined(APSP_SIMD_NEON)
constexpr bool kHas16 = true;
#else
constexpr bool kHas16 = false;
#endif

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

/// int32 lanes: c = min(c, a + b) is one add and one signed min (x86 has no fused form).
struct I32 {
  static constexpr int W = kInts;  ///< lanes
  using Lane = int32_t;
  APSP_SIMD_INLINE static Reg load(const int32_t* p) {  // p: aligned to kBytes
#if defined(APSP_SIMD_AVX512)
    return _mm512_load_si512(p);
#elif defined(APSP_SIMD_AVX2)
    return _mm256_load_si256(reinterpret_cast<const __m256i*>(p));
#elif defined(APSP_SIMD_SSE41) || defined(APSP_SIMD_SSE2)
    return _mm_load_si128(reinterpret_cast<const __m128i*>(p));
#elif defined(APSP_SIMD_NEON)
    return vld1q_s32(p);
#else
    Reg r;
    std::memcpy(r.v, p, sizeof r);
    return r;
#endif
  }
  /// From memory that need not be aligned (rows of the matrix are 16-byte aligned only).
  APSP_SIMD_INLINE static Reg loadu(const int32_t* p) {
#if defined(APSP_SIMD_AVX512)
    return _mm512_loadu_si512(p);
#elif defined(APSP_SIMD_AVX2)
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
#elif defined(APSP_SIMD_SSE41) || defined(APSP_SIMD_SSE2)
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
#else
    return load(p);
#endif
  }
  APSP_SIMD_INLINE static void store(int32_t* p, Reg v) {
#if defined(APSP_SIMD_AVX512)
    _mm512_store_si512(p, v);
#elif defined(APSP_SIMD_AVX2)
    _mm256_store_si256(reinterpret_cast<__m256i*>(p), v);
#elif defined(APSP_SIMD_SSE41) || defined(APSP_SIMD_SSE2)
    _mm_store_si128(reinterpret_cast<__m128i*>(p), v);
#elif defined(APSP_SIMD_NEON)
    vst1q_s32(p, v);
#else
    std::memcpy(p, v.v, sizeof v);
#endif
  }
  APSP_SIMD_INLINE static void storeu(int32_t* p, Reg v) {
#if defined(APSP_SIMD_AVX512)
    _mm512_storeu_si512(p, v);
#elif defined(APSP_SIMD_AVX2)
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
#elif defined(APSP_SIMD_SSE41) || defined(APSP_SIMD_SSE2)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v);
#else
    store(p, v);
#endif
  }
  /// Every lane = *p (a load-port broadcast on x86, ld1r on NEON; AVX-512 folds it into the add).
  APSP_SIMD_INLINE static Reg broadcast(const int32_t* p) {
#if defined(APSP_SIMD_NEON)
    // One ld1r, a load alone: from vld1q_dup_s32 (or splat(*p)) GCC 12 made a scalar load and a
    // dup, a second instruction on the vector pipes for each row of every pivot.
    Reg r;
    asm("ld1r {%0.4s}, [%1]" : "=w"(r) : "r"(p) : "memory");
    return r;
#else
    return splat(*p);
#endif
  }
  APSP_SIMD_INLINE static Reg splat(int32_t x) {
#if defined(APSP_SIMD_AVX512)
    return _mm512_set1_epi32(x);
#elif defined(APSP_SIMD_AVX2)
    return _mm256_set1_epi32(x);
#elif defined(APSP_SIMD_SSE41) || defined(APSP_SIMD_SSE2)
    return _mm_set1_epi32(x);
#elif defined(APSP_SIMD_NEON)
    return vdupq_n_s32(x);
#else
    return Reg{{x, x, x, x}};
#endif
  }
  /// min(c, a + b) per lane; operands are distances or INF, so a + b never overflows.
  APSP_SIMD_INLINE static Reg add_min(Reg c, Reg a, Reg b) {
#if defined(APSP_SIMD_AVX512)
    return _mm512_min_epi32(c, _mm512_add_epi32(a, b));
#elif defined(APSP_SIMD_AVX2)
    return _mm256_min_epi32(_mm256_add_epi32(a, b), c);
#elif defined(APSP_SIMD_SSE41)
    return _mm_min_epi32(c, _mm_add_epi32(a, b));
#elif defined(APSP_SIMD_SSE2)
    const __m128i s = _mm_add_epi32(a, b), less = _mm_cmplt_epi32(s, c);
    return _mm_or_si128(_mm_and_si128(less, s), _mm_andnot_si128(less, c));
#elif defined(APSP_SIMD_NEON)
    return vminq_s32(c, vaddq_s32(a, b));
#else
    Reg r;
    for (int j = 0; j < 4; ++j) r.v[j] = a.v[j] + b.v[j] < c.v[j] ? a.v[j] + b.v[j] : c.v[j];
    return r;
#endif
  }
  /// Bitwise or (to ask whether any lane of several registers is at least 2^16).
  APSP_SIMD_INLINE static Reg bit_or(Reg a, Reg b) {
#if defined(APSP_SIMD_AVX512)
    return _mm512_or_si512(a, b);
#elif defined(APSP_SIMD_AVX2)
    return _mm256_or_si256(a, b);
#elif defined(APSP_SIMD_SSE41) || defined(APSP_SIMD_SSE2)
    return _mm_or_si128(a, b);
#elif defined(APSP_SIMD_NEON)
    return vorrq_s32(a, b);
#else
    Reg r;
    for (int j = 0; j < 4; ++j) r.v[j] = a.v[j] | b.v[j];
    return r;
#endif
  }
  /// Each lane v (>= 0) -> min(v, 2^16 - 1) in both of its halves: a U16 broadcast word.
  APSP_SIMD_INLINE static Reg pair16(Reg v) {
#if defined(APSP_SIMD_AVX512)
    const __m512i m = _mm512_min_epi32(v, _mm512_set1_epi32(0xffff));
    return _mm512_or_si512(m, _mm512_slli_epi32(m, 16));
#elif defined(APSP_SIMD_AVX2)
    const __m256i m = _mm256_min_epi32(v, _mm256_set1_epi32(0xffff));
    return _mm256_or_si256(m, _mm256_slli_epi32(m, 16));
#elif defined(APSP_SIMD_SSE41)
    const __m128i m = _mm_min_epi32(v, _mm_set1_epi32(0xffff));
    return _mm_or_si128(m, _mm_slli_epi32(m, 16));
#elif defined(APSP_SIMD_NEON)
    const int32x4_t m = vminq_s32(v, vdupq_n_s32(0xffff));
    return vorrq_s32(m, vshlq_n_s32(m, 16));
#else
    int32_t lanes[kInts];
    std::memcpy(lanes, &v, sizeof v);
    for (int j = 0; j < kInts; ++j) {
      const uint32_t m = lanes[j] > 0xffff ? 0xffffu : uint32_t(lanes[j]);
      lanes[j] = int32_t(m | (m << 16));
    }
    Reg r;
    std::memcpy(&r, lanes, sizeof r);
    return r;
#endif
  }
  /// Whether every lane of `v`, taken as unsigned, is below 2^16.
  APSP_SIMD_INLINE static bool below_2_16(Reg v) {
#if defined(APSP_SIMD_AVX512)
    return _mm512_test_epi32_mask(v, _mm512_set1_epi32(int32_t(0xffff0000u))) == 0;
#elif defined(APSP_SIMD_AVX2)
    return _mm256_testz_si256(v, _mm256_set1_epi32(int32_t(0xffff0000u))) != 0;
#elif defined(APSP_SIMD_SSE41)
    return _mm_testz_si128(v, _mm_set1_epi32(int32_t(0xffff0000u))) != 0;
#elif defined(APSP_SIMD_NEON)
    return vmaxvq_u32(vreinterpretq_u32_s32(v)) < 0x10000u;
#else
    int32_t lanes[kInts];
    std::memcpy(lanes, &v, sizeof v);
    uint32_t any = 0;
    for (int j = 0; j < kInts; ++j) any |= uint32_t(lanes[j]);
    return any < 0x10000u;
#endif
  }
};

/// uint16 lanes, two per int32 lane of the same register: c = min(c, a +sat b). The saturating
/// add makes a cap at 2^16 - 1 free (why that gives the int32 result: host_tiles.hpp).
struct U16 {
  static constexpr int W = 2 * kInts;  ///< lanes
  using Lane = uint16_t;
  APSP_SIMD_INLINE static Reg load(const uint16_t* p) { return I32::load(reinterpret_cast<const int32_t*>(p)); }
  APSP_SIMD_INLINE static void store(uint16_t* p, Reg v) { I32::store(reinterpret_cast<int32_t*>(p), v); }
  /// Every lane = the 16-bit value held twice in the word *p (a 32-bit broadcast: x86 has no
  /// load-port broadcast of 16 bits, vpbroadcastw from memory costs a shuffle).
  APSP_SIMD_INLINE static Reg broadcast_pair(const uint32_t* p) { return I32::splat(int32_t(*p)); }
  APSP_SIMD_INLINE static Reg add_min(Reg c, Reg a, Reg b) {
#if defined(APSP_SIMD_AVX512)
    return _mm512_min_epu16(c, _mm512_adds_epu16(a, b));
#elif defined(APSP_SIMD_AVX2)
    return _mm256_min_epu16(c, _mm256_adds_epu16(a, b));
#elif defined(APSP_SIMD_SSE41)
    return _mm_min_epu16(c, _mm_adds_epu16(a, b));
#elif defined(APSP_SIMD_NEON)
    const uint16x8_t s = vqaddq_u16(vreinterpretq_u16_s32(a), vreinterpretq_u16_s32(b));
    return vreinterpretq_s32_u16(vminq_u16(vreinterpretq_u16_s32(c), s));
#else
    uint16_t cc[W], aa[W], bb[W];
    std::memcpy(cc, &c, sizeof c);
    std::memcpy(aa, &a, sizeof a);
    std::memcpy(bb, &b, sizeof b);
    for (int j = 0; j < W; ++j) {
      const uint32_t s = uint32_t(aa[j]) + bb[j];
      const uint16_t sat = s > 0xffffu ? uint16_t(0xffffu) : uint16_t(s);
      cc[j] = sat < cc[j] ? sat : cc[j];
    }
    Reg r;
    std::memcpy(&r, cc, sizeof r);
    return r;
#endif
  }
  /// Two registers of int32 lanes (values >= 0) -> one of uint16 lanes, each min(v, 2^16 - 1).
  /// The lanes' order is the instruction's (x86 packs per 128-bit lane: for AVX2, columns 0-3,
  /// 8-11, 4-7, 12-15); widen() undoes it, and the host product narrows C and the staged B
  /// operand the same way, so a lane holds the same column in both.
  APSP_SIMD_INLINE static Reg narrow(Reg lo, Reg hi) {
#if defined(APSP_SIMD_AVX512)
    return _mm512_packus_epi32(lo, hi);
#elif defined(APSP_SIMD_AVX2)
    return _mm256_packus_epi32(lo, hi);
#elif defined(APSP_SIMD_SSE41)
    return _mm_packus_epi32(lo, hi);
#elif defined(APSP_SIMD_NEON)
    return vreinterpretq_s32_u16(vcombine_u16(vqmovun_s32(lo), vqmovun_s32(hi)));
#else
    int32_t l[kInts], h[kInts];
    uint16_t out[W];
    std::memcpy(l, &lo, sizeof lo);
    std::memcpy(h, &hi, sizeof hi);
    for (int j = 0; j < kInts; ++j) {
      out[j] = uint16_t(l[j] > 0xffff ? 0xffff : l[j]);
      out[kInts + j] = uint16_t(h[j] > 0xffff ? 0xffff : h[j]);
    }
    Reg r;
    std::memcpy(&r, out, sizeof r);
    return r;
#endif
  }
  /// The inverse of narrow() for lanes that were below 2^16.
  APSP_SIMD_INLINE static void widen(Reg v, Reg& lo, Reg& hi) {
#if defined(APSP_SIMD_AVX512)
    lo = _mm512_unpacklo_epi16(v, _mm512_setzero_si512());
    hi = _mm512_unpackhi_epi16(v, _mm512_setzero_si512());
#elif defined(APSP_SIMD_AVX2)
    lo = _mm256_unpacklo_epi16(v, _mm256_setzero_si256());
    hi = _mm256_unpackhi_epi16(v, _mm256_setzero_si256());
#elif defined(APSP_SIMD_SSE41)
    lo = _mm_unpacklo_epi16(v, _mm_setzero_si128());
    hi = _mm_unpackhi_epi16(v, _mm_setzero_si128());
#elif defined(APSP_SIMD_NEON)
    const uint16x8_t u = vreinterpretq_u16_s32(v);
    lo = vreinterpretq_s32_u32(vmovl_u16(vget_low_u16(u)));
    hi = vreinterpretq_s32_u32(vmovl_high_u16(u));
#else
    uint16_t in[W];
    int32_t l[kInts], h[kInts];
    std::memcpy(in, &v, sizeof v);
    for (int j = 0; j < kInts; ++j) {
      l[j] = in[j];
      h[j] = in[kInts + j];
    }
    std::memcpy(&lo, l, sizeof lo);
    std::memcpy(&hi, h, sizeof hi);
#endif
  }
};

}  // namespace apsp::host_simd
