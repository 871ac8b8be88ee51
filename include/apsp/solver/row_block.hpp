// SPDX-License-Identifier: BSD-3-Clause
// The tile rows one process holds, as the round driver sees them: the whole matrix on one
// device, a contiguous block of tile rows on each rank of an MPI run.
#pragma once

#include <algorithm>
#include <cstdint>

#include "apsp/solver/distance_matrix.hpp"

namespace apsp {

/// The tile rows one process holds, for a round k: `rows` (row_tiles tile rows of n entries,
/// from global tile row first_tile) and the pivot row block of round k, which lies in `rows`
/// when this process holds tile row k and is a received copy otherwise. Entries are the tile
/// operations' Value (int32 distances). A diagonal block of the matrix is a RowBlockOf too
/// (diagonal()): its rows are n apart but it has fewer tile columns.
template <class Value>
struct RowBlockOf {
  Value* rows;
  int first_tile, row_tiles;
  int64_t n;
  int block;
  int64_t vertices;  ///< V: the pivots past it are padding, and skipped
  int col_tiles;     ///< tiles in a row: n / block, but in a diagonal block

  /// The rows `d` holds (the whole matrix on one device).
  template <class ExecSpace>
  static RowBlockOf of(const DistanceMatrix<ExecSpace, Value>& d) {
    return RowBlockOf{d.data.data(), int(d.first_row / d.block), int(d.rows / d.block), d.n, d.block,
                      d.vertices,    int(d.n / d.block)};
  }
  /// Tile rows [first, first + tiles) of this block.
  RowBlockOf sub(int first, int tiles) const {
    return RowBlockOf{tile_row(first), first, tiles, n, block, vertices, col_tiles};
  }
  /// The tiles x tiles block whose corner is tile (k, k) (this block holds tile rows k to
  /// k + tiles - 1), as a matrix of its own: its round r is round k + r here, so that the three
  /// phases run on it close it over those rounds' pivots alone.
  RowBlockOf diagonal(int k, int tiles) const {
    return RowBlockOf{tile_row(k) + int64_t(k) * block, 0, tiles, n, block, vertices - int64_t(k) * block, tiles};
  }

  int k_local(int k) const { return k >= first_tile && k < first_tile + row_tiles ? k - first_tile : -1; }
  /// Global tile row k, which this block holds (k_local(k) >= 0).
  Value* tile_row(int k) const { return rows + int64_t(k - first_tile) * block * n; }
  /// Pivots of round k that are vertices: B, but in the last round when V is not a multiple of B.
  int pivots(int k) const { return int(std::min<int64_t>(block, vertices - int64_t(k) * block)); }
};

using RowBlock = RowBlockOf<int32_t>;

}  // namespace apsp
