// SPDX-License-Identifier: BSD-3-Clause
// The machine-readable record of a run (--json): what ran where, and how long each part took.
#pragma once

#include <string>

#include "apsp/pipeline/run_report.hpp"

namespace apsp {

/// "4.6.1" style, from KOKKOS_VERSION.
std::string kokkos_version_string();

/// Version of the record's layout (docs/run_record.md): raised when a field changes meaning or
/// goes away. 2: `schema_version` and `status` added, the top-level `mpi_ranks` removed
/// (`mpi.ranks`). 3: `verify.verdict` "OFF" instead of "not run", `verify.reference_seconds`,
/// `graph` (a file or the generated graph's spec), `output_state`.
inline constexpr int kRunRecordSchema = 3;

/// The self-check's verdict: "PASSED", "FAILED" or "OFF" (the RESULT line's `verify=`).
std::string verify_state(const RunReport& report);
/// What became of the output: "written", "none" (--no-output), "discarded" (/dev/null) or
/// "withheld" (the check failed; the RESULT line's `output=`).
std::string output_state(const RunReport& report);

/// Writes one JSON object describing the run to `path` (replacing the file; "-": standard
/// output). `status`: "ok", or "verify_failed" when the self-check found a wrong entry.
void write_run_record(const std::string& path, const RunOptions& options, const RunReport& report);

/// The same record as one line of JSON (the Python module's `record`).
std::string run_record_json(const RunOptions& options, const RunReport& report);

/// The record of a run that ended with an error before its report existed: what was asked,
/// `status` ("bad_input": refused, exit 2; "failed": exit 1) and the error line.
void write_failure_record(const std::string& path, const RunOptions& options, const std::string& status,
                          const std::string& error);

}  // namespace apsp
