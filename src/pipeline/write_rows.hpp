// SPDX-License-Identifier: BSD-3-Clause
// Writing the rows a process holds into its output (run_stages.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>

#include "apsp/backends/backend_runtime.hpp"
#include "apsp/backends/backend_traits.hpp"
#include "apsp/io/output_file.hpp"
#include "apsp/solver/distance_matrix.hpp"
#include "apsp/solver/host/narrow16.hpp"
#include "ready_rows.hpp"
#include "result_rows.hpp"
#include "stage_clock.hpp"

namespace apsp::Impl {

/// Writes the rows `d` holds: on the host from the matrix itself, or the matrix itself where the
/// output takes it (an array in memory; in 16 bits where the solve left it so); from a device piece by piece
/// as the output's pieces become ready (`ready`), straight into a piece's pinned pages where it
/// has them, else in chunks through pinned buffers. Returns the seconds spent waiting for the
/// pieces and the device copies.
template <class ExecSpace>
double write_held_rows(const DistanceMatrix<ExecSpace>& d, ResultFile& out, ReadyRows<BackendRuntime<ExecSpace>>& ready,
                       int64_t chunk_bytes) {
  const int64_t rows = result_rows(d);
  if constexpr (host_is_device<ExecSpace>()) {
    // The matrix itself where the output takes it (no copy at all); else its rows, in int32.
    if (d.host_pages && out.take_rows(d.host_pages, d.first_row, rows, d.n, d.capacity, d.narrowed16)) return 0;
    if (d.narrowed16) Narrow16<ExecSpace>::widen(d.data.data(), d.n, d.vertices);
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

}  // namespace apsp::Impl
