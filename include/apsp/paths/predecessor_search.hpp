// SPDX-License-Identifier: BSD-3-Clause
// The predecessors of the solved distances (--predecessors): found after the distance solve,
// which runs the same kernels as without the option, so the distances are byte-identical and
// the paths cost a search over a few edges per vertex instead of a solve on wider keys.
//
// The tie rule: among the shortest paths from s to j, the one with the fewest edges; among
// those, the one whose last edge leaves the smallest vertex. Its predecessor's own path has one
// edge fewer, so following predecessors always ends at s, also through zero-weight cycles (a rule
// on the predecessor alone can loop there: a -> b -> a at weight 0). The diagonal and unreachable
// pairs have none (-1).
//
// The search, per source s: the edges u -> j with d(s, u) + w(u, j) = d(s, j) ("tight" for s)
// are exactly those that shortest paths from s use, so a breadth-first search from s over them
// reaches j first at level h(s, j), the fewest edges of a shortest path, and the tight edges into
// j from level h(s, j) - 1 are the last edges of those paths: the smallest of their tails is the
// predecessor. The search walks only the edges that are shortest paths themselves
// (edge_rows.hpp: the others are never tight). Every order of the threads gives the same file:
// the levels are the BFS's, and the predecessor is a minimum (an atomic min) over one level.
//
// On a GPU one team of 128 threads searches one source at a time: levels in turn (team
// barriers), the frontier's vertices split over the team's threads. A host backend's thread
// finds the same predecessors from the heads' side, 16 sources at a time (host_predecessors.hpp).
//
// Under another numbering of the vertices (--order, graph/vertex_order.hpp) the search runs in
// the solve's numbering and writes each predecessor as its number in the file (`original`), so
// that "the smallest vertex" is the file's, as without it; the rows and columns are brought back
// with the distances'.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>

#include "apsp/backends/backend_runtime.hpp"
#include "apsp/core/sizes.hpp"
#include "apsp/paths/edge_rows.hpp"
#include "apsp/paths/host_predecessors.hpp"
#include "apsp/solver/distance_matrix.hpp"

namespace apsp {

namespace Impl {

template <class ExecSpace>
struct PredecessorSearch {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  static constexpr int32_t kUnreached = -1;       // a vertex's level before the search reaches it
  static constexpr int32_t kNoneYet = INT32_MAX;  // a predecessor entry before its first candidate

  const int32_t* d;  // the solved rows held
  int32_t* pred;     // the same rows of the predecessor matrix
  int64_t n, first_row, rows, vertices;
  const int64_t* offsets;  // the shortest edges of the whole graph, by tail
  const int32_t *heads, *weights;
  int32_t* work;                      // per team: the level of each vertex, and two frontiers (3 V)
  const int32_t* original = nullptr;  // each vertex's number in the file, or null: the same

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    int32_t* level = work + 3 * vertices * team.league_rank();
    int32_t* frontier[2] = {level + vertices, level + 2 * vertices};
    auto* count = static_cast<int32_t*>(team.team_shmem().get_shmem(2 * sizeof(int32_t)));
    for (int64_t r = team.league_rank(); r < rows; r += team.league_size()) search(team, r, level, frontier, count);
  }

  KOKKOS_INLINE_FUNCTION void search(const Member& team, int64_t r, int32_t* level, int32_t* const* frontier,
                                     int32_t* count) const {
    const auto s = int32_t(first_row + r);
    const int32_t* dist = d + r * n;
    int32_t* p = pred + r * n;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int64_t j) {
      p[j] = kNoneYet;
      if (j < vertices) level[j] = kUnreached;
    });
    team.team_barrier();
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      level[s] = 0;
      frontier[0][0] = s;
      count[0] = 1;
    });
    team.team_barrier();
    int cur = 0;
    for (int32_t next_level = 1;; ++next_level, cur ^= 1) {
      const int32_t size = count[cur];  // read by every thread before anyone changes it again
      if (size == 0) break;
      Kokkos::single(Kokkos::PerTeam(team), [&]() { count[cur ^ 1] = 0; });
      team.team_barrier();
      const int32_t* from = frontier[cur];
      int32_t* to = frontier[cur ^ 1];
      int32_t* to_count = count + (cur ^ 1);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, size), [&](const int32_t f) {
        const int32_t u = from[f], du = dist[u];
        for (int64_t e = offsets[u]; e < offsets[u + 1]; ++e) {
          const int32_t j = heads[e];
          if (du + weights[e] != dist[j]) continue;  // not tight for s (du is finite: u was reached)
          const int32_t was = Kokkos::atomic_compare_exchange(&level[j], kUnreached, next_level);
          if (was == kUnreached) to[Kokkos::atomic_fetch_add(to_count, 1)] = j;
          if (was == kUnreached || was == next_level)
            Kokkos::atomic_fetch_min(&p[j], original != nullptr ? original[u] : u);
        }
      });
      team.team_barrier();
    }
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int64_t j) {
      if (p[j] == kNoneYet) p[j] = -1;
    });
    team.team_barrier();  // the levels are reset for the next source only after every thread is done
  }
};

/// Threads per team of the GPU's search: a few warps.
inline constexpr int kSearchTeamSize = 128;

