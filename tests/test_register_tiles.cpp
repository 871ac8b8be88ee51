// SPDX-License-Identifier: BSD-3-Clause
// The GPU shape of the tile operations (solver/register_tiles.hpp) run on the host, for a GPU
// backend's tile shape whose traits compile there (HIP's: no AMD GPU was at hand to run it on):
// a team is that many host threads with a real barrier, each running the very function a GPU
// thread runs, and the result is compared with min-plus products and Floyd-Warshall computed
// entry by entry.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "apsp/backends/backend_traits.hpp"
#include "apsp/core/constants.hpp"
#include "apsp/solver/blocked_fw.hpp"
#include "apsp/solver/lane_tally.hpp"
#include "apsp/solver/register_tiles.hpp"
#include "apsp/solver/round_operands.hpp"
#include "apsp/solver/row_block.hpp"
#include "reference.hpp"

// Outside the unnamed namespace: nvcc's device pass, which compiles the barrier out, would
// otherwise warn that arrive_and_wait() is never referenced.
namespace register_tiles_test {

/// A team of host threads: team_rank() and team_barrier(), all that register_tiles.hpp asks of a team.
class HostTeam {
 public:
  struct Barrier {
    std::mutex m;
    std::condition_variable cv;
    int size, waiting = 0;
    long generation = 0;
    bool all = true, last_all = true;  // the vote being taken, and the last one's outcome
    explicit Barrier(int n) : size(n) {}
    /// Waits for the whole team; returns whether every thread passed v = true.
    bool arrive_and_wait(bool v = true) {
      std::unique_lock<std::mutex> lock(m);
      const long g = generation;
      all = all && v;
      if (++waiting == size) {
        waiting = 0;
        last_all = all;
        all = true;
        ++generation;
        cv.notify_all();
      } else {
        cv.wait(lock, [&] { return generation != g; });
      }
      // The next vote cannot end before this thread joins it: last_all is still this one's.
      return last_all;
    }
  };
  HostTeam(int rank, Barrier* barrier) : rank_(rank), barrier_(barrier) {}
  // Host and device functions like the tile code that calls them (a CUDA build compiles this
  // file with nvcc); they only ever run on the host.
  KOKKOS_INLINE_FUNCTION int team_rank() const { return rank_; }
  KOKKOS_INLINE_FUNCTION void team_barrier() const {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    barrier_->arrive_and_wait();
#endif
  }
  /// A barrier that returns whether v holds on every thread (CUDA's __syncthreads_and).
  KOKKOS_INLINE_FUNCTION bool team_all(bool v) const {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    return barrier_->arrive_and_wait(v);
#else
    return v;
#endif
  }

  /// Runs f(team) on `threads` threads, one team.
  template <class F>
  static void run(int threads, F f) {
    Barrier barrier(threads);
    std::vector<std::thread> pool;
    pool.reserve(size_t(threads));
    for (int r = 0; r < threads; ++r) pool.emplace_back([&, r] { f(HostTeam(r, &barrier)); });
    for (auto& t : pool) t.join();
  }

 private:
  int rank_;
  Barrier* barrier_;
};

}  // namespace register_tiles_test

