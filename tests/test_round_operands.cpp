// SPDX-License-Identifier: BSD-3-Clause
// A round's operands marked (a GPU's way: round_operands.hpp) or packed (a CPU's): the marks'
// bits and least entries against the tiles they describe, and solves that leave out the
// products with an operand of INF alone, against the reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "apsp/core/constants.hpp"
#include "apsp/solver/blocked_fw.hpp"
#include "apsp/solver/gpu/packed_tiles.hpp"
#include "apsp/solver/lane_tally.hpp"
#include "apsp/solver/round_operands.hpp"
#include "apsp/solver/row_block.hpp"
#include "host_team.hpp"
#include "reference.hpp"

namespace {

using register_tiles_test::PackedHip;

/// The host's tile operations, marking round operands instead of packing them, with
/// PackedTiles' rule and their least entries, as a GPU with the 16-bit product marks them
/// (round_operands.hpp); phase 2 then marks the tiles it computes, as on one such GPU.
struct MarkingHostOps : apsp::Impl::TileOps<Kokkos::DefaultHostExecutionSpace> {
  static constexpr bool kPacksRounds = false;
  static constexpr bool kMarksOperands = true;
  static constexpr bool kKeepsLeast = true;  // as with the 16-bit product
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

// A product of two rounds subtracts the lower least entry of each operand's two rounds (case 3);
// where no least entries are kept (the strips of a wide block) it takes no case 3.
TEST(RoundOperands, LeastEntriesOfAProductOverItsRounds) {
  const int32_t f[8] = {0, 0, 0, 0, 500, 40, 300, 90};  // A, Bk, A2, Bk2, then their least entries
  int32_t a_least = 0, bk_least = 0;
  EXPECT_TRUE((apsp::OperandMarks{&f[0], &f[1], &f[2], &f[3], 4}.least_entries(a_least, bk_least)));
  EXPECT_EQ(a_least, 300);
  EXPECT_EQ(bk_least, 40);
  EXPECT_TRUE((apsp::OperandMarks{&f[0], &f[1], nullptr, nullptr, 4}.least_entries(a_least, bk_least)));
  EXPECT_EQ(a_least, 500);
  EXPECT_FALSE((apsp::OperandMarks{&f[0], &f[1], &f[2], &f[3]}.least_entries(a_least, bk_least)));
  EXPECT_FALSE(apsp::OperandMarks{}.least_entries(a_least, bk_least));
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

// Phase 2's marks are the marking kernel's, read from the tiles phase 2 has just written, and
// both keep each tile's least entry (PackedTiles' case 3), as read from the tile; the round's
// operands, once marked by phase 2, are taken as they are (no kernel).
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
    ASSERT_NE(to.least, 0);
    std::vector<int32_t> by_phase2(to.a, to.a + ptrdiff_t(2) * kTiles);
    std::vector<int32_t> least_by_phase2(to.a + to.least, to.a + to.least + ptrdiff_t(2) * kTiles);
    const apsp::PackedRound taken = ops.pack_marked(rb, k, rb.tile_row(k), Host());
    EXPECT_EQ(taken.marks_a, to.a);
    EXPECT_EQ(taken.marks_bk, to.bk);
    EXPECT_EQ(taken.least, to.least);
    const apsp::PackedRound p = ops.pack(rb, k, rb.tile_row(k), Host());  // the marking kernel
    Host().fence();
    const auto least_of_tile = [&](int64_t ti, int64_t tj) {
      int32_t least = apsp::kInf;
      for (int64_t r = 0; r < kB; ++r)
        for (int64_t c = 0; c < kB; ++c) least = std::min(least, d.data((ti * kB + r) * n + tj * kB + c));
      return least;
    };
    for (int t = 0; t < kTiles; ++t) {
      if (t == k) continue;  // the pivot tile: no operand of phase 3
      EXPECT_EQ(by_phase2[size_t(t)] != 0, p.marks_a[t] != 0) << "round " << k << ", tile (" << t << ", k)";
      EXPECT_EQ(by_phase2[size_t(kTiles + t)] != 0, p.marks_bk[t] != 0) << "round " << k << ", tile (k, " << t << ")";
      (p.marks_a[t] != 0 ? small : large) += 1;
      EXPECT_EQ(least_by_phase2[size_t(t)], least_of_tile(t, k)) << "round " << k << ", tile (" << t << ", k)";
      EXPECT_EQ(least_by_phase2[size_t(kTiles + t)], least_of_tile(k, t)) << "round " << k << ", tile (k, " << t << ")";
      EXPECT_EQ(p.marks_a[t + p.least], least_of_tile(t, k));
      EXPECT_EQ(p.marks_bk[t + p.least], least_of_tile(k, t));
      const apsp::OperandMarks both = p.marks(t, t);
      int32_t a_least = -1, bk_least = -1;
      ASSERT_TRUE(both.least_entries(a_least, bk_least));
      EXPECT_EQ(a_least, least_of_tile(t, k));
      EXPECT_EQ(bk_least, least_of_tile(k, t));
    }
    Solver::phase3(rb, k, rb.tile_row(k), Host(), p);
  }
  Host().fence();
  EXPECT_GT(small, 0);  // both answers occurred
  EXPECT_GT(large, 0);
}

}  // namespace

