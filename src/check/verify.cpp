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
// The matrix's own arrays, filled in place (no copy, no second set of them in memory).
class CsrStorage {
 public:
  int64_t* offsets(int64_t v) {
    row_map_ = decltype(row_map_)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::verify::row_map"), v + 1);
    return row_map_.data();
  }
  void edges(int64_t nnz, int32_t*& dst, int32_t*& w) {
    entries_ = decltype(entries_)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::verify::entries"), nnz);
    values_ = decltype(values_)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::verify::weights"), nnz);
    dst = entries_.data();
    w = values_.data();
  }
  Csr finish(int64_t v, int64_t nnz) {
    return Csr("apsp::verify::graph", int32_t(v), int32_t(v), nnz, values_, row_map_, entries_);
  }

 private:
  Csr::row_map_type::non_const_type row_map_;
  Csr::index_type::non_const_type entries_;
  Csr::values_type::non_const_type values_;
};
#else
// Arrays left uninitialised (no serial zero fill: the build's threads write every entry, and
// first touch their pages in parallel).
struct Csr {
  int64_t vertices = 0;
  std::unique_ptr<int64_t[]> offset;
  std::unique_ptr<int32_t[]> dst, weight;
};
int64_t row_begin(const Csr& c, int64_t u) { return c.offset[size_t(u)]; }
int32_t column(const Csr& c, int64_t i) { return c.dst[size_t(i)]; }
int32_t weight(const Csr& c, int64_t i) { return c.weight[size_t(i)]; }
int64_t rows(const Csr& c) { return c.vertices; }
class CsrStorage {
 public:
  int64_t* offsets(int64_t v) {
    csr_.vertices = v;
    csr_.offset.reset(new int64_t[size_t(v + 1)]);
    return csr_.offset.get();
  }
  void edges(int64_t nnz, int32_t*& dst, int32_t*& w) {
    csr_.dst.reset(new int32_t[size_t(std::max<int64_t>(nnz, 1))]);
    csr_.weight.reset(new int32_t[size_t(std::max<int64_t>(nnz, 1))]);
    dst = csr_.dst.get();
    w = csr_.weight.get();
  }
  Csr finish(int64_t /*v*/, int64_t /*nnz*/) { return std::move(csr_); }

 private:
  Csr csr_;
};
#endif

// The edge list as the check reads it: from memory as far as the read-ahead holds it, the rest
// from the file (a chunk at a time, so that a thread holds at most one chunk).
class EdgeReader {
 public:
  EdgeReader(const GraphFile& g, const GraphFile::SharedEdges& in_memory)
      : graph_(g), memory_(in_memory.data.get()), in_memory_(in_memory.data ? in_memory.count : 0) {}
  int64_t edges() const { return graph_.edges(); }
  /// Calls f(src, dst, w) for edges [begin, end), in order; returns false when `stop` was set.
  template <class F>
  bool for_each(int64_t begin, int64_t end, const std::atomic<bool>* stop, F&& f) const {
    constexpr int64_t kChunk = int64_t(1) << 16;  // edges: 768 KiB a thread when read from the file
    std::vector<int32_t> buf;
    for (int64_t at = begin; at < end;) {
      if (stop != nullptr && stop->load(std::memory_order_relaxed)) return false;
      int64_t count = std::min(kChunk, end - at);
      const int32_t* e;
      if (at < in_memory_) {
        count = std::min(count, in_memory_ - at);
        e = memory_ + 3 * at;
      } else {
        buf.resize(size_t(3 * count));
        graph_.read_edges(at, count, buf.data());
        e = buf.data();
      }
      for (int64_t i = 0; i < count; ++i) f(e[3 * i], e[3 * i + 1], e[3 * i + 2]);
      at += count;
    }
    return true;
  }

 private:
  const GraphFile& graph_;
  const int32_t* memory_;
  int64_t in_memory_;
};

// Threads the CSR build uses at most: one per 65 536 edges, at most 16 (each thread's counts
// cost 8 bytes a vertex).
int csr_threads(int64_t edges, int asked) {
  return static_cast<int>(std::clamp<int64_t>(std::min(asked, 16), 1, std::max<int64_t>(1, edges >> 16)));
}

