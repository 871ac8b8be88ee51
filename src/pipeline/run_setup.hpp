// SPDX-License-Identifier: BSD-3-Clause
// The stages of a run before its matrix exists (RunStages, run_stages.hpp, is the outline): the
// run described, the outputs refused or opened, the graph read or generated with the memory
// checked for it and the numbering the solve takes, the self-check started. Written once for one
// process and for the ranks of an MPI job (the policy: processes.hpp).
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "apsp/backends/backend_runtime.hpp"
#include "apsp/backends/backend_traits.hpp"
#include "apsp/core/cpus.hpp"
#include "apsp/io/graph_file.hpp"
#include "apsp/io/output_file.hpp"
#include "apsp/io/output_path.hpp"
#include "apsp/paths/edge_rows.hpp"
#include "apsp/paths/predecessor_search.hpp"
#include "apsp/pipeline/pipeline.hpp"
#include "apsp/report/round_rates.hpp"
#include "apsp/solver/block_size.hpp"
#include "apsp/solver/blocked_fw.hpp"
#include "apsp/solver/build_from_edges.hpp"
#include "apsp/solver/distance_matrix.hpp"
#include "apsp/solver/file_numbering.hpp"
#include "apsp/solver/tile_row_partition.hpp"
#include "background_task.hpp"
#include "held_rows_check.hpp"
#include "memory_check.hpp"
#include "processes.hpp"
#include "report_figures.hpp"
#include "result_outputs.hpp"
#include "result_rows.hpp"
#include "stage_clock.hpp"
#include "whole_graph_edges.hpp"

namespace apsp::Impl {

template <class ExecSpace, class Procs>
class RunSetup {
 protected:
  RunSetup(const RunOptions& opt, Procs& procs)
      : opt_(opt), procs_(procs), paths_(opt.predecessors_asked()), outputs_(opt) {}

  void describe() {
    const auto t_entry = Clock::now();
    t_start_ = opt_.started == Clock::time_point{} ? t_entry : opt_.started;
    rep_.backend = ExecSpace::name();
    rep_.concurrency = ExecSpace().concurrency();
    rep_.thread_binding = opt_.thread_binding;
    rep_.block = opt_.block_size > 0 ? opt_.block_size : BackendTraits<ExecSpace>::default_block;
    rep_.no_output = opt_.no_output;
    procs_.collectively([&] { procs_.template describe<ExecSpace>(rep_); });  // may refuse --pivot-rows
    find_ceiling(false);  // a GPU's from its attributes, a CPU's if calibrated before
    rep_.seconds.startup = procs_.slowest(std::chrono::duration<double>(t_entry - t_start_).count());
  }

  /// The block size, and the files the run will write (never anything but a regular file or
  /// /dev/null): none may be the input, another output or the record.
  void refuse_outputs() {
    procs_.collectively([&] {
      check_block_size<ExecSpace>(rep_.block);
      outputs_.refuse(opt_);
    });
  }

