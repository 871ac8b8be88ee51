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

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "apsp/distance_matrix.hpp"
#include "backend_traits.hpp"

namespace apsp {

namespace Impl {

/// The block of results one thread owns: kTileRows x kTileCols entries of a B x B tile, made
/// of runs of kRowRun consecutive rows spaced B / (kTileRows / kRowRun) apart, and likewise of
/// kColRun consecutive columns. Spacing the runs lets the lanes of a warp read consecutive
/// 16-byte words of a staged row (no bank conflicts); a host backend takes one run each way
/// (a contiguous block, one vector per row segment). Thread tile `index` of a tile starts at
///   r0 = (index / column positions) * kRowRun,  c0 = (index % column positions) * kColRun.
template <class Traits>
struct ThreadTile {
  static constexpr int R = Traits::kTileRows, C = Traits::kTileCols;
  static constexpr int RR = Traits::kRowRun, CR = Traits::kColRun;
  static constexpr int kRowRuns = R / RR, kColRuns = C / CR;
  static_assert(R % RR == 0 && C % CR == 0, "a thread tile is made of whole runs");
  static_assert(RR % 4 == 0 && CR % 4 == 0, "runs are 16-byte row segments");

  int r0, c0, row_step, col_step;
  int32_t acc[R][C];

  /// Thread tiles per B x B tile.
  KOKKOS_FORCEINLINE_FUNCTION static int count(int B) { return (B / R) * (B / C); }

  /// `Block`: int, or a compile-time Fixed<N> (the divisions then fold away).
  template <class Block>
  KOKKOS_FORCEINLINE_FUNCTION ThreadTile(int index, Block B)
      : row_step(int(B) / kRowRuns), col_step(int(B) / kColRuns) {
    const int column_positions = col_step / CR;
    r0 = index / column_positions * RR;
    c0 = index % column_positions * CR;
  }
  KOKKOS_FORCEINLINE_FUNCTION int row(int i) const { return r0 + (i / RR) * row_step + i % RR; }
  KOKKOS_FORCEINLINE_FUNCTION int col(int j) const { return c0 + (j / CR) * col_step + j % CR; }

  // Every run starts on a 16-byte boundary (runs are multiples of 4 int32; rows of the matrix
  // and of the staged tiles are too), which lets the compiler use 16-byte loads and stores
  // (LDS.128 / LDG.E.128 on a GPU).
  /// Element offset of run m of row i from the thread tile's first entry, in 32 bits: one
  /// 64-bit pointer per thread instead of one per run keeps a GPU thread within its registers.
  KOKKOS_FORCEINLINE_FUNCTION int offset(int i, int m, int64_t ld) const {
    return ((i / RR) * row_step + i % RR) * int(ld) + m * col_step;
  }
  KOKKOS_FORCEINLINE_FUNCTION void load(const int32_t* c, int64_t ld) {
    const int32_t* base = c + r0 * ld + c0;
    APSP_UNROLL
    for (int i = 0; i < R; ++i) {
      APSP_UNROLL
      for (int m = 0; m < kColRuns; ++m) {
        Traits::template copy_run<CR>(&acc[i][m * CR], base + offset(i, m, ld));
      }
    }
  }
  KOKKOS_FORCEINLINE_FUNCTION void store(int32_t* c, int64_t ld) const {
    int32_t* base = Traits::recompute_later(c + r0 * ld + c0);
    APSP_UNROLL
    for (int i = 0; i < R; ++i) {
      APSP_UNROLL
      for (int m = 0; m < kColRuns; ++m) {
        Traits::template store_run<CR>(base + offset(i, m, ld), &acc[i][m * CR]);
      }
    }
  }

