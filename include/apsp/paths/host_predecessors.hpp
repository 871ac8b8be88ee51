// SPDX-License-Identifier: BSD-3-Clause
// The predecessor search of a host backend: the rule of predecessor_search.hpp (fewest edges
// among the shortest paths, then the smallest last tail), found from the heads' side.
//
// The BFS from each source (the GPU's search) walks the tight edges in the order it reaches
// vertices: on a CPU each step waits for the last (the next vertex, its edge list, the distance
// of each head) and most of its branches are guesses; measured at V = 2500 on two threads it took
// longer than the distance solve. Here each vertex j's edges in are tested in vertex order, a
// pass that streams through memory: the tight ones (d(s, u) + w(u, j) = d(s, j)) are the last
// edges of the shortest paths to j. A thread takes 16 sources at a time, their distances laid
// out by vertex (16 to a cache line), so that testing an edge for all 16 is one contiguous load,
// an add and a compare (one source at a time, the load of d(s, u) was a gather, and that pass
// most of the search). Where one edge in is tight, its tail is the predecessor. Where several
// are, the rule needs each tail's fewest edges h(s, u): h(s, x) = 1 + h(s, p(s, x)), found for
// the tails only, each once, by a walk back that stops at the first vertex known. That walk ends
// unless tight edges form a cycle (all of weight 0, tight both ways): a walk that comes back to a
// vertex on it searches that source again by BFS, as the GPU does.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <vector>

#include "apsp/core/constants.hpp"
#include "apsp/paths/head_rows.hpp"

namespace apsp::Impl {

/// The search from s by BFS over the tight edges (where a cycle of them has weight 0): one queue,
/// which holds the levels in turn, so a head is first met from its own level - 1 and the tails
/// met after it may only lower its entry; one thread's scratch (2 V).
class BreadthFirstSearch {
 public:
  BreadthFirstSearch(const int64_t* offsets, const int32_t* heads, const int32_t* weights, int64_t vertices,
                     const int32_t* original)
      : offsets_(offsets),
        heads_(heads),
        weights_(weights),
        original_(original),
        level_(size_t(vertices)),
        queue_(size_t(vertices)) {}

  void run(int32_t s, const int32_t* dist, int32_t* p, int64_t n) {
    std::fill(p, p + n, -1);
    std::fill(level_.begin(), level_.end(), kUnreached);
    level_[size_t(s)] = 0;
    queue_[0] = s;
    for (size_t head = 0, tail = 1; head < tail; ++head) {
      const int32_t u = queue_[head], next_level = level_[size_t(u)] + 1;
      const int32_t tail_number = file_number(original_, u);
      for (int64_t e = offsets_[u]; e < offsets_[u + 1]; ++e) {
        const int32_t j = heads_[e];
        if (!tight_edge(dist[u], weights_[e], dist[j])) continue;
        if (level_[size_t(j)] == kUnreached) {
          level_[size_t(j)] = next_level;
          queue_[tail++] = j;
          p[j] = tail_number;
        } else if (level_[size_t(j)] == next_level && tail_number < p[j]) {
          p[j] = tail_number;
        }
      }
    }
  }

 private:
  static constexpr int32_t kUnreached = -1;
  const int64_t* offsets_;
  const int32_t *heads_, *weights_;
  const int32_t* original_;
  std::vector<int32_t> level_, queue_;
};

/// Sources searched together by one thread (HeadSideSearch): the lanes of its first pass.
inline constexpr int kSourceLanes = 16;

/// The predecessor rows of up to kSourceLanes sources from the edges by head; one thread's
/// scratch (16 V entries four times: the sources' distances, tails and h by vertex, and their h
/// by source; V more, and the BFS's 2 V).
class HeadSideSearch {
 public:
  /// `in`: the shortest edges by head; offsets, heads, weights: the same by tail, for the BFS.
  HeadSideSearch(const HeadRows& in, const int64_t* offsets, const int32_t* heads, const int32_t* weights,
                 int64_t vertices, const int32_t* original)
      : in_(in),
        vertices_(vertices),
        original_(original),
        by_vertex_dist_(size_t(vertices * kSourceLanes)),
        by_vertex_tail_(size_t(vertices * kSourceLanes)),
        by_vertex_hops_(size_t(vertices * kSourceLanes)),
        by_source_hops_(size_t(vertices * kSourceLanes)),
        walk_(size_t(vertices)),
        bfs_(offsets, heads, weights, vertices, original) {}

