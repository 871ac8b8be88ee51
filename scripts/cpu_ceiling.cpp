// SPDX-License-Identifier: BSD-3-Clause
// The relaxation ceiling of this CPU, for the ISA the build targets (include/apsp/backends/host_simd.hpp):
// min(c, a + b) in int32 lanes (add + min) and in uint16 lanes (add + unsigned min),
// on one thread and on all (OpenMP), with
//   registers  every operand in a register: only the add-min instructions (the ceiling);
//   panels     the host product's own micro-kernel (include/apsp/backends/host_microkernel.hpp) over an
//              operand panel in L1, C loaded and stored once per pass of `depth` pivots;
//   saturating (x86) the 16-bit registers variant with the saturating add (vpaddusw) that the
//              product used before: it issues once a cycle on Emerald Rapids and Zen 4, the
//              plain add twice (not a ceiling: for comparison).
// Each thread measures its clock first (a chain of dependent adds, one per cycle), so that
// relaxations per clock per thread can be compared across machines. Built by
// scripts/cpu_ceiling.sh; prints one line per variant and a summary line per lane type.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "apsp/backends/host_register_ceiling.hpp"
#include "host_kernel_passes.hpp"  // the micro-kernel's pass

using namespace apsp::host_simd;
using namespace apsp::host_ceiling;
using apsp::host_bench::panels_pass;

namespace {

#if defined(APSP_SIMD_AVX512) || defined(APSP_SIMD_AVX2)
// As registers_pass<U16>, with vpaddusw in place of vpaddw.
double saturating_pass(long steps) {
  for (long s = 0; s < steps; ++s) {
#if defined(APSP_SIMD_AVX512)
    asm volatile(APSP_STEPS24("vpaddusw", "vpminuw")::
                     : APSP_X16, "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm28",
                       "xmm29");
#else
    asm volatile(APSP_STEPS("vpaddusw", "vpminuw")::: APSP_X16);
#endif
  }
  return double(steps) * kAcc * U16::W;
}
#endif

struct Result {
  double relax_per_s, hz, per_clock_per_thread;
};

// Runs pass(n) on `threads` threads for about `seconds`; every thread measures its clock first.
template <class Pass>
Result measure(int threads, double seconds, long n, Pass pass) {
  std::vector<double> hz(static_cast<size_t>(threads)), work(hz), secs(hz);
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    pass(n / 10);  // warm up (and let the clock settle under vector load)
    hz[size_t(t)] = clock_hz(0.05);
#pragma omp barrier
    double done = 0;
    const double t0 = now();
    double t1 = t0;
    while (t1 - t0 < seconds) {
      done += pass(n);
      t1 = now();
    }
    work[size_t(t)] = done;
    secs[size_t(t)] = t1 - t0;
  }
  double total = 0, hz_sum = 0, longest = 0;
  for (int t = 0; t < threads; ++t) {
    total += work[size_t(t)];
    hz_sum += hz[size_t(t)];
    longest = std::max(longest, secs[size_t(t)]);
  }
  const double rate = total / longest, mean_hz = hz_sum / threads;
  return {rate, mean_hz, rate / mean_hz / threads};
}

struct Variant {
  std::string kind, lanes, shape;
  Result (*run)(int threads, double seconds);
};

template <class Lanes>
Variant registers_variant(const char* lanes) {
  return {"registers", lanes, std::to_string(kAcc) + " acc", [](int threads, double seconds) {
            return measure(threads, seconds, 20000, [](long n) { return registers_pass<Lanes>(n); });
          }};
}
template <class Lanes, int MR, int NV>
Variant panels_variant(const char* lanes) {
  return {"panels", lanes, std::to_string(MR) + "x" + std::to_string(NV), [](int threads, double seconds) {
            return measure(threads, seconds, 2000, [](long n) { return panels_pass<Lanes, MR, NV>(n, 128); });
          }};
}

template <class Lanes>
void add_variants(std::vector<Variant>& v, const char* name) {
  v.push_back(registers_variant<Lanes>(name));
#if defined(APSP_SIMD_AVX512) || defined(APSP_SIMD_AVX2)
  if constexpr (std::is_same_v<Lanes, U16>)
    v.push_back({"saturating", name, std::to_string(kAcc) + " acc", [](int threads, double seconds) {
                   return measure(threads, seconds, 20000, [](long n) { return saturating_pass(n); });
                 }});
#endif
    // Blocks of C (rows x registers) that fit the register file with their operands.
#if defined(APSP_SIMD_AVX512)
  v.push_back(panels_variant<Lanes, 8, 1>(name));
  v.push_back(panels_variant<Lanes, 8, 2>(name));
  v.push_back(panels_variant<Lanes, 6, 3>(name));
  v.push_back(panels_variant<Lanes, 12, 2>(name));
  v.push_back(panels_variant<Lanes, 4, 4>(name));
  v.push_back(panels_variant<Lanes, 6, 4>(name));
#elif defined(APSP_SIMD_NEON)
  v.push_back(panels_variant<Lanes, 8, 1>(name));
  v.push_back(panels_variant<Lanes, 8, 2>(name));
  v.push_back(panels_variant<Lanes, 6, 2>(name));
  v.push_back(panels_variant<Lanes, 4, 4>(name));
#else
  v.push_back(panels_variant<Lanes, 4, 2>(name));
  v.push_back(panels_variant<Lanes, 6, 2>(name));
  v.push_back(panels_variant<Lanes, 3, 3>(name));
#endif
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 0.3;
  const std::string only = argc > 2 ? argv[2] : "";  // variants whose "kind lanes shape" contains this
  const int all = omp_get_max_threads();
  std::vector<Variant> variants;
  add_variants<I32>(variants, "int32");
  if constexpr (kHas16) add_variants<U16>(variants, "uint16");
  std::printf("ISA %s (%d-byte registers), %d threads at most (OMP_NUM_THREADS), %.2f s per measurement\n", kIsa,
              kBytes, all, seconds);
  std::printf("%-10s %-7s %-6s %7s %12s %8s %22s\n", "variant", "lanes", "shape", "threads", "relax/s", "GHz",
              "relax/clock/thread");
  struct Best {
    double rate = 0, per_clock = 0;
    std::string what;
  } best[2][2];  // [int32, uint16][1 thread, all]
  std::vector<int> counts{1};
  if (all > 1) counts.push_back(all);
  for (const Variant& v : variants)
    for (size_t n = 0; n < counts.size(); ++n) {
      if ((v.kind + " " + v.lanes + " " + v.shape).find(only) == std::string::npos) continue;
      const Result r = v.run(counts[n], seconds);
      std::printf("%-10s %-7s %-6s %7d %12.3e %8.2f %22.2f\n", v.kind.c_str(), v.lanes.c_str(), v.shape.c_str(),
                  counts[n], r.relax_per_s, r.hz / 1e9, r.per_clock_per_thread);
      std::fflush(stdout);
      Best& b = best[v.lanes == "int32" ? 0 : 1][n];
      if (v.kind == "registers" && r.relax_per_s > b.rate) b = {r.relax_per_s, r.per_clock_per_thread, v.shape};
    }
  for (int l = 0; l < (kHas16 ? 2 : 1); ++l)
    for (size_t n = 0; n < counts.size(); ++n)
      std::printf("CEILING isa=%s lanes=%s threads=%d relax_per_s=%.3e relax_per_clock_per_thread=%.2f shape=%s\n",
                  kIsa, l == 0 ? "int32" : "uint16", counts[n], best[l][n].rate, best[l][n].per_clock,
                  best[l][n].what.c_str());
  return 0;
}
