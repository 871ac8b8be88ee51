// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/check/verify.hpp"
#include "apsp/core/helper_thread.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <queue>
#include <random>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <utility>

#include "apsp/core/constants.hpp"

#if defined(APSP_HAVE_KOKKOS_KERNELS)
#include <KokkosSparse_CrsMatrix.hpp>
#endif

namespace apsp {

namespace {

// The graph in CSR form: the edges out of u are [offset(u), offset(u + 1)) of (dst, w).
// Self-loops are dropped; repeated edges stay (Dijkstra takes the lightest by itself).
// With Kokkos Kernels it is a KokkosSparse::CrsMatrix on the host (weights as values).
#if defined(APSP_HAVE_KOKKOS_KERNELS)
using HostDevice = Kokkos::Device<Kokkos::DefaultHostExecutionSpace, Kokkos::HostSpace>;
using Csr = KokkosSparse::CrsMatrix<int32_t, int32_t, HostDevice, void, int64_t>;
int64_t row_begin(const Csr& c, int64_t u) { return c.graph.row_map(u); }
int32_t column(const Csr& c, int64_t i) { return c.graph.entries(i); }
int32_t weight(const Csr& c, int64_t i) { return c.values(i); }
int64_t rows(const Csr& c) { return c.numRows(); }
#else
struct Csr {
  std::vector<int64_t> offset;
  std::vector<int32_t> dst, weight;
};
int64_t row_begin(const Csr& c, int64_t u) { return c.offset[size_t(u)]; }
int32_t column(const Csr& c, int64_t i) { return c.dst[size_t(i)]; }
int32_t weight(const Csr& c, int64_t i) { return c.weight[size_t(i)]; }
int64_t rows(const Csr& c) { return int64_t(c.offset.size()) - 1; }
#endif

// Calls f(src, dst, w) for every edge, reading the file a chunk at a time.
template <class F>
void for_each_edge(const GraphFile& g, F&& f) {
  constexpr int64_t kChunk = int64_t(1) << 20;
  std::vector<int32_t> buf(size_t(3 * std::min<int64_t>(kChunk, std::max<int64_t>(g.edges(), 1))));
  for (int64_t begin = 0; begin < g.edges(); begin += kChunk) {
    const int64_t count = std::min(kChunk, g.edges() - begin);
    g.read_edges(begin, count, buf.data());
    for (int64_t i = 0; i < count; ++i) f(buf[size_t(3 * i)], buf[size_t(3 * i + 1)], buf[size_t(3 * i + 2)]);
  }
}

// `sorted`: each vertex's edges in order of (destination, weight), so that edge_weight can
// look an edge up (the predecessor walk).
Csr build_csr(const GraphFile& g, bool sorted = false) {
  const int64_t v = g.vertices();
  std::vector<int64_t> offset(size_t(v + 1), 0);
  for_each_edge(g, [&](int32_t s, int32_t t, int32_t) {
    if (s != t) ++offset[size_t(s) + 1];
  });
  for (int64_t u = 0; u < v; ++u) offset[size_t(u + 1)] += offset[size_t(u)];
  const int64_t nnz = offset[size_t(v)];
  std::vector<int32_t> dst(static_cast<size_t>(nnz)), w(static_cast<size_t>(nnz));
  std::vector<int64_t> next(offset.begin(), offset.end() - 1);
  for_each_edge(g, [&](int32_t s, int32_t t, int32_t weight) {
    if (s == t) return;
    const int64_t at = next[size_t(s)]++;
    dst[size_t(at)] = t;
    w[size_t(at)] = weight;
  });
  if (sorted) {
    std::vector<std::pair<int32_t, int32_t>> row;
    for (int64_t u = 0; u < v; ++u) {
      row.clear();
      for (int64_t i = offset[size_t(u)]; i < offset[size_t(u + 1)]; ++i)
        row.emplace_back(dst[size_t(i)], w[size_t(i)]);
      std::sort(row.begin(), row.end());
      for (size_t i = 0; i < row.size(); ++i)
        std::tie(dst[size_t(offset[size_t(u)]) + i], w[size_t(offset[size_t(u)]) + i]) = row[i];
    }
  }
#if defined(APSP_HAVE_KOKKOS_KERNELS)
  Csr::row_map_type::non_const_type row_map("apsp::verify::row_map", size_t(v + 1));
  Csr::index_type::non_const_type entries("apsp::verify::entries", size_t(nnz));
  Csr::values_type::non_const_type values("apsp::verify::weights", size_t(nnz));
  for (int64_t u = 0; u <= v; ++u) row_map(u) = offset[size_t(u)];
  for (int64_t i = 0; i < nnz; ++i) {
    entries(i) = dst[size_t(i)];
    values(i) = w[size_t(i)];
  }
  return Csr("apsp::verify::graph", int32_t(v), int32_t(v), nnz, values, row_map, entries);
#else
  return Csr{std::move(offset), std::move(dst), std::move(w)};
#endif
}

// The lightest edge u -> t in a sorted CSR (build_csr(g, true)), or -1 when there is none.
int64_t edge_weight(const Csr& csr, int64_t u, int32_t t) {
  int64_t lo = row_begin(csr, u), hi = row_begin(csr, u + 1);
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (column(csr, mid) < t)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < row_begin(csr, u + 1) && column(csr, lo) == t ? weight(csr, lo) : -1;
}

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

// Walks the predecessor chains of row `s` (distances `d`, already equal to the reference's):
// every hop an edge of the graph, the weights summing to the distance, every chain ending at s;
// then the tie rule. Returns the first mismatch, or "".
std::string walk_predecessors(const Csr& csr, int64_t s, const std::vector<int32_t>& d,
                              const std::vector<int32_t>& pred, const std::vector<int32_t>& rule) {
  const int64_t v = int64_t(d.size());
  auto at = [&](int64_t t) {
    return "pred(" + std::to_string(s) + ", " + std::to_string(t) + ") = " + std::to_string(pred[size_t(t)]);
  };
  // The length of the path the chain from t describes, once known (-1: not yet, -2: on the walk now).
  std::vector<int64_t> length(size_t(v), -1);
  length[size_t(s)] = 0;
  if (pred[size_t(s)] != -1) return at(s) + ", expected -1 at the source";
  std::vector<int64_t> chain;
  for (int64_t t0 = 0; t0 < v; ++t0) {
    if (d[size_t(t0)] >= kInf) {
      if (pred[size_t(t0)] != -1) return at(t0) + ", but " + std::to_string(t0) + " is unreachable (expected -1)";
      continue;
    }
    chain.clear();
    int64_t t = t0;
    while (length[size_t(t)] == -1) {  // down the chain to a vertex whose length is known
      const int32_t p = pred[size_t(t)];
      if (p < 0 || p >= v || p == t) return at(t) + ", not a vertex before " + std::to_string(t);
      length[size_t(t)] = -2;
      chain.push_back(t);
      t = p;
    }
    if (length[size_t(t)] == -2) return at(t) + ": the predecessors make a cycle through " + std::to_string(t);
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {  // back up, adding each hop
      const int64_t u = *it, p = pred[size_t(u)];
      const int64_t w = edge_weight(csr, p, int32_t(u));
      if (w < 0) return at(u) + ", but the graph has no edge " + std::to_string(p) + " -> " + std::to_string(u);
      length[size_t(u)] = length[size_t(p)] + w;
      if (length[size_t(u)] != d[size_t(u)])
        return at(u) + ": that path from " + std::to_string(s) + " weighs " + std::to_string(length[size_t(u)]) +
               ", d = " + std::to_string(d[size_t(u)]);
    }
  }
  for (int64_t t = 0; t < v; ++t)
    if (pred[size_t(t)] != rule[size_t(t)])
      return at(t) + ", a shortest path, but the tie rule (fewest edges, then the smallest predecessor) gives " +
             std::to_string(rule[size_t(t)]);
  return "";
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

ReferenceRows reference_rows(const GraphFile& graph, const std::vector<int64_t>& sources, int threads, bool paths) {
  const auto t0 = std::chrono::steady_clock::now();
  ReferenceRows ref;
  ref.sources = sources;
  ref.rows.resize(sources.size());
  if (paths) ref.predecessors.resize(sources.size());
  if (sources.empty()) return ref;
  // An MPI rank's generated graph holds only its own rows: Dijkstra needs them all.
  auto held = std::make_shared<const ReferenceGraph>(ReferenceGraph{
      graph.partial() ? build_csr(GraphFile::generate(*graph.generated(), 0, graph.vertices(), threads), paths)
                      : build_csr(graph, paths)});
  const Csr& csr = held->csr;
  if (paths) ref.graph = held;
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next++) < sources.size();) {
      PathRow r = dijkstra(csr, sources[i], paths);
      ref.rows[i] = std::move(r.distance);
      if (paths) ref.predecessors[i] = std::move(r.predecessor);
    }
  };
  std::vector<std::thread> pool;
  const int n = static_cast<int>(std::min<size_t>(size_t(std::max(1, threads)), sources.size()));
  for (int t = 1; t < n; ++t) pool.push_back(helper_thread(work));
  work();
  for (auto& th : pool) th.join();
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
          walk_predecessors(reference.graph->csr, s, got, predecessors(s), reference.predecessors[i]);
      report.passed = report.first_mismatch.empty();
    }
  }
  return report;
}

VerifyReport verify_rows(const GraphFile& graph, const std::vector<int64_t>& sources,
                         const std::function<std::vector<int32_t>(int64_t)>& row, int threads) {
  return compare_rows(reference_rows(graph, sources, threads), row);
}

int64_t verify_memory_bytes(int64_t vertices, int64_t edges, bool regenerated) {
  // The CSR (destination and weight per edge, an offset per vertex), built as vectors and,
  // with Kokkos Kernels, copied once into its views; Dijkstra's distances per thread are small.
  const int64_t csr = 8 * edges + 8 * (vertices + 1);
  const int64_t edge_list = regenerated ? 12 * edges : 0;
#if defined(APSP_HAVE_KOKKOS_KERNELS)
  return edge_list + 2 * csr;
#else
  return edge_list + csr;
#endif
}

}  // namespace apsp