namespace {

using apsp::Impl::Fixed;
using apsp::test::first_difference;
using register_tiles_test::HostTeam;

template <class Traits>
struct Shape {
  using Ops = apsp::Impl::RegisterTiles<Traits>;
  using Layout = apsp::Impl::SliceLayout<Traits>;
  static int threads(int B) { return Traits::team_size(B); }
  /// Slice buffers as a GPU team's scratch, 16-byte aligned, every entry a value no staged
  /// entry has (a run left unstaged shows in the result).
  static std::vector<int32_t> scratch(int B) {
    return std::vector<int32_t>(size_t(Layout::kBuffers) * apsp::Impl::slice_buffer_ints<Traits>(B) + 4, -7777);
  }
};

/// A random ld x ld matrix of weights in [0, 100] (and kInf in one entry of `inf_one_in`).
std::vector<int32_t> random_matrix(int ld, unsigned seed, int inf_one_in = 7) {
  std::mt19937 rng(seed);
  std::vector<int32_t> m(size_t(ld) * size_t(ld));
  for (auto& v : m) v = rng() % unsigned(inf_one_in) == 0 ? apsp::kInf : int32_t(rng() % 101);
  return m;
}

/// Entry (r, j) of the matrix of leading dimension ld whose corner is at `corner`.
size_t at(int64_t corner, int64_t r, int64_t ld, int64_t j) { return size_t(corner + r * ld + j); }

/// The tile product entry by entry: c(r, j) = min(c(r, j), min over p < pivots of a(r, p) + bk(p, j)).
void reference_product(std::vector<int32_t>& m, int64_t ld, int64_t c, int64_t a, int64_t bk, int B, int pivots) {
  std::vector<int32_t> out(size_t(B) * size_t(B));
  for (int r = 0; r < B; ++r)
    for (int j = 0; j < B; ++j) {
      int32_t best = m[at(c, r, ld, j)];
      for (int p = 0; p < pivots; ++p) {
        const int32_t s = m[at(a, r, ld, p)] + m[at(bk, p, ld, j)];
        best = s < best ? s : best;
      }
      out[at(0, r, B, j)] = best;
    }
  for (int r = 0; r < B; ++r)
    for (int j = 0; j < B; ++j) m[at(c, r, ld, j)] = out[at(0, r, B, j)];
}

template <class Traits>
void expect_products_match(int B, int pivots, bool tuned, bool c_is_a) {
  using S = Shape<Traits>;
  const int ld = 3 * B + 8;  // the tiles (0, 0), (0, 1), (1, 0) of a wider matrix
  std::vector<int32_t> m = random_matrix(ld, unsigned(B * 131 + pivots * 7 + tuned + 2 * c_is_a));
  const int64_t a = c_is_a ? 0 : int64_t(B) * ld, bk = B, c = 0;  // phase 2: C is A
  // Past `pivots` (the last round's padding past V) A's columns and Bk's rows are INF, as in a solve.
  for (int r = 0; r < B; ++r)
    for (int p = pivots; p < B; ++p) m[at(a, r, ld, p)] = m[at(bk, p, ld, r)] = apsp::kInf;
  std::vector<int32_t> expected = m;
  reference_product(expected, ld, c, a, bk, B, pivots);
  std::vector<int32_t> slices = S::scratch(B);
  HostTeam::run(S::threads(B), [&](const HostTeam& team) {
    if (tuned) {
      constexpr int kB = Traits::kMaxBlock, kS = Traits::slice_depth(kB);
      S::Ops::product(team, m.data() + c, m.data() + a, m.data() + bk, ld, Fixed<kB>{}, Fixed<kS>{}, Fixed<kB / kS>{},
                      slices.data());
    } else {
      const int depth = Traits::slice_depth(B);
      S::Ops::product(team, m.data() + c, m.data() + a, m.data() + bk, ld, B, depth, (pivots + depth - 1) / depth,
                      slices.data());
    }
  });
  EXPECT_EQ(first_difference(m, expected, ld), "")
      << "B " << B << ", pivots " << pivots << (tuned ? ", tuned" : ", general") << (c_is_a ? ", C is A" : "");
}

template <class Traits>
void expect_closure_matches(int B, int pivots) {
  using S = Shape<Traits>;
  const int ld = B + 4;
  std::vector<int32_t> m = random_matrix(ld, unsigned(B * 17 + pivots), 3);
  for (int r = 0; r < B; ++r) m[at(0, r, ld, r)] = 0;
  std::vector<int32_t> expected = m;
  for (int p = 0; p < pivots; ++p)
    for (int r = 0; r < B; ++r)
      for (int j = 0; j < B; ++j) {
        const int32_t s = expected[at(0, r, ld, p)] + expected[at(0, p, ld, j)];
        if (s < expected[at(0, r, ld, j)]) expected[at(0, r, ld, j)] = s;
      }
  std::vector<int32_t> buffers(size_t(4) * size_t(B), -7777);
  HostTeam::run(S::threads(B),
                [&](const HostTeam& team) { S::Ops::close(team, m.data(), ld, B, pivots, buffers.data()); });
  EXPECT_EQ(first_difference(m, expected, ld), "") << "B " << B << ", pivots " << pivots;
}

using Hip = apsp::HipBackendTraits;

TEST(RegisterTilesHipShape, TunedProductMatchesEntryByEntry) {
  expect_products_match<Hip>(Hip::kMaxBlock, Hip::kMaxBlock, true, false);
  expect_products_match<Hip>(Hip::kMaxBlock, Hip::kMaxBlock, true, true);
}

TEST(RegisterTilesHipShape, GeneralProductsAtEveryBlockAndShortRounds) {
  for (int B = Hip::kMinBlock; B <= Hip::kMaxBlock; B *= 2)
    for (int pivots : {B, B - 1, B / 2 + 3, 1}) expect_products_match<Hip>(B, pivots, false, pivots % 2 == 1);
}

TEST(RegisterTilesHipShape, ClosureMatchesFloydWarshall) {
  for (int B = Hip::kMinBlock; B <= Hip::kMaxBlock; B *= 2)
    for (int pivots : {B, B - 5}) expect_closure_matches<Hip>(B, pivots);
}

TEST(RegisterTilesHipShape, PairFormIsTwoRelaxationsUpToInfinity) {
  const int32_t inf = apsp::kInf;
  for (int32_t c : {0, 5, 100, inf})
    for (int32_t a0 : {0, 3, inf})
      for (int32_t a1 : {0, 7, inf})
        for (int32_t b0 : {0, 2, inf})
          for (int32_t b1 : {1, 9, inf}) {
            const int64_t exact = std::min({int64_t(c), int64_t(a0) + b0, int64_t(a1) + b1});
            EXPECT_EQ(Hip::min_plus_pair(c, a0, b0, a1, b1, Hip::unit()), exact);
          }
}

/// The HIP tile shape with the tuned product in 16-bit lanes where a tile allows it, as CUDA's
/// on sm_90 (packed_tiles.hpp), its packed add-min emulated: the packed product's staging,
/// layout, vote and exactness run here through the very templates a GPU runs.
struct PackedHip : apsp::HipBackendTraits {
  static constexpr bool kPackedTiles = true;
  static inline std::atomic<int> packed_teams{0};  // teams whose vote chose the packed product
  KOKKOS_INLINE_FUNCTION static int32_t packed_min_plus(int32_t c, int32_t a, int32_t b) {
    return apsp::Impl::portable_packed_min_plus(c, a, b);
  }
  template <class Team>
  KOKKOS_INLINE_FUNCTION static bool team_all(const Team& team, bool v) {
    const bool all = team.team_all(v);
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    if (all && team.team_rank() == 0) ++packed_teams;
#endif
    return all;
  }
};

/// What packed_product_matches builds: C's entries uniform in [0, c_max] (and INF one in
/// `c_inf_one_in` if not 0), the operands' in [0, op_max] with INF one in 9 and op_max itself
/// on a whole pivot of each (so that the largest sums occur; where C holds INF, one INF entry
/// of C has no other path, and another no path at all), `planted` (if not 0) in one entry of C; C may be A (phase 2);
/// `operands_small` is what the caller tells the product.
struct PackedCase {
  int c_max, op_max;
  int32_t planted = 0;
  bool c_is_a = false;
  int c_inf_one_in = 0;
  bool operands_small = false;
};

/// The tuned product C = min(C, A (min,+) Bk) on tiles (0, 0), (1, 0) (or C itself: phase 2)
/// and (0, 1) of a wider matrix, built as `pc` says, compared with the product entry by entry.
/// Returns whether the team took the packed product.
bool packed_product_matches(const PackedCase& pc, unsigned seed) {
  using S = Shape<PackedHip>;
  constexpr int kB = PackedHip::kMaxBlock, kS = PackedHip::slice_depth(kB);
  const int ld = 3 * kB + 8;
  std::mt19937 rng(seed);
  std::vector<int32_t> m(size_t(ld) * size_t(ld));
  for (auto& v : m) v = rng() % 9 == 0 ? apsp::kInf : int32_t(rng() % unsigned(pc.op_max + 1));
  const int64_t a = pc.c_is_a ? 0 : int64_t(kB) * ld, bk = kB, c = 0;
  for (int r = 0; r < kB; ++r) m[at(a, r, ld, 7)] = m[at(bk, 7, ld, r)] = pc.op_max;
  for (int r = 0; r < kB; ++r)
    for (int j = 0; j < kB; ++j)
      m[at(c, r, ld, j)] = pc.c_inf_one_in != 0 && rng() % unsigned(pc.c_inf_one_in) == 0
                               ? apsp::kInf
                               : int32_t(rng() % unsigned(pc.c_max + 1));
  if (pc.planted != 0) m[at(c, kB / 3, ld, kB / 5)] = pc.planted;
  if (pc.c_inf_one_in != 0) {
    // Entry (kB / 2, kB / 4) of C, INF, reached only through pivot 7: the largest sum.
    const int r = kB / 2, j = kB / 4;
    for (int p = 0; p < kB; ++p)
      if (p != 7) m[at(a, r, ld, p)] = m[at(bk, p, ld, j)] = apsp::kInf;
    m[at(c, r, ld, j)] = apsp::kInf;
    // Entry (kB / 2 + 1, kB / 4 + 1), INF, whose every sum has one INF operand: INF stays.
    for (int p = 0; p < kB; ++p) {
      m[at(a, r + 1, ld, p)] = p == 3 ? 1 : apsp::kInf;
      m[at(bk, p, ld, j + 1)] = p == 3 ? apsp::kInf : 2;
    }
    m[at(c, r + 1, ld, j + 1)] = apsp::kInf;
  }
  std::vector<int32_t> expected = m;
  reference_product(expected, ld, c, a, bk, kB, kB);
  std::vector<int32_t> slices = S::scratch(kB);
  static const int32_t kMarked = 1;
  const int before = PackedHip::packed_teams.load();
  HostTeam::run(S::threads(kB), [&](const HostTeam& team) {
    S::Ops::product(team, m.data() + c, m.data() + a, m.data() + bk, ld, Fixed<kB>{}, Fixed<kS>{}, Fixed<kB / kS>{},
                    slices.data(), pc.operands_small ? apsp::OperandMarks{&kMarked, &kMarked} : apsp::OperandMarks{});
  });
  EXPECT_EQ(first_difference(m, expected, ld), "")
      << "c_max " << pc.c_max << ", op_max " << pc.op_max << ", planted " << pc.planted << ", C INF one in "
      << pc.c_inf_one_in << (pc.c_is_a ? ", C is A" : "") << (pc.operands_small ? ", operands small" : "");
  return PackedHip::packed_teams.load() != before;
}

TEST(PackedTiles, AddMinPerHalfWord) {
  for (uint32_t c : {0u, 5u, 0x7fffu, 0xffffu})
    for (uint32_t a : {0u, 3u, 0x7fffu})
      for (uint32_t b : {0u, 9u, 0x7fffu}) {
        const uint32_t lo = std::min((a + b) & 0xffffu, c), hi = std::min((b + 2 * a) & 0xffffu, c ^ 1u);
        const int32_t got = apsp::Impl::portable_packed_min_plus(int32_t(c | (c ^ 1u) << 16), int32_t(a | a << 16),
                                                                 int32_t(b | (b + a) << 16));
        EXPECT_EQ(uint32_t(got), lo | hi << 16) << c << " " << a << " " << b;
      }
}

TEST(PackedTiles, TakenWhereEveryEntryOfCFitsAndExact) {
  // Sums below, at and above the cap, operands above it and INF: every result as in int32.
  EXPECT_TRUE(packed_product_matches({32767, 16000}, 1));
  EXPECT_TRUE(packed_product_matches({32767, 40000}, 2));
  EXPECT_TRUE(packed_product_matches({1000, 600}, 3));
  EXPECT_TRUE(packed_product_matches({30000, 20000, 32767}, 4));  // an entry at the cap itself
  // Told that the operands are small changes nothing where C holds no INF.
  EXPECT_TRUE(packed_product_matches({32767, 40000, 0, false, 0, true}, 9));
}

TEST(PackedTiles, PhaseTwoWithCAsTheOperand) { EXPECT_TRUE(packed_product_matches({20000, 12000, 0, true}, 5)); }

TEST(PackedTiles, Int32WhereAnEntryOfCDoesNotFit) {
  EXPECT_FALSE(packed_product_matches({1000, 600, 32768}, 6));  // one entry past the cap
  EXPECT_FALSE(packed_product_matches({1000, 600, apsp::kInf}, 7));
  EXPECT_FALSE(packed_product_matches({20000, 12000, apsp::kInf, true}, 8));
}

TEST(PackedTiles, TakenWithInfWhereTheOperandsAreSmall) {
  // Operands up to kSmall (sums up to kCap - 1), C's finite entries up to kCap - 1, INF in C
  // one in 3 (and everywhere but one entry): every result as in int32, INF where no path.
  constexpr int kSmall = apsp::Impl::PackedTiles<PackedHip>::kSmall;
  EXPECT_TRUE(packed_product_matches({32766, kSmall, 0, false, 3, true}, 10));
  EXPECT_TRUE(packed_product_matches({32766, kSmall, apsp::kInf, false, 0, true}, 11));
  EXPECT_TRUE(packed_product_matches({100, 50, 0, false, 1, true}, 12));
  EXPECT_TRUE(packed_product_matches({500, 300, 0, false, 2, true}, 13));
}

TEST(PackedTiles, Int32WithInfUnlessTheOperandsAreSmallAndCBelowTheCap) {
  constexpr int kSmall = apsp::Impl::PackedTiles<PackedHip>::kSmall;
  EXPECT_FALSE(packed_product_matches({1000, 600, 0, false, 3, false}, 14));                  // not told
  EXPECT_FALSE(packed_product_matches({1000, 600, 32767, false, 3, true}, 15));               // C at the cap
  EXPECT_FALSE(packed_product_matches({32766, kSmall, 40000, false, 3, true}, 16));           // past it
  EXPECT_FALSE(packed_product_matches({32766, kSmall, apsp::kInf - 1, false, 3, true}, 17));  // just short of INF
}

/// Two rounds on one pass over C (pair_kernels.hpp), or four (round_block_kernels.hpp): the tuned
/// product over kRounds B pivots, A's columns and Bk's rows side by side as the rounds' operands
/// lie in the matrix, against the product entry by entry; in int32 (HIP's shape) and in 16-bit
/// lanes (PackedHip), the latter with C holding INF and the operands marked small (case 2
/// through every round: a pair's four tiles' marks, a quad's two strips').
template <class Traits, int kRounds = 2>
bool rounds_match(unsigned seed, int op_max, int c_inf_one_in, bool marked) {
  using S = Shape<Traits>;
  constexpr int kB = Traits::kMaxBlock, kS = Traits::slice_depth(kB);
  const int ld = (kRounds + 2) * kB + 8;
  std::mt19937 rng(seed);
  std::vector<int32_t> m(size_t(ld) * size_t(ld));
  for (auto& v : m) v = rng() % 9 == 0 ? apsp::kInf : int32_t(rng() % unsigned(op_max + 1));
  const int64_t c = int64_t(2) * kB, a = int64_t(kB) * ld, bk = int64_t(2) * kB * ld + int64_t(2) * kB;
  for (int r = 0; r < kB; ++r)
    for (int j = 0; j < kB; ++j)
      m[at(c, r, ld, j)] =
          c_inf_one_in != 0 && rng() % unsigned(c_inf_one_in) == 0 ? apsp::kInf : int32_t(rng() % 30000);
  std::vector<int32_t> expected = m;
  reference_product(expected, ld, c, a, bk, kB, kRounds * kB);
  std::vector<int32_t> slices = S::scratch(kB);
  static const int32_t kMarked = 1;
  apsp::OperandMarks marks{};
  if (marked)
    marks = kRounds == 2 ? apsp::OperandMarks{&kMarked, &kMarked, &kMarked, &kMarked}
                         : apsp::OperandMarks{&kMarked, &kMarked};
  bool sixteen = false;
  HostTeam::run(S::threads(kB), [&](const HostTeam& team) {
    const bool s = S::Ops::product(team, m.data() + c, m.data() + a, m.data() + bk, ld, Fixed<kB>{}, Fixed<kS>{},
                                   Fixed<kRounds * kB / kS>{}, slices.data(), marks);
    if (team.team_rank() == 0) sixteen = s;
  });
  EXPECT_EQ(first_difference(m, expected, ld), "") << "seed " << seed;
  return sixteen;
}

TEST(RegisterTilesHipShape, TwoRoundsOnOnePassMatchTheProduct) {
  EXPECT_FALSE(rounds_match<Hip>(21, 100, 0, false));
  EXPECT_FALSE(rounds_match<Hip>(22, 100, 5, false));
}

TEST(PackedTiles, TwoRoundsOnOnePassMatchTheProduct) {
  constexpr int kSmall = apsp::Impl::PackedTiles<PackedHip>::kSmall;
  EXPECT_TRUE(rounds_match<PackedHip>(23, 1000, 0, false));     // case 1 through both rounds
  EXPECT_TRUE(rounds_match<PackedHip>(24, kSmall, 4, true));    // case 2: INF in C, all marked
  EXPECT_FALSE(rounds_match<PackedHip>(25, kSmall, 4, false));  // not told: int32
}

TEST(RegisterTilesHipShape, FourRoundsOnOnePassMatchTheProduct) {
  EXPECT_FALSE((rounds_match<Hip, 4>(26, 100, 5, false)));
}

TEST(PackedTiles, FourRoundsOnOnePassMatchTheProduct) {
  constexpr int kSmall = apsp::Impl::PackedTiles<PackedHip>::kSmall;
  EXPECT_TRUE((rounds_match<PackedHip, 4>(27, 1000, 0, false)));     // case 1 through every round
  EXPECT_TRUE((rounds_match<PackedHip, 4>(28, kSmall, 4, true)));    // case 2: INF in C, strips marked
  EXPECT_FALSE((rounds_match<PackedHip, 4>(29, kSmall, 4, false)));  // not told: int32
}

/// The host's tile operations, marking round operands instead of packing them, with
/// PackedTiles' rule, as a GPU with the 16-bit product marks them (round_operands.hpp); phase 2
/// then marks the tiles it computes, as on one such GPU.
struct MarkingHostOps : apsp::Impl::TileOps<Kokkos::DefaultHostExecutionSpace> {
  static constexpr bool kPacksRounds = false;
  static constexpr bool kMarksOperands = true;
  KOKKOS_INLINE_FUNCTION static bool small_entry(int32_t v) {
    return apsp::Impl::PackedTiles<PackedHip>::small_entry(v);
  }
};

TEST(RoundOperands, MarksTheTilesWhoseFiniteEntriesAreSmall) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  constexpr int kB = 16, kTiles = 5;
  constexpr int32_t kSmall = apsp::Impl::PackedTiles<PackedHip>::kSmall;
  apsp::DistanceMatrix<Host, int32_t> d(int64_t(kB) * kTiles, kB);
  const apsp::RowBlock rb = apsp::RowBlock::of(d);
  const int64_t n = rb.n;
  std::mt19937 rng(21);
  for (int64_t e = 0; e < n * n; ++e) d.data(e) = rng() % 4 == 0 ? apsp::kInf : int32_t(rng() % (kSmall + 1));
  // Round k = 2: tile (i, 2) is large for i = 0 (one entry past kSmall) and 3 (INF - 1), tile
  // (2, j) for j = 4 (its last entry); tile (1, 1) is off both and large, and (2, 2) at kSmall.
  const int k = 2;
  const auto entry = [&](int64_t tile_row, int64_t r, int64_t tile_col, int64_t c) {
    return (tile_row * kB + r) * n + tile_col * kB + c;
  };
  d.data(entry(0, 1, k, 5)) = kSmall + 1;
  d.data(entry(3, 7, k, kB - 1)) = apsp::kInf - 1;
  d.data(entry(k, kB - 1, 4, kB - 1)) = 40000;
  d.data(entry(1, 3, 1, 3)) = 50000;
  d.data(entry(k, 0, k, 0)) = kSmall;
  const apsp::RoundOperands<Host, MarkingHostOps> ops(rb);
  const apsp::PackedRound p = ops.pack(rb, k, rb.tile_row(k), Host());
  Host().fence();
  ASSERT_NE(p.marks_a, nullptr);
  for (int t = 0; t < kTiles; ++t) {
    EXPECT_EQ(p.marks_a[t] != 0, t != 0 && t != 3) << "tile (" << t << ", 2)";
    EXPECT_EQ(p.marks_bk[t] != 0, t != 4) << "tile (2, " << t << ")";
  }
  EXPECT_TRUE(p.marks(1, 2).small());
  EXPECT_FALSE(p.marks(0, 2).small());
  EXPECT_FALSE(p.marks(1, 4).small());
  EXPECT_TRUE(p.from_row(1).marks(0, 1).small());         // tile row 1 from a block starting at 1
  EXPECT_FALSE(p.from_row(3).marks(0, 1).small());        // tile row 3
  EXPECT_FALSE(apsp::PackedRound{}.marks(0, 0).small());  // none marked
  // Every tile above holds a finite entry (a quarter INF at random): no product is left out.
  for (int i = 0; i < kTiles; ++i)
    for (int j = 0; j < kTiles; ++j) EXPECT_FALSE(p.marks(i, j).changes_nothing()) << i << ", " << j;
  EXPECT_FALSE(apsp::PackedRound{}.marks(0, 0).changes_nothing());
  // The next round's marks go to the other set: these stay as they are.
  const apsp::PackedRound q = ops.pack(rb, k + 1, rb.tile_row(k + 1), Host());
  Host().fence();
  EXPECT_NE(q.marks_a, p.marks_a);
  EXPECT_FALSE(p.marks_a[0] != 0);
}

