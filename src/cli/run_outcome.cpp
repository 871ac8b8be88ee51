// SPDX-License-Identifier: BSD-3-Clause
#include "run_outcome.hpp"

#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>

#include "apsp/core/errors.hpp"
#include "apsp/io/output_path.hpp"
#include "apsp/pipeline/pipeline.hpp"
#include "apsp/report/run_record.hpp"
#include "console.hpp"
#if defined(APSP_HAVE_MPI)
#include "apsp/mpi/distributed_pipeline.hpp"
#endif

namespace apsp::cli {

namespace {

RunReport run(const RunOptions& options, const mpi::Runtime& mpi) {
#if defined(APSP_HAVE_MPI)
  if (mpi.active()) return mpi::run_distributed_pipeline(options, mpi);
#endif
  (void)mpi;
  return run_pipeline(options);
}

// Bad input and bad options exit 2, any other failure 1. Under MPI a failure every rank agreed
// on is reported once, by rank 0; any other ends the whole job.
int report_failure(const std::exception& e, const mpi::Runtime& mpi) {
  const bool bad_input =
      dynamic_cast<const InputError*>(&e) != nullptr || dynamic_cast<const std::invalid_argument*>(&e) != nullptr;
  const int code = bad_input ? 2 : 1;
  if (mpi.active() && mpi::failure_agreed()) {
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

// The same checks the run makes before any work (the record may name the input or the output
// by mistake: then there is no record, never a damaged file).
void record_failure(const RunOptions& o, int code, const std::exception& e) {
  try {
    check_record_path(o.record_path, o.output, /*output_discarded=*/false, o.input);
    write_failure_record(o.record_path, o, code == 2 ? "bad_input" : "failed", e.what());
  } catch (const std::exception&) {
    // the error line has been printed; a record that cannot be written adds nothing to it
  }
}

}  // namespace

int run_and_report(const CommandLine& cl, const mpi::Runtime& mpi) {
  const bool rank0 = mpi.rank() == 0, quiet = cl.quiet || !rank0;
  // --json -: the record is the run's standard output (instead of the RESULT line).
  const bool record_to_stdout = cl.json_path == "-";
  try {
    const auto report = run(cl.run, mpi);
    if (!cl.json_path.empty() && rank0) write_run_record(cl.json_path, cl.run, report);
    // Printed once the run has ended, so that a failed run prints one line.
    if (!quiet) print_breakdown(report);
    if (rank0) print_verdict(report, quiet || record_to_stdout, record_to_stdout ? stderr : stdout);
    if (!quiet && !record_to_stdout) print_result(report);
    return report.verified && !report.verify.passed ? 1 : 0;
  } catch (const std::exception& e) {
    const int code = report_failure(e, mpi);
    if (!cl.json_path.empty() && rank0) record_failure(cl.run, code, e);
    return code;
  }
}

}  // namespace apsp::cli
