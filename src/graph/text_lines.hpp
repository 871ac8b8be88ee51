// SPDX-License-Identifier: BSD-3-Clause
// Reading text graph files: a file a line at a time through one 1 MiB buffer, the
// whitespace-separated fields of a line, and the numbers in them (src/graph/ only).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace apsp::text {

constexpr size_t kBufferBytes = size_t(1) << 20;

/// The input a line at a time (string_views into a 1 MiB buffer; a line longer than that is refused).
class LineReader {
 public:
  explicit LineReader(const std::string& path);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  /// The next line without its end, or false at the end of the file.
  bool next(std::string_view& line);
  int64_t number() const { return number_; }

 private:
  std::string path_;
  std::vector<char> buf_;
  int fd_ = -1;
  size_t begin_ = 0, end_ = 0;
  bool eof_ = false;
  int64_t number_ = 0;
};

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/// Whitespace-separated fields of one line.
class Fields {
 public:
  explicit Fields(std::string_view line) : rest_(line) {}
  /// The next field, or an empty view at the end of the line.
  std::string_view next() {
    size_t i = 0;
    while (i < rest_.size() && is_space(rest_[i])) ++i;
    size_t j = i;
    while (j < rest_.size() && !is_space(rest_[j])) ++j;
    const std::string_view field = rest_.substr(i, j - i);
    rest_.remove_prefix(j);
    return field;
  }
  bool done() {
    while (!rest_.empty() && is_space(rest_.front())) rest_.remove_prefix(1);
    return rest_.empty();
  }

 private:
  std::string_view rest_;
};

/// A decimal integer (optional sign), or nothing if `s` is not exactly one.
std::optional<int64_t> to_integer(std::string_view s);
/// A finite real number, or nothing if `s` is not exactly one.
std::optional<double> to_real(std::string_view s);
std::string lower(std::string_view s);

}  // namespace apsp::text
