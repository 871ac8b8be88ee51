// SPDX-License-Identifier: BSD-3-Clause
// One row of a block of C in the x86 pivot loops written in assembly (host_pivot_loop_avx2.hpp,
// host_pivot_loop_avx512.hpp), the same text at either register width: broadcast A's word (at
// ADDR) into register A, add both registers of B (B0, B1) into S and A, min S and A into the
// row's two accumulators (C0, C1). Registers are given as asm text ("%%ymm14", "%[c00]").
#pragma once

// clang-format off
#define APSP_X86_ADDMIN_ROW(ADD, MIN, ADDR, B0, B1, A, S, C0, C1) \
  "vpbroadcastd " ADDR ", " A "\n\t"                             \
  ADD " " B0 ", " A ", " S "\n\t"                                \
  ADD " " B1 ", " A ", " A "\n\t"                                \
  MIN " " S ", " C0 ", " C0 "\n\t"                               \
  MIN " " A ", " C1 ", " C1 "\n\t"
// clang-format on
