// SPDX-License-Identifier: BSD-3-Clause
// Blocked Floyd-Warshall on one device, written once for every backend.
//
// Round k (one per block of B pivots) has three phases, each a TeamPolicy kernel whose teams
// stage their tiles in team scratch memory (shared memory on a GPU):
//   phase 1: the pivot tile (k, k), closed under its own B pivots;
//   phase 2: the tiles of pivot row k and pivot column k, relaxed through the pivot tile;
//   phase 3: every other tile (i, j) := min(D(i, j), D(i, k) (min,+) D(k, j)).
// Phase 3 does (nb - 1)^2 of the nb^2 tile updates per round and dominates the run; each
// thread keeps a kTileRows x kTileCols block of results in registers and streams the two
// staged operand tiles. What differs per backend (tile shape, team shape, the min-plus
// instruction) comes from BackendTraits in backends/.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "apsp/distance_matrix.hpp"
#include "backend_traits.hpp"

#if defined(__CUDA_ARCH__) || defined(__clang__) || defined(__NVCC__)
#define APSP_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define APSP_UNROLL _Pragma("GCC unroll 64")
#else
#define APSP_UNROLL
#endif

namespace apsp {

namespace Impl {

/// Tile operations shared by the three phase kernels. A team's threads take tile rows, its
/// vector lanes runs of kChunk contiguous int32 within a row.
template <class ExecSpace>
struct TileOps {
  using Traits = BackendTraits<ExecSpace>;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;

  /// One scratch allocation for a phase's `tiles` staged tiles; callers carve it up.
  KOKKOS_FORCEINLINE_FUNCTION static int32_t* scratch(const Member& team, int block, int pitch, int tiles) {
    return static_cast<int32_t*>(
        team.team_scratch(0).get_shmem_aligned(size_t(tiles) * block * pitch * sizeof(int32_t), 64));
  }

  /// tile(r, c) <- src[r * ld + c], rows over the team's threads, runs of kChunk contiguous
  /// int32 over its vector lanes. With `transpose`, tile(c, r) <- src[r * ld + c] instead, and
  /// the lanes take consecutive rows r, so that their scratch stores land in consecutive
  /// banks (lanes on consecutive columns would store kChunk * pitch apart: a bank conflict).
  KOKKOS_FORCEINLINE_FUNCTION static void load_tile(const Member& team, int32_t* tile, int pitch, const int32_t* src,
                                                    int64_t ld, int B, bool transpose) {
    constexpr int W = Traits::kChunk;
    if (transpose) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, B / W), [&](const int run) {
        const int c0 = run * W;
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, B), [&](const int r) {
          const int32_t* s = src + r * ld + c0;
          APSP_UNROLL
          for (int w = 0; w < W; ++w) tile[(c0 + w) * pitch + r] = s[w];
        });
      });
    } else {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, B), [&](const int r) {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, B / W), [&](const int run) {
          const int c0 = run * W;
          const int32_t* s = src + r * ld + c0;
          APSP_UNROLL
          for (int w = 0; w < W; ++w) tile[r * pitch + c0 + w] = s[w];
        });
      });
    }
  }

  KOKKOS_FORCEINLINE_FUNCTION static void store_tile(const Member& team, const int32_t* tile, int pitch, int32_t* dst,
                                                     int64_t ld, int B) {
    constexpr int W = Traits::kChunk;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, B), [&](const int r) {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, B / W), [&](const int run) {
        const int c0 = run * W;
        APSP_UNROLL
        for (int w = 0; w < W; ++w) dst[r * ld + c0 + w] = tile[r * pitch + c0 + w];
      });
    });
  }

  /// Phases 1 and 2 on a staged tile t: for each pivot p in turn,
  ///   t(r, c) = min(t(r, c), a(r, p) + b(p, c)),
  /// with a and b each either t itself or the staged pivot tile, and a barrier after each step.
  /// Row p and column p of t do not change in step p (the pivot's diagonal is 0), so the
  /// in-place update reads the same values whichever thread gets there first.
  KOKKOS_FORCEINLINE_FUNCTION static void relax_through_pivots(const Member& team, int32_t* t, const int32_t* a,
                                                               const int32_t* b, int pitch, int B) {
    constexpr int W = Traits::kChunk;
    for (int p = 0; p < B; ++p) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, B), [&](const int r) {
        const int32_t av = a[r * pitch + p];
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, B / W), [&](const int run) {
          const int c0 = run * W;
          int32_t v[W];
          APSP_UNROLL
          for (int w = 0; w < W; ++w) v[w] = Traits::min_plus(t[r * pitch + c0 + w], av, b[p * pitch + c0 + w]);
          APSP_UNROLL
          for (int w = 0; w < W; ++w) t[r * pitch + c0 + w] = v[w];
        });
      });
      team.team_barrier();
    }
  }

  /// Phase 3's inner kernel: the thread tile at (r0, c0) of C, kept in registers while the
  /// B pivots stream through: C(r, c) = min over p of (C(r, c), At(p, r) + Bk(p, c)).
  KOKKOS_FORCEINLINE_FUNCTION static void relax_thread_tile(int32_t* c, int64_t ld, const int32_t* at,
                                                            const int32_t* bk, int pitch, int B, int r0, int c0) {
    constexpr int R = Traits::kTileRows, C = Traits::kTileCols;
    // Every row segment below starts on a 16-byte boundary (R and C are multiples of 4, rows
    // of the matrix and of the scratch tiles are multiples of 16 bytes), which lets the
    // compiler use 16-byte loads and stores (LDS.128 / LDG.128 on a GPU).
    static_assert(R % 4 == 0 && C % 4 == 0, "thread tiles are made of 16-byte row segments");
    int32_t acc[R][C];
    APSP_UNROLL
    for (int i = 0; i < R; ++i) {
      const int32_t* row = aligned16(c + (r0 + i) * ld + c0);
      APSP_UNROLL
      for (int j = 0; j < C; ++j) acc[i][j] = row[j];
    }
    for (int p = 0; p < B; ++p) {
      const int32_t* a = aligned16(at + p * pitch + r0);
      const int32_t* b = aligned16(bk + p * pitch + c0);
      int32_t av[R], bv[C];
      APSP_UNROLL
      for (int i = 0; i < R; ++i) av[i] = a[i];
      APSP_UNROLL
      for (int j = 0; j < C; ++j) bv[j] = b[j];
      APSP_UNROLL
      for (int i = 0; i < R; ++i) {
        APSP_UNROLL
        for (int j = 0; j < C; ++j) acc[i][j] = Traits::min_plus(acc[i][j], av[i], bv[j]);
      }
    }
    APSP_UNROLL
    for (int i = 0; i < R; ++i) {
      int32_t* row = aligned16(c + (r0 + i) * ld + c0);
      APSP_UNROLL
      for (int j = 0; j < C; ++j) row[j] = acc[i][j];
    }
  }

  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION static T* aligned16(T* p) {
    return static_cast<T*>(__builtin_assume_aligned(p, 16));
  }
};

