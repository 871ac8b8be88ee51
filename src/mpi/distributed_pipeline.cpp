// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/mpi/distributed_pipeline.hpp"

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "../app/pipeline_support.hpp"
#include "apsp/blocked_fw.hpp"
#include "apsp/distance_matrix.hpp"
#include "apsp/graph_file.hpp"
#include "apsp/matrix_writer.hpp"
#include "apsp/mpi/distributed_fw.hpp"
#include "apsp/mpi/shared_output.hpp"
#include "apsp/tile_row_partition.hpp"
#include "apsp/verify.hpp"
#include "collective.hpp"

namespace apsp::mpi {

namespace {

using namespace apsp::Impl;

// Every rank's device, as one line: identical names counted ("AMD EPYC 7B13 x4"), GPUs
// listed one by one (their names carry the device number).
std::string devices_of_all_ranks(MPI_Comm comm, const std::string& mine) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  int length = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<size_t>(size));
  MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm);
  std::vector<int> offsets(static_cast<size_t>(size), 0);
  for (int r = 1; r < size; ++r) offsets[size_t(r)] = offsets[size_t(r - 1)] + lengths[size_t(r - 1)];
  std::string all(static_cast<size_t>(offsets.back() + lengths.back()), ' ');
  MPI_Allgatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, comm);
  std::vector<std::pair<std::string, int>> counted;
  for (int r = 0; r < size; ++r) {
    const std::string name = all.substr(size_t(offsets[size_t(r)]), size_t(lengths[size_t(r)]));
    auto it = std::find_if(counted.begin(), counted.end(), [&](const auto& c) { return c.first == name; });
    if (it == counted.end())
      counted.emplace_back(name, 1);
    else
      ++it->second;
  }
  std::string text;
  for (const auto& [name, count] : counted)
    text += (text.empty() ? "" : ", ") + name + (count > 1 ? " x" + std::to_string(count) : "");
  return text;
}

double max_over_ranks(MPI_Comm comm, double x) {
  double m = x;
  MPI_Allreduce(&x, &m, 1, MPI_DOUBLE, MPI_MAX, comm);
  return m;
}

// The self-check where the rows live: each rank checks the sampled sources it holds; the
// first mismatch reported is that of the lowest rank that found one (rows ascend with ranks).
template <class ExecSpace>
VerifyReport verify_distributed(MPI_Comm comm, const DistanceMatrix<ExecSpace>& d, const GraphFile& graph,
                                int64_t requested) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<int64_t> mine;
  for (int64_t s : verify_sources(d.vertices, requested))
    if (s >= d.first_row && s < d.first_row + result_rows(d)) mine.push_back(s);
  const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  VerifyReport local = mine.empty() ? VerifyReport{}
                                    : verify_rows(
                                          graph, mine, [&](int64_t s) { return result_row(d, s); }, threads);
  VerifyReport all;
  MPI_Allreduce(&local.rows_checked, &all.rows_checked, 1, MPI_INT64_T, MPI_SUM, comm);
  int failing = local.passed ? size : rank, first = size;
  MPI_Allreduce(&failing, &first, 1, MPI_INT, MPI_MIN, comm);
  all.passed = first == size;
  if (!all.passed) {
    int length = static_cast<int>(local.first_mismatch.size());
    MPI_Bcast(&length, 1, MPI_INT, first, comm);
    all.first_mismatch = local.first_mismatch;
    all.first_mismatch.resize(static_cast<size_t>(length));
    MPI_Bcast(all.first_mismatch.data(), length, MPI_CHAR, first, comm);
  }
  all.seconds = max_over_ranks(comm, local.seconds);
  return all;
}

