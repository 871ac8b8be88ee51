// SPDX-License-Identifier: BSD-3-Clause
// A matrix solved under another numbering of the vertices (graph/vertex_order.hpp) brought back
// to the file's: entry (i, j) of the result is entry (label[i], label[j]) of the solved matrix.
// A gather into a second matrix, one team per row (a GPU reads each source row from L2, a CPU
// from its caches): at V = 40000 a pass over 6.4 GB each way.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

#include "apsp/solver/distance_matrix.hpp"

namespace apsp {

namespace Impl {

/// Row i < V of `out` from row label[i] of `in`, columns likewise; padding columns (from V on)
/// as they are.
template <class ExecSpace>
struct GatherFileOrder {
  const int32_t* in;
  int32_t* out;
  const int32_t* label;
  int64_t n, vertices;
  KOKKOS_INLINE_FUNCTION void operator()(const typename Kokkos::TeamPolicy<ExecSpace>::member_type& team) const {
    const int64_t i = team.league_rank();
    const int32_t* from = in + int64_t(label[i]) * n;
    int32_t* to = out + i * n;
    Kokkos::parallel_for(Kokkos::TeamVectorRange(team, n),
                         [&](const int64_t j) { to[j] = from[j < vertices ? int64_t(label[j]) : j]; });
  }
};

}  // namespace Impl

/// Each vertex's number in the solve (or, given the inverse, in the file), where the solver runs.
template <class ExecSpace>
Kokkos::View<int32_t*, typename ExecSpace::memory_space> device_labels(const std::vector<int32_t>& label) {
  Kokkos::View<int32_t*, typename ExecSpace::memory_space> d(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::vertex_labels"), label.size());
  Kokkos::deep_copy(d, Kokkos::View<const int32_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                           label.data(), label.size()));
  return d;
}

/// The whole matrix `solved` (vertex x at label[x]) in the file's numbering, in a new matrix
/// (entries moved as they are: the predecessor matrix holds the file's numbers already).
template <class ExecSpace>
DistanceMatrix<ExecSpace> in_file_order(const DistanceMatrix<ExecSpace>& solved,
                                        const Kokkos::View<int32_t*, typename ExecSpace::memory_space>& label,
                                        const char* name = "apsp::distance_matrix") {
  DistanceMatrix<ExecSpace> out(solved.vertices, solved.block, 0, padded_size(solved.vertices, solved.block), name,
                                solved.capacity);
  // The rows of real vertices only: nothing reads the padding rows after the solve, and the
  // predecessor search never writes them (compute-sanitizer's initcheck flagged the reads).
  Kokkos::parallel_for(
      "apsp::file_numbering", Kokkos::TeamPolicy<ExecSpace>(static_cast<int>(out.vertices), Kokkos::AUTO),
      Impl::GatherFileOrder<ExecSpace>{solved.data.data(), out.data.data(), label.data(), out.n, out.vertices});
  ExecSpace().fence();
  return out;
}

}  // namespace apsp
