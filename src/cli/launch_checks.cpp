// SPDX-License-Identifier: BSD-3-Clause
#include "launch_checks.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "apsp/backends/enabled_backends.hpp"

namespace apsp::cli {

namespace {
std::string host_name() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return host;
}

int unreachable_process_manager() {
  std::fprintf(stderr,
               "apsp_kokkos: error: started as one of %d tasks, but MPI sees this process alone (the MPI library "
               "cannot reach the launcher's process manager); under Slurm use srun --mpi=pmix (or pmi2), or "
               "mpirun\n",
               mpi::launched_world_size());
  return 2;
}
}  // namespace

int refuse_step_without_process_manager() {
  if (mpi::built_with_mpi() && mpi::slurm_step_without_process_manager()) return unreachable_process_manager();
  return 0;
}

int refuse_lone_process(const mpi::Runtime& mpi) {
  if (!mpi.active() && mpi::launched_world_size() > 1) {
    std::fprintf(stderr,
                 "apsp_kokkos: error: started as one of %d MPI processes, but this build has no MPI (configure with "
                 "MPI installed); each process would solve the whole problem\n",
                 mpi::launched_world_size());
    return 2;
  }
  if (mpi.active() && mpi.size() == 1 && mpi::launched_world_size() > 1) return unreachable_process_manager();
  return 0;
}

int refuse_shared_cpus(const mpi::Runtime& mpi) {
  const char* bind = std::getenv("OMP_PROC_BIND");
  if (bind == nullptr || std::string(bind) == "false") return 0;
  const std::string clash = mpi.shared_cpus();
  if (clash.empty()) return 0;
  if (mpi.rank() == 0)
    std::fprintf(stderr,
                 "apsp_kokkos: error: %s (OMP_PROC_BIND=%s binds every rank's threads alike); unset "
                 "OMP_PROC_BIND and OMP_PLACES (each rank then takes its own share of the node) or bind "
                 "ranks with the launcher (mpirun --bind-to core --map-by slot:PE=N, srun --cpu-bind=cores)\n",
                 clash.c_str(), bind);
  return 2;
}

int refuse_missing_device(int device, const mpi::Runtime& mpi) {
  std::string mine;
  if (device >= 0 && has_device_backend()) {
    const int gpus = visible_gpus();
    const std::string there = gpus == 0 ? "no GPU is visible to this process (CUDA_VISIBLE_DEVICES, "
                                          "ROCR_VISIBLE_DEVICES or the driver)"
                                        : "the GPUs there are: " + visible_gpu_names();
    if (device >= gpus) mine = "device id " + std::to_string(device) + " names no GPU of " + host_name() + "; " + there;
  }
  const std::string refusal = mpi.first_refusal(mine);
  if (refusal.empty()) return 0;
  if (mpi.rank() == 0) std::fprintf(stderr, "apsp_kokkos: error: %s\n", refusal.c_str());
  return 2;
}

}  // namespace apsp::cli
