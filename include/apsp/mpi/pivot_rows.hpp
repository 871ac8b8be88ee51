// SPDX-License-Identifier: BSD-3-Clause
// How round k's pivot row block (the B x n entries of tile row k) travels from the rank that
// holds it to every other rank (distributed_fw.hpp), by one of four paths (PivotPath):
// - MPI on the matrix's memory (a host backend, CUDA- or ROCm-aware MPI);
// - MPI through pinned host memory, copied on a second queue and overlapped with phase 3;
// - the devices' own collectives (NCCL) on that second queue, where the host never waits for
//   the row: the next round's kernels wait for it on the device;
// - between the GPUs of one node, each rank copying the row from the owner's device memory
//   (CUDA or HIP IPC: backends/gpu_peers.hpp), where neither the host nor MPI moves its bytes.
// Each rank receives into one of two buffers by round parity, so that round k + 1's row may
// arrive while round k's kernels still read round k's. A block of R rounds across ranks
// (distributed_blocks.hpp) sends its R tile rows the same way, numbered by block.
#pragma once

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "apsp/backends/backend_runtime.hpp"

namespace apsp::mpi {

/// How pivot rows travel between ranks.
enum class PivotPath {
  mpi_direct,         ///< MPI_Bcast on the matrix's memory (host backends, CUDA-aware MPI)
  mpi_staged,         ///< MPI_Bcast through pinned host memory
  device_collective,  ///< the devices' own broadcast on a device queue (NCCL)
  device_peer,        ///< each rank copies from the owner's device memory (one node)
};

/// `Value`: the matrix's entry type (4 bytes: int32 distances, or a path solve's keys).
template <class ExecSpace, class Value>
class PivotRows {
  static_assert(sizeof(Value) == sizeof(int32_t), "pivot rows travel as int32");

 public:
  using Runtime = BackendRuntime<ExecSpace>;

  /// Seconds the host spent on the rows, summed over rounds.
  struct Seconds {
    double mpi = 0;      ///< blocked in MPI (enqueueing, on the device path)
    double staging = 0;  ///< waiting for copies between the devices or to and from the host
  };

