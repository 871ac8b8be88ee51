// SPDX-License-Identifier: BSD-3-Clause
// Blocked Floyd-Warshall over the ranks of an MPI communicator in blocks of R rounds, as one GPU
// takes its rounds (gpu/pair_rounds.hpp), instead of one round at a time (distributed_fw.hpp),
// where every rank waited each round for the owner's next pivot row.
//
// Each rank holds a contiguous band of tile rows (TileRowPartition); a block J = tile rows
// [k, k + R) lies within one rank's band (block_rounds), its owner's. For block J:
// 1. the owner opens it: the diagonal block D = tiles (J, J) closed under J's rounds (the three
//    phases of each round on D alone, as one GPU closes its blocks' diagonals), then J's row strip
//    (tiles (J, j), j off J) through D's rows in one product each: J's rows are final for J;
// 2. J's R B rows go to every other rank once (PivotRows: from GPU to GPU within a node, else
//    NCCL or MPI);
// 3. every rank takes its band's column strip (tiles (i, J)) through D's columns in J's rows,
//    then every other tile of its band (i, j) in one product of depth R B:
//    min(C, A (min,+) Bk) with A = tiles (i, J) and Bk = tiles (J, j), both final for J
//    (band_tiles.hpp says why each product is exact).
// Look-ahead: the owner of the next block N takes N's rows first, on the high-priority queue,
// and opens N there beside the rest of its band on the main queue, so that N's rows travel while
// every rank computes J. Only the first block's opening is waited for by every rank.
//
// Per block and rank one transfer of R B n int32 (the owner sends it); per rank and block two
// passes of marks over its strip (16-bit lanes and products left out where the backend marks
// operands, a GPU). Block sizes 16, 8, 4, 2 and 1 rounds (the tuned products of several whole
// rounds); a CPU takes the block's rounds one after the other in each tile.
#pragma once

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "apsp/mpi/band_tiles.hpp"
#include "apsp/mpi/pivot_rows.hpp"
#include "apsp/solver/blocked_fw.hpp"
#include "apsp/solver/lane_tally.hpp"
#include "apsp/solver/tile_row_partition.hpp"

namespace apsp::mpi {

template <class ExecSpace, class FW = BlockedFloydWarshall<ExecSpace>>
class DistributedBlocks {
 public:
  using Value = typename FW::Value;
  using Matrix = typename FW::Matrix;
  using Block = typename FW::Block;
  using Ops = typename FW::Operations;
  using Runtime = BackendRuntime<ExecSpace>;

  /// What the host waited for: the rows (PivotRows::Seconds: `mpi` blocked in the barrier or
  /// broadcast for the owner, `staging` the copies), and `opening`: as the owner of the next
  /// block, its own look-ahead (that block's opening) before its rows could leave.
  struct Seconds : PivotRows<ExecSpace, Value>::Seconds {
    double opening = 0;
  };

  /// Rounds per block where none is asked for: sixteen halve the blocks' fixed costs once more
  /// than eight, but the owner of a block does R tile rows of work more than the others (the
  /// row strip), which they wait for: about R / (tile rows per rank) of each block.
  static int default_rounds(int tiles_per_rank) { return tiles_per_rank >= 256 ? 16 : tiles_per_rank >= 64 ? 8 : 4; }

  /// Collective (the pivot rows' paths set up their communicators and buffers here). `rounds`:
  /// the largest block, 1 to 16.
  DistributedBlocks(MPI_Comm comm, const Matrix& local, const TileRowPartition& part, PivotPath path, int rounds)
      : local_(local),
        part_(part),
        rounds_(std::clamp(rounds, 1, 16)),
        side_(Runtime::side_instance()),
        rows_(comm, size_t(rounds_) * size_t(local.block) * size_t(local.n), path),
        marks_("apsp::mpi::block_marks", size_t(3 * marks_ints(local))) {
    MPI_Comm_rank(comm, &rank_);
  }

  /// Bytes beside the matrix: the rows' buffers (PivotRows::buffers, R B n each) and the marks.
  static int64_t buffer_bytes(int64_t vertices, int block, bool on_device, PivotPath path, int rounds) {
    const int64_t n = padded_size(vertices, block);
    const int64_t rows = size_mul(PivotRows<ExecSpace, Value>::buffers(path, on_device),
                                  size_mul(int64_t(std::clamp(rounds, 1, 16)) * block, n, int64_t(sizeof(Value))));
    // The marks: three sets of marks_ints (tile rows held, at most n / B, and tile columns).
    return on_device ? size_add(rows, size_mul(int64_t(6), n / block + 16 + n / block, int64_t(sizeof(int32_t))))
                     : rows;
  }