/// Phase 1: Floyd-Warshall on the pivot tile, one team.
template <class ExecSpace>
struct PivotTileKernel {
  using Ops = TileOps<ExecSpace>;
  int32_t* tile;  ///< the pivot tile (k, k), leading dimension n
  int64_t n;
  int B, pitch;
  KOKKOS_INLINE_FUNCTION void operator()(const typename Ops::Member& team) const {
    int32_t* t = Ops::scratch(team, B, pitch, 1);
    Ops::load_tile(team, t, pitch, tile, n, B, false);
    team.team_barrier();
    Ops::relax_through_pivots(team, t, t, t, pitch, B);
    Ops::store_tile(team, t, pitch, tile, n, B);
  }
};

/// Phase 2, one team per tile: the pivot row's tiles (k, j) (when `row_part`) and the pivot
/// column's tiles (i, k) of the tile rows held in `rows` (when `column_part`).
template <class ExecSpace>
struct PivotRowColumnKernel {
  using Ops = TileOps<ExecSpace>;
  int32_t* rows;         ///< the tile rows held here (all of them on one device), ld n
  const int32_t* pivot;  ///< the pivot tile (k, k), ld n: in `rows` or in a received pivot row
  int64_t n;
  int B, pitch, k, nb;
  int row_tiles;  ///< tile rows in `rows`
  int k_local;    ///< tile row of the pivot block within `rows`, or -1
  bool row_part, column_part;
  KOKKOS_INLINE_FUNCTION int row_teams() const { return row_part ? nb - 1 : 0; }
  KOKKOS_INLINE_FUNCTION int column_teams() const { return column_part ? row_tiles - (k_local >= 0) : 0; }
  KOKKOS_INLINE_FUNCTION void operator()(const typename Ops::Member& team) const {
    const int id = team.league_rank();
    const bool in_row = id < row_teams();        // tile (k, j) of the pivot row, else (i, k)
    int other = in_row ? id : id - row_teams();  // skip the pivot tile itself:
    if (in_row)
      other += other >= k;  // column k of the pivot row
    else if (k_local >= 0)
      other += other >= k_local;  // tile row k of the rows held
    int32_t* origin =
        in_row ? rows + int64_t(k_local) * B * n + int64_t(other) * B : rows + int64_t(other) * B * n + int64_t(k) * B;
    int32_t* p_tile = Ops::scratch(team, B, pitch, 2);
    int32_t* t = p_tile + B * pitch;
    Ops::load_tile(team, p_tile, pitch, pivot, n, B, false);
    Ops::load_tile(team, t, pitch, origin, n, B, false);
    team.team_barrier();
    // Row tile:    T(r, c) = min(T(r, c), P(r, p) + T(p, c)).
    // Column tile: T(r, c) = min(T(r, c), T(r, p) + P(p, c)).
    Ops::relax_through_pivots(team, t, in_row ? p_tile : t, in_row ? t : p_tile, pitch, B);
    Ops::store_tile(team, t, pitch, origin, n, B);
  }
};

