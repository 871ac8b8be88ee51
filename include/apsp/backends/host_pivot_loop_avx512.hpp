// SPDX-License-Identifier: BSD-3-Clause
// AVX-512's pivot loop for its 8 x 2 block of C (host_backend.hpp's shape there): a pass over
// every pivot in one run of assembly, two pivots per iteration.
// Per pivot: 2 loads of B, 8 broadcasts of A, 16 adds and 16 mins, and (kPanelAhead) two
// prefetches of B's row 16 pivots on; the loop's own instructions are 5 per two pivots. Every
// depth / 8 pivots, the 4 lines of one row of the next block of C are asked for (for writing),
// as host_pivot_loop.hpp spreads them.
// Why not GCC's loop of the same intrinsics: it took 4 to 5 instructions of its own per pivot
// and a register copy (scripts/show_vector_loop.sh), and on the Xeon (Emerald Rapids) the
// 16-bit min issues on one port only, so whatever else lands there costs it a cycle. Measured on
// the 16-vCPU Xeon (docs/results.md): the phase-3 product 1.01-1.06x faster in 16-bit lanes,
// the same in int32; whole 16-thread solves 1.06-1.09x (V = 6000 and 10000, medians), more
// than the product alone gained in that benchmark (why was not found).
// The 16 accumulators stay in memory between passes: as operands they would pass the 30 that an
// asm statement may have. The pass loads them from the block of C and stores them back, 32
// instructions (relax_at: where C lies, rows apart as in the matrix; relax(): a copy).
#pragma once

#include "apsp/backends/host_pivot_loop.hpp"

#if defined(APSP_SIMD_AVX512) && (defined(__GNUC__) || defined(__clang__))

#include <type_traits>

#include "apsp/backends/host_pivot_loop_x86_row.hpp"

