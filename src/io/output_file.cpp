// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/io/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

#include "apsp/core/errors.hpp"

namespace apsp {

namespace {

std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// The temporary file in flight, for the signal handler: an interrupted run leaves nothing.
char g_temp_path[4096];
std::atomic<bool> g_temp_live{false};

extern "C" void remove_temp_and_reraise(int sig) {
  if (g_temp_live.load()) ::unlink(g_temp_path);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

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

void OutputFile::check_writable(const std::string& path) {
  const std::string dir = directory_of(path);
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw InputError(path + ": output directory '" + dir + "' does not exist");
  if (::access(dir.c_str(), W_OK) != 0)
    throw InputError(path + ": output directory '" + dir + "' is not writable: " + std::strerror(errno));
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) throw InputError(path + ": output path is a directory");
}

OutputFile::OutputFile(const std::string& path, int64_t cols, int threads)
    : path_(path), cols_(cols), threads_(std::max(1, threads)) {
  std::string tmpl = path + ".tmp.XXXXXX";
  if (tmpl.size() >= sizeof g_temp_path) throw InputError(path + ": output path too long");
  fd_ = ::mkstemp(tmpl.data());
  if (fd_ < 0) throw InputError(path + ": cannot create output: " + std::strerror(errno));
  ::fchmod(
      fd_, 0644 & ~[] {
        mode_t m = ::umask(0);
        ::umask(m);
        return m;
      }());
  temp_path_ = tmpl;
  std::memcpy(g_temp_path, temp_path_.c_str(), temp_path_.size() + 1);
  g_temp_live.store(true);
  std::signal(SIGINT, remove_temp_and_reraise);
  std::signal(SIGTERM, remove_temp_and_reraise);
}

OutputFile::~OutputFile() {
  map_.unmap();
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlink(temp_path_.c_str());
  g_temp_live.store(false);
}

void OutputFile::reserve_rows(int64_t first_row, int64_t rows) {
  const int64_t row_bytes = cols_ * int64_t(sizeof(int32_t));
  if (::ftruncate(fd_, cols_ * row_bytes) != 0)
    throw std::runtime_error(path_ + ": cannot size output: " + std::strerror(errno));
  map_begin_ = first_row * row_bytes;
  map_ = MappedFileRange(fd_, map_begin_, (first_row + rows) * row_bytes, path_);
}

void OutputFile::write_rows(const int32_t* data, int64_t first_row, int64_t rows, int64_t ld) {
  const int64_t cols = cols_;
  int threads = threads_;
  const size_t row_bytes = static_cast<size_t>(cols) * sizeof(int32_t);
  if (map_.covers(first_row * int64_t(row_bytes), (first_row + rows) * int64_t(row_bytes)))
    return map_.copy_rows(data, first_row, rows, cols, ld, threads);  // reserved: parallel copies
  // Otherwise parallel pwrites (one contiguous range per thread when the rows are unpadded).
  threads = static_cast<int>(std::clamp<int64_t>(threads, 1, std::max<int64_t>(rows, 1)));
  std::vector<std::thread> pool;
  pool.reserve(size_t(threads));
  std::vector<std::string> errors(threads);
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      const int64_t r0 = rows * t / threads, r1 = rows * (t + 1) / threads;
      try {
        if (ld == cols) {
          write_all(fd_, reinterpret_cast<const char*>(data + r0 * ld), static_cast<size_t>(r1 - r0) * row_bytes,
                    static_cast<off_t>((first_row + r0) * row_bytes), path_);
        } else {
          for (int64_t r = r0; r < r1; ++r)
            write_all(fd_, reinterpret_cast<const char*>(data + r * ld), row_bytes,
                      static_cast<off_t>((first_row + r) * row_bytes), path_);
        }
      } catch (const std::exception& e) {
        errors[t] = e.what();
      }
    });
  }
  for (auto& th : pool) th.join();
  for (const auto& e : errors)
    if (!e.empty()) throw std::runtime_error(e);
}

void OutputFile::commit() {
  map_.unmap();
  if (::close(fd_) != 0) {
    fd_ = -1;
    throw std::runtime_error(path_ + ": closing output failed: " + std::strerror(errno));
  }
  fd_ = -1;
  if (::rename(temp_path_.c_str(), path_.c_str()) != 0)
    throw std::runtime_error(path_ + ": cannot rename output into place: " + std::strerror(errno));
  committed_ = true;
  g_temp_live.store(false);
}

}  // namespace apsp