  /// acc(r, c) = min over p < depth of (acc(r, c), a(r, p) + bk(p, c)), with a(r, p) at
  /// a[r * a_pitch + p] and bk(p, c) at bk[p * b_pitch + c]. U pivots at a time: each of the
  /// thread's rows of a gives a run of U pivots (one 8-byte load for U = 2 on a GPU) and each
  /// pivot row of bk a few 16-byte runs; depth is a multiple of U. A compile-time depth
  /// (Fixed<N>) unrolls the whole slice: no loop counter or branch between pivots.
  template <int U, class APitch, class BPitch, class Depth>
  KOKKOS_FORCEINLINE_FUNCTION void relax(const int32_t* a, APitch a_pitch, const int32_t* bk, BPitch b_pitch,
                                         Depth depth) {
    if constexpr (std::is_same_v<Depth, int>) {
      for (int p0 = 0; p0 < depth; p0 += U) relax_pivots<U>(a, a_pitch, bk, b_pitch, p0);
    } else {
      APSP_UNROLL
      for (int p0 = 0; p0 < int(Depth{}); p0 += U) relax_pivots<U>(a, a_pitch, bk, b_pitch, p0);
    }
  }
  /// Pivots [p0, p0 + U).
  template <int U, class APitch, class BPitch>
  KOKKOS_FORCEINLINE_FUNCTION void relax_pivots(const int32_t* a, APitch a_pitch, const int32_t* bk, BPitch b_pitch,
                                                int p0) {
    int32_t av[R][U];
    APSP_UNROLL
    for (int i = 0; i < R; ++i) Traits::template copy_run<U>(av[i], a + row(i) * a_pitch + p0);
    APSP_UNROLL
    for (int q = 0; q < U; ++q) {
      int32_t bv[C];
      APSP_UNROLL
      for (int m = 0; m < kColRuns; ++m)
        Traits::template copy_run<CR>(&bv[m * CR], bk + (p0 + q) * b_pitch + col(m * CR));
      APSP_UNROLL
      for (int i = 0; i < R; ++i) Traits::template min_plus_run<C>(acc[i], av[i][q], bv);
    }
  }

  /// Phase 1 in registers: writes this thread's entries of column p to column[r] and of row p
  /// to row[c] (the operands of pivot step p, as `relax` reads them with depth 1, a_pitch 1).
  KOKKOS_FORCEINLINE_FUNCTION void publish(int p, int32_t* column, int32_t* row_out) const {
    APSP_UNROLL
    for (int j = 0; j < C; ++j)
      if (col(j) == p) {
        APSP_UNROLL
        for (int i = 0; i < R; ++i) column[row(i)] = acc[i][j];
      }
    APSP_UNROLL
    for (int i = 0; i < R; ++i)
      if (row(i) == p) {
        APSP_UNROLL
        for (int j = 0; j < C; ++j) row_out[col(j)] = acc[i][j];
      }
  }

  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION static T* aligned16(T* p) {
    return static_cast<T*>(__builtin_assume_aligned(p, 16));
  }
};

/// Tile operations shared by the three phase kernels.
///
/// Two execution shapes, chosen by the backend (BackendTraits::kRegisterTiles):
/// - register tiles (GPU): a team has one thread per thread tile, and each thread keeps its
///   results in registers from the first pivot to the last; the operands are staged in team
///   scratch a slice of `slice_depth(B)` pivots at a time in two alternating buffers, so a
///   B = 128 tile needs 37 KiB of shared memory, not the 135 KiB of two whole staged tiles.
/// - one thread walks every thread tile (CPU): the operands are staged whole
///   (slice_depth = B) and each thread tile is loaded, relaxed and stored in turn.
template <class ExecSpace>
struct TileOps {
  using Traits = BackendTraits<ExecSpace>;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Tile = ThreadTile<Traits>;

  KOKKOS_FORCEINLINE_FUNCTION static int32_t* scratch(const Member& team, size_t ints) {
    return static_cast<int32_t*>(team.team_scratch(0).get_shmem_aligned(ints * sizeof(int32_t), 64));
  }

  /// dst(r, c) <- src[r * ld + c] for r < rows, c < cols, rows over the team's threads, each
  /// row in runs of kChunk contiguous int32 (the CPU's staging; register tiles use
  /// SliceCopies). Rows and runs are two loops, not one range split by a division: an integer
  /// division per 16-int run made the OpenMP backend's phase 2 four times slower.
  KOKKOS_FORCEINLINE_FUNCTION static void stage(const Member& team, int32_t* dst, int dst_pitch, const int32_t* src,
                                                int64_t ld, int rows, int cols) {
    constexpr int W = Traits::kChunk;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, rows), [&](const int r) {
      for (int c = 0; c < cols; c += W) {
        int32_t v[W];
        Traits::template copy_run<W>(v, src + r * ld + c);
        Traits::template store_run<W>(dst + r * dst_pitch + c, v);
      }
    });
  }

