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
// sends it), by one of three paths (PivotPath): MPI on the matrix's memory (a host backend,
// CUDA-aware MPI); MPI through pinned host memory, copied on a second stream and overlapped
// with phase 3; or the devices' own collectives (NCCL) on that second stream, where the host
// never waits for the row: the next round's kernels wait for it on the device.
#pragma once

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <climits>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

#include "apsp/solver/blocked_fw.hpp"
#include "apsp/solver/distance_matrix.hpp"
#include "apsp/solver/lane_tally.hpp"
#include "apsp/solver/tile_row_partition.hpp"

namespace apsp::mpi {

/// How pivot rows travel between ranks.
enum class PivotPath {
  mpi_direct,         ///< MPI_Bcast on the matrix's memory (host backends, CUDA-aware MPI)
  mpi_staged,         ///< MPI_Bcast through pinned host memory
  device_collective,  ///< the devices' own broadcast on a device queue (NCCL)
};

/// `Solver`: the single-device round driver whose phases it runs (its Value is the entry
/// type: int32 distances, or the keys of a solve that finds predecessors).
template <class ExecSpace, class Solver = BlockedFloydWarshall<ExecSpace>>
class DistributedFloydWarshall {
 public:
  using Value = typename Solver::Value;
  using Matrix = typename Solver::Matrix;
  using Block = typename Solver::Block;
  using Runtime = BackendRuntime<ExecSpace>;

  struct Seconds {
    double phase[3] = {0, 0, 0};  ///< when timed: summed over rounds, a fence after each phase
    double mpi = 0;               ///< blocked in MPI_Bcast (enqueueing, on the device path)
    double staging = 0;           ///< waiting for pivot-row copies between device and host
  };

  /// Collective (the device path sets up its communicator here).
  DistributedFloydWarshall(MPI_Comm comm, const Matrix& local, const TileRowPartition& part, PivotPath path)
      : comm_(comm),
        local_(local),
        part_(part),
        path_(path),
        compute_(),
        side_(Runtime::side_instance()),
        // NCCL's broadcast runs kernels: on a high-priority queue its blocks go ahead of
        // phase 3's pending ones instead of after them (copies need no blocks).
        copy_(path == PivotPath::device_collective ? Runtime::side_instance() : second_instance()),
        round_ops_(Block::of(local)) {
    MPI_Comm_rank(comm, &rank_);
    const size_t row_block = size_t(local.block) * size_t(local.n);
    for (auto& p : pivot_)
      p = DeviceRow(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::mpi::pivot_row"), row_block);
    if (path_ == PivotPath::mpi_staged)
      staging_ = HostRow(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::mpi::staging"), row_block);
    if constexpr (Collectives::available)
      if (path_ == PivotPath::device_collective) {
        int ranks = 1;
        MPI_Comm_size(comm, &ranks);
        devices_.emplace(rank_, ranks,
                         [&](void* id, size_t bytes) { MPI_Bcast(id, static_cast<int>(bytes), MPI_BYTE, 0, comm); });
      }
    if (path_ == PivotPath::device_collective && !devices_)
      throw std::logic_error("this backend has no device collectives");
  }

  /// The relaxations of this rank's phases 2 and 3 that ran in 16-bit lanes (after solve).
  int64_t lanes16() const { return lanes16_.total(); }
  /// The relaxations this rank's phases 2 and 3 computed, in either lane type (after solve).
  int64_t computed() const { return lanes16_.computed(); }
  /// The relaxations of this rank's products left out (an operand of INF alone; after solve).
  int64_t left_out() const { return lanes16_.left_out(); }

  /// The paths this backend can take: the device's collectives when it has them.
  static constexpr bool has_device_collectives() { return Collectives::available; }

  /// Bytes this class allocates: two pivot row blocks where the matrix lives (on_device) and
  /// the packed operands of a round (CPU; counted for every tile row, an upper bound), and one
  /// pivot row block in pinned host memory on the staged path.
  static int64_t buffer_bytes(int64_t vertices, int block, bool on_device) {
    const int64_t row_block = size_mul(block, padded_size(vertices, block), int64_t(sizeof(Value)));
    if (!on_device) return row_block;
    return size_add(size_mul(2, row_block),
                    Solver::buffer_bytes(vertices, block, padded_size(vertices, block) / block));
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
      stage_out(rb, 0);
    }
    share_pivot_row(0);
    for (int k = 0; k < rounds; ++k) {
      // Round k - 1 is done, so its pivot buffer may now receive round k + 1's row.
      compute_.fence();
      // On the device path the pivot row of round k (and the owner's send of it) is done
      // before round k's kernels start, on the device.
      if (path_ == PivotPath::device_collective) Runtime::wait(compute_, pivot_shared_);
      const Value* pivot = owns(k) ? rb.tile_row(k) : pivot_[k % 2].data();
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
        stage_out(rb, j);
      } else {
        timed(2, [&] { Solver::phase3(rb, k, pivot, compute_, packed, lanes16_.slots()); });
      }
      if (next) share_pivot_row(k + 1);
      after_round(k + 1, rounds);
    }
    compute_.fence();
  }

