// SPDX-License-Identifier: BSD-3-Clause
// The shortest edges of the whole graph for the predecessor search (paths/predecessor_search.hpp):
// each process finds those of the rows it holds; a path leaves those rows, so under MPI every
// process gathers every other's (in rank order, which is row order). One process already holds
// the whole graph and copies nothing.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

#include "apsp/paths/edge_rows.hpp"

namespace apsp::Impl {

/// Edge rows in host memory: each row's count, then the heads and weights of all rows in turn.
struct HostEdgeRows {
  std::vector<int32_t> counts, heads, weights;
};

template <class ExecSpace>
HostEdgeRows to_host(const EdgeRows<ExecSpace>& rows) {
  HostEdgeRows h;
  auto offsets = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rows.offsets);
  h.counts.resize(size_t(rows.rows));
  for (int64_t r = 0; r < rows.rows; ++r) h.counts[size_t(r)] = int32_t(offsets(r + 1) - offsets(r));
  h.heads.resize(size_t(rows.edges));
  h.weights.resize(size_t(rows.edges));
  using Unmanaged = Kokkos::View<int32_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Kokkos::deep_copy(Unmanaged(h.heads.data(), h.heads.size()), rows.heads);
  Kokkos::deep_copy(Unmanaged(h.weights.data(), h.weights.size()), rows.weights);
  return h;
}

/// The rows of every vertex, from the counts and edges of all of them.
template <class ExecSpace>
EdgeRows<ExecSpace> to_device(const HostEdgeRows& h) {
  EdgeRows<ExecSpace> rows;
  rows.rows = int64_t(h.counts.size());
  rows.edges = int64_t(h.heads.size());
  rows.offsets = decltype(rows.offsets)("apsp::paths::all_offsets", h.counts.size() + 1);
  auto offsets = Kokkos::create_mirror_view(rows.offsets);
  offsets(0) = 0;
  for (size_t r = 0; r < h.counts.size(); ++r) offsets(r + 1) = offsets(r) + h.counts[r];
  Kokkos::deep_copy(rows.offsets, offsets);
  using Unmanaged = Kokkos::View<const int32_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  rows.heads =
      decltype(rows.heads)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::paths::all_heads"), h.heads.size());
  rows.weights = decltype(rows.weights)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::paths::all_weights"),
                                        h.weights.size());
  Kokkos::deep_copy(rows.heads, Unmanaged(h.heads.data(), h.heads.size()));
  Kokkos::deep_copy(rows.weights, Unmanaged(h.weights.data(), h.weights.size()));
  return rows;
}

/// Every process's `mine` (edge rows of the rows it holds), as the rows of the whole graph.
/// Collective under MPI; `mine` itself for one process.
template <class ExecSpace, class Procs>
EdgeRows<ExecSpace> whole_graph_edges(const Procs& procs, const EdgeRows<ExecSpace>& mine) {
  if constexpr (!Procs::kMpi) {
    return mine;
  } else {
    HostEdgeRows h;
    procs.collectively([&] { h = to_host(mine); });
    HostEdgeRows all{procs.concatenate(h.counts), procs.concatenate(h.heads), procs.concatenate(h.weights)};
    h = HostEdgeRows{};
    EdgeRows<ExecSpace> rows;
    procs.collectively([&] { rows = to_device<ExecSpace>(all); });
    return rows;
  }
}

}  // namespace apsp::Impl