  /// Rows [0, lanes) of p (row r at p + r ld: entries [0, ld), file numbers, -1 for none) = the
  /// predecessors from sources first + r, given their distances, the rows of d (the same ld).
  /// The first pass runs on the 16 sources by vertex; the walks, which follow one source's
  /// tails, on its own rows (the tails in p's row until they become file numbers).
  void run(int32_t first, int lanes, const int32_t* d, int32_t* p, int64_t ld) {
    const int64_t v = vertices_;
    for_each_piece(kSourceLanes, [&](int l, int64_t j0, int64_t j1) {  // unused lanes: unreachable
      for (int64_t j = j0; j < j1; ++j)
        by_vertex_dist_[size_t(j * kSourceLanes + l)] = l < lanes ? d[l * ld + j] : kInf;
    });
    const uint32_t tied = first_pass(first);
    for_each_piece(lanes, [&](int l, int64_t j0, int64_t j1) {
      for (int64_t j = j0; j < j1; ++j) p[l * ld + j] = by_vertex_tail_[size_t(j * kSourceLanes + l)];
    });
    if (tied != 0) {
      for_each_piece(lanes, [&](int l, int64_t j0, int64_t j1) {
        for (int64_t j = j0; j < j1; ++j)
          by_source_hops_[size_t(l * v + j)] = by_vertex_hops_[size_t(j * kSourceLanes + l)];
      });
    }
    for (int l = 0; l < lanes; ++l) {
      int32_t* const row = p + l * ld;
      if ((tied >> l & 1U) != 0 && !settle_ties(first + l, d + l * ld, row, by_source_hops_.data() + l * v)) {
        ++cycles_;
        bfs_.run(first + l, d + l * ld, row, ld);  // the rule by levels, whatever the cycles
        continue;
      }
      if (original_ != nullptr)
        for (int64_t j = 0; j < v; ++j) row[j] = row[j] >= 0 ? original_[row[j]] : -1;
      std::fill(row + v, row + ld, -1);
    }
  }

  /// Sources searched by BFS because of a cycle of tight edges of weight 0.
  int64_t cycles() const { return cycles_; }

 private:
  static constexpr int32_t kUnknown = -1;  // hops: one tight edge in, h(s, j) not needed yet
  static constexpr int32_t kTied = -2;     // hops: several tight edges in, the predecessor open
  static constexpr int32_t kNone = -3;     // hops: j = s or unreachable

  /// f(l, j0, j1) for each lane l < lanes and each piece [j0, j1) of 16 vertices, piece by
  /// piece: a 16 x 16 piece of a by-vertex array and of 16 rows stay in L1 while it turns.
  template <class F>
  void for_each_piece(int lanes, F f) const {
    for (int64_t j0 = 0; j0 < vertices_; j0 += kSourceLanes)
      for (int l = 0; l < lanes; ++l) f(l, j0, std::min(vertices_, j0 + kSourceLanes));
  }

  /// Each vertex's edges in tested for the 16 sources at once (Lanes: the compiler's vector of 16
  /// lanes, one zmm register or two ymm or four xmm or NEON registers), each edge one contiguous
  /// load of its tail's 16 distances, an add and a compare; the tight ones counted and their tails
  /// summed (where one is tight, the sum is its tail). Unsigned: INF + w neither wraps nor
  /// overflows. Bit l of the result: source l has a vertex with several.
  uint32_t first_pass(int32_t first) {
    using Lanes = uint32_t __attribute__((vector_size(kSourceLanes * sizeof(uint32_t))));
    const auto* __restrict dist = reinterpret_cast<const uint32_t*>(by_vertex_dist_.data());  // NOLINT: same bits
    auto* __restrict tail = reinterpret_cast<uint32_t*>(by_vertex_tail_.data());              // NOLINT
    auto* __restrict hops = reinterpret_cast<uint32_t*>(by_vertex_hops_.data());              // NOLINT
    const int64_t* __restrict offsets = in_.offsets.data();
    const int32_t* __restrict tails = in_.tails.data();
    const int32_t* __restrict weights = in_.weights.data();
    // Broadcasts as zero + x: cudafe++ (CUDA 13.0) crashes on `Lanes v = Lanes{} + x`.
    const Lanes zero{};
    const Lanes inf = zero + uint32_t(kInf), one = zero + 1U, none = zero + uint32_t(kNone),
                unknown = zero + uint32_t(kUnknown), tied = zero + uint32_t(kTied);
    Lanes source = zero, several = zero;
    for (int l = 0; l < kSourceLanes; ++l) source[l] = uint32_t(first + l);
    for (int64_t j = 0; j < vertices_; ++j) {
      Lanes dj, tight{}, tail_sum{};
      std::memcpy(&dj, dist + j * kSourceLanes, sizeof dj);
      for (int64_t e = offsets[j]; e < offsets[j + 1]; ++e) {
        const auto u = uint32_t(tails[e]);
        Lanes du;
        std::memcpy(&du, dist + int64_t(u) * kSourceLanes, sizeof du);
        const auto is_tight = Lanes(du + uint32_t(weights[e]) == dj);  // all ones or zero
        tight -= is_tight;
        tail_sum += is_tight & u;
      }
      // Tight edges into s close cycles of weight 0; an unreachable head has no predecessor.
      const Lanes count = tight & Lanes((source != uint32_t(j)) & (dj < inf));
      const auto just_one = Lanes(count == one), no_edge = Lanes(count == zero);
      const Lanes tails_of = (tail_sum & just_one) | ~just_one;  // -1 where not exactly one
      const Lanes hops_of = (none & no_edge) | (unknown & just_one) | (tied & ~(no_edge | just_one));
      several |= Lanes(count > one);
      std::memcpy(tail + j * kSourceLanes, &tails_of, sizeof tails_of);
      std::memcpy(hops + j * kSourceLanes, &hops_of, sizeof hops_of);
    }
    uint32_t lanes = 0;
    for (int l = 0; l < kSourceLanes; ++l) lanes |= (several[l] & 1U) << l;
    return lanes;
  }

