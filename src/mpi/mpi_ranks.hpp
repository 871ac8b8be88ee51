// SPDX-License-Identifier: BSD-3-Clause
// The pipeline's policy for the ranks of an MPI job (src/pipeline/processes.hpp): each rank
// holds a contiguous block of tile rows on its own device, stages fail or succeed on every
// rank alike, figures are the slowest rank's, and each rank writes its rows into one file.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../pipeline/processes.hpp"
#include "../pipeline/single_process.hpp"
#include "apsp/backends/backend_runtime.hpp"
#include "apsp/check/verify.hpp"
#include "apsp/core/cpus.hpp"
#include "apsp/graph/vertex_order.hpp"
#include "apsp/io/output_path.hpp"
#include "apsp/mpi/distributed_blocks.hpp"
#include "apsp/mpi/distributed_fw.hpp"
#include "apsp/mpi/file_order_peers.hpp"
#include "apsp/mpi/file_order_rows.hpp"
#include "apsp/mpi/runtime.hpp"
#include "apsp/mpi/shared_output.hpp"
#include "apsp/pipeline/run_report.hpp"
#include "apsp/solver/distance_matrix.hpp"
#include "apsp/solver/tile_row_partition.hpp"
#include "collective.hpp"

namespace apsp::mpi {

/// Every rank's `mine`, in rank order. Collective.
std::vector<std::string> gather_strings(MPI_Comm comm, const std::string& mine);

/// Every rank's `mine` one after the other, in rank order. Collective.
std::vector<int32_t> concatenate_ints(MPI_Comm comm, const std::vector<int32_t>& mine);

/// Every rank's device, as one line: identical names counted ("AMD EPYC 7B13 x4"), GPUs
/// listed one by one (their names carry the device number). Collective.
std::string devices_of_all_ranks(MPI_Comm comm, const std::string& mine);

/// The self-check's verdict over ranks: rows checked summed; the first mismatch reported is
/// that of the lowest rank that found one (rows ascend with ranks). Collective.
VerifyReport combine_verdicts(MPI_Comm comm, const VerifyReport& local);

class MpiRanks {
 public:
  static constexpr bool kMpi = true;
  /// `mpi_io`: write through MPI-IO even when every rank is on one node. `pivot_rows`: "auto"
  /// (MPI), "device" (the devices' collectives, NCCL) or "mpi". `block_rounds`: rounds per block
  /// across ranks, 0 for the backend's (block_rounds()).
  MpiRanks(const Runtime& rt, bool mpi_io, std::string pivot_rows, int block_rounds = 0)
      : rt_(rt),
        mapped_output_(rt.nodes() == 1 && !mpi_io),
        pivot_rows_(std::move(pivot_rows)),
        block_rounds_(block_rounds) {}

