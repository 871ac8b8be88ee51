// SPDX-License-Identifier: BSD-3-Clause
// Two versions of the CPU's phase-3 tile product (include/apsp/solver/host/tiles.hpp) in one
// process, run in alternation: the way to compare a change to the micro-kernel on a host whose
// speed drifts by tens of percent from one second to the next (the 2-vCPU EPYC), where runs of two
// binaries a second apart cannot. Built by scripts/host_product_ab.sh, which compiles the
// product part twice, each from its own include folder with the project's namespace renamed
// (-Dapsp=apsp_a, -Dapsp=apsp_b), and this file's main once.
//
// The workload is phase 3 of one round as the solver runs it on one thread: a V = nb * B matrix
// of random distances 1..1000 (every block takes 16-bit lanes) or 20000..100000 (none does), each
// tile row's A and each tile column's Bk packed once, then every tile's product, row by row.
// Each round runs both versions, in alternating order, then the register ceiling's add-min loop
// (include/apsp/backends/host_register_ceiling.hpp) and the product's micro-kernel over one
// block's operands, B pivots deep (host_kernel_passes.hpp; in L1 at the default B), for a quarter
// of the product's relaxations each: the result is
// each version's median rate, the per-round ratio B/A (median and quartiles), and each version's
// and the L1 micro-kernel's rate against the register loop timed in the same round (medians):
// what the product loses to the operands and C beyond L1, apart from what the CPU's state that
// moment (its clock, a busy neighbour) takes from every loop alike. And the clock, measured after
// each round as scripts/cpu_ceiling.cpp measures it, with the register loop per clock.
#include <cstdint>
#include <cstdlib>

#if defined(APSP_AB_PART)  // the product, compiled once per version
#include "apsp/solver/host/tiles.hpp"

namespace {
struct Traits {
  static constexpr int kTileRows = APSP_AB_ROWS, kTileRegs = APSP_AB_REGS;
  static constexpr bool kHostLanes16 = true;
  static constexpr int kLargestBlock = 1024;
};
using Tiles = apsp::Impl::HostTiles<Traits>;
using Operands = Tiles::Operands;
}  // namespace

#define APSP_AB_NAME2(a, b) a##_##b
#define APSP_AB_NAME(a, b) APSP_AB_NAME2(a, b)

/// int32 of one packed A (`a_side`) or Bk.
extern "C" int64_t APSP_AB_NAME(operand_ints, APSP_AB_PART)(int B, int a_side) {
  return int64_t(a_side != 0 ? Operands::a_ints(B) : Operands::bk_ints(B));
}
/// Packs tile row t's A into a + t * operand_ints(B, 1) and tile column t's Bk likewise, t < nb.
extern "C" void APSP_AB_NAME(pack, APSP_AB_PART)(const int32_t* m, int32_t* a, int32_t* bk, int B, int nb) {
  const int64_t n = int64_t(B) * nb;
  for (int t = 0; t < nb; ++t) {
    const Operands::Packed p(B, a + int64_t(t) * int64_t(Operands::a_ints(B)),
                             bk + int64_t(t) * int64_t(Operands::bk_ints(B)));
    Operands::pack_a_whole(p, m + int64_t(t) * B * n, n, B, B);
    Operands::pack_bk_whole(p, m + int64_t(t) * B, n, B, B);
  }
}
/// Every tile's product against its packed operands; returns the blocks that took 16-bit lanes.
extern "C" int64_t APSP_AB_NAME(phase3, APSP_AB_PART)(int32_t* m, const int32_t* a, const int32_t* bk, int B, int nb) {
  const int64_t n = int64_t(B) * nb;
  int64_t sixteen = 0;
  for (int i = 0; i < nb; ++i)
    for (int j = 0; j < nb; ++j) {
      const Operands::Packed p(B, const_cast<int32_t*>(a + int64_t(i) * int64_t(Operands::a_ints(B))),
                               const_cast<int32_t*>(bk + int64_t(j) * int64_t(Operands::bk_ints(B))));
      sixteen += Tiles::product(m + int64_t(i) * B * n + int64_t(j) * B, n, B, B, B, p);
    }
  return sixteen;
}

#else  // main

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "host_kernel_passes.hpp"

extern "C" int64_t operand_ints_a(int, int);
extern "C" int64_t operand_ints_b(int, int);
extern "C" void pack_a(const int32_t*, int32_t*, int32_t*, int, int);
extern "C" void pack_b(const int32_t*, int32_t*, int32_t*, int, int);
extern "C" int64_t phase3_a(int32_t*, const int32_t*, const int32_t*, int, int);
extern "C" int64_t phase3_b(int32_t*, const int32_t*, const int32_t*, int, int);

