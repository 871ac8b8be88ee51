// SPDX-License-Identifier: BSD-3-Clause
// The self-check of the rows a process holds (run_stages.hpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "apsp/check/verify.hpp"
#include "apsp/io/graph_file.hpp"
#include "apsp/solver/distance_matrix.hpp"
#include "background_task.hpp"
#include "result_rows.hpp"

namespace apsp::Impl {

/// The self-check where the rows live: each process checks the sampled sources it holds.
/// Their reference rows (Dijkstra) need only the graph, so where a device solves they are
/// computed on host threads beside the build and the solve (`start`), and only the comparison
/// follows the solve.
template <class ExecSpace>
class HeldRowsCheck {
 public:
  HeldRowsCheck(const GraphFile& graph, int64_t first_row, int64_t rows, int64_t requested) : graph_(graph) {
    for (int64_t s : verify_sources(graph.vertices(), requested))
      if (s >= first_row && s < first_row + rows) sources_.push_back(s);
  }
  /// Starts the reference rows on `threads` threads of their own (with `paths`, the tie rule's
  /// predecessors too), from the edges the graph holds in memory now (shared with it). A run
  /// that fails before the comparison stops them.
  void start(int threads, bool paths) {
    task_.emplace([this, how = ReferenceOptions{threads, paths, graph_.share_cache(), nullptr}](
                      const std::atomic<bool>& stop) mutable {
      how.stop = &stop;
      reference_ = reference_rows(graph_, sources_, std::move(how));
    });
  }
  /// The verdict of this process's rows of `d` and, where given, of `pred` (the reference rows
  /// computed here on `threads` threads when they were not started beside the solve).
  VerifyReport compare(const DistanceMatrix<ExecSpace>& d, const DistanceMatrix<ExecSpace>* pred, int threads) {
    if (task_)
      task_->wait();
    else
      reference_ =
          reference_rows(graph_, sources_, ReferenceOptions{threads, pred != nullptr, graph_.share_cache(), nullptr});
    const RowOf pred_row = pred ? RowOf([&](int64_t s) { return result_row(*pred, s); }) : RowOf();
    return compare_rows(
        reference_, [&](int64_t s) { return result_row(d, s); }, pred_row);
  }

 private:
  const GraphFile& graph_;
  std::vector<int64_t> sources_;
  ReferenceRows reference_;
  std::optional<BackgroundTask> task_;  // last: joined first
};

}  // namespace apsp::Impl
