// SPDX-License-Identifier: BSD-3-Clause
// (GPU backends) Phase 3 of four rounds on one pass over C: blocked Floyd-Warshall with an outer
// block of four tile rounds. A pair of rounds on one pass (pair_kernels.hpp) halved the fixed
// cost of each tile product (loading C, the vote, the stores); ncu on one H100 at V = 20000 still
// put 20 % of the pair kernel's warp samples outside its slice loop, and four rounds halve that
// again.
//
// Rounds J = [k, k + 4) as one block. Its opening, on the second queue: the four rounds of
// Floyd-Warshall restricted to tile rows and columns J (the strips): for each round p of J,
// phases 1 and 2, then round p on every other tile of the strips (StripRoundKernel). The strips
// are then final for J, and every other tile (i, j) takes the four rounds in one product of depth
// 4B: A = tiles (i, k .. k + 3), side by side in the matrix, Bk = tiles (k .. k + 3, j) below one
// another. That is blocked Floyd-Warshall's phase 3 for a block of 4B pivots: a product over
// final operands, in any order of its pivots. Unlike a pair, nothing lags behind the fused
// tiles, so the operands' 16-bit marks are taken once on the final strips (StripMarkKernel:
// one flag per strip of four tiles).
//
// The look-ahead splits the fused tiles by the next block of rounds R = [k + 4, k + 4 + next):
// the tiles of rows and columns R ("cross") go first on the second queue, where the next block
// then opens; the rest on the main queue.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "apsp/solver/lane_tally.hpp"
#include "apsp/solver/round_operands.hpp"

