// SPDX-License-Identifier: BSD-3-Clause
// Launches that cannot work, refused with one line before any work: each returns the exit
// status (2) after printing, or 0 when the launch is fine.
#pragma once

#include "apsp/mpi/runtime.hpp"

namespace apsp::cli {

/// Before MPI starts: a task of a Slurm step whose MPI cannot reach the step's process manager
/// (every task would be a world of its own, or MPI_Init would abort).
int refuse_step_without_process_manager();

/// After MPI started: a launch of several processes that this process cannot join (a build
/// without MPI, or an MPI that sees this process alone).
int refuse_lone_process(const mpi::Runtime& mpi);

/// An OMP_PROC_BIND that puts two ranks of a node on the same CPUs (they would take turns).
int refuse_shared_cpus(const mpi::Runtime& mpi);

/// A device id (`device`: --kokkos-device-id or KOKKOS_DEVICE_ID as Kokkos will get it, -1 for
/// none) that names no GPU this process can see, in a build with a GPU backend: Kokkos would
/// abort with a backtrace. Every rank of an MPI job ends alike; rank 0 names the GPUs there are.
int refuse_missing_device(int device, const mpi::Runtime& mpi);

}  // namespace apsp::cli
