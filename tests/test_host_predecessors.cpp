// SPDX-License-Identifier: BSD-3-Clause
// The host backends' predecessor search (paths/host_predecessors.hpp) against the BFS over the
// tight edges (the GPU's search, one thread a source) and against the tie rule itself, checked
// entry by entry: on graphs where ties are rare (weights 1..1000), common (0..3) and where
// zero-weight cycles are tight (0..1, so the search must fall back to the BFS), with and without
// another numbering of the vertices. The distances come from the naive Floyd-Warshall.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "apsp/paths/host_predecessors.hpp"
#include "reference.hpp"

namespace apsp::test {
namespace {

/// The shortest edges by tail (w(u, j) = d(u, j), the lightest of repeated edges), as EdgeRows.
struct TailRows {
  std::vector<int64_t> offsets;
  std::vector<int32_t> heads, weights;
};

TailRows shortest_edges(const Graph& g, const std::vector<int32_t>& d) {
  const int64_t v = g.vertices;
  const std::vector<int32_t> a = adjacency(g);
  TailRows rows;
  rows.offsets.push_back(0);
  for (int64_t u = 0; u < v; ++u) {
    for (int64_t j = 0; j < v; ++j) {
      const int32_t w = a[size_t(u * v + j)];
      if (u != j && w < kInf && w == d[size_t(u * v + j)]) {
        rows.heads.push_back(int32_t(j));
        rows.weights.push_back(w);
      }
    }
    rows.offsets.push_back(int64_t(rows.heads.size()));
  }
  return rows;
}

/// The rule, computed from its definition: among the tight edges into j, the tails whose fewest
/// edges from s are least (h by Bellman-Ford on the edge counts), the smallest file number.
std::vector<int32_t> tie_rule_row(int32_t s, int64_t v, const TailRows& rows, const int32_t* dist,
                                  const int32_t* original) {
  std::vector<int64_t> h(size_t(v), INT64_MAX);
  h[size_t(s)] = 0;
  auto tight = [&](int64_t u, int64_t e) {
    return dist[u] < kInf && int64_t(dist[u]) + rows.weights[size_t(e)] == dist[rows.heads[size_t(e)]];
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (int64_t u = 0; u < v; ++u)
      for (int64_t e = rows.offsets[size_t(u)]; e < rows.offsets[size_t(u + 1)]; ++e)
        if (h[size_t(u)] != INT64_MAX && tight(u, e) && h[size_t(u)] + 1 < h[size_t(rows.heads[size_t(e)])]) {
          h[size_t(rows.heads[size_t(e)])] = h[size_t(u)] + 1;
          changed = true;
        }
  }
  std::vector<int32_t> p(size_t(v), -1);
  for (int64_t u = 0; u < v; ++u) {
    for (int64_t e = rows.offsets[size_t(u)]; e < rows.offsets[size_t(u + 1)]; ++e) {
      const int32_t j = rows.heads[size_t(e)];
      if (j == s || !tight(u, e) || h[size_t(u)] + 1 != h[size_t(j)]) continue;
      const int32_t number = original != nullptr ? original[u] : int32_t(u);
      if (p[size_t(j)] < 0 || number < p[size_t(j)]) p[size_t(j)] = number;
    }
  }
  return p;
}

struct Outcome {
  int64_t fallbacks = 0;  // sources searched by the BFS after a cycle of tight zero-weight edges
};

/// Every source's row by the head-side search (in blocks of 16 sources and of fewer, so that
/// lanes go unused), by the BFS, and by the rule; all equal.
Outcome check_graph(const Graph& g, bool renumbered, const std::string& what) {
  const int64_t v = g.vertices, n = v + 3;  // padding columns, as a padded matrix has
  const std::vector<int32_t> d = naive_apsp(g);
  std::vector<int32_t> padded(size_t(v * n), kInf);
  for (int64_t i = 0; i < v; ++i) std::copy_n(d.begin() + i * v, v, padded.begin() + i * n);
  const TailRows rows = shortest_edges(g, d);
  std::vector<int32_t> original(static_cast<size_t>(v));
  std::iota(original.begin(), original.end(), 0);
  if (renumbered) std::shuffle(original.begin(), original.end(), std::mt19937(7));
  const int32_t* numbers = renumbered ? original.data() : nullptr;
  const Impl::HeadRows in = Impl::edges_by_head(v, rows.offsets.data(), rows.heads.data(), rows.weights.data());
  Impl::HeadSideSearch heads(in, rows.offsets.data(), rows.heads.data(), rows.weights.data(), v, numbers);
  Impl::BreadthFirstSearch bfs(rows.offsets.data(), rows.heads.data(), rows.weights.data(), v, numbers);
  std::vector<int32_t> by_heads(size_t(v * n), 7), by_bfs(size_t(n), 7);
  for (int64_t first = 0, block = 0; first < v; first += block) {
    block = std::min<int64_t>(first % 3 == 0 ? Impl::kSourceLanes : 5, v - first);
    heads.run(int32_t(first), int(block), padded.data() + first * n, by_heads.data() + first * n, n);
  }
  for (int32_t s = 0; s < v; ++s) {
    const int32_t* dist = padded.data() + int64_t(s) * n;
    bfs.run(s, dist, by_bfs.data(), n);
    std::vector<int32_t> want = tie_rule_row(s, v, rows, d.data() + int64_t(s) * v, numbers);
    want.resize(size_t(n), -1);
    const std::vector<int32_t> head_row(by_heads.begin() + s * n, by_heads.begin() + (s + 1) * n);
    EXPECT_EQ(first_difference(head_row, want, n), "") << what << ", source " << s << " (head side)";
    EXPECT_EQ(first_difference(by_bfs, want, n), "") << what << ", source " << s << " (BFS)";
  }
  return Outcome{heads.cycles()};
}

TEST(HostPredecessors, FewTiesEveryPredecessorIsTheRules) {
  for (uint32_t seed = 1; seed <= 4; ++seed) {
    const Outcome o = check_graph(random_graph(60, 0.1, 1, 1000, seed), seed % 2 == 0, "weights 1..1000");
    EXPECT_EQ(o.fallbacks, 0) << "no edge weighs 0: the walk back always ends";
  }
}

TEST(HostPredecessors, ManyTiesEveryPredecessorIsTheRules) {
  for (uint32_t seed = 1; seed <= 4; ++seed) check_graph(random_graph(60, 0.15, 1, 3, seed), seed % 2 == 1, "1..3");
}

TEST(HostPredecessors, ZeroWeightCyclesFallBackToTheBfsWithTheSameRows) {
  int64_t fallbacks = 0;
  for (uint32_t seed = 1; seed <= 4; ++seed)
    fallbacks += check_graph(random_graph(50, 0.12, 0, 1, seed), seed % 2 == 0, "weights 0..1").fallbacks;
  EXPECT_GT(fallbacks, 0) << "graphs of weights 0 and 1 have tight cycles: the fallback went untested";
}

TEST(HostPredecessors, UnreachablePairsAndOneVertexHaveNone) {
  check_graph(random_graph(40, 0.02, 0, 1000, 3), true, "sparse, weights 0..1000");
  check_graph(Graph{1, {}}, false, "V = 1");
}

}  // namespace
}  // namespace apsp::test