template <class ExecSpace>
RunReport run_distributed(const RunOptions& opt, const Runtime& rt) {
  using Traits = BackendTraits<ExecSpace>;
  using Solver = DistributedFloydWarshall<ExecSpace>;
  MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = rt.rank(), ranks = rt.size();
  const auto t_start = Clock::now();
  RunReport rep;
  rep.backend = ExecSpace::name();
  rep.concurrency = ExecSpace().concurrency();
  rep.block = opt.block_size > 0 ? opt.block_size : Traits::default_block;
  rep.ranks = ranks;
  rep.nodes = rt.nodes();
  collectively(comm, [&] {
    BlockedFloydWarshall<ExecSpace>::check_block_size(rep.block);
    OutputFile::check_writable(opt.output);
  });

  // Read: every rank maps the edge list (the page cache holds one copy per node) and checks it.
  auto t0 = Clock::now();
  std::optional<ScopedRegion> region(std::in_place, "apsp::read");
  std::optional<GraphFile> graph;
  collectively(comm, [&] { graph.emplace(GraphFile::open(opt.input)); });
  rep.vertices = graph->vertices();
  rep.edges = graph->edges();
  const int B = rep.block;
  const int64_t n = padded_size(rep.vertices, B);
  const TileRowPartition part{static_cast<int>(n / B), ranks};
  const int64_t first_row = int64_t(part.first(rank)) * B, rows = int64_t(part.count(rank)) * B;

  // Memory per rank: its rows, two pivot row blocks, and on a device backend the host buffers.
  constexpr bool on_device = !host_is_device<ExecSpace>();
  const bool direct = !on_device || cuda_aware();  // CUDA is the one device backend
  rep.message_path = direct ? (on_device ? "device buffers (CUDA-aware MPI)" : "host memory") : "pinned host staging";
  const int64_t pivot_rows = Solver::buffer_bytes(rep.vertices, B, true);
  const int64_t rows_bytes = matrix_bytes(rep.vertices, B, int64_t(part.count(0)) * B);  // rank 0 holds the most
  if (on_device) {
    rep.device_bytes =
        rows_bytes + pivot_rows + 3 * int64_t(sizeof(int32_t)) * std::min<int64_t>(kEdgeChunk, rep.edges);
    rep.host_bytes = result_chunk_bytes(rep.vertices, B, opt.result_chunk_bytes) +
                     (direct ? 0 : Solver::buffer_bytes(rep.vertices, B, false));
  } else {
    rep.host_bytes = rows_bytes + pivot_rows;
  }
  collectively(comm, [&] {
    // The ranks of a node share its memory.
    const int64_t node_bytes = rep.host_bytes * rt.local_size();
    const int64_t available = opt.host_memory_limit > 0 ? opt.host_memory_limit : host_memory_available();
    const std::string what = "V = " + std::to_string(rep.vertices) + " on " + std::to_string(ranks) + " ranks";
    if (node_bytes > available)
      throw InputError(opt.input + ": " + what + " needs " + gigabytes(rep.host_bytes) + " of host memory per rank (" +
                       std::to_string(rt.local_size()) + " ranks on this node: " + gigabytes(node_bytes) +
                       "), but only " + gigabytes(available) + " is available");
    if (rep.device_bytes > 0 && rep.device_bytes > Traits::device_memory_available())
      throw InputError(opt.input + ": " + what + " needs " + gigabytes(rep.device_bytes) + " of " + rep.backend +
                       " device memory per rank (" + std::to_string(rows) + " rows of the " + std::to_string(n) +
                       "^2 int32 matrix, pivot rows, edge staging), but only " +
                       gigabytes(Traits::device_memory_available()) + " is free");
  });
  rep.seconds.read = seconds_since(t0);

  // The temporary output exists from here on (removed again on any failure).
  const int64_t out_bytes = rep.vertices * rep.vertices * int64_t(sizeof(int32_t));
  // One node: ranks copy into a shared mapping, the node's writer threads split among them.
  const bool mapped = rt.nodes() == 1 && !opt.mpi_io;
  rep.write_threads = !mapped                 ? 1
                      : opt.write_threads > 0 ? opt.write_threads
                                              : std::max(1, default_write_threads(0) / rt.local_size());
  SharedOutputFile out(comm, opt.output, out_bytes, mapped, rep.write_threads);

  // Build this rank's rows where it solves.
  t0 = Clock::now();
  region.emplace("apsp::build");
  std::optional<DistanceMatrix<ExecSpace>> d;
  std::optional<Solver> solver;
  collectively(comm, [&] {
    d.emplace(rep.vertices, B, first_row, rows);
    initialise_from_edges(*d, *graph);
    solver.emplace(comm, *d, part, direct);
  });
  region.reset();
  rep.seconds.build = max_over_ranks(comm, seconds_since(t0));
  rep.device = devices_of_all_ranks(comm, Traits::device_name());
  if (opt.on_start) opt.on_start(rep);

  // The output's blocks do not depend on the result: a device backend allocates its rows'
  // part of the file while the device computes (the thread makes no MPI calls).
  std::optional<BackgroundTask> reserve;
  if (on_device) reserve.emplace([&] { out.reserve_rows(d->first_row, result_rows(*d), rep.vertices); });

  MPI_Barrier(comm);  // the solve starts together on every rank
  t0 = Clock::now();
  {
    ScopedRegion r("apsp::solve");
    typename Solver::Seconds s;
    double reported = 0;
    solver->solve(s, opt.phase_times, [&](int done, int rounds) {
      if (!opt.on_progress) return;
      if (done < rounds && seconds_since(t0) - reported < opt.progress_interval) return;
      ExecSpace().fence();
      reported = seconds_since(t0);
      opt.on_progress(done, rounds, reported);
    });
    MPI_Barrier(comm);
    // The slowest rank's, like every other figure: ranks leave the first barrier at slightly
    // different times, and one rank's time blocked in MPI may exceed another's solve.
    rep.seconds.solve = max_over_ranks(comm, seconds_since(t0));
    rep.phases_timed = opt.phase_times;
    for (int i = 0; i < 3; ++i) rep.phase_seconds[i] = max_over_ranks(comm, s.phase[i]);
    rep.seconds.mpi = max_over_ranks(comm, s.mpi);
    rep.seconds.staging = max_over_ranks(comm, s.staging);
  }
  solver.reset();

  if (opt.perturb_row >= 0) collectively(comm, [&] { perturb_entry(*d, opt.perturb_row, opt.perturb_col); });

  if (opt.verify_rows >= 0) {
    ScopedRegion r("apsp::verify");
    t0 = Clock::now();
    collectively(comm, [&] { rep.verify = verify_distributed(comm, *d, *graph, opt.verify_rows); });
    rep.verified = true;
    rep.seconds.verify = rep.verify.seconds;
    if (!rep.verify.passed) {  // a wrong answer is not written as if it were a result
      rep.seconds.total = max_over_ranks(comm, seconds_since(t_start));
      return rep;
    }
  }

  // Write: every rank its own rows, at their place in the one file.
  region.emplace("apsp::write");
  t0 = Clock::now();
  double copy_wait = 0;
  collectively(comm, [&] {
    const int64_t v = rep.vertices;
    if constexpr (on_device) {
      reserve->wait();
      copy_wait = copy_back_in_chunks(*d, opt.result_chunk_bytes,
                                      [&](const int32_t* data, int64_t first, int64_t count, int64_t ld) {
                                        out.write_rows(data, first, count, v, ld);
                                      });
    } else {
      out.reserve_rows(d->first_row, result_rows(*d), v);
      out.write_rows(d->data.data(), d->first_row, result_rows(*d), v, d->n);
    }
  });
  out.commit();
  rep.written = true;
  rep.seconds.copy_back = max_over_ranks(comm, copy_wait);
  rep.seconds.write = max_over_ranks(comm, seconds_since(t0)) - rep.seconds.copy_back;
  rep.seconds.total = max_over_ranks(comm, seconds_since(t_start));
  return rep;
}

}  // namespace

RunReport run_distributed_pipeline(const RunOptions& options, const Runtime& runtime) {
  // A backend this build lacks fails on every rank alike, before anything else.
  collectively(MPI_COMM_WORLD, [&] { dispatch(options.backend, [](auto) { return 0; }); });
  return dispatch(options.backend,
                  [&](auto tag) { return run_distributed<typename decltype(tag)::type>(options, runtime); });
}

}  // namespace apsp::mpi
