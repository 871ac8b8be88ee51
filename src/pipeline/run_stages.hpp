// SPDX-License-Identifier: BSD-3-Clause
// The whole run, written once for one process and for the ranks of an MPI job: read and
// check, memory check, output reservation, build, solve, verify, copy back, write, commit.
// What differs between the two is a policy (processes.hpp): agreement on errors, reductions,
// the rows each process holds and the file it writes them into.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "apsp/check/verify.hpp"
#include "apsp/core/cpus.hpp"
#include "apsp/core/sizes.hpp"
#include "apsp/io/graph_file.hpp"
#include "apsp/io/output_file.hpp"
#include "apsp/io/output_path.hpp"
#include "apsp/paths/path_solve.hpp"
#include "apsp/pipeline/pipeline.hpp"
#include "apsp/solver/block_size.hpp"
#include "apsp/solver/blocked_fw.hpp"
#include "apsp/solver/build_from_edges.hpp"
#include "apsp/solver/distance_matrix.hpp"
#include "apsp/solver/tile_row_partition.hpp"
#include "backend_runtime.hpp"
#include "backend_traits.hpp"
#include "background_task.hpp"
#include "processes.hpp"
#include "ready_rows.hpp"
#include "result_rows.hpp"
#include "stage_clock.hpp"

