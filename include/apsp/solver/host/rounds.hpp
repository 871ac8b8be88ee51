// SPDX-License-Identifier: BSD-3-Clause
// The round driver of the CPU backends (Ops::kPacksRounds) on one process: the three phases of
// blocked_fw.hpp, with round k + 1's phases 1 and 2 run beside round k's phase 3 by the same
// threads. On a CPU every team is one thread and a round's phases are a few hundred tiles; as
// separate kernels, phase 1 (one tile) left every thread but one waiting, and phase 2 (2 (nb - 1)
// tiles) a part of them in its last wave: 15-16 % of the solve on the 16-vCPU Xeon, V = 6000,
// B = 256 (docs/results.md). So each round is one kernel whose threads take work items from one
// counter, in this order; an item whose inputs another item writes waits for that item's flag:
//   1. pack round k's operands, one tile each (round_operands.hpp; phase 2 of round k is done);
//   2. the pivot of round k + 1: tile (k + 1, k + 1)'s phase-3 update of round k, then its
//      closure (phase 1 of round k + 1); waits for the two packed operands it reads;
//   3. the rest of tile row and column k + 1 (phase 3 of round k), each waiting for its operands;
//   4. the first of the other phase-3 tiles of round k (2 per thread: time for item 2);
//   5. phase 2 of round k + 1, each tile waiting for the pivot and for its own item 3;
//   6. the rest of round k's phase-3 tiles, in one contiguous share per thread (row by row, so
//      that a thread's tiles share their A operand, as Kokkos' dynamic schedule hands out a
//      league); a thread done with its share takes tiles from the others'. (From the one counter,
//      the threads' tiles interleaved, and 2 threads on the Xeon solved 15 % slower.)
//   7. (from 2 threads) round k + 1's item 1, by threads that found no item 6 left: each operand
//      where round k's lies, once round k's products that read that have ended and phase 2 of
//      round k + 1 has its tile; round k + 1 packs only what is left. The round's last tiles
//      then overlap the next round's packing, which every thread otherwise ran at once at the
//      round's start: on the 16-vCPU Xeon the solve took 0.976x the time at 16 threads (V =
//      6000), 0.979x at 8, 0.975x at 4, 0.958x at 2; 1.005x at 2 threads on the Zen 5 EPYC.
//      Into a second set of operands, by round parity, the packing wrote lines the caches no
//      longer held: 1.009x at 1 thread on the Zen 5 EPYC (docs/results.md).
// An item waits only for items taken before it, which threads work on, so the earliest
// unfinished item always runs: no wait is endless, whatever the thread count (one thread runs
// the items in order). The kernel's end orders one round before the next. Round -1 is phases 1
// and 2 of round 0 alone; the last round has no round k + 1.
#pragma once

#include <Kokkos_Core.hpp>

#include <atomic>
#include <cstdint>
#include <memory>

#include "apsp/core/huge_page_array.hpp"
#include "apsp/solver/host/round_flags.hpp"
#include "apsp/solver/lane_tally.hpp"
#include "apsp/solver/phase_kernels.hpp"
#include "apsp/solver/round_operands.hpp"
#include "apsp/solver/row_block.hpp"

namespace apsp::Impl {

/// From how many threads on BlockedFloydWarshall::solve takes this driver: every thread count
/// but one (one thread runs the items in order, as the separate kernels do). Solve time against
/// the separate kernels, interleaved pairs, B = 256 (docs/results.md): on the 16-vCPU Xeon at
/// V = 6000, 0.910 at 16 threads (0.951 at V = 10000), 0.990 at 8, 0.981 at 2 (1fb1841), and
/// medians 0.971 at 2 and 0.990 at 4 on a noisier host (6 pairs each); on the 2-vCPU Zen 5 EPYC
/// at V = 4000 and 2 threads 0.987, all 10 pairs below 1 (separately, phase 1 alone takes 3.4 %
/// of that solve while the other thread waits). Until then the driver started at 8 threads.
/// A build with 16-bit lanes takes it at one thread too: its 16-bit stage runs here
/// (host/sixteen.hpp), and one thread runs the items in the separate kernels' order.
inline constexpr int kHostRoundsFromThreads = 2;

/// `Ops`: the CPU's tile operations (TileOps with kPacksRounds).
template <class ExecSpace, class Ops>
class HostRounds {
 public:
  using RoundOps = RoundOperands<ExecSpace, Ops>;
  using Value = typename Ops::Value;
  using Block = RowBlockOf<Value>;

