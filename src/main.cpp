// SPDX-License-Identifier: BSD-3-Clause
// apsp_kokkos: all-pairs shortest paths by blocked Floyd-Warshall.
//
//   apsp_kokkos [--kokkos-...] INPUT OUTPUT [--block-size B] [--quiet] [--verify[=K]] ...
//
// MPI first (when a launcher started us), then Kokkos with its own options, then ours; the
// run itself is the pipeline (one process, or the ranks of an MPI job: cli/run_outcome.cpp).
#include <unistd.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <iostream>
#include <optional>
#include <string>

#include "apsp/core/process_clock.hpp"
#include "apsp/io/input_prefetch.hpp"
#include "apsp/mpi/runtime.hpp"
#include "apsp/pipeline/pipeline.hpp"
#include "cli/command_line.hpp"
#include "cli/console.hpp"
#include "cli/kokkos_args.hpp"
#include "cli/launch_checks.hpp"
#include "cli/run_outcome.hpp"
#include "cli/thread_binding.hpp"

namespace {

// Edge-list bytes read ahead while Kokkos starts: at most 2 GiB, and an eighth of the memory
// the run may use, shared by the ranks of a node (the rest is read as the matrix is built).
int64_t prefetch_bytes(const apsp::RunOptions& run, const apsp::mpi::Runtime& mpi) {
  const int64_t memory = run.host_memory_limit > 0 ? run.host_memory_limit : apsp::host_memory_available();
  return std::min<int64_t>(int64_t(2) << 30, memory / 8 / std::max(1, mpi.local_size()));
}

// Kokkos with its own arguments; false (after one line) where it cannot start, e.g. a GPU
// build where no GPU is visible.
bool start_kokkos(std::optional<Kokkos::ScopeGuard>& kokkos, apsp::cli::KokkosArguments& args) {
  try {
    kokkos.emplace(args.argc(), args.argv());
    return true;
  } catch (const std::exception& e) {
    const std::string what = e.what();  // (its first line: Kokkos appends a traceback note)
    std::fprintf(stderr, "apsp_kokkos: error: Kokkos could not start this %s build: %s\n",
                 Kokkos::DefaultExecutionSpace::name(), what.substr(0, what.find('\n')).c_str());
    return false;
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  apsp::process_start();                         // the run's clock starts with the process
  apsp::cli::share_node_before_mpi(argc, argv);  // may start the program again, on this rank's CPUs
  if (const int refused = apsp::cli::refuse_step_without_process_manager()) return refused;
  apsp::mpi::Runtime mpi(&argc, &argv);  // finalised last
  if (const int refused = apsp::cli::refuse_lone_process(mpi)) return refused;
  const bool rank0 = mpi.rank() == 0;                                             // rank 0 speaks for the job
  const std::string binding = apsp::cli::choose_thread_binding(argc, argv, mpi);  // before OpenMP starts
  if (const int refused = apsp::cli::refuse_shared_cpus(mpi)) return refused;
  apsp::cli::KokkosArguments kokkos_args(argc, argv, mpi);

  // --help, --version and --list-backends are answered before Kokkos starts: they need no
  // device (a GPU build on a login node without the GPU answers them too). Anything else that
  // does not parse yet is left to the parse after Kokkos has taken its own options.
  int status = 0;
  const auto early = apsp::cli::early_command_line(argc, argv, false, status);
  if (!early && status == 0 && !kokkos_args.kokkos_help()) {
    apsp::cli::early_command_line(argc, argv, rank0, status);  // this time printed
    return status;
  }
  // A device id that names no GPU: one line on every rank, before any work (Kokkos would abort;
  // under several ranks the choice would be replaced, but a GPU that is not there is a mistake).
  if (const int refused = apsp::cli::refuse_missing_device(kokkos_args.asked_device_id(), mpi)) return refused;
  // The input is opened and read on a thread while Kokkos and the device initialise (a text
  // graph is read where the run reads its input: it is one pass either way).
  std::optional<apsp::InputPrefetch> prefetch;
  if (early && !early->run.input.empty() && !apsp::GraphFile::is_text(early->run.input, early->run.input_format))
    prefetch.emplace(early->run.input, prefetch_bytes(early->run, mpi));
  std::optional<Kokkos::ScopeGuard> kokkos;
  if (!start_kokkos(kokkos, kokkos_args)) return 1;
  if (kokkos_args.kokkos_help()) return 0;  // Kokkos has printed its options
  if (kokkos_args.print_configuration() && rank0) Kokkos::print_configuration(std::cout);

  auto cl = apsp::cli::parse_command_line(kokkos_args.remaining(), rank0, status);
  if (!cl) return status;
  cl->run.started = mpi.active() ? mpi.init_started() : apsp::process_start();
  cl->run.thread_binding = binding;
  if (prefetch && prefetch->path() == cl->run.input) cl->run.open_input = [&prefetch] { return prefetch->take(); };
  const bool quiet = cl->quiet || !rank0;
  if (const std::string sharing = kokkos_args.gpu_sharing(cl->run.backend); !quiet && !sharing.empty())
    std::fprintf(stderr, "apsp_kokkos: warning: %s\n", sharing.c_str());
  if (!quiet) cl->run.on_start = apsp::cli::print_banner;
  if (!quiet && (cl->progress || ::isatty(STDERR_FILENO))) cl->run.on_progress = apsp::cli::print_progress;
  return apsp::cli::run_and_report(*cl, mpi);
}
