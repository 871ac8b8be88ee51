// SPDX-License-Identifier: BSD-3-Clause
// What the program prints: the banner before the solve, progress, the stage breakdown, the
// self-check's verdict and the one greppable RESULT line.
#pragma once

#include <cstdio>

#include "apsp/pipeline/run_report.hpp"

namespace apsp::cli {

/// Program, commit, Kokkos, backend and device; V, E, block and memory (stderr).
void print_banner(const RunReport& r);
/// Rounds done and time left, on one line rewritten in place (stderr).
void print_progress(int done, int rounds, double seconds);
/// Seconds per stage, and per phase when timed (stderr).
void print_breakdown(const RunReport& r);
/// "apsp_kokkos VERIFY PASSED|FAILED ..." (to stdout by default); a FAILED verdict is printed even when quiet.
void print_verdict(const RunReport& r, bool quiet, std::FILE* to = stdout);
/// "apsp_kokkos RESULT V=... solve_s=... total_s=..." (stdout).
void print_result(const RunReport& r);

}  // namespace apsp::cli