namespace apsp::Impl {

/// Rounds per block of this driver.
inline constexpr int kQuadRounds = 4;

/// t-th index of [0, nb) outside [from, from + count).
KOKKOS_INLINE_FUNCTION int index_outside(int t, int from, int count) { return t < from ? t : t + count; }

/// Round p = k + r of the block [k, k + 4) on the strips' tiles outside tile row and column p
/// (those are phase 2's): tile rows k + a, a != r, every column but p; then tile columns
/// k + b, b != r, every row outside the block. One team each, a single-round product through
/// tiles (i, p) and (p, j), which this kernel does not write.
template <class Value>
struct StripRoundTiles {
  Value* d;  ///< the whole matrix, ld n
  int64_t n;
  int B, k, r, nb;
  int pivots;                  ///< B: whole rounds only
  PackedRound packed{};        ///< round p's marks (phase 2 wrote them)
  int64_t* lanes16 = nullptr;  ///< the lane tally (lane_tally.hpp), or null
  KOKKOS_INLINE_FUNCTION int row_teams() const { return (kQuadRounds - 1) * (nb - 1); }
  KOKKOS_INLINE_FUNCTION int league() const { return row_teams() + (kQuadRounds - 1) * (nb - kQuadRounds); }
  KOKKOS_INLINE_FUNCTION void tile_of(int id, int& i, int& j) const {
    const int p = k + r;
    if (id < row_teams()) {
      const int a = id / (nb - 1), t = id % (nb - 1);
      i = k + a + (a >= r);
      j = t + (t >= p);
    } else {
      const int c = id - row_teams(), b = c / (nb - kQuadRounds);
      i = index_outside(c % (nb - kQuadRounds), k, kQuadRounds);
      j = k + b + (b >= r);
    }
  }
};
template <class Ops, bool kTuned = false>
struct StripRoundKernel : StripRoundTiles<typename Ops::Value> {
  using Base = StripRoundTiles<typename Ops::Value>;
  using Base::B, Base::d, Base::k, Base::n, Base::pivots, Base::r;
  KOKKOS_INLINE_FUNCTION void operator()(const typename Ops::Member& team) const {
    int i, j;
    Base::tile_of(team.league_rank(), i, j);
    const int p = k + r;
    count_lanes16(team, Base::lanes16,
                  Ops::template min_plus_product<kTuned>(
                      team, d + int64_t(i) * B * n + int64_t(j) * B, d + int64_t(i) * B * n + int64_t(p) * B,
                      d + int64_t(p) * B * n + int64_t(j) * B, n, B, pivots, Base::packed.marks(i, j)),
                  Ops::computed(B, B, pivots));
  }
};

/// Marks the final strips of the block [k, k + 4) for the fused products (PackedTiles' case
/// 2): team t < nb sets a[t] = whether every entry of tiles (t, k .. k + 3) is small, team
/// nb + t sets bk[t] for tiles (k .. k + 3, t). The same reads as mark_small_tile, over a strip.
template <class Ops>
struct StripMarkKernel {
  const int32_t* d;
  int64_t n;
  int B, k, nb;
  int32_t* a;  ///< nb flags, then bk's nb
  KOKKOS_INLINE_FUNCTION void operator()(const typename Ops::Member& team) const {
    const int id = team.league_rank(), t = id < nb ? id : id - nb;
    const bool row_strip = id < nb;  // B rows by 4B columns, else 4B rows by B columns
    const int rows = row_strip ? B : kQuadRounds * B, cols = row_strip ? kQuadRounds * B : B;
    const int32_t* first =
        row_strip ? d + int64_t(t) * B * n + int64_t(k) * B : d + int64_t(k) * B * n + int64_t(t) * B;
    int32_t* flag = a + id;
    Kokkos::single(Kokkos::PerTeam(team), [&] { *flag = 1; });
    team.team_barrier();
    const int size = team.team_size(), rank = team.team_rank();
    const int across = size < B ? size : B, rows_step = size / across;
    const int r0 = rank / across, c0 = rank % across;
    bool large = false;
    if (r0 < rows_step)
      for (int r = r0; r < rows; r += rows_step)
        for (int c = c0; c < cols; c += across) large |= !Ops::small_entry(first[int64_t(r) * n + c]);
    if (large) Kokkos::atomic_fetch_and(flag, 0);
  }
};

/// The fused tiles of the block [k, k + 4), one part: the rest (off rows and columns of the
/// block and of the next block R) or the cross (rows and columns R, off the block's).
template <class Value>
struct QuadTiles {
  enum Part { rest, cross };
  Value* d;  ///< the whole matrix, ld n
  int64_t n;
  int B, k, nb;
  int next;  ///< rounds in the next block R = [k + 4, k + 4 + next)
  Part part;
  const int32_t* marks = nullptr;  ///< StripMarkKernel's flags (a: nb, then bk: nb), or null
  int64_t* lanes16 = nullptr;      ///< the lane tally (lane_tally.hpp), or null
  /// The rest goes in groups of this many tile rows, column by column within a group (as
  /// PairTiles::kGroupRows: the teams resident at once share a few dozen operand strips).
  static constexpr int kGroupRows = 16;
  KOKKOS_INLINE_FUNCTION int s() const { return kQuadRounds + next; }
  KOKKOS_INLINE_FUNCTION int league() const {
    const int m = nb - s();
    return part == rest ? m * m : next * (nb - kQuadRounds) + next * m;
  }
  KOKKOS_INLINE_FUNCTION void tile_of(int id, int& i, int& j) const {
    const int m = nb - s();
    if (part == rest) {
      const int first = id / (kGroupRows * m) * kGroupRows, g = m - first < kGroupRows ? m - first : kGroupRows;
      const int within = id - first * m;
      i = index_outside(first + within % g, k, s()), j = index_outside(within / g, k, s());
    } else if (id < next * (nb - kQuadRounds)) {  // rows R, columns off the block
      i = k + kQuadRounds + id / (nb - kQuadRounds), j = index_outside(id % (nb - kQuadRounds), k, kQuadRounds);
    } else {  // columns R, rows off the block and R
      const int c = id - next * (nb - kQuadRounds);
      j = k + kQuadRounds + c / m, i = index_outside(c % m, k, s());
    }
  }
  KOKKOS_INLINE_FUNCTION OperandMarks marks_of(int i, int j) const {
    return marks != nullptr ? OperandMarks{marks + i, marks + nb + j} : OperandMarks{};
  }
};

/// Whole rounds of the tuned shape only: the product of 4B pivots.
template <class Ops>
struct QuadTilesKernel : QuadTiles<typename Ops::Value> {
  using Base = QuadTiles<typename Ops::Value>;
  using Base::B, Base::d, Base::k, Base::n;
  KOKKOS_INLINE_FUNCTION void operator()(const typename Ops::Member& team) const {
    int i, j;
    Base::tile_of(team.league_rank(), i, j);
    count_lanes16(team, Base::lanes16,
                  Ops::template min_plus_product<true, kQuadRounds>(
                      team, d + int64_t(i) * B * n + int64_t(j) * B, d + int64_t(i) * B * n + int64_t(k) * B,
                      d + int64_t(k) * B * n + int64_t(j) * B, n, B, kQuadRounds * B, Base::marks_of(i, j)),
                  Ops::computed(B, B, kQuadRounds * B));
  }
};

}  // namespace apsp::Impl