namespace apsp::host_simd {

// clang-format off
// One row of the block (host_pivot_loop_x86_row.hpp): A's word broadcast into zmm28, B in zmm26
// and zmm27, the sum in zmm29, the row's two accumulators C0, C1 (registers).
#define APSP_AVX512_ROW(ADD, MIN, ADDR, C0, C1) \
  APSP_X86_ADDMIN_ROW(ADD, MIN, ADDR, "%%zmm26", "%%zmm27", "%%zmm28", "%%zmm29", C0, C1)

// One pivot at byte offsets AO into A's rows and BO into B, with PF (text) before its rows: rows
// 0, 1, 2, 4 from rax = A (rows s bytes apart), 3 and 6 at t = 3 s from rax, 5 and 7 from
// r10 = rax + t; B from r11. The accumulators: zmm0-15, row i's in zmm(2 i), zmm(2 i + 1).
#define APSP_AVX512_PIVOT(ADD, MIN, AO, BO, PF)                           \
      "vmovdqa64 " BO "(%%r11), %%zmm26\n\t"                              \
      "vmovdqa64 " BO "+64(%%r11), %%zmm27\n\t"                           \
      PF                                                                  \
      APSP_AVX512_ROW(ADD, MIN, AO "(%%rax)", "%%zmm0", "%%zmm1")         \
      APSP_AVX512_ROW(ADD, MIN, AO "(%%rax,%[s])", "%%zmm2", "%%zmm3")    \
      APSP_AVX512_ROW(ADD, MIN, AO "(%%rax,%[s],2)", "%%zmm4", "%%zmm5")  \
      APSP_AVX512_ROW(ADD, MIN, AO "(%%rax,%[t])", "%%zmm6", "%%zmm7")    \
      APSP_AVX512_ROW(ADD, MIN, AO "(%%rax,%[s],4)", "%%zmm8", "%%zmm9")  \
      APSP_AVX512_ROW(ADD, MIN, AO "(%%r10,%[s],2)", "%%zmm10", "%%zmm11")\
      APSP_AVX512_ROW(ADD, MIN, AO "(%%rax,%[t],2)", "%%zmm12", "%%zmm13")\
      APSP_AVX512_ROW(ADD, MIN, AO "(%%r10,%[s],4)", "%%zmm14", "%%zmm15")
// B's row kPanelAhead (16) pivots on: 16 * 128 bytes.
#define APSP_AVX512_PANEL_AHEAD(BO) \
      "prefetcht0 " BO "+2048(%%r11)\n\t" "prefetcht0 " BO "+2112(%%r11)\n\t"
// Rows 2 J and 2 J + 1 of the block (J: 0-3), from r9 = c + 2 J [cl] (rows [cl] bytes apart; a
// row's second register OFF bytes after its first), into or out of zmm(4 J) to zmm(4 J + 3), r9
// then on to the next pair.
#define APSP_AVX512_ROWS_LOAD(OFF, R0, R1, R2, R3)                                                     \
      "vmovdqu64 (%%r9), %%zmm" #R0 "\n\t" "vmovdqu64 " OFF "(%%r9), %%zmm" #R1 "\n\t"             \
      "vmovdqu64 (%%r9,%[cl]), %%zmm" #R2 "\n\t" "vmovdqu64 " OFF "(%%r9,%[cl]), %%zmm" #R3 "\n\t" \
      "lea (%%r9,%[cl],2), %%r9\n\t"
#define APSP_AVX512_ROWS_STORE(OFF, R0, R1, R2, R3)                                                    \
      "vmovdqu64 %%zmm" #R0 ", (%%r9)\n\t" "vmovdqu64 %%zmm" #R1 ", " OFF "(%%r9)\n\t"             \
      "vmovdqu64 %%zmm" #R2 ", (%%r9,%[cl])\n\t" "vmovdqu64 %%zmm" #R3 ", " OFF "(%%r9,%[cl])\n\t" \
      "lea (%%r9,%[cl],2), %%r9\n\t"
// The pass: the block from C ([c], rows [cl] bytes apart) into zmm0-15, an odd pivot first, then
// runs of [seg] pivots (even) two per iteration, each run after the prefetches of one row of the
// next block's C (rdx, [rows] rows [ld] bytes apart, 4 lines each), the block back to C. Loops
// start on a cache line.
#define APSP_AVX512_PASS_8X2(ADD, MIN, PF0, PF1, OFF)                      \
  asm volatile(                                                           \
      "mov %[c], %%r9\n\t"                                               \
      APSP_AVX512_ROWS_LOAD(OFF, 0, 1, 2, 3) APSP_AVX512_ROWS_LOAD(OFF, 4, 5, 6, 7) \
      APSP_AVX512_ROWS_LOAD(OFF, 8, 9, 10, 11) APSP_AVX512_ROWS_LOAD(OFF, 12, 13, 14, 15) \
      "mov %[a], %%rax\n\t"                                               \
      "lea (%%rax,%[t]), %%r10\n\t"                                       \
      "mov %[b], %%r11\n\t"                                               \
      "mov %[n], %%rcx\n\t"                                               \
      "mov %[at], %%rdx\n\t"                                              \
      "mov %[rows], %%r8\n\t"                                             \
      "test $1, %%rcx\n\t"                                                \
      "jz 2f\n\t"                                                         \
      APSP_AVX512_PIVOT(ADD, MIN, "0", "0", PF0)                          \
      "add $4, %%rax\n\t"                                                 \
      "add $4, %%r10\n\t"                                                 \
      "add $128, %%r11\n\t"                                               \
      "dec %%rcx\n\t"                                                     \
      "2:\n\t"                                                            \
      "test %%rcx, %%rcx\n\t"                                             \
      "jz 5f\n\t"                                                         \
      "4:\n\t"                                                            \
      "test %%r8, %%r8\n\t"                                               \
      "jz 6f\n\t"                                                         \
      "prefetchw (%%rdx)\n\t"                                             \
      "prefetchw 64(%%rdx)\n\t"                                           \
      "prefetchw 128(%%rdx)\n\t"                                          \
      "prefetchw 192(%%rdx)\n\t"                                          \
      "add %[ld], %%rdx\n\t"                                              \
      "dec %%r8\n\t"                                                      \
      "6:\n\t"                                                            \
      "mov %[seg], %%r9\n\t"                                              \
      "cmp %%rcx, %%r9\n\t"                                               \
      "cmova %%rcx, %%r9\n\t"                                             \
      "sub %%r9, %%rcx\n\t"                                               \
      "shr $1, %%r9\n\t"                                                  \
      ".p2align 6\n\t"                                                    \
      "1:\n\t"                                                            \
      APSP_AVX512_PIVOT(ADD, MIN, "0", "0", PF0)                          \
      APSP_AVX512_PIVOT(ADD, MIN, "4", "128", PF1)                        \
      "add $8, %%rax\n\t"                                                 \
      "add $8, %%r10\n\t"                                                 \
      "add $256, %%r11\n\t"                                               \
      "dec %%r9\n\t"                                                      \
      "jnz 1b\n\t"                                                        \
      "test %%rcx, %%rcx\n\t"                                             \
      "jnz 4b\n\t"                                                        \
      "5:\n\t"                                                            \
      "mov %[c], %%r9\n\t"                                               \
      APSP_AVX512_ROWS_STORE(OFF, 0, 1, 2, 3) APSP_AVX512_ROWS_STORE(OFF, 4, 5, 6, 7) \
      APSP_AVX512_ROWS_STORE(OFF, 8, 9, 10, 11) APSP_AVX512_ROWS_STORE(OFF, 12, 13, 14, 15) \
      :                                                                   \
      : [c] "r"(c), [cl] "r"(c_ld), [a] "m"(a), [b] "m"(b), [n] "m"(pivots), [at] "m"(at), [rows] "m"(rows), \
        [seg] "m"(seg), [ld] "m"(ld), [s] "r"(stride), [t] "r"(3 * stride) \
      : "memory", "cc", "rax", "rcx", "rdx", "r8", "r9", "r10", "r11",    \
        "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",   \
        "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", \
        "xmm26", "xmm27", "xmm28", "xmm29")
// clang-format on

template <class Lanes>
struct PivotLoop<Lanes, 8, 2> {
  static_assert(AheadLines<8, 2>::kPerRow == 4, "a row of the next block: 4 lines");
  /// relax_at() takes C where it lies (MicroTile::relax_at).
  static constexpr bool kInPlace = true;
  /// The block c over pivots [0, depth); the next block's rows asked for one per depth / 8
  /// pivots.
  APSP_SIMD_INLINE static void relax(Reg (&c)[8][2], const int32_t* a, int a_pitch, const typename Lanes::Lane* b,
                                     int depth, const AheadLines<8, 2>& ahead) {
    relax_at(reinterpret_cast<char*>(&c[0][0]), int64_t(sizeof c[0]), a, a_pitch, b, depth, ahead);
  }
  /// The same on the block at `c` whose rows lie `c_ld` bytes apart, loaded and stored by the
  /// pass itself. Through a copy on the stack (relax()) each pass took 64 more loads and stores
  /// of a register; with the 16-bit stage's products in place, random graphs solved in 0.984x
  /// the time on the Zen 5 EPYC at 1 and 2 threads and 0.974x / 0.981x / 1.000x on the Xeon at
  /// 1 / 8 / 16 threads, and with the int32 matrix's int32 blocks in place too, graphs of heavy
  /// weights (int32 throughout) in 0.972x / 0.980x on the Zen 5 EPYC at 1 / 2 threads and
  /// 0.984x / 0.967x on the Xeon at 8 / 16 threads (docs/results.md). kSecond: bytes from a row's first register to its
  /// second, 64 (contiguous) or 128 (the int32 matrix's blocks: every other register's columns).
  template <int kSecond = 64>
  APSP_SIMD_INLINE static void relax_at(char* c, int64_t c_ld, const int32_t* a, int a_pitch,
                                        const typename Lanes::Lane* b, int depth, const AheadLines<8, 2>& ahead) {
    static_assert(kSecond == 64 || kSecond == 128, "APSP_AVX512_PASS_8X2's offsets");
    if constexpr (kSecond == 64)
      pass<true>(c, c_ld, a, a_pitch, b, depth, ahead);
    else
      pass<false>(c, c_ld, a, a_pitch, b, depth, ahead);
  }

