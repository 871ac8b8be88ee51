// SPDX-License-Identifier: BSD-3-Clause
// (GPU backends) The round driver that takes rounds two at a time, each pair's phase 3 in one
// pass over C (the kernels and why: gpu/pair_kernels.hpp), with the look-ahead of
// BlockedFloydWarshall::solve_with_lookahead opening the next block (a pair, or a last round
// alone) while the main queue runs the rest of the current one:
//   side: wait(rest done, last block) -> cross (fused, then lagging) -> record(cross done)
//         -> open the next block -> record(opened)
//   main: wait(opened) -> rest, fused -> wait(cross done) -> rest, lagging -> record(rest done)
// A block of one round runs as solve_with_lookahead's rounds do. On a large matrix, blocks of four,
// eight or sixteen rounds take the place of pairs (gpu/round_block_kernels.hpp): their opening closes the
// block's diagonal block and takes its tile rows and columns in one product each, and every other
// tile takes the rounds in one pass, with no lagging part:
//   side: wait(rest done, last block) -> cross -> open the next block -> record(opened)
//   main: wait(opened) -> rest -> record(rest done)
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>

#include "apsp/solver/gpu/pair_kernels.hpp"
#include "apsp/solver/phase_kernels.hpp"
#include "apsp/solver/gpu/round_block_kernels.hpp"
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
  static constexpr int kFoursFromTiles = 84;
  /// From how many tile rows on blocks of eight take the place of blocks of four: their opening
  /// is twice as long (eight rounds of phase 1 one after the other). One H200, solve against
  /// blocks of four alone (6c3f2d7, the strips then taken round by round, random graphs): 1.13x
  /// at 86 tile rows (V = 11000), 0.988x at 125 (16000), 0.983x at 157 (20000), 0.974x at 313
  /// (40000); with the strips in one product (0d879c9), eights from 64 against 128: 1.135x at 86,
  /// 1.007x at 102 (13000).
  static constexpr int kEightsFromTiles = 128;
  /// From how many tile rows on blocks of sixteen take the place of blocks of eight: half the
  /// blocks, so half the tails of the fused kernels and half their loads and stores of C, for
  /// an opening twice as long. One H200, solve against blocks of eight (97236e6's code, random
  /// graphs): 0.996x at 157 tile rows (V = 20000), 0.984x at 313 (40000).
  static constexpr int kSixteensFromTiles = 150;
  /// The largest blocks and from how many tile rows on each is taken (the tests take them on
  /// small matrices).
  struct Wide {
    int fours_from = kFoursFromTiles;
    int eights_from = kEightsFromTiles;
    int sixteens_from = kSixteensFromTiles;
    int from(int size) const { return size == 16 ? sixteens_from : size == 8 ? eights_from : fours_from; }
  };

  /// Rounds of the block that starts at round k: sixteen, eight or four on a large matrix, else two,
  /// where they are whole rounds (the tuned products of several rounds take whole rounds only),
  /// else one. The sizes never grow along the solve (where a size no longer fits, it fits
  /// nowhere later), so a pair or a single round never comes before a larger block: the single
  /// round's look-ahead opens tile row and column k + 1 alone, and the marks' sets are counted for
  /// this order.
  static int block_rounds(const Block& rb, int k, int rounds, const Wide& wide) {
    for (const int size : {16, 8, 4})
      if (rounds >= wide.from(size) && k + size <= rounds && rb.pivots(k + size - 1) == rb.block) return size;
    return k + 1 < rounds && rb.pivots(k + 1) == rb.block ? 2 : 1;
  }

  /// Every round, as FW::solve_with_lookahead (after_round, lanes16: see FW::solve); blocks of
  /// four, eight and sixteen rounds as `wide` says.
  template <class AfterRound>
  static void solve(const Matrix& d, AfterRound&& after_round, int64_t* lanes16, const Wide& wide = {}) {
    using Tiles = Impl::PairTiles<Value>;
    const Block rb = FW::whole(d);
    const int rounds = d.blocks(), B = d.block, nb = int(d.n / B);
    const ExecSpace main;
    const ExecSpace side = Runtime::side_instance();
    typename Runtime::Event opened, rest_done, cross_done;
    const RoundOps round_ops(rb);
    // The strip marks of a wide block: two sets for the fused products (the next
    // block's opening marks its own while the rest of the current one reads these), then one
    // for the opening's product of the strips; behind them the strips' least entries.
    const int64_t strip_least = Ops::kKeepsLeast ? 6 * int64_t(nb) : 0;
    const Kokkos::View<int32_t*, typename ExecSpace::memory_space> strip_marks(
        "apsp::strip_marks", rounds >= std::min({wide.fours_from, wide.eights_from, wide.sixteens_from})
                                 ? size_t(6 * int64_t(nb) + strip_least)
                                 : size_t(0));
    int wide_blocks = 0;  // blocks of four, eight or sixteen opened
    auto wide_marks = [&](int block) { return strip_marks.data() + (block % 2) * 2 * nb; };
    int32_t* const opening_marks = strip_marks.data() + 4 * nb;
    auto mark_strips = [&](int k, int size, int32_t* to) {
      if constexpr (Ops::kMarksOperands)
        Kokkos::parallel_for("apsp::strip_marks", Kokkos::TeamPolicy<ExecSpace>(side, 2 * nb, Kokkos::AUTO),
                             Impl::StripMarkKernel<Ops>{rb.rows, rb.n, B, k, size, nb, to, strip_least});
    };
    // The R rounds' product of the tiles of one part of the block of `size` rounds from k.
    auto wide_part = [&](const ExecSpace& exec, int k, int size, int next, typename Impl::BlockTiles<Value>::Part which,
                         const int32_t* marks) {
      const Impl::BlockTiles<Value> t{rb.rows, rb.n, B, k, size, nb, next, which, marks, lanes16, strip_least};
      if (t.league() == 0) return;
      const auto p = FW::policy(exec, t.league(), B, Ops::product_scratch(B));
      if (size == 16)
        Kokkos::parallel_for("apsp::phase3_round_block", p, Impl::BlockTilesKernel<Ops, 16>{t});
      else if (size == 8)
        Kokkos::parallel_for("apsp::phase3_round_block", p, Impl::BlockTilesKernel<Ops, 8>{t});
      else
        Kokkos::parallel_for("apsp::phase3_round_block", p, Impl::BlockTilesKernel<Ops, 4>{t});
    };
    // Phases 1 and 2 of round r (their marks), and the marks phase 3 reads.
    auto open_round = [&](int r) {
      FW::phase1(rb, r, side);
      FW::phase2(rb, r, rb.tile_row(r), true, true, side, lanes16, round_ops.marks_of(rb, r));
      return FW::marked(round_ops, rb, r, side);
    };
    // A block of `size` rounds from k: a pair also takes round k's phase 3 on row and column k + 1.
    auto open_block = [&](int k, int size) {
      if (size >= 4) {
        // The diagonal block D closed: each round's three phases on D as a matrix of `size` tile
        // rows (the round's marks as a round's: phase 2 sets them, phase 3 reads them).
        const Block diagonal = rb.diagonal(k, size);
        for (int r = 0; r < size; ++r) {
          FW::phase1(diagonal, r, side);
          FW::phase2(diagonal, r, diagonal.tile_row(r), true, true, side, lanes16, round_ops.marks_of(rb, k + r));
          FW::phase3(diagonal, r, diagonal.tile_row(r), side, FW::marked(round_ops, rb, k + r, side), lanes16);
        }
        // The strips through D in one product each, then their marks for the fused products.
        mark_strips(k, size, opening_marks);
        wide_part(side, k, size, 0, Impl::BlockTiles<Value>::strips, Ops::kMarksOperands ? opening_marks : nullptr);
        mark_strips(k, size, wide_marks(wide_blocks));
        ++wide_blocks;
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
                    lanes16};
      if (t.league() == 0) return;
      const auto p = FW::policy(exec, t.league(), B, Ops::product_scratch(B));
      if (t.fused())
        Kokkos::parallel_for("apsp::phase3_round_pair", p, Impl::PairTilesKernel<Ops, true>{t});
      else
        Kokkos::parallel_for("apsp::phase3_round_pair_lagging", p, Impl::PairTilesKernel<Ops, false>{t});
    };
    open_block(0, block_rounds(rb, 0, rounds, wide));
    for (int k = 0; k < rounds;) {
      const int size = block_rounds(rb, k, rounds, wide), after = k + size;
      const int next = after < rounds ? block_rounds(rb, after, rounds, wide) : 0;
      Runtime::wait(main, opened);
      if (size >= 4) {
        const int32_t* marks = Ops::kMarksOperands ? wide_marks(wide_blocks - 1) : nullptr;
        if (next > 0) {
          Runtime::wait(side, rest_done);  // the last block's: recorded again below
          wide_part(side, k, size, next, Impl::BlockTiles<Value>::cross, marks);
        }
        wide_part(main, k, size, next, Impl::BlockTiles<Value>::rest, marks);
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
