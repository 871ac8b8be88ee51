// SPDX-License-Identifier: BSD-3-Clause
// The phase kernels of a round, one team per tile: phase 1 closes the pivot tile, phase 2
// relaxes the pivot row and column through it, phase 3 every other tile (split in two for the
// look-ahead of one device). Each is a thin indexing layer over the tile operations `Ops`
// (TileOps, tile_ops.hpp, on int32 distances); Ops::Value is the entry type.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "apsp/solver/lane_tally.hpp"
#include "apsp/solver/round_operands.hpp"
#include "apsp/solver/tile_ops.hpp"

namespace apsp::Impl {

/// Phase 1: Floyd-Warshall on the pivot tile, one team.
template <class Ops>
struct PivotTileKernel {
  typename Ops::Value* tile;  ///< the pivot tile (k, k), leading dimension n
  int64_t n;
  int B;
  int pivots;  ///< pivots of this round short of V (B but in the last round)
  KOKKOS_INLINE_FUNCTION void operator()(const typename Ops::Member& team) const {
    Ops::close_tile(team, tile, n, B, pivots);
  }
};

// The product kernels below come in two instantiations (kTuned: see
// TileOps::min_plus_product); their fields are a plain struct that both share.

/// Phase 2, one team per tile: the pivot row's tiles (k, j) (when `row_part`) and the pivot
/// column's tiles (i, k) of the tile rows held in `rows` (when `column_part`). The pivot tile
/// P is closed after phase 1, so relaxing a tile through its B pivots one by one gives the
/// same result as one min-plus product with P: row tile T = min(T, P (min,+) T), column tile
/// T = min(T, T (min,+) P), the same kernel as phase 3.
template <class Value>
struct PivotRowColumnTiles {
  Value* rows;         ///< the tile rows held here (all of them on one device), ld n
  const Value* pivot;  ///< the pivot tile (k, k), ld n: in `rows` or in a received pivot row
  int64_t n;
  int B, k, nb;
  int row_tiles;  ///< tile rows in `rows`
  int k_local;    ///< tile row of the pivot block within `rows`, or -1
  bool row_part, column_part;
  int pivots;                  ///< pivots of this round short of V
  int64_t* lanes16 = nullptr;  ///< counts the relaxations done in 16-bit lanes (lane_tally.hpp), or null
  MarkTargets marks{};         ///< (Ops::kMarksOperands) where each tile's mark goes, or none
  KOKKOS_INLINE_FUNCTION int row_teams() const { return row_part ? nb - 1 : 0; }
  KOKKOS_INLINE_FUNCTION int column_teams() const { return column_part ? row_tiles - (k_local >= 0) : 0; }
  /// Team `id`'s tile: (k, other) of the pivot row if `in_row`, else (other, k), `other` a tile
  /// row of `rows`; the pivot tile itself skipped.
  KOKKOS_INLINE_FUNCTION void tile_of(int id, bool& in_row, int& other) const {
    in_row = id < row_teams();
    other = in_row ? id : id - row_teams();
    if (in_row)
      other += other >= k;  // column k of the pivot row
    else if (k_local >= 0)
      other += other >= k_local;  // tile row k of the rows held
  }
};
template <class Ops, bool kTuned = false>
struct PivotRowColumnKernel : PivotRowColumnTiles<typename Ops::Value> {
  using Base = PivotRowColumnTiles<typename Ops::Value>;
  using Base::B, Base::k, Base::k_local, Base::n, Base::pivot, Base::pivots, Base::rows;
  KOKKOS_INLINE_FUNCTION void operator()(const typename Ops::Member& team) const {
    bool in_row;
    int other;
    Base::tile_of(team.league_rank(), in_row, other);
    typename Ops::Value* t =
        in_row ? rows + int64_t(k_local) * B * n + int64_t(other) * B : rows + int64_t(other) * B * n + int64_t(k) * B;
    count_lanes16(team, Base::lanes16,
                  Ops::template min_plus_product<kTuned>(team, t, in_row ? pivot : t, in_row ? t : pivot, n, B, pivots),
                  Ops::computed(B, B, pivots));
    if constexpr (Ops::kMarksOperands)
      if (Base::marks.a != nullptr)  // its barrier orders the product's stores before the reads
        mark_operand_tile<Ops>(team, t, n, B, in_row ? Base::marks.bk + other : Base::marks.a + other,
                               Base::marks.least);
  }
};

/// Phase 3, one team per tile (i, j) of the tile rows in `rows`, off the pivot row and column:
/// D(i, j) = min(D(i, j), D(i, k) (min,+) D(k, j)), with D(k, j) from the pivot row block.
/// `skip` = 2 leaves out tile row and column k + 1 as well (the look-ahead of one device, which
/// updates them first with NextPivotCrossKernel).
template <class Value>
struct RemainingTiles {
  Value* rows;             ///< the tile rows held here, ld n
  const Value* pivot_row;  ///< the pivot row block (B rows of n), ld n
  int64_t n;
  int B, k, nb;
  int k_local;                 ///< tile row of the pivot block within `rows`, or -1
  int skip;                    ///< tile rows and columns left out from k on: 1, or 2 (also k + 1)
  int pivots;                  ///< pivots of this round short of V
  PackedRound packed{};        ///< the round's operands packed (or marked) for these rows
  int64_t* lanes16 = nullptr;  ///< counts the relaxations done in 16-bit lanes (lane_tally.hpp), or null
  /// Team `rank`'s tile (bi of `rows`, bj), row by row.
  KOKKOS_INLINE_FUNCTION void tile_of(int rank, int& bi, int& bj) const {
    bi = rank / (nb - skip);
    bj = rank % (nb - skip);
    bi += k_local >= 0 && bi >= k_local ? skip : 0;
    bj += bj >= k ? skip : 0;
  }
};
template <class Ops, bool kTuned = false>
struct RemainingTilesKernel : RemainingTiles<typename Ops::Value> {
  using Base = RemainingTiles<typename Ops::Value>;
  using Base::B, Base::k, Base::n, Base::pivot_row, Base::pivots, Base::rows;
  KOKKOS_INLINE_FUNCTION void operator()(const typename Ops::Member& team) const {
    int bi, bj;
    Base::tile_of(team.league_rank(), bi, bj);
    typename Ops::Value* tile_row = rows + int64_t(bi) * B * n;
    if constexpr (Ops::kPacksRounds)
      if (Base::packed) {
        if (left_out(team, Base::lanes16, Ops::packed_changes_nothing(Base::packed, bi, bj),
                     Ops::packed_computed(B, pivots, Base::packed, bi, bj)))
          return;
        return count_lanes16(team, Base::lanes16,
                             Ops::packed_product(team, tile_row + int64_t(bj) * B, n, B, pivots, Base::packed, bi, bj),
                             Ops::packed_computed(B, pivots, Base::packed, bi, bj));
      }
    const OperandMarks marks = Base::packed.marks(bi, bj);
    if (left_out(team, Base::lanes16, marks.changes_nothing(), Ops::computed(B, B, pivots))) return;
    count_lanes16(team, Base::lanes16,
                  Ops::template min_plus_product<kTuned>(team, tile_row + int64_t(bj) * B, tile_row + int64_t(k) * B,
                                                         pivot_row + int64_t(bj) * B, n, B, pivots, marks),
                  Ops::computed(B, B, pivots));
  }
};

/// Round k's phase 3 on tile row and column k + 1 only (one device holding every row): the
/// tiles round k + 1's phases 1 and 2 start from, so that they may run beside the rest of
/// round k's phase 3. Teams 0 .. nb - 2: tiles (k + 1, j), j != k; then (i, k + 1), i != k, k + 1.
template <class Value>
struct NextPivotCross {
  Value* d;  ///< the whole matrix, ld n
  int64_t n;
  int B, k, nb;
  int pivots;                  ///< pivots of round k short of V
  PackedRound packed{};        ///< round k's operands packed (or marked)
  int64_t* lanes16 = nullptr;  ///< counts the relaxations done in 16-bit lanes (lane_tally.hpp), or null
};
template <class Ops, bool kTuned = false>
struct NextPivotCrossKernel : NextPivotCross<typename Ops::Value> {
  using Base = NextPivotCross<typename Ops::Value>;
  using Base::B, Base::d, Base::k, Base::n, Base::nb, Base::pivots;
  KOKKOS_INLINE_FUNCTION void operator()(const typename Ops::Member& team) const {
    const int id = team.league_rank();
    const bool in_row = id < nb - 1;
    const int other = in_row ? id + (id >= k) : (id - (nb - 1)) + (id - (nb - 1) >= k ? 2 : 0);
    const int bi = in_row ? k + 1 : other, bj = in_row ? other : k + 1;
    typename Ops::Value* tile_row = d + int64_t(bi) * B * n;
    if constexpr (Ops::kPacksRounds)
      if (Base::packed) {
        if (left_out(team, Base::lanes16, Ops::packed_changes_nothing(Base::packed, bi, bj),
                     Ops::packed_computed(B, pivots, Base::packed, bi, bj)))
          return;
        return count_lanes16(team, Base::lanes16,
                             Ops::packed_product(team, tile_row + int64_t(bj) * B, n, B, pivots, Base::packed, bi, bj),
                             Ops::packed_computed(B, pivots, Base::packed, bi, bj));
      }
    const OperandMarks marks = Base::packed.marks(bi, bj);
    if (left_out(team, Base::lanes16, marks.changes_nothing(), Ops::computed(B, B, pivots))) return;
    count_lanes16(team, Base::lanes16,
                  Ops::template min_plus_product<kTuned>(team, tile_row + int64_t(bj) * B, tile_row + int64_t(k) * B,
                                                         d + int64_t(k) * B * n + int64_t(bj) * B, n, B, pivots, marks),
                  Ops::computed(B, B, pivots));
  }
};

}  // namespace apsp::Impl
