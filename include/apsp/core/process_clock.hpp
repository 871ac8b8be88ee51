// SPDX-License-Identifier: BSD-3-Clause
// The clock a run's total is measured on: from the start of the process, as a user times it
// (`time ./apsp_kokkos in out`), not from whenever the program's own code first ran.
#pragma once

#include <chrono>
#include <string>

namespace apsp {

/// Process `pid`'s start time in clock ticks since boot (field 22 of /proc/<pid>/stat), as
/// text, or "" when there is no such process.
std::string process_start_ticks(long pid);

/// The steady-clock instant at which this process started: the kernel's start time of the
/// process (/proc/self/stat, one clock tick of resolution: 10 ms) against CLOCK_BOOTTIME.
/// Where that cannot be read, the first call's instant.
std::chrono::steady_clock::time_point process_start();

}  // namespace apsp
