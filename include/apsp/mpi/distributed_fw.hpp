// SPDX-License-Identifier: BSD-3-Clause
// Blocked Floyd-Warshall over the ranks of an MPI communicator, each holding a contiguous
// block of tile rows (TileRowPartition), with the single-device phase kernels.
//
// Round k: the owner of tile row k has already run phase 1 and the pivot row's phase 2, and
// the pivot row block (B x n int32) has been broadcast. Every rank then runs phase 2 on the
// pivot column's tiles of its rows and phase 3 on its other tiles. Look-ahead: the owner of
// tile row k + 1 finishes that row for round k and opens round k + 1 (phase 1, pivot row) on a
// second, high-priority queue beside the rest of its phase 3, so that the next pivot row
// travels while phase 3 of round k runs on the device.
//
// Per rank and round, one broadcast of 4 B n bytes (every rank receives it once; the owner
// sends it), by one of the paths of pivot_rows.hpp.
#pragma once

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <cstdint>

#include "apsp/mpi/pivot_rows.hpp"
#include "apsp/solver/blocked_fw.hpp"
#include "apsp/solver/distance_matrix.hpp"
#include "apsp/solver/lane_tally.hpp"
#include "apsp/solver/tile_row_partition.hpp"

namespace apsp::mpi {

/// `Solver`: the single-device round driver whose phases it runs (its Value is the entry
/// type: int32 distances, or the keys of a solve that finds predecessors).
template <class ExecSpace, class Solver = BlockedFloydWarshall<ExecSpace>>
class DistributedFloydWarshall {
 public:
  using Value = typename Solver::Value;
  using Matrix = typename Solver::Matrix;
  using Block = typename Solver::Block;
  using Runtime = BackendRuntime<ExecSpace>;

  /// The pivot rows' seconds (PivotRows::Seconds: `mpi`, `staging`), and the phases'.
  struct Seconds : PivotRows<ExecSpace, Value>::Seconds {
    double phase[3] = {0, 0, 0};  ///< when timed: summed over rounds, a fence after each phase
  };

  /// Collective (the pivot rows' paths set up their communicators and buffers here).
  DistributedFloydWarshall(MPI_Comm comm, const Matrix& local, const TileRowPartition& part, PivotPath path)
      : local_(local),
        part_(part),
        compute_(),
        side_(Runtime::side_instance()),
        rows_(comm, size_t(local.block) * size_t(local.n), path),
        round_ops_(Block::of(local)) {
    MPI_Comm_rank(comm, &rank_);
  }

  /// The relaxations of this rank's phases 2 and 3 that ran in 16-bit lanes (after solve).
  int64_t lanes16() const { return lanes16_.total(); }
  /// The relaxations this rank's phases 2 and 3 computed, in either lane type (after solve).
  int64_t computed() const { return lanes16_.computed(); }
  /// The relaxations of this rank's products left out (an operand of INF alone; after solve).
  int64_t left_out() const { return lanes16_.left_out(); }

  /// The paths this backend can take: the device's collectives, and copies from each other's
  /// memory within a node, when it has them.
  static constexpr bool has_device_collectives() { return Rows::has_device_collectives(); }
  static constexpr bool has_device_peers() { return Rows::has_device_peers(); }
  /// Whether the ranks of `comm` (one node) can read each other's device memory (collective).
  static bool device_peers_work(MPI_Comm comm) { return Rows::device_peers_work(comm); }

  /// Bytes this class allocates: the pivot rows' buffers (PivotRows::buffers), and where the
  /// matrix lives (on_device) the packed operands of a round (CPU; counted for every tile row,
  /// an upper bound).
  static int64_t buffer_bytes(int64_t vertices, int block, bool on_device, PivotPath path) {
    const int64_t row_block = size_mul(block, padded_size(vertices, block), int64_t(sizeof(Value)));
    const int64_t rows = size_mul(Rows::buffers(path, on_device), row_block);
    if (!on_device) return rows;
    return size_add(rows, Solver::buffer_bytes(vertices, block, padded_size(vertices, block) / block));
  }

