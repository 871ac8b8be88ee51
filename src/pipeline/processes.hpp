// SPDX-License-Identifier: BSD-3-Clause
// The processes a run is spread over, as the pipeline (run_stages.hpp) sees them. Two
// policies implement this: SingleProcess (single_process.hpp: one process, every call free)
// and MpiRanks (src/mpi/mpi_ranks.hpp: the ranks of an MPI job, one device each).
//
// A policy `P` provides:
// - `P::kMpi`: whether the processes are MPI ranks (messages then speak "per rank");
//   `ranks()`, `nodes()`, `ranks_on_node()`, `partition(tiles)` (which tile rows each holds,
//   TileRowPartition), `rank()`, `describe(report)` (ranks, nodes and how pivot rows travel);
// - agreement: `collectively(stage)` runs a stage that may throw; under MPI every rank then
//   throws the error of the lowest failing rank, so that all leave the same way;
//   `slowest(seconds)` (the maximum over ranks), `total(count)` (the sum), `barrier()`, `devices(mine)` (every
//   process's device, as one line), `combine(local)` (the self-check's verdict over ranks), `concatenate(ints)` (every
//   process's vector, in rank order, on every process);
// - the output: `write_threads(requested)` and `open_output(path, cols, threads)`, the
//   ResultFile that this process writes its rows into;
// - the solver, for a single-device round driver FW (BlockedFloydWarshall):
//   `solver_memory<FW>(V, B)` (what it allocates beside the matrix) and
//   `Solver<FW>`, built from (policy, FW::Matrix), whose `solve(phase_times, after_round)`
//   runs every round and returns SolveSeconds.
#pragma once

#include <cstdint>

namespace apsp::Impl {

/// What a solver spends beside its matrix rows: in the matrix's memory space, and in pinned
/// host memory (pivot rows staged for an MPI without device support).
struct SolverMemory {
  int64_t beside_matrix = 0;
  int64_t pinned_host = 0;
};

/// Seconds a solve reports: per phase (only when timed, a fence after each), and under MPI
/// the time blocked in pivot-row broadcasts and waiting for their copies.
struct SolveSeconds {
  double phase[3] = {0, 0, 0};
  double mpi = 0, staging = 0;
  double opening = 0;     ///< (blocks across ranks) the owner's wait for its next block's opening
  int block_rounds = 0;   ///< (MPI) rounds per block across ranks; 1: one at a time
  int64_t lanes16 = 0;    ///< this process's relaxations in 16-bit lanes (phases 2 and 3)
  int64_t computed = 0;   ///< and in either lane type (0: not counted)
  int64_t left_out = 0;   ///< the relaxations of the products left out (an operand of INF alone)
  int matrix16_from = 0;  ///< (CPU) the round from which distances were kept in 16 bits; 0: never
};

}  // namespace apsp::Impl
