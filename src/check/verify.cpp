// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/check/verify.hpp"
#include "apsp/core/helper_thread.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <queue>
#include <random>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "apsp/core/constants.hpp"
#include "check_graph.hpp"
#include "path_check.hpp"

namespace apsp {

namespace {

using check::column;
using check::Csr;
using check::row_begin;
using check::rows;
using check::weight;

// Dijkstra from `source` on (distance, edges) in lexicographic order, packed into one int64
// (distance << kHopBits | edges: distances stay below 2^31, a path has fewer than 2^21 edges
// for any V whose matrix could be held), so that the heap compares one integer as for
// distances alone. With `predecessors`, then the tie rule's predecessor of each vertex: the
// smallest u with an edge u -> t on which both are tight (-1 at the source and where unreachable).
struct PathRow {
  std::vector<int32_t> distance, predecessor;
};
PathRow dijkstra(const Csr& csr, int64_t source, bool predecessors) {
  constexpr int kHopBits = 21;
  const int64_t v = rows(csr);
  std::vector<int64_t> cost(size_t(v), INT64_MAX);
  using Item = std::pair<int64_t, int32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
  const auto step = [&](int64_t i) { return (int64_t(weight(csr, i)) << kHopBits) + 1; };
  cost[size_t(source)] = 0;
  heap.push({0, int32_t(source)});
  while (!heap.empty()) {
    const auto [cu, u] = heap.top();
    heap.pop();
    if (cu != cost[size_t(u)]) continue;
    for (int64_t i = row_begin(csr, u); i < row_begin(csr, u + 1); ++i) {
      const int32_t t = column(csr, i);
      const int64_t c = cu + step(i);
      if (c < cost[size_t(t)]) {
        cost[size_t(t)] = c;
        heap.push({c, t});
      }
    }
  }
  PathRow out{std::vector<int32_t>(size_t(v), kInf), {}};
  for (int64_t t = 0; t < v; ++t)
    if (cost[size_t(t)] != INT64_MAX) out.distance[size_t(t)] = int32_t(cost[size_t(t)] >> kHopBits);
  if (!predecessors) return out;
  out.predecessor.assign(size_t(v), -1);
  for (int64_t u = 0; u < v; ++u) {
    if (cost[size_t(u)] == INT64_MAX) continue;
    for (int64_t i = row_begin(csr, u); i < row_begin(csr, u + 1); ++i) {
      const int32_t t = column(csr, i);
      int32_t& p = out.predecessor[size_t(t)];
      if (t != source && cost[size_t(u)] + step(i) == cost[size_t(t)] && (p < 0 || u < p)) p = int32_t(u);
    }
  }
  return out;
}

}  // namespace

struct ReferenceGraph {
  Csr csr;
};

std::vector<int64_t> verify_sources(int64_t vertices, int64_t requested) {
  if (requested <= 0) requested = vertices <= 512 ? vertices : 8;
  if (requested >= vertices) {
    std::vector<int64_t> all(static_cast<size_t>(vertices));
    for (int64_t i = 0; i < vertices; ++i) all[size_t(i)] = i;
    return all;
  }
  std::vector<int64_t> s{0, vertices - 1};
  std::mt19937_64 rng(20261122);
  while (int64_t(s.size()) < requested) {
    const int64_t x = int64_t(rng() % uint64_t(vertices));
    if (std::find(s.begin(), s.end(), x) == s.end()) s.push_back(x);
  }
  std::sort(s.begin(), s.end());
  return s;
}

ReferenceRows reference_rows(const GraphFile& graph, const std::vector<int64_t>& sources, ReferenceOptions how) {
  const auto t0 = std::chrono::steady_clock::now();
  ReferenceRows ref;
  ref.sources = sources;
  ref.rows.resize(sources.size());
  if (how.paths) ref.predecessors.resize(sources.size());
  if (sources.empty()) return ref;
  const int threads = std::max(1, how.threads);
  std::optional<Csr> csr;
  if (graph.partial()) {  // an MPI rank's generated graph holds only its own rows: Dijkstra needs them all
    const GraphFile whole = GraphFile::generate(*graph.generated(), 0, graph.vertices(), threads);
    csr = check::build_csr(check::EdgeReader(whole, whole.share_cache()), graph.vertices(), graph.max_weight_allowed(),
                           threads, how.paths, how.stop);
  } else {
    csr = check::build_csr(check::EdgeReader(graph, how.in_memory), graph.vertices(), graph.max_weight_allowed(),
                           threads, how.paths, how.stop);
    how.in_memory = {};  // no longer needed: the read-ahead is freed once nothing shares it
  }
  if (!csr) return ref;
  const auto held = std::make_shared<const ReferenceGraph>(ReferenceGraph{std::move(*csr)});
  if (how.paths) ref.graph = held;
  std::atomic<size_t> next{0};
  on_threads(static_cast<int>(std::min<size_t>(size_t(threads), sources.size())), [&](int) {
    for (size_t i; (i = next++) < sources.size();) {
      if (how.stop != nullptr && how.stop->load(std::memory_order_relaxed)) return;
      PathRow r = dijkstra(held->csr, sources[i], how.paths);
      ref.rows[i] = std::move(r.distance);
      if (how.paths) ref.predecessors[i] = std::move(r.predecessor);
    }
  });
  ref.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return ref;
}

VerifyReport compare_rows(const ReferenceRows& reference, const RowOf& row, const RowOf& predecessors) {
  VerifyReport report;
  report.rows_checked = int64_t(reference.sources.size());
  report.predecessors = bool(predecessors);
  report.seconds = reference.seconds;
  if (predecessors && reference.predecessors.size() != reference.sources.size())
    throw std::logic_error("the reference rows were computed without paths");
  for (size_t i = 0; i < reference.sources.size() && report.passed; ++i) {
    const int64_t s = reference.sources[i];
    const std::vector<int32_t> got = row(s);
    const std::vector<int32_t>& expected = reference.rows[i];
    for (size_t j = 0; j < expected.size(); ++j)
      if (got[j] != expected[j]) {
        report.passed = false;
        report.first_mismatch = "d(" + std::to_string(s) + ", " + std::to_string(j) + ") = " + std::to_string(got[j]) +
                                ", Dijkstra gives " + std::to_string(expected[j]);
        break;
      }
    if (report.passed && predecessors) {
      report.first_mismatch =
          check::walk_predecessors(reference.graph->csr, s, got, predecessors(s), reference.predecessors[i]);
      report.passed = report.first_mismatch.empty();
    }
  }
  return report;
}

VerifyReport verify_rows(const GraphFile& graph, const std::vector<int64_t>& sources,
                         const std::function<std::vector<int32_t>(int64_t)>& row, int threads) {
  ReferenceOptions how;
  how.threads = threads;
  return compare_rows(reference_rows(graph, sources, how), row);
}

int64_t verify_memory_bytes(int64_t vertices, int64_t edges, bool regenerated) {
  // The CSR (destination and weight per edge, an offset per vertex) and the build's per-thread
  // counts; Dijkstra's distances per thread are small.
  const int64_t csr = 8 * edges + 8 * (vertices + 1) + 8 * vertices * check::csr_threads(edges, INT32_MAX);
  const int64_t edge_list = regenerated ? 12 * edges : 0;
  return edge_list + csr;
}

}  // namespace apsp
