// SPDX-License-Identifier: BSD-3-Clause
// The CPU tile product and closure (solver/host/tiles.hpp) against naive loops in int64, for the
// instruction set this file is compiled for: tests/CMakeLists.txt compiles it once per ISA the
// compiler has (scalar, SSE2, SSE4.1, AVX2, AVX-512; NEON on AArch64), each into an executable
// of its own with test_host_tiles.cpp, which runs it only where the CPU has the ISA. No static
// objects here: nothing compiled for the ISA runs before that check.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "apsp/core/constants.hpp"
#include "apsp/solver/host/tiles.hpp"
#include "host_checks_common.hpp"

namespace {

template <int Rows, int Regs>
struct Shape {
  static constexpr int kTileRows = Rows, kTileRegs = Regs, kLargestBlock = 1024;
  static constexpr bool kHostLanes16 = apsp::host_simd::kHas16;
};

using Matrix = apsp::test_checks::GuardedMatrix<int32_t>;
using apsp::test_checks::aligned64;
constexpr int32_t kGuard = -7;

using Fill = int32_t (*)(std::mt19937&, int i, int j);

/// C = min(C, A (min,+) Bk) on B x B tiles of one matrix (tile rows/columns ti, tj), against
/// int64 loops; `sixteen` receives the blocks taken in 16-bit lanes.
template <class S>
std::string product_case(int B, int pivots, Fill c_fill, Fill ab_fill, int& sixteen, int alias = 0) {
  std::mt19937 rng(uint32_t(B * 131 + pivots));
  Matrix m(3 * B, kGuard);
  for (int i = 0; i < 3 * B; ++i)
    for (int j = 0; j < 3 * B; ++j) *m.at(i, j) = (i / B == 1 && j / B == 2) ? c_fill(rng, i, j) : ab_fill(rng, i, j);
  const auto [c, a, bk] = apsp::test_checks::product_tiles(m, B, alias);
  const std::vector<int64_t> want = apsp::test_checks::naive_product(c, a, bk, m.ld, B, B, B, pivots);
  std::vector<int32_t> scratch(apsp::Impl::HostTiles<S>::scratch_bytes(B) / 4 + 16);
  sixteen = apsp::Impl::HostTiles<S>::product(c, a, bk, m.ld, B, pivots, aligned64(scratch));
  return apsp::test_checks::first_mismatch("product", m, c, want, B);
}

/// Floyd-Warshall on one B x B tile over its first `pivots` pivots, against the naive loop.
template <class S>
std::string close_case(int B, int pivots, Fill fill) {
  std::mt19937 rng(uint32_t(B * 7 + pivots));
  Matrix m(B, kGuard);
  for (int i = 0; i < B; ++i)
    for (int j = 0; j < B; ++j) *m.at(i, j) = i == j ? 0 : fill(rng, i, j);
  const std::vector<int64_t> want = apsp::test_checks::naive_closure(m.at(0, 0), m.ld, B, pivots);
  using H = apsp::Impl::HostTiles<S>;
  std::vector<int32_t> scratch(H::close_scratch_bytes(B) / 4 + 16);
  H::close(m.at(0, 0), m.ld, B, pivots, aligned64(scratch));
  return apsp::test_checks::first_mismatch("close", m, m.at(0, 0), want, B);
}

constexpr int32_t kInf = apsp::kInf;
// The 16-bit rule (solver/host/tiles.hpp): C at most 2^15 - 1 (the cap), operands anything.
int32_t small_c(std::mt19937& r, int, int) { return int32_t(r() % 32768); }
int32_t small_ab(std::mt19937& r, int, int) { return int32_t(r() % 40000); }  // some above the cap
// Entries at the cap and operands straddling it (capped sums up to 2^16 - 2: no lane may wrap).
int32_t edge_c(std::mt19937& r, int, int) { return int32_t(32766 + r() % 2); }
int32_t edge_ab(std::mt19937& r, int, int) { return int32_t(32766 + r() % 4); }
int32_t big_c(std::mt19937& r, int, int) { return int32_t(32768 + r() % 3); }
// Operands far above the cap, INF among them, against C below it.
int32_t wild_ab(std::mt19937& r, int, int) {
  const uint32_t x = r() % 8;
  return x == 0 ? kInf : x == 1 ? int32_t(65536 + r() % 100000) : int32_t(r() % 3000);
}
int32_t some_inf(std::mt19937& r, int, int) { return r() % 5 == 0 ? kInf : int32_t(r() % 1000); }
// INF beside finite entries at the edges of the 16-bit rule for blocks holding INF: C's below
// 2^15 - 1, operands' at most 2^14 - 1 (every such block takes 16-bit lanes); operands one above
// (none may); C's 2^15 - 1 itself beside INF (none may: it would read as INF).
int32_t inf_edge_c(std::mt19937& r, int, int) { return r() % 2 == 0 ? kInf : int32_t(32765 + r() % 2); }
int32_t inf_edge_ab(std::mt19937& r, int, int) { return r() % 5 == 0 ? kInf : int32_t(16382 + r() % 2); }
int32_t inf_over_ab(std::mt19937& r, int, int) { return r() % 5 == 0 ? kInf : int32_t(16384 + r() % 3); }
int32_t half_inf_c(std::mt19937& r, int, int) { return r() % 2 == 0 ? kInf : int32_t(r() % 1000); }
int32_t inf_cap_c(std::mt19937& r, int, int) {
  return r() % 2 == 0 ? kInf : r() % 2 == 0 ? 32767 : int32_t(r() % 1000);
}
// C: blocks in the left half fit 16 bits, in the right half one entry in 50 is INF.
int32_t mixed_c(std::mt19937& r, int, int j) { return j % 64 >= 32 && r() % 50 == 0 ? kInf : int32_t(r() % 30000); }

template <class S>
std::string all_cases() {
  constexpr int step = apsp::Impl::HostTiles<S>::kSubTile;  // a multiple of MR and of NR16
  // Whole blocks, and B = 16 and step + 16 (blocks at C's edges run on a padded copy).
  const int Bs[] = {step, 2 * step, 3 * step, 16, step + 16};
  const bool k16 = S::kHostLanes16;
  for (int B : Bs) {
    if (B > 256) continue;  // (time)
    for (int pivots : {B, B - 1, 1, B / 2 + 3}) {
      if (pivots < 1 || pivots > B) continue;
      const std::string tag = " (B " + std::to_string(B) + ", pivots " + std::to_string(pivots) + ")";
      int sixteen = 0;
      struct Case {
        const char* name;
        Fill c, ab;
        bool all16, none16;  // every block / no block in 16-bit lanes
      } cases[] = {{"small", small_c, small_ab, true, false},
                   {"edge", edge_c, edge_ab, true, false},
                   {"above 2^15 - 1", big_c, small_ab, false, true},
                   {"wild operands", small_c, wild_ab, true, false},
                   {"INF", some_inf, some_inf, true, false},
                   {"mixed", mixed_c, small_ab, false, false},
                   {"INF, edge", inf_edge_c, inf_edge_ab, true, false},
                   {"INF, operands above 2^14 - 1", half_inf_c, inf_over_ab, false, true},
                   {"INF beside 2^15 - 1", inf_cap_c, small_ab, false, true}};
      for (const Case& k : cases) {
        for (int alias = 0; alias < 3; ++alias) {
          const std::string r = product_case<S>(B, pivots, k.c, k.ab, sixteen, alias);
          std::string name = k.name;
          name += alias == 1 ? ", C = A" : alias == 2 ? ", C = Bk" : "";
          name += tag + ": ";
          if (!r.empty()) return name + r;
          const int blocks = ((B + S::kTileRows - 1) / S::kTileRows) *
                             ((B + apsp::Impl::HostTiles<S>::NR16 - 1) / apsp::Impl::HostTiles<S>::NR16);
          if (alias == 0 && k16 && k.all16 && sixteen != blocks)
            return name + std::to_string(sixteen) + " of " + std::to_string(blocks) + " blocks in 16-bit lanes";
          if (alias == 0 && k.none16 && sixteen != 0)
            return name + std::to_string(sixteen) + " blocks in 16-bit lanes, none may be";
          if (alias == 0 && !k16 && sixteen != 0) return name + "16-bit lanes in an int32 build";
        }
      }
      for (const Fill fill : {some_inf, small_ab})
        if (const std::string r = close_case<S>(B, pivots, fill); !r.empty()) {
          std::string what = fill == some_inf ? "close, INF" : "close, small";
          what += tag;
          what += ": ";
          what += r;
          return what;
        }
    }
  }
  return "";
}

}  // namespace

/// The ISA this file was compiled for, and every case on four block shapes (the defaults: 4 x 2
/// SSE, 6 x 2 AVX2, 8 x 2 AVX-512 and NEON): "" if all pass,
/// else the first failure.
const char* host_tiles_isa() { return apsp::host_simd::kIsa; }
std::string check_host_tiles() {
  if (std::string r = all_cases<Shape<4, 2>>(); !r.empty()) return "4 x 2 blocks, " + r;
  if (std::string r = all_cases<Shape<6, 2>>(); !r.empty()) return "6 x 2 blocks, " + r;
  if (std::string r = all_cases<Shape<8, 2>>(); !r.empty()) return "8 x 2 blocks, " + r;
  if (std::string r = all_cases<Shape<3, 1>>(); !r.empty()) return "3 x 1 blocks, " + r;
  return "";
}
