// SPDX-License-Identifier: BSD-3-Clause
// (GPU backends) Phase 3 of two rounds on one pass over C. Each phase-3 tile product loads its
// C, votes on its lanes, stages and stores: per tile a fixed cost beside the B pivots it relaxes
// (on an H200, ncu put a third of phase 3's stall samples outside the slice loop). A product of
// 2B pivots, rounds k and q = k + 1 one after the other between one load and one store, pays it
// once for both: on one H200 a product relaxing each slice twice took 0.86 of twice the time.
// Rounds k's and q's operands of tile (i, j) lie side by side in the matrix (tiles (i, k),
// (i, q) and (k, j), (q, j)), so that product is the tuned one with twice the slices.
//
// A pair is open once both rounds' phases 1 and 2 are done and round k's phase 3 on tile row and
// column q (NextPivotCrossKernel). What is left of the pair:
//   fused:   both rounds on tile (i, j), i, j not in {k, q};
//   lagging: round q alone on tile row k ((k, j), j != q: the pivot tile (k, k) among them) and
//            tile column k ((i, k), i != k, q), whose round k was phase 2.
// The look-ahead (blocked_fw.hpp) splits both by the next block of rounds R = [k + 2, k + 2 +
// next), whose opening needs tile rows and columns R finished: those tiles ("cross") go first on
// the second queue, the rest on the main one. A lagging tile changes a tile that fused ones read
// as round k's operand (its 16-bit marks were taken before), so lagging tiles run after every
// fused one that reads them: in kernels of their own, ordered by the queues and an event.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "apsp/solver/gpu/tile_order.hpp"
#include "apsp/solver/lane_tally.hpp"
#include "apsp/solver/round_operands.hpp"

namespace apsp::Impl {

/// The tiles of one part of a pair's phase 3 (see above), one team each.
template <class Value>
struct PairTiles {
  enum Part { rest_fused, rest_lagging, cross_fused, cross_lagging };
  Value* d;  ///< the whole matrix, ld n
  int64_t n;
  int B, k, nb;
  int next;  ///< rounds in the next block: 0, 1 or 2
  Part part;
  PackedRound first, then;     ///< rounds k's and q's marks
  int64_t* lanes16 = nullptr;  ///< the lane tally (lane_tally.hpp), or null

  /// Rounds and next block: [k, k + s) are left out of the rest.
  KOKKOS_INLINE_FUNCTION int s() const { return 2 + next; }
  KOKKOS_INLINE_FUNCTION int league() const {
    const int x = next, m = nb - s();
    switch (part) {
      case rest_fused:
        return m * m;
      case rest_lagging:
        return (nb - (s() - 1)) + m;
      case cross_fused:
        return x * (nb - 2) + x * m;
      default:
        return 2 * x;
    }
  }
  /// Team `id`'s tile (i, j) of this part.
  KOKKOS_INLINE_FUNCTION void tile_of(int id, int& i, int& j) const {
    const int x = next, m = nb - s();
    switch (part) {
      case rest_fused:  // grouped (gpu/tile_order.hpp)
        grouped_tile(id, m, k, s(), i, j);
        break;
      case rest_lagging:  // (k, j), j outside [k + 1, k + s); then (i, k), i outside [k, k + s)
        if (id < nb - (s() - 1))
          i = k, j = index_outside(id, k + 1, s() - 1);
        else
          i = index_outside(id - (nb - (s() - 1)), k, s()), j = k;
        break;
      case cross_fused:  // rows R, columns outside [k, k + 2); then columns R, rows outside [k, k + s)
        if (id < x * (nb - 2))
          i = k + 2 + id / (nb - 2), j = index_outside(id % (nb - 2), k, 2);
        else
          j = k + 2 + (id - x * (nb - 2)) / m, i = index_outside((id - x * (nb - 2)) % m, k, s());
        break;
      default:  // (r, k) and (k, r), r in R
        if (id < x)
          i = k + 2 + id, j = k;
        else
          i = k, j = k + 2 + (id - x);
    }
  }
  KOKKOS_INLINE_FUNCTION bool fused() const { return part == rest_fused || part == cross_fused; }
};

/// Whole rounds of the tuned shape only (PairRounds::applies, gpu/pair_rounds.hpp). The fused parts
/// and the lagging ones are separate kernels (kFused): one kernel with both products spilled.
template <class Ops, bool kFused>
struct PairTilesKernel : PairTiles<typename Ops::Value> {
  using Base = PairTiles<typename Ops::Value>;
  using Base::B, Base::d, Base::k, Base::n;
  KOKKOS_INLINE_FUNCTION void operator()(const typename Ops::Member& team) const {
    int i, j;
    Base::tile_of(team.league_rank(), i, j);
    typename Ops::Value* c = d + int64_t(i) * B * n + int64_t(j) * B;
    if constexpr (kFused) {  // rounds k and q: A's columns from tile (i, k), Bk's rows from tile (k, j)
      const OperandMarks marks = Base::first.marks(i, j, Base::then);
      if (left_out(team, Base::lanes16, marks.changes_nothing(), Ops::computed(B, B, 2 * B))) return;
      count_lanes16(
          team, Base::lanes16,
          Ops::template min_plus_product<true, 2>(team, c, d + int64_t(i) * B * n + int64_t(k) * B,
                                                  d + int64_t(k) * B * n + int64_t(j) * B, n, B, 2 * B, marks),
          Ops::computed(B, B, 2 * B));
    } else {  // round q alone
      const int q = k + 1;
      const OperandMarks marks = Base::then.marks(i, j);
      if (left_out(team, Base::lanes16, marks.changes_nothing(), Ops::computed(B, B, B))) return;
      count_lanes16(team, Base::lanes16,
                    Ops::template min_plus_product<true>(team, c, d + int64_t(i) * B * n + int64_t(q) * B,
                                                         d + int64_t(q) * B * n + int64_t(j) * B, n, B, B, marks),
                    Ops::computed(B, B, B));
    }
  }
};

}  // namespace apsp::Impl
