// SPDX-License-Identifier: BSD-3-Clause
// Reference answers computed without the blocked solver: a naive Floyd-Warshall and
// Dijkstra from every source. Plus helpers to write graph files and run the solver.
#pragma once

#include <unistd.h>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <queue>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "apsp/io/graph_file.hpp"
#include "apsp/solver/blocked_fw.hpp"
#include "apsp/solver/build_from_edges.hpp"
#include "apsp/solver/distance_matrix.hpp"

namespace apsp::test {

struct Edge {
  int32_t src, dst, w;
};

struct Graph {
  int32_t vertices = 0;
  std::vector<Edge> edges;
};

/// Where two row-major matrices of `cols` columns first differ: "" when they are equal, else
/// "entry (i, j): got x, expected y" (or the two sizes), so that a failure says where.
inline std::string first_difference(const std::vector<int32_t>& got, const std::vector<int32_t>& want, int64_t cols) {
  if (got.size() != want.size())
    return "sizes differ: got " + std::to_string(got.size()) + ", expected " + std::to_string(want.size());
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i])
      return "entry (" + std::to_string(int64_t(i) / cols) + ", " + std::to_string(int64_t(i) % cols) + "): got " +
             std::to_string(got[i]) + ", expected " + std::to_string(want[i]);
  return "";
}

/// Dense V x V adjacency with INF, 0 diagonal, lightest of repeated edges, self-loops ignored.
inline std::vector<int32_t> adjacency(const Graph& g) {
  const int64_t v = g.vertices;
  std::vector<int32_t> d(size_t(v * v), kInf);
  for (int64_t i = 0; i < v; ++i) d[size_t(i * v + i)] = 0;
  for (const auto& e : g.edges)
    if (e.src != e.dst) d[size_t(int64_t(e.src) * v + e.dst)] = std::min(d[size_t(int64_t(e.src) * v + e.dst)], e.w);
  return d;
}

/// Textbook Floyd-Warshall, pivots [0, pivots), saturating at INF.
inline void naive_floyd_warshall(std::vector<int32_t>& d, int64_t v, int64_t pivots) {
  for (int64_t k = 0; k < pivots; ++k)
    for (int64_t i = 0; i < v; ++i) {
      const int32_t dik = d[size_t(i * v + k)];
      if (dik >= kInf) continue;
      for (int64_t j = 0; j < v; ++j) {
        const int32_t s = dik + d[size_t(k * v + j)];
        if (s < d[size_t(i * v + j)]) d[size_t(i * v + j)] = s;
      }
    }
}

inline std::vector<int32_t> naive_apsp(const Graph& g) {
  auto d = adjacency(g);
  naive_floyd_warshall(d, g.vertices, g.vertices);
  return d;
}

/// Dijkstra from every source on the adjacency lists (a different algorithm).
inline std::vector<int32_t> dijkstra_apsp(const Graph& g) {
  const int32_t v = g.vertices;
  std::vector<std::vector<std::pair<int32_t, int32_t>>> adj(static_cast<size_t>(v));
  for (const auto& e : g.edges) adj[size_t(e.src)].push_back({e.dst, e.w});
  std::vector<int32_t> out(size_t(int64_t(v) * v), kInf);
  std::vector<int64_t> dist(static_cast<size_t>(v));
  using Item = std::pair<int64_t, int32_t>;
  for (int32_t s = 0; s < v; ++s) {
    std::fill(dist.begin(), dist.end(), INT64_MAX);
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
    dist[size_t(s)] = 0;
    pq.push({0, s});
    while (!pq.empty()) {
      auto [du, u] = pq.top();
      pq.pop();
      if (du != dist[size_t(u)]) continue;
      for (auto [t, w] : adj[size_t(u)])
        if (du + w < dist[size_t(t)]) {
          dist[size_t(t)] = du + w;
          pq.push({du + w, t});
        }
    }
    for (int32_t t = 0; t < v; ++t)
      out[size_t(int64_t(s) * v + t)] = dist[size_t(t)] == INT64_MAX ? kInf : int32_t(dist[size_t(t)]);
  }
  return out;
}

/// Random graph: each ordered pair an edge with probability `density`, weights in [wmin, wmax].
inline Graph random_graph(int32_t v, double density, int32_t wmin, int32_t wmax, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> coin(0, 1);
  std::uniform_int_distribution<int32_t> weight(wmin, wmax);
  Graph g{v, {}};
  for (int32_t i = 0; i < v; ++i)
    for (int32_t j = 0; j < v; ++j)
      if (i != j && coin(rng) < density) g.edges.push_back({i, j, weight(rng)});
  std::shuffle(g.edges.begin(), g.edges.end(), rng);
  return g;
}

/// A scratch directory removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/apsp_test.XXXXXX";
    path_ = ::mkdtemp(tmpl);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline void write_raw(const std::string& path, const std::vector<int32_t>& words) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  std::fwrite(words.data(), sizeof(int32_t), words.size(), f);
  std::fclose(f);
}

inline void write_graph(const std::string& path, const Graph& g) {
  std::vector<int32_t> w{g.vertices, int32_t(g.edges.size())};
  for (const auto& e : g.edges) w.insert(w.end(), {e.src, e.dst, e.w});
  write_raw(path, w);
}

/// The blocked solver on ExecSpace, through the real file reader; the V x V result on the host.
/// `solve(d)`: how the rounds run (BlockedFloydWarshall::solve by default).
template <class ExecSpace, class Solve>
std::vector<int32_t> blocked_apsp(const Graph& g, int block, Solve&& solve) {
  TempDir dir;
  write_graph(dir.file("g.bin"), g);
  const GraphFile file = GraphFile::open(dir.file("g.bin"));
  DistanceMatrix<ExecSpace> d(g.vertices, block);
  initialise_from_edges(d, file);
  solve(d);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.data);
  std::vector<int32_t> out(size_t(int64_t(g.vertices) * g.vertices));
  for (int64_t i = 0; i < g.vertices; ++i)
    for (int64_t j = 0; j < g.vertices; ++j) out[size_t(i * g.vertices + j)] = h(i * d.n + j);
  return out;
}
template <class ExecSpace>
std::vector<int32_t> blocked_apsp(const Graph& g, int block) {
  return blocked_apsp<ExecSpace>(g, block,
                                 [](const DistanceMatrix<ExecSpace>& d) { BlockedFloydWarshall<ExecSpace>::solve(d); });
}

}  // namespace apsp::test
