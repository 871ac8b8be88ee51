// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/io/output_file.hpp"
#include "apsp/core/helper_thread.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <utility>
#include <vector>

#include "apsp/core/huge_page_array.hpp"
#include "apsp/core/sizes.hpp"
#include "apsp/io/temp_file.hpp"
#include "path_parts.hpp"

namespace apsp {

using Impl::directory_of;

namespace {

void write_all(int fd, const char* p, size_t bytes, off_t offset, const std::string& path) {
  while (bytes > 0) {
    const ssize_t n = ::pwrite(fd, p, std::min<size_t>(bytes, size_t(1) << 30), offset);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(path + ": write failed: " + std::strerror(errno));
    }
    p += n;
    bytes -= static_cast<size_t>(n);
    offset += n;
  }
}

}  // namespace

OutputFile::OutputFile(const std::string& path, int64_t cols, int threads)
    : path_(path), cols_(cols), threads_(std::max(1, threads)) {
  TempFile t = create_temp_file(directory_of(path), path, O_RDWR, 0600);
  fd_ = t.fd;
  temp_path_ = std::move(t.path);
  ::fchmod(
      fd_, 0644 & ~[] {
        mode_t m = ::umask(0);
        ::umask(m);
        return m;
      }());
}

OutputFile::~OutputFile() {
  map_.unmap();
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlink(temp_path_.c_str());
  remove_on_signal("");
}

void ResultFile::prepare_rows(const MappedFileRange& map, int64_t first_row, int64_t rows, int64_t cols, int threads,
                              bool device_may_copy, const RowsReady& ready) {
  const int64_t row_bytes = cols * int64_t(sizeof(int32_t));
  if (!map) {
    if (ready) (void)ready(first_row, rows, nullptr);
    return;
  }
  // Pieces of whole rows and whole pages: copies go by rows, and pinning by pages.
  const int64_t page = ::sysconf(_SC_PAGESIZE);
  const int64_t grain = row_bytes / std::gcd(row_bytes, page) * page;
  threads = std::min(threads, kPopulateThreads);
  map.prepare(threads, 4 * threads, grain, [&](int64_t begin, int64_t end) {
    char* memory = device_may_copy ? map.memory_at(begin) : nullptr;
    if (ready && ready(begin / row_bytes, (end - begin) / row_bytes, memory) && memory != nullptr)
      map.drop_view(begin, end);
  });
}

void OutputFile::reserve_rows(int64_t first_row, int64_t rows, const RowsReady& ready) {
  const int64_t row_bytes = cols_ * int64_t(sizeof(int32_t));
  if (::ftruncate(fd_, size_mul(cols_, row_bytes)) != 0)
    throw std::runtime_error(path_ + ": cannot size output: " + std::strerror(errno));
  map_ = MappedFileRange(fd_, first_row * row_bytes, (first_row + rows) * row_bytes, path_);
  prepare_rows(map_, first_row, rows, cols_, threads_, true, ready);
}

void OutputFile::write_rows(const int32_t* data, int64_t first_row, int64_t rows, int64_t ld) {
  const int64_t cols = cols_;
  int threads = threads_;
  const size_t row_bytes = static_cast<size_t>(cols) * sizeof(int32_t);
  if (map_.covers(first_row * int64_t(row_bytes), (first_row + rows) * int64_t(row_bytes)))
    return map_.copy_rows(data, first_row, rows, cols, ld, threads);  // reserved: parallel copies
  // Otherwise parallel pwrites (one contiguous range per thread when the rows are unpadded).
  threads = static_cast<int>(std::clamp<int64_t>(threads, 1, std::max<int64_t>(rows, 1)));
  on_threads(threads, [&](int t) {
    const auto [r0, r1] = thread_share(rows, t, threads);
    if (ld == cols) {
      write_all(fd_, reinterpret_cast<const char*>(data + r0 * ld), static_cast<size_t>(r1 - r0) * row_bytes,
                static_cast<off_t>((first_row + r0) * row_bytes), path_);
    } else {
      for (int64_t r = r0; r < r1; ++r)
        write_all(fd_, reinterpret_cast<const char*>(data + r * ld), row_bytes,
                  static_cast<off_t>((first_row + r) * row_bytes), path_);
    }
  });
}

void OutputFile::commit() {
  map_.unmap(threads_);
  if (::close(fd_) != 0) {
    fd_ = -1;
    throw std::runtime_error(path_ + ": closing output failed: " + std::strerror(errno));
  }
  fd_ = -1;
  if (::rename(temp_path_.c_str(), path_.c_str()) != 0)
    throw std::runtime_error(path_ + ": cannot rename output into place: " + std::strerror(errno));
  committed_ = true;
  remove_on_signal("");
}

}  // namespace apsp
