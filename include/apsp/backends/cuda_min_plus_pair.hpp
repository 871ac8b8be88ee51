// SPDX-License-Identifier: BSD-3-Clause
// Two relaxations in one go on sm_90: min(c, a0 * one + b0, a1 * one + b1) as two IMAD (FMA
// pipe) and one VIMNMX3 (ALU pipe), beside the fused add-min (VIADDMNMX, ALU pipe) that takes
// one relaxation per instruction. Written in PTX because ptxas fuses a plain add whose one use
// is a min into VIADDMNMX; `one` must be a 1 that no compiler can prove (see
// BackendTraits<Kokkos::Cuda>::unit). Free of Kokkos, so that scripts/minplus_mix.cu measures
// the very sequence the kernels run.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
namespace apsp::cuda {

__device__ __forceinline__ int32_t min_plus_pair_sm90(int32_t c, int32_t a0, int32_t b0, int32_t a1, int32_t b1,
                                                      int32_t one) {
  int32_t d;
  asm("{.reg .s32 x, y, t;\n\t"
      "mad.lo.s32 x, %1, %5, %2;\n\t"
      "mad.lo.s32 y, %3, %5, %4;\n\t"
      "min.s32 t, %6, x;\n\t"
      "min.s32 %0, t, y;}"
      : "=r"(d)
      : "r"(a0), "r"(b0), "r"(a1), "r"(b1), "r"(one), "r"(c));
  return d;
}

}  // namespace apsp::cuda
#endif
