// SPDX-License-Identifier: BSD-3-Clause
// (GPU backends) Phase 3 of a block of R rounds (4, 8 or 16) on one pass over C: blocked
// Floyd-Warshall with an outer block of R tile rounds. A pair of rounds on one pass
// (gpu/pair_kernels.hpp) halved the fixed cost of each tile product (loading C, the vote, the
// stores); ncu on one H100 at V = 20000 still put 20 % of the pair kernel's warp samples outside
// its slice loop, and R rounds divide that by R / 2 again.
//
// Rounds J = [k, k + R) as one block of R B pivots, in the three phases of blocked
// Floyd-Warshall at that size. The block's opening, on the second queue:
// 1. the diagonal block D = tiles (J, J) closed: the R tile rounds of J on D alone (phases 1, 2
//    and 3 of each round restricted to D, the phase kernels on D as a matrix of R tile rows);
// 2. the strips (tile rows and columns J, off D) in one product of depth R B each, a row tile
//    (q, j) through D's row q, a column tile (i, q) through D's column q (part `strips`).
// Every other tile (i, j) then takes the R rounds in one product of depth R B: A = tiles (i, k ..
// k + R - 1), side by side in the matrix, Bk = tiles (k .. k + R - 1, j) below one another (parts
// `rest` and `cross`): a product over final operands, in any order of its pivots.
//
// Why step 2 is exact though its teams read tiles that others of the same kernel write. Let
// d_J(x, y) be the shortest path from x to y through the vertices of earlier blocks and of J
// (D holds d_J after step 1) and old(z, j) a strip entry before step 2 (through earlier blocks
// only). A path through J leaves J for the last time at some z in J, so
//   d_J(q, j) = min over z in J of d_J(q, z) + old(z, j)   (the term z = q is old(q, j)).
// A team reads each entry of its strip operand before or after the team of that tile writes
// it: old(z, j), or d_J(z, j) <= old(z, j). Every term it forms is then the length of a path through
// earlier blocks and J, so at least d_J(q, j), and the term of the z that attains the minimum is
// at most old's: the minimum over the terms is d_J(q, j) whichever values were read (the same for
// a column tile, through D's column). In 16-bit lanes (gpu/packed_tiles.hpp) case 1 holds for any
// operands; case 2 takes the strips' marks from before step 2 (StripMarkKernel). A value read
// after its update is below the marked one (still small), or was INF: staged capped, its sums
// are exact or at least kCap, which replaces no lane. The attaining term is made of marked
// values, small where d_J(q, j) is finite, and its sum, read either way, is exact; where
// d_J(q, j) is INF no term is finite. A strip operand marked as INF alone before step 2 stays so
// (each of its entries is a minimum of terms with an old INF in them), so the products that
// skip it (OperandMarks::changes_nothing) leave entries that are INF and stay INF.
//
// After step 2 the strips are final for J, and their 16-bit marks for the fused products are taken
// once (StripMarkKernel: one flag per strip of R tiles). Before 0d879c9 step 2 was the block's
// rounds one at a time on the strips (phases 2 and 3 of each round, R kernels of depth B): ncu on
// one H100 at V = 20000 put those at 14 % of the kernel time for 10 % of the relaxations.
//
// The look-ahead splits the fused tiles by the next block of rounds N = [k + R, k + R + next):
// the tiles of rows and columns N ("cross") go first on the second queue, where the next block
// then opens; the rest on the main queue.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "apsp/solver/gpu/tile_order.hpp"
#include "apsp/solver/lane_tally.hpp"
#include "apsp/solver/round_operands.hpp"

