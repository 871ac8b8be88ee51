// SPDX-License-Identifier: BSD-3-Clause
// The edges the predecessor search walks (--predecessors, predecessor_search.hpp), as
// compressed rows where the solver runs.
//
// Before the solve, `edges_of_rows` reads the edges of the rows a process holds off the built
// matrix: the lightest of parallel edges, no self-loops, exactly the graph the distances are
// of. After the solve, `shortest_edges` keeps only the edges that are themselves shortest paths,
// w(u, j) = d(u, j). Nothing the search needs is lost: an edge u -> j on a shortest path
// s -> ... -> u -> j is one, since w(u, j) > d(u, j) would make d(s, u) + d(u, j) shorter than
// d(s, j). On a dense random graph they are a dozen per vertex out of thousands; on a road-like
// grid nearly all of them.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "apsp/core/constants.hpp"
#include "apsp/solver/distance_matrix.hpp"

namespace apsp {

/// Rows [first_row, first_row + rows) of a graph's out-edges: row r's edges are
/// heads/weights[offsets(r) .. offsets(r + 1)), in increasing head order.
template <class ExecSpace>
struct EdgeRows {
  using memory_space = typename ExecSpace::memory_space;
  int64_t first_row = 0, rows = 0, edges = 0;
  Kokkos::View<int64_t*, memory_space> offsets;
  Kokkos::View<int32_t*, memory_space> heads, weights;
};

namespace Impl {

/// A row's entries in the matrix: entry j is an edge when it is finite and off the diagonal.
struct MatrixEntries {
  const int32_t* d;
  int64_t n, vertices, first_row;
  KOKKOS_INLINE_FUNCTION int64_t length(int64_t) const { return vertices; }
  KOKKOS_INLINE_FUNCTION bool keep(int64_t r, int64_t j) const { return j != first_row + r && d[r * n + j] < kInf; }
  KOKKOS_INLINE_FUNCTION int32_t head(int64_t, int64_t j) const { return int32_t(j); }
  KOKKOS_INLINE_FUNCTION int32_t weight(int64_t r, int64_t j) const { return d[r * n + j]; }
};

/// A row's edges, of which those as short as the solved distance are kept.
struct ShortestOfRow {
  const int64_t* offsets;
  const int32_t *heads, *weights, *d;
  int64_t n;
  KOKKOS_INLINE_FUNCTION int64_t length(int64_t r) const { return offsets[r + 1] - offsets[r]; }
  KOKKOS_INLINE_FUNCTION bool keep(int64_t r, int64_t k) const {
    const int64_t e = offsets[r] + k;
    return weights[e] == d[r * n + heads[e]];
  }
  KOKKOS_INLINE_FUNCTION int32_t head(int64_t r, int64_t k) const { return heads[offsets[r] + k]; }
  KOKKOS_INLINE_FUNCTION int32_t weight(int64_t r, int64_t k) const { return weights[offsets[r] + k]; }
};

/// Pass 1: offsets(r + 1) = entries kept in row r (one team per row).
template <class ExecSpace, class Source>
struct CountKept {
  Source src;
  Kokkos::View<int64_t*, typename ExecSpace::memory_space> offsets;
  KOKKOS_INLINE_FUNCTION void operator()(const typename Kokkos::TeamPolicy<ExecSpace>::member_type& team) const {
    const int64_t r = team.league_rank();
    int64_t kept = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, src.length(r)), [&](const int64_t k, int64_t& c) { c += src.keep(r, k) ? 1 : 0; },
        kept);
    Kokkos::single(Kokkos::PerTeam(team), [&]() { offsets(r + 1) = kept; });
  }
};

/// Pass 2: the counts summed in place into offsets.
template <class View>
struct SumCounts {
  View offsets;
  KOKKOS_INLINE_FUNCTION void operator()(const int64_t r, int64_t& sum, const bool final) const {
    sum += offsets(r + 1);
    if (final) offsets(r + 1) = sum;
  }
};

/// Pass 3: the kept entries written in row order (a scan over the row gives each its place).
template <class ExecSpace, class Source>
struct WriteKept {
  Source src;
  EdgeRows<ExecSpace> out;
  KOKKOS_INLINE_FUNCTION void operator()(const typename Kokkos::TeamPolicy<ExecSpace>::member_type& team) const {
    const int64_t r = team.league_rank(), base = out.offsets(r);
    Kokkos::parallel_scan(Kokkos::TeamThreadRange(team, src.length(r)),
                          [&](const int64_t k, int64_t& place, const bool final) {
                            const bool kept = src.keep(r, k);
                            if (final && kept) {
                              out.heads(base + place) = src.head(r, k);
                              out.weights(base + place) = src.weight(r, k);
                            }
                            place += kept ? 1 : 0;
                          });
  }
};

/// The entries of `rows` rows that `src` keeps, as edge rows starting at `first_row`.
template <class ExecSpace, class Source>
EdgeRows<ExecSpace> keep_rows(const Source& src, int64_t first_row, int64_t rows, const char* label) {
  using Team = Kokkos::TeamPolicy<ExecSpace>;
  EdgeRows<ExecSpace> out;
  out.first_row = first_row;
  out.rows = rows;
  out.offsets = decltype(out.offsets)(std::string(label) + "::offsets", size_t(rows + 1));  // zeroed: offsets(0)
  if (rows > 0) {
    Kokkos::parallel_for("apsp::paths::count_kept", Team(rows, Kokkos::AUTO),
                         CountKept<ExecSpace, Source>{src, out.offsets});
    Kokkos::parallel_scan("apsp::paths::sum_counts", Kokkos::RangePolicy<ExecSpace>(0, rows),
                          SumCounts<decltype(out.offsets)>{out.offsets});
    Kokkos::deep_copy(out.edges, Kokkos::subview(out.offsets, rows));
  }
  out.heads = decltype(out.heads)(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label) + "::heads"),
                                  size_t(out.edges));
  out.weights = decltype(out.weights)(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label) + "::weights"),
                                      size_t(out.edges));
  if (rows > 0)
    Kokkos::parallel_for("apsp::paths::write_kept", Team(rows, Kokkos::AUTO), WriteKept<ExecSpace, Source>{src, out});
  ExecSpace().fence();
  return out;
}

}  // namespace Impl

/// The edges of the first `rows` rows `d` holds (rows of real vertices), read before the solve.
template <class ExecSpace>
EdgeRows<ExecSpace> edges_of_rows(const DistanceMatrix<ExecSpace>& d, int64_t rows) {
  return Impl::keep_rows<ExecSpace>(Impl::MatrixEntries{d.data.data(), d.n, d.vertices, d.first_row}, d.first_row, rows,
                                    "apsp::paths::edges");
}

/// Of `edges` (rows of `d`, read before the solve), those that are shortest paths in the solved `d`.
template <class ExecSpace>
EdgeRows<ExecSpace> shortest_edges(const EdgeRows<ExecSpace>& edges, const DistanceMatrix<ExecSpace>& d) {
  return Impl::keep_rows<ExecSpace>(
      Impl::ShortestOfRow{edges.offsets.data(), edges.heads.data(), edges.weights.data(), d.data.data(), d.n},
      edges.first_row, edges.rows, "apsp::paths::shortest_edges");
}

}  // namespace apsp
