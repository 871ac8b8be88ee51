// SPDX-License-Identifier: BSD-3-Clause
// The result rows a process holds, on the host: one row for the self-check, every row in
// chunks through pinned buffers for the write, and the test hook that corrupts one entry.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "apsp/backends/backend_runtime.hpp"
#include "apsp/solver/distance_matrix.hpp"
#include "stage_clock.hpp"

namespace apsp::Impl {

/// Of `rows` matrix rows from `first_row` on, those that are rows of the V x V result (not
/// padding).
inline int64_t result_rows(int64_t vertices, int64_t first_row, int64_t rows) {
  return std::clamp<int64_t>(vertices - first_row, 0, rows);
}
/// Rows of `d` that are rows of the V x V result.
template <class ExecSpace>
int64_t result_rows(const DistanceMatrix<ExecSpace>& d) {
  return result_rows(d.vertices, d.first_row, d.rows);
}

/// Test hook: changes entry (row, col) of the result, if `d` holds that row, so that the
/// self-check has something to catch.
template <class ExecSpace>
void perturb_entry(const DistanceMatrix<ExecSpace>& d, int64_t row, int64_t col) {
  if (row < 0 || row >= d.vertices || col < 0 || col >= d.vertices)
    throw std::invalid_argument("perturbed entry (" + std::to_string(row) + ", " + std::to_string(col) +
                                ") is outside the matrix");
  if (row < d.first_row || row >= d.first_row + d.rows) return;
  const size_t at = static_cast<size_t>((row - d.first_row) * d.n + col);
  auto one = Kokkos::subview(d.data, std::make_pair(at, at + 1));
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), one);
  host(0) = host(0) == 0 ? 1 : host(0) - 1;
  Kokkos::deep_copy(one, host);
}

/// Global row `s` of the result (V int32), which `d` holds.
template <class ExecSpace>
std::vector<int32_t> result_row(const DistanceMatrix<ExecSpace>& d, int64_t s) {
  std::vector<int32_t> row(static_cast<size_t>(d.vertices));
  Kokkos::View<int32_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host(row.data(), row.size());
  const size_t at = static_cast<size_t>((s - d.first_row) * d.n);
  Kokkos::deep_copy(host, Kokkos::subview(d.data, std::make_pair(at, at + size_t(d.vertices))));
  return row;
}

// Device backends bring the result back in chunks of about this many bytes, through two
// pinned buffers, so that one chunk's copy overlaps the previous chunk's write. The buffers are
// allocated for each run (each call of the Python package): on an H200 host two of 256 MiB took
// 0.24-0.33 s to allocate and 0.05-0.09 s to free, two of 32 MiB 0.024-0.033 s and 0.006-0.011 s,
// with copies into them at the same 48-52 GB/s (a stand-alone CUDA program).
inline constexpr int64_t kResultChunkBytes = int64_t(32) << 20;

inline int64_t result_chunk_rows(int64_t vertices, int block, int64_t chunk_bytes) {
  const int64_t n = padded_size(vertices, block);
  if (chunk_bytes <= 0) chunk_bytes = kResultChunkBytes;
  return std::max<int64_t>(1, std::min<int64_t>(vertices, chunk_bytes / (n * int64_t(sizeof(int32_t)))));
}

/// Pinned host memory the chunked copy-back needs.
inline int64_t result_chunk_bytes(int64_t vertices, int block, int64_t chunk_bytes) {
  return 2 * result_chunk_rows(vertices, block, chunk_bytes) * padded_size(vertices, block) * int64_t(sizeof(int32_t));
}

/// Copies the result rows `d` holds back to the host in row chunks through two pinned
/// buffers, handing chunk c to `write(data, first_global_row, rows, ld)` while chunk c + 1 is
/// in flight: the held rows [begin, end) (local indices). Returns the seconds spent waiting
/// for copies.
template <class ExecSpace, class Write>
double copy_back_in_chunks(const DistanceMatrix<ExecSpace>& d, int64_t begin, int64_t end, int64_t chunk_bytes,
                           Write&& write) {
  using Staging = Kokkos::View<int32_t*, typename BackendRuntime<ExecSpace>::HostStagingSpace>;
  const int64_t n = d.n, v = end, chunk = result_chunk_rows(d.vertices, d.block, chunk_bytes);
  if (v <= begin) return 0;
  Staging buf[2] = {
      Staging(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::result_chunk_0"), size_t(chunk * n)),
      Staging(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::result_chunk_1"), size_t(chunk * n))};
  ExecSpace exec;
  auto start_copy = [&](int64_t r0, Staging& dst) {
    const int64_t r1 = std::min(v, r0 + chunk);
    Kokkos::deep_copy(exec, Kokkos::subview(dst, std::make_pair<size_t, size_t>(0, size_t((r1 - r0) * n))),
                      Kokkos::subview(d.data, std::make_pair(size_t(r0 * n), size_t(r1 * n))));
  };
  double waited = 0;
  start_copy(begin, buf[0]);
  for (int64_t r0 = begin, c = 0; r0 < v; r0 += chunk, ++c) {
    const auto t0 = Clock::now();
    exec.fence();
    waited += seconds_since(t0);
    if (r0 + chunk < v) start_copy(r0 + chunk, buf[(c + 1) % 2]);
    write(buf[c % 2].data(), d.first_row + r0, std::min(chunk, v - r0), n);
  }
  return waited;
}

/// The same for every row `d` holds.
template <class ExecSpace, class Write>
double copy_back_in_chunks(const DistanceMatrix<ExecSpace>& d, int64_t chunk_bytes, Write&& write) {
  return copy_back_in_chunks(d, 0, result_rows(d), chunk_bytes, write);
}

}  // namespace apsp::Impl
