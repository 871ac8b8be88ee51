// SPDX-License-Identifier: BSD-3-Clause
// The program's own options (CLI11), after Kokkos has taken its --kokkos-* ones.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "apsp/pipeline/run_report.hpp"

namespace apsp::cli {

struct CommandLine {
  RunOptions run;
  bool quiet = false;     ///< print nothing but errors (and a FAILED check)
  bool progress = false;  ///< show progress even when stderr is not a terminal
  std::string json_path;  ///< --json: the run's record
};

/// Parses `args` (what Kokkos left). Returns the options, or the exit status when the run is
/// over already: --help, --version, --list-backends (0) or a usage error (non-zero, the
/// message printed on `speaker` processes only, so that an MPI job says it once).
std::optional<CommandLine> parse_command_line(std::vector<char*> args, bool speaker, int& exit_status);

/// The run's options as far as they can be known before Kokkos has taken its own (every
/// --kokkos-* argument set aside), so that reading the input can begin while Kokkos starts;
/// none when they do not parse that way (exit_status: 0 for --help, --version and
/// --list-backends, which it prints when `speaker`). Otherwise only a guess (parse_command_line
/// decides).
std::optional<CommandLine> early_command_line(int argc, char* argv[], bool speaker, int& exit_status);

}  // namespace apsp::cli