// A round packs its operands' 16-bit forms in rounds 0 and 1 and after any product noted
// a block of C that took 16-bit lanes or would have; without them a product runs int32 lanes
// alone, with C's result unchanged, and samples whether its blocks would qualify.
TEST(RoundOperands, SixteenBitFormsArePackedWhileBlocksQualify) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  using Ops = apsp::Impl::TileOps<Host>;
  static_assert(Ops::kPacksRounds, "the host packs its rounds' operands");
  constexpr int kB = 192, kTiles = 3;  // a multiple of every host block shape's unit
  for (const bool heavy : {false, true}) {
    SCOPED_TRACE(heavy ? "heavy entries" : "light entries");
    apsp::DistanceMatrix<Host, int32_t> d(int64_t(kB) * kTiles, kB);
    const apsp::RowBlock rb = apsp::RowBlock::of(d);
    const int64_t n = rb.n;
    std::mt19937 rng(heavy ? 41 : 42);
    for (int64_t e = 0; e < n * n; ++e) d.data(e) = heavy ? int32_t(40000 + rng() % 50000) : int32_t(1 + rng() % 1000);
    const apsp::RoundOperands<Host, Ops> ops(rb);
    EXPECT_EQ(ops.layout(rb, 0).lanes16, 1);  // rounds 0 and 1, whatever was noted
    EXPECT_EQ(ops.layout(rb, 1).lanes16, 1);
    const apsp::PackedRound p = ops.layout(rb, 2);  // nothing noted since
    ASSERT_EQ(p.lanes16, 0);
    for (int t = 0; t < 2 * kTiles; ++t)
      apsp::RoundOperands<Host, Ops>::pack_one(p, rb.rows, rb.tile_row(0), n, kB, 0, kTiles, kB, t);
    // Tile (1, 2) against its product with tile (1, 0) and tile (0, 2), computed here.
    const auto at = [&](int64_t row, int64_t col) { return row * n + col; };
    const int64_t B = kB;
    std::vector<int32_t> expected(size_t(B * B));
    for (int64_t r = 0; r < B; ++r)
      for (int64_t c = 0; c < B; ++c) {
        int32_t best = d.data(at(B + r, 2 * B + c));
        for (int64_t q = 0; q < B; ++q) best = std::min(best, d.data(at(B + r, q)) + d.data(at(q, 2 * B + c)));
        expected[size_t(r * B + c)] = best;
      }
    EXPECT_EQ(Ops::host_packed_product(d.data.data() + at(B, 2 * B), n, kB, kB, p, 1, 2), 0);  // int32 alone
    for (int64_t r = 0; r < B; ++r)
      for (int64_t c = 0; c < B; ++c) ASSERT_EQ(d.data(at(B + r, 2 * B + c)), expected[size_t(r * B + c)]);
    // Light entries qualify (sampled): the next round packs the 16-bit forms again, where the
    // host's product has 16-bit lanes at all (a build without -march=native on x86 has none).
    EXPECT_EQ(ops.layout(rb, 3).lanes16, !heavy && apsp::BackendTraits<Host>::kHostLanes16 ? 1 : 0);
  }
}