  int64_t lanes16() const { return lanes16_.total(); }
  int64_t computed() const { return lanes16_.computed(); }
  int64_t left_out() const { return lanes16_.left_out(); }

  /// Rounds of the block from round k: the largest of 16, 8, 4, 2 and 1 that is at most the
  /// rounds asked for, lies within one rank's band, and (above 1) takes whole rounds only.
  int block_rounds(int k) const {
    const int owner = part_.owner(k), end = part_.first(owner) + part_.count(owner);
    for (const int s : {16, 8, 4, 2})
      if (s <= rounds_ && k + s <= end && band().pivots(k + s - 1) == local_.block) return s;
    return 1;
  }

  /// Every block; `after_round(done, rounds)` after each of its rounds is enqueued. Returns
  /// after a fence.
  template <class AfterRound>
  void solve(Seconds& s, AfterRound&& after_round) {
    seconds_ = &s;
    const Block rb = band();
    const int rounds = local_.blocks();
    int size = block_rounds(0);
    if (owns(0)) {
      open_block(0, size, compute_);
      compute_.fence();
      rows_.stage_out(rb.tile_row(0), 0, entries(size));
    }
    share(0, size, 0);
    for (int k = 0, b = 0; k < rounds; ++b) {
      const int after = k + size, next = after < rounds ? block_rounds(after) : 0;
      // A rank that receives the next block's rows takes them into the buffer block b - 1 read.
      if (next > 0 && !owns(after)) compute_.fence();
      rows_.wait_for_arrival(compute_);
      run_block(k, size, next, owns(k) ? rb.tile_row(k) : rows_.received(b), b);
      if (next > 0) share(after, next, b + 1);
      for (int r = k + 1; r <= after; ++r) after_round(r, rounds);
      k = after;
      size = next;
    }
    side_.fence();
    compute_.fence();
  }

 private:
  bool owns(int k) const { return part_.owner(k) == rank_; }
  Block band() const { return Block::of(local_); }
  size_t entries(int rounds) const { return size_t(rounds) * size_t(local_.block) * size_t(local_.n); }
  /// One set of marks: a flag per band row, then per tile column, then their least entries.
  static int64_t marks_ints(const Matrix& d) {
    const int64_t rows = d.rows / d.block, nb = d.n / d.block;
    return 2 * (std::max<int64_t>(rows, 16) + nb);
  }
  int32_t* marks(int set) const { return marks_.data() + set * marks_ints(local_); }
  /// Whether the marks keep each operand's least entry (a GPU with the 16-bit product).
  static constexpr bool keeps_least() {
    if constexpr (Ops::kMarksOperands) return Ops::kKeepsLeast;
    return false;
  }
  /// Ints from a mark to its least entry within one set.
  int64_t least_offset() const { return marks_ints(local_) / 2; }
  /// Where a set's Bk flags start: after A's, one per band row (at least 16, an opening's R).
  template <class Int>
  Int* bk_marks(Int* set) const {
    return set + (least_offset() - local_.n / local_.block);
  }

  /// The block of `size` rounds from k's rows, to every rank (the owner's fenced already).
  void share(int k, int size, int b) {
    rows_.share(owns(k) ? band().tile_row(k) : nullptr, part_.owner(k), b, *seconds_, entries(size));
  }

  void run_block(int k, int size, int next, const Value* pivot, int b);
  void open_block(int k, int size, const ExecSpace& exec);
  void mark(const ExecSpace& exec, int k, int size, const Value* pivot, int32_t* to, int a_first, int a_count,
            bool with_bk) const;
  void products(const ExecSpace& exec, int k, int size, const Value* pivot, int from, int to, bool in_block,
                const int32_t* marks, int a_first, int64_t least, int skip_from, int skip_to) const;
  void launch(const ExecSpace& exec, const Impl::BandTiles<Value>& t) const;
  template <int kRounds>
  void launch_as(const ExecSpace& exec, const Impl::BandTiles<Value>& t) const {
    Kokkos::parallel_for("apsp::mpi::block_products", FW::policy(exec, t.league(), t.B, Ops::product_scratch(t.B)),
                         Impl::BandTilesKernel<Ops, kRounds>{t});
  }

  const Matrix& local_;
  TileRowPartition part_;
  int rounds_;
  int rank_ = 0;
  ExecSpace compute_, side_;  ///< main queue, high-priority look-ahead queue
  typename Runtime::Event column_done_;
  PivotRows<ExecSpace, Value> rows_;
  Kokkos::View<int32_t*, typename ExecSpace::memory_space> marks_;  ///< sets: blocks by parity, the opening
  LaneTally<ExecSpace> lanes16_;
  Seconds* seconds_ = nullptr;
};

}  // namespace apsp::mpi

#include "apsp/mpi/distributed_blocks_steps.hpp"
