// SPDX-License-Identifier: BSD-3-Clause
// How many relaxations d = min(d, a + b) a Hopper multiprocessor retires per clock, and which
// pipe limits it, for the ways of writing them:
//   - one fused add-min per relaxation (__viaddmin_s32, SASS VIADDMNMX, the ALU pipe);
//   - two adds and one three-input min per pair of relaxations (__vimin3_s32, SASS VIMNMX3 on
//     the ALU pipe; the adds as IADD3 on the ALU pipe, or as IMAD on the FMA pipe);
//   - mixes of the two: of a thread's 64 results, `kPairs` take the pair form, the rest the
//     fused form;
//   - the fused form on two 16-bit lanes (__viaddmin_u16x2, SASS VIADDMNMX.U16x2): each of the
//     64 registers holds two results, so one instruction is two relaxations (the product in
//     16-bit lanes of include/apsp/solver/gpu/packed_tiles.hpp).
// Each thread keeps an 8 x 8 block of results in registers, as phase 3 does, and relaxes it
// against two pivots per step. "registers": the operands stay in registers (an empty asm
// statement tells the compiler they changed, so the sums are recomputed each step but no
// instruction is spent on it): the instruction ceiling. "shared": the operands are read from
// shared memory laid out as phase 3 stages them (one 8-byte load per row of A for two pivots,
// two 16-byte loads per pivot row of B): the ceiling with operand loads.
// Built and run by scripts/minplus_mix.sh (nvcc -arch=sm_90); not part of the project's build.
#include <cuda_runtime.h>