  /// Source s's tied vertices settled, each by a walk back, given its distances, tails (-1 where
  /// tied or none) and h. False: a walk met a cycle of tight edges of weight 0.
  bool settle_ties(int32_t s, const int32_t* dist, int32_t* tail, int32_t* hops) {
    dist_ = dist;
    tail_ = tail;
    hops_ = hops;
    hops[s] = 0;
    for (int64_t j = 0; j < vertices_; ++j)
      if (hops[j] == kTied && !hops_of(int32_t(j))) return false;
    return true;
  }

  /// h(s, x), and the predecessors of the tied vertices it needs: a walk back along the known
  /// tails (one tight edge) or the first tail not known yet (several), then forward again.
  /// False: the walk would pass V vertices, so it came back to one on it (a cycle of tight edges
  /// of weight 0; rare, and cheaper to meet late than a flag per vertex visited, kept and
  /// cleared, on every walk).
  bool hops_of(int32_t x) {
    int32_t* const hops = hops_;
    const int32_t* const tail = tail_;
    int32_t* const walk = walk_.data();
    int64_t depth = 0;
    walk[depth++] = x;
    while (depth > 0) {
      const int32_t y = walk[depth - 1];
      const int32_t wait_for = hops[y] == kTied ? settle_tied(y) : tail[y];
      if (wait_for >= 0 && hops[wait_for] < 0) {
        if (depth == vertices_) return false;
        walk[depth++] = wait_for;
        continue;
      }
      if (hops[y] == kUnknown) hops[y] = hops[wait_for] + 1;
      --depth;
    }
    return true;
  }

  /// y with several tight edges in: a tail whose h is not known yet, or (all known) -1 with
  /// y's tail and h set: the tails of fewest edges, the smallest number among them.
  int32_t settle_tied(int32_t y) {
    const int32_t dy = dist_[y];
    int32_t fewest = INT32_MAX, best = -1, best_number = INT32_MAX;
    for (int64_t e = in_.offsets[size_t(y)]; e < in_.offsets[size_t(y) + 1]; ++e) {
      const int32_t u = in_.tails[size_t(e)];
      if (!tight_edge(dist_[u], in_.weights[size_t(e)], dy)) continue;
      const int32_t h = hops_[u];
      if (h < 0) return u;  // a tight tail is reachable, so never kNone
      const int32_t number = file_number(original_, u);
      if (h < fewest || (h == fewest && number < best_number)) {
        fewest = h;
        best = u;
        best_number = number;
      }
    }
    tail_[y] = best;
    hops_[y] = fewest + 1;
    return -1;
  }

  const HeadRows& in_;
  int64_t vertices_;
  const int32_t* original_;
  // The 16 sources' distances, tails and h, entry j 16 + l for vertex j and source l (the first
  // pass); then their h by source, entry l V + j (the walks).
  std::vector<int32_t> by_vertex_dist_, by_vertex_tail_, by_vertex_hops_, by_source_hops_;
  std::vector<int32_t> walk_;
  const int32_t* dist_ = nullptr;  // the walks' source: its distances, tails (its row of p) and h
  int32_t *tail_ = nullptr, *hops_ = nullptr;
  BreadthFirstSearch bfs_;
  int64_t cycles_ = 0;
};

}  // namespace apsp::Impl
