// SPDX-License-Identifier: BSD-3-Clause
// apsp_kokkos: all-pairs shortest paths by blocked Floyd-Warshall.
//
//   apsp_kokkos [--kokkos-...] INPUT OUTPUT [--block-size B] [--quiet] [--verify[=K]] ...
//
// MPI first (when a launcher started us), then Kokkos with its own options, then ours; the
// run itself is the pipeline (one process, or the ranks of an MPI job).
#include <unistd.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>

#include "apsp/core/errors.hpp"
#include "apsp/core/process_clock.hpp"
#include "apsp/io/input_prefetch.hpp"
#include "apsp/io/output_path.hpp"
#include "apsp/mpi/runtime.hpp"
#include "apsp/pipeline/pipeline.hpp"
#include "apsp/report/run_record.hpp"
#include "cli/command_line.hpp"
#include "cli/console.hpp"
#include "cli/kokkos_args.hpp"
#include "cli/thread_binding.hpp"
#if defined(APSP_HAVE_MPI)
#include "apsp/mpi/distributed_pipeline.hpp"
#endif

namespace {

apsp::RunReport run(const apsp::RunOptions& options, const apsp::mpi::Runtime& mpi) {
#if defined(APSP_HAVE_MPI)
  if (mpi.active()) return apsp::mpi::run_distributed_pipeline(options, mpi);
#endif
  (void)mpi;
  return apsp::run_pipeline(options);
}

// Edge-list bytes read ahead while Kokkos starts: at most 2 GiB, and an eighth of the memory
// the run may use, shared by the ranks of a node (the rest is read as the matrix is built).
int64_t prefetch_bytes(const apsp::RunOptions& run, const apsp::mpi::Runtime& mpi) {
  const int64_t memory = run.host_memory_limit > 0 ? run.host_memory_limit : apsp::host_memory_available();
  return std::min<int64_t>(int64_t(2) << 30, memory / 8 / std::max(1, mpi.local_size()));
}

// Bad input and bad options exit 2, any other failure 1. Under MPI a failure every rank agreed
// on is reported once, by rank 0; any other ends the whole job.
int report_failure(const std::exception& e, const apsp::mpi::Runtime& mpi) {
  const bool bad_input =
      dynamic_cast<const apsp::InputError*>(&e) != nullptr || dynamic_cast<const std::invalid_argument*>(&e) != nullptr;
  const int code = bad_input ? 2 : 1;
  if (mpi.active() && apsp::mpi::failure_agreed()) {
    if (mpi.rank() == 0) std::fprintf(stderr, "apsp_kokkos: error: %s\n", e.what());
    return code;
  }
  if (mpi.active())
    std::fprintf(stderr, "apsp_kokkos: error: rank %d: %s\n", mpi.rank(), e.what());
  else
    std::fprintf(stderr, "apsp_kokkos: error: %s\n", e.what());
  std::fflush(stderr);
  if (mpi.active()) mpi.abort(code);
  return code;
}

}  // namespace

