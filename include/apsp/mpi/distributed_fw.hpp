// SPDX-License-Identifier: BSD-3-Clause
// Blocked Floyd-Warshall over the ranks of an MPI communicator, each holding a contiguous
// block of tile rows (TileRowPartition), with the single-device phase kernels.
//
// Round k: the owner of tile row k has already run phase 1 and the pivot row's phase 2, and
// the pivot row block (B x n int32) has been broadcast. Every rank then runs phase 2 on the
// pivot column's tiles of its rows and phase 3 on its other tiles. Look-ahead: the owner of
// tile row k + 1 first finishes that row for round k and opens round k + 1 (phase 1, pivot row),
// so that the next pivot row travels while phase 3 of round k runs on the device.
//
// Per rank and round, one broadcast of 4 B n bytes (every rank receives it once; the owner
// sends it), on a second stream, overlapped with phase 3. How the row travels (PivotPath):
// MPI reads and writes the buffers itself (host backends, CUDA-aware MPI); or, GPUs of one
// node, each rank copies it from the owner's device buffer (CUDA IPC: over NVLink where there
// is one), after a barrier that says the owner's copy is ready; or it is staged through
// pinned host memory and broadcast from there.
#pragma once

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <climits>
#include <cstdint>
#include <vector>

#include "apsp/blocked_fw.hpp"
#include "apsp/distance_matrix.hpp"
#include "apsp/tile_row_partition.hpp"

namespace apsp::mpi {

template <class ExecSpace>
class DistributedFloydWarshall {
 public:
  using Solver = BlockedFloydWarshall<ExecSpace>;
  using Matrix = DistanceMatrix<ExecSpace>;
  using RowBlock = typename Solver::RowBlock;
  using Traits = BackendTraits<ExecSpace>;

  struct Seconds {
    double phase[3] = {0, 0, 0};  ///< when timed: summed over rounds, a fence after each phase
    double mpi = 0;               ///< blocked in MPI_Bcast
    double staging = 0;           ///< waiting for pivot-row copies between device and host
  };

  enum class PivotPath {
    mpi,           ///< MPI reads and writes the matrix's memory (host backends, CUDA-aware MPI)
    peer,          ///< copied from the owner's device buffer (GPUs of one node, CUDA IPC)
    host_staging,  ///< through pinned host memory, broadcast by MPI from there
  };
  static const char* describe(PivotPath p) {
    return p == PivotPath::mpi    ? "MPI from the matrix's memory"
           : p == PivotPath::peer ? "device to device (CUDA IPC, one node)"
                                  : "pinned host staging";
  }

