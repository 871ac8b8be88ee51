// SPDX-License-Identifier: BSD-3-Clause
// The predecessor search of a host backend: the rule of predecessor_search.hpp (fewest edges
// among the shortest paths, then the smallest last tail), found from the heads' side.
//
// The BFS from each source (the GPU's search) walks the tight edges in the order it reaches
// vertices: on a CPU each step waits for the last (the next vertex, its edge list, the distance
// of each head) and most of its branches are guesses; measured at V = 2500 on two threads it took
// longer than the distance solve. Here, per source s, each vertex j's edges in are tested in
// vertex order, a pass that streams through memory: the tight ones (d(s, u) + w(u, j) = d(s, j))
// are the last edges of the shortest paths to j. Where one is tight, its tail is the predecessor.
// Where several are, the rule needs each tail's fewest edges h(s, u): h(s, x) = 1 + h(s, p(s, x)),
// found for the tails only, each once, by a walk back that stops at the first vertex known.
// That walk ends unless tight edges form a cycle (all of weight 0, tight both ways): a walk that
// comes back to a vertex on it searches that source again by BFS, as the GPU does.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
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

/// One source's row of predecessors from the edges by head; one thread's scratch (V each).
class HeadSideSearch {
 public:
  /// `in`: the shortest edges by head; offsets, heads, weights: the same by tail, for the BFS.
  HeadSideSearch(const HeadRows& in, const int64_t* offsets, const int32_t* heads, const int32_t* weights,
                 int64_t vertices, const int32_t* original)
      : in_(in),
        vertices_(vertices),
        original_(original),
        tail_(size_t(vertices)),
        hops_(size_t(vertices)),
        walk_(size_t(vertices)),
        bfs_(offsets, heads, weights, vertices, original) {}

  /// p[0, n) = the predecessors from s (file numbers; -1: none), given s's distances `dist`.
  void run(int32_t s, const int32_t* dist, int32_t* p, int64_t n) {
    dist_ = dist;
    p_ = p;
    const bool tied = first_pass(s);
    for (int64_t j = vertices_; j < n; ++j) p[j] = -1;
    hops_[size_t(s)] = 0;
    if (!tied) return;
    const int32_t* const hops = hops_.data();
    for (int64_t j = 0; j < vertices_; ++j) {
      if (hops[j] == kTied && !hops_of(int32_t(j))) {
        ++cycles_;
        bfs_.run(s, dist, p, n);  // the rule by levels, whatever the cycles
        return;
      }
    }
  }

  /// Sources searched by BFS because of a cycle of tight edges of weight 0.
  int64_t cycles() const { return cycles_; }

 private:
  static constexpr int32_t kUnknown = -1;  // hops_: one tight edge in, h(s, j) not needed yet
  static constexpr int32_t kTied = -2;     // hops_: several tight edges in, the predecessor open
  static constexpr int32_t kNone = -3;     // hops_: j = s or unreachable

  /// Each vertex's edges in tested; the predecessor written where one is tight. True: some
  /// vertex has several. The tight edges are counted and their tails summed (where one is
  /// tight, the sum is its tail): with a gather 16 heads at a time (HeadRows' blocks), else one
  /// head's edges at a time, in a loop the compiler vectorizes. At V = 2500 (random, 9 shortest
  /// edges in per vertex) the loop over one head's edges spent its time entering and leaving.
  bool first_pass(int32_t s) {
    bool tied = false;
    const auto settle = [&](int64_t j, uint32_t tight, uint32_t tail_sum) {
      // Tight edges into s close cycles of weight 0; an unreachable head has no predecessor.
      const uint32_t count = j == s || dist_[j] >= kInf ? 0 : tight;
      tail_[size_t(j)] = count == 1 ? int32_t(tail_sum) : -1;
      p_[j] = count == 1 ? file_number(original_, int32_t(tail_sum)) : -1;
      hops_[size_t(j)] = count == 0 ? kNone : count == 1 ? kUnknown : kTied;
      tied = tied || count > 1;
    };
    if constexpr (host_simd::kHasGather) {
      const int64_t blocks = int64_t(in_.block_at.size()) - 1;
      for (int64_t b = 0; b < blocks; ++b) {
        const int lanes = int(std::min(kHeadLanes, vertices_ - b * kHeadLanes));
        const int32_t* heads = in_.block_heads.data() + b * kHeadLanes;
        const int64_t at = in_.block_at[size_t(b)] * kHeadLanes;
        uint32_t tight[kHeadLanes], tail_sum[kHeadLanes];
        host_simd::tight_edges_16(dist_, heads, lanes, in_.block_tails.data() + at, in_.block_weights.data() + at,
                                  in_.block_at[size_t(b) + 1] - in_.block_at[size_t(b)], tight, tail_sum);
        for (int l = 0; l < lanes; ++l) settle(heads[l], tight[l], tail_sum[l]);
      }
      return tied;
    }
    const int32_t* __restrict dist = dist_;
    const int64_t* __restrict offsets = in_.offsets.data();
    const int32_t* __restrict tails = in_.tails.data();
    const int32_t* __restrict weights = in_.weights.data();
    for (int64_t j = 0; j < vertices_; ++j) {
      const int32_t dj = dist[j];
      uint32_t tight = 0, tail_sum = 0;
      for (int64_t e = offsets[j]; e < offsets[j + 1]; ++e) {
        const auto u = uint32_t(tails[e]);
        const uint32_t is_tight = tight_edge(dist[u], weights[e], dj) ? 1 : 0;
        tight += is_tight;
        tail_sum += is_tight * u;
      }
      settle(j, tight, tail_sum);
    }
    return tied;
  }

  /// h(s, x), and the predecessors of the tied vertices it needs: a walk back along the known
  /// tails (one tight edge) or the first tail not known yet (several), then forward again.
  /// False: the walk would pass V vertices, so it came back to one on it (a cycle of tight edges
  /// of weight 0; rare, and cheaper to meet late than a flag per vertex visited, kept and
  /// cleared, on every walk).
  bool hops_of(int32_t x) {
    int32_t* const hops = hops_.data();
    const int32_t* const tail = tail_.data();
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
  /// y's predecessor and h set: the tails of fewest edges, the smallest number among them.
  int32_t settle_tied(int32_t y) {
    const int32_t dy = dist_[y];
    int32_t fewest = INT32_MAX, best = -1, best_number = INT32_MAX;
    for (int64_t e = in_.offsets[size_t(y)]; e < in_.offsets[size_t(y) + 1]; ++e) {
      const int32_t u = in_.tails[size_t(e)];
      if (!tight_edge(dist_[u], in_.weights[size_t(e)], dy)) continue;
      const int32_t h = hops_[size_t(u)];
      if (h < 0) return u;  // a tight tail is reachable, so never kNone
      const int32_t num = file_number(original_, u);
      if (h < fewest || (h == fewest && num < best_number)) {
        fewest = h;
        best = u;
        best_number = num;
      }
    }
    tail_[size_t(y)] = best;
    p_[y] = best_number;
    hops_[size_t(y)] = fewest + 1;
    return -1;
  }

  const HeadRows& in_;
  int64_t vertices_;
  const int32_t* original_;
  const int32_t* dist_ = nullptr;
  int32_t* p_ = nullptr;
  std::vector<int32_t> tail_, hops_, walk_;
  BreadthFirstSearch bfs_;
  int64_t cycles_ = 0;
};

}  // namespace apsp::Impl