  /// The rounds on the whole matrix `rb` (one process), with the round's operands packed into
  /// `round_ops`; after_round(done, rounds) after each round, as BlockedFloydWarshall::solve.
  /// From round `first` (-1: the start; k: a solve whose round k - 1 ran here, which opened
  /// round k) to the last.
  template <class AfterRound>
  static void solve(const Block& rb, const RoundOps& round_ops, AfterRound&& after_round, int64_t* lanes16,
                    int first = -1) {
    solve(rb, round_ops, after_round, lanes16, first, [](int) { return false; });
  }
  /// The same until stop(k) after round k says so; returns the round to go on from (the number
  /// of rounds: none).
  template <class AfterRound, class Stop>
  static int solve(const Block& rb, const RoundOps& round_ops, AfterRound&& after_round, int64_t* lanes16, int first,
                   Stop&& stop) {
    const int nb = rb.col_tiles;
    const int workers = ExecSpace().concurrency();
    Flags flags(nb, workers);
    const int64_t stride = (int64_t(Ops::host_scratch_ints(rb.block)) + 15) / 16 * 16;  // 64-byte multiples
    // In huge pages where the system grants them, as the round's operands (round_operands.hpp).
    const std::shared_ptr<int32_t[]> scratch = huge_page_array<int32_t>(size_t(stride * workers + 16));
    Scratch s{scratch.get() + (16 - reinterpret_cast<uintptr_t>(scratch.get()) % 64 / 4) % 16, stride, workers};
    if (first < 0) run(rb, round_ops, -1, flags, s, lanes16);
    for (int k = first < 0 ? 0 : first; k < nb; ++k) {
      run(rb, round_ops, k, flags, s, lanes16);
      after_round(k + 1, nb);
      if (k + 1 < nb && stop(k)) return k + 1;
    }
    return nb;
  }

 private:
  /// Each worker's scratch for the products that pack their own operands (phase 2) and the
  /// closure: `ints` apiece from `base`, 64-byte aligned.
  struct Scratch {
    int32_t* base;
    int64_t ints;
    int workers;
  };

  using Share = HostRoundShare;
  using Flags = HostRoundFlags;

  /// Relaxations of some items: in 16-bit lanes, computed in all, and left out (lane_tally.hpp).
  struct Lanes {
    int64_t sixteen = 0, computed = 0, left_out = 0;
    Lanes& operator+=(const Lanes& o) {
      sixteen += o.sixteen, computed += o.computed, left_out += o.left_out;
      return *this;
    }
  };

  /// Round k's kernel (k = -1: phases 1 and 2 of round 0 only).
  struct RoundKernel {
    Block rb;
    PackedRound packed;
    PackedRound ahead;  ///< where item 7 packs round q's operands; empty: no item 7
    Flags* flags;
    int32_t* scratch_base;  ///< scratch_ints per worker
    int64_t scratch_ints;
    int64_t* lanes16;
    int k, q;                             ///< this round; the next one, or -1
    int nb, lead;                         ///< tiles per side; phase-3 tiles before phase 2 (item 4)
    int packs, crosses;                   ///< items 1 and 3
    int shared, workers;                  ///< items [0, shared) from flags->next, the rest from the workers' shares
    RemainingTiles<int32_t> rest;         ///< items 4 and 6: phase 3 off rows and columns k (and q)
    PivotRowColumnTiles<int32_t> phase2;  ///< item 5: phase 2 of round q

    /// What this round's items write into their flags (round -1 writes 1).
    int stamp() const { return k + 2; }
    int phase2_tiles() const { return phase2.row_teams() + phase2.column_teams(); }

    Value* tile(int i, int j) const { return rb.rows + int64_t(i) * rb.block * rb.n + int64_t(j) * rb.block; }
    void done(std::atomic<int>& flag) const { flag.store(stamp(), std::memory_order_release); }

