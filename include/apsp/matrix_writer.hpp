// SPDX-License-Identifier: BSD-3-Clause
// Writing the V x V result: never a partial or stale file. Data goes to a temporary file
// beside the target, written by several threads at once, and is renamed into place only
// when complete.
#pragma once

#include <cstdint>
#include <string>

namespace apsp {

class OutputFile {
 public:
  /// Throws InputError unless `path`'s directory exists and is writable and `path` is not a
  /// directory. Called before any work, so that a bad output path costs nothing.
  static void check_writable(const std::string& path);

  /// Creates the temporary file `<path>.tmp.XXXXXX` beside `path`.
  explicit OutputFile(const std::string& path);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  /// Removes the temporary file unless commit() succeeded.
  ~OutputFile();

  /// Sizes the file to `bytes`, allocates its blocks (fallocate) and maps it with its page
  /// tables populated, so that the writes are plain parallel copies. Independent of the
  /// result: a device backend calls it while the GPU computes. Where the file system cannot
  /// allocate ahead, the writes fall back to pwrite (parallel writes to one tmpfs file
  /// serialise on its inode lock; copies into a mapping do not).
  void reserve(int64_t bytes);

  /// Writes `rows` rows of `cols` int32 each as rows [first_row, first_row + rows) of the
  /// file, row r read from `data + r * ld`, with `threads` threads.
  void write_rows(const int32_t* data, int64_t first_row, int64_t rows, int64_t cols, int64_t ld, int threads);

  /// Closes the temporary file and renames it onto the target.
  void commit();

  const std::string& temp_path() const { return temp_path_; }

 private:
  std::string path_;
  std::string temp_path_;
  int fd_ = -1;
  bool committed_ = false;
  char* map_ = nullptr;  ///< the reserved file, mapped; null when writes go through pwrite
  int64_t map_bytes_ = 0;
  void unmap();
};

}  // namespace apsp