namespace apsp::Impl {

/// Sizes the run for this process (the one that holds the most rows) and refuses it, naming
/// both figures, when the host or the device cannot hold it.
template <class ExecSpace, class Procs>
void check_memory(const RunOptions& opt, const Procs& procs, int64_t most_rows, int64_t local_edges, RunReport& rep) {
  constexpr bool on_device = !host_is_device<ExecSpace>();
  const int64_t v = rep.vertices, n = padded_size(v, rep.block);
  const bool paths = !opt.predecessors.empty();
  // With --predecessors: the distance rows, their keys (8 bytes an entry) and the predecessor
  // rows, all three at once when the keys are split.
  const int64_t rows = matrix_bytes(v, rep.block, most_rows, paths ? 16 : 4);
  const SolverMemory extra = paths ? procs.template solver_memory<PathFloydWarshall<ExecSpace>>(v, rep.block)
                                   : procs.template solver_memory<BlockedFloydWarshall<ExecSpace>>(v, rep.block);
  if (on_device) {
    rep.device_bytes = size_add(size_add(rows, extra.beside_matrix),
                                3 * int64_t(sizeof(int32_t)) * std::min<int64_t>(kEdgeChunk, rep.edges));
    rep.host_bytes = result_chunk_bytes(v, rep.block, opt.result_chunk_bytes) + extra.pinned_host;
  } else {
    rep.host_bytes = size_add(rows, extra.beside_matrix);
  }
  // A generated graph is held in memory (this process's rows of it), and the self-check
  // builds the graph's CSR form.
  if (opt.generate) rep.host_bytes = size_add(rep.host_bytes, size_mul(12, local_edges));
  if (opt.verify_rows >= 0)
    rep.host_bytes = size_add(rep.host_bytes, verify_memory_bytes(v, rep.edges, Procs::kMpi && opt.generate));
  const std::string what =
      "V = " + std::to_string(v) + (Procs::kMpi ? " on " + std::to_string(procs.ranks()) + " ranks" : "");
  const char* per = Procs::kMpi ? " per rank" : "";
  const std::string matrix =
      (Procs::kMpi ? std::to_string(most_rows) + " rows of the " + std::to_string(n) + "^2 int32 matrix, pivot rows"
                   : std::to_string(n) + "^2 int32 distance matrix") +
      (paths ? " with its path keys and predecessors" : "");
  procs.collectively([&] {
    // The ranks of a node share its memory.
    const int64_t node_bytes = size_mul(rep.host_bytes, procs.ranks_on_node());
    const int64_t available = opt.host_memory_limit > 0 ? opt.host_memory_limit : host_memory_available();
    if (node_bytes > available)
      throw InputError(opt.input + ": " + what + " needs " + format_bytes(rep.host_bytes) + " of host memory" + per +
                       " (" +
                       (procs.ranks_on_node() > 1
                            ? std::to_string(procs.ranks_on_node()) + " ranks on this node: " + format_bytes(node_bytes)
                        : on_device ? std::string("pinned result buffers")
                                    : matrix) +
                       "), but only " + format_bytes(available) + " is available");
    if (!on_device) return;
    const int64_t free_bytes = BackendRuntime<ExecSpace>::device_memory_available();
    if (rep.device_bytes > free_bytes)
      throw InputError(opt.input + ": " + what + " needs " + format_bytes(rep.device_bytes) + " of " + rep.backend +
                       " device memory" + per + " (" + matrix + ", edge staging), but only " +
                       format_bytes(free_bytes) + " is free");
  });
}

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

/// Writes the rows `d` holds: from the matrix itself on the host; from a device piece by piece
/// as the output's pieces become ready (`ready`), straight into a piece's pinned pages where it
/// has them, else in chunks through pinned buffers. Returns the seconds spent waiting for the
/// pieces and the device copies.
template <class ExecSpace>
double write_held_rows(const DistanceMatrix<ExecSpace>& d, ResultFile& out, ReadyRows<BackendRuntime<ExecSpace>>& ready,
                       int64_t chunk_bytes) {
  const int64_t rows = result_rows(d);
  if constexpr (host_is_device<ExecSpace>()) {
    out.reserve_rows(d.first_row, rows, {});
    out.write_rows(d.data.data(), d.first_row, rows, d.n);
    return 0;
  } else {
    const auto t0 = Clock::now();
    const size_t row_bytes = size_t(d.vertices) * sizeof(int32_t), pitch = size_t(d.n) * sizeof(int32_t);
    auto write = [&](const int32_t* data, int64_t first, int64_t count, int64_t ld) {
      out.write_rows(data, first, count, ld);
    };
    // A file on disk (or memory that could not be pinned): no piece takes the device's copies
    // directly, so once they are all prepared the rows go through one pair of pinned buffers.
    const auto first = rows > 0 ? ready.wait_for(d.first_row) : std::nullopt;
    if (first && first->pinned == nullptr) {
      ready.wait_finished();
      copy_back_in_chunks(d, chunk_bytes, write);
      return seconds_since(t0);
    }
    ExecSpace exec;
    for (int64_t at = 0; at < rows;) {
      const auto piece = ready.wait_for(d.first_row + at);
      if (!piece) throw std::runtime_error("the output's rows were not prepared");  // the preparation failed
      if (piece->pinned != nullptr)
        BackendRuntime<ExecSpace>::copy_rows_to_host(exec, piece->pinned, row_bytes, d.data.data() + at * d.n, pitch,
                                                     row_bytes, size_t(piece->rows));
      else  // a piece the system would not pin (rare): through buffers of its own
        copy_back_in_chunks(d, at, at + piece->rows, chunk_bytes, write);
      at += piece->rows;
    }
    exec.fence();
    return seconds_since(t0);
  }
}

template <class ExecSpace, class Procs>
RunReport run_stages(const RunOptions& opt, Procs& procs) {
  using Runtime = BackendRuntime<ExecSpace>;
  const auto t_entry = Clock::now();
  const auto t_start = opt.started == Clock::time_point{} ? t_entry : opt.started;
  RunReport rep;
  rep.backend = ExecSpace::name();
  rep.concurrency = ExecSpace().concurrency();
  rep.thread_binding = opt.thread_binding;
  rep.block = opt.block_size > 0         ? opt.block_size
              : opt.predecessors.empty() ? BackendTraits<ExecSpace>::default_block
                                         : Impl::PathTileOps<ExecSpace>::default_block;
  rep.no_output = opt.no_output;
  procs.collectively([&] { procs.template describe<ExecSpace>(rep); });  // may refuse --pivot-rows
  rep.seconds.startup = procs.slowest(std::chrono::duration<double>(t_entry - t_start).count());
  // Everything that can be refused without reading the graph is refused first: the block
  // size, and the files the run will write (never anything but a regular file or /dev/null).
  OutputTarget target, pred_target;
  const bool paths = !opt.predecessors.empty();
  procs.collectively([&] {
    if (paths)
      check_path_block_size<ExecSpace>(rep.block);
    else
      check_block_size<ExecSpace>(rep.block);
    if (opt.no_output)
      target.discard = true;
    else
      target = check_output_path(opt.output, "output", {opt.input});
    if (paths) {
      pred_target = check_output_path(opt.predecessors, "predecessor output", {opt.input, opt.output});
      if (!target.discard && !pred_target.discard && pred_target.path == target.path)
        throw InputError(opt.predecessors + ": the predecessor output is the distance output");
      if (!opt.record_path.empty() && !pred_target.discard &&
          (opt.record_path == opt.predecessors || same_file(opt.record_path, opt.predecessors)))
        throw InputError(opt.record_path + ": the JSON record would overwrite the predecessor output");
    }
    if (!opt.record_path.empty()) check_record_path(opt.record_path, opt.output, target.discard, opt.input);
  });

  // Read: header checks, then the edge list mapped (and read) into memory; every process
  // checks it (the page cache holds one copy per node) and keeps the edges of its rows.
  // A generated graph (--generate) is made instead, each process the edges out of its rows.
  auto t0 = Clock::now();
  std::optional<ScopedRegion> region(std::in_place, "apsp::read");
  std::optional<GraphFile> graph;
  const int B = rep.block;
  const auto partition_of = [&](int64_t vertices) {
    return procs.partition(static_cast<int>(padded_size(vertices, B) / B));
  };
  const int host_threads = static_cast<int>(std::max<size_t>(1, thread_cpus().size()));
  procs.collectively([&] {
    if (opt.generate) {
      const TileRowPartition p = partition_of(opt.generate->vertices);
      const int r = procs.rank();
      graph.emplace(GraphFile::generate(*opt.generate, int64_t(p.first(r)) * B, int64_t(p.first(r) + p.count(r)) * B,
                                        host_threads));
    } else {
      graph.emplace(opt.open_input ? opt.open_input() : GraphFile::open(opt.input));
    }
  });
  rep.vertices = graph->vertices();
  const std::string graph_name = opt.input.empty() ? "generated graph" : opt.input;
  if (paths)  // the vertex limit of the keys, before any memory is sized (weights: after the build)
    procs.collectively([&] { PathKeys::of(rep.vertices, 0, graph_name); });
  // Each process made the edges of its own rows: every process takes part in the sum, also one
  // that holds all rows (fewer tile rows than processes) or none.
  rep.edges = opt.generate ? procs.total(graph->edges()) : graph->edges();
  rep.graph = opt.generate ? opt.generate->describe() : "file";
  const TileRowPartition part = partition_of(rep.vertices);
  check_memory<ExecSpace>(opt, procs, int64_t(part.count(0)) * B, graph->edges(), rep);  // the first holds the most
  rep.seconds.read = procs.slowest(seconds_since(t0));

  // The temporary output file exists from here on (removed again on any failure), so that an
  // output path that cannot be written fails before any work or any banner.
  rep.write_threads = procs.write_threads(opt.write_threads);
  const std::unique_ptr<ResultFile> out = procs.open_output(target, rep.vertices, rep.write_threads);
  const std::unique_ptr<ResultFile> pred_out =
      paths ? procs.open_output(pred_target, rep.vertices, rep.write_threads) : nullptr;

  // The matrix rows this process holds, and of them the result's rows it writes.
  const int64_t first_row = int64_t(part.first(procs.rank())) * B, matrix_rows = int64_t(part.count(procs.rank())) * B;
  const int64_t held_rows = result_rows(rep.vertices, first_row, matrix_rows);

  // The self-check's reference rows: where a device solves, beside the build and the solve, from
  // the edges read ahead, on the host's CPUs but those that will prepare the output (4) and the
  // one driving the device.
  std::optional<HeldRowsCheck<ExecSpace>> check;
  if (opt.verify_rows >= 0) {
    check.emplace(*graph, first_row, held_rows, opt.verify_rows);
    if (!host_is_device<ExecSpace>()) check->start(std::max(1, host_threads - 5), paths);
  }

  // Build this process's rows of the distance matrix from the edges, where it solves.
  t0 = Clock::now();
  region.emplace("apsp::build");
  std::optional<DistanceMatrix<ExecSpace>> d, pred;
  std::optional<typename Procs::template Solver<BlockedFloydWarshall<ExecSpace>>> solver;
  // With --predecessors: the path keys of the rows held, solved in place of `d` and split
  // into `d` and `pred` after the solve (paths/path_solve.hpp).
  std::optional<PathKeyMatrix<ExecSpace>> keys;
  std::optional<typename Procs::template Solver<PathFloydWarshall<ExecSpace>>> path_solver;
  PathKeys codec;
  std::shared_ptr<int32_t[]> edges_read_ahead;
  procs.collectively([&] {
    d.emplace(rep.vertices, B, first_row, matrix_rows);
    {
      const auto pinned = pin_cached_edges<ExecSpace>(*graph);
      initialise_from_edges(*d, *graph);
    }
    // Where a device solves, the edges read ahead are freed once the solve is done, beside the
    // copy back, instead of before the solve (0.04 s for 960 MB on an H200 host); a host backend
    // frees them at once, its memory holding the matrix (and, with --predecessors, the keys
    // next). A check started beside the build holds its own share of them until its CSR is
    // built; one that starts later reads the file again.
    edges_read_ahead = graph->release_cache();
    if (host_is_device<ExecSpace>()) edges_read_ahead.reset();
    if (!paths) solver.emplace(procs, *d);
  });
  if (paths) {
    // The key widths follow the heaviest edge of the whole graph (every rank's rows): the
    // largest of the ranks' figures (an integer well inside a double's exact range).
    const auto heaviest = int32_t(procs.slowest(double(largest_weight(*d))));
    procs.collectively([&] {
      codec = PathKeys::of(rep.vertices, heaviest, graph_name);
      keys.emplace(rep.vertices, B, d->first_row, d->rows, "apsp::path_keys");
      to_keys(*d, *keys, codec);
      pred.emplace(rep.vertices, B, d->first_row, d->rows, "apsp::predecessor_matrix");
      path_solver.emplace(procs, *keys);
    });
  }
  region.reset();
  rep.seconds.build = procs.slowest(seconds_since(t0));
  rep.device = procs.devices(Runtime::device_name());
  if (opt.on_start) opt.on_start(rep);

  // The output's blocks do not depend on the result: a device backend allocates them and makes
  // their pages resident (several threads, piece by piece) while the device computes. When the
  // file lives in memory (tmpfs), each piece is also pinned, so that the device copies the
  // result straight into the file instead of through a staging buffer and a second copy by the
  // host (6.4 GB at V = 40000: docs/results-log.md); the copy starts on the first pieces ready. A
  // run that fails first (the check) stops it after the pieces under way. Started before the
  // build instead, it slowed the build and the solve (docs/results-log.md).
  ReadyRows<Runtime> ready, pred_ready;  // before `reserve`: outlive the thread that fills them
  std::optional<BackgroundTask> reserve;
  if (!host_is_device<ExecSpace>() && (!out->discards() || (pred_out && !pred_out->discards())))
    reserve.emplace([&](const std::atomic<bool>& stop) {
      struct Finish {
        ReadyRows<Runtime>& r;
        ~Finish() { r.finish(); }
      } finish{ready}, pred_finish{pred_ready};
      const auto prepare = [&](ResultFile& file, ReadyRows<Runtime>& into) {
        if (file.discards()) return;
        file.reserve_rows(first_row, held_rows, [&](int64_t first, int64_t rows, char* memory) {
          if (stop) throw std::runtime_error("the run ended before its output was prepared");
          return into.add(first, rows, memory, rep.vertices * int64_t(sizeof(int32_t)));
        });
      };
      prepare(*out, ready);
      if (pred_out) prepare(*pred_out, pred_ready);
    });

  procs.barrier();  // the solve starts together on every process
  t0 = Clock::now();
  {
    ScopedRegion r("apsp::solve");
    auto progress = ProgressThrottle<ExecSpace>(opt.on_progress, opt.progress_interval, t0);
    const SolveSeconds s =
        paths ? path_solver->solve(opt.phase_times, progress) : solver->solve(opt.phase_times, progress);
    if (paths) {
      split_keys(*keys, codec, *d, *pred);
      ExecSpace().fence();
    }
    procs.barrier();
    // The slowest process's, like every other figure: processes leave the first barrier at
    // slightly different times, and one's time blocked in MPI may exceed another's solve.
    rep.seconds.solve = procs.slowest(seconds_since(t0));
    rep.phases_timed = opt.phase_times;
    for (int i = 0; i < 3; ++i) rep.phase_seconds[i] = procs.slowest(s.phase[i]);
    rep.seconds.mpi = procs.slowest(s.mpi);
    rep.seconds.staging = procs.slowest(s.staging);
  }
  solver.reset();
  path_solver.reset();
  std::optional<BackgroundTask> free_edges;
  if (edges_read_ahead) free_edges.emplace([edges = std::move(edges_read_ahead)]() mutable { edges.reset(); });
  keys.reset();

  if (opt.perturb_row >= 0) procs.collectively([&] { perturb_entry(*d, opt.perturb_row, opt.perturb_col); });
  if (opt.perturb_predecessor_row >= 0 && pred)
    procs.collectively([&] { perturb_entry(*pred, opt.perturb_predecessor_row, opt.perturb_predecessor_col); });

  if (check) {
    ScopedRegion r("apsp::verify");
    t0 = Clock::now();
    procs.collectively([&] { rep.verify = procs.combine(check->compare(*d, pred ? &*pred : nullptr, host_threads)); });
    rep.verified = true;
    rep.seconds.verify = procs.slowest(seconds_since(t0));
    if (!rep.verify.passed) {  // a wrong answer is not written as if it were a result
      rep.seconds.total = procs.slowest(seconds_since(t_start));
      return rep;
    }
  }

  // Write: every process its own rows, at their place in the one file.
  region.emplace("apsp::write");
  t0 = Clock::now();
  double copy_wait = 0;
  procs.collectively([&] {
    try {
      if (!out->discards()) copy_wait = write_held_rows(*d, *out, ready, opt.result_chunk_bytes);
      if (pred_out && !pred_out->discards())
        copy_wait += write_held_rows(*pred, *pred_out, pred_ready, opt.result_chunk_bytes);
    } catch (...) {
      if (reserve) reserve->wait();  // the preparation's own error first, when it failed
      throw;
    }
    if (reserve) reserve->wait();
    ready.unpin_all();
    pred_ready.unpin_all();
  });
  out->commit();
  if (pred_out) pred_out->commit();
  rep.written = !out->discards();
  rep.discarded = out->discards();
  rep.seconds.copy_back = procs.slowest(copy_wait);
  rep.seconds.write = procs.slowest(seconds_since(t0)) - rep.seconds.copy_back;
  rep.seconds.total = procs.slowest(seconds_since(t_start));
  return rep;
}

}  // namespace apsp::Impl
