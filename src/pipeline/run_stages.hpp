// SPDX-License-Identifier: BSD-3-Clause
// The whole run, written once for one process and for the ranks of an MPI job, as a list of
// named stages (RunStages::run). What differs between the two is a policy (processes.hpp):
// agreement on errors, reductions, the rows each process holds and the file it writes them into.
// The outputs (the distances and, with --predecessors, the predecessors) are one list
// (result_outputs.hpp).
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
class RunStages {
  using Runtime = BackendRuntime<ExecSpace>;
  using Matrix = DistanceMatrix<ExecSpace>;

 public:
  RunStages(const RunOptions& opt, Procs& procs)
      : opt_(opt), procs_(procs), paths_(!opt.predecessors.empty()), outputs_(opt) {}

  RunReport run() {
    describe();
    refuse_outputs();  // everything that can be refused without reading the graph
    read_graph();      // and the memory check
    open_outputs();
    start_check();
    build();
    reserve_outputs();
    solve();
    release_solver();
    restore_file_order();
    perturb();
    if (!verify()) return finish();  // a wrong answer is not written as if it were a result
    write();
    return finish();
  }

 private:
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
    choose_order();
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
  /// The numbering the solve takes (--order): one process holding the whole matrix; a
  /// distributed run takes the file's.
  void choose_order() {
    const OrderChoice asked = opt_.vertex_order;
    if (Procs::kMpi) {
      if (asked == OrderChoice::nested)
        throw std::invalid_argument("--order nested is not available under MPI (yet): use --order natural");
      order_.why = "the file's (under MPI)";
      return;
    }
    order_ = apsp::choose_order(*graph_, rep_.block, asked);
    rep_.seconds.order = order_.seconds;
  }