#include "../include/apsp/backends/cuda_min_plus_pair.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CHECK(x)                                                                      \
  do {                                                                                \
    cudaError_t e_ = (x);                                                             \
    if (e_ != cudaSuccess) {                                                          \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

namespace {

constexpr int kThreads = 256;
constexpr int kR = 8, kC = 8;  // results per thread: 8 x 8
constexpr int kPivots = 16;    // a staged slice (shared variant)
constexpr int kBlock = 128;    // staged rows / columns
constexpr int kAPitch = kPivots + 4;
constexpr int kBPitch = kBlock + 4;

enum Adds { kImadAdds = 0, kIadd3Adds = 1, kPacked16 = 2 };

// 1 and 0, from constant memory (set at run time, so ptxas cannot fold them). In the register
// variant each pivot pair of a step takes its own entry, so that ptxas cannot share the sums of
// one pair with the next (the operands stay the same registers there).
__constant__ int kOnes[8];
__constant__ int kZeros[8];

// The pair form with IMAD adds is the kernels' own (include/apsp/backends/cuda_min_plus_pair.hpp, the 1 from
// constant memory here). With IADD3 adds, for comparison: a + b + 0 (the 0 from constant memory),
// three operands, which VIADDMNMX cannot take (ptxas fuses a plain add whose only use is a min
// into VIADDMNMX, and sees through empty asm statements too), then min.s32 twice (one VIMNMX3).
template <int kAdd>
__device__ __forceinline__ int min3_of_sums(int c, int a0, int b0, int a1, int b1, int one, int zero) {
  if constexpr (kAdd == kImadAdds) return apsp::cuda::min_plus_pair_sm90(c, a0, b0, a1, b1, one);
  int d;
  asm("{.reg .s32 x, y, t;\n\t"
      "add.s32 x, %1, %2;\n\t"
      "add.s32 x, x, %5;\n\t"
      "add.s32 y, %3, %4;\n\t"
      "add.s32 y, y, %5;\n\t"
      "min.s32 t, %6, x;\n\t"
      "min.s32 %0, t, y;}"
      : "=r"(d)
      : "r"(a0), "r"(b0), "r"(a1), "r"(b1), "r"(zero), "r"(c));
  return d;
}

__device__ __forceinline__ void opaque(int& v) { asm volatile("" : "+r"(v)); }

// Relaxes c against pivots p and p + 1: a0/a1 the rows' operands, b0/b1 the columns'.
template <int kPairs, int kAdd>
__device__ __forceinline__ void relax_two(int (&c)[kR][kC], const int (&a0)[kR], const int (&a1)[kR],
                                          const int (&b0)[kC], const int (&b1)[kC], int q) {
#pragma unroll
  for (int e = 0; e < kR * kC; ++e) {
    const int i = e / kC, j = e % kC;
    if constexpr (kAdd == kPacked16) {  // two results per register
      c[i][j] = int(__viaddmin_u16x2(unsigned(a0[i]), unsigned(b0[j]), unsigned(c[i][j])));
      c[i][j] = int(__viaddmin_u16x2(unsigned(a1[i]), unsigned(b1[j]), unsigned(c[i][j])));
    } else if (e < kPairs) {
      c[i][j] = min3_of_sums<kAdd>(c[i][j], a0[i], b0[j], a1[i], b1[j], kOnes[q], kZeros[q]);
    } else {
      c[i][j] = __viaddmin_s32(a0[i], b0[j], c[i][j]);
      c[i][j] = __viaddmin_s32(a1[i], b1[j], c[i][j]);
    }
  }
}

template <int kPairs, int kAdd, bool kShared>
__global__ void __launch_bounds__(kThreads, 2) relax_kernel(int steps, int* sink, long long* cycles) {
  __shared__ __align__(16) int a_slice[kBlock * kAPitch];
  __shared__ __align__(16) int b_slice[kPivots * kBPitch];
  const int t = threadIdx.x;
  for (int k = t; k < kBlock * kAPitch; k += kThreads) a_slice[k] = (k * 37 + blockIdx.x) & 1023;
  for (int k = t; k < kPivots * kBPitch; k += kThreads) b_slice[k] = (k * 53 + blockIdx.x) & 1023;
  __syncthreads();
  int c[kR][kC], a0[kR], a1[kR], b0[kC], b1[kC];
#pragma unroll
  for (int i = 0; i < kR; ++i) {
    a0[i] = (t * 7 + i * 13) & 1023, a1[i] = (t * 11 + i * 5) & 1023;
    b0[i] = (t * 3 + i * 17) & 1023, b1[i] = (t * 19 + i * 3) & 1023;
#pragma unroll
    for (int j = 0; j < kC; ++j) c[i][j] = kAdd == kPacked16 ? 0x7fff7fff : 1 << 29;
  }
  // the thread's place in a 128 x 128 tile, as phase 3 lays it out: runs of 4 rows (columns)
  // 64 apart
  const int r0 = t / 16 * 4, c0 = t % 16 * 4;
  const long long start = clock64();
  for (int s = 0; s < steps; ++s) {
    if constexpr (kShared) {
      int base = 0;  // unknown to the compiler: the loads stay inside the loop
      opaque(base);
      const int* a_rows = a_slice + base;
      const int* b_rows = b_slice + base;
#pragma unroll
      for (int p = 0; p < kPivots; p += 2) {
#pragma unroll
        for (int i = 0; i < kR; ++i) {
          const int row = r0 + (i / 4) * 64 + i % 4;
          const int2 v = *reinterpret_cast<const int2*>(&a_rows[row * kAPitch + p]);
          a0[i] = v.x, a1[i] = v.y;
        }
#pragma unroll
        for (int m = 0; m < 2; ++m) {
          const int4 u = *reinterpret_cast<const int4*>(&b_rows[p * kBPitch + c0 + m * 64]);
          const int4 w = *reinterpret_cast<const int4*>(&b_rows[(p + 1) * kBPitch + c0 + m * 64]);
          b0[4 * m] = u.x, b0[4 * m + 1] = u.y, b0[4 * m + 2] = u.z, b0[4 * m + 3] = u.w;
          b1[4 * m] = w.x, b1[4 * m + 1] = w.y, b1[4 * m + 2] = w.z, b1[4 * m + 3] = w.w;
        }
        relax_two<kPairs, kAdd>(c, a0, a1, b0, b1, 0);
      }
    } else {
#pragma unroll
      for (int p = 0; p < kPivots; p += 2) {
#pragma unroll
        for (int i = 0; i < kR; ++i) opaque(a0[i]), opaque(a1[i]), opaque(b0[i]), opaque(b1[i]);
        relax_two<kPairs, kAdd>(c, a0, a1, b0, b1, p / 2);
      }
    }
  }
  const long long stop = clock64();
  int x = 0;
#pragma unroll
  for (int i = 0; i < kR; ++i)
#pragma unroll
    for (int j = 0; j < kC; ++j) x ^= c[i][j];
  sink[blockIdx.x * kThreads + t] = x;
  if (t == 0) cycles[blockIdx.x] = stop - start;
}

struct Result {
  double seconds, relax_per_s, clock_ghz, relax_per_clock_sm;
};

template <int kPairs, int kAdd, bool kShared>
Result measure(int sms, int steps) {
  const int blocks = sms * 2;  // two 256-thread blocks per multiprocessor: one wave
  int* sink = nullptr;
  long long* cycles = nullptr;
  CHECK(cudaMalloc(&sink, sizeof(int) * blocks * kThreads));
  CHECK(cudaMalloc(&cycles, sizeof(long long) * blocks));
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  relax_kernel<kPairs, kAdd, kShared><<<blocks, kThreads>>>(steps / 10, sink, cycles);  // warm-up
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaEventRecord(e0));
  relax_kernel<kPairs, kAdd, kShared><<<blocks, kThreads>>>(steps, sink, cycles);
  CHECK(cudaEventRecord(e1));
  CHECK(cudaEventSynchronize(e1));
  CHECK(cudaGetLastError());
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, e0, e1));
  std::vector<long long> c(blocks);
  CHECK(cudaMemcpy(c.data(), cycles, sizeof(long long) * blocks, cudaMemcpyDeviceToHost));
  long long most = 0;
  for (long long v : c) most = v > most ? v : most;
  CHECK(cudaFree(sink));
  CHECK(cudaFree(cycles));
  const double relax = double(blocks) * kThreads * steps * kPivots * kR * kC * (kAdd == kPacked16 ? 2 : 1);
  Result r;
  r.seconds = ms * 1e-3;
  r.relax_per_s = relax / r.seconds;
  r.clock_ghz = most / r.seconds * 1e-9;  // the slowest block's cycles over the kernel's time
  r.relax_per_clock_sm = relax / (double(most) * sms);
  return r;
}