 private:
  using DeviceRow = Kokkos::View<Value*, typename ExecSpace::memory_space>;
  using HostRow = Kokkos::View<Value*, typename Runtime::HostStagingSpace>;

  static ExecSpace second_instance() {
#if KOKKOS_VERSION >= 40000
    if constexpr (!host_is_device<ExecSpace>()) return Kokkos::Experimental::partition_space(ExecSpace(), 1)[0];
#endif
    return ExecSpace();
  }

  bool owns(int k) const { return part_.owner(k) == rank_; }
  using RowView = Kokkos::View<Value*, typename ExecSpace::memory_space, Kokkos::MemoryUnmanaged>;
  static RowView row_view(const Block& rb, int k) { return RowView(rb.tile_row(k), size_t(rb.block) * size_t(rb.n)); }

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

  // The owner of tile row k, once the row is final (fenced): starts its copy to pinned host
  // memory on the second instance, unless MPI reads it where it is.
  void stage_out(const Block& rb, int k) {
    if (path_ == PivotPath::mpi_staged) Kokkos::deep_copy(copy_, staging_, row_view(rb, k));
  }

  // Round k's pivot row block from its owner to every rank: the owner's copy lies in its rows
  // (fenced, and on its way to the staging buffer when not direct); the others receive it into
  // pivot_[k % 2].
  void share_pivot_row(int k) {
    const int root = part_.owner(k);
    const Block rb = Block::of(local_);
    static_assert(sizeof(Value) == sizeof(int32_t), "pivot rows travel as int32");
    const int64_t count = int64_t(local_.block) * local_.n;
    Kokkos::Timer t;
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): the keys' bytes, as int32
    auto* const mine = reinterpret_cast<int32_t*>(root == rank_ ? rb.tile_row(k) : pivot_[k % 2].data());
    if (path_ == PivotPath::device_collective) {
      if constexpr (Collectives::available) devices_->broadcast(mine, size_t(count), root, copy_);
      Runtime::record(pivot_shared_, copy_);
      seconds_->mpi += t.seconds();
      return;
    }
    if (path_ == PivotPath::mpi_direct) {
      broadcast(mine, count, root);
      seconds_->mpi += t.seconds();
      return;
    }
    if (root == rank_) copy_.fence();
    seconds_->staging += t.seconds();
    t.reset();
    broadcast(reinterpret_cast<int32_t*>(staging_.data()), count, root);  // NOLINT(*reinterpret-cast)
    seconds_->mpi += t.seconds();
    if (root != rank_) {
      t.reset();
      Kokkos::deep_copy(copy_, pivot_[k % 2], staging_);
      copy_.fence();
      seconds_->staging += t.seconds();
    }
  }

  void broadcast(int32_t* data, int64_t count, int root) const {
    for (int64_t at = 0; at < count; at += INT_MAX / 2) {
      const int part = static_cast<int>(std::min<int64_t>(INT_MAX / 2, count - at));
      MPI_Bcast(data + at, part, MPI_INT32_T, root, comm_);
    }
  }

  template <class F>
  void timed(int phase, F&& f) {
    if (!time_phases_) return f();
    Kokkos::Timer t;
    f();
    compute_.fence();
    seconds_->phase[phase] += t.seconds();
  }

  using Collectives = DeviceCollectives<ExecSpace>;

  MPI_Comm comm_;
  const Matrix& local_;
  TileRowPartition part_;
  PivotPath path_;
  int rank_ = 0;
  ExecSpace compute_, side_, copy_;  ///< main queue, high-priority look-ahead queue, pivot-row copies
  typename Runtime::Event column_done_, pivot_shared_;
  std::optional<Collectives> devices_;  ///< the device path's communicator
  DeviceRow pivot_[2];
  HostRow staging_;
  typename Solver::RoundOps round_ops_;  ///< (CPU) a round's packed phase-3 operands
  LaneTally<ExecSpace> lanes16_;
  Seconds* seconds_ = nullptr;
  bool time_phases_ = false;
};

}  // namespace apsp::mpi
