// SPDX-License-Identifier: BSD-3-Clause
// The whole run, written once for one process and for the ranks of an MPI job, as a list of
// named stages (RunStages::run). What differs between the two is a policy (processes.hpp):
// agreement on errors, reductions, the rows each process holds and the file it writes them into.
// The outputs (the distances and, with --predecessors, the predecessors) are one list
// (result_outputs.hpp). The stages before the matrix exists are RunSetup's (run_setup.hpp).
#pragma once

#include <Kokkos_Core.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "apsp/backends/backend_runtime.hpp"
#include "apsp/paths/edge_rows.hpp"
#include "apsp/paths/predecessor_search.hpp"
#include "apsp/pipeline/pipeline.hpp"
#include "apsp/report/round_rates.hpp"
#include "apsp/solver/blocked_fw.hpp"
#include "apsp/solver/build_from_edges.hpp"
#include "apsp/solver/distance_matrix.hpp"
#include "apsp/solver/file_numbering.hpp"
#include "background_task.hpp"
#include "processes.hpp"
#include "report_figures.hpp"
#include "run_setup.hpp"
#include "stage_clock.hpp"
#include "whole_graph_edges.hpp"

namespace apsp::Impl {

template <class ExecSpace, class Procs>
class RunStages : RunSetup<ExecSpace, Procs> {
  using Base = RunSetup<ExecSpace, Procs>;
  using Runtime = BackendRuntime<ExecSpace>;
  using Matrix = DistanceMatrix<ExecSpace>;
  using Base::opt_, Base::procs_, Base::paths_, Base::rep_, Base::t_start_, Base::host_threads_, Base::first_row_,
      Base::matrix_rows_, Base::held_rows_, Base::region_, Base::graph_, Base::order_, Base::labels_, Base::outputs_,
      Base::check_;

 public:
  RunStages(const RunOptions& opt, Procs& procs) : Base(opt, procs) {}

  RunReport run() {
    this->describe();
    this->refuse_outputs();  // everything that can be refused without reading the graph
    this->read_graph();      // and the memory check
    this->open_outputs();
    this->start_check();
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
  /// This process's rows of the distance matrix, built from the edges where it solves; with
  /// --predecessors, also the edges of those rows, read off the matrix before the solve
  /// (paths/edge_rows.hpp), and the predecessor rows.
  void build() {
    const auto t0 = Clock::now();
    region_.emplace("apsp::build");
    procs_.collectively([&] {
      d_.emplace(rep_.vertices, rep_.block, first_row_, matrix_rows_, "apsp::distance_matrix",
                 opt_.memory ? opt_.memory->distance_entries : 0);
      {
        const auto pinned = pin_cached_edges<ExecSpace>(*graph_);
        if (order_.applied()) labels_ = copied_to<ExecSpace>(order_.label, "apsp::vertex_labels");
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
    const bool stay_narrowed = may_stay_narrowed();
    const SolveSeconds s = solver_->solve(opt_.phase_times, after_round, stay_narrowed);
    d_->narrowed16 = stay_narrowed && s.matrix16_from > 0;
    rep_.rounds = round_rates(ends, rep_.vertices, rep_.block);
    if (paths_) find_paths();
    procs_.barrier();
    rep_.seconds.solve = procs_.slowest(seconds_since(t0));
    record_solve(rep_, s, procs_, opt_.phase_times);
  }

  /// Whether the solve may leave its matrix in 16 bits: nothing reads it before the output, and
  /// the output widens it itself (into float64, one pass instead of two).
  bool may_stay_narrowed() const {
    return !paths_ && !order_.applied() && !check_ && opt_.perturb_row < 0 && outputs_.distances_take_rows16();
  }

  /// The result in the file's numbering, where the solve took another (one matrix at a time).
  void restore_file_order() {
    if (!order_.applied()) return;
    const auto t0 = Clock::now();
    ScopedRegion r("apsp::file_order");
    procs_.restore_file_order(*d_, order_, labels_, "apsp::distance_matrix");
    if (pred_) procs_.restore_file_order(*pred_, order_, labels_, "apsp::predecessor_matrix");
    labels_ = {};
    rep_.seconds.file_order = procs_.slowest(seconds_since(t0));
  }

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
    if (order_.applied()) original = copied_to<ExecSpace>(order_.original, "apsp::vertex_labels");
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
      this->find_ceiling(true);
      rep_.ceiling.measured_after = true;
    }
    weigh_ceiling(rep_);
    return rep_;
  }

  // Made after RunSetup's members, gone before them.
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
