// SPDX-License-Identifier: BSD-3-Clause
// A matrix solved under another numbering of the vertices (graph/vertex_order.hpp) brought back
// to the file's: entry (i, j) of the result is entry (label[i], label[j]) of the solved matrix.
// A gather into a second matrix, one team per row (a GPU reads each source row from L2, a CPU
// from its caches): at V = 40000 a pass over 6.4 GB each way. The same row move packs and places
// the rows the MPI ranks swap (mpi/file_order_rows.hpp, mpi/file_order_peers.hpp).
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "apsp/solver/distance_matrix.hpp"

namespace apsp {

namespace Impl {

/// Row k of `out` (or row to[k]) from row from[k] of `in` (or row k), its vertex columns taken
/// from `label` (null: as they are), padding columns (from V on) as they are; one team per row.
/// Row: int32 (one process's labels) or int64 (a rank's rows, mpi/file_order_*.hpp).
template <class ExecSpace, class Value, class Row>
struct MoveRows {
  const Value* in;
  Value* out;
  const Row* from;
  const Row* to;
  const int32_t* label;
  int64_t n, vertices;
  KOKKOS_INLINE_FUNCTION void operator()(const typename Kokkos::TeamPolicy<ExecSpace>::member_type& team) const {
    const int64_t k = team.league_rank();
    const Value* src = in + (from != nullptr ? int64_t(from[k]) : k) * n;
    Value* dst = out + (to != nullptr ? int64_t(to[k]) : k) * n;
    if (label == nullptr) {
      Kokkos::parallel_for(Kokkos::TeamVectorRange(team, n), [&](const int64_t j) { dst[j] = src[j]; });
      return;
    }
    Kokkos::parallel_for(Kokkos::TeamVectorRange(team, vertices), [&](const int64_t j) { dst[j] = src[label[j]]; });
    Kokkos::parallel_for(Kokkos::TeamVectorRange(team, vertices, n), [&](const int64_t j) { dst[j] = src[j]; });
  }
};

}  // namespace Impl

/// MoveRows over `rows` rows of `n` entries (`vertices` of them the graph's), then a fence.
template <class ExecSpace, class Value, class Row>
void move_rows(const Value* in, Value* out, const Row* from, const Row* to, const int32_t* label, size_t rows,
               int64_t n, int64_t vertices) {
  if (rows == 0) return;
  Kokkos::parallel_for("apsp::file_order", Kokkos::TeamPolicy<ExecSpace>(static_cast<int>(rows), Kokkos::AUTO),
                       Impl::MoveRows<ExecSpace, Value, Row>{in, out, from, to, label, n, vertices});
  ExecSpace().fence();
}

/// A host vector where `Space` runs (the labels, or a plan's rows), under `name`.
template <class Space, class T>
Kokkos::View<T*, typename Space::memory_space> copied_to(const std::vector<T>& v, const char* name) {
  Kokkos::View<T*, typename Space::memory_space> d(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(name)),
                                                   v.size());
  Kokkos::deep_copy(
      d, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(v.data(), v.size()));
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
  move_rows<ExecSpace>(solved.data.data(), out.data.data(), label.data(), static_cast<const int32_t*>(nullptr),
                       label.data(), size_t(out.vertices), out.n, out.vertices);
  return out;
}

}  // namespace apsp