  MPI_Comm comm() const { return comm_; }
  int rank() const { return rt_.rank(); }
  int ranks() const { return rt_.size(); }
  int nodes() const { return rt_.nodes(); }
  int ranks_on_node() const { return rt_.local_size(); }
  TileRowPartition partition(int tiles) const { return TileRowPartition{tiles, rt_.size()}; }
  /// How pivot rows travel: where every rank is on one node and their GPUs can read each
  /// other's memory, each one copies the row from the owner's device (CUDA or HIP IPC: no host
  /// copies, no MPI); else MPI on the matrix's memory when it can read it (a host backend,
  /// CUDA- or ROCm-aware MPI), else MPI through pinned host memory. The devices' own
  /// collectives (NCCL) only when asked for: on 2 x H200 (NVLink), V = 40000, MPI's path had
  /// measured faster (whole run 4.20 s against 4.97 s, solve 2.32 against 2.49 s; NCCL's set-up
  /// takes 0.4 s, and its kernels wait for SMs beside phase 3 where copies do not;
  /// docs/results-log.md); the peers' path against MPI's: docs/results.md, "Several GPUs".
  /// Throws std::invalid_argument for a path this build, backend or launch lacks. Collective
  /// the first time (the peers' trial).
  template <class ExecSpace>
  PivotPath pivot_path() const {
    using D = DistributedFloydWarshall<ExecSpace>;
    const std::string backend = ExecSpace::name();
    if (pivot_rows_ != "auto" && pivot_rows_ != "device" && pivot_rows_ != "mpi" && pivot_rows_ != "peer")
      throw std::invalid_argument("--pivot-rows=" + pivot_rows_ + ": expected auto, peer, device or mpi");
    if (pivot_rows_ == "device") {
      if (!D::has_device_collectives())
        throw std::invalid_argument("--pivot-rows=device: the " + backend +
                                    " backend of this build has no device collectives (NCCL: configure with it found)");
      return PivotPath::device_collective;
    }
    if (pivot_rows_ == "peer") {
      if (!D::has_device_peers())
        throw std::invalid_argument("--pivot-rows=peer: the " + backend +
                                    " backend's memory is the host's (peer copies are between GPUs)");
      if (nodes() > 1)
        throw std::invalid_argument("--pivot-rows=peer: the ranks are on " + std::to_string(nodes()) +
                                    " nodes; GPUs copy from each other's memory only within one");
      if (!peers_work<ExecSpace>())
        throw std::invalid_argument(
            "--pivot-rows=peer: this node's GPUs could not open each other's buffers "
            "(IPC); use --pivot-rows=mpi");
      return PivotPath::device_peer;
    }
    if (pivot_rows_ == "auto" && D::has_device_peers() && nodes() == 1 && ranks() > 1 && peers_work<ExecSpace>())
      return PivotPath::device_peer;
    return host_is_device<ExecSpace>() || device_aware(BackendRuntime<ExecSpace>::kMpiDeviceApi)
               ? PivotPath::mpi_direct
               : PivotPath::mpi_staged;
  }
  template <class ExecSpace>
  void describe(RunReport& report) const {
    report.ranks = ranks();
    report.nodes = nodes();
    report.cpus = gather_strings(comm_, cpu_list(thread_cpus()));
    switch (pivot_path<ExecSpace>()) {
      case PivotPath::device_collective:
        report.message_path = "device buffers (NCCL)";
        break;
      case PivotPath::mpi_direct:
        report.message_path =
            host_is_device<ExecSpace>()
                ? "host memory (MPI)"
                : std::string("device buffers (") + BackendRuntime<ExecSpace>::kMpiDeviceApi + "-aware MPI)";
        break;
      case PivotPath::mpi_staged:
        report.message_path = "pinned host staging (MPI)";
        break;
      case PivotPath::device_peer:
        if constexpr (DevicePeers<ExecSpace>::available)
          report.message_path = std::string("device buffers (") + DevicePeers<ExecSpace>::name + ")";
        break;
    }
  }

  template <class Stage>
  void collectively(Stage&& stage) const {
    apsp::mpi::collectively(comm_, std::forward<Stage>(stage));
  }
  double slowest(double seconds) const {
    double m = seconds;
    MPI_Allreduce(&seconds, &m, 1, MPI_DOUBLE, MPI_MAX, comm_);
    return m;
  }
  int64_t total(int64_t count) const {
    int64_t sum = count;
    MPI_Allreduce(&count, &sum, 1, MPI_INT64_T, MPI_SUM, comm_);
    return sum;
  }
  void barrier() const { MPI_Barrier(comm_); }
  std::string devices(const std::string& mine) const { return devices_of_all_ranks(comm_, mine); }
  VerifyReport combine(const VerifyReport& local) const { return combine_verdicts(comm_, local); }
  std::vector<int32_t> concatenate(const std::vector<int32_t>& mine) const { return concatenate_ints(comm_, mine); }
  /// Whether restore_file_order moves the rows GPU to GPU: on one node whose GPUs copy from each
  /// other's memory, as the pivot rows do (not when MPI's path is asked for); else through
  /// host memory. Collective the first time (the peers' trial).
  template <class ExecSpace>
  bool renumbers_through_peers() const {
    if constexpr (kFileOrderThroughPeers<ExecSpace>)
      return nodes() == 1 && ranks() > 1 && pivot_rows_ != "mpi" && peers_work<ExecSpace>();
    return false;
  }
  /// This rank's rows of `d`, solved under `order`'s numbering, in the file's: entries moved to
  /// their file columns and rows swapped among the ranks (file_order_peers.hpp,
  /// file_order_rows.hpp). Collective.
  template <class ExecSpace, class Value, class Labels>
  void restore_file_order(const DistanceMatrix<ExecSpace, Value>& d, const VertexOrder& order,
                          const Labels& /*on the device*/, const char* /*name*/) const {
    if (renumbers_through_peers<ExecSpace>()) {
      collectively([&] { file_order_through_peers(comm_, d, partition(d.blocks()), order.label, order.original); });
      return;
    }
    std::optional<FileOrderRows<ExecSpace, Value>> rows;
    collectively([&] { rows.emplace(d, partition(d.blocks()), rank(), order.label, order.original); });
    rows->exchange(comm_);
    collectively([&] { rows->finish(d); });
  }

  /// One node: ranks copy into a shared mapping, the node's 8 writer threads split among them
  /// (no more than the CPUs this rank may use).
  int write_threads(int requested) const {
    if (!mapped_output_) return 1;
    return requested > 0 ? requested : std::clamp(Impl::default_write_threads(0), 1, std::max(1, 8 / rt_.local_size()));
  }
  std::unique_ptr<ResultFile> open_output(const OutputTarget& target, int64_t cols, int threads) const {
    if (target.discard) return std::make_unique<DiscardedOutput>();
    return std::make_unique<SharedOutputFile>(comm_, target.path, cols, mapped_output_, threads);
  }