  /// The shape of a tile product with register tiles: B and the slice depth S, each an int or,
  /// for the backend's tuned block (kMaxBlock), a compile-time Fixed<N>, so that the counts,
  /// pitches and offsets below fold into immediates instead of costing integer instructions
  /// (which share the ALU pipe with the add-min) in every slice.
  template <class Block, class Slice>
  struct ProductShape {
    Block B;
    Slice S;
    static constexpr int W = Traits::kChunk;
    KOKKOS_FORCEINLINE_FUNCTION int threads() const { return Tile::count(int(B)); }
    KOKKOS_FORCEINLINE_FUNCTION auto ap() const { return a_pitch(int(S)); }
    KOKKOS_FORCEINLINE_FUNCTION auto bp() const { return b_pitch(int(B)); }
    /// int32 per slice buffer: A's B rows of S pivots, then Bk's S rows of B.
    KOKKOS_FORCEINLINE_FUNCTION int b_offset() const { return int(B) * int(ap()); }
    KOKKOS_FORCEINLINE_FUNCTION int buffer() const { return b_offset() + int(S) * int(bp()); }
    /// Runs of W int32 per row of each operand slice, and the rows between one thread's runs.
    KOKKOS_FORCEINLINE_FUNCTION int a_row_runs() const { return int(S) / W; }
    KOKKOS_FORCEINLINE_FUNCTION int b_row_runs() const { return int(B) / W; }
    KOKKOS_FORCEINLINE_FUNCTION int a_rows_apart() const { return threads() / a_row_runs(); }
    KOKKOS_FORCEINLINE_FUNCTION int b_rows_apart() const { return threads() / b_row_runs(); }
    /// Runs each thread copies of each operand: B S / W over B^2 / 64 threads (2 at B = 128).
    KOKKOS_FORCEINLINE_FUNCTION int runs() const { return int(B) * a_row_runs() / threads(); }
  };

  /// One thread's share of staging the slices of a tile product with register tiles: its
  /// runs of A's and Bk's rows lie a fixed number of rows apart (team size and runs per row
  /// are powers of two), so a slice costs one asynchronous 16-byte copy per run and moving two
  /// offsets on, not the index arithmetic of a generic loop. Per thread only four 32-bit
  /// offsets (registers are what a GPU thread is short of: 64-bit pointers here made the
  /// compiler spill); the operands' corners and the steps are the same for the whole team.
  struct SliceCopies {
    int a_src, b_src;  ///< this thread's first run of A and of Bk in the next slice, from the corner
    int a_dst, b_dst;  ///< their places in a slice buffer
    // Between one thread's runs, in the operands and in the buffer (the same for the team;
    // constants for a fixed shape, worked out once per tile otherwise).
    int a_step, b_step, a_dst_step, b_dst_step;

    template <class Shape>
    KOKKOS_FORCEINLINE_FUNCTION SliceCopies(int me, int64_t ld, const Shape& sh) {
      constexpr int W = Shape::W;
      // check_block_size keeps threads >= runs per row: B >= kMinBlock. Offsets stay far
      // below 2^31: at most B rows of ld elements.
      const int a_row = me / sh.a_row_runs(), a_col = me % sh.a_row_runs() * W;
      const int b_row = me / sh.b_row_runs(), b_col = me % sh.b_row_runs() * W;
      a_src = a_row * int(ld) + a_col;
      b_src = b_row * int(ld) + b_col;
      a_dst = a_row * int(sh.ap()) + a_col;
      b_dst = sh.b_offset() + b_row * int(sh.bp()) + b_col;
      a_step = sh.a_rows_apart() * int(ld);
      b_step = sh.b_rows_apart() * int(ld);
      a_dst_step = sh.a_rows_apart() * int(sh.ap());
      b_dst_step = sh.b_rows_apart() * int(sh.bp());
    }

    /// Starts the copies of the next slice of A and Bk into `buf` and moves on to the one after.
    template <class Shape>
    KOKKOS_FORCEINLINE_FUNCTION void issue(int32_t* buf, const int32_t* a, const int32_t* bk, int64_t ld,
                                           const Shape& sh) {
      constexpr int W = Shape::W;
      // No unroll pragma: a fixed shape's count is a constant (unrolled anyway); a runtime one
      // unrolled would cost registers.
      for (int k = 0; k < sh.runs(); ++k) {
        Traits::template copy_async<W>(buf + a_dst + k * a_dst_step, a + (a_src + k * a_step));
        Traits::template copy_async<W>(buf + b_dst + k * b_dst_step, bk + (b_src + k * b_step));
      }
      a_src += int(sh.S);
      b_src += int(sh.S) * int(ld);
    }
  };

