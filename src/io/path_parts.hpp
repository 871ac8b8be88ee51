// SPDX-License-Identifier: BSD-3-Clause
// Pieces of paths and file kinds, as the io files name them in messages.
#pragma once

#include <sys/stat.h>

#include <string>

namespace apsp::Impl {

/// The folder of `path`: "." for a bare name, "/" for a file in the root.
inline std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

/// The last part of `path`.
inline std::string name_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// "a directory", "a FIFO", ... for anything but a regular file.
inline const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISCHR(mode)) return "a character device";
  return "not a regular file";
}

}  // namespace apsp::Impl
