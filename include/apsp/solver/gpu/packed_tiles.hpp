// SPDX-License-Identifier: BSD-3-Clause
// The tuned tile product in 16-bit lanes: two relaxations per instruction (on sm_90 one
// VIADDMNMX.U16x2 relaxes two entries) wherever the tile being updated allows it, decided per
// tile by the whole team. The matrix stays int32; only the registers and the staged slices of
// one product hold 16-bit halves. Operands are staged capped, f(x) = min(x, kCap), kCap =
// 2^15 - 1, so f(a) + f(b) <= 2 kCap < 2^16 and no lane wraps. Three cases qualify:
//
// 1. Every entry c of C is at most kCap (no INF). For a, b >= 0: if a + b < kCap, neither is
//    capped and f(a) + f(b) = a + b; otherwise f(a) + f(b) >= kCap >= c and a + b >= kCap >= c,
//    so neither form beats c. Hence min(c, a + b) = min(c, f(a) + f(b)) for every relaxation,
//    and a relaxation never raises c, so the condition holds to the end of the product.
// 2. C holds INF, its other entries are below kCap, and every finite entry of both operands is
//    at most kSmall = (kCap - 1) / 2 (the caller knows this of the operands: round_operands.hpp
//    marks the tiles of each round's pivot row and column). C's INF is held capped, as kCap.
//    A sum of two finite operands is at most kCap - 1 and exact; a sum with an INF operand is
//    in [kCap, 2^16 - 2], as the true sum is at least INF, and replaces no lane. So a lane
//    below kCap is the exact distance, and a lane at kCap is a c that was INF and that no
//    finite sum reached: INF again when stored. Every finite c stays below kCap, so the
//    condition holds to the end of the product. C is packed capped in both cases (in case 1 the
//    cap changes nothing); case 2's test of C is one add and a half per entry while C is loaded
//    (see product()).
// 3. C holds no INF, and every entry c is at most o + kCap, where o = a0 + b0 and a0 and b0 are
//    the least entries of the operands (the caller knows them: the marks keep each operand
//    tile's least entry where the operands stay as marked while the product reads them). Every
//    sum a + b is at least o, so min(c, a + b) = o + min(c - o, (a - a0) + (b - b0)): case 1 in
//    the shifted entries, which are all >= 0 and c - o <= kCap. An entry c below o takes no
//    relaxation of this product; its lane starts at 0 and stays there, and the store writes
//    min(c, o + lane) = c (C is read again), as it writes o + lane = min(c, o + lane) for every
//    other. Distances past 2^15 whose tiles are close together (heavy weights, far clusters)
//    take 16-bit lanes so.
// Any other tile (a distance of kCap or more beside an INF, a C spread wider than kCap) takes
// the int32 product.
//
// The ALU pipe that runs the packed add-min also runs every other integer instruction of the
// kernel (ncu on one H200: 4096 VIADDMNMX.U16x2 and about 590 other ALU instructions per tile
// and thread, 2-cycle issue each), so the packing work avoids it where it can: each capped
// pair is one Traits::pack_capped (on sm_90 one I2IP, in place of two VIMNMX and a PRMT), and
// the unpacking's subtraction is an IMAD (the FMA pipe). The C test's increments stay ALU adds:
// as IMADs by a 1 the compiler cannot see (Traits::unit()), one H200 solved the 4-component
// graph 2 % faster but random V = 20000 1 % and the grid 8 % slower.
//
// Case 3 costs the other cases a three-input max per two entries of C as it is loaded (one
// VIMNMX3 on sm_90); its shift is a branch in the slice loop (the same on every thread), its
// offsets read back from shared memory. product() is compiled on its own (APSP_NOINLINE), not
// into the kernel that calls it: inlined, its case 3 made ptxas spill 28 to 52 bytes per thread
// in the fused kernels, the int32 product's among them, and a graph whose tiles all take int32
// (weights 40000..97000) solved 4-5 % slower on one H200; on its own it stores no spills and
// that graph solves as before.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "apsp/core/constants.hpp"
#include "apsp/solver/gpu/packed_lanes.hpp"
#include "apsp/solver/round_operands.hpp"

