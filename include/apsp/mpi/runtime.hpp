// SPDX-License-Identifier: BSD-3-Clause
// MPI for the lifetime of main(). MPI is initialised only when an MPI launcher (mpirun,
// mpiexec, srun) started the process, so that a plain `./apsp_kokkos in out` never touches
// it. This header does not need <mpi.h>; in a build without MPI the runtime is never active.
#pragma once

#include <chrono>
#include <string>

namespace apsp::mpi {

/// True when this build has the MPI layer.
bool built_with_mpi();

/// Processes in the job that started this one, as the launcher's environment says (Open MPI,
/// MPICH/Hydra, PMI, Slurm); 1 when the process was started on its own.
int launched_world_size();

/// In a build with Open MPI, a task of an srun step of several tasks that was given no
/// process manager to reach (srun --mpi=none, often Slurm's default): no PMI or PMIx variable
/// in its environment, and Open MPI would abort inside MPI_Init with a dozen lines.
bool slurm_step_without_process_manager();

/// This process's place among the processes a launcher started on its node, from the
/// launcher's environment (Open MPI, MPICH/Hydra, Slurm), before MPI is initialised; size 0
/// when the environment does not say.
struct LocalPlace {
  int rank = 0, size = 0;
};
LocalPlace launched_local_place();

class Runtime {
 public:
  /// Initialises MPI (thread level FUNNELED: only the main thread calls MPI) when the
  /// process was started by a launcher and the build has MPI.
  Runtime(int* argc, char*** argv);
  ~Runtime();  ///< MPI_Finalize
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  bool active() const { return active_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  /// Rank among the processes on this node, and their number (MPI_COMM_TYPE_SHARED).
  int local_rank() const { return local_rank_; }
  int local_size() const { return local_size_; }
  /// Nodes in the job (processes with local rank 0).
  int nodes() const { return nodes_; }
  /// When MPI_Init was called: where an MPI run's clock starts.
  std::chrono::steady_clock::time_point init_started() const { return init_started_; }

  /// Collective: "ranks 0 and 1 on <host> share CPUs 0-3" when two ranks of one node may run
  /// on the same CPUs (their affinity masks overlap), else "".
  std::string shared_cpus() const;

  /// Collective where active: the refusal of the lowest rank that has one (`mine`: this rank's,
  /// "" for none), so that every rank ends alike; `mine` itself where MPI is not active.
  std::string first_refusal(const std::string& mine) const;

  /// Ends every process of the job with `code` (for a failure that not every rank saw).
  [[noreturn]] void abort(int code) const;

 private:
  bool active_ = false;
  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1, nodes_ = 1;
  std::chrono::steady_clock::time_point init_started_{};
};

/// True when the MPI library says it reads and writes the device memory of `api` ("CUDA" or
/// "ROCm": a backend's BackendRuntime::kMpiDeviceApi) itself (Open MPI's MPIX_Query_cuda_support,
/// MPIX_Query_rocm_support); false when unknown or `api` is null (the host).
bool device_aware(const char* api);

/// Set when a failure was agreed on by every rank (each throws the same error, rank 0 reports
/// it); a failure that is not agreed must end the job with abort().
bool failure_agreed();
void set_failure_agreed();

}  // namespace apsp::mpi
