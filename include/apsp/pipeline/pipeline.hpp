// SPDX-License-Identifier: BSD-3-Clause
// The whole run in one process: read the graph, build the matrix on the device, solve, check,
// copy back, write (src/pipeline/run_stages.hpp). The MPI job's run is in mpi/.
#pragma once

#include <cstdint>

#include "apsp/pipeline/run_report.hpp"

namespace apsp {

/// Memory the host can still give this process: MemAvailable, capped by a cgroup limit.
int64_t host_memory_available();

/// Runs the whole pipeline on the execution space `options.backend` names. Throws InputError
/// for input that breaks the rules, std::invalid_argument for bad options, std::runtime_error
/// for other failures. The output file appears only on success.
RunReport run_pipeline(const RunOptions& options);

}  // namespace apsp