  /// The register-tile product for one shape (see min_plus_product), over `slice_count`
  /// slices (int, or Fixed<B / S> for a whole tile: the steady state keeps a constant trip count).
  template <class Block, class Slice, class Slices>
  KOKKOS_FORCEINLINE_FUNCTION static void register_product(const Member& team, int32_t* c, const int32_t* a,
                                                           const int32_t* bk, int64_t ld, Block B, Slice S,
                                                           Slices slice_count, int32_t* slices) {
    const ProductShape<Block, Slice> sh{B, S};
    const int me = Traits::recompute_later(team.team_rank());
    Tile t(me, B);
    t.load(c, ld);
    SliceCopies copies(me, ld, sh);
    copies.issue(slices, a, bk, ld, sh);
    Traits::async_commit();
    const int n = int(slice_count);
    for (int i = 0; i < n; ++i) {
      int32_t* buf = slices + (i & 1) * sh.buffer();
      if (i + 1 < n) {  // the other buffer was released by the barrier ending the last slice
        copies.issue(slices + ((i + 1) & 1) * sh.buffer(), a, bk, ld, sh);
        Traits::async_commit();
        Traits::template async_wait<1>();  // this thread's copies of slice i are done
      } else {
        Traits::template async_wait<0>();
      }
      team.team_barrier();  // ... and everyone's
      if constexpr (!std::is_same_v<Slice, int>)
        t.template relax<Traits::kPivotRun>(buf, sh.ap(), buf + sh.b_offset(), sh.bp(), S);
      else if (S == Traits::kMaxSlice)
        t.template relax<Traits::kPivotRun>(buf, sh.ap(), buf + sh.b_offset(), sh.bp(), Fixed<Traits::kMaxSlice>{});
      else
        t.template relax<Traits::kPivotRun>(buf, sh.ap(), buf + sh.b_offset(), sh.bp(), S);
      if (i + 1 < n) team.team_barrier();
    }
    t.store(c, ld);
  }

  /// C = min(C, A (min,+) Bk) for B x B tiles with leading dimension ld, over the first
  /// `pivots` columns of A and rows of Bk (fewer than B only in the last round, where the rest
  /// are padding past V: rounded up to a slice, not computed). C may be the same tile as A or
  /// Bk (phase 2): every read of them comes before the first write.
  ///
  /// A slice is A's columns [s, s + S) (B rows of S, pitch a_pitch(S)) and Bk's rows
  /// [s, s + S) (S rows of B, pitch b_pitch(B)). With register tiles two slice buffers
  /// alternate: slice s + 1 is copied while slice s is relaxed.
  ///
  /// kTuned: the backend's tuned shape (B = kMaxBlock, a whole round: see tuned()), compiled
  /// with every count fixed, in a kernel of its own: one shape per kernel keeps a GPU thread
  /// within its registers.
  template <bool kTuned = false>
  KOKKOS_FORCEINLINE_FUNCTION static void min_plus_product(const Member& team, int32_t* c, const int32_t* a,
                                                           const int32_t* bk, int64_t ld, int B, int pivots) {
    const int S = Traits::slice_depth(B);
    const auto ap = a_pitch(S);
    const auto bp = b_pitch(B);
    int32_t* slices = scratch(team, size_t(kBuffers) * slice_buffer_ints(B));
    if constexpr (Traits::kRegisterTiles) {
      if constexpr (kTuned)
        register_product(team, c, a, bk, ld, Fixed<Traits::kMaxBlock>{}, Fixed<kTunedSlice>{},
                         Fixed<Traits::kMaxBlock / kTunedSlice>{}, slices);
      else  // the padding past V (last round) is skipped, rounded up to a slice
        register_product(team, c, a, bk, ld, B, S, (pivots + S - 1) / S, slices);
    } else {
      for (int s = 0; s < pivots; s += S) {
        constexpr int U = Traits::kPivotRun;
        const int rest = (pivots - s + U - 1) / U * U;  // (std::min is host-only for nvcc)
        const int depth = rest < S ? rest : S;
        if (s > 0) team.team_barrier();
        stage(team, slices, ap, a + s, ld, B, S);
        stage(team, slices + B * ap, bp, bk + int64_t(s) * ld, ld, S, B);
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, Tile::count(B)), [&](const int index) {
          Tile t(index, B);
          t.load(c, ld);
          t.template relax<Traits::kPivotRun>(slices, ap, slices + B * ap, bp, depth);
          t.store(c, ld);
        });
      }
    }
  }

  /// Floyd-Warshall on one B x B tile (ld) over its first `pivots` pivots (the rest: padding). Row p and column p do
  /// not change in step p (the diagonal is 0), so every thread may read them during the step.
  KOKKOS_FORCEINLINE_FUNCTION static void close_tile(const Member& team, int32_t* t, int64_t ld, int B, int pivots) {
    if constexpr (Traits::kRegisterTiles) {
      // Each thread holds its entries in registers; per step the owners of row p and column p
      // publish them to scratch, double-buffered so that one barrier per step suffices.
      int32_t* buffers = scratch(team, size_t(4) * B);
      Tile tile(team.team_rank(), B);
      tile.load(t, ld);
      tile.publish(0, buffers, buffers + B);
      team.team_barrier();
      for (int p = 0; p < pivots; ++p) {
        const int32_t* now = buffers + (p & 1) * 2 * B;
        tile.template relax<1>(now, 1, now + B, 0, 1);
        if (p + 1 < pivots) {
          int32_t* next = buffers + ((p + 1) & 1) * 2 * B;
          tile.publish(p + 1, next, next + B);
        }
        team.team_barrier();
      }
      tile.store(t, ld);
    } else {
      constexpr int W = Traits::kChunk;
      for (int p = 0; p < pivots; ++p) {
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, B), [&](const int r) {
          const int32_t a = t[r * ld + p];
          for (int c = 0; c < B; c += W) {
            int32_t* row = Tile::aligned16(t + r * ld + c);
            const int32_t* pivot = Tile::aligned16(t + p * ld + c);
            APSP_UNROLL
            for (int w = 0; w < W; ++w) row[w] = Traits::min_plus(row[w], a, pivot[w]);
          }
        });
        team.team_barrier();
      }
    }
  }

  /// Row pitches (int32) of the staged slices: A's rows hold S pivots, Bk's rows B columns.
  /// Where the backend caps B and S (kMaxBlock, kMaxSlice), compile-time constants: the
  /// unrolled pivot steps then address scratch with immediate offsets from a few base
  /// registers instead of an integer add per load.
  template <int N>
  struct Fixed {
    KOKKOS_FORCEINLINE_FUNCTION constexpr operator int() const { return N; }
  };
  static constexpr bool kFixedPitches = Traits::kMaxBlock > 0;
  /// Whether the backend has a tuned product kernel (min_plus_product<true>), and its slice.
  static constexpr bool kHasTuned = Traits::kRegisterTiles && kFixedPitches;
  static constexpr int kTunedSlice = Traits::slice_depth(Traits::kMaxBlock);
  /// Whether a product of this round takes the tuned kernel.
  static bool tuned(int B, int pivots) { return kHasTuned && B == Traits::kMaxBlock && pivots == B; }
  /// The pitch of rows of `extent` int32 that the backend caps at `Cap`.
  template <int Cap>
  using PitchFor = std::conditional_t<kFixedPitches, Fixed<Cap + Traits::kScratchPad>, int>;
  template <int Cap>
  KOKKOS_FORCEINLINE_FUNCTION static PitchFor<Cap> pitch(int extent) {
    if constexpr (kFixedPitches) {
      (void)extent;
      return PitchFor<Cap>{};
    } else {
      return extent + Traits::kScratchPad;
    }
  }
  KOKKOS_FORCEINLINE_FUNCTION static auto a_pitch(int S) { return pitch<Traits::kMaxSlice>(S); }
  KOKKOS_FORCEINLINE_FUNCTION static auto b_pitch(int B) { return pitch<Traits::kMaxBlock>(B); }

  /// Team scratch bytes of each kernel (+ 64 for alignment).
  static constexpr int kBuffers = Traits::kRegisterTiles ? 2 : 1;
  /// int32 of one slice buffer (ProductShape::buffer).
  KOKKOS_FORCEINLINE_FUNCTION static int slice_buffer_ints(int B) {
    return ProductShape<int, int>{B, Traits::slice_depth(B)}.buffer();
  }
  static size_t product_scratch_bytes(int B) { return size_t(kBuffers) * slice_buffer_ints(B) * sizeof(int32_t) + 64; }
  static size_t closure_scratch_bytes(int B) {
    return Traits::kRegisterTiles ? size_t(4) * B * sizeof(int32_t) + 64 : 0;
  }
};

