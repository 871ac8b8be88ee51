// SPDX-License-Identifier: BSD-3-Clause
// The shortest edges of a graph by head, for the host's predecessor search
// (host_predecessors.hpp): each vertex's edges in as a list, and, where the build has a vector
// gather (backends/host_simd_gather.hpp), the same edges in blocks of 16 heads of about the same
// in-degree, laid out so that one vector step tests an edge into each head of a block (the
// search's first pass, which tests every edge for every source).
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#include "apsp/backends/host_simd_gather.hpp"

namespace apsp::Impl {

/// Heads per block of HeadRows' blocked layout.
inline constexpr int64_t kHeadLanes = host_simd::kGatherLanes;

/// Is u -> j (weight w) tight for a source whose distances to u and j are du and dj? Unsigned: an
/// unreachable tail's INF + w neither wraps to a distance nor overflows.
inline bool tight_edge(int32_t du, int32_t w, int32_t dj) { return uint32_t(du) + uint32_t(w) == uint32_t(dj); }

/// Vertex u's number in the file (`original`: each vertex's, or null where the numbering is the file's).
inline int32_t file_number(const int32_t* original, int32_t u) { return original != nullptr ? original[u] : u; }

/// The shortest edges into each vertex (the transpose of EdgeRows, in host memory).
struct HeadRows {
  std::vector<int64_t> offsets;         // V + 1
  std::vector<int32_t> tails, weights;  // vertex j's: [offsets[j], offsets[j + 1])
  /// With a gather: the same edges by blocks of kHeadLanes heads, the heads in order of
  /// in-degree (block_heads; the last block's lanes past V hold head 0 and no edge), so that a
  /// block pads little: block b holds its heads' k-th edges at [(block_at[b] + k) kHeadLanes,
  /// + kHeadLanes), lane l head l's, for k up to its largest in-degree; a lane past its head's
  /// edges holds tail 0 and a weight no distance reaches (kNoEdge), so it is never tight.
  std::vector<int64_t> block_at;  // blocks + 1
  std::vector<int32_t> block_heads, block_tails, block_weights;
};

/// A padding entry's weight in HeadRows' blocks: a distance (at most kInf) plus it is never
/// another distance, nor wraps in 32 bits.
inline constexpr int32_t kNoEdge = INT32_MAX;

/// HeadRows' blocked layout from its lists.
inline void by_blocks_of_heads(HeadRows& in, int64_t vertices) {
  const auto degree = [&](int32_t j) { return in.offsets[size_t(j) + 1] - in.offsets[size_t(j)]; };
  const int64_t blocks = (vertices + kHeadLanes - 1) / kHeadLanes;
  in.block_heads.assign(size_t(blocks * kHeadLanes), 0);
  for (int64_t j = 0; j < vertices; ++j) in.block_heads[size_t(j)] = int32_t(j);
  std::stable_sort(in.block_heads.begin(), in.block_heads.begin() + vertices,
                   [&](int32_t a, int32_t b) { return degree(a) > degree(b); });
  in.block_at.assign(size_t(blocks + 1), 0);
  for (int64_t b = 0; b < blocks; ++b)  // the block's first head has its largest in-degree
    in.block_at[size_t(b + 1)] = in.block_at[size_t(b)] + degree(in.block_heads[size_t(b * kHeadLanes)]);
  in.block_tails.assign(size_t(in.block_at[size_t(blocks)] * kHeadLanes), 0);
  in.block_weights.assign(in.block_tails.size(), kNoEdge);
  for (int64_t i = 0; i < vertices; ++i) {
    const int64_t b = i / kHeadLanes, lane = i % kHeadLanes;
    const int32_t j = in.block_heads[size_t(i)];
    for (int64_t k = 0; k < degree(j); ++k) {
      const auto at = size_t((in.block_at[size_t(b)] + k) * kHeadLanes + lane);
      in.block_tails[at] = in.tails[size_t(in.offsets[size_t(j)] + k)];
      in.block_weights[at] = in.weights[size_t(in.offsets[size_t(j)] + k)];
    }
  }
}

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
  if (host_simd::kHasGather) by_blocks_of_heads(in, vertices);
  return in;
}

}  // namespace apsp::Impl
