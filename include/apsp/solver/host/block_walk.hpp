// SPDX-License-Identifier: BSD-3-Clause
// How a CPU tile product walks its MR x NR16 blocks of C, written once for the int32 matrix
// (host/tiles.hpp) and the 16-bit one (host/tiles16.hpp): row by row, left to right, each block
// in place or, where it reaches past C's rows or columns (B not a multiple of the block), on a
// zero-padded copy; and the block after it, whose lines the micro-kernel asks for meanwhile.
// Both forced inline, as the member functions they replace were inlined: out of line, the
// product solved 1-2 % slower on the Zen 5 EPYC.
#pragma once

#include <cstdint>

#include "apsp/backends/host_pivot_loop.hpp"

namespace apsp::Impl {

// NOLINTBEGIN(bugprone-implicit-widening-of-multiplication-result)

/// The block after (i0, j0) of a rows x cols C (ld): the next one to the right, or the first of
/// the next block row; none where that one is past C's end or at its edge (a copy, not fetched).
template <int MR, int NR16, class Entry>
APSP_SIMD_INLINE host_simd::NextBlock next_block(const Entry* c, int64_t ld, int rows, int cols, int i0, int j0) {
  const bool right = j0 + NR16 < cols;
  const int ni = right ? i0 : i0 + MR, nj = right ? j0 + NR16 : 0;
  if (ni + MR > rows || nj + NR16 > cols) return {};
  return {reinterpret_cast<const char*>(c + ni * ld + nj), ld * int64_t(sizeof(Entry))};
}

/// relax(corner, cld) on block (i0, j0) of a rows x cols C (ld) in place, or on a copy padded
/// with zeros where the block reaches past C's rows or columns; returns what `relax` returns.
template <int MR, int NR16, class Entry, class Relax>
APSP_SIMD_INLINE bool on_block(Entry* c, int64_t ld, int rows, int cols, int i0, int j0, Relax&& relax) {
  if (i0 + MR <= rows && j0 + NR16 <= cols) return relax(c + i0 * ld + j0, ld);
  alignas(64) Entry edge[MR][NR16] = {};
  const int r = rows - i0 < MR ? rows - i0 : MR, w = cols - j0 < NR16 ? cols - j0 : NR16;
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < w; ++j) edge[i][j] = c[(i0 + i) * ld + j0 + j];
  const bool result = relax(&edge[0][0], int64_t(NR16));
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < w; ++j) c[(i0 + i) * ld + j0 + j] = edge[i][j];
  return result;
}

// NOLINTEND(bugprone-implicit-widening-of-multiplication-result)

}  // namespace apsp::Impl
