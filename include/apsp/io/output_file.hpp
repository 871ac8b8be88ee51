// SPDX-License-Identifier: BSD-3-Clause
// Writing the V x V result: never a partial or stale file. ResultFile is what the pipeline
// writes through, the same for one process (OutputFile, here) and for the ranks of an MPI job
// (mpi/shared_output.hpp): data goes to a temporary file beside the target, written by
// several threads at once, and is renamed into place only when complete.
#pragma once

#include <cstdint>
#include <string>

#include "apsp/io/mapped_file_range.hpp"

namespace apsp {

/// The result file as one process of a run sees it: it writes the rows it holds, rows of V int32.
class ResultFile {
 public:
  virtual ~ResultFile() = default;

  /// Allocates this process's rows [first_row, first_row + rows) in the file ahead and maps
  /// them (MappedFileRange), so that write_rows() is a parallel copy. Independent of the
  /// result and free of MPI calls: a device run calls it on a thread while the GPU computes.
  /// Does nothing where the file system cannot allocate ahead or map (writes then go another
  /// way). Throws std::runtime_error when the blocks cannot be allocated (a full disk).
  virtual void reserve_rows(int64_t first_row, int64_t rows) = 0;

  /// The reserved rows in memory when the file lives there (tmpfs) and the device may copy
  /// into them directly once they are pinned; null otherwise.
  virtual char* reserved_memory() const = 0;

  /// Writes `rows` rows as rows [first_row, first_row + rows) of the file, row r read from
  /// `data + r * ld`. Throws std::runtime_error on failure.
  virtual void write_rows(const int32_t* data, int64_t first_row, int64_t rows, int64_t ld) = 0;

  /// Renames the complete file onto the target (collective under MPI).
  virtual void commit() = 0;
};

/// The result file of one process, which writes every row.
class OutputFile final : public ResultFile {
 public:
  /// Throws InputError unless `path`'s directory exists and is writable and `path` is not a
  /// directory. Called before any work, so that a bad output path costs nothing.
  static void check_writable(const std::string& path);

  /// Creates the temporary file `<path>.tmp.XXXXXX` beside `path`, for rows of `cols` int32,
  /// written by `threads` threads. It is removed again on failure and on SIGINT/SIGTERM.
  OutputFile(const std::string& path, int64_t cols, int threads);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  /// Removes the temporary file unless commit() succeeded.
  ~OutputFile() override;

  /// Sizes the file to cols^2 int32 and reserves the rows (ResultFile::reserve_rows).
  void reserve_rows(int64_t first_row, int64_t rows) override;
  char* reserved_memory() const override { return map_.memory_at(map_begin_); }
  /// Parallel copies into the reserved mapping, else parallel pwrites.
  void write_rows(const int32_t* data, int64_t first_row, int64_t rows, int64_t ld) override;
  /// Closes the temporary file and renames it onto the target.
  void commit() override;

  const std::string& temp_path() const { return temp_path_; }

 private:
  std::string path_;
  std::string temp_path_;
  int64_t cols_ = 0;
  int threads_ = 1;
  int fd_ = -1;
  bool committed_ = false;
  MappedFileRange map_;    ///< the reserved rows; empty when writes go through pwrite
  int64_t map_begin_ = 0;  ///< file byte of the first reserved row
};

}  // namespace apsp
