// SPDX-License-Identifier: BSD-3-Clause
// (GPU backends) The round driver that takes rounds two at a time, each pair's phase 3 in one
// pass over C (the kernels and why: pair_kernels.hpp), with the look-ahead of
// BlockedFloydWarshall::solve_with_lookahead opening the next block (a pair, or a last round
// alone) while the main queue runs the rest of the current one:
//   side: wait(rest done, last block) -> cross (fused, then lagging) -> record(cross done)
//         -> open the next block -> record(opened)
//   main: wait(opened) -> rest, fused -> wait(cross done) -> rest, lagging -> record(rest done)
// A block of one round runs as solve_with_lookahead's rounds do. On a large matrix, blocks of four
// rounds take the place of pairs (quad_kernels.hpp): their opening runs the four rounds on the
// block's tile rows and columns, and every other tile takes the four in one pass, with no lagging
// part:
//   side: wait(rest done, last block) -> cross -> open the next block -> record(opened)
//   main: wait(opened) -> rest -> record(rest done)
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "apsp/solver/pair_kernels.hpp"
#include "apsp/solver/phase_kernels.hpp"
#include "apsp/solver/quad_kernels.hpp"
#include "apsp/solver/round_operands.hpp"

namespace apsp::Impl {

/// `FW`: a BlockedFloydWarshall (its phases, its launch helpers, its tile operations).
template <class FW>
struct PairRounds {
  using Ops = typename FW::Operations;
  using ExecSpace = typename FW::Space;
  using Runtime = typename FW::Runtime;
  using Value = typename FW::Value;
  using Matrix = typename FW::Matrix;
  using Block = typename FW::Block;
  using RoundOps = typename FW::RoundOps;

  /// Whether FW::solve takes rounds in pairs (it asks only for a GPU's tile operations): at the
  /// tuned block, two rounds or more.
  static bool applies(const Matrix& d) { return Ops::tuned(d.block, d.block) && d.blocks() >= 2; }

  /// From how many tile rows on blocks of four rounds take the place of pairs: a block's opening
  /// is four rounds of phases 1 and 2 one after the other on the second queue (phase 1 is one
  /// team: about 0.1 ms on an H100), which the main queue's rest of the last block must cover.
  /// One H100, solve against pairs alone (090f601, random graphs): 1.13x at 40 and at 63 tile
  /// rows (V = 5000, 8000: the opening is the longer), 0.94x at 86 (V = 11000), 0.93x at 157
  /// and 313 (V = 20000, 40000).
  static constexpr int kQuadsFromTiles = 84;

  /// Rounds of the block that starts at round k: four on a large matrix, else two, where they
  /// are whole rounds (the tuned products of several rounds take whole rounds only), else one.
  static int block_rounds(const Block& rb, int k, int rounds, int quads_from) {
    if (rounds >= quads_from && k + kQuadRounds <= rounds && rb.pivots(k + kQuadRounds - 1) == rb.block)
      return kQuadRounds;
    return k + 1 < rounds && rb.pivots(k + 1) == rb.block ? 2 : 1;
  }

