// SPDX-License-Identifier: BSD-3-Clause
// The CPU's tile product and closure on a 16-bit matrix (solver/host/tiles16.hpp) against naive
// loops in int64, for the instruction set this file is compiled for (as host_tiles_checks.cpp:
// tests/CMakeLists.txt compiles it once per ISA, test_host_tiles.cpp runs it where the CPU has
// that ISA). Entries up to 2^15 - 1, the stage's bound, so that sums reach 2^16 - 2.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "apsp/solver/host/tiles16.hpp"
#include "host_checks_common.hpp"

namespace {

template <int Rows, int Regs>
struct Shape {
  static constexpr int kTileRows = Rows, kTileRegs = Regs;
  static constexpr bool kHostLanes16 = true;
};

using Matrix16 = apsp::test_checks::GuardedMatrix<uint16_t>;
using apsp::test_checks::aligned64;
constexpr uint16_t kGuard = 0xBEEF;

using Fill = uint16_t (*)(std::mt19937&);
uint16_t any_value(std::mt19937& r) { return uint16_t(r() % 32768); }
uint16_t near_cap(std::mt19937& r) { return uint16_t(32767 - r() % 4); }  // sums up to 2^16 - 2
uint16_t small(std::mt19937& r) { return uint16_t(r() % 1000); }

/// C (rows x cols) = min(C, A (min,+) Bk) on tiles of one matrix: C = tile (1, 2), A = (1, 0),
/// Bk = (0, 2); `packed`: the operands packed by the caller (a round's phase 3), else by the
/// product into scratch, where alias 1 makes A = C (P = tile (2, 2) closed) and 2 Bk = C.
template <class S>
std::string product_case(int B, int rows, int cols, int pivots, Fill fill, bool packed, int alias) {
  using T = apsp::Impl::HostTiles16<S>;
  std::mt19937 rng(uint32_t(B * 131 + rows * 7 + cols + pivots));
  Matrix16 m(3 * B, kGuard);
  for (int i = 0; i < 3 * B; ++i)
    for (int j = 0; j < 3 * B; ++j) *m.at(i, j) = fill(rng);
  const auto [c, a, bk] = apsp::test_checks::product_tiles(m, B, alias);
  const std::vector<int64_t> want = apsp::test_checks::naive_product(c, a, bk, m.ld, B, rows, cols, pivots);
  std::vector<int32_t> scratch(T::scratch_ints(B) + 16);
  if (packed) {
    const typename T::Packed s(B, aligned64(scratch), aligned64(scratch) + T::a_ints(B));
    T::pack_a(s, a, m.ld, rows, pivots);
    T::pack_bk(s, bk, m.ld, cols, pivots);
    T::product(c, m.ld, rows, cols, pivots, s);
  } else {
    T::product(c, a, bk, m.ld, rows, cols, pivots, aligned64(scratch), B);
  }
  return apsp::test_checks::first_mismatch("product", m, c, want, B);
}

/// Floyd-Warshall on one B x B tile over its first `pivots` pivots, against the naive loop.
template <class S>
std::string close_case(int B, int pivots, Fill fill) {
  using T = apsp::Impl::HostTiles16<S>;
  std::mt19937 rng(uint32_t(B * 7 + pivots));
  Matrix16 m(B, kGuard);
  for (int i = 0; i < B; ++i)
    for (int j = 0; j < B; ++j) *m.at(i, j) = i == j ? 0 : fill(rng);
  const std::vector<int64_t> want = apsp::test_checks::naive_closure(m.at(0, 0), m.ld, B, pivots);
  std::vector<int32_t> scratch(T::close_scratch_ints() + 16);
  T::close(m.at(0, 0), m.ld, B, pivots, aligned64(scratch));
  return apsp::test_checks::first_mismatch("close", m, m.at(0, 0), want, B);
}

template <class S>
std::string all_cases() {
  constexpr int step = apsp::Impl::HostTiles16<S>::kUnit;  // a multiple of MR and of NR16
  for (int B : {step, 2 * step, 16, step + 24}) {
    for (int pivots : {B, 1, B / 2 + 3}) {
      if (pivots > B) continue;
      // Whole tiles, and a tile cut at V (its rows and columns past it left as they are).
      for (const int cut : {B, B - 3}) {
        const std::string tag = " (B " + std::to_string(B) + ", " + std::to_string(cut) + " rows and columns, " +
                                std::to_string(pivots) + " pivots)";
        for (const Fill fill : {any_value, near_cap})
          for (const bool packed : {true, false})
            for (int alias = 0; alias < (packed || cut < B ? 1 : 3); ++alias)
              if (const std::string r = product_case<S>(B, cut, cut, pivots, fill, packed, alias); !r.empty()) {
                std::string what = fill == near_cap ? "near 2^15, " : "";
                what += packed ? "packed, " : "";
                what += alias == 1 ? "C = A, " : alias == 2 ? "C = Bk, " : "";
                what += r;
                what += tag;
                return what;
              }
      }
      for (const Fill fill : {small, near_cap})
        if (const std::string r = close_case<S>(B, pivots, fill); !r.empty())
          return r + " (B " + std::to_string(B) + ", pivots " + std::to_string(pivots) + ")";
    }
  }
  return "";
}

}  // namespace

/// Every case on the default block shapes (4 x 2 SSE, 6 x 2 AVX2, 8 x 2 AVX-512 and NEON) and
/// 3 x 1: "" if all pass, else the first failure.
std::string check_host_tiles16() {
  if (std::string r = all_cases<Shape<4, 2>>(); !r.empty()) return "4 x 2 blocks, " + r;
  if (std::string r = all_cases<Shape<6, 2>>(); !r.empty()) return "6 x 2 blocks, " + r;
  if (std::string r = all_cases<Shape<8, 2>>(); !r.empty()) return "8 x 2 blocks, " + r;
  if (std::string r = all_cases<Shape<3, 1>>(); !r.empty()) return "3 x 1 blocks, " + r;
  return "";
}
