// SPDX-License-Identifier: BSD-3-Clause
// The run and what it ends with: the record, the breakdown, the verdict and the RESULT line on
// success; one error line (and a failure record) and the exit status otherwise.
#pragma once

#include "apsp/mpi/runtime.hpp"
#include "command_line.hpp"

namespace apsp::cli {

/// Runs `cl` (the pipeline of one process, or of the MPI job's ranks) and returns the exit
/// status: 0, 1 for a FAILED check or another failure, 2 for bad input or options.
int run_and_report(const CommandLine& cl, const mpi::Runtime& mpi);

}  // namespace apsp::cli
