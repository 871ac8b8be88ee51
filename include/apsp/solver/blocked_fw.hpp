// SPDX-License-Identifier: BSD-3-Clause
// The round driver of blocked Floyd-Warshall, written once for every backend: the three phases
// of each round, with the look-ahead of one device, on the whole matrix or a block of tile rows.
//
// Round k (one per block of B pivots) has three phases, each a TeamPolicy kernel whose teams
// stage their tiles in team scratch memory (shared memory on a GPU):
//   phase 1: the pivot tile (k, k), closed under its own B pivots;
//   phase 2: the tiles of pivot row k and pivot column k, relaxed through the pivot tile;
//   phase 3: every other tile (i, j) := min(D(i, j), D(i, k) (min,+) D(k, j)).
// Phase 3 does (nb - 1)^2 of the nb^2 tile updates per round and dominates the run; each
// thread keeps a kTileRows x kTileCols block of results in registers and streams the two
// staged operand tiles. What differs per backend (tile shape, team shape, the min-plus
// instruction) comes from BackendTraits in include/apsp/backends/.
// The kernels are in phase_kernels.hpp, the tile operations they share in tile_ops.hpp.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>

#include "apsp/backends/backend_runtime.hpp"
#include "apsp/backends/backend_traits.hpp"
#include "apsp/solver/block_size.hpp"
#include "apsp/solver/distance_matrix.hpp"
#include "apsp/solver/gpu/pair_rounds.hpp"
#include "apsp/solver/gpu/slice_staging.hpp"
#include "apsp/solver/host/rounds.hpp"
#include "apsp/solver/host/sixteen.hpp"
#include "apsp/solver/phase_kernels.hpp"
#include "apsp/solver/round_operands.hpp"
#include "apsp/solver/row_block.hpp"

namespace apsp {

/// `Ops`: the tile operations and the entry type (Ops::Value) they work on: TileOps on int32
/// distances.
template <class ExecSpace, class Ops = Impl::TileOps<ExecSpace>>
class BlockedFloydWarshall {
 public:
  using Runtime = BackendRuntime<ExecSpace>;
  using Space = ExecSpace;
  using Operations = Ops;
  using Value = typename Ops::Value;
  using Policy = Kokkos::TeamPolicy<ExecSpace, typename Ops::LaunchBounds, typename Ops::Schedule>;
  using Matrix = DistanceMatrix<ExecSpace, Value>;
  using Block = RowBlockOf<Value>;
  /// A round's packed phase-3 operands, where Ops packs rounds (round_operands.hpp).
  using RoundOps = RoundOperands<ExecSpace, Ops>;

  /// Bytes this class allocates beside the matrix for `row_tiles` tile rows of it.
  static int64_t buffer_bytes(int64_t vertices, int block, int64_t row_tiles) {
    return RoundOps::bytes(padded_size(vertices, block), block, row_tiles);
  }

  /// Seconds spent in each phase, summed over the rounds (measured with a fence after each
  /// phase, so only when asked for).
  struct PhaseSeconds {
    double phase[3] = {0, 0, 0};
  };

  /// Runs every round. Returns after a fence.
  static void solve(const Matrix& d) {
    solve(d, nullptr, [](int, int) {});
  }