  /// Buffers for row blocks of `entries` each; collective (the device path's communicator, the
  /// peer path's buffers are set up here). Throws where `path` is not this backend's, or where
  /// the node's GPUs could not open each other's buffers (the same on every rank).
  PivotRows(MPI_Comm comm, size_t entries, PivotPath path)
      : comm_(comm),
        path_(path),
        entries_(entries),
        // NCCL's broadcast runs kernels: on a high-priority queue its blocks go ahead of
        // phase 3's pending ones instead of after them. So, as measured, do the peer path's
        // copies between devices: on a queue of normal priority the ranks' waits for them came
        // to 0.40 s of a V = 40000 solve on 2 x H200 (313 rounds), on this one 0.02 s
        // (docs/results.md). Copies to and from the host take no blocks.
        copy_(path == PivotPath::device_collective || path == PivotPath::device_peer ? Runtime::side_instance()
                                                                                     : second_instance()) {
    MPI_Comm_rank(comm, &rank_);
    int ranks = 1;
    MPI_Comm_size(comm, &ranks);
    alone_ = ranks == 1;
    for (auto& p : received_)
      p = DeviceRow(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::mpi::pivot_row"), entries);
    if (path_ == PivotPath::mpi_staged)
      staging_ = HostRow(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::mpi::staging"), entries);
    if constexpr (Collectives::available)
      if (path_ == PivotPath::device_collective)
        devices_.emplace(rank_, ranks,
                         [&](void* id, size_t bytes) { MPI_Bcast(id, static_cast<int>(bytes), MPI_BYTE, 0, comm); });
    if (path_ == PivotPath::device_collective && !devices_)
      throw std::logic_error("this backend has no device collectives");
    if constexpr (Peers::available)
      if (path_ == PivotPath::device_peer) {
        peers_.emplace(rank_, ranks, bytes(), all_gather(comm));
        if (!peers_->opened())  // on every rank alike: the answers were gathered
          throw std::runtime_error(std::string("--pivot-rows=peer: the node's GPUs could not open each other's "
                                               "buffers (") +
                                   Peers::name + "); use --pivot-rows=mpi");
      }
    if (path_ == PivotPath::device_peer && !peers_) throw std::logic_error("this backend has no device peers");
  }

  static constexpr bool has_device_collectives() { return Collectives::available; }
  static constexpr bool has_device_peers() { return Peers::available; }
  /// Whether the ranks of `comm` (one node) can read each other's device memory: a trial of
  /// DevicePeers on a small buffer. Collective; false for a backend without them.
  static bool device_peers_work(MPI_Comm comm) {
    if constexpr (Peers::available) {
      int rank = 0, size = 1;
      MPI_Comm_rank(comm, &rank);
      MPI_Comm_size(comm, &size);
      return Peers(rank, size, 256, all_gather(comm)).opened();
    }
    return false;
  }
  /// How many row blocks this class allocates: `on_device`, two where the matrix lives (four on
  /// the peer path: the outboxes); else one in pinned host memory on the staged path, none
  /// otherwise.
  static int64_t buffers(PivotPath path, bool on_device) {
    if (on_device) return path == PivotPath::device_peer ? 4 : 2;
    return path == PivotPath::mpi_staged ? 1 : 0;
  }

  /// The owner of tile row k, once `row` (its row block) is final (fenced): starts its copy to
  /// pinned host memory, or to its outbox of k's parity on the peer path, on the second queue.
  /// `count`: the entries sent, at most the buffers' (0: all of them).
  void stage_out(const Value* row, int k, size_t count = 0) {
    if (alone_) return;  // one rank: nobody to send to (a staged copy cost 0.12 s of a V = 40000 solve)
    count = count > 0 ? count : entries_;
    if (path_ == PivotPath::mpi_staged)
      Kokkos::deep_copy(copy_, Kokkos::subview(staging_, std::make_pair(size_t(0), count)),
                        Kokkos::View<const Value*, Memory, Kokkos::MemoryUnmanaged>(row, count));
    if constexpr (Peers::available)
      if (path_ == PivotPath::device_peer) peers_->post(row, k % 2, count * sizeof(Value), copy_);
  }

  /// Round k's row block from `root` to every rank: the owner's `row` (fenced, and on its way
  /// out where stage_out started it; null on the other ranks); the others receive it into
  /// received(k).
  void share(Value* row, int root, int k, Seconds& s, size_t count = 0) {
    if (alone_) return;
    count = count > 0 ? count : entries_;
    Value* const mine = root == rank_ ? row : received_[k % 2].data();
    Kokkos::Timer t;
    if (path_ == PivotPath::device_collective) {
      if constexpr (Collectives::available) devices_->broadcast(as_ints(mine), count, root, copy_);
      Runtime::record(shared_, copy_);
      s.mpi += t.seconds();
      return;
    }
    if (path_ == PivotPath::mpi_direct) {
      broadcast(as_ints(mine), root, count);
      s.mpi += t.seconds();
      return;
    }
    if (root == rank_) copy_.fence();  // the staging buffer or the outbox holds the row
    s.staging += t.seconds();
    t.reset();
    if (path_ == PivotPath::device_peer) {
      // Once the barrier is passed, the owner's outbox holds row k. It also orders both buffers'
      // reuse: a rank enters it only with its copy of row k - 1 done (fenced below), and the
      // owner writes this outbox again (row k + 2) only after the next round's barrier, as it
      // changes its tile row k only in round k + 1.
      MPI_Barrier(comm_);
    } else {
      broadcast(as_ints(staging_.data()), root, count);
    }
    s.mpi += t.seconds();
    if (root == rank_) return;
    t.reset();
    if (path_ == PivotPath::device_peer) {
      if constexpr (Peers::available) peers_->fetch(mine, root, k % 2, count * sizeof(Value), copy_);
    } else {
      const auto part = std::make_pair(size_t(0), count);
      Kokkos::deep_copy(copy_, Kokkos::subview(received_[k % 2], part), Kokkos::subview(staging_, part));
    }
    copy_.fence();
    s.staging += t.seconds();
  }

  /// Where round k's row block lies on a rank that does not hold tile row k.
  const Value* received(int k) const { return received_[k % 2].data(); }
  /// On the device path, holds `exec`'s later work until the row shared last has arrived.
  void wait_for_arrival(const ExecSpace& exec) const {
    if (path_ == PivotPath::device_collective) Runtime::wait(exec, shared_);
  }

 private:
  using Memory = typename ExecSpace::memory_space;
  using DeviceRow = Kokkos::View<Value*, Memory>;
  using HostRow = Kokkos::View<Value*, typename Runtime::HostStagingSpace>;
  using Collectives = DeviceCollectives<ExecSpace>;
  using Peers = DevicePeers<ExecSpace>;

  static ExecSpace second_instance() {
#if KOKKOS_VERSION >= 40000
    if constexpr (!host_is_device<ExecSpace>()) return Kokkos::Experimental::partition_space(ExecSpace(), 1)[0];
#endif
    return ExecSpace();
  }
  /// MPI_Allgather over `comm` of each rank's `bytes` (DevicePeers' exchange).
  static auto all_gather(MPI_Comm comm) {
    return [comm](const void* mine, void* all, size_t bytes) {
      MPI_Allgather(mine, static_cast<int>(bytes), MPI_BYTE, all, static_cast<int>(bytes), MPI_BYTE, comm);
    };
  }
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): the keys' bytes, as int32
  static int32_t* as_ints(Value* p) { return reinterpret_cast<int32_t*>(p); }
  size_t bytes() const { return entries_ * sizeof(Value); }

  void broadcast(int32_t* data, int root, size_t entries) const {
    const auto count = int64_t(entries);
    for (int64_t at = 0; at < count; at += INT_MAX / 2) {
      const int part = static_cast<int>(std::min<int64_t>(INT_MAX / 2, count - at));
      MPI_Bcast(data + at, part, MPI_INT32_T, root, comm_);
    }
  }

  MPI_Comm comm_;
  PivotPath path_;
  size_t entries_;
  int rank_ = 0;
  bool alone_ = false;                  ///< one rank: it holds every row, nothing travels
  ExecSpace copy_;                      ///< the rows' copies (and NCCL's broadcast)
  typename Runtime::Event shared_;      ///< the device path: the last row's broadcast enqueued
  std::optional<Collectives> devices_;  ///< the device path's communicator
  std::optional<Peers> peers_;          ///< the peer path's outboxes, this rank's and the others'
  DeviceRow received_[2];
  HostRow staging_;
};

}  // namespace apsp::mpi
