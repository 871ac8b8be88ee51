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
#include "apsp/solver/gpu/round_block_kernels.hpp"
#include "apsp/solver/phase_kernels.hpp"
#include "apsp/solver/round_operands.hpp"

namespace apsp::Impl {

/// `FW`: a BlockedFloydWarshall (its phases, its launch helpers, its tile operations).
template <class FW>
class PairRounds {
 public:
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
    PairRounds driver(d, lanes16, wide);
    const int rounds = d.blocks();
    driver.open_block(0, block_rounds(driver.rb_, 0, rounds, wide));
    for (int k = 0; k < rounds;) {
      const int size = block_rounds(driver.rb_, k, rounds, wide), after = k + size;
      const int next = after < rounds ? block_rounds(driver.rb_, after, rounds, wide) : 0;
      driver.run_block(k, size, next);
      if (next > 0) driver.open_block(after, next);
      for (int r = k + 1; r <= after; ++r) after_round(r, rounds);
      k = after;
    }
    driver.side_.fence();
    driver.main_.fence();
  }

 private:
  using Tiles = Impl::PairTiles<Value>;
  using Wides = Impl::BlockTiles<Value>;

  PairRounds(const Matrix& d, int64_t* lanes16, const Wide& wide)
      : rb_(FW::whole(d)),
        B_(d.block),
        nb_(int(d.n / d.block)),
        side_(Runtime::side_instance()),
        round_ops_(rb_),
        // The strip marks of a wide block: two sets for the fused products (the next block's
        // opening marks its own while the rest of the current one reads these), then one for the
        // opening's product of the strips; behind them the strips' least entries.
        strip_least_(Ops::kKeepsLeast ? 6 * int64_t(nb_) : 0),
        strip_marks_("apsp::strip_marks",
                     d.blocks() >= std::min({wide.fours_from, wide.eights_from, wide.sixteens_from})
                         ? size_t(6 * int64_t(nb_) + strip_least_)
                         : size_t(0)),
        lanes16_(lanes16) {}

  int32_t* wide_marks(int block) const { return strip_marks_.data() + (block % 2) * 2 * nb_; }
  int32_t* opening_marks() const { return strip_marks_.data() + 4 * nb_; }

  void mark_strips(int k, int size, int32_t* to) const {
    if constexpr (Ops::kMarksOperands)
      Kokkos::parallel_for("apsp::strip_marks", Kokkos::TeamPolicy<ExecSpace>(side_, 2 * nb_, Kokkos::AUTO),
                           Impl::StripMarkKernel<Ops>{rb_.rows, rb_.n, B_, k, size, nb_, to, strip_least_});
  }

  /// The R rounds' product of the tiles of one part of the block of `size` rounds from k.
  void wide_part(const ExecSpace& exec, int k, int size, int next, typename Wides::Part which,
                 const int32_t* marks) const {
    const Wides t{rb_.rows, rb_.n, B_, k, size, nb_, next, which, marks, lanes16_, strip_least_};
    if (t.league() == 0) return;
    const auto p = FW::policy(exec, t.league(), B_, Ops::product_scratch(B_));
    if (size == 16)
      Kokkos::parallel_for("apsp::phase3_round_block", p, Impl::BlockTilesKernel<Ops, 16>{t});
    else if (size == 8)
      Kokkos::parallel_for("apsp::phase3_round_block", p, Impl::BlockTilesKernel<Ops, 8>{t});
    else
      Kokkos::parallel_for("apsp::phase3_round_block", p, Impl::BlockTilesKernel<Ops, 4>{t});
  }

  /// Phases 1 and 2 of round r (their marks), and the marks phase 3 reads.
  PackedRound open_round(int r) const {
    FW::phase1(rb_, r, side_);
    FW::phase2(rb_, r, rb_.tile_row(r), true, true, side_, lanes16_, round_ops_.marks_of(rb_, r));
    return FW::marked(round_ops_, rb_, r, side_);
  }

