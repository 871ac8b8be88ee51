// SPDX-License-Identifier: BSD-3-Clause
// Results that stay in memory instead of going to files: the Python module (python/) hands the
// pipeline arrays it owns, and each output's rows are written into one as they would be into a
// file (ResultFile), converted on the way where the caller's convention differs from the file's;
// or it keeps the solver's own matrix (kept_rows).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "apsp/io/output_file.hpp"

namespace apsp {

/// Where a run's results go when they stay in memory: a ResultFile per output, made for V
/// vertices. `predecessors` empty: none asked.
struct MemoryResults {
  using Make = std::function<std::unique_ptr<ResultFile>(int64_t vertices)>;
  Make distances, predecessors;
  /// Int32 entries the distance matrix's host memory holds at least (kept_float64_rows: room to
  /// widen the result in place); 0: its own size.
  int64_t distance_entries = 0;
};

/// Where a kept output goes (kept_rows, kept_float64_rows): the V x V matrix of T, row r at
/// data + r * ld, owned with `data`. On a host backend the solver's own matrix (int32: ld its
/// padded edge; float64: widened in place, ld = V), else memory of its own (ld = V).
template <class T>
struct Kept {
  std::shared_ptr<T[]> data;
  int64_t ld = 0;
};
using KeptMatrix = Kept<int32_t>;
using KeptFloat64 = Kept<double>;

/// An output kept as an int32 matrix that the caller takes over (the Python package's `solve`):
/// the solver's matrix itself where it lies in host memory (ResultFile::take_rows: no copy),
/// else a copy in memory of its own (a device's result); -1 written as `none_as` either way.
/// `into` holds it once the run has written it.
std::unique_ptr<ResultFile> kept_rows(std::shared_ptr<KeptMatrix> into, int64_t vertices, int32_t none_as = -1);

/// The distances kept as a float64 matrix that the caller takes over (the Python package's
/// `floyd_warshall`): INF as +infinity, each distance divided by `scale`. Where the solver's
/// matrix lies in host memory with room for it (MemoryResults::distance_entries = 2 V^2), it is
/// widened in place, so that the result costs no memory of its own; else a copy in memory of its
/// own (a device's result). `into` holds it once the run has written it.
std::unique_ptr<ResultFile> kept_float64_rows(std::shared_ptr<KeptFloat64> into, int64_t vertices, double scale = 1.0);

/// Rows of `cols` int32 into `dst` (row r from dst + r * ld), as the file holds them, but -1 (a
/// predecessor file's "no predecessor") written as `none_as`.
std::unique_ptr<ResultFile> int32_rows_into(int32_t* dst, int64_t ld, int64_t cols, int32_t none_as = -1);

/// The distances as float64 into `dst` (row r from dst + r * ld, `cols` columns): INF as
/// +infinity, every other distance divided by `scale` (the weights were multiplied by it).
std::unique_ptr<ResultFile> float64_rows_into(double* dst, int64_t ld, int64_t cols, double scale = 1.0);

}  // namespace apsp
