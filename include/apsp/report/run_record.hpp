// SPDX-License-Identifier: BSD-3-Clause
// The machine-readable record of a run (--json): what ran where, and how long each part took.
#pragma once

#include <string>

#include "apsp/pipeline/run_report.hpp"

namespace apsp {

/// "4.6.1" style, from KOKKOS_VERSION.
std::string kokkos_version_string();

/// Writes one JSON object describing the run to `path` (replacing the file).
void write_run_record(const std::string& path, const RunOptions& options, const RunReport& report);

}  // namespace apsp
