// SPDX-License-Identifier: BSD-3-Clause
// The keys of a solve that also finds predecessors (--predecessors): one 64-bit integer per
// pair that carries the distance, the number of edges and the predecessor, ordered so that the
// blocked solve's plain integer min picks the documented shortest path.
//
// The tie rule: among the shortest paths from i to j, the one with the fewest edges; among
// those, the one whose last edge leaves the smallest vertex. In keys (d, h, p) under
// lexicographic min, a path i -> k -> j is (a.d + b.d, a.h + b.h, b.p) for a = key(i, k) and
// b = key(k, j). That product is associative and distributes over the min, and every cycle
// adds at least one edge, so the closure is exact whatever order the rounds and tiles are taken
// in: every block size, backend and rank count gives the same predecessor file. A rule on the
// predecessor alone would not be: with zero-weight edges (allowed: 0 <= w) it can make a cycle
// (a -> b -> a at weight 0). With fewest edges first, the predecessor's own path has one edge
// fewer, so following predecessors always ends at the source.
//
// Packing, from the top bit down: d (the distance), h (the edges), p (kPredBits bits): integer
// order is lexicographic order, and a + (b with its p field cleared) is the product above when
// no field carries into the next, which the widths guarantee: d and h may reach twice their
// largest finite value (two entries added), p stays b's. Everything stays below 2^63, so the
// keys compare the same as signed or unsigned 64-bit integers (the CPU's vector compare is
// signed).
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

#include "apsp/core/constants.hpp"
#include "apsp/core/errors.hpp"

namespace apsp {

struct PathKeys {
  using Key = int64_t;
  /// Width of the predecessor field: fixed, so that the product kernels clear it with a
  /// constant mask. Its largest value means "none" (the diagonal, unreachable pairs).
  static constexpr int kPredBits = 17;
  static constexpr Key kNone = (Key(1) << kPredBits) - 1;
  /// The A operand of a product: its predecessor field cleared.
  static constexpr Key kKeepCost = ~kNone;
  /// The most vertices a predecessor field can name (indices 0 .. kNone - 1).
  static constexpr int64_t kMaxVertices = kNone;

  int64_t inf = 1;  ///< the distance field of an unreachable pair: above every path's length
  int hop_bits = 1;

  /// The widths for a graph of `vertices` whose heaviest edge weighs `max_weight` (0 when it has
  /// no edge). Throws InputError, naming `what`, when V or the weights need more than 63 bits.
  static PathKeys of(int64_t vertices, int32_t max_weight, const std::string& what) {
    if (vertices > kMaxVertices)
      throw InputError(what + ": --predecessors takes up to V = " + std::to_string(kMaxVertices) +
                       " (a predecessor field of " + std::to_string(kPredBits) +
                       " bits); V = " + std::to_string(vertices));
    PathKeys k;
    k.inf = (vertices - 1) * int64_t(max_weight < 0 ? 0 : max_weight) + 1;  // above every path
    k.hop_bits = bit_width(2 * (vertices - 1));                             // two paths' edges
    const int bits = bit_width(2 * k.inf) + k.hop_bits + kPredBits;
    if (bits > 63)
      throw InputError(what + ": --predecessors with V = " + std::to_string(vertices) + " and weights up to " +
                       std::to_string(max_weight) + " needs keys of " + std::to_string(bits) +
                       " bits (distance, edges, predecessor), more than the 63 there are");
    return k;
  }

  KOKKOS_INLINE_FUNCTION int cost_shift() const { return kPredBits; }
  KOKKOS_INLINE_FUNCTION int distance_shift() const { return kPredBits + hop_bits; }

  /// The key of entry (i, j) of the initial matrix, whose distance entry is `d` (0 on the
  /// diagonal, an edge's weight, or INF).
  KOKKOS_INLINE_FUNCTION Key initial(int32_t d, int64_t i, int64_t j) const {
    if (i == j) return kNone;  // (0, 0, none): never improved, never a predecessor
    if (d >= kInf) return (Key(inf) << distance_shift()) | kNone;
    return (Key(d) << distance_shift()) | (Key(1) << cost_shift()) | Key(i);
  }
  /// The distance entry of a final key (INF where unreachable).
  KOKKOS_INLINE_FUNCTION int32_t distance(Key key) const {
    const Key d = key >> distance_shift();
    return d >= inf ? kInf : int32_t(d);
  }
  /// The predecessor entry of a final key (-1 on the diagonal and where unreachable).
  KOKKOS_INLINE_FUNCTION int32_t predecessor(Key key) const {
    const Key p = key & kNone;
    return p == kNone ? -1 : int32_t(p);
  }

 private:
  static int bit_width(int64_t x) {
    int b = 1;
    while (b < 63 && (int64_t(1) << b) <= x) ++b;
    return b;
  }
};

}  // namespace apsp