  /// Runs every round; `phases` (may be null) receives per-phase times; `after_round(done,
  /// rounds)` is called once each round's kernels are enqueued (it may fence to watch progress);
  /// `lanes16` (may be null) counts the relaxations of phases 2 and 3 that ran in 16-bit lanes
  /// (lane_tally.hpp). Untimed, the rounds overlap (solve_with_lookahead); timed, the phases run
  /// one after another with a fence after each. Returns the round from which the distances were
  /// kept in a 16-bit matrix (a CPU's later rounds: solve_host_rounds); 0: none were. Where
  /// `stay_narrowed` and that round is not 0, the matrix is left in 16 bits (HostSixteen).
  template <class AfterRound>
  static int solve(const Matrix& d, PhaseSeconds* phases, AfterRound&& after_round, int64_t* lanes16 = nullptr,
                   bool stay_narrowed = false) {
    (void)stay_narrowed;  // a GPU's matrix stays int32
    if (phases == nullptr) {
      if constexpr (Ops::kPacksRounds)
        if (ExecSpace().concurrency() >= Impl::kHostRoundsFromThreads || Ops::Traits::kHostLanes16)
          return solve_host_rounds(d, after_round, lanes16, stay_narrowed);
      if constexpr (Ops::kHasTuned && !Ops::kPacksRounds)
        if (Impl::PairRounds<BlockedFloydWarshall>::applies(d)) {
          Impl::PairRounds<BlockedFloydWarshall>::solve(d, after_round, lanes16);
          return 0;
        }
      solve_with_lookahead(d, after_round, lanes16);
      return 0;
    }
    const Block rb = whole(d);
    const RoundOps round_ops(rb);
    const int rounds = d.blocks();
    for (int k = 0; k < rounds; ++k) {
      timed(phases->phase[0], [&] { phase1(d, k); });
      timed(phases->phase[1],
            [&] { phase2(rb, k, rb.tile_row(k), true, true, ExecSpace(), lanes16, round_ops.marks_of(rb, k)); });
      timed(phases->phase[2],
            [&] { phase3(rb, k, rb.tile_row(k), ExecSpace(), marked(round_ops, rb, k, ExecSpace()), lanes16); });
      after_round(k + 1, rounds);
    }
    ExecSpace().fence();
    return 0;
  }

  /// (CPU backends) Every round as Impl::HostRounds runs them: round k + 1's phases 1 and 2 among
  /// round k's phase-3 tiles, in one kernel per round; where the build has 16-bit lanes, the
  /// later rounds on a 16-bit matrix once the distances allow it (Impl::HostSixteen). solve()
  /// takes this from kHostRoundsFromThreads threads on, and at every count for the 16-bit stage.
  /// Returns the round the 16-bit matrix began, as solve().
  template <class AfterRound>
  static int solve_host_rounds(const Matrix& d, AfterRound&& after_round, int64_t* lanes16 = nullptr,
                               bool stay_narrowed = false) {
    (void)stay_narrowed;  // without a 16-bit stage the matrix stays int32
    if constexpr (Ops::kPacksRounds) {
      if constexpr (Ops::Traits::kHostLanes16) {
        const int from = Impl::HostSixteen<ExecSpace, Ops>::solve(whole(d), after_round, lanes16, stay_narrowed);
        return from < d.blocks() ? from : 0;
      } else {
        const RoundOps round_ops(whole(d));
        Impl::HostRounds<ExecSpace, Ops>::solve(whole(d), round_ops, after_round, lanes16);
      }
    }
    return 0;
  }

  /// One round: the three phases for pivot block k, enqueued in order.
  static void round(const Matrix& d, int k) {
    phase1(d, k);
    phase2(d, k);
    phase3(d, k);
  }

