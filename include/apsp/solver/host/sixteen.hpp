// SPDX-License-Identifier: BSD-3-Clause
// The CPU solve in two stages (one process): rounds on the int32 matrix (host/rounds.hpp with
// TileOps) until every distance is below 2^15, then the rest of the rounds on the same matrix
// narrowed in place to 16 bits (host/rounds.hpp with HostOps16, host/tiles16.hpp), widened back
// at the end. Entries only fall, so a matrix below 2^15 stays below it.
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
#include <cstring>

#include "apsp/core/constants.hpp"
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
  /// round the 16-bit stage began (the number of rounds: none).
  template <class AfterRound>
  static int solve(const RowBlock& rb, AfterRound&& after_round, int64_t* lanes16) {
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
    widen(rb);
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

  /// The matrix narrowed in place: entry (r, c) to byte 2 (r n + c) (row r lands where the
  /// int32 row r / 2 was), padding 2^15 - 1. Rows go in ranges [0, 1), [1, 2), [2, 4), ...,
  /// [2^m, 2^(m+1)), one kernel each: a range writes only where the ranges before it were read.
  static void narrow(const RowBlock& rb) {
    const int64_t n = rb.n, V = rb.vertices;
    auto* bytes = reinterpret_cast<unsigned char*>(rb.rows);
    for (int64_t lo = 0, hi = 1; lo < n; lo = hi, hi = hi * 2 < n ? hi * 2 : n)
      Kokkos::parallel_for("apsp::narrow16", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(lo, hi),
                           [=](const int64_t r) { narrow_row(bytes, r, n, V); });
    ExecSpace().fence();
  }
  /// The inverse, ranges from the last: row r's int32 place holds 16-bit rows 2 r and 2 r + 1,
  /// widened already. Padding entries get what the matrix was built with (0 on the diagonal,
  /// INF elsewhere).
  static void widen(const RowBlock& rb) {
    const int64_t n = rb.n, V = rb.vertices;
    auto* bytes = reinterpret_cast<unsigned char*>(rb.rows);
    int64_t hi = n, lo = 1;
    while (lo * 2 < n) lo *= 2;
    for (;;) {
      Kokkos::parallel_for("apsp::widen16", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(lo, hi),
                           [=](const int64_t r) { widen_row(bytes, r, n, V); });
      if (lo == 0) break;
      hi = lo;
      lo /= 2;
    }
    ExecSpace().fence();
  }

 private:
  static constexpr int kRun = 16;  ///< entries converted at a time, through registers

  /// Row r: entries from byte 4 r n, to byte 2 r n, in increasing order (the write of a run
  /// lands where this row or earlier ones were read). memcpy: the two types alias.
  static void narrow_row(unsigned char* m, int64_t r, int64_t n, int64_t V) {
    const int64_t valid = r < V ? V : 0;
    for (int64_t c = 0; c < n; c += kRun) {
      int32_t in[kRun];
      uint16_t out[kRun];
      const int w = n - c < kRun ? int(n - c) : kRun;
      if (w == kRun && c + kRun <= valid) {  // constant sizes: copies in registers, not calls
        std::memcpy(in, m + 4 * (r * n + c), sizeof in);
        for (int j = 0; j < kRun; ++j) out[j] = uint16_t(in[j]);
        std::memcpy(m + 2 * (r * n + c), out, sizeof out);
        continue;
      }
      std::memcpy(in, m + 4 * (r * n + c), size_t(w) * 4);
      for (int j = 0; j < kRun; ++j) out[j] = c + j < valid ? uint16_t(in[j]) : Ops16::Tiles::kCap;
      std::memcpy(m + 2 * (r * n + c), out, size_t(w) * 2);
    }
  }
  /// Row r: from byte 2 r n to byte 4 r n, in decreasing order.
  static void widen_row(unsigned char* m, int64_t r, int64_t n, int64_t V) {
    for (int64_t c = (n - 1) / kRun * kRun; c >= 0; c -= kRun) {
      uint16_t in[kRun];
      int32_t out[kRun];
      const int w = n - c < kRun ? int(n - c) : kRun;
      if (w == kRun && r < V && c + kRun <= V) {
        std::memcpy(in, m + 2 * (r * n + c), sizeof in);
        for (int j = 0; j < kRun; ++j) out[j] = int32_t(in[j]);
        std::memcpy(m + 4 * (r * n + c), out, sizeof out);
        continue;
      }
      std::memcpy(in, m + 2 * (r * n + c), size_t(w) * 2);
      for (int j = 0; j < kRun; ++j) out[j] = r < V && c + j < V ? int32_t(in[j]) : (r == c + j ? 0 : kInf);
      std::memcpy(m + 4 * (r * n + c), out, size_t(w) * 4);
    }
  }
};

}  // namespace apsp::Impl
