// SPDX-License-Identifier: BSD-3-Clause
// The shortest edges of the whole graph for the predecessor search (paths/predecessor_search.hpp):
// each process finds those of the rows it holds; a path leaves those rows, so under MPI every
// process gathers every other's (in rank order, which is row order). One process already holds
// the whole graph and copies nothing.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "apsp/paths/edge_rows.hpp"

namespace apsp::Impl {

/// Edge rows in host memory: each row's count, then the heads and weights of all rows in turn.
struct HostEdgeRows {
  std::vector<int32_t> counts, heads, weights;
};

template <class View>
std::vector<int32_t> to_vector(const View& from) {
  std::vector<int32_t> to(from.size());
  Kokkos::deep_copy(
      Kokkos::View<int32_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(to.data(), to.size()), from);
  return to;
}

template <class View>
View to_view(const std::vector<int32_t>& from, const char* label) {
  View to(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), from.size());
  Kokkos::deep_copy(to, Kokkos::View<const int32_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                            from.data(), from.size()));
  return to;
}

template <class ExecSpace>
HostEdgeRows to_host(const EdgeRows<ExecSpace>& rows) {
  HostEdgeRows h;
  auto offsets = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rows.offsets);
  h.counts.resize(size_t(rows.rows));
  for (int64_t r = 0; r < rows.rows; ++r) h.counts[size_t(r)] = int32_t(offsets(r + 1) - offsets(r));
  h.heads = to_vector(rows.heads);
  h.weights = to_vector(rows.weights);
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
  rows.heads = to_view<decltype(rows.heads)>(h.heads, "apsp::paths::all_heads");
  rows.weights = to_view<decltype(rows.weights)>(h.weights, "apsp::paths::all_weights");
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