// Tiles of INF alone are marked so (and small): a product with such an operand, in every round
// it takes, changes nothing and is left out.
TEST(RoundOperands, MarksTheTilesOfInfAlone) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  using apsp::OperandMark;
  constexpr int kB = 16, kTiles = 4, k = 1;
  apsp::DistanceMatrix<Host, int32_t> d(int64_t(kB) * kTiles, kB);
  const apsp::RowBlock rb = apsp::RowBlock::of(d);
  const int64_t n = rb.n;
  for (int64_t e = 0; e < n * n; ++e) d.data(e) = apsp::kInf;
  // Tile (0, k) holds one finite entry (its last), tile (2, k) one large one, tile (k, 3) one
  // small one; tiles (3, k), (k, 0) and (k, 2) are INF alone.
  const auto entry = [&](int64_t tile_row, int64_t r, int64_t tile_col, int64_t c) {
    return (tile_row * kB + r) * n + tile_col * kB + c;
  };
  d.data(entry(0, kB - 1, k, kB - 1)) = 7;
  d.data(entry(2, 3, k, 4)) = 40000;
  d.data(entry(k, 0, 3, 0)) = 0;
  const apsp::RoundOperands<Host, MarkingHostOps> ops(rb);
  const apsp::PackedRound p = ops.pack(rb, k, rb.tile_row(k), Host());
  Host().fence();
  EXPECT_EQ(p.marks_a[0], OperandMark::kSmall);
  EXPECT_EQ(p.marks_a[2], 0);
  EXPECT_EQ(p.marks_a[3], OperandMark::kSmall | OperandMark::kNoFinite);
  EXPECT_EQ(p.marks_bk[0], OperandMark::kSmall | OperandMark::kNoFinite);
  EXPECT_EQ(p.marks_bk[2], OperandMark::kSmall | OperandMark::kNoFinite);
  EXPECT_EQ(p.marks_bk[3], OperandMark::kSmall);
  EXPECT_TRUE(p.marks(3, 3).changes_nothing());   // A of INF alone
  EXPECT_TRUE(p.marks(0, 2).changes_nothing());   // Bk of INF alone
  EXPECT_TRUE(p.marks(2, 0).changes_nothing());   // Bk of INF alone beside a large A
  EXPECT_FALSE(p.marks(0, 3).changes_nothing());  // both hold a finite entry
  EXPECT_FALSE(p.marks(2, 3).changes_nothing());
  EXPECT_TRUE(p.marks(0, 3).small());
  EXPECT_FALSE(p.marks(2, 3).small());
  // Two rounds: left out only where each round's product is.
  const int32_t none = OperandMark::kSmall | OperandMark::kNoFinite, some = OperandMark::kSmall;
  EXPECT_TRUE((apsp::OperandMarks{&none, &some, &some, &none}.changes_nothing()));
  EXPECT_FALSE((apsp::OperandMarks{&none, &some, &some, &some}.changes_nothing()));
  EXPECT_FALSE((apsp::OperandMarks{&some, &some, &none, &none}.changes_nothing()));
}

