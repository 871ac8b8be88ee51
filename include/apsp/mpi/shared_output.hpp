// SPDX-License-Identifier: BSD-3-Clause
// The V x V result written by every rank at once with MPI-IO, each its own rows, with the
// single-process rules kept: a temporary file beside the target, renamed into place only
// when every rank has written.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>

#include "apsp/matrix_writer.hpp"

namespace apsp::mpi {

class SharedOutputFile {
 public:
  /// Collective. Rank 0 creates the temporary file (OutputFile: removed again on failure or
  /// on SIGINT/SIGTERM); every rank opens it with MPI-IO and it is sized to `bytes`.
  SharedOutputFile(MPI_Comm comm, const std::string& path, int64_t bytes);
  ~SharedOutputFile();
  SharedOutputFile(const SharedOutputFile&) = delete;
  SharedOutputFile& operator=(const SharedOutputFile&) = delete;

  /// Not collective: writes `rows` rows of `cols` int32 as rows [first_row, first_row + rows)
  /// of the file, row r read from `data + r * ld`. Throws std::runtime_error on failure.
  void write_rows(const int32_t* data, int64_t first_row, int64_t rows, int64_t cols, int64_t ld);

  /// Collective: closes the file on every rank, then rank 0 renames it onto the target.
  void commit();

 private:
  MPI_Comm comm_;
  int rank_ = 0;
  std::unique_ptr<OutputFile> temp_;  ///< rank 0 only
  MPI_File file_ = MPI_FILE_NULL;
};

}  // namespace apsp::mpi
