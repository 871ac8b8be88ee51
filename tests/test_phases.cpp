// SPDX-License-Identifier: BSD-3-Clause
// Each phase on its own, on a matrix of random tiles, against a naive loop nest; and each
// whole round against a naive Floyd-Warshall stopped after the same pivots.
#include <gtest/gtest.h>

#include "backends_under_test.hpp"
#include "reference.hpp"

namespace apsp::test {
namespace {

template <class ExecSpace>
class Phases : public ::testing::Test {
 protected:
  using Solver = BlockedFloydWarshall<ExecSpace>;
  static constexpr int kBlocks = 4;

  int B = BackendTraits<ExecSpace>::default_block;
  int64_t n = int64_t(kBlocks) * B;
  DistanceMatrix<ExecSpace> d{int64_t(kBlocks) * BackendTraits<ExecSpace>::default_block,
                              BackendTraits<ExecSpace>::default_block};
  std::vector<int32_t> ref;

  // Random tiles: weights in [0, 1000], one entry in five INF, diagonal 0.
  void SetUp() override {
    std::mt19937 rng(1234);
    std::uniform_int_distribution<int32_t> w(0, 1000);
    ref.resize(size_t(n * n));
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) ref[size_t(i * n + j)] = i == j ? 0 : (rng() % 5 == 0 ? kInf : w(rng));
    upload();
  }
  void upload() {
    auto h = Kokkos::create_mirror_view(d.data);
    for (size_t i = 0; i < ref.size(); ++i) h(i) = ref[i];
    Kokkos::deep_copy(d.data, h);
  }
  std::vector<int32_t> download() {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.data);
    return std::vector<int32_t>(h.data(), h.data() + h.extent(0));
  }
  int32_t& at(int64_t bi, int64_t bj, int r, int c) { return ref[size_t((bi * B + r) * n + bj * B + c)]; }

  // Naive phase 1: Floyd-Warshall closure of tile (k, k) on its own B pivots.
  void naive_phase1(int k) {
    for (int p = 0; p < B; ++p)
      for (int r = 0; r < B; ++r)
        for (int c = 0; c < B; ++c) at(k, k, r, c) = std::min(at(k, k, r, c), at(k, k, r, p) + at(k, k, p, c));
  }
  // Naive phase 2: pivot row and column tiles, pivot by pivot.
  void naive_phase2(int k) {
    for (int o = 0; o < kBlocks; ++o) {
      if (o == k) continue;
      for (int p = 0; p < B; ++p)
        for (int r = 0; r < B; ++r)
          for (int c = 0; c < B; ++c) {
            at(k, o, r, c) = std::min(at(k, o, r, c), at(k, k, r, p) + at(k, o, p, c));
            at(o, k, r, c) = std::min(at(o, k, r, c), at(o, k, r, p) + at(k, k, p, c));
          }
    }
  }
  // Naive phase 3: C = min(C, A (min,+) B) for every tile off the pivot row and column.
  void naive_phase3(int k) {
    for (int i = 0; i < kBlocks; ++i)
      for (int j = 0; j < kBlocks; ++j) {
        if (i == k || j == k) continue;
        for (int r = 0; r < B; ++r)
          for (int c = 0; c < B; ++c)
            for (int p = 0; p < B; ++p) at(i, j, r, c) = std::min(at(i, j, r, c), at(i, k, r, p) + at(k, j, p, c));
      }
  }
};
TYPED_TEST_SUITE(Phases, Backends, BackendName);

TYPED_TEST(Phases, Phase1ClosesThePivotTileOnly) {
  for (int k : {0, 2}) {
    TypeParam().fence();
    TestFixture::Solver::phase1(this->d, k);
    this->naive_phase1(k);
    ASSERT_EQ(first_difference(this->download(), this->ref, this->n), "") << "k=" << k;
  }
}

// Phase 2 relies on phase 1: through a closed pivot tile, one min-plus product equals the
// naive pivot-by-pivot relaxation.
TYPED_TEST(Phases, Phase2RelaxesPivotRowAndColumnOnly) {
  for (int k : {0, 1, 3}) {
    TestFixture::Solver::phase1(this->d, k);
    this->naive_phase1(k);
    TestFixture::Solver::phase2(this->d, k);
    this->naive_phase2(k);
    ASSERT_EQ(first_difference(this->download(), this->ref, this->n), "") << "k=" << k;
  }
}

