// SPDX-License-Identifier: BSD-3-Clause
#include "text_lines.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "apsp/core/errors.hpp"

namespace apsp::text {

namespace {
std::string errno_text() { return std::strerror(errno); }
}  // namespace

LineReader::LineReader(const std::string& path) : path_(path), buf_(kBufferBytes) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw std::runtime_error(path + ": cannot open: " + errno_text());
  struct stat st {};
  if (::fstat(fd_, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd_);
    throw std::runtime_error(path + ": is a directory");
  }
}

LineReader::~LineReader() { ::close(fd_); }

bool LineReader::next(std::string_view& line) {
  for (;;) {
    const char* start = buf_.data() + begin_;
    const auto* nl = static_cast<const char*>(std::memchr(start, '\n', end_ - begin_));
    if (nl != nullptr) {
      line = std::string_view(start, size_t(nl - start));
      begin_ += line.size() + 1;
      ++number_;
      return true;
    }
    if (eof_) {
      if (begin_ == end_) return false;
      line = std::string_view(start, end_ - begin_);  // a last line without its newline
      begin_ = end_;
      ++number_;
      return true;
    }
    std::memmove(buf_.data(), start, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
    if (end_ == buf_.size())
      throw InputError(path_ + ":" + std::to_string(number_ + 1) + ": line longer than " +
                       std::to_string(kBufferBytes) + " bytes");
    const ssize_t got = ::read(fd_, buf_.data() + end_, buf_.size() - end_);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(path_ + ": read failed: " + errno_text());
    }
    if (got == 0) eof_ = true;
    end_ += size_t(got);
  }
}

std::optional<int64_t> to_integer(std::string_view s) {
  if (s.empty()) return std::nullopt;
  size_t i = 0;
  const bool negative = s[0] == '-';
  if (s[0] == '-' || s[0] == '+') i = 1;
  if (i == s.size() || s.size() - i > 18) return std::nullopt;
  int64_t v = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    v = v * 10 + (s[i] - '0');
  }
  return negative ? -v : v;
}
std::optional<double> to_real(std::string_view s) {
  if (s.empty() || s.size() > 64) return std::nullopt;
  char text[65];
  std::memcpy(text, s.data(), s.size());
  text[s.size()] = '\0';
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text, &end);
  if (end != text + s.size() || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace apsp::text