/// Phase 1: Floyd-Warshall on the pivot tile, one team.
template <class ExecSpace>
struct PivotTileKernel {
  using Ops = TileOps<ExecSpace>;
  int32_t* tile;  ///< the pivot tile (k, k), leading dimension n
  int64_t n;
  int B;
  int pivots;  ///< pivots of this round short of V (B but in the last round)
  KOKKOS_INLINE_FUNCTION void operator()(const typename Ops::Member& team) const {
    Ops::close_tile(team, tile, n, B, pivots);
  }
};

// The product kernels below come in two instantiations (kTuned: see
// TileOps::min_plus_product); their fields are a plain struct that both share.

/// Phase 2, one team per tile: the pivot row's tiles (k, j) (when `row_part`) and the pivot
/// column's tiles (i, k) of the tile rows held in `rows` (when `column_part`). The pivot tile
/// P is closed after phase 1, so relaxing a tile through its B pivots one by one gives the
/// same result as one min-plus product with P: row tile T = min(T, P (min,+) T), column tile
/// T = min(T, T (min,+) P), the same kernel as phase 3.
struct PivotRowColumnTiles {
  int32_t* rows;         ///< the tile rows held here (all of them on one device), ld n
  const int32_t* pivot;  ///< the pivot tile (k, k), ld n: in `rows` or in a received pivot row
  int64_t n;
  int B, k, nb;
  int row_tiles;  ///< tile rows in `rows`
  int k_local;    ///< tile row of the pivot block within `rows`, or -1
  bool row_part, column_part;
  int pivots;  ///< pivots of this round short of V
  KOKKOS_INLINE_FUNCTION int row_teams() const { return row_part ? nb - 1 : 0; }
  KOKKOS_INLINE_FUNCTION int column_teams() const { return column_part ? row_tiles - (k_local >= 0) : 0; }
};
template <class ExecSpace, bool kTuned = false>
struct PivotRowColumnKernel : PivotRowColumnTiles {
  using Ops = TileOps<ExecSpace>;
  KOKKOS_INLINE_FUNCTION void operator()(const typename Ops::Member& team) const {
    const int id = team.league_rank();
    const bool in_row = id < row_teams();        // tile (k, j) of the pivot row, else (i, k)
    int other = in_row ? id : id - row_teams();  // skip the pivot tile itself:
    if (in_row)
      other += other >= k;  // column k of the pivot row
    else if (k_local >= 0)
      other += other >= k_local;  // tile row k of the rows held
    int32_t* t =
        in_row ? rows + int64_t(k_local) * B * n + int64_t(other) * B : rows + int64_t(other) * B * n + int64_t(k) * B;
    Ops::template min_plus_product<kTuned>(team, t, in_row ? pivot : t, in_row ? t : pivot, n, B, pivots);
  }
};

