// SPDX-License-Identifier: BSD-3-Clause
// The random graph that `apsp_gen` writes and `apsp_kokkos --generate` builds where it solves:
// each ordered pair (i, j), i != j, is an edge with probability p = E / (V (V - 1)) (so E is met
// in expectation), its weight uniform in [min, max]. Every row (the edges out of one vertex)
// draws from a random stream of its own, seeded by (seed, row): rows can be made in any order,
// on any thread or MPI rank, and always come out the same. Plain C++, no Kokkos.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace apsp {

/// SplitMix64 (Steele, Lea, Flood 2014): small, fast, the same stream on every platform.
struct SplitMix64 {
  uint64_t s;
  static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint64_t next() { return mix(s += 0x9e3779b97f4a7c15ULL); }
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }  ///< [0, 1)
  /// Uniform in [lo, hi] (modulo the range: a bias below 2^-50 for ranges this program uses).
  int32_t between(int32_t lo, int32_t hi) { return lo + int32_t(next() % uint64_t(int64_t(hi) - lo + 1)); }
};

struct RandomGraphSpec {
  int64_t vertices = 0;
  int64_t edges = -1;  ///< expected edge count; -1: 5 V (apsp_gen's default)
  uint64_t seed = 1;
  int32_t min_weight = 0, max_weight = 1000;

  /// The expected edge count (5 V when not given).
  int64_t expected_edges() const { return edges >= 0 ? edges : 5 * vertices; }
  /// The probability of each ordered pair, in [0, 1].
  double probability() const;
  /// "V=40000 E~200000 seed=1 weights 0..1000".
  std::string describe() const;
};

/// Parses --generate's "V[,E[,SEED]]"; throws std::invalid_argument with a one-line reason for
/// anything else, V outside [1, 2^31 - 1], E outside [0, V (V - 1)] or above 2^31 - 1 (what
/// the file format can hold). Weights stay 0..1000, lowered where V is so large that the bound
/// (V - 1) max_w < 2^30 - 1 needs it, so that a generated graph always obeys the format's rules.
RandomGraphSpec parse_random_graph_spec(const std::string& text);

/// Appends the edges out of vertex `row` to `out` as (src, dst, w) triples, in increasing dst.
void append_random_row(const RandomGraphSpec& spec, int64_t row, std::vector<int32_t>& out);

}  // namespace apsp
