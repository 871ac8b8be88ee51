// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/io/output_path.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <climits>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "apsp/core/errors.hpp"
#include "path_parts.hpp"

namespace apsp {

using Impl::directory_of;
using Impl::kind_of;
using Impl::name_of;

namespace {

// Linux's null device (major 1, minor 3), wherever its node lies: writes to it vanish.
bool discards(const struct stat& st) { return S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 && minor(st.st_rdev) == 3; }

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

void check_record_path(const std::string& record, const std::string& output, bool output_discarded,
                       const std::string& input) {
  if (record == "-") return;
  if (record == output || (!output_discarded && same_file(record, output)))
    throw InputError(record + ": the JSON record would overwrite the output");
  check_output_path(record, "JSON record", {input});
}

OutputTarget check_output_path(const std::string& path, const std::string& what,
                               const std::vector<std::string>& not_these) {
  if (path.empty()) throw InputError(what + " path is empty");
  OutputTarget target{path, false};
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode)) {
      // Written through to the link's target, never replacing the link itself.
      struct stat to {};
      if (::stat(path.c_str(), &to) != 0)
        throw InputError(path + ": " + what + " is a symbolic link to a missing file (" + std::strerror(errno) + ")");
      if (!S_ISREG(to.st_mode) && !discards(to))
        throw InputError(path + ": " + what + " is a symbolic link to " + kind_of(to.st_mode) +
                         "; only a regular file is replaced");
      char resolved[PATH_MAX];
      if (::realpath(path.c_str(), resolved) == nullptr)
        throw InputError(path + ": cannot resolve the " + what + "'s symbolic link: " + std::strerror(errno));
      target.path = resolved;
      st = to;
    }
    if (discards(st)) {
      target.discard = true;
      return target;
    }
    if (!S_ISREG(st.st_mode))
      throw InputError(path + ": " + what + " path is " + kind_of(st.st_mode) + "; only a regular file is replaced");
    for (const auto& other : not_these) {
      if (!same_file(path, other)) continue;
      std::string message = path;
      message += ": ";
      message += what;
      message += " is the same file as ";
      message += other;
      message += "; it would be overwritten";
      throw InputError(message);
    }
  }
  const std::string dir = directory_of(target.path);
  struct stat ds {};
  if (::stat(dir.c_str(), &ds) != 0 || !S_ISDIR(ds.st_mode))
    throw InputError(path + ": " + what + " directory '" + dir + "' does not exist");
  if (::access(dir.c_str(), W_OK) != 0)
    throw InputError(path + ": " + what + " directory '" + dir + "' is not writable: " + std::strerror(errno));
  const long name_max = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  if (name_max > 0 && long(name_of(target.path).size()) > name_max)
    throw InputError(path + ": " + what + " file name is " + std::to_string(name_of(target.path).size()) +
                     " characters; this file system allows " + std::to_string(name_max));
  return target;
}

}  // namespace apsp