  /// Header checks, then the edge list mapped (and read) into memory; every process checks it
  /// (the page cache holds one copy per node) and keeps the edges of its rows. A generated graph
  /// (--generate) is made instead, each process the edges out of its rows.
  void read_graph() {
    const auto t0 = Clock::now();
    region_.emplace("apsp::read");
    host_threads_ = static_cast<int>(std::max<size_t>(1, thread_cpus().size()));
    procs_.collectively([&] {
      if (opt_.generate) {
        const TileRowPartition p = partition_of(opt_.generate->vertices);
        const int r = procs_.rank(), B = rep_.block;
        graph_.emplace(GraphFile::generate(*opt_.generate, int64_t(p.first(r)) * B,
                                           int64_t(p.first(r) + p.count(r)) * B, host_threads_));
      } else {
        graph_.emplace(opt_.open_input ? opt_.open_input() : GraphFile::open(opt_.input, opt_.input_format));
      }
    });
    rep_.text_input = graph_->text();
    rep_.vertices = graph_->vertices();
    graph_name_ = opt_.input.empty() ? "generated graph" : opt_.input;
    // Each process made the edges of its own rows: every process takes part in the sum, also one
    // that holds all rows (fewer tile rows than processes) or none.
    rep_.edges = opt_.generate ? procs_.total(graph_->edges()) : graph_->edges();
    rep_.graph = opt_.generate ? opt_.generate->describe() : "file";
    const TileRowPartition part = partition_of(rep_.vertices);
    check_memory<ExecSpace>(opt_, procs_, int64_t(part.count(0)) * rep_.block, graph_->edges(), graph_->in_memory(),
                            rep_);
    // Only then the numbering (its arrays are O(V + E), far below the matrix), and with it one
    // more matrix, into which each result is gathered back to the file's numbering in turn.
    procs_.collectively([&] { choose_order(); });
    rep_.seconds.order = procs_.slowest(order_.seconds);
    if (order_.applied()) try {
        check_memory<ExecSpace>(opt_, procs_, int64_t(part.count(0)) * rep_.block, graph_->edges(), graph_->in_memory(),
                                rep_, true);
      } catch (const InputError&) {
        if (opt_.vertex_order == OrderChoice::nested) throw;
        order_ = VertexOrder{};
        order_.why = "the file's (no memory for the result's renumbered copy)";
        check_memory<ExecSpace>(opt_, procs_, int64_t(part.count(0)) * rep_.block, graph_->edges(), graph_->in_memory(),
                                rep_);
      }
    rep_.order = order_.why;
    // The matrix rows this process holds, and of them the result's rows it writes.
    first_row_ = int64_t(part.first(procs_.rank())) * rep_.block;
    matrix_rows_ = int64_t(part.count(procs_.rank())) * rep_.block;
    held_rows_ = result_rows(rep_.vertices, first_row_, matrix_rows_);
    rep_.seconds.read = procs_.slowest(seconds_since(t0));
  }
  /// The numbering the solve takes (--order), on every process alike (each reads the whole
  /// graph and computes the same one), except for a graph generated under MPI, of which each
  /// rank makes only its own rows' edges: that one keeps its own numbering.
  void choose_order() {
    const OrderChoice asked = opt_.vertex_order;
    if (Procs::kMpi && opt_.generate) {
      if (asked == OrderChoice::nested)
        throw std::invalid_argument(
            "--order nested: a graph generated under MPI is made row by row on each rank, and the numbering needs "
            "all of it: write it to a file (apsp_gen) or use --order natural");
      order_.why = "the file's (a graph generated under MPI)";
      return;
    }
    order_ = apsp::choose_order(*graph_, rep_.block, asked);
  }

  TileRowPartition partition_of(int64_t vertices) const {
    return procs_.partition(static_cast<int>(padded_size(vertices, rep_.block) / rep_.block));
  }

  /// The temporary output files exist from here on (removed again on any failure), so that an
  /// output path that cannot be written fails before any work or any banner.
  void open_outputs() {
    rep_.write_threads = procs_.write_threads(opt_.write_threads);
    outputs_.open(procs_, rep_.vertices, rep_.write_threads);
  }

  /// The self-check's reference rows: where a device solves, beside the build and the solve, from
  /// the edges read ahead, on the host's CPUs but those that will prepare the output (4) and the
  /// one driving the device.
  void start_check() {
    if (opt_.verify_rows < 0) return;
    check_.emplace(*graph_, first_row_, held_rows_, opt_.verify_rows);
    if (!host_is_device<ExecSpace>()) check_->start(std::max(1, host_threads_ - 5), paths_);
  }

  /// The devices' rates for the run's ceiling; `measure`: a CPU calibrates now where no earlier
  /// run did (after the run: it would take from the solve).
  void find_ceiling(bool measure) { record_ceiling<ExecSpace>(rep_, procs_, opt_.ceiling, measure); }

  const RunOptions& opt_;
  Procs& procs_;
  const bool paths_;
  RunReport rep_;
  Clock::time_point t_start_;
  int host_threads_ = 1;
  std::string graph_name_;
  int64_t first_row_ = 0, matrix_rows_ = 0, held_rows_ = 0;
  // Declared in the order they are made: each member goes before what it outlives (an output
  // file outlives the check, the matrices and the thread that prepares its pieces); RunStages'
  // own members (the matrices, the solver) go before all of these.
  std::optional<ScopedRegion> region_;
  std::optional<GraphFile> graph_;
  VertexOrder order_;
  Kokkos::View<int32_t*, typename ExecSpace::memory_space> labels_;  ///< order_'s labels where the solver runs
  ResultOutputs<ExecSpace> outputs_;
  std::optional<HeldRowsCheck<ExecSpace>> check_;
};

}  // namespace apsp::Impl