// A solve whose phase-3 products read the marks (a GPU's way), or the round's packed operands (a
// CPU's), leaves out exactly the products with an operand of INF alone, counted from the matrix
// before each round, and gives the reference's distances: three components of consecutive
// vertices (the second ends inside a tile), so that tiles between them stay INF to the end, and
// a sparse graph, whose early rounds have such tiles.
template <class Ops>
void leaves_out_the_products_with_an_operand_of_inf_alone() {
  using Host = Kokkos::DefaultHostExecutionSpace;
  using Solver = apsp::BlockedFloydWarshall<Host, Ops>;
  constexpr int kB = 16, kTiles = 7;
  const int32_t v = kB * kTiles - 5;
  apsp::test::Graph components = apsp::test::random_graph(v, 0.15, 0, 1000, 29);
  std::vector<apsp::test::Edge> kept;
  const auto part = [](int32_t x) { return x < 2 * kB ? 0 : x < 4 * kB + 5 ? 1 : 2; };
  for (const auto& e : components.edges)
    if (part(e.src) == part(e.dst)) kept.push_back(e);
  components.edges = kept;
  for (const auto& g : {components, apsp::test::random_graph(v, 1.5 / v, 0, 1000, 31)}) {
    int64_t expected = 0, left_out = 0;
    const auto got = apsp::test::blocked_apsp<Host>(g, kB, [&](const apsp::DistanceMatrix<Host, int32_t>& d) {
      const apsp::RowBlock rb = apsp::RowBlock::of(d);
      const int64_t n = rb.n;
      const typename Solver::RoundOps ops(rb);
      apsp::LaneTally<Host> tally;
      for (int k = 0; k < kTiles; ++k) {
        Solver::phase1(rb, k);
        Solver::phase2(rb, k, rb.tile_row(k), true, true, Host(), tally.slots(), ops.marks_of(rb, k));
        const apsp::PackedRound packed = ops.pack_marked(rb, k, rb.tile_row(k), Host());
        Host().fence();
        const auto only_inf = [&](int ti, int tj) {
          for (int64_t r = 0; r < kB; ++r)
            for (int64_t c = 0; c < kB; ++c)
              if (d.data((int64_t(ti) * kB + r) * n + int64_t(tj) * kB + c) != apsp::kInf) return false;
          return true;
        };
        for (int i = 0; i < kTiles; ++i)
          for (int j = 0; j < kTiles; ++j)
            if (i != k && j != k && (only_inf(i, k) || only_inf(k, j)))
              expected += Ops::kPacksRounds ? Ops::packed_computed(kB, rb.pivots(k), packed, i, j)
                                            : Ops::computed(kB, kB, rb.pivots(k));
        Solver::phase3(rb, k, rb.tile_row(k), Host(), packed, tally.slots());
      }
      Host().fence();
      left_out = tally.left_out();
    });
    EXPECT_EQ(apsp::test::first_difference(got, apsp::test::naive_apsp(g), v), "");
    EXPECT_GT(expected, 0);
    EXPECT_EQ(left_out, expected);
  }
}

