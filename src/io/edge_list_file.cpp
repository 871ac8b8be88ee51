// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/io/edge_list_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "apsp/io/output_path.hpp"
#include "apsp/io/temp_file.hpp"
#include "path_parts.hpp"

namespace apsp {

namespace {
constexpr size_t kBufferInts = (size_t(1) << 20) / sizeof(int32_t);  // 1 MiB
constexpr int32_t kNoHeader[2] = {0, 0};                             // its place, written last
}  // namespace

EdgeListFile::EdgeListFile(const std::string& path, const std::vector<std::string>& not_these) {
  const OutputTarget target = check_output_path(path, "output", not_these);
  path_ = target.path;
  buf_.reserve(kBufferInts);
  buf_.assign(kNoHeader, kNoHeader + 2);
  if (target.discard) return;
  TempFile t = create_temp_file(Impl::directory_of(path_), path, O_WRONLY, 0644);
  fd_ = t.fd;
  temp_ = std::move(t.path);
}

EdgeListFile::~EdgeListFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!temp_.empty() && !committed_) ::unlink(temp_.c_str());
  remove_on_signal("");
}

void EdgeListFile::flush() {
  if (fd_ >= 0) {
    const char* p = reinterpret_cast<const char*>(buf_.data());
    size_t left = buf_.size() * sizeof(int32_t);
    while (left > 0) {
      const ssize_t n = ::write(fd_, p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw std::runtime_error(path_ + ": write failed: " + std::strerror(errno));
      p += n;
      left -= size_t(n);
    }
  }
  buf_.clear();
}

void EdgeListFile::commit(int32_t vertices) {
  if (edges_ > INT32_MAX) throw std::runtime_error(path_ + ": more than 2^31 - 1 edges do not fit the format");
  flush();
  if (fd_ < 0) return;  // discarded
  const int32_t header[2] = {vertices, int32_t(edges_)};
  if (::pwrite(fd_, header, sizeof header, 0) != ssize_t(sizeof header))
    throw std::runtime_error(path_ + ": write failed: " + std::strerror(errno));
  const int closed = ::close(fd_);
  fd_ = -1;
  if (closed != 0) throw std::runtime_error(path_ + ": cannot finish: " + std::strerror(errno));
  if (::rename(temp_.c_str(), path_.c_str()) != 0)
    throw std::runtime_error(path_ + ": cannot replace: " + std::strerror(errno));
  committed_ = true;
}

}  // namespace apsp