  /// A block of `size` rounds from k, on the side queue: a pair also takes round k's phase 3 on
  /// row and column k + 1.
  void open_block(int k, int size) {
    if (size >= 4) {
      // The diagonal block D closed: each round's three phases on D as a matrix of `size` tile
      // rows (the round's marks as a round's: phase 2 sets them, phase 3 reads them).
      const Block diagonal = rb_.diagonal(k, size);
      for (int r = 0; r < size; ++r) {
        FW::phase1(diagonal, r, side_);
        FW::phase2(diagonal, r, diagonal.tile_row(r), true, true, side_, lanes16_, round_ops_.marks_of(rb_, k + r));
        FW::phase3(diagonal, r, diagonal.tile_row(r), side_, FW::marked(round_ops_, rb_, k + r, side_), lanes16_);
      }
      // The strips through D in one product each, then their marks for the fused products.
      mark_strips(k, size, opening_marks());
      wide_part(side_, k, size, 0, Wides::strips, Ops::kMarksOperands ? opening_marks() : nullptr);
      mark_strips(k, size, wide_marks(wide_blocks_));
      ++wide_blocks_;
      Runtime::record(opened_, side_);
      return;
    }
    const PackedRound first = open_round(k);
    if (size == 2) {
      FW::template launch_product<Impl::NextPivotCrossKernel>(
          "apsp::phase3_next_pivot_cross", side_, 2 * nb_ - 3,
          Impl::NextPivotCross<Value>{rb_.rows, rb_.n, B_, k, nb_, rb_.pivots(k), first, lanes16_});
      open_round(k + 1);
    }
    Runtime::record(opened_, side_);
  }

  /// One part of a pair's phase 3 (the pair from round k) on `exec`.
  void pair_part(const ExecSpace& exec, int k, int next, typename Tiles::Part part) const {
    const Tiles t{rb_.rows,
                  rb_.n,
                  B_,
                  k,
                  nb_,
                  next,
                  part,
                  round_ops_.pack_marked(rb_, k, rb_.tile_row(k), exec),
                  round_ops_.pack_marked(rb_, k + 1, rb_.tile_row(k + 1), exec),
                  lanes16_};
    if (t.league() == 0) return;
    const auto p = FW::policy(exec, t.league(), B_, Ops::product_scratch(B_));
    if (t.fused())
      Kokkos::parallel_for("apsp::phase3_round_pair", p, Impl::PairTilesKernel<Ops, true>{t});
    else
      Kokkos::parallel_for("apsp::phase3_round_pair_lagging", p, Impl::PairTilesKernel<Ops, false>{t});
  }

  /// Phase 3 of the block of `size` rounds from k, once it is open; `next`: the size of the
  /// block after it (0: none), whose tile row and column the side queue takes first.
  void run_block(int k, int size, int next) {
    Runtime::wait(main_, opened_);
    if (size >= 4) {
      const int32_t* marks = Ops::kMarksOperands ? wide_marks(wide_blocks_ - 1) : nullptr;
      if (next > 0) {
        Runtime::wait(side_, rest_done_);  // the last block's: recorded again below
        wide_part(side_, k, size, next, Wides::cross, marks);
      }
      wide_part(main_, k, size, next, Wides::rest, marks);
      Runtime::record(rest_done_, main_);
    } else if (size == 2) {
      if (next > 0) {
        Runtime::wait(side_, rest_done_);  // the last block's: recorded again below
        pair_part(side_, k, next, Tiles::cross_fused);
        pair_part(side_, k, next, Tiles::cross_lagging);
        Runtime::record(cross_done_, side_);
      }
      pair_part(main_, k, next, Tiles::rest_fused);
      if (next > 0) Runtime::wait(main_, cross_done_);
      pair_part(main_, k, next, Tiles::rest_lagging);
      Runtime::record(rest_done_, main_);
    } else if (next > 0) {  // one round, then one more: as solve_with_lookahead
      FW::phase3_ahead(rb_, k, round_ops_.pack_marked(rb_, k, rb_.tile_row(k), main_), main_, side_, rest_done_,
                       lanes16_);
    } else {
      FW::phase3(rb_, k, rb_.tile_row(k), main_, round_ops_.pack_marked(rb_, k, rb_.tile_row(k), main_), lanes16_);
    }
  }

  const Block rb_;
  const int B_, nb_;
  const ExecSpace main_, side_;
  typename Runtime::Event opened_, rest_done_, cross_done_;
  const RoundOps round_ops_;
  const int64_t strip_least_;
  const Kokkos::View<int32_t*, typename ExecSpace::memory_space> strip_marks_;
  int64_t* const lanes16_;
  int wide_blocks_ = 0;  ///< blocks of four, eight or sixteen opened
};

}  // namespace apsp::Impl