TEST(RoundOperands, MarkedProductsWithAnOperandOfInfAloneAreLeftOut) {
  leaves_out_the_products_with_an_operand_of_inf_alone<MarkingHostOps>();
}

TEST(RoundOperands, PackedProductsWithAnOperandOfInfAloneAreLeftOut) {
  using Ops = apsp::Impl::TileOps<Kokkos::DefaultHostExecutionSpace>;
  static_assert(Ops::kPacksRounds, "the host packs its rounds' operands");
  leaves_out_the_products_with_an_operand_of_inf_alone<Ops>();
}

// Phase 2's marks are the marking kernel's, read from the tiles phase 2 has just written; and
// the round's operands, once marked by phase 2, are taken as they are (no kernel).
TEST(RoundOperands, PhaseTwoMarksAsTheMarkingKernelDoes) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  using Solver = apsp::BlockedFloydWarshall<Host, MarkingHostOps>;
  constexpr int kB = 16, kTiles = 6;
  apsp::DistanceMatrix<Host, int32_t> d(int64_t(kB) * kTiles, kB);
  const apsp::RowBlock rb = apsp::RowBlock::of(d);
  const int64_t n = rb.n;
  std::mt19937 rng(23);
  for (int64_t e = 0; e < n * n; ++e) d.data(e) = rng() % 3 == 0 ? apsp::kInf : int32_t(rng() % 1000);
  // Vertices 5 and 70 leave by heavy edges only: their rows stay past kSmall, so the tiles
  // holding them are large in every round.
  for (const int64_t v : {int64_t(5), int64_t(70)})
    for (int64_t j = 0; j < n; ++j) d.data(v * n + j) = 40000 + int32_t(rng() % 1000);
  for (int64_t v = 0; v < n; ++v) d.data(v * n + v) = 0;
  const Solver::RoundOps ops(rb);
  int small = 0, large = 0;
  for (int k = 0; k < kTiles; ++k) {
    Solver::phase1(rb, k);
    const apsp::MarkTargets to = ops.marks_of(rb, k);
    Solver::phase2(rb, k, rb.tile_row(k), true, true, Host(), nullptr, to);
    Host().fence();
    std::vector<int32_t> by_phase2(to.a, to.a + ptrdiff_t(2) * kTiles);
    const apsp::PackedRound taken = ops.pack_marked(rb, k, rb.tile_row(k), Host());
    EXPECT_EQ(taken.marks_a, to.a);
    EXPECT_EQ(taken.marks_bk, to.bk);
    const apsp::PackedRound p = ops.pack(rb, k, rb.tile_row(k), Host());  // the marking kernel
    Host().fence();
    for (int t = 0; t < kTiles; ++t) {
      if (t == k) continue;  // the pivot tile: no operand of phase 3
      EXPECT_EQ(by_phase2[size_t(t)] != 0, p.marks_a[t] != 0) << "round " << k << ", tile (" << t << ", k)";
      EXPECT_EQ(by_phase2[size_t(kTiles + t)] != 0, p.marks_bk[t] != 0) << "round " << k << ", tile (k, " << t << ")";
      (p.marks_a[t] != 0 ? small : large) += 1;
    }
    Solver::phase3(rb, k, rb.tile_row(k), Host(), p);
  }
  Host().fence();
  EXPECT_GT(small, 0);  // both answers occurred
  EXPECT_GT(large, 0);
}

}  // namespace