  /// Rounds per block across ranks for a matrix of `tiles` tile rows: as asked, else on a GPU
  /// (the tuned products of several rounds) DistributedBlocks' default for the tile rows per
  /// rank, and on a CPU one round at a time (its round driver packs each round's operands once).
  template <class FW>
  int block_rounds(int tiles) const {
    using Ops = typename FW::Operations;
    if (block_rounds_ > 0) return block_rounds_;
    if constexpr (Ops::kHasTuned && !Ops::kPacksRounds)
      return DistributedBlocks<typename FW::Space, FW>::default_rounds(tiles / std::max(1, ranks()));
    return 1;
  }
  /// The pivot rows' buffers where the matrix lives and in pinned host memory
  /// (DistributedFloydWarshall::buffer_bytes, DistributedBlocks::buffer_bytes; FW: the
  /// single-device round driver).
  template <class FW>
  Impl::SolverMemory solver_memory(int64_t vertices, int block) const {
    using ExecSpace = typename FW::Matrix::execution_space;
    const PivotPath path = pivot_path<ExecSpace>();
    const int rounds = block_rounds<FW>(int(padded_size(vertices, block) / block));
    if (rounds > 1) {
      using D = DistributedBlocks<ExecSpace, FW>;
      return {D::buffer_bytes(vertices, block, true, path, rounds),
              D::buffer_bytes(vertices, block, false, path, rounds)};
    }
    using D = DistributedFloydWarshall<ExecSpace, FW>;
    return {D::buffer_bytes(vertices, block, true, path), D::buffer_bytes(vertices, block, false, path)};
  }
  /// Every round over the ranks: in blocks of rounds (DistributedBlocks) or one at a time
  /// (DistributedFloydWarshall), over FW's kernels.
  template <class FW>
  class Solver {
    using ExecSpace = typename FW::Matrix::execution_space;
    using Rounds = DistributedFloydWarshall<ExecSpace, FW>;
    using Blocks = DistributedBlocks<ExecSpace, FW>;

   public:
    Solver(const MpiRanks& procs, const typename FW::Matrix& d) {
      const auto part = procs.partition(d.blocks());
      const PivotPath path = procs.template pivot_path<ExecSpace>();
      const int rounds = procs.template block_rounds<FW>(d.blocks());
      rounds_per_block_ = rounds;
      if (rounds > 1)
        blocks_.emplace(procs.comm(), d, part, path, rounds);
      else
        rounds_.emplace(procs.comm(), d, part, path);
    }
    /// Every round; the rows end in int32 (no 16-bit stage over ranks: `may_stay_narrowed` is
    /// one process's).
    template <class AfterRound>
    Impl::SolveSeconds solve(bool phase_times, AfterRound&& after_round, bool /*may_stay_narrowed*/ = false) {
      Impl::SolveSeconds out;
      if (blocks_) {
        typename Blocks::Seconds s;
        blocks_->solve(s, after_round);
        out.mpi = s.mpi;
        out.staging = s.staging;
        out.opening = s.opening;
        out.block_rounds = rounds_per_block_;
        return counted(out, *blocks_);
      }
      typename Rounds::Seconds s;
      rounds_->solve(s, phase_times, after_round);
      for (int i = 0; i < 3; ++i) out.phase[i] = s.phase[i];
      out.mpi = s.mpi;
      out.staging = s.staging;
      out.block_rounds = 1;
      return counted(out, *rounds_);
    }

   private:
    template <class D>
    static Impl::SolveSeconds counted(Impl::SolveSeconds out, const D& d) {
      out.lanes16 = d.lanes16();
      out.computed = d.computed();
      out.left_out = d.left_out();
      return out;
    }
    std::optional<Rounds> rounds_;
    std::optional<Blocks> blocks_;
    int rounds_per_block_ = 1;
  };

 private:
  const Runtime& rt_;
  MPI_Comm comm_ = MPI_COMM_WORLD;
  bool mapped_output_;
  std::string pivot_rows_;
  int block_rounds_ = 0;
  mutable std::optional<bool> peers_work_;  ///< the peers' trial, made once
  /// Whether the node's GPUs open each other's buffers (DevicePeers' trial, collective once).
  template <class ExecSpace>
  bool peers_work() const {
    if (!peers_work_) peers_work_ = DistributedFloydWarshall<ExecSpace>::device_peers_work(comm_);
    return *peers_work_;
  }
};

}  // namespace apsp::mpi
