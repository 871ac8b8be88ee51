// SPDX-License-Identifier: BSD-3-Clause
// Writing the V x V result: never a partial or stale file. ResultFile is what the pipeline
// writes through, the same for one process (OutputFile, here) and for the ranks of an MPI job
// (mpi/shared_output.hpp): data goes to a temporary file beside the target, written by
// several threads at once, and is renamed into place only when complete.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "apsp/io/mapped_file_range.hpp"

namespace apsp {

/// The result file as one process of a run sees it: it writes the rows it holds, rows of V int32.
class ResultFile {
 public:
  virtual ~ResultFile() = default;

  /// Called as rows [first_row, first_row + rows) become ready to be written, from the thread
  /// that prepared them; `memory` is where they lie when the device may copy into them
  /// directly (a file in memory, tmpfs), else null. Returns true when the device has taken
  /// that memory (page-locked it): only the device writes those rows from then on, so this
  /// process's view of their pages is dropped at once (MappedFileRange::drop_view) instead of
  /// after the result, when tearing it down would be on the run's path.
  using RowsReady = std::function<bool(int64_t first_row, int64_t rows, char* memory)>;

  /// Allocates this process's rows [first_row, first_row + rows) in the file ahead, maps them
  /// and makes their pages resident (MappedFileRange), several threads at once, piece by piece,
  /// calling `ready` (when set) for each piece as it is done, so that write_rows() is a
  /// parallel copy. Independent of the result and free of MPI calls: a device run calls it on a
  /// thread while the GPU computes. Where the file system cannot allocate ahead or map, `ready`
  /// hears of all the rows at once, without memory. Throws std::runtime_error when the blocks
  /// cannot be allocated (a full disk).
  virtual void reserve_rows(int64_t first_row, int64_t rows, const RowsReady& ready) = 0;

  /// Writes `rows` rows as rows [first_row, first_row + rows) of the file, row r read from
  /// `data + r * ld`. Throws std::runtime_error on failure.
  virtual void write_rows(const int32_t* data, int64_t first_row, int64_t rows, int64_t ld) = 0;

  /// Host memory only: takes the rows themselves instead of a copy, where this output can hold
  /// them as they lie (an array in memory, apsp/pipeline/memory_results.hpp): rows [first_row,
  /// first_row + rows), row r at `matrix + r * ld` entries, its owner shared, `capacity` int32
  /// entries of memory from `matrix` on (the output may use them all). `narrowed16`: the entries
  /// are uint16, every one below 2^15 (the whole matrix, as the solve left it where
  /// takes_rows16(): DistanceMatrix::narrowed16). False: write_rows() them, as int32.
  virtual bool take_rows(const std::shared_ptr<int32_t[]>& matrix, int64_t first_row, int64_t rows, int64_t ld,
                         int64_t capacity, bool narrowed16 = false) {
    (void)matrix, (void)first_row, (void)rows, (void)ld, (void)capacity, (void)narrowed16;
    return false;
  }
  /// Whether take_rows() would take a whole matrix in 16 bits (where it has the room), so that
  /// the solve may leave it so.
  virtual bool takes_rows16() const { return false; }

  /// Renames the complete file onto the target (collective under MPI).
  virtual void commit() = 0;

  /// True when nothing is written at all (the output is /dev/null): the run skips the copy back.
  virtual bool discards() const { return false; }

 protected:
  /// reserve_rows()'s work on a mapping of rows [first_row, first_row + rows) of `cols` int32
  /// (empty: everything at once, no memory): `threads` threads, about four pieces each.
  static void prepare_rows(const MappedFileRange& map, int64_t first_row, int64_t rows, int64_t cols, int threads,
                           bool device_may_copy, const RowsReady& ready);
};

/// The result file when the output is a device that discards (/dev/null): nothing is written,
/// and the device is left as it is.
class DiscardedOutput final : public ResultFile {
 public:
  void reserve_rows(int64_t first_row, int64_t rows, const RowsReady& ready) override {
    if (ready) (void)ready(first_row, rows, nullptr);
  }
  void write_rows(const int32_t* /*data*/, int64_t /*first_row*/, int64_t /*rows*/, int64_t /*ld*/) override {}
  void commit() override {}
  bool discards() const override { return true; }
};

/// The result file of one process, which writes every row.
class OutputFile final : public ResultFile {
 public:
  /// Creates the temporary file beside `path` (a regular file's path: check_output_path), for
  /// rows of `cols` int32, written by `threads` threads. It is removed again on failure and on
  /// any signal that can be caught (temp_file.hpp); stale ones of killed runs go first.
  OutputFile(const std::string& path, int64_t cols, int threads);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  /// Removes the temporary file unless commit() succeeded.
  ~OutputFile() override;

  /// Sizes the file to cols^2 int32 and reserves the rows (ResultFile::reserve_rows).
  void reserve_rows(int64_t first_row, int64_t rows, const RowsReady& ready) override;
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
  MappedFileRange map_;  ///< the reserved rows; empty when writes go through pwrite
};

}  // namespace apsp