  /// Phases 1 and 2 are one team and a few hundred teams: alone they leave most of a GPU idle
  /// (5 % of the solve at V = 20000 on an H200). So round k's phase 3 is split: tile row and
  /// column k + 1 first (NextPivotCrossKernel), on a second queue that then opens round k + 1
  /// (its phases 1 and 2), while the main queue runs the other tiles of round k. The two
  /// touch different tiles and read only pivot row and column k. Events order the rest:
  ///   main: wait(opened k) -> rest of phase 3 (k) -> record(rest done k)
  ///   side: wait(rest done k - 1) -> cross (k) -> phase 1 (k + 1) -> phase 2 (k + 1) -> record(opened k + 1)
  /// On the host both queues are one instance, and the same order is a valid sequential one.
  template <class AfterRound>
  static void solve_with_lookahead(const Matrix& d, AfterRound&& after_round, int64_t* lanes16) {
    const Block rb = whole(d);
    const int rounds = d.blocks();
    const ExecSpace main;
    const ExecSpace side = Runtime::side_instance();
    typename Runtime::Event opened, rest_done;
    // Packed operands (CPU): one set, so round k + 1's are packed after round k's phase 3 is
    // enqueued; on the host both queues are one instance, which runs them in that order.
    // Marked operands (GPU) alternate between two sets (round_operands.hpp).
    const RoundOps round_ops(rb);
    phase1(rb, 0, side);
    phase2(rb, 0, rb.tile_row(0), true, true, side, lanes16, round_ops.marks_of(rb, 0));
    PackedRound packed = marked(round_ops, rb, 0, side);
    Runtime::record(opened, side);
    for (int k = 0; k < rounds; ++k) {
      Runtime::wait(main, opened);
      if (k + 1 < rounds) {
        phase3_ahead(rb, k, packed, main, side, rest_done, lanes16);
        phase1(rb, k + 1, side);
        phase2(rb, k + 1, rb.tile_row(k + 1), true, true, side, lanes16, round_ops.marks_of(rb, k + 1));
        packed = marked(round_ops, rb, k + 1, side);
        Runtime::record(opened, side);
      } else {
        phase3(rb, k, rb.tile_row(k), main, packed, lanes16);
      }
      after_round(k + 1, rounds);
    }
    side.fence();
    main.fence();
  }

  /// The look-ahead's step of round k (one device): once the rest of the last round is done
  /// (`rest_done`, recorded again here), round k's phase 3 off tile rows and columns k and k + 1
  /// on `main`, and on those rows and columns on `side`, where round k + 1 then opens.
  static void phase3_ahead(const Block& rb, int k, const PackedRound& packed, const ExecSpace& main,
                           const ExecSpace& side, typename Runtime::Event& rest_done, int64_t* lanes16) {
    const int B = rb.block, nb = rb.col_tiles;
    Runtime::wait(side, rest_done);  // still the last round's: recorded again below
    if (nb > 2)
      launch_product<Impl::RemainingTilesKernel>(
          "apsp::phase3_remaining", main, (nb - 2) * (nb - 2),
          Impl::RemainingTiles<Value>{rb.rows, rb.tile_row(k), rb.n, B, k, nb, k, 2, rb.pivots(k), packed, lanes16});
    Runtime::record(rest_done, main);
    launch_product<Impl::NextPivotCrossKernel>(
        "apsp::phase3_next_pivot_cross", side, 2 * nb - 3,
        Impl::NextPivotCross<Value>{rb.rows, rb.n, B, k, nb, rb.pivots(k), packed, lanes16});
  }

  /// The rows `d` holds (the whole matrix on one device).
  static Block whole(const Matrix& d) { return Block::of(d); }

  static void phase1(const Matrix& d, int k) { phase1(whole(d), k); }
  static void phase2(const Matrix& d, int k) {
    const auto rb = whole(d);
    phase2(rb, k, rb.tile_row(k), true, true);
  }
  static void phase3(const Matrix& d, int k) {
    const auto rb = whole(d);
    phase3(rb, k, rb.tile_row(k));
  }

  /// Phase 1 on the process that holds tile row k. The RowBlock phases run on `exec`.
  static void phase1(const Block& rb, int k, const ExecSpace& exec = ExecSpace()) {
    const int B = rb.block;
    Kokkos::parallel_for("apsp::phase1_pivot", policy(exec, 1, B, Ops::closure_scratch(B)),
                         Impl::PivotTileKernel<Ops>{rb.tile_row(k) + int64_t(k) * B, rb.n, B, rb.pivots(k)});
  }