namespace apsp::Impl {

/// Marks the strips of the block [k, k + R) for a product through them (PackedTiles' cases 2
/// and 3, and products left out): team t < nb sets a[t] = the OperandMark bits of tiles (t, k ..
/// k + R - 1), team nb + t sets a[nb + t] for tiles (k .. k + R - 1, t) (mark_operand_region),
/// and each its least entry `least` ints further on. Taken twice per block: before the strips'
/// product (D's rows and columns closed, the strips not yet) and after it, for the fused
/// products. The strips' product takes no least entries: a strip operand it reads may already
/// be lower than marked (see above), and case 3 subtracts them from every operand.
template <class Ops>
struct StripMarkKernel {
  const int32_t* d;
  int64_t n;
  int B, k, R, nb;
  int32_t* a;  ///< nb flags, then bk's nb
  int64_t least;
  KOKKOS_INLINE_FUNCTION void operator()(const typename Ops::Member& team) const {
    const int id = team.league_rank(), t = id < nb ? id : id - nb;
    const bool row_strip = id < nb;  // B rows by R B columns, else R B rows by B columns
    const int rows = row_strip ? B : R * B, cols = row_strip ? R * B : B;
    const int32_t* first =
        row_strip ? d + int64_t(t) * B * n + int64_t(k) * B : d + int64_t(k) * B * n + int64_t(t) * B;
    mark_operand_region<Ops, kMarkRun>(team, first, n, rows, cols, B, a + id, least);
  }
};

/// The tiles of the block [k, k + R) that take its R rounds in one product, one part: the
/// strips (tile rows and columns of the block, off its diagonal block D), or of the fused
/// tiles the rest (off rows and columns of the block and of the next block N) or the cross (rows
/// and columns N, off the block's).
template <class Value>
struct BlockTiles {
  enum Part { strips, rest, cross };
  Value* d;  ///< the whole matrix, ld n
  int64_t n;
  int B, k, R, nb;
  int next;  ///< rounds in the next block N = [k + R, k + R + next)
  Part part;
  const int32_t* marks = nullptr;  ///< StripMarkKernel's flags (a: nb, then bk: nb), or null
  int64_t* lanes16 = nullptr;      ///< the lane tally (lane_tally.hpp), or null
  int64_t least = 0;               ///< ints from each mark to its strip's least entry
  KOKKOS_INLINE_FUNCTION int s() const { return R + next; }
  KOKKOS_INLINE_FUNCTION int league() const {
    const int m = nb - s();
    if (part == strips) return 2 * R * (nb - R);
    return part == rest ? m * m : next * (nb - R) + next * m;
  }
  KOKKOS_INLINE_FUNCTION void tile_of(int id, int& i, int& j) const {
    const int m = nb - s();
    if (part == strips) {  // rows J, then columns J; the R tiles that share a strip operand in a row
      const int half = R * (nb - R), t = id < half ? id : id - half;
      const int q = k + t % R, along = index_outside(t / R, k, R);
      i = id < half ? q : along;
      j = id < half ? along : q;
    } else if (part == rest) {  // grouped (gpu/tile_order.hpp)
      grouped_tile(id, m, k, s(), i, j);
    } else if (id < next * (nb - R)) {  // rows N, columns off the block
      i = k + R + id / (nb - R), j = index_outside(id % (nb - R), k, R);
    } else {  // columns N, rows off the block and N
      const int c = id - next * (nb - R);
      j = k + R + c / m, i = index_outside(c % m, k, s());
    }
  }
  KOKKOS_INLINE_FUNCTION OperandMarks marks_of(int i, int j) const {
    return marks != nullptr ? OperandMarks{marks + i, marks + nb + j, nullptr, nullptr, part == strips ? 0 : least}
                            : OperandMarks{};
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
    const OperandMarks marks = Base::marks_of(i, j);
    if (left_out(team, Base::lanes16, marks.changes_nothing(), Ops::computed(B, B, kRounds * B))) return;
    count_lanes16(team, Base::lanes16,
                  Ops::template min_plus_product<true, kRounds>(
                      team, d + int64_t(i) * B * n + int64_t(j) * B, d + int64_t(i) * B * n + int64_t(k) * B,
                      d + int64_t(k) * B * n + int64_t(j) * B, n, B, kRounds * B, marks),
                  Ops::computed(B, B, kRounds * B));
  }
};

}  // namespace apsp::Impl
