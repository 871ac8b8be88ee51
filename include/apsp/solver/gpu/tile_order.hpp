// SPDX-License-Identifier: BSD-3-Clause
// (GPU backends) The order in which a multi-round phase 3 hands out its tiles to teams
// (gpu/pair_kernels.hpp, gpu/round_block_kernels.hpp): indices that skip the tile rows and columns a
// kernel leaves out, and the grouped order of its main part.
#pragma once

#include <Kokkos_Core.hpp>

namespace apsp::Impl {

/// t-th index of [0, nb) outside [from, from + count).
KOKKOS_INLINE_FUNCTION int index_outside(int t, int from, int count) { return t < from ? t : t + count; }

/// The tiles off tile rows and columns [from, from + count) (m = nb - count of each) go in groups
/// of this many tile rows, column by column within a group, so that the teams resident at once
/// (two per multiprocessor, a few hundred) share a few dozen operand tiles: row by row they would
/// read every tile of the pivot rows (41 MB at V = 40000 for a pair) once per wave.
inline constexpr int kGroupRows = 16;

/// Tile (i, j) of team `id` among the m x m tiles off rows and columns [from, from + count), in
/// the grouped order above.
KOKKOS_INLINE_FUNCTION void grouped_tile(int id, int m, int from, int count, int& i, int& j) {
  const int first = id / (kGroupRows * m) * kGroupRows, g = m - first < kGroupRows ? m - first : kGroupRows;
  const int within = id - first * m;
  i = index_outside(first + within % g, from, count), j = index_outside(within / g, from, count);
}

}  // namespace apsp::Impl
