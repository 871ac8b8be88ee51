// SPDX-License-Identifier: BSD-3-Clause
// The CPU's relaxation ceiling for the ISA this code is compiled for (host_simd.hpp): the
// register-resident add-min, min(c, a + b) in int32 lanes (add + signed min) and in uint16
// lanes (add + unsigned min, as the product runs them), with every operand in a register, so
// that only the add-min instructions run. Shared by the program's calibration
// (report/ceiling.hpp: the efficiency every run reports) and scripts/cpu_ceiling.cpp (the full
// measurement, the product's micro-kernel beside it). registers_pass<Lanes>(steps) runs `steps`
// iterations on the calling thread and returns the relaxations done; clock_hz(seconds)
// measures the thread's clock.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "apsp/backends/host_simd.hpp"

namespace apsp::host_ceiling {

using namespace apsp::host_simd;  // NOLINT(google-build-using-namespace): the lane types by their names

inline double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Cycles per second of this thread: 4000 dependent adds per iteration, one per cycle. Register
// operands, not immediates: recent Intel cores fold a chain of immediate adds at rename (an
// `add $1` chain ran at 4 to 5 per cycle on a Xeon of the Emerald Rapids generation).
inline double clock_hz(double seconds) {
  uint64_t x = 1, one = 1;
  long iterations = 0;
  const double t0 = now();
  double t = t0;
  while (t - t0 < seconds) {
    for (int k = 0; k < 100; ++k) {
#if defined(__x86_64__)
      asm volatile(".rept 4000\n\taddq %1, %0\n\t.endr" : "+r"(x) : "r"(one));
#elif defined(__aarch64__)
      asm volatile(".rept 4000\n\tadd %0, %0, %1\n\t.endr" : "+r"(x) : "r"(one));
#else
      for (int j = 0; j < 4000; ++j) asm volatile("" : "+r"(x) : "r"(one));
#endif
    }
    iterations += 100;
    t = now();
  }
  return double(iterations) * 4000.0 / (t - t0);
}

/// Names the instructions registers_pass measures; part of the calibration cache's key
/// (host_runtime.hpp), so that a figure measured for other instructions is not taken again.
constexpr const char* kMeasured = "uint16 lanes: plain add";

inline volatile int32_t g_sink;  ///< where results go so that no loop is optimised away

// Register-resident add-min in hand-written assembly (compilers spill or copy accumulators
// here, which would measure the compiler): per iteration, for each of kAcc accumulators, one add
// of two operand registers into a temporary and one min into the accumulator. The operands do
// not change, but the processor does not know: every add and min executes. kAcc accumulators
// make kAcc independent chains (min has a latency of one cycle). The instructions go in pairs,
// two adds then their two mins, as a compiled micro-kernel orders them: on an AMD EPYC with
// AVX-512 (Zen 4) add, min, add, min ran uint16 lanes (then with the saturating add) at 8.0e10
// relaxations/s on one thread and the paired order at 1.04e11 (int32 the same either way), so
// the alternating order would put the ceiling below what the product reaches.
// clang-format off
#if defined(APSP_SIMD_AVX512) || defined(APSP_SIMD_AVX2)
#if defined(APSP_SIMD_AVX512)
#define APSP_R "zmm"
constexpr int kAcc = 24;  // zmm0-23; operands zmm24-25, sums zmm28-29
#define APSP_T0 "28"
#define APSP_T1 "29"
#define APSP_A "24"
#define APSP_B "25"
#else
#define APSP_R "ymm"
constexpr int kAcc = 12;  // ymm0-11; operands ymm12-13, sums ymm14-15
#define APSP_T0 "14"
#define APSP_T1 "15"
#define APSP_A "12"
#define APSP_B "13"
#endif
#define APSP_PAIR(ADD, MIN, i, j)                                                             \
  ADD " %%" APSP_R APSP_A ", %%" APSP_R APSP_B ", %%" APSP_R APSP_T0 "\n\t"                  \
  ADD " %%" APSP_R APSP_A ", %%" APSP_R APSP_B ", %%" APSP_R APSP_T1 "\n\t"                  \
  MIN " %%" APSP_R APSP_T0 ", %%" APSP_R #i ", %%" APSP_R #i "\n\t"                           \
  MIN " %%" APSP_R APSP_T1 ", %%" APSP_R #j ", %%" APSP_R #j "\n\t"
#define APSP_STEPS(ADD, MIN)                                                                  \
  APSP_PAIR(ADD, MIN, 0, 1) APSP_PAIR(ADD, MIN, 2, 3) APSP_PAIR(ADD, MIN, 4, 5)               \
  APSP_PAIR(ADD, MIN, 6, 7) APSP_PAIR(ADD, MIN, 8, 9) APSP_PAIR(ADD, MIN, 10, 11)
#define APSP_STEPS24(ADD, MIN)                                                                \
  APSP_STEPS(ADD, MIN)                                                                        \
  APSP_PAIR(ADD, MIN, 12, 13) APSP_PAIR(ADD, MIN, 14, 15) APSP_PAIR(ADD, MIN, 16, 17)         \
  APSP_PAIR(ADD, MIN, 18, 19) APSP_PAIR(ADD, MIN, 20, 21) APSP_PAIR(ADD, MIN, 22, 23)
#define APSP_X16                                                                                                      \
  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", \
      "xmm14", "xmm15"
template <class Lanes>
double registers_pass(long steps) {
  constexpr bool k16 = std::is_same_v<Lanes, U16>;
  for (long s = 0; s < steps; ++s) {
#if defined(APSP_SIMD_AVX512)
    if constexpr (k16)
      asm volatile(APSP_STEPS24("vpaddw", "vpminuw")::
                       : APSP_X16, "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm28", "xmm29");
    else
      asm volatile(APSP_STEPS24("vpaddd", "vpminsd")::
                       : APSP_X16, "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm28", "xmm29");
#else
    if constexpr (k16)
      asm volatile(APSP_STEPS("vpaddw", "vpminuw")::: APSP_X16);
    else
      asm volatile(APSP_STEPS("vpaddd", "vpminsd")::: APSP_X16);
#endif
  }
  return double(steps) * kAcc * Lanes::W;
}
#elif defined(APSP_SIMD_NEON)
constexpr int kAcc = 24;  // v0-23; operands v24-25, sums v28
#define APSP_STEP(ADD, MIN, T, i) \
  ADD " v28." T ", v24." T ", v25." T "\n\t" MIN " v" #i "." T ", v" #i "." T ", v28." T "\n\t"
#define APSP_STEPS(ADD, MIN, T)                                                                                       \
  APSP_STEP(ADD, MIN, T, 0)                                                                                           \
  APSP_STEP(ADD, MIN, T, 1)                                                                                           \
  APSP_STEP(ADD, MIN, T, 2) APSP_STEP(ADD, MIN, T, 3) APSP_STEP(ADD, MIN, T, 4) APSP_STEP(ADD, MIN, T, 5)             \
      APSP_STEP(ADD, MIN, T, 6) APSP_STEP(ADD, MIN, T, 7) APSP_STEP(ADD, MIN, T, 8) APSP_STEP(ADD, MIN, T, 9)         \
          APSP_STEP(ADD, MIN, T, 10) APSP_STEP(ADD, MIN, T, 11) APSP_STEP(ADD, MIN, T, 12) APSP_STEP(ADD, MIN, T, 13) \
              APSP_STEP(ADD, MIN, T, 14) APSP_STEP(ADD, MIN, T, 15) APSP_STEP(ADD, MIN, T, 16)                        \
                  APSP_STEP(ADD, MIN, T, 17) APSP_STEP(ADD, MIN, T, 18) APSP_STEP(ADD, MIN, T, 19)                    \
                      APSP_STEP(ADD, MIN, T, 20) APSP_STEP(ADD, MIN, T, 21) APSP_STEP(ADD, MIN, T, 22)                \
                          APSP_STEP(ADD, MIN, T, 23)
template <class Lanes>
double registers_pass(long steps) {
  constexpr bool k16 = std::is_same_v<Lanes, U16>;
  for (long s = 0; s < steps; ++s) {
    if constexpr (k16)
      asm volatile(APSP_STEPS("add", "umin", "8h")::
                       : "memory", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12",
                         "v13", "v14", "v15", "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v28");
    else
      asm volatile(APSP_STEPS("add", "smin", "4s")::
                       : "memory", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12",
                         "v13", "v14", "v15", "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v28");
  }
  return double(steps) * kAcc * Lanes::W;
}
// clang-format on
#else
// No assembly for this ISA: the same loop in intrinsics (what the compiler makes of it).
constexpr int kAcc = 8;
template <class Lanes>
double registers_pass(long steps) {
  Reg a = I32::splat(3), b = I32::splat(5), acc[kAcc];
  for (int k = 0; k < kAcc; ++k) acc[k] = I32::splat(1000 + k);
  for (long s = 0; s < steps; ++s) {
    in_register(b);
    for (int k = 0; k < kAcc; ++k) acc[k] = Lanes::add_min(acc[k], a, b);
  }
  int32_t out = 0;
  for (int k = 0; k < kAcc; ++k) {
    int32_t lanes[kInts];
    std::memcpy(lanes, &acc[k], sizeof lanes);
    for (int j = 0; j < kInts; ++j) out ^= lanes[j];
  }
  g_sink = out;
  return double(steps) * kAcc * Lanes::W;
}
#endif

}  // namespace apsp::host_ceiling
