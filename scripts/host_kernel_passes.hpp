// SPDX-License-Identifier: BSD-3-Clause
// The host product's micro-kernel (include/apsp/backends/host_microkernel.hpp) over operands that
// stay in L1, for the benchmarks that set it beside the register ceiling
// (include/apsp/backends/host_register_ceiling.hpp): scripts/cpu_ceiling.cpp, on every thread,
// and scripts/host_product_ab.cpp, beside the whole product in one process.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <type_traits>
#include <vector>

#include "apsp/backends/host_microkernel.hpp"
#include "apsp/backends/host_register_ceiling.hpp"

namespace apsp::host_bench {

/// `passes` passes of the micro-kernel over `depth` pivots: A MR rows of `depth` words, B
/// `depth` pivots of NV registers (both in L1 for the depths used); C (MR x NV registers) loaded
/// and stored per pass as in the product. Returns the relaxations done.
template <class Lanes, int MR, int NV>
double panels_pass(long passes, int depth) {
  using host_simd::I32;
  using Lane = typename Lanes::Lane;
  std::vector<int32_t> a(static_cast<size_t>(MR * depth));
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = int32_t(i % 97 + 1) * (std::is_same_v<Lanes, host_simd::U16> ? 0x10001 : 1);
  const size_t b_lanes = size_t(depth) * NV * Lanes::W;
  auto* b = static_cast<Lane*>(std::aligned_alloc(64, (b_lanes * sizeof(Lane) + 63) / 64 * 64));
  for (size_t i = 0; i < b_lanes; ++i) b[i] = Lane(i % 89 + 3);
  alignas(64) int32_t c[MR][NV][host_simd::kInts];
  for (int i = 0; i < MR; ++i)
    for (int v = 0; v < NV; ++v)
      for (int j = 0; j < host_simd::kInts; ++j) c[i][v][j] = 30000 + i + v + j;
  host_simd::MicroTile<Lanes, MR, NV> t;
  for (long s = 0; s < passes; ++s) {
    for (int i = 0; i < MR; ++i)
      for (int v = 0; v < NV; ++v) t.acc[i][v] = I32::load(c[i][v]);
    t.relax(a.data(), depth, b, depth);
    for (int i = 0; i < MR; ++i)
      for (int v = 0; v < NV; ++v) I32::store(c[i][v], t.acc[i][v]);
  }
  asm volatile("" : : "r"(&c[0][0][0]) : "memory");  // every entry of C is used
  host_ceiling::g_sink = c[0][0][0];
  std::free(b);
  return double(passes) * depth * MR * NV * Lanes::W;
}

}  // namespace apsp::host_bench