namespace apsp::Impl {

// 32-bit offsets on purpose (see tile_ops.hpp).
// NOLINTBEGIN(bugprone-implicit-widening-of-multiplication-result)

/// The packed product for a backend whose traits set kPackedTiles (its lanes: PackedLanes). What
/// the traits provide beside the lanes': team_all(team, v) (v on every thread of the team; a
/// barrier).
template <class Traits>
struct PackedTiles : PackedLanes<Traits> {
  using Base = PackedLanes<Traits>;
  using Base::B, Base::S, Base::kCap, Base::kRows, Base::kRowRun, Base::kCols, Base::kWords, Base::kColThreads,
      Base::kBuffer;
  using typename Base::Lanes, typename Base::Staging;

  /// c = min(c, a (min,+) bk) over the B pivots of a whole round (kRounds whole rounds: A's
  /// kRounds B columns from a, Bk's kRounds B rows from bk, one round after the other), in
  /// 16-bit lanes, if c's entries allow it (case 1 above; case 2 where `marks` say that every
  /// finite entry of a and bk is at most kSmall; case 3 where they keep the operands' least
  /// entries); otherwise nothing is written and false is returned (the same on every thread of
  /// the team), and the caller takes the int32 product.
  /// Scratch: two slice buffers. C may be A or Bk (phase 2): they are read before c is written.
  /// Every case holds through a second round's pivots as through the first's: relaxations never
  /// raise an entry, in case 2 the marks cover both rounds' operands, and in case 3 the least
  /// entries are the lower of both rounds' (OperandMarks::least_entries).
  template <int kRounds = 1, class Team>
  KOKKOS_FUNCTION APSP_NOINLINE static bool product(const Team& team, int32_t* c, const int32_t* a, const int32_t* bk,
                                                    int64_t ld, int32_t* scratch, OperandMarks marks = {}) {
    const int me = Traits::recompute_later(team.team_rank());
    const int ty = me / kColThreads, tx = me % kColThreads;
    Staging staging(me, ld);
    staging.load(a, bk, ld);  // the first slice's loads in flight with C's
    // The marks are loaded beside C and used only where case 1 fails (the same on every thread).
    const bool marked = marks.small();
    // Case 3's a0 and b0, and whether it may be taken: o = a0 + b0 (at most 2 INF < 2^31), and
    // C's entries up to o + kCap are then below INF.
    int32_t a_least = 0, bk_least = 0;
    const bool shiftable = marks.least_entries(a_least, bk_least) && a_least + bk_least < kInf - int32_t(kCap);
    int32_t acc[kRows][kWords];
    const int32_t* corner = c + (ty * kRowRun) * ld + tx * kCols;
    const Seen seen = load_c(acc, corner, ld);
    // Case 1, else case 2, else case 3 (a vote each, only for tiles that fail the ones before,
    // none where the marks rule a case out). Case 3 reads C again for its shifted lanes.
    Lanes lanes = Lanes::fit;
    if (!Traits::team_all(team, (seen.bits & ~kCap) == 0)) {
      constexpr uint32_t kLong = uint32_t(kInf) & ~kCap;  // bits 15 to 29
      if (marked && Traits::team_all(team, (seen.bits_next & kLong) == 0))
        lanes = Lanes::inf_held;
      else if (shiftable && Traits::team_all(team, seen.top - (a_least + bk_least) <= int32_t(kCap)))
        lanes = Lanes::shifted;
      else
        return false;
      if (lanes == Lanes::shifted) Base::load_shifted(acc, corner, ld, a_least + bk_least);
    }
    relax_slices<kRounds>(team, acc, staging, a, bk, ld, scratch, lanes == Lanes::shifted, a_least, bk_least, ty, tx);

    int32_t* out = Traits::recompute_later(c + (ty * kRowRun) * ld + tx * kCols);
    if (lanes == Lanes::fit)
      Base::template store<Lanes::fit>(acc, out, ld);
    else if (lanes == Lanes::inf_held)
      Base::template store<Lanes::inf_held>(acc, out, ld);
    else
      Base::template store<Lanes::shifted>(acc, out, ld, scratch[B] + scratch[B + 1]);
    return true;
  }