namespace {

std::vector<int32_t> aligned_ints(size_t count) { return std::vector<int32_t>(count + 16); }
int32_t* aligned(std::vector<int32_t>& v) {  // 64-byte aligned start within v
  return v.data() + (16 - reinterpret_cast<uintptr_t>(v.data()) % 64 / 4) % 16;
}
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int B = argc > 1 ? std::atoi(argv[1]) : 192;
  const int nb = argc > 2 ? std::atoi(argv[2]) : 21;
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 30;
  const bool heavy = argc > 4 && std::string(argv[4]) == "heavy";
  if (B <= 0 || nb <= 0 || rounds <= 0) {
    std::fprintf(stderr, "usage: %s [B=192] [tiles per side=21] [rounds=30] [light|heavy]\n", argv[0]);
    return 2;
  }
  const int64_t n = int64_t(B) * nb;
  std::mt19937 rng(1);
  std::uniform_int_distribution<int32_t> w(heavy ? 20000 : 1, heavy ? 100000 : 1000);
  std::vector<int32_t> m0(size_t(n * n));
  for (int32_t& x : m0) x = w(rng);
  // Each version its own matrix and operands (the same values), so neither reads the other's.
  // 64-byte aligned as the solver's matrix is: a vector's data (malloc's, 16 bytes past a page
  // at this size) put every row of C across one more cache line, and on the Zen 5 EPYC the
  // product read 0.78 of the register loop so against 0.84-0.85 aligned (docs/results.md).
  std::vector<int32_t> ma_store = aligned_ints(m0.size()), mb_store = aligned_ints(m0.size());
  int32_t* const ma = aligned(ma_store);
  int32_t* const mb = aligned(mb_store);
  std::copy(m0.begin(), m0.end(), ma);
  std::copy(m0.begin(), m0.end(), mb);
  std::vector<int32_t> aa = aligned_ints(size_t(operand_ints_a(B, 1) * nb)),
                       ka = aligned_ints(size_t(operand_ints_a(B, 0) * nb)),
                       ab = aligned_ints(size_t(operand_ints_b(B, 1) * nb)),
                       kb = aligned_ints(size_t(operand_ints_b(B, 0) * nb));
  pack_a(ma, aligned(aa), aligned(ka), B, nb);
  pack_b(mb, aligned(ab), aligned(kb), B, nb);
  const double relaxations = double(nb) * nb * B * double(B) * B;
  std::vector<double> rate_a, rate_b, ratio, against_a, against_b, against_l1, hz, register_per_clock;
  int64_t sixteen = 0;
  using apsp::host_simd::U16;
  const long register_steps = long(relaxations / 4 / (apsp::host_ceiling::kAcc * U16::W));
  const long l1_passes = long(relaxations / 4 / (double(B) * APSP_AB_ROWS * APSP_AB_REGS * U16::W));
  for (int r = 0; r < rounds; ++r) {
    double seconds[2] = {0, 0};
    for (int k = 0; k < 2; ++k) {
      const int v = k ^ (r & 1);
      const double t0 = apsp::host_ceiling::now();
      sixteen += v == 0 ? phase3_a(ma, aligned(aa), aligned(ka), B, nb) : phase3_b(mb, aligned(ab), aligned(kb), B, nb);
      seconds[v] = apsp::host_ceiling::now() - t0;
    }
    const double t0 = apsp::host_ceiling::now();
    const double register_work = apsp::host_ceiling::registers_pass<U16>(register_steps);
    const double t1 = apsp::host_ceiling::now();
    const double register_rate = register_work / (t1 - t0);
    const double l1_work = apsp::host_bench::panels_pass<U16, APSP_AB_ROWS, APSP_AB_REGS>(l1_passes, B);
    const double l1_rate = l1_work / (apsp::host_ceiling::now() - t1);
    rate_a.push_back(relaxations / seconds[0]);
    rate_b.push_back(relaxations / seconds[1]);
    ratio.push_back(seconds[0] / seconds[1]);
    against_a.push_back(rate_a.back() / register_rate);
    against_b.push_back(rate_b.back() / register_rate);
    against_l1.push_back(l1_rate / register_rate);
    hz.push_back(apsp::host_ceiling::clock_hz(0.005));
    register_per_clock.push_back(register_rate / hz.back());
  }
  if (!std::equal(ma, ma + m0.size(), mb)) {
    std::fprintf(stderr, "the two versions' matrices differ\n");
    return 1;
  }
  std::vector<double> q = ratio;
  std::sort(q.begin(), q.end());
  std::printf("B = %d, %d x %d tiles, %s weights, %d rounds, %lld blocks in 16-bit lanes\n", B, nb, nb,
              heavy ? "heavy" : "light", rounds, static_cast<long long>(sixteen));
  std::printf("A %.3e relaxations/s (median) | B %.3e | B/A per round: median %.3f, quartiles %.3f-%.3f\n",
              median(rate_a), median(rate_b), median(ratio), q[q.size() / 4], q[3 * q.size() / 4]);
  std::printf("against the register loop in the same round: A %.3f | B %.3f | L1 micro-kernel %.3f (medians)\n",
              median(against_a), median(against_b), median(against_l1));
  std::printf("clock after each round: %.2f GHz, the register loop %.2f relaxations per clock (medians)\n",
              median(hz) / 1e9, median(register_per_clock));
  return 0;
}

#endif