  /// Runs every round; `after_round(done, rounds)` is called after each round's work is
  /// enqueued. Returns after a fence.
  template <class AfterRound>
  void solve(Seconds& s, bool time_phases, AfterRound&& after_round) {
    seconds_ = &s;
    time_phases_ = time_phases;
    const Block rb = Block::of(local_);
    const int rounds = local_.blocks();
    if (owns(0)) {
      open_round(rb, 0, compute_);
      compute_.fence();
      rows_.stage_out(rb.tile_row(0), 0);
    }
    share_pivot_row(rb, 0);
    for (int k = 0; k < rounds; ++k) {
      // Round k - 1 is done, so its pivot buffer may now receive round k + 1's row.
      compute_.fence();
      // On the device path the pivot row of round k (and the owner's send of it) is done
      // before round k's kernels start, on the device.
      rows_.wait_for_arrival(compute_);
      const Value* pivot = owns(k) ? rb.tile_row(k) : rows_.received(k);
      timed(1, [&] { Solver::phase2(rb, k, pivot, false, true, compute_, lanes16_.slots()); });
      PackedRound packed;  // (CPU) round k's phase-3 operands, packed once for the rows held
      timed(2, [&] { packed = Solver::pack(round_ops_, rb, k, compute_, pivot); });
      const bool next = k + 1 < rounds;
      if (next && owns(k + 1)) {
        // Finish tile row j for round k and open round j on the high-priority side queue,
        // beside the rest of phase 3 (other tile rows) on the main one: the other ranks wait
        // for row j, and alone these few tiles would leave most of this GPU idle. Timed, all
        // on the main queue, a phase at a time (the row then leaves after phase 3).
        const int j = k + 1;
        const ExecSpace& ahead = time_phases_ ? compute_ : side_;
        Runtime::record(column_done_, compute_);  // phase 2 wrote tile (j, k)
        Runtime::wait(ahead, column_done_);
        timed(2, [&] {
          Solver::phase3(rb.sub(j, 1), k, pivot, ahead, packed.from_row(j - rb.first_tile), lanes16_.slots());
        });
        open_round(rb, j, ahead);
        timed(2, [&] { phase3_except(rb, j, k, pivot, packed); });
        ahead.fence();  // row j is final for round j: it may leave while phase 3 runs
        rows_.stage_out(rb.tile_row(j), j);
      } else {
        timed(2, [&] { Solver::phase3(rb, k, pivot, compute_, packed, lanes16_.slots()); });
      }
      if (next) share_pivot_row(rb, k + 1);
      after_round(k + 1, rounds);
    }
    compute_.fence();
  }

 private:
  using Rows = PivotRows<ExecSpace, Value>;

  bool owns(int k) const { return part_.owner(k) == rank_; }

  // Phase 1 and the pivot row's phase 2 of round k, on the owner of tile row k.
  void open_round(const Block& rb, int k, const ExecSpace& exec) {
    timed(0, [&] { Solver::phase1(rb, k, exec); });
    timed(1, [&] { Solver::phase2(rb, k, rb.tile_row(k), true, false, exec, lanes16_.slots()); });
  }

  // Round k's phase 3 on the rows held except tile row j, on the main queue.
  void phase3_except(const Block& rb, int j, int k, const Value* pivot, const PackedRound& packed) {
    Solver::phase3(rb.sub(rb.first_tile, j - rb.first_tile), k, pivot, compute_, packed, lanes16_.slots());
    Solver::phase3(rb.sub(j + 1, rb.first_tile + rb.row_tiles - j - 1), k, pivot, compute_,
                   packed.from_row(j + 1 - rb.first_tile), lanes16_.slots());
  }

  // Round k's pivot row block from the owner of tile row k to every rank.
  void share_pivot_row(const Block& rb, int k) {
    rows_.share(owns(k) ? rb.tile_row(k) : nullptr, part_.owner(k), k, *seconds_);
  }

  template <class F>
  void timed(int phase, F&& f) {
    if (!time_phases_) return f();
    Kokkos::Timer t;
    f();
    compute_.fence();
    seconds_->phase[phase] += t.seconds();
  }

  const Matrix& local_;
  TileRowPartition part_;
  int rank_ = 0;
  ExecSpace compute_, side_;  ///< main queue, high-priority look-ahead queue
  typename Runtime::Event column_done_;
  Rows rows_;                            ///< how pivot rows travel
  typename Solver::RoundOps round_ops_;  ///< (CPU) a round's packed phase-3 operands
  LaneTally<ExecSpace> lanes16_;
  Seconds* seconds_ = nullptr;
  bool time_phases_ = false;
};

}  // namespace apsp::mpi
