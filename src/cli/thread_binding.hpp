// SPDX-License-Identifier: BSD-3-Clause
// OpenMP's thread binding, chosen before Kokkos starts where the user chose none.
#pragma once

#include <string>
#include <vector>

#include "apsp/mpi/runtime.hpp"

namespace apsp::cli {

/// Under MPI with several ranks on a node, gives this rank CPUs of its own (the launcher's
/// binding, else its share of the node; a GPU rank bound to a single CPU, as Open MPI binds
/// -np <= 2 by default, takes its share: core/cpus.hpp's gpu_rank_cpus says why) and binds its
/// OpenMP threads there whatever OMP_PLACES says (only OMP_PROC_BIND=false alone is kept).
/// Otherwise sets OMP_PROC_BIND (and OMP_PLACES) when neither is set: a CPU run that has the
/// node to itself spreads its threads over the hardware threads (spread, threads); a GPU run, or a
/// node shared by several ranks, leaves them unbound (false), which also spares users Kokkos'
/// advice to bind. The user's own settings always win. Returns a phrase for the banner.
/// Before MPI starts (a process may not start itself again after): when a launcher started
/// several ranks on this node without binding them and the user set an OpenMP binding, which
/// would put every rank's threads on the same CPUs, restricts this rank to its share of the
/// node and starts the program once more, so that the binding applies within that share.
void share_node_before_mpi(int argc, char* argv[]);

std::string choose_thread_binding(int argc, char* argv[], const mpi::Runtime& mpi);

/// This run computes on OpenMP's threads: its backend (--backend, else Kokkos' default) is
/// OpenMP. False in a build without OpenMP.
bool openmp_computes(int argc, char* argv[]);

/// The user chose how many host threads Kokkos starts (OMP_NUM_THREADS, --kokkos-num-threads,
/// or 3.x's --kokkos-threads).
bool host_threads_asked(int argc, char* argv[]);

}  // namespace apsp::cli
