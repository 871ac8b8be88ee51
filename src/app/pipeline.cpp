// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/pipeline.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "apsp/blocked_fw.hpp"
#include "apsp/distance_matrix.hpp"
#include "apsp/graph_file.hpp"
#include "apsp/matrix_writer.hpp"

namespace apsp {

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::string gigabytes(int64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GB", bytes / 1e9);
  return buf;
}

template <class ExecSpace>
constexpr bool host_is_device() {
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
}

template <class ExecSpace>
void memory_needed_on(int64_t vertices, int block, int64_t& host_bytes, int64_t& device_bytes) {
  const int64_t matrix = matrix_bytes(vertices, block);
  if (host_is_device<ExecSpace>()) {
    host_bytes = matrix;
    device_bytes = 0;
  } else {
    host_bytes = matrix;  // pinned staging copy of the result
    device_bytes =
        matrix + 3 * int64_t(sizeof(int32_t)) * std::min<int64_t>(int64_t(1) << 24, vertices * (vertices - 1));
  }
}

template <class ExecSpace>
RunReport run_on(const RunOptions& opt, const std::function<void(const std::string&, double)>& stage) {
  using Traits = BackendTraits<ExecSpace>;
  const auto t_start = Clock::now();
  RunReport rep;
  rep.backend = ExecSpace::name();
  rep.concurrency = ExecSpace().concurrency();
  rep.block = opt.block_size > 0 ? opt.block_size : Traits::default_block;
  check_block_size<ExecSpace>(rep.block);
  OutputFile::check_writable(opt.output);

  // Read: header checks, then the edge list mapped (and read) into memory.
  auto t0 = Clock::now();
  GraphFile graph = GraphFile::open(opt.input);
  rep.vertices = graph.vertices();
  rep.edges = graph.edges();
  memory_needed_on<ExecSpace>(rep.vertices, rep.block, rep.host_bytes, rep.device_bytes);
  const int64_t available = opt.host_memory_limit > 0 ? opt.host_memory_limit : host_memory_available();
  if (rep.host_bytes > available)
    throw InputError(opt.input + ": V = " + std::to_string(rep.vertices) + " needs " + gigabytes(rep.host_bytes) +
                     " of host memory for the distance matrix (" +
                     std::to_string(padded_size(rep.vertices, rep.block)) + "^2 int32), but only " +
                     gigabytes(available) + " is available");
  rep.seconds.read = seconds_since(t0);
  if (stage) stage("read", rep.seconds.read);

  // Build the distance matrix from the edges where the solver runs.
  t0 = Clock::now();
  DistanceMatrix<ExecSpace> d(rep.vertices, rep.block);
  initialise_from_edges(d, graph);
  rep.seconds.build = seconds_since(t0);
  if (stage) stage("build", rep.seconds.build);

  t0 = Clock::now();
  BlockedFloydWarshall<ExecSpace>::solve(d);
  rep.seconds.solve = seconds_since(t0);
  if (stage) stage("solve", rep.seconds.solve);

  // The result on the host: the matrix itself, or a copy in the backend's staging space.
  t0 = Clock::now();
  Kokkos::View<int32_t*, typename Traits::HostStagingSpace> host;
  if constexpr (host_is_device<ExecSpace>()) {
    host = d.data;
  } else {
    host = decltype(host)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::result_host"), d.data.extent(0));
    Kokkos::deep_copy(host, d.data);
    rep.seconds.copy_back = seconds_since(t0);
    if (stage) stage("copy back", rep.seconds.copy_back);
  }

  t0 = Clock::now();
  rep.write_threads = opt.write_threads > 0 ? opt.write_threads
                                            : static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 8u));
  OutputFile out(opt.output);
  out.write_rows(host.data(), rep.vertices, rep.vertices, d.n, rep.write_threads);
  out.commit();
  rep.seconds.write = seconds_since(t0);
  if (stage) stage("write", rep.seconds.write);
  rep.seconds.total = seconds_since(t_start);
  return rep;
}

template <class E>
struct SpaceTag {
  using type = E;
};

// Calls f(SpaceTag<ExecSpace>{}) for the execution space named `backend`.
template <class F>
auto dispatch(const std::string& backend, F&& f) {
  const std::string name = backend.empty() ? Kokkos::DefaultExecutionSpace::name() : backend;
  auto is = [&](const char* n) {
    std::string a = name, b = n;
    std::transform(a.begin(), a.end(), a.begin(), ::tolower);
    std::transform(b.begin(), b.end(), b.begin(), ::tolower);
    return a == b;
  };
#if defined(KOKKOS_ENABLE_CUDA)
  if (is(Kokkos::Cuda::name())) return f(SpaceTag<Kokkos::Cuda>{});
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  if (is(Kokkos::OpenMP::name())) return f(SpaceTag<Kokkos::OpenMP>{});
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
  if (is(Kokkos::Serial::name())) return f(SpaceTag<Kokkos::Serial>{});
#endif
  std::string list;
  for (const auto& b : enabled_backends()) list += (list.empty() ? "" : ", ") + b;
  throw std::invalid_argument("backend '" + name + "' is not enabled in this build (enabled: " + list + ")");
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

void memory_needed(const std::string& backend, int64_t vertices, int block, int64_t& host_bytes,
                   int64_t& device_bytes) {
  dispatch(backend, [&](auto tag) {
    memory_needed_on<typename decltype(tag)::type>(vertices, block, host_bytes, device_bytes);
  });
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

RunReport run_pipeline(const RunOptions& options, const std::function<void(const std::string&, double)>& stage) {
  return dispatch(options.backend, [&](auto tag) { return run_on<typename decltype(tag)::type>(options, stage); });
}

}  // namespace apsp
