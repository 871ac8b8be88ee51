// SPDX-License-Identifier: BSD-3-Clause
// The V x V result written by every rank at once, each its own rows, with the single-process
// rules kept: a temporary file beside the target, renamed into place only when every rank has
// written. Across nodes the rows go through MPI-IO; when every rank is on one node they share
// its page cache, and each rank copies its rows into a mapping of its part of the file with
// several threads (MPI-IO writes one stream per rank, and parallel writes to one tmpfs file
// serialise on its inode lock).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>

#include "apsp/io/mapped_file_range.hpp"
#include "apsp/io/output_file.hpp"

namespace apsp::mpi {

class SharedOutputFile final : public ResultFile {
 public:
  /// Collective. Rank 0 creates the temporary file (OutputFile: removed again on failure or
  /// on SIGINT/SIGTERM); every rank opens it and it is sized to cols^2 int32. `threads`: copy
  /// threads per rank when all ranks share one node (`one_node`).
  SharedOutputFile(MPI_Comm comm, const std::string& path, int64_t cols, bool one_node, int threads);
  ~SharedOutputFile() override;
  SharedOutputFile(const SharedOutputFile&) = delete;
  SharedOutputFile& operator=(const SharedOutputFile&) = delete;

  /// Not collective, and free of MPI calls (a thread may run it while the device computes):
  /// on one node, allocates and maps this rank's rows (ResultFile::reserve_rows); on tmpfs
  /// `ready` gets their memory, so that each rank's device copies straight into its part of
  /// the file. Does nothing across nodes (write_rows() uses MPI-IO there).
  void reserve_rows(int64_t first_row, int64_t rows, const RowsReady& ready) override;

  /// Not collective: a parallel copy into the reserved mapping, else MPI-IO.
  void write_rows(const int32_t* data, int64_t first_row, int64_t rows, int64_t ld) override;

  /// Collective: closes the file on every rank, then rank 0 renames it onto the target.
  void commit() override;

 private:
  MPI_Comm comm_;
  std::string path_;
  int64_t cols_ = 0;
  int rank_ = 0;
  std::unique_ptr<OutputFile> temp_;  ///< rank 0 only
  MPI_File file_ = MPI_FILE_NULL;
  int fd_ = -1;  ///< one node: the file, for mapped writes
  int threads_ = 1;
  MappedFileRange map_;  ///< reserve_rows()
};

}  // namespace apsp::mpi
