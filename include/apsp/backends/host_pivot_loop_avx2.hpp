// SPDX-License-Identifier: BSD-3-Clause
// AVX2's pivot loop for its 6 x 2 block of C (host_backend.hpp's shape there): every pivot of a
// pass in one run of assembly, after the prefetches of the next block's C.
// The block takes all sixteen ymm registers (12 accumulators, 2 of B, a broadcast of A and a
// sum), and GCC 12's register allocation of the intrinsics loop depended on the code around it:
// it kept two accumulators on the stack in the program (a store and a reload per pivot), though
// not in a benchmark of the product (docs/results.md). Here every register is named: per pivot
// 2 loads of B, 6 broadcasts of A, 12 adds and 12 mins; the loop takes two pivots per iteration
// (5 instructions of its own for the two). The accumulators stay operands, so the compiler keeps
// them in registers around the run.
// The next block's lines are all asked for before the run, not one every 2^s pivots between
// runs as the intrinsics loop spreads them (host_pivot_loop.hpp): on the Zen 3 EPYC the phase-3
// product ran 1.07x faster so (no stall on C was left that spreading them avoided), and the
// two pivots per iteration gave 1.03x more (docs/results.md).
#pragma once

#include "apsp/backends/host_pivot_loop.hpp"

#if defined(APSP_SIMD_AVX2) && (defined(__GNUC__) || defined(__clang__))

#include <type_traits>

#include "apsp/backends/host_pivot_loop_x86_row.hpp"

namespace apsp::host_simd {

// clang-format off
// One row of the block (host_pivot_loop_x86_row.hpp): A's word broadcast into ymm14, B in ymm12
// and ymm13, the sum in ymm15, the row's two accumulators as the named operands C0, C1.
#define APSP_AVX2_ROW(ADD, MIN, ADDR, C0, C1) \
  APSP_X86_ADDMIN_ROW(ADD, MIN, ADDR, "%%ymm12", "%%ymm13", "%%ymm14", "%%ymm15", "%[" C0 "]", "%[" C1 "]")

// One pivot at byte offsets AO into A's rows and BO into B: rows 0-2 of A from rax (rows s bytes
// apart), rows 3-5 from r10 = rax + 3 s, B from r11.
// The run: rcx pivots, an odd one first, then two per iteration; the loop starts on a cache line,
// so that where the compiler places it does not change how it is fetched. (Fixed registers: as
// "+r" operands beside the 12 "+x" ones, the statement would pass GCC's limit of 30 operands.)
#define APSP_AVX2_PIVOT(ADD, MIN, AO, BO)                                \
      "vmovdqa " BO "(%%r11), %%ymm12\n\t"                               \
      "vmovdqa " BO "+32(%%r11), %%ymm13\n\t"                            \
      APSP_AVX2_ROW(ADD, MIN, AO "(%%rax)", "c00", "c01")                \
      APSP_AVX2_ROW(ADD, MIN, AO "(%%rax,%[s])", "c10", "c11")           \
      APSP_AVX2_ROW(ADD, MIN, AO "(%%rax,%[s],2)", "c20", "c21")         \
      APSP_AVX2_ROW(ADD, MIN, AO "(%%r10)", "c30", "c31")                \
      APSP_AVX2_ROW(ADD, MIN, AO "(%%r10,%[s])", "c40", "c41")           \
      APSP_AVX2_ROW(ADD, MIN, AO "(%%r10,%[s],2)", "c50", "c51")
#define APSP_AVX2_RUN_6X2(ADD, MIN)                                      \
  asm volatile(                                                          \
      "mov %[a], %%rax\n\t"                                              \
      "lea (%[a],%[s],2), %%r10\n\t"                                     \
      "add %[s], %%r10\n\t"                                              \
      "mov %[b], %%r11\n\t"                                              \
      "mov %[n], %%rcx\n\t"                                              \
      "test $1, %%rcx\n\t"                                               \
      "jz 2f\n\t"                                                        \
      APSP_AVX2_PIVOT(ADD, MIN, "0", "0")                                \
      "add $4, %%rax\n\t"                                                \
      "add $4, %%r10\n\t"                                                \
      "add $64, %%r11\n\t"                                               \
      "2:\n\t"                                                           \
      "shr $1, %%rcx\n\t"                                                \
      "jz 3f\n\t"                                                        \
      ".p2align 6\n\t"                                                   \
      "1:\n\t"                                                           \
      APSP_AVX2_PIVOT(ADD, MIN, "0", "0")                                \
      APSP_AVX2_PIVOT(ADD, MIN, "4", "64")                               \
      "add $8, %%rax\n\t"                                                \
      "add $8, %%r10\n\t"                                                \
      "add $128, %%r11\n\t"                                              \
      "dec %%rcx\n\t"                                                    \
      "jnz 1b\n\t"                                                       \
      "3:\n\t"                                                           \
      : [c00] "+x"(c[0][0]), [c01] "+x"(c[0][1]),                        \
        [c10] "+x"(c[1][0]), [c11] "+x"(c[1][1]),                        \
        [c20] "+x"(c[2][0]), [c21] "+x"(c[2][1]),                        \
        [c30] "+x"(c[3][0]), [c31] "+x"(c[3][1]),                        \
        [c40] "+x"(c[4][0]), [c41] "+x"(c[4][1]),                        \
        [c50] "+x"(c[5][0]), [c51] "+x"(c[5][1])                         \
      : [a] "r"(a), [b] "r"(b), [n] "r"(pivots), [s] "r"(stride)         \
      : "memory", "cc", "rax", "rcx", "r10", "r11", "xmm12", "xmm13", "xmm14", "xmm15")
// clang-format on

template <class Lanes>
struct PivotLoop<Lanes, 6, 2> {
  static constexpr bool kInPlace = false;
  APSP_SIMD_INLINE static void relax(Reg (&c)[6][2], const int32_t* a, int a_pitch, const typename Lanes::Lane* b,
                                     int depth, const AheadLines<6, 2>& ahead) {
    for (int q = 0; q < ahead.count; ++q) ahead.fetch(q);
    if (depth > 0) run(c, a, a_pitch, b, depth);
  }

 private:
  /// Pivots [0, n) of the pass, n >= 1.
  APSP_SIMD_INLINE static void run(Reg (&c)[6][2], const int32_t* a, int a_pitch, const typename Lanes::Lane* b,
                                   int n) {
    const int64_t stride = int64_t(a_pitch) * int64_t(sizeof(int32_t)), pivots = n;
    if constexpr (std::is_same_v<Lanes, U16>)
      APSP_AVX2_RUN_6X2("vpaddw", "vpminuw");
    else
      APSP_AVX2_RUN_6X2("vpaddd", "vpminsd");
  }
};

#undef APSP_AVX2_RUN_6X2
#undef APSP_AVX2_PIVOT
#undef APSP_AVX2_ROW

}  // namespace apsp::host_simd

#endif
