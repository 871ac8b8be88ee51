// SPDX-License-Identifier: BSD-3-Clause
// What the CPU round driver (host/rounds.hpp) and the round packing (round_operands.hpp) ask of
// tile operations, on a matrix of 16-bit entries (host/tiles16.hpp): the counterpart of
// TileOps' host functions for the solve's 16-bit stage (host/sixteen.hpp). Host code alone:
// no device pass instantiates it (only a backend whose tile operations pack rounds does).
#pragma once

#include <cstddef>
#include <cstdint>

#include "apsp/backends/backend_traits.hpp"
#include "apsp/solver/host/tiles16.hpp"
#include "apsp/solver/round_operands.hpp"
#include "apsp/solver/tile_ops.hpp"

namespace apsp::Impl {

// NOLINTBEGIN(bugprone-implicit-widening-of-multiplication-result)

template <class ExecSpace>
struct HostOps16 {
  using Traits = BackendTraits<ExecSpace>;
  using Tiles = HostTiles16<Traits>;
  using Value = uint16_t;
  static constexpr bool kPacksRounds = true, kMarksOperands = false, kKeepsLeast = false;

  static size_t a_ints(int B) { return Tiles::a_ints(B); }
  static size_t bk_ints(int B) { return Tiles::bk_ints(B); }
  static size_t host_scratch_ints(int B) {
    const size_t product = Tiles::scratch_ints(B), closure = Tiles::close_scratch_ints();
    return product > closure ? product : closure;
  }

  /// Operand t of a round: tile (i, k) as A, tile (k, j) as Bk (RoundOperands::pack_one).
  static void pack_a(int32_t* out, const uint16_t* a, int64_t ld, int B, int pivots, bool /*lanes16*/) {
    Tiles::pack_a(typename Tiles::Packed(B, out, nullptr), a, ld, B, pivots);
  }
  static void pack_bk(int32_t* out, const uint16_t* bk, int64_t ld, int B, int pivots, bool /*lanes16*/) {
    Tiles::pack_bk(typename Tiles::Packed(B, nullptr, out), bk, ld, B, pivots);
  }

  /// The relaxations of a rows x cols part of a tile over `pivots` pivots, as TileOps counts
  /// them (whole blocks): every one of them in 16-bit lanes here.
  static int64_t computed(int rows, int cols, int pivots) { return TileOps<ExecSpace>::computed(rows, cols, pivots); }
  static int64_t packed_computed(int B, int pivots, const PackedRound& round, int i, int j) {
    return TileOps<ExecSpace>::packed_computed(B, pivots, round, i, j);
  }
  /// No entry is INF in this stage: every product may change C.
  static bool packed_changes_nothing(const PackedRound& /*round*/, int /*i*/, int /*j*/) { return false; }

  /// Phase 3 on tile (i, j) with the round's packed operands; returns its 16-bit relaxations.
  static int64_t host_packed_product(uint16_t* c, int64_t ld, int B, int pivots, const PackedRound& round, int i,
                                     int j) {
    const typename Tiles::Packed packed(B, round.a + i * round.a_ints, round.bk + j * round.bk_ints);
    const int rows = round.extent(round.first_tile + i, B), cols = round.extent(j, B);
    Tiles::product(c, ld, rows, cols, pivots, packed);
    return computed(rows, cols, pivots);
  }
  /// Phase 2: C = min(C, A (min,+) Bk) for B x B tiles, packing both into `scratch`.
  static int64_t host_product(uint16_t* c, const uint16_t* a, const uint16_t* bk, int64_t ld, int B, int pivots,
                              int32_t* scratch) {
    Tiles::product(c, a, bk, ld, B, B, pivots, scratch, B);
    return computed(B, B, pivots);
  }
  /// Phase 1.
  static void host_close(uint16_t* t, int64_t ld, int B, int pivots, int32_t* scratch) {
    Tiles::close(t, ld, B, pivots, scratch);
  }
};

// NOLINTEND(bugprone-implicit-widening-of-multiplication-result)

}  // namespace apsp::Impl
