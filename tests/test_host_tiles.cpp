// SPDX-License-Identifier: BSD-3-Clause
// Runs host_tiles_checks.cpp and host_tiles16_checks.cpp, compiled for one instruction set (APSP_TEST_ISA), where this
// CPU has that instruction set; skipped elsewhere. This file is compiled for plain x86-64 (or the target's baseline),
// so nothing runs here that the CPU lacks.
#include <gtest/gtest.h>

#include <string>

const char* host_tiles_isa();
std::string check_host_tiles();
std::string check_host_tiles16();

namespace {

bool cpu_has_isa() {
  const std::string isa = APSP_TEST_ISA;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  if (isa == "avx512") return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
  if (isa == "avx2") return __builtin_cpu_supports("avx2");
  if (isa == "sse41") return __builtin_cpu_supports("sse4.1");
#endif
  return true;  // scalar, sse2 (every x86-64), or the build's own target
}

TEST(HostTiles, ProductAndClosureAgainstNaiveLoops) {
  if (!cpu_has_isa()) GTEST_SKIP() << "this CPU lacks " << APSP_TEST_ISA;
  RecordProperty("isa", host_tiles_isa());
  EXPECT_EQ(check_host_tiles(), "") << "instruction set " << host_tiles_isa();
}

TEST(HostTiles, SixteenBitMatrixProductAndClosureAgainstNaiveLoops) {
  if (!cpu_has_isa()) GTEST_SKIP() << "this CPU lacks " << APSP_TEST_ISA;
  EXPECT_EQ(check_host_tiles16(), "") << "instruction set " << host_tiles_isa();
}

}  // namespace
