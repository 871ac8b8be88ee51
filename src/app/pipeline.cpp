// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/pipeline.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

#include "apsp/blocked_fw.hpp"
#include "apsp/distance_matrix.hpp"
#include "apsp/graph_file.hpp"
#include "apsp/matrix_writer.hpp"
#include "apsp/verify.hpp"
#include "pipeline_support.hpp"

namespace apsp {

namespace {

using namespace Impl;

template <class ExecSpace>
void memory_needed_on(int64_t vertices, int64_t edges, int block, int64_t chunk_bytes, int64_t& host_bytes,
                      int64_t& device_bytes) {
  const int64_t matrix = matrix_bytes(vertices, block);
  if (host_is_device<ExecSpace>()) {
    host_bytes = matrix;
    device_bytes = 0;
  } else {
    host_bytes = result_chunk_bytes(vertices, block, chunk_bytes);
    device_bytes = matrix + 3 * int64_t(sizeof(int32_t)) * std::min<int64_t>(kEdgeChunk, edges);
  }
}

template <class ExecSpace>
RunReport run_on(const RunOptions& opt) {
  using Traits = BackendTraits<ExecSpace>;
  const auto t_start = Clock::now();
  RunReport rep;
  rep.backend = ExecSpace::name();
  rep.concurrency = ExecSpace().concurrency();
  rep.block = opt.block_size > 0 ? opt.block_size : Traits::default_block;
  BlockedFloydWarshall<ExecSpace>::check_block_size(rep.block);
  OutputFile::check_writable(opt.output);

  // Read: header checks, then the edge list mapped (and read) into memory.
  auto t0 = Clock::now();
  std::optional<ScopedRegion> region(std::in_place, "apsp::read");
  GraphFile graph = GraphFile::open(opt.input);
  rep.vertices = graph.vertices();
  rep.edges = graph.edges();
  memory_needed_on<ExecSpace>(rep.vertices, rep.edges, rep.block, opt.result_chunk_bytes, rep.host_bytes,
                              rep.device_bytes);
  const int64_t available = opt.host_memory_limit > 0 ? opt.host_memory_limit : host_memory_available();
  if (rep.host_bytes > available)
    throw InputError(opt.input + ": V = " + std::to_string(rep.vertices) + " needs " + gigabytes(rep.host_bytes) +
                     " of host memory (" +
                     (host_is_device<ExecSpace>()
                          ? std::to_string(padded_size(rep.vertices, rep.block)) + "^2 int32 distance matrix"
                          : std::string("pinned result buffers")) +
                     "), but only " + gigabytes(available) + " is available");
  if (rep.device_bytes > 0) {
    const int64_t free_bytes = Traits::device_memory_available();
    if (rep.device_bytes > free_bytes)
      throw InputError(opt.input + ": V = " + std::to_string(rep.vertices) + " needs " + gigabytes(rep.device_bytes) +
                       " of " + rep.backend + " device memory (" +
                       std::to_string(padded_size(rep.vertices, rep.block)) +
                       "^2 int32 distance matrix and edge staging), but only " + gigabytes(free_bytes) + " is free");
  }
  rep.seconds.read = seconds_since(t0);

  // The temporary output file exists from here on (removed again on any failure), so that an
  // output path that cannot be written fails before any work or any banner.
  OutputFile out(opt.output);

  // Build the distance matrix from the edges where the solver runs.
  t0 = Clock::now();
  region.emplace("apsp::build");
  DistanceMatrix<ExecSpace> d(rep.vertices, rep.block);
  initialise_from_edges(d, graph);
  region.reset();
  rep.seconds.build = seconds_since(t0);
  rep.device = Traits::device_name();
  if (opt.on_start) opt.on_start(rep);

  rep.write_threads = default_write_threads(opt.write_threads);
  const int64_t out_bytes = rep.vertices * rep.vertices * int64_t(sizeof(int32_t));
  // The output's blocks do not depend on the result: a device backend allocates them while
  // the device computes.
  // When the file lives in memory (tmpfs), its pages are also pinned, so that the device
  // copies the result straight into the file instead of through a staging buffer and a
  // second copy by the host (6.4 GB at V = 40000: docs/results.md).
  char* direct = nullptr;
  struct Unpin {  // on every way out, after `reserve` has joined (declared before it)
    char*& memory;
    ~Unpin() {
      if (memory != nullptr) Traits::unpin_host_memory(memory);
    }
  } unpin{direct};
  std::optional<BackgroundTask> reserve;
  if (!host_is_device<ExecSpace>())
    reserve.emplace([&] {
      out.reserve(out_bytes);
      if (char* mem = out.memory(); mem != nullptr && Traits::pin_host_memory(mem, size_t(out_bytes))) direct = mem;
    });

  t0 = Clock::now();
  {
    ScopedRegion region("apsp::solve");
    using Solver = BlockedFloydWarshall<ExecSpace>;
    typename Solver::PhaseSeconds phases;
    double reported = 0;
    Solver::solve(d, opt.phase_times ? &phases : nullptr, [&](int done, int rounds) {
      if (!opt.on_progress) return;
      if (done < rounds && seconds_since(t0) - reported < opt.progress_interval) return;
      ExecSpace().fence();  // kernels run behind their launches: wait to know what is done
      reported = seconds_since(t0);
      opt.on_progress(done, rounds, reported);
    });
    rep.phases_timed = opt.phase_times;
    for (int i = 0; i < 3; ++i) rep.phase_seconds[i] = phases.phase[i];
  }
  rep.seconds.solve = seconds_since(t0);

  if (opt.perturb_row >= 0) perturb_entry(d, opt.perturb_row, opt.perturb_col);

  if (opt.verify_rows >= 0) {
    ScopedRegion region("apsp::verify");
    t0 = Clock::now();
    rep.verify = verify_rows(
        graph, verify_sources(rep.vertices, opt.verify_rows), [&](int64_t s) { return result_row(d, s); },
        static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
    rep.verified = true;
    rep.seconds.verify = seconds_since(t0);
    if (!rep.verify.passed) {  // a wrong answer is not written as if it were a result
      rep.seconds.total = seconds_since(t_start);
      return rep;
    }
  }

  region.emplace("apsp::write");
  t0 = Clock::now();
  if constexpr (host_is_device<ExecSpace>()) {
    out.reserve(out_bytes);
    out.write_rows(d.data.data(), 0, rep.vertices, rep.vertices, d.n, rep.write_threads);
  } else {
    reserve->wait();
    if (direct != nullptr) {  // straight into the pinned file
      const auto tc = Clock::now();
      const size_t row_bytes = size_t(rep.vertices) * sizeof(int32_t);
      ExecSpace exec;
      Traits::copy_rows_to_host(exec, direct, row_bytes, d.data.data(), size_t(d.n) * sizeof(int32_t), row_bytes,
                                size_t(rep.vertices));
      exec.fence();
      rep.seconds.copy_back = seconds_since(tc);
      Traits::unpin_host_memory(std::exchange(direct, nullptr));
    } else {
      rep.seconds.copy_back = copy_back_in_chunks(
          d, opt.result_chunk_bytes, [&](const int32_t* rows, int64_t first, int64_t count, int64_t ld) {
            out.write_rows(rows, first, count, rep.vertices, ld, rep.write_threads);
          });
    }
  }
  out.commit();
  rep.written = true;
  rep.seconds.write = seconds_since(t0) - rep.seconds.copy_back;
  rep.seconds.total = seconds_since(t_start);
  return rep;
}

}  // namespace

std::vector<std::string> enabled_backends() {
  std::vector<std::string> names{Kokkos::DefaultExecutionSpace::name()};
  auto add = [&](const char* n) {
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  };
#if defined(KOKKOS_ENABLE_CUDA)
  add(Kokkos::Cuda::name());
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  add(Kokkos::OpenMP::name());
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
  add(Kokkos::Serial::name());
#endif
  return names;
}

int visible_gpus() {
#if defined(KOKKOS_ENABLE_CUDA)
  return BackendTraits<Kokkos::Cuda>::visible_devices();
#else
  return 0;
#endif
}

int64_t host_memory_available() {
  int64_t avail = INT64_MAX;
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  int64_t kb;
  std::string unit;
  while (meminfo >> key >> kb >> unit)
    if (key == "MemAvailable:") avail = kb * 1024;
  // A cgroup v2 limit, when one is set, can be tighter than the machine's free memory.
  std::ifstream max_f("/sys/fs/cgroup/memory.max"), cur_f("/sys/fs/cgroup/memory.current");
  std::string max_s;
  int64_t cur = 0;
  if (max_f >> max_s && max_s != "max" && cur_f >> cur) avail = std::min<int64_t>(avail, std::stoll(max_s) - cur);
  return avail;
}

RunReport run_pipeline(const RunOptions& options) {
  return dispatch(options.backend, [&](auto tag) { return run_on<typename decltype(tag)::type>(options); });
}

}  // namespace apsp
