// SPDX-License-Identifier: BSD-3-Clause
// The CPU solve in two stages (one process): rounds on the int32 matrix (host/rounds.hpp with
// TileOps) until every distance is below 2^15, then the rest of the rounds on the same matrix
// narrowed in place to 16 bits (host/rounds.hpp with HostOps16, host/tiles16.hpp), widened back
// at the end (host/narrow16.hpp), or left so for an output that widens it into float64 itself.
// Entries only fall, so a matrix below 2^15 stays below it.
//
// Why: on the int32 matrix a block of C takes 16-bit lanes after a test of its entries, and is
// narrowed into the lanes and widened back out of them (host/tiles.hpp); kept in 16 bits between
// rounds, C costs neither, and half the bytes. On the Zen 5 EPYC the solve of a random graph
// took 0.95x the time at 1 thread and 0.94x at 2, on the Xeon 0.92x and 0.95x at 1 and 16
// threads at V = 10000 and the same at V = 6000 (docs/results.md). The cost: two passes over the
// matrix (narrowing, widening), no memory.
//
// When: after a round whose phase-3 products met no block of C with an entry of 2^15 or more
// (PackedRound::note_far), a pass over its pivot row and column (all they did not test) decides.
// A graph whose distances pass 2^15, or that holds unreachable pairs (INF), stays on the int32
// matrix at no cost beyond a flag; a random graph of weights up to 1000 starts the stage after
// round 1 (round 0's products meet INF: the pairs not joined yet).
#pragma once

#include <Kokkos_Core.hpp>

#include <atomic>
#include <cstdint>

#include "apsp/core/constants.hpp"
#include "apsp/solver/host/narrow16.hpp"
#include "apsp/solver/host/ops16.hpp"
#include "apsp/solver/host/rounds.hpp"
#include "apsp/solver/round_operands.hpp"
#include "apsp/solver/row_block.hpp"

namespace apsp::Impl {

/// `Ops`: the int32 tile operations (TileOps with kPacksRounds).
template <class ExecSpace, class Ops>
struct HostSixteen {
  using Ops16 = HostOps16<ExecSpace>;

  /// Every round on the whole matrix `rb`, as HostRounds::solve from the start. Returns the
  /// round the 16-bit stage began (the number of rounds: none). `stay_narrowed`: a matrix that
  /// took the stage is left in 16 bits (narrow()'s layout) for a caller that widens it itself,
  /// into another type (the Python package's float64 result, in one pass instead of two).
  template <class AfterRound>
  static int solve(const RowBlock& rb, AfterRound&& after_round, int64_t* lanes16, bool stay_narrowed = false) {
    const RoundOperands<ExecSpace, Ops> round_ops(rb);
    const int next = HostRounds<ExecSpace, Ops>::solve(rb, round_ops, after_round, lanes16, -1, [&](int k) {
      if (round_ops.far_seen() || !cross_below_2_15(rb, k)) return false;
      narrow(rb);
      return true;
    });
    if (next >= rb.col_tiles) return next;
    const RowBlockOf<uint16_t> rb16{
        reinterpret_cast<uint16_t*>(rb.rows), rb.first_tile, rb.row_tiles, rb.n, rb.block, rb.vertices, rb.col_tiles};
    {
      const RoundOperands<ExecSpace, Ops16> round_ops16(rb16, round_ops.storage());
      HostRounds<ExecSpace, Ops16>::solve(rb16, round_ops16, after_round, lanes16, next);
    }
    if (!stay_narrowed) widen(rb);
    return next;
  }

  /// Whether every entry of the V x V matrix is below 2^15 (stops at the first that is not).
  static bool below_2_15(const RowBlock& rb) { return region_below_2_15(rb, 0, rb.vertices, 0, rb.vertices); }
  /// The same after round k (k + 1 < the rounds) whose phase-3 products noted no entry of 2^15
  /// or more: their tiles held none before them, so after them either; what remains is tile
  /// row k and tile column k (tiles (k + 1, k) and (k, k + 1) among them, which round k + 1's
  /// phase 2 updated), 2 V B entries.
  static bool cross_below_2_15(const RowBlock& rb, int k) {
    const int64_t first = int64_t(k) * rb.block, count = int64_t(rb.pivots(k));
    return region_below_2_15(rb, first, count, 0, rb.vertices) && region_below_2_15(rb, 0, rb.vertices, first, count);
  }
  /// Whether every entry of rows [r0, r0 + rows) x columns [c0, c0 + cols) is below 2^15.
  static bool region_below_2_15(const RowBlock& rb, int64_t r0, int64_t rows, int64_t c0, int64_t cols) {
    const int64_t n = rb.n;
    const int32_t* m = rb.rows;
    std::atomic<int> far{0};
    Kokkos::parallel_for("apsp::below_2_15", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(r0, r0 + rows),
                         [&](const int64_t r) {
                           if (far.load(std::memory_order_relaxed) != 0) return;
                           const int32_t* row = m + r * n + c0;
                           uint32_t any = 0;
                           for (int64_t c = 0; c < cols; ++c) any |= uint32_t(row[c]);
                           if (any >= 0x8000u) far.store(1, std::memory_order_relaxed);
                         });
    ExecSpace().fence();
    return far.load() == 0;
  }

  /// The matrix narrowed in place (Narrow16::narrow), padding 2^15 - 1.
  static void narrow(const RowBlock& rb) {
    Narrow16<ExecSpace>::narrow(rb.rows, rb.n, rb.vertices, Ops16::Tiles::kCap);
  }
  /// The inverse (Narrow16::widen).
  static void widen(const RowBlock& rb) { Narrow16<ExecSpace>::widen(rb.rows, rb.n, rb.vertices); }
};

}  // namespace apsp::Impl
