// SPDX-License-Identifier: BSD-3-Clause
// The shortest edges of a graph by head, for the host's predecessor search
// (host_predecessors.hpp): each vertex's edges in as a list.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace apsp::Impl {

/// Is u -> j (weight w) tight for a source whose distances to u and j are du and dj? Unsigned: an
/// unreachable tail's INF + w neither wraps to a distance nor overflows.
inline bool tight_edge(int32_t du, int32_t w, int32_t dj) { return uint32_t(du) + uint32_t(w) == uint32_t(dj); }

/// Vertex u's number in the file (`original`: each vertex's, or null where the numbering is the file's).
inline int32_t file_number(const int32_t* original, int32_t u) { return original != nullptr ? original[u] : u; }

/// The shortest edges into each vertex (the transpose of EdgeRows, in host memory).
struct HeadRows {
  std::vector<int64_t> offsets;         // V + 1
  std::vector<int32_t> tails, weights;  // vertex j's: [offsets[j], offsets[j + 1])
};

/// Edges by tail (offsets, heads, weights of V rows) turned into edges by head.
inline HeadRows edges_by_head(int64_t vertices, const int64_t* offsets, const int32_t* heads, const int32_t* weights) {
  HeadRows in;
  in.offsets.assign(size_t(vertices + 1), 0);
  const int64_t edges = offsets[vertices];
  for (int64_t e = 0; e < edges; ++e) ++in.offsets[size_t(heads[e]) + 1];
  for (int64_t j = 0; j < vertices; ++j) in.offsets[size_t(j + 1)] += in.offsets[size_t(j)];
  in.tails.resize(size_t(edges));
  in.weights.resize(size_t(edges));
  std::vector<int64_t> at(in.offsets.begin(), in.offsets.end() - 1);
  for (int64_t u = 0; u < vertices; ++u) {
    for (int64_t e = offsets[u]; e < offsets[u + 1]; ++e) {
      const auto place = size_t(at[size_t(heads[e])]++);
      in.tails[place] = int32_t(u);
      in.weights[place] = weights[e];
    }
  }
  return in;
}

}  // namespace apsp::Impl
