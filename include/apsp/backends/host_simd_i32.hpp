// SPDX-License-Identifier: BSD-3-Clause
// int32 lanes of the CPU's vector registers (host_simd_isa.hpp): loads, stores, broadcasts,
// add-min, the tests for entries below a power of two (INF aside), and the 16-bit pairs of a lane.
#pragma once

#include <cstdint>
#include <cstring>

#include "apsp/backends/host_simd_isa.hpp"

namespace apsp::host_simd {

/// int32 lanes: c = min(c, a + b) is one add and one signed min (x86 has no fused form).
struct I32 {
  static constexpr int W = kInts;  ///< lanes
  using Lane = int32_t;
  /// f applied to each lane (the plain C++ forms of the operations below).
  template <class F>
  static Reg each_lane(Reg v, F f) {
    int32_t lanes[kInts];
    std::memcpy(lanes, &v, sizeof v);
    for (int32_t& x : lanes) x = f(x);
    Reg r;
    std::memcpy(&r, lanes, sizeof r);
    return r;
  }
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
  /// Bitwise or (to ask whether any lane of several registers is at least 2^15).
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
  /// Each lane v (>= 0) -> min(v, 2^15 - 1) in both of its halves: a U16 broadcast word
  /// (U16::kCap, the cap of narrowed lanes).
  APSP_SIMD_INLINE static Reg pair16(Reg v) {
#if defined(APSP_SIMD_AVX512)
    const __m512i m = _mm512_min_epi32(v, _mm512_set1_epi32(kCap16));
    return _mm512_or_si512(m, _mm512_slli_epi32(m, 16));
#elif defined(APSP_SIMD_AVX2)
    const __m256i m = _mm256_min_epi32(v, _mm256_set1_epi32(kCap16));
    return _mm256_or_si256(m, _mm256_slli_epi32(m, 16));
#elif defined(APSP_SIMD_SSE41)
    const __m128i m = _mm_min_epi32(v, _mm_set1_epi32(kCap16));
    return _mm_or_si128(m, _mm_slli_epi32(m, 16));
#elif defined(APSP_SIMD_NEON)
    const int32x4_t m = vminq_s32(v, vdupq_n_s32(kCap16));
    return vorrq_s32(m, vshlq_n_s32(m, 16));
#else
    return each_lane(v, [](int32_t x) {
      const uint32_t m = x > kCap16 ? uint32_t(kCap16) : uint32_t(x);
      return int32_t(m | (m << 16));
    });
#endif
  }
  /// Whether every lane of `v`, taken as unsigned, is below kLimit (a power of two).
  template <uint32_t kLimit>
  APSP_SIMD_INLINE static bool below(Reg v) {
    static_assert(kLimit != 0 && (kLimit & (kLimit - 1)) == 0, "a power of two");
    [[maybe_unused]] constexpr int32_t kHigh = int32_t(~(kLimit - 1));
#if defined(APSP_SIMD_AVX512)
    return _mm512_test_epi32_mask(v, _mm512_set1_epi32(kHigh)) == 0;
#elif defined(APSP_SIMD_AVX2)
    return _mm256_testz_si256(v, _mm256_set1_epi32(kHigh)) != 0;
#elif defined(APSP_SIMD_SSE41)
    return _mm_testz_si128(v, _mm_set1_epi32(kHigh)) != 0;
#elif defined(APSP_SIMD_NEON)
    return vmaxvq_u32(vreinterpretq_u32_s32(v)) < kLimit;
#else
    int32_t lanes[kInts];
    std::memcpy(lanes, &v, sizeof v);
    uint32_t any = 0;
    for (int j = 0; j < kInts; ++j) any |= uint32_t(lanes[j]);
    return any < kLimit;
#endif
  }
  /// Whether every lane is at most 2^15 - 1: held as itself in 16-bit lanes.
  APSP_SIMD_INLINE static bool below_2_15(Reg v) { return below<0x8000u>(v); }
  /// Each lane v: 0 where v is `inf`, 2^15 where v is 2^15 - 1, else v. The or of such
  /// registers is below 2^15 exactly when every lane is `inf` or below 2^15 - 1 (the blocks of
  /// C that take 16-bit lanes with INF as 2^15 - 1, solver/host/tiles.hpp).
  APSP_SIMD_INLINE static Reg inf_as_zero(Reg v, int32_t inf) {
#if defined(APSP_SIMD_AVX512)
    const __m512i r =
        _mm512_mask_mov_epi32(v, _mm512_cmpeq_epi32_mask(v, _mm512_set1_epi32(inf)), _mm512_setzero_si512());
    return _mm512_mask_mov_epi32(r, _mm512_cmpeq_epi32_mask(v, _mm512_set1_epi32(kCap16)),
                                 _mm512_set1_epi32(kCap16 + 1));
#elif defined(APSP_SIMD_AVX2)
    const __m256i r = _mm256_andnot_si256(_mm256_cmpeq_epi32(v, _mm256_set1_epi32(inf)), v);
    return _mm256_or_si256(
        r, _mm256_and_si256(_mm256_cmpeq_epi32(v, _mm256_set1_epi32(kCap16)), _mm256_set1_epi32(kCap16 + 1)));
#elif defined(APSP_SIMD_SSE41) || defined(APSP_SIMD_SSE2)
    const __m128i r = _mm_andnot_si128(_mm_cmpeq_epi32(v, _mm_set1_epi32(inf)), v);
    return _mm_or_si128(r, _mm_and_si128(_mm_cmpeq_epi32(v, _mm_set1_epi32(kCap16)), _mm_set1_epi32(kCap16 + 1)));
#elif defined(APSP_SIMD_NEON)
    const int32x4_t r = vbicq_s32(v, vreinterpretq_s32_u32(vceqq_s32(v, vdupq_n_s32(inf))));
    return vorrq_s32(r, vandq_s32(vreinterpretq_s32_u32(vceqq_s32(v, vdupq_n_s32(kCap16))), vdupq_n_s32(kCap16 + 1)));
#else
    return each_lane(v, [inf](int32_t x) { return x == inf ? 0 : x == kCap16 ? kCap16 + 1 : x; });
#endif
  }
  /// Each lane 2^15 - 1 (INF in 16-bit lanes, widened) -> `inf`; the others as they are.
  APSP_SIMD_INLINE static Reg restore_inf(Reg v, int32_t inf) {
#if defined(APSP_SIMD_AVX512)
    return _mm512_mask_mov_epi32(v, _mm512_cmpeq_epi32_mask(v, _mm512_set1_epi32(kCap16)), _mm512_set1_epi32(inf));
#elif defined(APSP_SIMD_AVX2)
    return _mm256_blendv_epi8(v, _mm256_set1_epi32(inf), _mm256_cmpeq_epi32(v, _mm256_set1_epi32(kCap16)));
#elif defined(APSP_SIMD_SSE41) || defined(APSP_SIMD_SSE2)
    const __m128i f = _mm_cmpeq_epi32(v, _mm_set1_epi32(kCap16));
    return _mm_or_si128(_mm_andnot_si128(f, v), _mm_and_si128(f, _mm_set1_epi32(inf)));
#elif defined(APSP_SIMD_NEON)
    return vbslq_s32(vceqq_s32(v, vdupq_n_s32(kCap16)), vdupq_n_s32(inf), v);
#else
    return each_lane(v, [inf](int32_t x) { return x == kCap16 ? inf : x; });
#endif
  }
};

}  // namespace apsp::host_simd
