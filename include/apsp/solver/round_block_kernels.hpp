// SPDX-License-Identifier: BSD-3-Clause
// (GPU backends) Phase 3 of a block of R rounds (4 or 8) on one pass over C: blocked
// Floyd-Warshall with an outer block of R tile rounds. A pair of rounds on one pass
// (pair_kernels.hpp) halved the fixed cost of each tile product (loading C, the vote, the
// stores); ncu on one H100 at V = 20000 still put 20 % of the pair kernel's warp samples outside
// its slice loop, and R rounds divide that by R / 2 again.
//
// Rounds J = [k, k + R) as one block. Its opening, on the second queue: the R rounds of
// Floyd-Warshall restricted to tile rows and columns J (the strips): for each round p of J,
// phases 1 and 2, then round p on every other tile of the strips (StripRoundKernel). The strips
// are then final for J, and every other tile (i, j) takes the R rounds in one product of depth
// R B: A = tiles (i, k .. k + R - 1), side by side in the matrix, Bk = tiles (k .. k + R - 1, j)
// below one another. That is blocked Floyd-Warshall's phase 3 for a block of R B pivots: a
// product over final operands, in any order of its pivots. Unlike a pair, nothing lags behind
// the fused tiles, so the operands' 16-bit marks are taken once on the final strips
// (StripMarkKernel: one flag per strip of R tiles).
//
// The look-ahead splits the fused tiles by the next block of rounds N = [k + R, k + R + next):
// the tiles of rows and columns N ("cross") go first on the second queue, where the next block
// then opens; the rest on the main queue.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "apsp/solver/lane_tally.hpp"
#include "apsp/solver/round_operands.hpp"
#include "apsp/solver/tile_order.hpp"

namespace apsp::Impl {

/// Round p = k + r of the block [k, k + R) on the strips' tiles outside tile row and column p
/// (those are phase 2's): tile rows k + a, a != r, every column but p; then tile columns
/// k + b, b != r, every row outside the block. One team each, a single-round product through
/// tiles (i, p) and (p, j), which this kernel does not write.
template <class Value>
struct StripRoundTiles {
  Value* d;  ///< the whole matrix, ld n
  int64_t n;
  int B, k, R, r, nb;
  int pivots;                  ///< B: whole rounds only
  PackedRound packed{};        ///< round p's marks (phase 2 wrote them)
  int64_t* lanes16 = nullptr;  ///< the lane tally (lane_tally.hpp), or null
  KOKKOS_INLINE_FUNCTION int row_teams() const { return (R - 1) * (nb - 1); }
  KOKKOS_INLINE_FUNCTION int league() const { return row_teams() + (R - 1) * (nb - R); }
  KOKKOS_INLINE_FUNCTION void tile_of(int id, int& i, int& j) const {
    const int p = k + r;
    if (id < row_teams()) {
      const int a = id / (nb - 1), t = id % (nb - 1);
      i = k + a + (a >= r);
      j = t + (t >= p);
    } else {
      const int c = id - row_teams(), b = c / (nb - R);
      i = index_outside(c % (nb - R), k, R);
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

/// Marks the final strips of the block [k, k + R) for the fused products (PackedTiles' case
/// 2): team t < nb sets a[t] = whether every entry of tiles (t, k .. k + R - 1) is small, team
/// nb + t sets a[nb + t] for tiles (k .. k + R - 1, t) (mark_small_region).
template <class Ops>
struct StripMarkKernel {
  const int32_t* d;
  int64_t n;
  int B, k, R, nb;
  int32_t* a;  ///< nb flags, then bk's nb
  KOKKOS_INLINE_FUNCTION void operator()(const typename Ops::Member& team) const {
    const int id = team.league_rank(), t = id < nb ? id : id - nb;
    const bool row_strip = id < nb;  // B rows by R B columns, else R B rows by B columns
    const int rows = row_strip ? B : R * B, cols = row_strip ? R * B : B;
    const int32_t* first =
        row_strip ? d + int64_t(t) * B * n + int64_t(k) * B : d + int64_t(k) * B * n + int64_t(t) * B;
    mark_small_region<Ops>(team, first, n, rows, cols, B, a + id);
  }
};

/// The fused tiles of the block [k, k + R), one part: the rest (off rows and columns of the
/// block and of the next block N) or the cross (rows and columns N, off the block's).
template <class Value>
struct BlockTiles {
  enum Part { rest, cross };
  Value* d;  ///< the whole matrix, ld n
  int64_t n;
  int B, k, R, nb;
  int next;  ///< rounds in the next block N = [k + R, k + R + next)
  Part part;
  const int32_t* marks = nullptr;  ///< StripMarkKernel's flags (a: nb, then bk: nb), or null
  int64_t* lanes16 = nullptr;      ///< the lane tally (lane_tally.hpp), or null
  KOKKOS_INLINE_FUNCTION int s() const { return R + next; }
  KOKKOS_INLINE_FUNCTION int league() const {
    const int m = nb - s();
    return part == rest ? m * m : next * (nb - R) + next * m;
  }
  KOKKOS_INLINE_FUNCTION void tile_of(int id, int& i, int& j) const {
    const int m = nb - s();
    if (part == rest) {  // grouped (tile_order.hpp)
      grouped_tile(id, m, k, s(), i, j);
    } else if (id < next * (nb - R)) {  // rows N, columns off the block
      i = k + R + id / (nb - R), j = index_outside(id % (nb - R), k, R);
    } else {  // columns N, rows off the block and N
      const int c = id - next * (nb - R);
      j = k + R + c / m, i = index_outside(c % m, k, s());
    }
  }
  KOKKOS_INLINE_FUNCTION OperandMarks marks_of(int i, int j) const {
    return marks != nullptr ? OperandMarks{marks + i, marks + nb + j} : OperandMarks{};
  }
};

/// Whole rounds of the tuned shape only: the product of kRounds B pivots (kRounds = R).
template <class Ops, int kRounds>
struct BlockTilesKernel : BlockTiles<typename Ops::Value> {
  using Base = BlockTiles<typename Ops::Value>;
  using Base::B, Base::d, Base::k, Base::n;
  KOKKOS_INLINE_FUNCTION void operator()(const typename Ops::Member& team) const {
    int i, j;
    Base::tile_of(team.league_rank(), i, j);
    count_lanes16(team, Base::lanes16,
                  Ops::template min_plus_product<true, kRounds>(
                      team, d + int64_t(i) * B * n + int64_t(j) * B, d + int64_t(i) * B * n + int64_t(k) * B,
                      d + int64_t(k) * B * n + int64_t(j) * B, n, B, kRounds * B, Base::marks_of(i, j)),
                  Ops::computed(B, B, kRounds * B));
  }
};

}  // namespace apsp::Impl