/// Teams (a host backend: threads) searching at once: one per thread on a host backend; on a
/// GPU enough to fill it, few enough that their rows of the matrix stay in cache (on an H200,
/// twice and four times as many searched no faster, half as many 1.1-1.5x slower).
template <class ExecSpace>
int64_t search_teams(int64_t rows) {
  const int64_t threads = std::max(1, ExecSpace().concurrency());
  const int64_t teams =
      host_is_device<ExecSpace>() ? threads : std::max<int64_t>(1, threads / (2 * int64_t(kSearchTeamSize)));
  return std::max<int64_t>(1, std::min(rows, teams));
}

}  // namespace Impl

/// Memory the predecessors take beside the two matrices, for `rows` rows of V vertices whose
/// process holds `local_edges` of the graph's `edges`: the edges of the rows held (8 bytes an
/// edge, read before the solve), then those of them that are shortest paths and the whole
/// graph's (one process: the same; counted as if every edge were one, though on the graphs
/// measured they are far fewer), the row offsets, and the search's scratch.
template <class ExecSpace>
int64_t predecessor_search_bytes(int64_t vertices, int64_t rows, int64_t local_edges, int64_t edges) {
  edges = std::min(edges, size_mul(vertices, vertices));
  const int64_t edge_rows = size_add(size_mul(8, std::min(local_edges, edges)), size_mul(8, edges));
  // Per team: a level and two frontier entries a vertex. A host backend's thread: 16 sources'
  // distances, tails and h by vertex and their h by source (host_predecessors.hpp), a walk
  // entry and the BFS's level and queue entries; and once, the edges again by head (their
  // offsets and, while they are placed, a cursor a vertex).
  constexpr bool host = host_is_device<ExecSpace>();
  const int64_t per_vertex =
      host ? (4 * Impl::kSourceLanes + 3) * int64_t(sizeof(int32_t)) : 3 * int64_t(sizeof(int32_t));
  const int64_t search = size_mul(Impl::search_teams<ExecSpace>(rows), per_vertex, vertices);
  const int64_t by_head = host ? size_add(size_mul(8, edges), size_mul(16, vertices)) : 0;
  return size_add(size_add(size_add(edge_rows, size_mul(16, vertices)), search), by_head);
}

/// A host backend's search (host_predecessors.hpp): the sources taken 16 at a time by each
/// thread from a shared counter, each thread with its own scratch.
template <class ExecSpace>
void find_predecessors_on_host(const DistanceMatrix<ExecSpace>& d, int64_t rows, const EdgeRows<ExecSpace>& shortest,
                               const DistanceMatrix<ExecSpace>& pred, const int32_t* original) {
  const int64_t v = d.vertices;
  const Impl::HeadRows in =
      Impl::edges_by_head(v, shortest.offsets.data(), shortest.heads.data(), shortest.weights.data());
  const int64_t groups = (rows + Impl::kSourceLanes - 1) / Impl::kSourceLanes;
  int64_t taken = 0;
  Kokkos::parallel_for(
      "apsp::paths::search", Kokkos::RangePolicy<ExecSpace>(0, Impl::search_teams<ExecSpace>(groups)), [&](int64_t) {
        Impl::HeadSideSearch search(in, shortest.offsets.data(), shortest.heads.data(), shortest.weights.data(), v,
                                    original);
        for (int64_t r; (r = Kokkos::atomic_fetch_add(&taken, int64_t(Impl::kSourceLanes))) < rows;) {
          const int lanes = int(std::min<int64_t>(Impl::kSourceLanes, rows - r));
          search.run(int32_t(d.first_row + r), lanes, d.data.data() + r * d.n, pred.data.data() + r * d.n, d.n);
        }
      });
  ExecSpace().fence();
}

/// pred = the predecessors (the tie rule above) of the solved rows `d` holds (the first
/// `rows` of them, rows of real vertices), given the shortest edges of the whole graph;
/// `original` (where the solver runs, V entries; null: none): each vertex's number in the file.
template <class ExecSpace>
void find_predecessors(const DistanceMatrix<ExecSpace>& d, int64_t rows, const EdgeRows<ExecSpace>& shortest,
                       const DistanceMatrix<ExecSpace>& pred, const int32_t* original = nullptr) {
  if (rows <= 0) return;
  if constexpr (host_is_device<ExecSpace>()) {
    find_predecessors_on_host(d, rows, shortest, pred, original);
    return;
  }
  const int64_t teams = Impl::search_teams<ExecSpace>(rows);
  Kokkos::View<int32_t*, typename ExecSpace::memory_space> work(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::paths::search_work"), size_t(teams * 3 * d.vertices));
  Kokkos::TeamPolicy<ExecSpace> policy(teams, Impl::kSearchTeamSize);
  policy.set_scratch_size(0, Kokkos::PerTeam(2 * sizeof(int32_t)));
  Kokkos::parallel_for("apsp::paths::search", policy,
                       Impl::PredecessorSearch<ExecSpace>{d.data.data(), pred.data.data(), d.n, d.first_row, rows,
                                                          d.vertices, shortest.offsets.data(), shortest.heads.data(),
                                                          shortest.weights.data(), work.data(), original});
  ExecSpace().fence();
}

}  // namespace apsp
