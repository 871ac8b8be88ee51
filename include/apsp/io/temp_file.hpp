// SPDX-License-Identifier: BSD-3-Clause
// The temporary file an output is written to before it is renamed into place, and what makes
// sure nothing of it is left behind: removal on every signal that can be caught, and removal
// by the next run of those a killed process (kill -9) could not remove.
//
// The name is `.apsp_kokkos.<host>.<pid>.<start>.<random>` in the target's folder: short
// whatever the target's name (a target name may use the file system's whole limit), hidden,
// and naming the process that owns it (host, process id, and that process's start time, so
// that a reused process id is not mistaken for the owner).
#pragma once

#include <string>

namespace apsp {

/// A new temporary file's path in folder `dir`, with a random last part. Only this process
/// makes names with its process id and start time, so the name can be registered with
/// remove_on_signal() before the file is created (O_EXCL): no signal finds it unregistered.
std::string temp_file_name(const std::string& dir);

/// Removes the temporary files in `dir` whose owner ran on this host and no longer runs (or
/// whose process id now belongs to a process started at another time). Returns how many.
int remove_stale_temp_files(const std::string& dir);

/// A temporary file created for an output: its descriptor and path.
struct TempFile {
  int fd = -1;
  std::string path;
};

/// Creates a new temporary file in `dir` for the output `target`, after removing the stale
/// ones a killed run left there: O_CREAT | O_EXCL | O_CLOEXEC | `flags`, permissions `mode`,
/// registered with remove_on_signal() before it exists. Throws InputError naming `target`.
TempFile create_temp_file(const std::string& dir, const std::string& target, int flags, unsigned mode);

/// Makes `path` the file removed when a signal ends the process (HUP, INT, QUIT, TERM, USR1,
/// USR2, PIPE, ALRM, XCPU, XFSZ, VTALRM, PROF): it is removed, then the signal takes its
/// default course. One file per process; an empty path forgets it.
void remove_on_signal(const std::string& path);

}  // namespace apsp
