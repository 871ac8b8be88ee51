// SPDX-License-Identifier: BSD-3-Clause
// The tiles one rank computes for a block of R rounds across ranks (distributed_blocks.hpp): a
// block J = tile rows [k, k + R), all held by one rank (the owner), and this rank's band of tile
// rows. Each tile takes the block's R rounds in one product of depth R B, with the products one
// GPU uses for its blocks of rounds (Ops::min_plus_product of kRounds whole rounds: 16-bit lanes
// where a tile allows them, products with an operand of INF alone left out by the marks):
//   C = tile (i, j) of the band, A = tiles (i, J) beside it in the band's row i, Bk = tiles (J, j)
//   of J's rows (`pivot`: the owner's own rows, or the copy every other rank received).
// Three uses, by the columns j and the rows i taken (the driver chooses them; see there why each
// is exact):
// - the owner's row strip: rows J, columns off J, `pivot` the owner's rows J themselves (A is
//   the closed diagonal block's row, Bk the strip being written: the argument of
//   gpu/round_block_kernels.hpp's step 2);
// - the column strip: the band's rows off J, columns J (Bk: the closed diagonal block's columns);
// - the rest: the band's rows off J, columns off J, once the column strip is final.
// A backend without the tuned product of several rounds (a CPU, or a short last round) takes the
// block's rounds one after the other in the same tile, each a product of depth B: the same minimum.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "apsp/solver/gpu/operand_marks.hpp"
#include "apsp/solver/gpu/tile_order.hpp"
#include "apsp/solver/lane_tally.hpp"

namespace apsp::Impl {

// 32-bit offsets on purpose (see tile_ops.hpp).
// NOLINTBEGIN(bugprone-implicit-widening-of-multiplication-result)

/// Tiles (i, j) for i in [from, to) of the band and j in J (`in_block`) or off J.
template <class Value>
struct BandTiles {
  Value* rows;         ///< this rank's tile rows, ld n: global tile row `first` at rows
  const Value* pivot;  ///< J's R B rows (ld n)
  int64_t n;
  int B, k, R, nb, first;
  int from, to;                       ///< the band's tile rows taken (global)
  bool in_block;                      ///< columns J (the column strip), else the columns off J
  int pivots;                         ///< of J's last round: B, or fewer where it is the matrix's short last round
  int mark_first;                     ///< the tile row whose A mark is a_marks[0]
  const int32_t* a_marks = nullptr;   ///< tiles (i, J) at a_marks[i - mark_first], or null
  const int32_t* bk_marks = nullptr;  ///< tiles (J, j) at bk_marks[j], or null
  int64_t least = 0;                  ///< ints from each mark to its least entry; 0: none kept
  int64_t* lanes16 = nullptr;         ///< the lane tally (lane_tally.hpp), or null

  KOKKOS_INLINE_FUNCTION int columns() const { return in_block ? R : nb - R; }
  KOKKOS_INLINE_FUNCTION int league() const { return to > from ? (to - from) * columns() : 0; }
  /// In groups of kGroupRows rows, column by column within a group (gpu/tile_order.hpp).
  KOKKOS_INLINE_FUNCTION void tile_of(int id, int& i, int& j) const {
    const int m = columns(), span = to - from;
    const int group = id / (kGroupRows * m) * kGroupRows, g = span - group < kGroupRows ? span - group : kGroupRows;
    const int within = id - group * m, jj = within / g;
    i = from + group + within % g;
    j = in_block ? k + jj : index_outside(jj, k, R);
  }
  KOKKOS_INLINE_FUNCTION OperandMarks marks_of(int i, int j) const {
    return a_marks != nullptr ? OperandMarks{a_marks + (i - mark_first), bk_marks + j, nullptr, nullptr, least}
                              : OperandMarks{};
  }
  /// Relaxations of one tile's product over the block.
  KOKKOS_INLINE_FUNCTION int64_t depth() const { return int64_t(R - 1) * B + pivots; }
};

/// One team per tile. kRounds: the tuned product of kRounds whole rounds (R = kRounds, every
/// round whole); 0: the block's rounds one after the other in the general product.
template <class Ops, int kRounds>
struct BandTilesKernel : BandTiles<typename Ops::Value> {
  using Base = BandTiles<typename Ops::Value>;
  using Base::B, Base::k, Base::n, Base::R, Base::first, Base::pivot, Base::rows, Base::pivots, Base::lanes16;
  KOKKOS_INLINE_FUNCTION void operator()(const typename Ops::Member& team) const {
    int i, j;
    Base::tile_of(team.league_rank(), i, j);
    const OperandMarks marks = Base::marks_of(i, j);
    const int64_t relaxations = Ops::computed(B, B, int(Base::depth()));
    if (left_out(team, lanes16, marks.changes_nothing(), relaxations)) return;
    auto* c = rows + int64_t(i - first) * B * n + int64_t(j) * B;
    const auto* a = rows + int64_t(i - first) * B * n + int64_t(k) * B;
    const auto* bk = pivot + int64_t(j) * B;
    if constexpr (kRounds > 0) {
      count_lanes16(team, lanes16,
                    Ops::template min_plus_product<true, kRounds>(team, c, a, bk, n, B, kRounds * B, marks),
                    relaxations);
    } else {
      int32_t* slices = Ops::scratch(team, Ops::product_ints(B));
      int64_t sixteen = 0;
      for (int r = 0; r < R; ++r) {
        if (r > 0) team.team_barrier();  // the last product's slices read before they are staged again
        sixteen +=
            Ops::general_product(team, c, a + r * B, bk + int64_t(r) * B * n, n, B, r + 1 < R ? B : pivots, slices);
      }
      count_lanes16(team, lanes16, sixteen, relaxations);
    }
  }
};

/// Marks the operands of a block's products (OperandMarks): team t < a_count sets a[t] for the
/// tiles (a_first + t, J) of `rows` (B rows by R B columns), team a_count + t sets bk[t] for tiles
/// (J, t) of `pivot` (R B rows by B columns); each its least entry `least` ints further on where
/// `least` is not 0 (mark_operand_region).
template <class Ops>
struct BandMarkKernel {
  const int32_t* rows;
  const int32_t* pivot;
  int64_t n;
  int B, k, R, first, a_first, a_count;
  int32_t* a;
  int32_t* bk;
  int64_t least;
  KOKKOS_INLINE_FUNCTION void operator()(const typename Ops::Member& team) const {
    const int id = team.league_rank();
    if (id < a_count) {
      const int32_t* region = rows + int64_t(a_first + id - first) * B * n + int64_t(k) * B;
      mark_operand_region<Ops, kMarkRun>(team, region, n, B, R * B, B, a + id, least);
    } else {
      const int t = id - a_count;
      mark_operand_region<Ops, kMarkRun>(team, pivot + int64_t(t) * B, n, R * B, B, B, bk + t, least);
    }
  }
};

// NOLINTEND(bugprone-implicit-widening-of-multiplication-result)

}  // namespace apsp::Impl