    void operator()(int worker) const {
      int32_t* scratch = scratch_base + int64_t(worker) * scratch_ints;
      Lanes lanes;
      for (int item = flags->next.fetch_add(1); item < shared; item = flags->next.fetch_add(1))
        lanes += run(item, scratch);
      // Item 6 in contiguous shares, row by row: a worker's tiles share their A operand (as
      // Kokkos' dynamic schedule hands out a league), then it helps the others with theirs.
      for (int w = 0; w < workers; ++w) {
        Share& share = flags->shares[(worker + w) % workers];
        for (int item = share.next.fetch_add(1); item < share.end; item = share.next.fetch_add(1))
          lanes += run(item, scratch);
      }
      if (ahead)  // 7: every item of this round is taken
        pack_ahead(worker);
      if (lanes16 != nullptr) {
        Kokkos::atomic_add(&lanes16[worker % kLaneTallySlots], lanes.sixteen);
        Kokkos::atomic_add(&lanes16[kLaneTallySlots + worker % kLaneTallySlots], lanes.computed);
        Kokkos::atomic_add(&lanes16[2 * kLaneTallySlots + worker % kLaneTallySlots], lanes.left_out);
      }
    }

    /// Item `item` (the order at the top of the file). Returns its relaxations.
    Lanes run(int item, int32_t* scratch) const {
      if (item < packs) {  // 1
        const int t = item;
        if (flags->operand[t].load(std::memory_order_acquire) == stamp()) return {};  // item 7 of round k - 1
        RoundOps::pack_one(packed, rb.rows, rb.tile_row(k), rb.n, rb.block, k, nb, rb.pivots(k), t);
        done(flags->operand[t]);
        return {};
      }
      item -= packs;
      const bool next = q >= 0;
      if (next && item == 0) {  // 2
        Lanes lanes;
        if (k >= 0) lanes = phase3(q, q);
        Ops::host_close(tile(q, q), rb.n, rb.block, rb.pivots(q), scratch);
        done(flags->pivot);
        return lanes;
      }
      item -= int(next);
      if (item < crosses) {  // 3: (q, j), j != k, q; then (i, q), i != k, q
        const bool in_row = item < crosses / 2;
        int t = in_row ? item : item - crosses / 2;
        t += t >= k;
        t += t >= q;  // q = k + 1
        const Lanes lanes = in_row ? phase3(q, t) : phase3(t, q);
        done(in_row ? flags->row[t] : flags->column[t]);
        return lanes;
      }
      item -= crosses;
      if (item >= lead && item < lead + phase2_tiles()) return phase2_tile(item - lead, scratch);  // 5
      return phase3_rest(item < lead ? item : item - phase2_tiles());                              // 4, 6
    }

    /// Phase 3 of round k on tile (i, j), once its packed operands are there; left out where an
    /// operand is INF alone.
    Lanes phase3(int i, int j) const {
      wait_for(flags->operand[i], stamp());
      wait_for(flags->operand[nb + j], stamp());
      const int64_t relaxations = Ops::packed_computed(rb.block, rb.pivots(k), packed, i, j);
      const Lanes lanes =
          Ops::packed_changes_nothing(packed, i, j)
              ? Lanes{0, 0, relaxations}
              : Lanes{Ops::host_packed_product(tile(i, j), rb.n, rb.block, rb.pivots(k), packed, i, j), relaxations};
      flags->read[i].fetch_add(1, std::memory_order_release);  // item 7 may pack over them
      flags->read[nb + j].fetch_add(1, std::memory_order_release);
      return lanes;
    }

    /// The r-th phase-3 tile of round k off tile row and column k (and q = k + 1, if any).
    Lanes phase3_rest(int r) const {
      int i, j;
      rest.tile_of(r, i, j);
      return phase3(i, j);
    }

    /// Phase 2 of round q on team p's tile of it (PivotRowColumnTiles), through the closed pivot.
    Lanes phase2_tile(int p, int32_t* scratch) const {
      bool in_row;
      int t;
      phase2.tile_of(p, in_row, t);
      wait_for(flags->pivot, stamp());
      if (k >= 0 && t != k) wait_for(in_row ? flags->row[t] : flags->column[t], stamp());
      Value* pivot = tile(q, q);
      Value* c = in_row ? tile(q, t) : tile(t, q);
      const Lanes lanes{
          Ops::host_product(c, in_row ? pivot : c, in_row ? c : pivot, rb.n, rb.block, rb.pivots(q), scratch),
          Ops::computed(rb.block, rb.block, rb.pivots(q))};
      done(in_row ? flags->row2[t] : flags->column2[t]);
      return lanes;
    }

