// SPDX-License-Identifier: BSD-3-Clause
// The padded distance matrix in an execution space's memory: the whole matrix, or a block of
// its tile rows. Built from an edge list by build_from_edges.hpp.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include "apsp/core/constants.hpp"
#include "apsp/core/sizes.hpp"
#include "apsp/solver/host_pages.hpp"

namespace apsp {

/// Edge length of the matrix once padded to a multiple of the block size.
inline int64_t padded_size(int64_t vertices, int block) { return (vertices + block - 1) / block * block; }

/// Rows [first_row, first_row + rows) of the padded n x n distance matrix, n = padded_size(V,
/// B), row-major in ExecSpace's memory: the whole matrix on one device, a block of tile rows
/// on each rank of a distributed run. Padding vertices are isolated (0 on the diagonal, INF
/// elsewhere), so they never shorten a path and never show in the output. `Value`: int32
/// distances, or the predecessor matrix's int32 vertices (paths/predecessor_search.hpp).
template <class ExecSpace, class Value = int32_t>
struct DistanceMatrix {
  using execution_space = ExecSpace;
  using memory_space = typename ExecSpace::memory_space;
  using value_type = Value;
  using view_type = Kokkos::View<Value*, Kokkos::LayoutRight, memory_space>;

  int64_t vertices = 0;   ///< V
  int block = 0;          ///< B
  int64_t n = 0;          ///< padded edge length (leading dimension)
  int64_t first_row = 0;  ///< global index of the first row held (a multiple of B)
  int64_t rows = 0;       ///< rows held (a multiple of B)
  view_type data;
  /// Host memory: what keeps `data`'s memory, so that the matrix can outlive the run and Kokkos
  /// (the Python package's arrays are this memory, apsp/pipeline/memory_results.hpp). Null
  /// where the View manages its own memory (a device's).
  std::shared_ptr<Value[]> host_pages;
  /// Host memory: the entries host_pages holds, rows * n or more (min_entries: room for a result
  /// that widens in place, apsp/pipeline/memory_results.hpp).
  int64_t capacity = 0;
  /// Host memory, after a solve asked to leave it so (Impl::HostSixteen): every entry below 2^15,
  /// as uint16 rows of n entries from the start of the memory (padding 2^15 - 1), for an output
  /// that widens them itself (ResultFile::take_rows).
  bool narrowed16 = false;

  /// Tiles along an edge of the whole matrix (the number of rounds).
  int blocks() const { return static_cast<int>(n / block); }

  /// The whole matrix. Allocates without touching the memory; fill with `initialise_from_edges`.
  DistanceMatrix(int64_t v, int b) : DistanceMatrix(v, b, 0, padded_size(v, b)) {}

  /// Rows [first, first + count) of the matrix; `first` and `count` are multiples of `b`. In
  /// host memory, room for `min_entries` entries at least.
  DistanceMatrix(int64_t v, int b, int64_t first, int64_t count, const char* label = "apsp::distance_matrix",
                 int64_t min_entries = 0)
      : vertices(v), block(b), n(padded_size(v, b)), first_row(first), rows(count) {
    const auto size = static_cast<size_t>(size_mul(count, padded_size(v, b)));
    if constexpr (std::is_same_v<memory_space, Kokkos::HostSpace>) {
      // Resident before the build writes it, in huge pages only while they come quickly: they
      // made the build's first touch 3x faster run after run, but up to 5x slower in a run after
      // a pause on a VM that hands idle memory back to its host (docs/results-log.md).
      capacity = std::max(int64_t(size), min_entries);
      host_pages = labelled_host_pages<Value, ExecSpace>(size_t(capacity), label, PageSize::resident);
      data = view_type(host_pages.get(), size);
    } else {
      data = view_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), size);
    }
  }
};

/// Bytes of the padded matrix, or of `rows` of its rows (kTooLarge when that overflows), with
/// entries of `entry_bytes`.
inline int64_t matrix_bytes(int64_t vertices, int block, int64_t rows = -1, int64_t entry_bytes = 4) {
  const int64_t n = padded_size(vertices, block);
  return size_mul(rows < 0 ? n : rows, n, entry_bytes);
}

}  // namespace apsp