/// Phase 3, one team per tile (i, j) of the tile rows in `rows`, off the pivot row and column:
/// D(i, j) = min(D(i, j), D(i, k) (min,+) D(k, j)), with D(k, j) from the pivot row block.
template <class ExecSpace>
struct RemainingTilesKernel {
  using Ops = TileOps<ExecSpace>;
  using Traits = typename Ops::Traits;
  int32_t* rows;             ///< the tile rows held here, ld n
  const int32_t* pivot_row;  ///< the pivot row block (B rows of n), ld n
  int64_t n;
  int B, pitch, k, nb;
  int k_local;  ///< tile row of the pivot block within `rows`, or -1
  KOKKOS_INLINE_FUNCTION void operator()(const typename Ops::Member& team) const {
    constexpr int R = Traits::kTileRows, C = Traits::kTileCols;
    int bi = team.league_rank() / (nb - 1), bj = team.league_rank() % (nb - 1);
    bi += k_local >= 0 && bi >= k_local;
    bj += bj >= k;
    // A = D(bi, k) staged transposed (column p of A is a contiguous row of `at`), so that a
    // thread's kTileRows operands are one contiguous load, like its B operands.
    int32_t* at = Ops::scratch(team, B, pitch, 2);
    int32_t* bk = at + B * pitch;
    Ops::load_tile(team, at, pitch, rows + int64_t(bi) * B * n + int64_t(k) * B, n, B, true);
    Ops::load_tile(team, bk, pitch, pivot_row + int64_t(bj) * B, n, B, false);
    team.team_barrier();
    int32_t* c = rows + int64_t(bi) * B * n + int64_t(bj) * B;
    const int per_row = B / C;
    Kokkos::parallel_for(Kokkos::TeamVectorRange(team, (B / R) * per_row), [&](const int tt) {
      Ops::relax_thread_tile(c, n, at, bk, pitch, B, (tt / per_row) * R, (tt % per_row) * C);
    });
  }
};

}  // namespace Impl

template <class ExecSpace>
class BlockedFloydWarshall {
 public:
  using Traits = BackendTraits<ExecSpace>;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Matrix = DistanceMatrix<ExecSpace>;

  /// Seconds spent in each phase, summed over the rounds (measured with a fence after each
  /// phase, so only when asked for).
  struct PhaseSeconds {
    double phase[3] = {0, 0, 0};
  };

  /// Runs every round. Returns after a fence.
  static void solve(const Matrix& d) {
    solve(d, nullptr, [](int, int) {});
  }

  /// Runs every round; `phases` (may be null) receives per-phase times; `after_round(done,
  /// rounds)` is called once each round's kernels are enqueued (it may fence to watch progress).
  template <class AfterRound>
  static void solve(const Matrix& d, PhaseSeconds* phases, AfterRound&& after_round) {
    const int rounds = d.blocks();
    for (int k = 0; k < rounds; ++k) {
      if (phases == nullptr) {
        round(d, k);
      } else {
        timed(phases->phase[0], [&] { phase1(d, k); });
        timed(phases->phase[1], [&] { phase2(d, k); });
        timed(phases->phase[2], [&] { phase3(d, k); });
      }
      after_round(k + 1, rounds);
    }
    ExecSpace().fence();
  }

  /// One round: the three phases for pivot block k, enqueued in order.
  static void round(const Matrix& d, int k) {
    phase1(d, k);
    phase2(d, k);
    phase3(d, k);
  }

  /// The tile rows one process holds, for a round k: `rows` (row_tiles tile rows of n
  /// int32, from global tile row first_tile) and the pivot row block of round k, which lies in
  /// `rows` when this process holds tile row k and is a received copy otherwise. On one device
  /// the block is the whole matrix.
  struct RowBlock {
    int32_t* rows;
    int first_tile, row_tiles;
    int64_t n;
    int block;
    int k_local(int k) const { return k >= first_tile && k < first_tile + row_tiles ? k - first_tile : -1; }
  };
  /// The rows `d` holds (the whole matrix on one device).
  static RowBlock whole(const Matrix& d) {
    return RowBlock{d.data.data(), int(d.first_row / d.block), int(d.rows / d.block), d.n, d.block};
  }

