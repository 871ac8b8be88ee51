// SPDX-License-Identifier: BSD-3-Clause
// uint16 lanes of the CPU's vector registers (host_simd_isa.hpp): add (modulo 2^16), unsigned
// min, the pairs of 16-bit values the micro-kernel broadcasts, and conversions through I32.
#pragma once

#include <cstdint>

#include "apsp/backends/host_simd_i32.hpp"
#include "apsp/backends/host_simd_isa.hpp"

namespace apsp::host_simd {

/// uint16 lanes, two per int32 lane of the same register: c = min(c, a + b). Values enter the
/// lanes capped at kCap = 2^15 - 1 (narrow, I32::pair16), so two of them sum to at most
/// 2^16 - 2 and the plain add never wraps (why the capped product is the int32 one:
/// solver/host/tiles.hpp). Not the saturating add, which the cap would not need: on the Xeon
/// of the GPU hosts (Emerald Rapids) and on Zen 4, vpaddusw zmm issues once a cycle and vpaddw
/// twice; with vpaddw the add-min runs at twice the int32 rate on both (scripts/cpu_ceiling.sh),
/// with vpaddusw at 1.0x (Xeon) and 1.7x (Zen 4).
struct U16 {
  static constexpr int W = 2 * kInts;  ///< lanes
  using Lane = uint16_t;
  /// The largest value a lane holds as itself; larger values (and INF) narrow to it.
  static constexpr int32_t kCap = kCap16;
  APSP_SIMD_INLINE static Reg load(const uint16_t* p) { return I32::load(reinterpret_cast<const int32_t*>(p)); }
  APSP_SIMD_INLINE static void store(uint16_t* p, Reg v) { I32::store(reinterpret_cast<int32_t*>(p), v); }
  /// Every lane = the 16-bit value held twice in the word *p (a 32-bit broadcast: x86 has no
  /// load-port broadcast of 16 bits, vpbroadcastw from memory costs a shuffle).
  APSP_SIMD_INLINE static Reg broadcast_pair(const uint32_t* p) { return I32::splat(int32_t(*p)); }
  APSP_SIMD_INLINE static Reg add_min(Reg c, Reg a, Reg b) {
#if defined(APSP_SIMD_AVX512)
    return _mm512_min_epu16(c, _mm512_add_epi16(a, b));
#elif defined(APSP_SIMD_AVX2)
    return _mm256_min_epu16(c, _mm256_add_epi16(a, b));
#elif defined(APSP_SIMD_SSE41)
    return _mm_min_epu16(c, _mm_add_epi16(a, b));
#elif defined(APSP_SIMD_NEON)
    const uint16x8_t s = vaddq_u16(vreinterpretq_u16_s32(a), vreinterpretq_u16_s32(b));
    return vreinterpretq_s32_u16(vminq_u16(vreinterpretq_u16_s32(c), s));
#else
    uint16_t cc[W], aa[W], bb[W];
    std::memcpy(cc, &c, sizeof c);
    std::memcpy(aa, &a, sizeof a);
    std::memcpy(bb, &b, sizeof b);
    for (int j = 0; j < W; ++j) {
      const auto s = uint16_t(uint32_t(aa[j]) + bb[j]);  // modulo 2^16, as the instructions
      cc[j] = s < cc[j] ? s : cc[j];
    }
    Reg r;
    std::memcpy(&r, cc, sizeof r);
    return r;
#endif
  }
  /// Two registers of int32 lanes (values >= 0) -> one of uint16 lanes, each min(v, kCap)
  /// (the signed saturating pack).
  /// The lanes' order is the instruction's (x86 packs per 128-bit lane: for AVX2, columns 0-3,
  /// 8-11, 4-7, 12-15); widen() undoes it, and the host product narrows C and the staged B
  /// operand the same way, so a lane holds the same column in both.
  APSP_SIMD_INLINE static Reg narrow(Reg lo, Reg hi) {
#if defined(APSP_SIMD_AVX512)
    return _mm512_packs_epi32(lo, hi);
#elif defined(APSP_SIMD_AVX2)
    return _mm256_packs_epi32(lo, hi);
#elif defined(APSP_SIMD_SSE41)
    return _mm_packs_epi32(lo, hi);
#elif defined(APSP_SIMD_NEON)
    return vreinterpretq_s32_s16(vcombine_s16(vqmovn_s32(lo), vqmovn_s32(hi)));
#else
    int32_t l[kInts], h[kInts];
    uint16_t out[W];
    std::memcpy(l, &lo, sizeof lo);
    std::memcpy(h, &hi, sizeof hi);
    for (int j = 0; j < kInts; ++j) {
      out[j] = uint16_t(l[j] > kCap ? kCap : l[j]);
      out[kInts + j] = uint16_t(h[j] > kCap ? kCap : h[j]);
    }
    Reg r;
    std::memcpy(&r, out, sizeof r);
    return r;
#endif
  }
  /// The inverse of narrow() for lanes that were at most kCap.
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
