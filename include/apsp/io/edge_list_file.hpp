// SPDX-License-Identifier: BSD-3-Clause
// Writing the program's binary edge list (docs/graphs.md) the way every output of the project
// is written: checked first (check_output_path), into a temporary file beside it (removed on
// signals, and by the next run after a kill -9), renamed into place when complete.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace apsp {

class EdgeListFile {
 public:
  /// Checks `path` as the output (never one of `not_these`: the input) and creates the
  /// temporary file. Throws InputError for a path the rules refuse or a folder it cannot write.
  explicit EdgeListFile(const std::string& path, const std::vector<std::string>& not_these = {});
  ~EdgeListFile();  ///< removes the temporary file unless committed
  EdgeListFile(const EdgeListFile&) = delete;
  EdgeListFile& operator=(const EdgeListFile&) = delete;

  void edge(int32_t s, int32_t t, int32_t w) {
    buf_.push_back(s);
    buf_.push_back(t);
    buf_.push_back(w);
    ++edges_;
    if (buf_.size() + 3 > buf_.capacity()) flush();
  }
  int64_t edges() const { return edges_; }
  /// Writes the header (V, E) and renames the file into place. Throws std::runtime_error for
  /// more than 2^31 - 1 edges or an I/O failure (the temporary file is then removed).
  void commit(int32_t vertices);

 private:
  void flush();
  std::string path_, temp_;
  int fd_ = -1;  ///< -1: a discarding target (/dev/null), nothing written
  bool committed_ = false;
  int64_t edges_ = 0;
  std::vector<int32_t> buf_;
};

}  // namespace apsp