TYPED_TEST(Phases, Phase3RelaxesEveryOtherTile) {
  for (int k : {0, 2, 3}) {
    TestFixture::Solver::phase3(this->d, k);
    this->naive_phase3(k);
    ASSERT_EQ(first_difference(this->download(), this->ref, this->n), "") << "k=" << k;
  }
}

TYPED_TEST(Phases, EachRoundMatchesFloydWarshallAfterThoseVertices) {
  auto expected = this->ref;
  for (int k = 0; k < TestFixture::kBlocks; ++k) {
    TestFixture::Solver::round(this->d, k);
    expected = this->ref;
    naive_floyd_warshall(expected, this->n, int64_t(k + 1) * this->B);
    ASSERT_EQ(first_difference(this->download(), expected, this->n), "") << "after round " << k;
  }
}

// The row-block form the MPI layer uses: "ranks" holding 1, 2 and 1 tile rows; per round the
// holder of tile row k runs phase 1 and the pivot row's part of phase 2, the pivot row block
// is copied to a separate buffer (standing in for the broadcast), and every holder runs the
// pivot column's part of phase 2 and phase 3 on its own rows from that copy.
TYPED_TEST(Phases, RowBlocksWithACopiedPivotRowMatchFloydWarshall) {
  using Solver = typename TestFixture::Solver;
  const int B = this->B;
  const int64_t n = this->n;
  std::vector<RowBlock> blocks;
  for (const auto& [first, count] : std::vector<std::pair<int, int>>{{0, 1}, {1, 2}, {3, 1}})
    blocks.push_back(RowBlock::of(this->d).sub(first, count));
  Kokkos::View<int32_t*, typename TypeParam::memory_space> pivot_row("pivot_row", size_t(B * n));
  for (int k = 0; k < TestFixture::kBlocks; ++k) {
    for (const auto& rb : blocks)
      if (rb.k_local(k) >= 0) {
        Solver::phase1(rb, k);
        const int32_t* own_row = rb.rows + int64_t(rb.k_local(k)) * B * n;
        Solver::phase2(rb, k, own_row, true, false);
        const size_t at = size_t((own_row - this->d.data.data()));
        Kokkos::deep_copy(pivot_row, Kokkos::subview(this->d.data, std::make_pair(at, at + size_t(B * n))));
      }
    for (const auto& rb : blocks) {
      Solver::phase2(rb, k, pivot_row.data(), false, true);
      Solver::phase3(rb, k, pivot_row.data());
    }
    auto expected = this->ref;
    naive_floyd_warshall(expected, n, int64_t(k + 1) * B);
    ASSERT_EQ(first_difference(this->download(), expected, this->n), "") << "after round " << k;
  }
}

// A diagonal block as a matrix of its own (RowBlock::diagonal), as the GPU's blocks of rounds
// close theirs: its rounds' three phases close it over its own pivots, every entry outside it
// untouched. Against a naive Floyd-Warshall on the 2 x 2 tiles from tile (1, 1) alone.
TYPED_TEST(Phases, DiagonalBlockIsClosedOverItsOwnPivotsOnly) {
  using Solver = typename TestFixture::Solver;
  const int B = this->B, first = 1, tiles = 2;
  const int64_t n = this->n, m = int64_t(tiles) * B, at = int64_t(first) * B;
  const RowBlock diagonal = RowBlock::of(this->d).diagonal(first, tiles);
  for (int r = 0; r < tiles; ++r) {
    Solver::phase1(diagonal, r);
    Solver::phase2(diagonal, r, diagonal.tile_row(r), true, true);
    Solver::phase3(diagonal, r, diagonal.tile_row(r));
  }
  std::vector<int32_t> sub(size_t(m * m));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < m; ++j) sub[size_t(i * m + j)] = this->ref[size_t((at + i) * n + at + j)];
  naive_floyd_warshall(sub, m, m);
  auto expected = this->ref;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < m; ++j) expected[size_t((at + i) * n + at + j)] = sub[size_t(i * m + j)];
  ASSERT_NE(expected, this->ref);  // the block's closure changes some of it
  ASSERT_EQ(first_difference(this->download(), expected, n), "");
}

}  // namespace
}  // namespace apsp::test