/// Phase 3, one team per tile (i, j) of the tile rows in `rows`, off the pivot row and column:
/// D(i, j) = min(D(i, j), D(i, k) (min,+) D(k, j)), with D(k, j) from the pivot row block.
/// `skip` = 2 leaves out tile row and column k + 1 as well (the look-ahead of one device, which
/// updates them first with NextPivotCrossKernel).
struct RemainingTiles {
  int32_t* rows;             ///< the tile rows held here, ld n
  const int32_t* pivot_row;  ///< the pivot row block (B rows of n), ld n
  int64_t n;
  int B, k, nb;
  int k_local;  ///< tile row of the pivot block within `rows`, or -1
  int skip;     ///< tile rows and columns left out from k on: 1, or 2 (also k + 1)
  int pivots;   ///< pivots of this round short of V
};
template <class ExecSpace, bool kTuned = false>
struct RemainingTilesKernel : RemainingTiles {
  using Ops = TileOps<ExecSpace>;
  KOKKOS_INLINE_FUNCTION void operator()(const typename Ops::Member& team) const {
    int bi = team.league_rank() / (nb - skip), bj = team.league_rank() % (nb - skip);
    bi += k_local >= 0 && bi >= k_local ? skip : 0;
    bj += bj >= k ? skip : 0;
    int32_t* tile_row = rows + int64_t(bi) * B * n;
    Ops::template min_plus_product<kTuned>(team, tile_row + int64_t(bj) * B, tile_row + int64_t(k) * B,
                                           pivot_row + int64_t(bj) * B, n, B, pivots);
  }
};

/// Round k's phase 3 on tile row and column k + 1 only (one device holding every row): the
/// tiles round k + 1's phases 1 and 2 start from, so that they may run beside the rest of
/// round k's phase 3. Teams 0 .. nb - 2: tiles (k + 1, j), j != k; then (i, k + 1), i != k, k + 1.
struct NextPivotCross {
  int32_t* d;  ///< the whole matrix, ld n
  int64_t n;
  int B, k, nb;
  int pivots;  ///< pivots of round k short of V
};
template <class ExecSpace, bool kTuned = false>
struct NextPivotCrossKernel : NextPivotCross {
  using Ops = TileOps<ExecSpace>;
  KOKKOS_INLINE_FUNCTION void operator()(const typename Ops::Member& team) const {
    const int id = team.league_rank();
    const bool in_row = id < nb - 1;
    const int other = in_row ? id + (id >= k) : (id - (nb - 1)) + (id - (nb - 1) >= k ? 2 : 0);
    const int bi = in_row ? k + 1 : other, bj = in_row ? other : k + 1;
    int32_t* tile_row = d + int64_t(bi) * B * n;
    Ops::template min_plus_product<kTuned>(team, tile_row + int64_t(bj) * B, tile_row + int64_t(k) * B,
                                           d + int64_t(k) * B * n + int64_t(bj) * B, n, B, pivots);
  }
};

}  // namespace Impl

