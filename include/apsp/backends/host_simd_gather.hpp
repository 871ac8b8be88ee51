// SPDX-License-Identifier: BSD-3-Clause
// The predecessor search's vector step on the host (paths/host_predecessors.hpp): for 16 heads
// at once, their k-th edges in tested against the distances of one source, with a gather of the
// tails' distances. Only AVX-512 has it here: GCC compiles the same loop over 16 lanes to scalar
// code (measured), and where no gather is, the search keeps its loop over one head's edges.
#pragma once

#include <cstdint>

#include "apsp/backends/host_simd_isa.hpp"

namespace apsp::host_simd {

/// Heads per step of tight_edges_16.
inline constexpr int kGatherLanes = 16;

#if defined(APSP_SIMD_AVX512)
inline constexpr bool kHasGather = true;
#else
inline constexpr bool kHasGather = false;
#endif

/// For heads[l] (l < lanes), with distances `dist` from one source: how many of its `depth`
/// edges in (tails[k * 16 + l], weights[k * 16 + l]) are tight, dist[tail] + w == dist[head]
/// in unsigned 32-bit sums, and the sum of the tight ones' tails. Lanes from `lanes` on count
/// nothing; a padding edge's weight must keep the sum past every distance.
APSP_SIMD_INLINE void tight_edges_16(const int32_t* dist, const int32_t* heads, int lanes, const int32_t* tails,
                                     const int32_t* weights, int64_t depth, uint32_t* tight, uint32_t* tail_sum) {
#if defined(APSP_SIMD_AVX512)
  const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __mmask16 live = _mm512_cmplt_epi32_mask(lane, _mm512_set1_epi32(lanes));
  const __m512i at = _mm512_maskz_loadu_epi32(live, heads);
  const __m512i dj = _mm512_mask_i32gather_epi32(_mm512_set1_epi32(-1), live, at, dist, 4);
  const __m512i one = _mm512_set1_epi32(1);
  __m512i count = _mm512_setzero_si512(), sum = _mm512_setzero_si512();
  for (int64_t k = 0; k < depth; ++k) {
    const __m512i u = _mm512_loadu_si512(tails + k * kGatherLanes);
    const __m512i w = _mm512_loadu_si512(weights + k * kGatherLanes);
    const __m512i du = _mm512_i32gather_epi32(u, dist, 4);
    const __mmask16 eq = _mm512_cmpeq_epi32_mask(_mm512_add_epi32(du, w), dj);
    count = _mm512_mask_add_epi32(count, eq, count, one);
    sum = _mm512_mask_add_epi32(sum, eq, sum, u);
  }
  _mm512_storeu_si512(tight, count);
  _mm512_storeu_si512(tail_sum, sum);
#else
  for (int l = 0; l < kGatherLanes; ++l) {
    tight[l] = tail_sum[l] = 0;
    if (l >= lanes) continue;
    const auto dj = uint32_t(dist[heads[l]]);
    for (int64_t k = 0; k < depth; ++k) {
      const auto u = uint32_t(tails[k * kGatherLanes + l]);
      const uint32_t is_tight = uint32_t(dist[u]) + uint32_t(weights[k * kGatherLanes + l]) == dj ? 1 : 0;
      tight[l] += is_tight;
      tail_sum[l] += is_tight * u;
    }
  }
#endif
}

}  // namespace apsp::host_simd
