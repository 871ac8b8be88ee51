// SPDX-License-Identifier: BSD-3-Clause
// The steps of one block of rounds across ranks (DistributedBlocks, distributed_blocks.hpp: the
// outline and why): the opening on the owner, the marks, and the band's products.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>

#include "apsp/mpi/distributed_blocks.hpp"

namespace apsp::mpi {

/// Block b of `size` rounds from k, J's rows at `pivot`; `next`: the rounds of the block after
/// it (0: none). On the main queue: the column strip, then the rest of the band; the owner of the
/// next block takes that block's rows first and opens it, on the side queue, and starts its rows
/// on their way.
template <class ExecSpace, class FW>
void DistributedBlocks<ExecSpace, FW>::run_block(int k, int size, int next, const Value* pivot, int b) {
  const Block rb = band();
  const int first = rb.first_tile, end = first + rb.row_tiles, after = k + size;
  int32_t* set = marks(b % 2);
  const int64_t least = keeps_least() ? least_offset() : 0;
  // The column strip through D's columns: A is the strip itself, as it is (its marks taken first,
  // no least entries: it changes while its teams read it).
  mark(compute_, k, size, pivot, set, first, rb.row_tiles, true);
  products(compute_, k, size, pivot, first, end, true, set, first, 0, k, after);
  mark(compute_, k, size, pivot, set, first, rb.row_tiles, false);  // A final: marked again
  if (next == 0 || !owns(after)) {
    products(compute_, k, size, pivot, first, end, false, set, first, least, k, after);
    return;
  }
  // The next block's rows, then its opening, on the side queue; the rest here meanwhile.
  Runtime::record(column_done_, compute_);
  Runtime::wait(side_, column_done_);
  products(side_, k, size, pivot, after, after + next, false, set, first, least, k, after);
  open_block(after, next, side_);
  products(compute_, k, size, pivot, first, end, false, set, first, least, k, after + next);
  Kokkos::Timer t;
  side_.fence();  // the next block's rows are final: they may leave while the rest runs here
  seconds_->opening += t.seconds();
  rows_.stage_out(rb.tile_row(after), b + 1, entries(next));
}

/// The owner's opening of the block of `size` rounds from k, on `exec`: D closed by the three
/// phases of each round on D alone, then the row strip through D's rows (A: D's rows, final;
/// Bk: the strip being written, marked as it was, no least entries).
template <class ExecSpace, class FW>
void DistributedBlocks<ExecSpace, FW>::open_block(int k, int size, const ExecSpace& exec) {
  const Block rb = band(), diagonal = rb.diagonal(k, size);
  int64_t* tally = lanes16_.slots();
  for (int r = 0; r < size; ++r) {
    FW::phase1(diagonal, r, exec);
    FW::phase2(diagonal, r, diagonal.tile_row(r), true, true, exec, tally);
    FW::phase3(diagonal, r, diagonal.tile_row(r), exec, PackedRound{}, tally);
  }
  int32_t* set = marks(2);
  mark(exec, k, size, rb.tile_row(k), set, k, size, true);
  products(exec, k, size, rb.tile_row(k), k, k + size, false, set, k, 0, k, k);
}

/// Marks into `to`: A's, tiles (i, J) of the band's rows [a_first, a_first + a_count), and
/// (`with_bk`) Bk's, tiles (J, j) of J's rows at `pivot`, each with its least entry where the
/// backend keeps them. Nothing where the backend marks no operands (a CPU).
template <class ExecSpace, class FW>
void DistributedBlocks<ExecSpace, FW>::mark(const ExecSpace& exec, int k, int size, const Value* pivot, int32_t* to,
                                            int a_first, int a_count, bool with_bk) const {
  if constexpr (Ops::kMarksOperands) {
    const int nb = int(local_.n / local_.block);
    const int league = a_count + (with_bk ? nb : 0);
    if (league == 0) return;
    Kokkos::parallel_for(
        "apsp::mpi::block_marks", Kokkos::TeamPolicy<ExecSpace>(exec, league, Kokkos::AUTO),
        Impl::BandMarkKernel<Ops>{band().rows, pivot, local_.n, local_.block, k, size, band().first_tile, a_first,
                                  a_count, to, bk_marks(to), keeps_least() ? least_offset() : 0});
  } else {
    (void)exec, (void)k, (void)size, (void)pivot, (void)to, (void)a_first, (void)a_count, (void)with_bk;
  }
}

/// The products of the block of `size` rounds from k on the band's rows [from, to) but
/// [skip_from, skip_to), with columns J (`in_block`) or off J; `marks`: a set (A's flags from
/// tile row a_first), `least`: its least entries' offset or 0.
template <class ExecSpace, class FW>
void DistributedBlocks<ExecSpace, FW>::products(const ExecSpace& exec, int k, int size, const Value* pivot, int from,
                                                int to, bool in_block, const int32_t* marks, int a_first, int64_t least,
                                                int skip_from, int skip_to) const {
  const Block rb = band();
  const int nb = rb.col_tiles;
  const bool marked = Ops::kMarksOperands;
  auto range = [&](int lo, int hi) {
    const Impl::BandTiles<Value> t{rb.rows,
                                   pivot,
                                   rb.n,
                                   rb.block,
                                   k,
                                   size,
                                   nb,
                                   rb.first_tile,
                                   lo,
                                   hi,
                                   in_block,
                                   rb.pivots(k + size - 1),
                                   a_first,
                                   marked ? marks : nullptr,
                                   marked ? bk_marks(marks) : nullptr,
                                   least,
                                   lanes16_.slots()};
    launch(exec, t);
  };
  range(from, std::min(to, skip_from));
  range(std::max(from, skip_to), to);
}

/// The tuned product of the block's whole rounds where the backend has it, else the general one
/// round after round.
template <class ExecSpace, class FW>
void DistributedBlocks<ExecSpace, FW>::launch(const ExecSpace& exec, const Impl::BandTiles<Value>& t) const {
  if (t.league() <= 0) return;
  if constexpr (Ops::kHasTuned && !Ops::kPacksRounds) {
    if (Ops::tuned(t.B, t.pivots)) {
      switch (t.R) {
        case 16:
          return launch_as<16>(exec, t);
        case 8:
          return launch_as<8>(exec, t);
        case 4:
          return launch_as<4>(exec, t);
        case 2:
          return launch_as<2>(exec, t);
        default:
          return launch_as<1>(exec, t);
      }
    }
  }
  launch_as<0>(exec, t);
}

}  // namespace apsp::mpi