  /// `path`: how pivot rows travel; PivotPath::peer falls back to host staging on every rank
  /// when any rank cannot export or map the buffers (path() tells which was taken).
  DistributedFloydWarshall(MPI_Comm comm, const Matrix& local, const TileRowPartition& part, PivotPath path)
      : comm_(comm), local_(local), part_(part), path_(path), compute_(), copy_(second_instance()) {
    MPI_Comm_rank(comm, &rank_);
    const size_t row_block = size_t(local.block) * size_t(local.n);
    for (auto& p : pivot_)
      p = DeviceRow(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::mpi::pivot_row"), row_block);
    if (path_ == PivotPath::peer && !open_peer_buffers(row_block * sizeof(int32_t))) path_ = PivotPath::host_staging;
    if (path_ == PivotPath::host_staging)
      staging_ = HostRow(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::mpi::staging"), row_block);
  }
  ~DistributedFloydWarshall() { close_peer_buffers(); }
  DistributedFloydWarshall(const DistributedFloydWarshall&) = delete;
  DistributedFloydWarshall& operator=(const DistributedFloydWarshall&) = delete;

  PivotPath path() const { return path_; }

  /// Bytes this class allocates where the matrix lives (two pivot row blocks to receive into,
  /// and two to send from on the peer path) and in pinned host memory (one row block, staged path).
  static int64_t device_buffer_bytes(int64_t vertices, int block, PivotPath path) {
    return (path == PivotPath::peer ? 4 : 2) * row_block_bytes(vertices, block);
  }
  static int64_t host_buffer_bytes(int64_t vertices, int block, PivotPath path) {
    return path == PivotPath::host_staging ? row_block_bytes(vertices, block) : 0;
  }

  /// Runs every round; `after_round(done, rounds)` is called after each round's work is
  /// enqueued. Returns after a fence.
  template <class AfterRound>
  void solve(Seconds& s, bool time_phases, AfterRound&& after_round) {
    seconds_ = &s;
    time_phases_ = time_phases;
    const RowBlock rb = Solver::whole(local_);
    const int rounds = local_.blocks();
    if (owns(0)) {
      open_round(rb, 0);
      compute_.fence();
      stage_out(rb, 0);
    }
    share_pivot_row(0);
    for (int k = 0; k < rounds; ++k) {
      // Round k - 1 is done, so its pivot buffer may now receive round k + 1's row.
      compute_.fence();
      const int32_t* pivot = owns(k) ? rb.tile_row(k) : pivot_[k % 2].data();
      timed(1, [&] { Solver::phase2(rb, k, pivot, false, true, compute_); });
      const bool next = k + 1 < rounds;
      if (next && owns(k + 1)) {
        const int j = k + 1;  // finish tile row j for round k, then open round j
        timed(2, [&] { Solver::phase3(sub(rb, j, 1), k, pivot, compute_); });
        open_round(rb, j);
        compute_.fence();  // row j is final for round j: it may leave while phase 3 runs
        stage_out(rb, j);
        timed(2, [&] {
          Solver::phase3(sub(rb, rb.first_tile, j - rb.first_tile), k, pivot, compute_);
          Solver::phase3(sub(rb, j + 1, rb.first_tile + rb.row_tiles - j - 1), k, pivot, compute_);
        });
      } else {
        timed(2, [&] { Solver::phase3(rb, k, pivot, compute_); });
      }
      if (next) share_pivot_row(k + 1);
      after_round(k + 1, rounds);
    }
    compute_.fence();
    copy_.fence();
    if (path_ == PivotPath::peer) {  // every mapping closed before any send buffer is freed
      close_peer_buffers();
      MPI_Barrier(comm_);
    }
  }

 private:
  using DeviceRow = Kokkos::View<int32_t*, typename ExecSpace::memory_space>;
  using HostRow = Kokkos::View<int32_t*, typename Traits::HostStagingSpace>;

  static ExecSpace second_instance() {
#if KOKKOS_VERSION >= 40000
    constexpr bool on_host =
        Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
    if constexpr (!on_host) return Kokkos::Experimental::partition_space(ExecSpace(), 1)[0];
#endif
    return ExecSpace();
  }

  static int64_t row_block_bytes(int64_t vertices, int block) {
    return int64_t(block) * padded_size(vertices, block) * int64_t(sizeof(int32_t));
  }

  // Peer path: two send buffers here (round k's row leaves from outbox_[k % 2]), their IPC
  // handles gathered from every rank, and every other rank's mapped. All ranks agree.
  bool open_peer_buffers(size_t bytes) {
    using Handle = typename Traits::PeerHandle;
    int size = 0;
    MPI_Comm_size(comm_, &size);
    int ok = 1;
    std::vector<Handle> mine(2), all(size_t(size) * 2);
    for (int b = 0; b < 2; ++b) {
      outbox_[b] = Traits::peer_alloc(bytes);
      ok &= outbox_[b] != nullptr && Traits::peer_handle(outbox_[b], mine[b]);
    }
    MPI_Allgather(mine.data(), int(2 * sizeof(Handle)), MPI_BYTE, all.data(), int(2 * sizeof(Handle)), MPI_BYTE, comm_);
    peers_.assign(size_t(size) * 2, nullptr);
    for (int r = 0; r < size && ok; ++r)
      for (int b = 0; b < 2 && r != rank_; ++b)
        ok &= (peers_[2 * r + b] = Traits::peer_open(all[2 * r + b])) != nullptr;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm_);
    if (!ok) {
      close_peer_buffers();
      MPI_Barrier(comm_);  // nobody maps the buffers any more: they may go
    }
    if (!ok)
      for (auto& b : outbox_) Traits::peer_free(b), b = nullptr;
    return ok;
  }
  void close_peer_buffers() {
    for (void*& p : peers_) Traits::peer_close(p), p = nullptr;
  }
  // Freed last: the other ranks have closed their mappings at the end of solve() (or never
  // opened them), unless an error ended the run early.
  struct Outboxes {
    void* b[2] = {nullptr, nullptr};
    void*& operator[](int i) { return b[i]; }
    void** begin() { return b; }
    void** end() { return b + 2; }
    ~Outboxes() {
      for (void* p : b) Traits::peer_free(p);
    }
  };

  bool owns(int k) const { return part_.owner(k) == rank_; }
  static RowBlock sub(const RowBlock& rb, int first_tile, int tiles) {
    return RowBlock{rb.tile_row(first_tile), first_tile, tiles, rb.n, rb.block, rb.vertices};
  }
  using RowView = Kokkos::View<int32_t*, typename ExecSpace::memory_space, Kokkos::MemoryUnmanaged>;
  static RowView row_view(const RowBlock& rb, int k) {
    return RowView(rb.tile_row(k), size_t(rb.block) * size_t(rb.n));
  }

  // Phase 1 and the pivot row's phase 2 of round k, on the owner of tile row k.
  void open_round(const RowBlock& rb, int k) {
    timed(0, [&] { Solver::phase1(rb, k, compute_); });
    timed(1, [&] { Solver::phase2(rb, k, rb.tile_row(k), true, false, compute_); });
  }

  // The owner of tile row k, once the row is final (fenced): starts its copy on the second
  // instance to the send buffer (peer path) or to pinned host memory (staged path).
  void stage_out(const RowBlock& rb, int k) {
    if (path_ == PivotPath::peer)
      Traits::copy_device(copy_, outbox_[k % 2], rb.tile_row(k), size_t(rb.block) * size_t(rb.n) * sizeof(int32_t));
    else if (path_ == PivotPath::host_staging)
      Kokkos::deep_copy(copy_, staging_, row_view(rb, k));
  }

  // Round k's pivot row block from its owner to every rank: the owner's copy lies in its rows
  // (fenced, and on its way to the send or staging buffer); the others receive it into
  // pivot_[k % 2].
  void share_pivot_row(int k) {
    const int root = part_.owner(k);
    const RowBlock rb = Solver::whole(local_);
    const int64_t count = int64_t(local_.block) * local_.n;
    Kokkos::Timer t;
    if (path_ == PivotPath::mpi) {
      broadcast(root == rank_ ? rb.tile_row(k) : pivot_[k % 2].data(), count, root);
      seconds_->mpi += t.seconds();
      return;
    }
    if (path_ == PivotPath::peer) {
      // Past this barrier the owner's send buffer holds row k, and every rank has its copy of
      // round k - 1's row (fenced below in the last call), so the owner of round k + 1 may
      // refill the buffer that round k - 1 used.
      if (root == rank_) copy_.fence();
      seconds_->staging += t.seconds();
      t.reset();
      MPI_Barrier(comm_);
      seconds_->mpi += t.seconds();
      if (root != rank_) {
        t.reset();
        Traits::copy_device(copy_, pivot_[k % 2].data(), peers_[2 * root + k % 2], size_t(count) * sizeof(int32_t));
        copy_.fence();
        seconds_->staging += t.seconds();
      }
      return;
    }
    if (root == rank_) copy_.fence();
    seconds_->staging += t.seconds();
    t.reset();
    broadcast(staging_.data(), count, root);
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

  MPI_Comm comm_;
  const Matrix& local_;
  TileRowPartition part_;
  PivotPath path_;
  int rank_ = 0;
  ExecSpace compute_, copy_;
  DeviceRow pivot_[2];
  HostRow staging_;
  Outboxes outbox_;           ///< peer path: this rank's two send buffers
  std::vector<void*> peers_;  ///< peer path: every rank's two send buffers, mapped (null: own)
  Seconds* seconds_ = nullptr;
  bool time_phases_ = false;
};

}  // namespace apsp::mpi
