// SPDX-License-Identifier: BSD-3-Clause
// Where a file the run writes will go, decided before any work: the program only ever
// replaces a regular file (or creates one), never a device, FIFO, socket or directory, and
// never the input.
#pragma once

#include <string>
#include <vector>

namespace apsp {

struct OutputTarget {
  std::string path;      ///< the regular file to create or replace: a symlink's target, resolved
  bool discard = false;  ///< the path is a character device that discards (/dev/null): write nothing
};

/// Checks `path` as the destination of `what` ("output", "JSON record") and returns where it
/// goes. Throws InputError, one line naming the path and the rule, when the path is empty, its
/// folder is missing or not writable, its name is longer than the file system allows, it is
/// (or a symlink leads to) anything but a regular file or a discarding device, or it is the
/// same file as any of `not_these` (the input).
OutputTarget check_output_path(const std::string& path, const std::string& what,
                               const std::vector<std::string>& not_these = {});

/// Checks --json's `record` path beside the run's `output` (`output_discarded`: /dev/null and
/// the like, which any number of writers may share) and `input`: InputError when the record
/// would overwrite either, else as check_output_path. "-" (standard output) always passes.
void check_record_path(const std::string& record, const std::string& output, bool output_discarded,
                       const std::string& input);

/// True when `a` and `b` name the same existing file (same device and inode).
bool same_file(const std::string& a, const std::string& b);

}  // namespace apsp