  static void phase1(const Matrix& d, int k) { phase1(whole(d), k); }
  static void phase2(const Matrix& d, int k) {
    const auto rb = whole(d);
    phase2(rb, k, rb.rows + int64_t(k) * rb.block * rb.n, true, true);
  }
  static void phase3(const Matrix& d, int k) {
    const auto rb = whole(d);
    phase3(rb, k, rb.rows + int64_t(k) * rb.block * rb.n);
  }

  /// Phase 1 on the process that holds tile row k. The RowBlock phases run on `exec`.
  static void phase1(const RowBlock& rb, int k, const ExecSpace& exec = ExecSpace()) {
    const int B = rb.block;
    Kokkos::parallel_for("apsp::phase1_pivot", policy(exec, 1, B, 1),
                         Impl::PivotTileKernel<ExecSpace>{rb.rows + int64_t(rb.k_local(k)) * B * rb.n + int64_t(k) * B,
                                                          rb.n, B, pitch(B)});
  }

  /// Phase 2: the pivot row's tiles (`row_part`, only where tile row k is held) and the pivot
  /// column's tiles of the rows held (`column_part`), through the pivot tile of `pivot_row`.
  static void phase2(const RowBlock& rb, int k, const int32_t* pivot_row, bool row_part, bool column_part,
                     const ExecSpace& exec = ExecSpace()) {
    const int B = rb.block, nb = int(rb.n / B);
    Impl::PivotRowColumnKernel<ExecSpace> kernel{rb.rows,
                                                 pivot_row + int64_t(k) * B,
                                                 rb.n,
                                                 B,
                                                 pitch(B),
                                                 k,
                                                 nb,
                                                 rb.row_tiles,
                                                 rb.k_local(k),
                                                 row_part && rb.k_local(k) >= 0 && nb > 1,
                                                 column_part};
    const int league = kernel.row_teams() + kernel.column_teams();
    if (league > 0) Kokkos::parallel_for("apsp::phase2_pivot_row_col", policy(exec, league, B, 2), kernel);
  }

  /// Phase 3 on the rows held, with the pivot row block `pivot_row` (ld n).
  static void phase3(const RowBlock& rb, int k, const int32_t* pivot_row, const ExecSpace& exec = ExecSpace()) {
    const int B = rb.block, nb = int(rb.n / B);
    const int k_local = rb.k_local(k), row_tiles = rb.row_tiles - (k_local >= 0);
    if (nb < 2 || row_tiles < 1) return;
    Kokkos::parallel_for("apsp::phase3_remaining", policy(exec, row_tiles * (nb - 1), B, 2),
                         Impl::RemainingTilesKernel<ExecSpace>{rb.rows, pivot_row, rb.n, B, pitch(B), k, nb, k_local});
  }

  /// Throws std::invalid_argument unless `block` suits the backend's thread-tile shape and
  /// its two staged tiles fit the team scratch memory of this device.
  static void check_block_size(int block) {
    using T = Traits;
    const std::string rule = "it must be a multiple of " + std::to_string(T::kTileRows) + ", " +
                             std::to_string(T::kTileCols) + " and " + std::to_string(T::kChunk);
    if (block <= 0 || block % T::kTileRows != 0 || block % T::kTileCols != 0 || block % T::kChunk != 0)
      throw std::invalid_argument("block size " + std::to_string(block) + " is not supported by the " +
                                  ExecSpace::name() + " backend: " + rule);
    // A GPU's shared memory is a hard limit; host backends allocate scratch as needed
    // (Kokkos 3.4's OpenMP reports 32 KiB here yet serves more).
    constexpr bool on_host =
        Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
    const size_t need = scratch_bytes(block, 2), have = Policy::scratch_size_max(0);
    if (!on_host && need > have)
      throw std::invalid_argument("block size " + std::to_string(block) + " needs " + std::to_string(need) +
                                  " bytes of team scratch on the " + ExecSpace::name() + " backend, which has " +
                                  std::to_string(have));
  }

  /// Bytes of team scratch a phase with `tiles` staged tiles needs (+ 64 for alignment).
  static size_t scratch_bytes(int block, int tiles) {
    return size_t(tiles) * block * pitch(block) * sizeof(int32_t) + 64;
  }

 private:
  static int pitch(int block) { return block + Traits::kScratchPad; }

  template <class F>
  static void timed(double& total, F&& f) {
    Kokkos::Timer timer;
    f();
    ExecSpace().fence();
    total += timer.seconds();
  }

  static Policy policy(const ExecSpace& exec, int league, int block, int staged_tiles) {
    return Policy(exec, league, Traits::team_size(block), Traits::vector_length(block))
        .set_scratch_size(0, Kokkos::PerTeam(scratch_bytes(block, staged_tiles)));
  }
};

}  // namespace apsp
