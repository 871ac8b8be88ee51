// SPDX-License-Identifier: BSD-3-Clause
// The distance matrix built from an edge list where the solver runs (so that only the edges
// travel to a device, never a V x V matrix), every edge checked on the way.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>

#include "apsp/backends/backend_runtime.hpp"
#include "apsp/core/constants.hpp"
#include "apsp/io/graph_file.hpp"
#include "apsp/solver/build_sorted_rows.hpp"
#include "apsp/solver/distance_matrix.hpp"
#include "apsp/solver/edge_checks.hpp"

namespace apsp {

/// Edges read (and copied to a device) at a time: 192 MiB of staging.
inline constexpr int64_t kEdgeChunk = int64_t(1) << 24;

namespace Impl {

/// Row i of the rows held (global row first_row + i): 0 on the diagonal, INF elsewhere (one
/// team per row, so that a GPU writes whole rows coalesced and a CPU vectorises the row).
template <class ExecSpace>
struct FillRows {
  int32_t* m;
  int64_t n, first_row;
  KOKKOS_INLINE_FUNCTION void operator()(const typename Kokkos::TeamPolicy<ExecSpace>::member_type& team) const {
    const int64_t i = first_row + team.league_rank();
    int32_t* row = m + team.league_rank() * n;
    Kokkos::parallel_for(Kokkos::TeamVectorRange(team, n), [&](const int64_t j) { row[j] = (i == j) ? 0 : kInf; });
  }
};

/// d(s, t) = min(d(s, t), w) for each edge whose source row is held; self-loops never
/// shorten d(i, i) = 0. With `label`, vertex x is label[x] in the matrix (graph/vertex_order.hpp).
template <class EdgeView>
struct ScatterEdges {
  EdgeView edges;
  int32_t* m;
  int64_t n, first_row, rows;
  const int32_t* label = nullptr;
  KOKKOS_INLINE_FUNCTION int32_t at(int32_t x) const { return label != nullptr ? label[x] : x; }
  KOKKOS_INLINE_FUNCTION void operator()(const int64_t i) const {
    const int64_t s = at(edges(3 * i)) - first_row;
    const int32_t t = at(edges(3 * i + 1)), w = edges(3 * i + 2);
    if (s >= 0 && s < rows && s + first_row != t) Kokkos::atomic_fetch_min(m + s * n + t, w);
  }
};

template <class ExecSpace, class EdgeView>
void scatter_edges(const DistanceMatrix<ExecSpace>& d, const EdgeView& edges, int64_t count, const int32_t* label) {
  Kokkos::parallel_for("apsp::build::scatter_edges",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(0, count),
                       ScatterEdges<EdgeView>{edges, d.data.data(), d.n, d.first_row, d.rows, label});
}

}  // namespace Impl

/// Fills the rows `d` holds from the graph: 0 on the diagonal, INF elsewhere, then every edge
/// out of a vertex of those rows, keeping the lightest of repeated edges. Checks every edge on
/// the way (all of them, whichever rows are held, so that every rank of a distributed run
/// reaches the same verdict) and throws InputError naming the first that breaks the rules.
/// `label` (in ExecSpace's memory, V entries; null: none): each vertex's number in the matrix.
template <class ExecSpace>
void initialise_from_edges(const DistanceMatrix<ExecSpace>& d, const GraphFile& graph, const int32_t* label = nullptr) {
  if (label == nullptr && build_from_sorted_edges(d, graph)) return;
  if (d.rows > 0)
    Kokkos::parallel_for("apsp::build::fill", Kokkos::TeamPolicy<ExecSpace>(static_cast<int>(d.rows), Kokkos::AUTO),
                         Impl::FillRows<ExecSpace>{d.data.data(), d.n, d.first_row});

  const int32_t max_weight = graph.max_weight_allowed();
  // The edges are taken chunk by chunk: from the graph's cache where it read them ahead
  // (InputPrefetch), else read into host memory (pinned for a device), so that a dense graph's
  // edge list (up to 12 * V * (V - 1) bytes) is never held whole here or on a device.
  using HostEdges = Kokkos::View<const int32_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using Staging = Kokkos::View<int32_t*, typename BackendRuntime<ExecSpace>::HostStagingSpace>;
  constexpr bool host_accessible = device_reads_host<ExecSpace>();
  const int64_t chunk = std::min<int64_t>(graph.edges(), kEdgeChunk);
  Staging read_into;  // allocated for the first chunk the cache does not hold
  Kokkos::View<int32_t*, typename ExecSpace::memory_space> staging;
  if constexpr (!host_accessible) {
    if (chunk > 0)
      staging = decltype(staging)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::build::edges"),
                                  static_cast<size_t>(3 * chunk));
  }
  for (int64_t begin = 0; begin < graph.edges(); begin += chunk) {
    const int64_t count = std::min(chunk, graph.edges() - begin);
    ExecSpace().fence();  // the previous chunk's kernels are done with the buffers
    const int32_t* edges = graph.cached_edges(begin, count);
    if (edges == nullptr) {
      if (read_into.extent(0) == 0)
        read_into =
            Staging(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::build::edges_read"), size_t(3 * chunk));
      graph.read_edges(begin, count, read_into.data());
      edges = read_into.data();
    }
    const HostEdges on_host(edges, size_t(3 * count));
    int64_t bad;
    if constexpr (host_accessible) {
      bad = Impl::first_bad_edge<ExecSpace>(on_host, count, begin, d.vertices, max_weight);
      if (bad < 0) Impl::scatter_edges(d, on_host, count, label);
    } else {
      auto dst = Kokkos::subview(staging, std::make_pair<size_t, size_t>(0, 3 * count));
      Kokkos::deep_copy(dst, on_host);
      bad = Impl::first_bad_edge<ExecSpace>(dst, count, begin, d.vertices, max_weight);
      if (bad < 0) Impl::scatter_edges(d, dst, count, label);
    }
    if (bad >= 0) graph.throw_bad_edge(bad);
  }
  ExecSpace().fence();
}

/// The edges `graph` read ahead, page-locked for their copies to a device (pin_cached_edges
/// before initialise_from_edges): on an H200 host 960 MB went over in 0.12-0.16 s from
/// pageable memory, and in 0.06-0.08 s pinned, pinning included. Empty where the device reads
/// host memory itself, or nothing was read ahead.
template <class ExecSpace>
PinnedHostRange<BackendRuntime<ExecSpace>> pin_cached_edges(const GraphFile& graph) {
  if (device_reads_host<ExecSpace>() || graph.cached_count() == 0) return {};
  // Page-locking changes no byte: the cache stays const to everything else.
  return {const_cast<int32_t*>(graph.cached_edges(0, graph.cached_count())), size_t(12 * graph.cached_count())};
}

}  // namespace apsp
