// SPDX-License-Identifier: BSD-3-Clause
// The solve's vertex numbering (graph/vertex_order.hpp): nested dissection is a permutation
// whose first separator divides the rest, auto takes it only where it splits a sparse graph, and
// a run under it writes exactly the distances of the file's numbering (Dijkstra's, per backend).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

#include "apsp/backends/enabled_backends.hpp"
#include "apsp/graph/vertex_order.hpp"
#include "apsp/pipeline/pipeline.hpp"
#include "reference.hpp"

namespace apsp::test {
namespace {

/// A w x h grid, edges both ways with weights from `seed`; `offset` shifts the vertex numbers
/// (for a second component), `stride` spreads them (1: row by row).
void add_grid(Graph& g, int32_t w, int32_t h, int32_t offset, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int32_t> weight(50, 3000);
  auto at = [&](int32_t x, int32_t y) { return offset + y * w + x; };
  for (int32_t y = 0; y < h; ++y)
    for (int32_t x = 0; x < w; ++x) {
      if (x + 1 < w)
        g.edges.push_back({at(x, y), at(x + 1, y), weight(rng)}),
            g.edges.push_back({at(x + 1, y), at(x, y), weight(rng)});
      if (y + 1 < h)
        g.edges.push_back({at(x, y), at(x, y + 1), weight(rng)}),
            g.edges.push_back({at(x, y + 1), at(x, y), weight(rng)});
    }
}

Graph grid(int32_t w, int32_t h, uint32_t seed) {
  Graph g{w * h, {}};
  add_grid(g, w, h, 0, seed);
  return g;
}

/// Every vertex's label once, in [0, V).
void expect_permutation(const std::vector<int32_t>& label, int32_t v) {
  ASSERT_EQ(int32_t(label.size()), v);
  std::vector<int32_t> sorted = label;
  std::sort(sorted.begin(), sorted.end());
  for (int32_t i = 0; i < v; ++i) ASSERT_EQ(sorted[size_t(i)], i);
}

VertexOrder order_of(const Graph& g, int leaf, OrderChoice choice) {
  TempDir dir;
  write_graph(dir.file("g"), g);
  return choose_order(GraphFile::open(dir.file("g")), leaf, choice);
}

TEST(VertexOrderTest, NestedDissectionSeparatesTheHalvesOfAGrid) {
  const Graph g = grid(40, 30, 1);
  const VertexOrder o = order_of(g, 16, OrderChoice::nested);
  expect_permutation(o.label, g.vertices);
  EXPECT_EQ(o.components, 1);
  ASSERT_GT(o.separator, 0);
  EXPECT_LE(o.separator, 60);  // a breadth-first level of a 40 x 30 grid
  // The separator is numbered last; the others fall into a first and a second side with no
  // edge between them: some cut of [0, V - separator) that no edge crosses, both sides
  // non-empty. crossing[a]: edges from below a to a or above.
  const int32_t rest = g.vertices - int32_t(o.separator);
  std::vector<int64_t> crossing(size_t(rest) + 1, 0);
  for (const Edge& e : g.edges) {
    const int32_t a = o.label[size_t(e.src)], b = o.label[size_t(e.dst)];
    if (a >= rest || b >= rest) continue;
    ++crossing[size_t(std::min(a, b)) + 1];
    --crossing[size_t(std::max(a, b)) + 1];
  }
  int64_t open = 0;
  int32_t cuts = 0;
  for (int32_t a = 1; a < rest; ++a) cuts += (open += crossing[size_t(a)]) == 0 ? 1 : 0;
  EXPECT_GT(cuts, 0) << "no cut between the two sides";
}

TEST(VertexOrderTest, ComponentsComeOneAfterAnother) {
  Graph g{3 * 100, {}};  // three 10 x 10 grids whose vertices are interleaved: v, v + 1, v + 2 in turn
  for (int c = 0; c < 3; ++c) {
    Graph one = grid(10, 10, 7 + c);
    for (const Edge& e : one.edges) g.edges.push_back({3 * e.src + c, 3 * e.dst + c, e.w});
  }
  const VertexOrder o = order_of(g, 8, OrderChoice::automatic);
  ASSERT_TRUE(o.applied()) << o.why;
  expect_permutation(o.label, g.vertices);
  EXPECT_EQ(o.components, 3);
  for (int c = 0; c < 3; ++c) {  // each component's numbers form one run of 100
    std::vector<int32_t> mine;
    for (int32_t v = c; v < g.vertices; v += 3) mine.push_back(o.label[size_t(v)]);
    std::sort(mine.begin(), mine.end());
    EXPECT_EQ(mine.back() - mine.front(), 99) << "component " << c;
  }
}

TEST(VertexOrderTest, AutoKeepsTheFilesNumberingWhereNestedDissectionCannotSplit) {
  // Dense: more than kSparseDegree edges per vertex, not even searched.
  const VertexOrder dense = order_of(random_graph(200, 0.5, 0, 1000, 3), 16, OrderChoice::automatic);
  EXPECT_FALSE(dense.applied());
  EXPECT_NE(dense.why.find("edges per vertex"), std::string::npos) << dense.why;
  // Sparse but expanding (random, 5 edges per vertex): its middle level holds most vertices.
  const VertexOrder expanding = order_of(random_graph(2000, 5.0 / 2000, 0, 1000, 4), 16, OrderChoice::automatic);
  EXPECT_FALSE(expanding.applied());
  EXPECT_NE(expanding.why.find("no small separator"), std::string::npos) << expanding.why;
  // Asked for, it is taken anyway; natural never.
  EXPECT_TRUE(order_of(random_graph(2000, 5.0 / 2000, 0, 1000, 4), 16, OrderChoice::nested).applied());
  EXPECT_FALSE(order_of(grid(20, 20, 5), 16, OrderChoice::natural).applied());
  EXPECT_TRUE(order_of(grid(20, 20, 5), 16, OrderChoice::automatic).applied());
}

std::vector<int32_t> read_words(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(f)), {});
  std::vector<int32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

// The distances do not depend on the numbering the solve takes: a grid (V not a multiple of any
// block), a chain, interleaved components and one-way edges (pairs unreachable one way), each
// against Dijkstra on every backend, and the record says which numbering ran.
TEST(PipelineTest, NestedDissectionWritesTheFilesDistancesOnEveryBackend) {
  std::vector<Graph> graphs;
  graphs.push_back(grid(37, 23, 11));
  Graph chain{300, {}};
  for (int32_t v = 0; v + 1 < 300; ++v) chain.edges.push_back({(v * 7) % 300, ((v + 1) * 7) % 300, 1 + v % 13});
  graphs.push_back(chain);
  Graph parts{3 * 130, {}};
  for (int c = 0; c < 3; ++c) {
    Graph one = grid(13, 10, 20 + c);
    for (const Edge& e : one.edges) parts.edges.push_back({3 * e.src + c, 3 * e.dst + c, e.w});
  }
  graphs.push_back(parts);
  Graph one_way = grid(25, 20, 31);
  one_way.edges.erase(std::remove_if(one_way.edges.begin(), one_way.edges.end(),
                                     [](const Edge& e) { return e.dst == e.src + 25 && e.src % 3 == 0; }),
                      one_way.edges.end());
  graphs.push_back(one_way);
  for (size_t k = 0; k < graphs.size(); ++k) {
    TempDir dir;
    write_graph(dir.file("g"), graphs[k]);
    const auto expected = dijkstra_apsp(graphs[k]);
    for (const auto& backend : enabled_backend_names()) {
      RunOptions opt;
      opt.input = dir.file("g");
      opt.output = dir.file("out_" + backend);
      opt.backend = backend;
      opt.vertex_order = OrderChoice::nested;
      const RunReport r = run_pipeline(opt);
      EXPECT_NE(r.order.find("nested dissection"), std::string::npos) << r.order;
      EXPECT_TRUE(r.verify.passed);
      EXPECT_EQ(first_difference(read_words(opt.output), expected, graphs[k].vertices), "")
          << "graph " << k << ", " << backend;
    }
  }
}

// With --predecessors too: the search runs in the solve's numbering and its tie rule ("the
// smallest predecessor") in the file's, so both files are byte for byte those of the file's
// numbering; on every backend, for a grid whose weights tie often (1 or 2) and the one-way chain.
TEST(PipelineTest, NestedDissectionWritesTheFilesPredecessorsOnEveryBackend) {
  std::vector<Graph> graphs;
  Graph ties = grid(23, 17, 5);
  for (Edge& e : ties.edges) e.w = 1 + e.w % 2;
  graphs.push_back(ties);
  Graph chain{200, {}};
  for (int32_t v = 0; v + 1 < 200; ++v) chain.edges.push_back({(v * 7) % 200, ((v + 1) * 7) % 200, v % 3});
  chain.edges.push_back({0, 100, 0});  // zero weights: ties between paths of different lengths
  graphs.push_back(chain);
  for (size_t k = 0; k < graphs.size(); ++k) {
    TempDir dir;
    write_graph(dir.file("g"), graphs[k]);
    for (const auto& backend : enabled_backend_names()) {
      std::vector<int32_t> files[2][2];
      for (const OrderChoice order : {OrderChoice::natural, OrderChoice::nested}) {
        const int o = order == OrderChoice::nested ? 1 : 0;
        RunOptions opt;
        opt.input = dir.file("g");
        opt.output = dir.file("out");
        opt.predecessors = dir.file("pred");
        opt.backend = backend;
        opt.vertex_order = order;
        const RunReport r = run_pipeline(opt);
        EXPECT_EQ(r.order.find("nested dissection") != std::string::npos, o == 1) << r.order;
        EXPECT_TRUE(r.verify.passed);  // the check walks the predecessors and their tie rule
        files[o][0] = read_words(opt.output);
        files[o][1] = read_words(opt.predecessors);
      }
      EXPECT_EQ(first_difference(files[1][0], files[0][0], graphs[k].vertices), "") << "graph " << k << ", " << backend;
      EXPECT_EQ(first_difference(files[1][1], files[0][1], graphs[k].vertices), "")
          << "predecessors, graph " << k << ", " << backend;
    }
  }
}

}  // namespace
}  // namespace apsp::test