// Builds the CSR on up to `threads` threads: each counts the edges out of every vertex in its
// own range of the edge list, then places them, after those of the ranges before it (so every
// vertex's edges keep the file's order, as one thread would place them). Edges the input's
// rules refuse are left out: the check may start before the build has checked the input, and
// must end whatever it holds (a negative weight could keep Dijkstra going). `sorted`: each
// vertex's edges in order of (destination, weight), so that edge_weight can look an edge up
// (the predecessor walk). Returns nothing when `stop` was set.
std::optional<Csr> build_csr(const EdgeReader& edges, int64_t v, int32_t max_weight, int threads, bool sorted,
                             const std::atomic<bool>* stop) {
  const int64_t e = edges.edges();
  threads = csr_threads(e, threads);
  const auto valid = [v, max_weight](int32_t s, int32_t t, int32_t w) {
    return s >= 0 && s < v && t >= 0 && t < v && s != t && w >= 0 && w <= max_weight;
  };
  // place[t * v + u]: thread t's count of edges out of u, then where it places the next one.
  std::vector<int64_t> place(size_t(threads) * size_t(v), 0);
  std::atomic<bool> stopped{false};
  on_threads(threads, [&](int t) {
    int64_t* count = place.data() + size_t(t) * size_t(v);
    const auto [b, end] = thread_share(e, t, threads);
    if (!edges.for_each(b, end, stop, [&](int32_t s, int32_t d, int32_t w) {
          if (valid(s, d, w)) ++count[s];
        }))
      stopped = true;
  });
  if (stopped) return std::nullopt;
  CsrStorage storage;
  int64_t* offset = storage.offsets(v);
  int64_t nnz = 0;
  for (int64_t u = 0; u < v; ++u) {
    offset[u] = nnz;
    for (int t = 0; t < threads; ++t) {
      int64_t& at = place[size_t(t) * size_t(v) + size_t(u)];
      const int64_t count = at;
      at = nnz;
      nnz += count;
    }
  }
  offset[v] = nnz;
  int32_t *dst = nullptr, *w = nullptr;
  storage.edges(nnz, dst, w);
  on_threads(threads, [&](int t) {
    int64_t* next = place.data() + size_t(t) * size_t(v);
    const auto [b, end] = thread_share(e, t, threads);
    if (!edges.for_each(b, end, stop, [&](int32_t s, int32_t d, int32_t weight) {
          if (!valid(s, d, weight)) return;
          const int64_t at = next[s]++;
          dst[at] = d;
          w[at] = weight;
        }))
      stopped = true;
  });
  if (stopped) return std::nullopt;
  if (sorted)
    on_threads(threads, [&](int t) {
      std::vector<std::pair<int32_t, int32_t>> row;
      const auto [u0, u1] = thread_share(v, t, threads);
      for (int64_t u = u0; u < u1; ++u) {
        row.clear();
        for (int64_t i = offset[u]; i < offset[u + 1]; ++i) row.emplace_back(dst[i], w[i]);
        std::sort(row.begin(), row.end());
        for (size_t i = 0; i < row.size(); ++i)
          std::tie(dst[offset[u] + int64_t(i)], w[offset[u] + int64_t(i)]) = row[i];
      }
    });
  return storage.finish(v, nnz);
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
    csr = build_csr(EdgeReader(whole, whole.share_cache()), graph.vertices(), graph.max_weight_allowed(), threads,
                    how.paths, how.stop);
  } else {
    csr = build_csr(EdgeReader(graph, how.in_memory), graph.vertices(), graph.max_weight_allowed(), threads, how.paths,
                    how.stop);
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
          walk_predecessors(reference.graph->csr, s, got, predecessors(s), reference.predecessors[i]);
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
  const int64_t csr = 8 * edges + 8 * (vertices + 1) + 8 * vertices * csr_threads(edges, INT32_MAX);
  const int64_t edge_list = regenerated ? 12 * edges : 0;
  return edge_list + csr;
}

}  // namespace apsp
