// SPDX-License-Identifier: BSD-3-Clause
// Every edge checked against the rules where the matrix is built (build_from_edges.hpp,
// build_sorted_rows.hpp): the first that breaks one is the one an error names.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace apsp::Impl {

/// Smallest index of an edge that breaks the rules (reduced with Min).
template <class EdgeView>
struct FirstBadEdge {
  EdgeView edges;
  int64_t vertices;
  int32_t max_weight;
  KOKKOS_INLINE_FUNCTION void operator()(const int64_t i, int64_t& first) const {
    const int32_t s = edges(3 * i), t = edges(3 * i + 1), w = edges(3 * i + 2);
    const bool bad = s < 0 || s >= vertices || t < 0 || t >= vertices || w < 0 || w > max_weight;
    if (bad && i < first) first = i;
  }
};

/// Index of the first edge in [begin, begin + count) that breaks the rules, or -1.
template <class ExecSpace, class EdgeView>
int64_t first_bad_edge(const EdgeView& edges, int64_t count, int64_t begin, int64_t vertices, int32_t max_weight) {
  int64_t first = INT64_MAX;
  Kokkos::parallel_reduce("apsp::build::validate_edges",
                          Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(0, count),
                          FirstBadEdge<EdgeView>{edges, vertices, max_weight}, Kokkos::Min<int64_t>(first));
  return first == INT64_MAX ? -1 : begin + first;
}

}  // namespace apsp::Impl