 private:
  /// What a thread saw of its block of C as it loaded it: the cases' conditions on C.
  struct Seen {
    uint32_t bits = 0;  ///< every bit set in some entry of this thread's block
    /// The same of every entry + 1: bits 15 to 29 are clear iff every entry is below kCap or INF
    /// (INF + 1 = 2^30; entries are distances, at most INF): case 2's condition on C.
    uint32_t bits_next = 0;
    int32_t top = 0;  ///< the largest entry: case 3's condition on C
  };

  /// A thread's block of C into its lanes, capped (cases 1 and 2), and what it saw of it.
  KOKKOS_FORCEINLINE_FUNCTION static Seen load_c(int32_t (&acc)[kRows][kWords], const int32_t* corner, int64_t ld) {
    Seen seen;
    APSP_UNROLL
    for (int i = 0; i < kRows; ++i) {
      int32_t v[kCols];
      Traits::template copy_run<kCols>(v, corner + Base::row_offset(i) * ld);
      APSP_UNROLL
      for (int q = 0; q < kWords; ++q) {
        seen.bits |= uint32_t(v[2 * q]) | uint32_t(v[2 * q + 1]);
        seen.bits_next |= (uint32_t(v[2 * q]) + 1u) | (uint32_t(v[2 * q + 1]) + 1u);
        seen.top = Traits::max3(seen.top, v[2 * q], v[2 * q + 1]);
        acc[i][q] = Traits::pack_capped(v[2 * q], v[2 * q + 1]);
      }
    }
    return seen;
  }

  /// The slices. Case 3 shifts the operands as it stages them, by a0 and b0 that wait in the
  /// first slice buffer's padding (row 0 of A, past its B columns: no slice is staged there) and
  /// are read back for each slice after its barrier: the loop keeps no register for them, and
  /// cases 1 and 2 only branch past the shift (the same way on every thread).
  template <int kRounds, class Team>
  KOKKOS_FORCEINLINE_FUNCTION static void relax_slices(const Team& team, int32_t (&acc)[kRows][kWords],
                                                       Staging& staging, const int32_t* a, const int32_t* bk,
                                                       int64_t ld, int32_t* scratch, bool shifted, int32_t a_least,
                                                       int32_t bk_least, int ty, int tx) {
    if (shifted) {
      staging.template store<true>(scratch, a_least, bk_least);
      if (team.team_rank() == 0) {
        scratch[B] = a_least;
        scratch[B + 1] = bk_least;
      }
    } else {
      staging.template store<false>(scratch);
    }
    team.team_barrier();
    constexpr int kSlices = kRounds * B / S;
    // One barrier per slice: slice s + 1 is stored into the buffer that slice s - 1 used,
    // which the barrier ending slice s - 1 released.
    for (int s = 0; s + 1 < kSlices; ++s) {
      staging.load(a, bk, ld);
      Base::relax(acc, scratch + (s & 1) * kBuffer, ty, tx);
      if (shifted)
        staging.template store<true>(scratch + ((s + 1) & 1) * kBuffer, scratch[B], scratch[B + 1]);
      else
        staging.template store<false>(scratch + ((s + 1) & 1) * kBuffer);
      team.team_barrier();
    }
    Base::relax(acc, scratch + ((kSlices - 1) & 1) * kBuffer, ty, tx);
  }
};

// NOLINTEND(bugprone-implicit-widening-of-multiplication-result)

}  // namespace apsp::Impl