  /// Phase 2: the pivot row's tiles (`row_part`, only where tile row k is held) and the pivot
  /// column's tiles of the rows held (`column_part`), through the pivot tile of `pivot_row`.
  /// `marks`: where the tiles' marks go (RoundOperands::marks_of, on one device), or none.
  static void phase2(const Block& rb, int k, const Value* pivot_row, bool row_part, bool column_part,
                     const ExecSpace& exec = ExecSpace(), int64_t* lanes16 = nullptr, MarkTargets marks = {}) {
    const int B = rb.block, nb = rb.col_tiles;
    const Impl::PivotRowColumnTiles<Value> tiles{rb.rows,
                                                 pivot_row + int64_t(k) * B,
                                                 rb.n,
                                                 B,
                                                 k,
                                                 nb,
                                                 rb.row_tiles,
                                                 rb.k_local(k),
                                                 row_part && rb.k_local(k) >= 0 && nb > 1,
                                                 column_part,
                                                 rb.pivots(k),
                                                 lanes16,
                                                 marks};
    const int league = tiles.row_teams() + tiles.column_teams();
    if (league > 0) launch_product<Impl::PivotRowColumnKernel>("apsp::phase2_pivot_row_col", exec, league, tiles);
  }

  /// Phase 3 on the rows held, with the pivot row block `pivot_row` (ld n), and round k's
  /// operands packed for these rows (or none: each product packs its own).
  static void phase3(const Block& rb, int k, const Value* pivot_row, const ExecSpace& exec = ExecSpace(),
                     const PackedRound& packed = {}, int64_t* lanes16 = nullptr) {
    const int B = rb.block, nb = rb.col_tiles;
    const int k_local = rb.k_local(k), row_tiles = rb.row_tiles - (k_local >= 0);
    if (nb < 2 || row_tiles < 1) return;
    launch_product<Impl::RemainingTilesKernel>(
        "apsp::phase3_remaining", exec, row_tiles * (nb - 1),
        Impl::RemainingTiles<Value>{rb.rows, pivot_row, rb.n, B, k, nb, k_local, 1, rb.pivots(k), packed, lanes16});
  }

  /// Round k's phase-3 operands for the rows of `rb` and the pivot row block `pivot_row`,
  /// packed (or marked) into `round_ops` on `exec` (none where Ops does neither).
  static PackedRound pack(const RoundOps& round_ops, const Block& rb, int k, const ExecSpace& exec,
                          const Value* pivot_row = nullptr) {
    return round_ops.pack(rb, k, pivot_row != nullptr ? pivot_row : rb.tile_row(k), exec);
  }

  /// The same where phase 2 has marked the operands already (one device: it computes them all).
  static PackedRound marked(const RoundOps& round_ops, const Block& rb, int k, const ExecSpace& exec) {
    return round_ops.pack_marked(rb, k, rb.tile_row(k), exec);
  }

  /// A product kernel over `league` tiles: the tuned instantiation for a whole round at the
  /// backend's tuned block, the general one otherwise (`tiles`: the kernel's fields).
  template <template <class, bool> class Kernel, class Tiles>
  static void launch_product(const char* label, const ExecSpace& exec, int league, const Tiles& tiles) {
    const Policy p = policy(exec, league, tiles.B, Ops::product_scratch(tiles.B));
    if constexpr (Ops::kHasTuned)
      if (Ops::tuned(tiles.B, tiles.pivots)) return Kokkos::parallel_for(label, p, Kernel<Ops, true>{tiles});
    Kokkos::parallel_for(label, p, Kernel<Ops, false>{tiles});
  }

  static Policy policy(const ExecSpace& exec, int league, int block, size_t scratch_bytes) {
    return Policy(exec, league, Ops::team_size(block), Ops::vector_length(block))
        .set_scratch_size(0, Kokkos::PerTeam(scratch_bytes))
        .set_chunk_size(1);  // a tile is one team's work: 2^24 relaxations at B = 256
  }

 private:
  template <class F>
  static void timed(double& total, F&& f) {
    Kokkos::Timer timer;
    f();
    ExecSpace().fence();
    total += timer.seconds();
  }
};

}  // namespace apsp