  /// The result in the file's numbering, where the solve took another (one matrix at a time).
  void restore_file_order() {
    if (!order_.applied()) return;
    const auto t0 = Clock::now();
    ScopedRegion r("apsp::file_order");
    *d_ = in_file_order(*d_, labels_);
    if (pred_) *pred_ = in_file_order(*pred_, labels_, "apsp::predecessor_matrix");
    labels_ = {};
    rep_.seconds.file_order = seconds_since(t0);
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

  /// This process's rows of the distance matrix, built from the edges where it solves; with
  /// --predecessors, also the edges of those rows, read off the matrix before the solve
  /// (paths/edge_rows.hpp), and the predecessor rows.
  void build() {
    const auto t0 = Clock::now();
    region_.emplace("apsp::build");
    procs_.collectively([&] {
      d_.emplace(rep_.vertices, rep_.block, first_row_, matrix_rows_);
      {
        const auto pinned = pin_cached_edges<ExecSpace>(*graph_);
        if (order_.applied()) labels_ = device_labels<ExecSpace>(order_.label);
        initialise_from_edges(*d_, *graph_, order_.applied() ? labels_.data() : nullptr);
      }
      // Where a device solves, the edges read ahead are freed once the solve is done, beside the
      // copy back, instead of before the solve (0.04 s for 960 MB on an H200 host); a host backend
      // frees them at once, its memory holding the matrix (and, with --predecessors, the
      // predecessor rows). A check started beside the build holds its own share of them until its CSR is
      // built; one that starts later reads the file again.
      edges_read_ahead_ = graph_->release_cache();
      if (host_is_device<ExecSpace>()) edges_read_ahead_.reset();
      if (paths_) {
        edges_.emplace(edges_of_rows(*d_, held_rows_));
        pred_.emplace(rep_.vertices, rep_.block, d_->first_row, d_->rows, "apsp::predecessor_matrix");
      }
      solver_.emplace(procs_, *d_);
    });
    outputs_.set_rows(0, *d_);
    if (paths_) outputs_.set_rows(1, *pred_);
    region_.reset();
    rep_.seconds.build = procs_.slowest(seconds_since(t0));
    rep_.device = procs_.devices(Runtime::device_name());
    if (opt_.on_start) opt_.on_start(rep_);
  }

  /// The outputs' blocks do not depend on the result: a device backend allocates them and makes
  /// their pages resident (several threads, piece by piece) while the device computes. When a
  /// file lives in memory (tmpfs), each piece is also pinned, so that the device copies the
  /// result straight into the file instead of through a staging buffer and a second copy by the
  /// host (6.4 GB at V = 40000: docs/results-log.md); the copy starts on the first pieces ready.
  /// A run that fails first (the check) stops it after the pieces under way. Started before the
  /// build instead, it slowed the build and the solve (docs/results-log.md).
  void reserve_outputs() { outputs_.reserve(first_row_, held_rows_, rep_.vertices); }

  void solve() {
    procs_.barrier();  // the solve starts together on every process
    const auto t0 = Clock::now();
    ScopedRegion r("apsp::solve");
    auto progress = ProgressThrottle<ExecSpace>(opt_.on_progress, opt_.progress_interval, t0);
    // Each round's end, where a round is done when the hook runs (report/round_rates.hpp).
    const bool time_rounds = !Procs::kMpi && host_is_device<ExecSpace>();
    std::vector<double> ends;
    if (time_rounds) ends.reserve(size_t((rep_.vertices + rep_.block - 1) / rep_.block));
    auto after_round = [&](int done, int rounds) {
      if (time_rounds) ends.push_back(seconds_since(t0));
      progress(done, rounds);
    };
    const SolveSeconds s = solver_->solve(opt_.phase_times, after_round);
    rep_.rounds = round_rates(ends, rep_.vertices, rep_.block);
    if (paths_) find_paths();
    procs_.barrier();
    rep_.seconds.solve = procs_.slowest(seconds_since(t0));
    record_solve(rep_, s, procs_, opt_.phase_times);
  }

  /// The devices' rates for the run's ceiling; `measure`: a CPU calibrates now where no earlier
  /// run did (after the run: it would take from the solve).
  void find_ceiling(bool measure) { record_ceiling<ExecSpace>(rep_, procs_, opt_.ceiling, measure); }

  /// --predecessors, part of the solve: the edges that are shortest paths (those of this
  /// process's rows, then the whole graph's), and the search from each source held.
  void find_paths() {
    const auto t0 = Clock::now();
    ScopedRegion r("apsp::predecessors");
    std::optional<EdgeRows<ExecSpace>> mine;
    procs_.collectively([&] {
      mine.emplace(shortest_edges(*edges_, *d_));
      edges_.reset();
    });
    const EdgeRows<ExecSpace> all = whole_graph_edges(procs_, *mine);
    mine.reset();
    // Under another numbering, each predecessor as its number in the file (the tie rule's).
    Kokkos::View<int32_t*, typename ExecSpace::memory_space> original;
    if (order_.applied()) original = device_labels<ExecSpace>(order_.original);
    procs_.collectively([&] { find_predecessors(*d_, held_rows_, all, *pred_, original.data()); });
    rep_.seconds.predecessors = procs_.slowest(seconds_since(t0));
  }

  /// The solver's buffers go; the edges read ahead are freed on a thread of their own.
  void release_solver() {
    solver_.reset();
    if (edges_read_ahead_) free_edges_.emplace([edges = std::move(edges_read_ahead_)]() mutable { edges.reset(); });
  }

  /// The tests' hook: one entry of the result changed, so that the check must catch it.
  void perturb() {
    if (opt_.perturb_row >= 0) procs_.collectively([&] { perturb_entry(*d_, opt_.perturb_row, opt_.perturb_col); });
    if (opt_.perturb_predecessor_row >= 0 && pred_)
      procs_.collectively([&] { perturb_entry(*pred_, opt_.perturb_predecessor_row, opt_.perturb_predecessor_col); });
  }

  /// The sampled rows this process holds against Dijkstra; false when they differ.
  bool verify() {
    if (!check_) return true;
    ScopedRegion r("apsp::verify");
    const auto t0 = Clock::now();
    procs_.collectively(
        [&] { rep_.verify = procs_.combine(check_->compare(*d_, pred_ ? &*pred_ : nullptr, host_threads_)); });
    rep_.verified = true;
    rep_.seconds.verify = procs_.slowest(seconds_since(t0));
    return rep_.verify.passed;
  }

  /// Every process its own rows, at their place in each file; then the files committed.
  void write() {
    region_.emplace("apsp::write");
    const auto t0 = Clock::now();
    double copy_wait = 0;
    procs_.collectively([&] { copy_wait = outputs_.write(opt_.result_chunk_bytes); });
    outputs_.commit();
    rep_.written = !outputs_.distances_discarded();
    rep_.discarded = outputs_.distances_discarded();
    rep_.seconds.copy_back = procs_.slowest(copy_wait);
    rep_.seconds.write = procs_.slowest(seconds_since(t0)) - rep_.seconds.copy_back;
  }

  RunReport finish() {
    rep_.seconds.total = procs_.slowest(seconds_since(t_start_));
    // After the clock stops: a first calibration is not part of the run it describes.
    if (rep_.ceiling.rates.int32 <= 0 && !opt_.ceiling.skip) {
      find_ceiling(true);
      rep_.ceiling.measured_after = true;
    }
    weigh_ceiling(rep_);
    return rep_;
  }

  const RunOptions& opt_;
  Procs& procs_;
  const bool paths_;
  RunReport rep_;
  Clock::time_point t_start_;
  int host_threads_ = 1;
  std::string graph_name_;
  int64_t first_row_ = 0, matrix_rows_ = 0, held_rows_ = 0;
  // Declared in the order they are made: each member goes before what it outlives (an output
  // file outlives the check, the matrices and the thread that prepares its pieces).
  std::optional<ScopedRegion> region_;
  std::optional<GraphFile> graph_;
  VertexOrder order_;
  Kokkos::View<int32_t*, typename ExecSpace::memory_space> labels_;  ///< order_'s labels where the solver runs
  ResultOutputs<ExecSpace> outputs_;
  std::optional<HeldRowsCheck<ExecSpace>> check_;
  std::optional<Matrix> d_, pred_;
  std::optional<typename Procs::template Solver<BlockedFloydWarshall<ExecSpace>>> solver_;
  std::optional<EdgeRows<ExecSpace>> edges_;  ///< --predecessors: the edges of the rows held, until the search
  std::shared_ptr<int32_t[]> edges_read_ahead_;
  std::optional<BackgroundTask> free_edges_;
};

template <class ExecSpace, class Procs>
RunReport run_stages(const RunOptions& opt, Procs& procs) {
  return RunStages<ExecSpace, Procs>(opt, procs).run();
}

}  // namespace apsp::Impl
