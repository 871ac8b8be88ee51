// SPDX-License-Identifier: BSD-3-Clause
// The self-check: sampled rows of the result against single-source shortest paths computed by
// a different algorithm (Dijkstra on the graph's CSR form), on the host. The reference rows need
// only the graph, so a device run computes them on otherwise idle host cores while the device
// solves (reference_rows), and only the comparison (compare_rows) follows the solve.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "apsp/io/graph_file.hpp"

namespace apsp {

struct VerifyReport {
  bool passed = true;
  int64_t rows_checked = 0;
  bool predecessors = false;   ///< the rows' predecessors were checked too (--predecessors)
  std::string first_mismatch;  ///< "d(i, j) = x, Dijkstra gives y", empty when passed
  double seconds = 0;
};

/// Rows checked when nothing is asked (--verify=8; --no-verify turns the check off).
inline constexpr int64_t kDefaultVerifyRows = 8;

/// The sources to check: every vertex when V <= 512 and `requested` is 0, or when `requested`
/// >= V; otherwise `requested` (0: 8) rows, always including 0 and V - 1, the rest spread by a
/// fixed seed.
std::vector<int64_t> verify_sources(int64_t vertices, int64_t requested);

/// The graph as the check holds it (its CSR form, each vertex's edges sorted), for the walk.
struct ReferenceGraph;

/// Dijkstra's distances from each of `sources` (V int32 each, INF where unreachable); with
/// `paths`, also the predecessors the tie rule picks (paths/predecessor_search.hpp: fewest edges, then
/// the smallest predecessor; -1 at the source and where unreachable), and the graph kept (its
/// edges sorted) to walk the result's predecessor chains against.
struct ReferenceRows {
  std::vector<int64_t> sources;
  std::vector<std::vector<int32_t>> rows;
  std::vector<std::vector<int32_t>> predecessors;  ///< with paths only
  std::shared_ptr<const ReferenceGraph> graph;     ///< with paths only
  double seconds = 0;                              ///< time it took to compute them
};

/// How reference_rows runs.
struct ReferenceOptions {
  int threads = 1;
  bool paths = false;  ///< the tie rule's predecessors too
  /// Edges already in memory (a share of the input's read-ahead), read from there as far as
  /// they go instead of from the file.
  GraphFile::SharedEdges in_memory;
  /// Set: end early (the rows are then incomplete, never to be compared).
  const std::atomic<bool>* stop = nullptr;
};

/// Computes the reference rows on up to `how.threads` threads: the graph's CSR form, built by
/// all of them, then one Dijkstra per source. Edges the input's rules refuse are left out (a
/// run that holds such an edge fails at its build, and a check started before the build must
/// still end). A generated graph that holds only some rows (an MPI rank's) is generated whole
/// again for it. The share of `how.in_memory` is dropped once the CSR is built.
ReferenceRows reference_rows(const GraphFile& graph, const std::vector<int64_t>& sources, ReferenceOptions how);

using RowOf = std::function<std::vector<int32_t>(int64_t)>;

/// Compares row `s` of the result, as returned by `row(s)` (V int32), with the reference row
/// for every source of `reference`; the report names the first mismatch. With `predecessors`
/// (the rows of the predecessor matrix; the reference computed with paths), it also walks
/// each row's predecessor chains (every hop an edge of the graph, the weights summing to the
/// distance, the chain ending at the source) and checks the tie rule.
VerifyReport compare_rows(const ReferenceRows& reference, const RowOf& row, const RowOf& predecessors = nullptr);

/// reference_rows then compare_rows.
VerifyReport verify_rows(const GraphFile& graph, const std::vector<int64_t>& sources,
                         const std::function<std::vector<int32_t>(int64_t)>& row, int threads);

/// Host bytes the check needs at most for a graph of `vertices` and `edges`: its CSR form, and
/// the whole graph generated again where a process holds only its rows (`regenerated`).
int64_t verify_memory_bytes(int64_t vertices, int64_t edges, bool regenerated);

}  // namespace apsp