 private:
  template <bool kContiguous>
  APSP_SIMD_INLINE static void pass(char* c, int64_t c_ld, const int32_t* a, int a_pitch, const typename Lanes::Lane* b,
                                    int depth, const AheadLines<8, 2>& ahead) {
    if (depth <= 0) return;
    const int64_t stride = int64_t(a_pitch) * int64_t(sizeof(int32_t)), pivots = depth;
    const char* at = ahead.next.at;
    const int64_t rows = at != nullptr ? 8 : 0, ld = ahead.next.ld;
    const int64_t seg = depth / 8 >= 2 ? depth / 8 & ~int64_t(1) : 2;
    static_assert(kPanelAhead == 0 || kPanelAhead * 2 * kBytes == 2048, "APSP_AVX512_PANEL_AHEAD's offsets");
#define APSP_AVX512_PASS_LANES(OFF)                                                                                 \
  if constexpr (std::is_same_v<Lanes, U16>) {                                                                       \
    if constexpr (kPanelAhead > 0)                                                                                  \
      APSP_AVX512_PASS_8X2("vpaddw", "vpminuw", APSP_AVX512_PANEL_AHEAD("0"), APSP_AVX512_PANEL_AHEAD("128"), OFF); \
    else                                                                                                            \
      APSP_AVX512_PASS_8X2("vpaddw", "vpminuw", "", "", OFF);                                                       \
  } else {                                                                                                          \
    if constexpr (kPanelAhead > 0)                                                                                  \
      APSP_AVX512_PASS_8X2("vpaddd", "vpminsd", APSP_AVX512_PANEL_AHEAD("0"), APSP_AVX512_PANEL_AHEAD("128"), OFF); \
    else                                                                                                            \
      APSP_AVX512_PASS_8X2("vpaddd", "vpminsd", "", "", OFF);                                                       \
  }
    if constexpr (kContiguous) {
      APSP_AVX512_PASS_LANES("64")
    } else {
      APSP_AVX512_PASS_LANES("128")
    }
#undef APSP_AVX512_PASS_LANES
  }
};

#undef APSP_AVX512_PASS_8X2
#undef APSP_AVX512_ROWS_STORE
#undef APSP_AVX512_ROWS_LOAD
#undef APSP_AVX512_PANEL_AHEAD
#undef APSP_AVX512_PIVOT
#undef APSP_AVX512_ROW

}  // namespace apsp::host_simd

#endif