  /// Every round, as FW::solve_with_lookahead (after_round, lanes16: see FW::solve); blocks of
  /// four rounds from `quads_from` tile rows on (the tests take them on small matrices).
  template <class AfterRound>
  static void solve(const Matrix& d, AfterRound&& after_round, int64_t* lanes16, int quads_from = kQuadsFromTiles) {
    using Tiles = Impl::PairTiles<Value>;
    const Block rb = FW::whole(d);
    const int rounds = d.blocks(), B = d.block, nb = int(d.n / B);
    const ExecSpace main;
    const ExecSpace side = Runtime::side_instance();
    typename Runtime::Event opened, rest_done, cross_done;
    const RoundOps round_ops(rb);
    // The fused products' strip marks of a block of four (two sets: the next block's opening
    // marks its own while the rest of the current one reads these).
    const Kokkos::View<int32_t*, typename ExecSpace::memory_space> strip_marks(
        "apsp::quad_strip_marks", rounds >= quads_from ? size_t(4 * nb) : size_t(0));
    int quads = 0;  // blocks of four opened
    auto quad_marks = [&](int quad) { return strip_marks.data() + (quad % 2) * 2 * nb; };
    // Phases 1 and 2 of round r (their marks), and the marks phase 3 reads.
    auto open_round = [&](int r) {
      FW::phase1(rb, r, side);
      FW::phase2(rb, r, rb.tile_row(r), true, true, side, lanes16, round_ops.marks_of(rb, r));
      return FW::marked(round_ops, rb, r, side);
    };
    // A block of `size` rounds from k: a pair also takes round k's phase 3 on row and column k + 1.
    auto open_block = [&](int k, int size) {
      if (size == kQuadRounds) {  // the four rounds on the block's strips, then their marks
        for (int r = 0; r < kQuadRounds; ++r) {
          const PackedRound marks = open_round(k + r);
          FW::template launch_product<Impl::StripRoundKernel>(
              "apsp::quad_strip_round", side,
              Impl::StripRoundTiles<Value>{rb.rows, rb.n, B, k, r, nb, B, marks, lanes16}.league(),
              Impl::StripRoundTiles<Value>{rb.rows, rb.n, B, k, r, nb, B, marks, lanes16});
        }
        if constexpr (Ops::kMarksSmallOperands)
          Kokkos::parallel_for("apsp::quad_strip_marks", Kokkos::TeamPolicy<ExecSpace>(side, 2 * nb, Kokkos::AUTO),
                               Impl::StripMarkKernel<Ops>{rb.rows, rb.n, B, k, nb, quad_marks(quads)});
        ++quads;
        Runtime::record(opened, side);
        return;
      }
      const PackedRound first = open_round(k);
      if (size == 2) {
        FW::template launch_product<Impl::NextPivotCrossKernel>(
            "apsp::phase3_next_pivot_cross", side, 2 * nb - 3,
            Impl::NextPivotCross<Value>{rb.rows, rb.n, B, k, nb, rb.pivots(k), first, lanes16});
        open_round(k + 1);
      }
      Runtime::record(opened, side);
    };
    auto pair_part = [&](const ExecSpace& exec, int k, int next, typename Tiles::Part part) {
      const Tiles t{rb.rows,
                    rb.n,
                    B,
                    k,
                    nb,
                    next,
                    part,
                    round_ops.pack_marked(rb, k, rb.tile_row(k), exec),
                    round_ops.pack_marked(rb, k + 1, rb.tile_row(k + 1), exec),
                    lanes16,
                    B};
      if (t.league() == 0) return;
      const auto p = FW::policy(exec, t.league(), B, Ops::product_scratch(B));
      if (t.fused())
        Kokkos::parallel_for("apsp::phase3_round_pair", p, Impl::PairTilesKernel<Ops, true>{t});
      else
        Kokkos::parallel_for("apsp::phase3_round_pair_lagging", p, Impl::PairTilesKernel<Ops, false>{t});
    };
    open_block(0, block_rounds(rb, 0, rounds, quads_from));
    for (int k = 0; k < rounds;) {
      const int size = block_rounds(rb, k, rounds, quads_from), after = k + size;
      const int next = after < rounds ? block_rounds(rb, after, rounds, quads_from) : 0;
      Runtime::wait(main, opened);
      if (size == kQuadRounds) {
        auto part = [&](const ExecSpace& exec, typename Impl::QuadTiles<Value>::Part which) {
          const Impl::QuadTiles<Value> t{
              rb.rows, rb.n, B, k, nb, next, which, Ops::kMarksSmallOperands ? quad_marks(quads - 1) : nullptr,
              lanes16};
          if (t.league() > 0)
            Kokkos::parallel_for("apsp::phase3_round_quad", FW::policy(exec, t.league(), B, Ops::product_scratch(B)),
                                 Impl::QuadTilesKernel<Ops>{t});
        };
        if (next > 0) {
          Runtime::wait(side, rest_done);  // the last block's: recorded again below
          part(side, Impl::QuadTiles<Value>::cross);
        }
        part(main, Impl::QuadTiles<Value>::rest);
        Runtime::record(rest_done, main);
      } else if (size == 2) {
        if (next > 0) {
          Runtime::wait(side, rest_done);  // the last block's: recorded again below
          pair_part(side, k, next, Tiles::cross_fused);
          pair_part(side, k, next, Tiles::cross_lagging);
          Runtime::record(cross_done, side);
        }
        pair_part(main, k, next, Tiles::rest_fused);
        if (next > 0) Runtime::wait(main, cross_done);
        pair_part(main, k, next, Tiles::rest_lagging);
        Runtime::record(rest_done, main);
      } else if (next > 0) {  // one round, then one more: as solve_with_lookahead
        FW::phase3_ahead(rb, k, round_ops.pack_marked(rb, k, rb.tile_row(k), main), main, side, rest_done, lanes16);
      } else {
        FW::phase3(rb, k, rb.tile_row(k), main, round_ops.pack_marked(rb, k, rb.tile_row(k), main), lanes16);
      }
      if (next > 0) open_block(after, next);
      for (int r = k + 1; r <= after; ++r) after_round(r, rounds);
      k = after;
    }
    side.fence();
    main.fence();
  }
};

}  // namespace apsp::Impl
