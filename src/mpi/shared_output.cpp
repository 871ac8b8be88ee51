// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/mpi/shared_output.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <stdexcept>

#include "apsp/core/sizes.hpp"
#include "apsp/io/temp_file.hpp"
#include "collective.hpp"

namespace apsp::mpi {

namespace {
std::string mpi_error_text(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return std::string(text, static_cast<size_t>(length));
}
}  // namespace

SharedOutputFile::SharedOutputFile(MPI_Comm comm, const std::string& path, int64_t cols, bool one_node, int threads)
    : comm_(comm), path_(path), cols_(cols), threads_(std::max(1, threads)) {
  const int64_t bytes = size_mul(cols, cols, int64_t(sizeof(int32_t)));
  MPI_Comm_rank(comm, &rank_);
  std::string temp_path;
  collectively(comm, [&] {
    if (rank_ == 0) {
      temp_ = std::make_unique<OutputFile>(path, cols, 1);
      temp_path = temp_->temp_path();
    }
  });
  int length = static_cast<int>(temp_path.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  temp_path.resize(static_cast<size_t>(length));
  MPI_Bcast(temp_path.data(), length, MPI_CHAR, 0, comm);
  // Every rank removes the file when a signal ends it, so that when rank 0 dies (killed, its
  // node lost) the others, which the launcher then stops, leave nothing behind.
  if (rank_ != 0) remove_on_signal(temp_path);
  collectively(comm, [&] {
    const int rc = MPI_File_open(comm, temp_path.c_str(), MPI_MODE_WRONLY, MPI_INFO_NULL, &file_);
    if (rc != MPI_SUCCESS) throw std::runtime_error(temp_path + ": MPI_File_open: " + mpi_error_text(rc));
  });
  collectively(comm, [&] {
    const int rc = MPI_File_set_size(file_, bytes);
    if (rc != MPI_SUCCESS) throw std::runtime_error(path + ": cannot size the output: " + mpi_error_text(rc));
  });
  if (one_node) fd_ = ::open(temp_path.c_str(), O_RDWR | O_CLOEXEC);  // -1: MPI-IO writes everything
}

SharedOutputFile::~SharedOutputFile() {
  if (rank_ != 0) remove_on_signal("");
  map_.unmap();
  if (fd_ >= 0) ::close(fd_);
  if (file_ != MPI_FILE_NULL) MPI_File_close(&file_);
}

void SharedOutputFile::reserve_rows(int64_t first_row, int64_t rows, const RowsReady& ready) {
  const int64_t row_bytes = cols_ * int64_t(sizeof(int32_t));
  if (fd_ >= 0) map_ = MappedFileRange(fd_, first_row * row_bytes, (first_row + rows) * row_bytes, path_);
  prepare_rows(map_, first_row, rows, cols_, threads_, true, ready);
}

void SharedOutputFile::write_rows(const int32_t* data, int64_t first_row, int64_t rows, int64_t ld) {
  const int64_t cols = cols_;
  const int64_t row_bytes = cols * int64_t(sizeof(int32_t));
  if (map_.covers(first_row * row_bytes, (first_row + rows) * row_bytes))
    return map_.copy_rows(data, first_row, rows, cols, ld, threads_);
  // Rows go out in pieces of at most 1 GiB; each piece is one MPI_Type_vector, so rows
  // of ld int32 in memory land as rows of cols int32 in the file without a packing copy.
  const int64_t per_call = std::max<int64_t>(1, (int64_t(1) << 30) / row_bytes);
  for (int64_t r = 0; r < rows; r += per_call) {
    const int64_t count = std::min(per_call, rows - r);
    MPI_Datatype piece;
    MPI_Type_vector(static_cast<int>(count), static_cast<int>(cols), static_cast<int>(ld), MPI_INT32_T, &piece);
    MPI_Type_commit(&piece);
    MPI_Status status;
    const int rc = MPI_File_write_at(file_, (first_row + r) * row_bytes, data + r * ld, 1, piece, &status);
    MPI_Type_free(&piece);
    if (rc != MPI_SUCCESS) throw std::runtime_error("writing the output: " + mpi_error_text(rc));
  }
}

void SharedOutputFile::commit() {
  map_.unmap(threads_);
  collectively(comm_, [&] {
    const int rc = MPI_File_close(&file_);
    file_ = MPI_FILE_NULL;
    if (rc != MPI_SUCCESS) throw std::runtime_error("closing the output: " + mpi_error_text(rc));
  });
  collectively(comm_, [&] {
    if (rank_ == 0) temp_->commit();
  });
}

}  // namespace apsp::mpi
