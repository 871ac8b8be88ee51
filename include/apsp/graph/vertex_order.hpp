// SPDX-License-Identifier: BSD-3-Clause
// The numbering the solver takes a graph's vertices in. Distances do not depend on it, but the
// work does: a tile product whose operand is unreachable so far (INF alone) is left out
// (round_operands.hpp), and which products those are depends on where each vertex sits. A
// nested-dissection numbering (each part's two halves first, the vertices that separate them
// last) keeps every pair of halves apart until the rounds of their separator, as the fill of a
// sparse Cholesky factorisation under the same ordering: on a 200-wide grid, 93 % of the
// products left out against 60 % in the file's row-by-row numbering (docs/results.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "apsp/io/graph_file.hpp"

namespace apsp {

/// --order: the file's numbering, nested dissection, or nested dissection where it splits the
/// graph (auto).
enum class OrderChoice { automatic, natural, nested };

struct VertexOrder {
  std::vector<int32_t> label;     ///< label[v]: the number vertex v takes in the solve; empty: the file's
  std::vector<int32_t> original;  ///< its inverse: original[i] is the file's number of vertex i of the solve
  int64_t components = 1;         ///< connected components of the undirected graph
  int64_t largest = 0;            ///< vertices of the largest
  /// Vertices of the largest component's first separator (all of them where no level splits it;
  /// 0 where it is at most a tile).
  int64_t separator = 0;
  double seconds = 0;  ///< to compute it (and to decide)
  std::string why;     ///< for the banner and the record: which numbering, and why
  bool applied() const { return !label.empty(); }
};

/// The graph's vertices in nested-dissection order, for tiles of `leaf` vertices: each part of
/// the undirected graph split by the middle level of a breadth-first search from a far vertex
/// (no edge joins the levels before it to those after it), the two sides numbered first, each in
/// the same way, then that level; components one after another; parts of at most `leaf`
/// vertices in search order. Edges out of range are skipped (the build refuses them).
VertexOrder nested_dissection(const GraphFile& graph, int leaf);

/// The numbering a run takes: `choice`, where automatic takes nested dissection for a sparse
/// graph (at most kSparseDegree edges per vertex) that it splits: V / kSeparatorShare vertices
/// or more outside its largest component, or a first separator of the largest of at most
/// V / kSeparatorShare vertices; else the file's.
VertexOrder choose_order(const GraphFile& graph, int leaf, OrderChoice choice);

/// What automatic looks at.
inline constexpr int64_t kSparseDegree = 32;
inline constexpr int64_t kSeparatorShare = 8;

}  // namespace apsp
