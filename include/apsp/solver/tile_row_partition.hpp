// SPDX-License-Identifier: BSD-3-Clause
// How the tile rows of the matrix are split among P processes: contiguous ranges, sizes
// differing by at most one (the first tiles % P processes take one more).
#pragma once

#include <algorithm>

namespace apsp {

struct TileRowPartition {
  int tiles = 0;  ///< tile rows of the matrix (n / B)
  int parts = 1;  ///< processes

  /// First tile row of process r.
  int first(int r) const { return r * (tiles / parts) + std::min(r, tiles % parts); }
  /// Tile rows of process r (0 when there are more processes than tile rows).
  int count(int r) const { return tiles / parts + (r < tiles % parts ? 1 : 0); }
  /// The process that holds tile row t.
  int owner(int t) const {
    const int q = tiles / parts, rem = tiles % parts;
    return t < rem * (q + 1) ? t / (q + 1) : rem + (t - rem * (q + 1)) / q;
  }
};

}  // namespace apsp
