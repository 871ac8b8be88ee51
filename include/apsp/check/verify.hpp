// SPDX-License-Identifier: BSD-3-Clause
// The self-check: sampled rows of the result against single-source shortest paths computed by
// a different algorithm (Dijkstra on the graph's CSR form), on the host.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "apsp/io/graph_file.hpp"

namespace apsp {

struct VerifyReport {
  bool passed = true;
  int64_t rows_checked = 0;
  std::string first_mismatch;  ///< "d(i, j) = x, Dijkstra says y", empty when passed
  double seconds = 0;
};

/// The sources to check: every vertex when V <= 512 and `requested` is 0 or >= V; otherwise
/// `requested` (0: 8) rows, always including 0 and V - 1, the rest spread by a fixed seed.
std::vector<int64_t> verify_sources(int64_t vertices, int64_t requested);

/// Compares row `s` of the result, as returned by `row(s)` (V int32), with Dijkstra from s,
/// for every s in `sources`, using up to `threads` threads.
VerifyReport verify_rows(const GraphFile& graph, const std::vector<int64_t>& sources,
                         const std::function<std::vector<int32_t>(int64_t)>& row, int threads);

}  // namespace apsp