template <int kPairs, int kAdd, bool kShared>
void row(int sms, int steps, const char* only) {
  char name[96];
  std::snprintf(name, sizeof name, "%s pairs=%d/64 adds=%s", kShared ? "shared   " : "registers", kPairs,
                kAdd == kImadAdds    ? "IMAD"
                : kAdd == kIadd3Adds ? "IADD3"
                                     : "16x2 (two per register)");
  if (only && !std::string(name).starts_with(only)) return;
  const Result r = measure<kPairs, kAdd, kShared>(sms, steps);
  std::printf("%-40s %8.4f s %10.3e relax/s %6.3f GHz %7.2f relax/clock/SM\n", name, r.seconds, r.relax_per_s,
              r.clock_ghz, r.relax_per_clock_sm);
}

template <bool kShared>
void table(int sms, int steps, const char* only) {
  row<0, kImadAdds, kShared>(sms, steps, only);  // all fused: one VIADDMNMX per relaxation
  row<16, kImadAdds, kShared>(sms, steps, only);
  row<24, kImadAdds, kShared>(sms, steps, only);
  row<32, kImadAdds, kShared>(sms, steps, only);
  row<40, kImadAdds, kShared>(sms, steps, only);
  row<48, kImadAdds, kShared>(sms, steps, only);
  row<56, kImadAdds, kShared>(sms, steps, only);
  row<64, kImadAdds, kShared>(sms, steps, only);  // all pairs
  row<16, kIadd3Adds, kShared>(sms, steps, only);
  row<32, kIadd3Adds, kShared>(sms, steps, only);
  row<64, kIadd3Adds, kShared>(sms, steps, only);
  row<0, kPacked16, kShared>(sms, steps, only);  // VIADDMNMX.U16x2: two relaxations each
}

}  // namespace

int main(int argc, char** argv) {
  // minplus_mix [steps] [name prefix]: steps of 16 pivots per thread; the prefix picks rows
  const int steps = argc > 1 ? std::atoi(argv[1]) : 4000;
  const char* only = argc > 2 ? argv[2] : nullptr;
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int ones[8] = {1, 1, 1, 1, 1, 1, 1, 1}, zeros[8] = {};
  CHECK(cudaMemcpyToSymbol(kOnes, ones, sizeof ones));
  CHECK(cudaMemcpyToSymbol(kZeros, zeros, sizeof zeros));
  std::printf("device: %s, %d SMs; %d threads x 2 blocks per SM, 8 x 8 results per thread\n", prop.name,
              prop.multiProcessorCount, kThreads);
  table<false>(prop.multiProcessorCount, steps, only);
  table<true>(prop.multiProcessorCount, steps, only);
  return 0;
}