int main(int argc, char* argv[]) {
  apsp::process_start();                   // the run's clock starts with the process
  apsp::cli::share_node_before_mpi(argv);  // may start the program again, on this rank's CPUs
  // srun with an MPI that cannot reach Slurm's process manager: every task would be a world of
  // its own and solve (and write) the whole problem, or the MPI library would abort in MPI_Init.
  const auto unreachable_process_manager = [] {
    std::fprintf(stderr,
                 "apsp_kokkos: error: started as one of %d tasks, but MPI sees this process alone (the MPI library "
                 "cannot reach the launcher's process manager); under Slurm use srun --mpi=pmix (or pmi2), or "
                 "mpirun\n",
                 apsp::mpi::launched_world_size());
    return 2;
  };
  if (apsp::mpi::built_with_mpi() && apsp::mpi::slurm_step_without_process_manager())
    return unreachable_process_manager();
  apsp::mpi::Runtime mpi(&argc, &argv);  // finalised last
  if (!mpi.active() && apsp::mpi::launched_world_size() > 1) {
    std::fprintf(stderr,
                 "apsp_kokkos: error: started as one of %d MPI processes, but this build has no MPI (configure with "
                 "MPI installed); each process would solve the whole problem\n",
                 apsp::mpi::launched_world_size());
    return 2;
  }
  if (mpi.active() && mpi.size() == 1 && apsp::mpi::launched_world_size() > 1) return unreachable_process_manager();
  const bool rank0 = mpi.rank() == 0;                                             // rank 0 speaks for the job
  const std::string binding = apsp::cli::choose_thread_binding(argc, argv, mpi);  // before OpenMP starts
  if (const char* bind = std::getenv("OMP_PROC_BIND"); bind != nullptr && std::string(bind) != "false") {
    // A binding that puts two ranks of a node on the same CPUs would make them take turns.
    if (const std::string clash = mpi.shared_cpus(); !clash.empty()) {
      if (rank0)
        std::fprintf(stderr,
                     "apsp_kokkos: error: %s (OMP_PROC_BIND=%s binds every rank's threads alike); unset "
                     "OMP_PROC_BIND and OMP_PLACES (each rank then takes its own share of the node) or bind "
                     "ranks with the launcher (mpirun --bind-to core --map-by slot:PE=N, srun --cpu-bind=cores)\n",
                     clash.c_str(), bind);
      return 2;
    }
  }
  apsp::cli::KokkosArguments kokkos_args(argc, argv, mpi);
  // --help, --version and --list-backends are answered before Kokkos starts: they need no
  // device (a GPU build on a login node without the GPU answers them too). Anything else that
  // does not parse yet is left to the parse after Kokkos has taken its own options.
  int early_status = 0;
  const auto early = apsp::cli::early_command_line(argc, argv, false, early_status);
  if (!early && early_status == 0 && !kokkos_args.kokkos_help()) {
    apsp::cli::early_command_line(argc, argv, rank0, early_status);  // this time printed
    return early_status;
  }
  // The input is opened and read on a thread while Kokkos and the device initialise.
  std::optional<apsp::InputPrefetch> prefetch;
  if (early && !early->run.input.empty()) prefetch.emplace(early->run.input, prefetch_bytes(early->run, mpi));
  std::optional<Kokkos::ScopeGuard> kokkos;
  try {
    kokkos.emplace(kokkos_args.argc(), kokkos_args.argv());
  } catch (const std::exception& e) {   // e.g. a GPU build where no GPU is visible
    const std::string what = e.what();  // (its first line: Kokkos appends a traceback note)
    std::fprintf(stderr, "apsp_kokkos: error: Kokkos could not start this %s build: %s\n",
                 Kokkos::DefaultExecutionSpace::name(), what.substr(0, what.find('\n')).c_str());
    return 1;
  }
  if (kokkos_args.kokkos_help()) return 0;  // Kokkos has printed its options
  if (kokkos_args.print_configuration() && rank0) Kokkos::print_configuration(std::cout);

  int exit_status = 0;
  auto cl = apsp::cli::parse_command_line(kokkos_args.remaining(), rank0, exit_status);
  if (!cl) return exit_status;
  cl->run.started = mpi.active() ? mpi.init_started() : apsp::process_start();
  cl->run.thread_binding = binding;
  if (prefetch && prefetch->path() == cl->run.input) cl->run.open_input = [&prefetch] { return prefetch->take(); };
  const bool quiet = cl->quiet || !rank0;
  if (const std::string sharing = kokkos_args.gpu_sharing(cl->run.backend); !quiet && !sharing.empty())
    std::fprintf(stderr, "apsp_kokkos: warning: %s\n", sharing.c_str());
  if (!quiet) cl->run.on_start = apsp::cli::print_banner;
  if (!quiet && (cl->progress || ::isatty(STDERR_FILENO))) cl->run.on_progress = apsp::cli::print_progress;

  // --json -: the record is the run's standard output (instead of the RESULT line).
  const bool record_to_stdout = cl->json_path == "-";
  try {
    const auto report = run(cl->run, mpi);
    if (!cl->json_path.empty() && rank0) apsp::write_run_record(cl->json_path, cl->run, report);
    // Printed once the run has ended, so that a failed run prints one line.
    if (!quiet) apsp::cli::print_breakdown(report);
    if (rank0) apsp::cli::print_verdict(report, quiet || record_to_stdout, record_to_stdout ? stderr : stdout);
    if (!quiet && !record_to_stdout) apsp::cli::print_result(report);
    return report.verified && !report.verify.passed ? 1 : 0;
  } catch (const std::exception& e) {
    const int code = report_failure(e, mpi);
    if (!cl->json_path.empty() && rank0) {
      try {
        // The same checks the run makes before any work (the record may name the input or
        // the output by mistake: then there is no record, never a damaged file).
        const auto& o = cl->run;
        apsp::check_record_path(o.record_path, o.output, /*output_discarded=*/false, o.input);
        apsp::write_failure_record(o.record_path, o, code == 2 ? "bad_input" : "failed", e.what());
      } catch (const std::exception&) {
        // the error line has been printed; a record that cannot be written adds nothing to it
      }
    }
    return code;
  }
}
