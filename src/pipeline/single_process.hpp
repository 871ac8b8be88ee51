// SPDX-License-Identifier: BSD-3-Clause
// The pipeline's policy for one process holding the whole matrix (processes.hpp): every
// agreement is trivial and inlines away, so the single-process run makes no MPI call and no
// extra copy.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "apsp/check/verify.hpp"
#include "apsp/core/cpus.hpp"
#include "apsp/graph/vertex_order.hpp"
#include "apsp/io/output_file.hpp"
#include "apsp/io/output_path.hpp"
#include "apsp/pipeline/run_report.hpp"
#include "apsp/solver/blocked_fw.hpp"
#include "apsp/solver/file_numbering.hpp"
#include "apsp/solver/lane_tally.hpp"
#include "apsp/solver/tile_row_partition.hpp"
#include "processes.hpp"

namespace apsp::Impl {

/// Parallel writers of one process's output: as asked, else one per CPU the process may use
/// (its affinity mask: `taskset -c 0` gives one), up to 8.
inline int default_write_threads(int requested) {
  return requested > 0 ? requested : static_cast<int>(std::clamp<size_t>(thread_cpus().size(), 1, 8));
}

class SingleProcess {
 public:
  static constexpr bool kMpi = false;
  int rank() const { return 0; }
  int ranks() const { return 1; }
  int nodes() const { return 1; }
  int ranks_on_node() const { return 1; }
  TileRowPartition partition(int tiles) const { return TileRowPartition{tiles, 1}; }
  template <class ExecSpace>
  void describe(RunReport& report) const {
    report.cpus = {cpu_list(thread_cpus())};
  }

  template <class Stage>
  void collectively(Stage&& stage) const {
    stage();
  }
  double slowest(double seconds) const { return seconds; }
  int64_t total(int64_t count) const { return count; }
  void barrier() const {}
  std::string devices(const std::string& mine) const { return mine; }
  VerifyReport combine(const VerifyReport& local) const { return local; }
  std::vector<int32_t> concatenate(std::vector<int32_t> mine) const { return mine; }
  template <class ExecSpace>
  bool renumbers_through_peers() const {
    return false;
  }
  /// The matrix `d`, solved under `order`'s numbering, gathered into a new one in the file's
  /// (`labels`: order's labels where the solver runs; solver/file_numbering.hpp).
  template <class ExecSpace, class Labels>
  void restore_file_order(DistanceMatrix<ExecSpace>& d, const VertexOrder& /*order*/, const Labels& labels,
                          const char* name) const {
    d = in_file_order(d, labels, name);
  }

  int write_threads(int requested) const { return default_write_threads(requested); }
  std::unique_ptr<ResultFile> open_output(const OutputTarget& target, int64_t cols, int threads) const {
    if (target.discard) return std::make_unique<DiscardedOutput>();
    return std::make_unique<OutputFile>(target.path, cols, threads);
  }

  template <class FW>
  SolverMemory solver_memory(int64_t vertices, int block) const {
    return {FW::buffer_bytes(vertices, block, padded_size(vertices, block) / block), 0};
  }
  /// Every round on the one device (FW: a BlockedFloydWarshall, with its look-ahead).
  template <class FW>
  class Solver {
   public:
    Solver(const SingleProcess& /*procs*/, const typename FW::Matrix& d) : d_(d) {}
    /// `may_stay_narrowed`: a matrix that took the 16-bit stage (matrix16_from > 0) may be left
    /// in 16 bits.
    template <class AfterRound>
    SolveSeconds solve(bool phase_times, AfterRound&& after_round, bool may_stay_narrowed = false) {
      typename FW::PhaseSeconds phases;
      SolveSeconds s;
      s.matrix16_from =
          FW::solve(d_, phase_times ? &phases : nullptr, after_round, lanes16_.slots(), may_stay_narrowed);
      for (int i = 0; i < 3; ++i) s.phase[i] = phases.phase[i];
      s.lanes16 = lanes16_.total();
      s.computed = lanes16_.computed();
      s.left_out = lanes16_.left_out();
      return s;
    }

   private:
    const typename FW::Matrix& d_;
    LaneTally<typename FW::Matrix::execution_space> lanes16_;
  };
};

}  // namespace apsp::Impl
