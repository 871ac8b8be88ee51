// SPDX-License-Identifier: BSD-3-Clause
// Floyd-Warshall on one tile, blocked as the whole solve is: the CPU's phase 1, written once for
// the int32 matrix (host/tiles.hpp) and the 16-bit one (host/tiles16.hpp). Element by element
// the closure took 6 % of the solve at B = 256 on 2 threads (phase 1 runs on one thread while
// the others wait); blocked, all but the diagonal sub-tiles go through the tile product.
#pragma once

#include <cstdint>

namespace apsp::Impl {

// NOLINTBEGIN(bugprone-implicit-widening-of-multiplication-result)

/// Closes the B x B tile at `t` (ld) over its first `pivots` pivots in sub-tiles of b (the last
/// row and column of them narrower where B is not a multiple): per block of b pivots,
/// elementwise(diagonal, extent, depth) closes the diagonal sub-tile, then its row and column
/// and the rest go through product(c, a, bk, rows, cols, depth) = min(C, A (min,+) Bk).
template <class Entry, class Elementwise, class Product>
void blocked_closure(Entry* t, int64_t ld, int B, int pivots, int b, Elementwise&& elementwise, Product&& product) {
  auto sub = [&](int i, int j) { return t + i * ld + j; };
  auto extent = [&](int i) { return B - i < b ? B - i : b; };
  for (int k = 0; k < pivots; k += b) {
    const int depth = pivots - k < b ? pivots - k : b;
    elementwise(sub(k, k), extent(k), depth);
    for (int j = 0; j < B; j += b)
      if (j != k) {
        product(sub(k, j), sub(k, k), sub(k, j), extent(k), extent(j), depth);  // P (min,+) T
        product(sub(j, k), sub(j, k), sub(k, k), extent(j), extent(k), depth);  // T (min,+) P
      }
    for (int i = 0; i < B; i += b)
      for (int j = 0; j < B; j += b)
        if (i != k && j != k) product(sub(i, j), sub(i, k), sub(k, j), extent(i), extent(j), depth);
  }
}

// NOLINTEND(bugprone-implicit-widening-of-multiplication-result)

}  // namespace apsp::Impl