template <class ExecSpace>
class BlockedFloydWarshall {
 public:
  using Traits = BackendTraits<ExecSpace>;
  using Policy = Kokkos::TeamPolicy<ExecSpace, typename Traits::LaunchBounds>;
  using Ops = Impl::TileOps<ExecSpace>;
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
  /// Untimed, the rounds overlap (solve_with_lookahead); timed, the phases run one after another
  /// with a fence after each.
  template <class AfterRound>
  static void solve(const Matrix& d, PhaseSeconds* phases, AfterRound&& after_round) {
    if (phases == nullptr) return solve_with_lookahead(d, after_round);
    const int rounds = d.blocks();
    for (int k = 0; k < rounds; ++k) {
      timed(phases->phase[0], [&] { phase1(d, k); });
      timed(phases->phase[1], [&] { phase2(d, k); });
      timed(phases->phase[2], [&] { phase3(d, k); });
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

  /// Phases 1 and 2 are one team and a few hundred teams: alone they leave most of a GPU idle
  /// (5 % of the solve at V = 20000 on an H200). So round k's phase 3 is split: tile row and
  /// column k + 1 first (NextPivotCrossKernel), on a second queue that then opens round k + 1
  /// (its phases 1 and 2), while the main queue runs the other tiles of round k. The two
  /// touch different tiles and read only pivot row and column k. Events order the rest:
  ///   main: wait(opened k) -> rest of phase 3 (k) -> record(rest done k)
  ///   side: wait(rest done k - 1) -> cross (k) -> phase 1 (k + 1) -> phase 2 (k + 1) -> record(opened k + 1)
  /// On the host both queues are one instance, and the same order is a valid sequential one.
  template <class AfterRound>
  static void solve_with_lookahead(const Matrix& d, AfterRound&& after_round) {
    const RowBlock rb = whole(d);
    const int rounds = d.blocks(), B = d.block, nb = int(d.n / B);
    const ExecSpace main;
    const ExecSpace side = Traits::side_instance();
    typename Traits::Event opened, rest_done;
    phase1(rb, 0, side);
    phase2(rb, 0, rb.tile_row(0), true, true, side);
    Traits::record(opened, side);
    for (int k = 0; k < rounds; ++k) {
      Traits::wait(main, opened);
      if (k + 1 < rounds) {
        Traits::wait(side, rest_done);  // still round k - 1's: recorded again below
        if (nb > 2)
          launch_product<Impl::RemainingTilesKernel>(
              "apsp::phase3_remaining", main, (nb - 2) * (nb - 2),
              Impl::RemainingTiles{rb.rows, rb.tile_row(k), rb.n, B, k, nb, k, 2, rb.pivots(k)});
        Traits::record(rest_done, main);
        launch_product<Impl::NextPivotCrossKernel>("apsp::phase3_next_pivot_cross", side, 2 * nb - 3,
                                                   Impl::NextPivotCross{rb.rows, rb.n, B, k, nb, rb.pivots(k)});
        phase1(rb, k + 1, side);
        phase2(rb, k + 1, rb.tile_row(k + 1), true, true, side);
        Traits::record(opened, side);
      } else {
        phase3(rb, k, rb.tile_row(k), main);
      }
      after_round(k + 1, rounds);
    }
    side.fence();
    main.fence();
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
    int64_t vertices;  ///< V: the pivots past it are padding, and skipped
    int k_local(int k) const { return k >= first_tile && k < first_tile + row_tiles ? k - first_tile : -1; }
    /// Global tile row k, which this block holds (k_local(k) >= 0).
    int32_t* tile_row(int k) const { return rows + int64_t(k - first_tile) * block * n; }
    /// Pivots of round k that are vertices: B, but in the last round when V is not a multiple of B.
    int pivots(int k) const { return int(std::min<int64_t>(block, vertices - int64_t(k) * block)); }
  };
  /// The rows `d` holds (the whole matrix on one device).
  static RowBlock whole(const Matrix& d) {
    return RowBlock{d.data.data(), int(d.first_row / d.block), int(d.rows / d.block), d.n, d.block, d.vertices};
  }

  static void phase1(const Matrix& d, int k) { phase1(whole(d), k); }
  static void phase2(const Matrix& d, int k) {
    const auto rb = whole(d);
    phase2(rb, k, rb.tile_row(k), true, true);
  }
  static void phase3(const Matrix& d, int k) {
    const auto rb = whole(d);
    phase3(rb, k, rb.tile_row(k));
  }

  /// Phase 1 on the process that holds tile row k. The RowBlock phases run on `exec`.
  static void phase1(const RowBlock& rb, int k, const ExecSpace& exec = ExecSpace()) {
    const int B = rb.block;
    Kokkos::parallel_for("apsp::phase1_pivot", policy(exec, 1, B, Ops::closure_scratch_bytes(B)),
                         Impl::PivotTileKernel<ExecSpace>{rb.tile_row(k) + int64_t(k) * B, rb.n, B, rb.pivots(k)});
  }

  /// Phase 2: the pivot row's tiles (`row_part`, only where tile row k is held) and the pivot
  /// column's tiles of the rows held (`column_part`), through the pivot tile of `pivot_row`.
  static void phase2(const RowBlock& rb, int k, const int32_t* pivot_row, bool row_part, bool column_part,
                     const ExecSpace& exec = ExecSpace()) {
    const int B = rb.block, nb = int(rb.n / B);
    const Impl::PivotRowColumnTiles tiles{rb.rows,
                                          pivot_row + int64_t(k) * B,
                                          rb.n,
                                          B,
                                          k,
                                          nb,
                                          rb.row_tiles,
                                          rb.k_local(k),
                                          row_part && rb.k_local(k) >= 0 && nb > 1,
                                          column_part,
                                          rb.pivots(k)};
    const int league = tiles.row_teams() + tiles.column_teams();
    if (league > 0) launch_product<Impl::PivotRowColumnKernel>("apsp::phase2_pivot_row_col", exec, league, tiles);
  }

  /// Phase 3 on the rows held, with the pivot row block `pivot_row` (ld n).
  static void phase3(const RowBlock& rb, int k, const int32_t* pivot_row, const ExecSpace& exec = ExecSpace()) {
    const int B = rb.block, nb = int(rb.n / B);
    const int k_local = rb.k_local(k), row_tiles = rb.row_tiles - (k_local >= 0);
    if (nb < 2 || row_tiles < 1) return;
    launch_product<Impl::RemainingTilesKernel>(
        "apsp::phase3_remaining", exec, row_tiles * (nb - 1),
        Impl::RemainingTiles{rb.rows, pivot_row, rb.n, B, k, nb, k_local, 1, rb.pivots(k)});
  }

  /// Throws std::invalid_argument unless `block` suits the backend's thread-tile shape and
  /// the staged operand slices fit the team scratch memory of this device.
  static void check_block_size(int block) {
    using T = Traits;
    const int step = std::max({T::kTileRows, T::kTileCols, T::kChunk, T::kMinBlock});
    const std::string rule = (T::kRegisterTiles ? "it must be a power of two from " + std::to_string(step) + " to " +
                                                      std::to_string(T::kMaxBlock)
                                                : "it must be a multiple of " + std::to_string(step));
    if (block <= 0 || block % T::kTileRows != 0 || block % T::kTileCols != 0 || block % T::kChunk != 0 ||
        block < T::kMinBlock || (T::kMaxBlock > 0 && block > T::kMaxBlock) ||
        (T::kRegisterTiles && (block & (block - 1)) != 0))
      throw std::invalid_argument("block size " + std::to_string(block) + " is not supported by the " +
                                  ExecSpace::name() + " backend: " + rule);
    // A GPU's shared memory is a hard limit; host backends allocate scratch as needed
    // (Kokkos 3.4's OpenMP reports 32 KiB here yet serves more).
    constexpr bool on_host =
        Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
    const size_t need = Ops::product_scratch_bytes(block), have = Policy::scratch_size_max(0);
    if (!on_host && need > have)
      throw std::invalid_argument("block size " + std::to_string(block) + " needs " + std::to_string(need) +
                                  " bytes of team scratch on the " + ExecSpace::name() + " backend, which has " +
                                  std::to_string(have));
    const int threads = T::team_size(block) * T::vector_length(block);
    if (!on_host && threads > T::kMaxTeamThreads)
      throw std::invalid_argument("block size " + std::to_string(block) + " needs " + std::to_string(threads) +
                                  " threads per team with this thread tile; the " + ExecSpace::name() +
                                  " build allows " + std::to_string(T::kMaxTeamThreads));
  }

 private:
  template <class F>
  static void timed(double& total, F&& f) {
    Kokkos::Timer timer;
    f();
    ExecSpace().fence();
    total += timer.seconds();
  }

  /// A product kernel over `league` tiles: the tuned instantiation for a whole round at the
  /// backend's tuned block, the general one otherwise (`tiles`: the kernel's fields).
  template <template <class, bool> class Kernel, class Tiles>
  static void launch_product(const char* label, const ExecSpace& exec, int league, const Tiles& tiles) {
    const Policy p = policy(exec, league, tiles.B, Ops::product_scratch_bytes(tiles.B));
    if constexpr (Ops::kHasTuned)
      if (Ops::tuned(tiles.B, tiles.pivots)) return Kokkos::parallel_for(label, p, Kernel<ExecSpace, true>{tiles});
    Kokkos::parallel_for(label, p, Kernel<ExecSpace, false>{tiles});
  }

  static Policy policy(const ExecSpace& exec, int league, int block, size_t scratch_bytes) {
    return Policy(exec, league, Traits::team_size(block), Traits::vector_length(block))
        .set_scratch_size(0, Kokkos::PerTeam(scratch_bytes));
  }
};

}  // namespace apsp