    /// Items 7, each thread sweeping the operands from its own place (worker 2 nb / workers) on
    /// until every one is taken, in the order they are ready: one after the other, waiting for
    /// each, a thread sat out a tile still being relaxed while others were ready (docs/results.md).
    void pack_ahead(int worker) const {
      const int count = 2 * nb, first = int(int64_t(worker) * count / workers);
      for (int spins = 0; flags->ahead.load(std::memory_order_relaxed) < count; ++spins) {
        bool packed_one = false;
        for (int u = 0; u < count; ++u) {
          const int t = (first + u) % count;
          if (!ready_ahead(t) || flags->claim[t].exchange(stamp(), std::memory_order_relaxed) == stamp()) continue;
          flags->ahead.fetch_add(1, std::memory_order_relaxed);
          RoundOps::pack_one(ahead, rb.rows, rb.tile_row(q), rb.n, rb.block, q, nb, rb.pivots(q), t);
          flags->operand[t].store(stamp() + 1, std::memory_order_release);  // round q's stamp
          packed_one = true;
        }
        if (packed_one) spins = 0;
        pause_or_yield(spins);
      }
    }
    /// Whether round q's operand t (as item 1 of round q) may be packed where round k's operand t
    /// lies, and no item 7 took it: that is packed (operand k, which no product reads, may not
    /// be yet), the products that read it (every phase-3 tile of its row or column: all but
    /// tile row or column k) have ended, and phase 2 of round q has its tile.
    bool ready_ahead(int t) const {
      const int s = t < nb ? t : t - nb;
      const std::atomic<int>& tile_done = s == q ? flags->pivot : t < nb ? flags->column2[s] : flags->row2[s];
      return flags->claim[t].load(std::memory_order_relaxed) != stamp() &&
             (k < 0 || flags->operand[t].load(std::memory_order_acquire) == stamp()) &&
             flags->read[t].load(std::memory_order_acquire) == (k >= 0 && s != k ? nb - 1 : 0) &&
             tile_done.load(std::memory_order_acquire) == stamp();
    }
  };

  static void run(const Block& rb, const RoundOps& round_ops, int k, Flags& flags, const Scratch& s, int64_t* lanes16) {
    const int nb = rb.col_tiles, q = k + 1 < nb ? k + 1 : -1, threads = s.workers;
    RoundKernel r{};
    r.rb = rb, r.packed = round_ops.layout(rb, k), r.flags = &flags, r.lanes16 = lanes16;
    // The same place, with the 16-bit forms as this round's layout chose them (taken before they
    // may be turned off below, so that one round without them does not turn them off for every
    // later one). One thread has no round's end to fill.
    if (q >= 0 && threads > 1) r.ahead = r.packed;
    r.scratch_base = s.base, r.scratch_ints = s.ints, r.workers = threads;
    r.k = k, r.q = q, r.nb = nb;
    // Operands packed ahead without 16-bit forms keep the round from reading them.
    if (flags.ahead_lanes16 == 0) r.packed.lanes16 = 0;
    r.packs = k >= 0 ? 2 * nb : 0;
    r.crosses = k >= 0 && q >= 0 ? 2 * (nb - 2) : 0;
    // Phase 3 of round k off tile rows and columns k and q (skip 2), or k alone in the last round.
    // Only their tile_of() is used: the pointers and counts the kernels would need stay empty.
    r.rest = {nullptr, nullptr, rb.n, rb.block, k, nb, rb.k_local(k), q >= 0 ? 2 : 1, 0, {}, nullptr};
    r.phase2 = {nullptr, nullptr, rb.n, rb.block, q, nb, rb.row_tiles, rb.k_local(q), q >= 0, q >= 0, 0, nullptr, {}};
    const int rest = k >= 0 ? (nb - r.rest.skip) * (nb - r.rest.skip) : 0;
    r.lead = rest < 2 * threads ? rest : 2 * threads;
    const int total = r.packs + int(q >= 0) + r.crosses + r.phase2_tiles() + rest;
    r.shared = total - (rest - r.lead);
    for (int w = 0; w < threads; ++w) {
      flags.shares[w].next = r.shared + int(int64_t(total - r.shared) * w / threads);
      flags.shares[w].end = r.shared + int(int64_t(total - r.shared) * (w + 1) / threads);
    }
    flags.next = 0;
    flags.ahead = 0;
    for (int t = 0; t < 2 * nb; ++t) flags.read[t].store(0, std::memory_order_relaxed);
    Kokkos::parallel_for("apsp::host_round", Kokkos::RangePolicy<ExecSpace>(0, threads), r);
    flags.ahead_lanes16 = r.ahead ? r.ahead.lanes16 : 1;
  }
};

}  // namespace apsp::Impl
