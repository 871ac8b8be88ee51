// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/graph/text_graph.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "apsp/core/constants.hpp"
#include "apsp/io/edge_list_file.hpp"

namespace apsp {

namespace {

constexpr size_t kBufferBytes = size_t(1) << 20;

std::string errno_text() { return std::strerror(errno); }

/// The input a line at a time (string_views into a 1 MiB buffer; a line longer than that is refused).
class LineReader {
 public:
  explicit LineReader(const std::string& path) : path_(path), buf_(kBufferBytes) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw std::runtime_error(path + ": cannot open: " + errno_text());
    struct stat st {};
    if (::fstat(fd_, &st) == 0 && S_ISDIR(st.st_mode)) {
      ::close(fd_);
      throw std::runtime_error(path + ": is a directory");
    }
  }
  ~LineReader() { ::close(fd_); }
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  /// The next line without its end, or false at the end of the file.
  bool next(std::string_view& line) {
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
  int64_t number() const { return number_; }

 private:
  std::string path_;
  std::vector<char> buf_;
  int fd_ = -1;
  size_t begin_ = 0, end_ = 0;
  bool eof_ = false;
  int64_t number_ = 0;
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

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

/// One conversion: the format's parser feeds edges to add_edge(), which applies the rules.
class Converter {
 public:
  Converter(const std::string& input, const std::string& output, const TextGraphOptions& options)
      : input_(input), options_(options), reader_(input), writer_(output, {input}) {}

  ConversionSummary run(TextFormat format) {
    summary_.format = format;
    switch (format) {
      case TextFormat::matrix_market:
        matrix_market();
        break;
      case TextFormat::dimacs:
        dimacs();
        break;
      case TextFormat::edge_list:
        edge_list();
        break;
    }
    summary_.lines = reader_.number();
    summary_.edges = writer_.edges();
    if (summary_.vertices < 1) fail(0, "no vertices");
    if (summary_.edges > int64_t(summary_.vertices) * (summary_.vertices - 1))
      fail(0, std::to_string(summary_.edges) +
                  " edges exceed V(V-1) = " + std::to_string(int64_t(summary_.vertices) * (summary_.vertices - 1)) +
                  " (repeated edges: keep the lightest of each pair before converting)");
    // Edge lists learn V at the end: their weights are checked against its bound only now.
    if (summary_.max_weight > max_weight_allowed(summary_.vertices))
      fail(0, "weight " + std::to_string(summary_.max_weight) +
                  " breaks the bound (V - 1) * w < 2^30 - 1 for V = " + std::to_string(summary_.vertices) +
                  " (largest allowed " + std::to_string(max_weight_allowed(summary_.vertices)) + ")");
    writer_.commit(summary_.vertices);
    return summary_;
  }

 private:
  [[noreturn]] void fail(int64_t line, const std::string& why) const {
    throw InputError(input_ + ":" + std::to_string(line) + ": " + why);
  }
  [[noreturn]] void fail(const std::string& why) const { fail(reader_.number(), why); }

  int64_t integer(std::string_view field, const char* what) const {
    if (field.empty()) fail(std::string("missing ") + what);
    const auto v = to_integer(field);
    if (!v) fail(std::string(what) + " '" + std::string(field) + "' is not an integer");
    return *v;
  }
  /// A vertex numbered from `base`, within [0, V) once shifted (V: 0 when not yet known).
  int32_t vertex(std::string_view field, int base, const char* what) const {
    const int64_t v = integer(field, what) - base;
    if (v < 0) fail(std::string(what) + " " + std::string(field) + " is below " + std::to_string(base));
    if (known_vertices_ > 0 && v >= known_vertices_)
      fail(std::string(what) + " " + std::string(field) + " is beyond the " + std::to_string(known_vertices_) +
           " vertices declared");
    if (v >= INT32_MAX) fail(std::string(what) + " " + std::string(field) + " is too large for int32");
    return int32_t(v);
  }
  /// An integer weight, or a real one scaled and rounded when --scale was given.
  int32_t weight(std::string_view field, bool real_allowed) {
    if (field.empty()) fail("missing weight");
    int64_t w = 0;
    if (const auto i = to_integer(field)) {
      w = options_.scale ? std::llround(double(*i) * *options_.scale) : *i;
    } else {
      const auto r = to_real(field);
      if (!r) fail("weight '" + std::string(field) + "' is not a number");
      if (!real_allowed || !options_.scale)
        fail("weight '" + std::string(field) + "' is not an integer (real weights need --scale S: w -> round(w * S))");
      const double scaled = *r * *options_.scale;
      if (std::fabs(scaled) > double(INT32_MAX)) fail("weight " + std::string(field) + " scaled is too large");
      w = std::llround(scaled);
      summary_.rounded += double(w) != scaled;
    }
    if (w < 0) fail("negative weight " + std::string(field));
    const int64_t bound = known_vertices_ > 0 ? max_weight_allowed(known_vertices_) : INT32_MAX;
    if (w > bound)
      fail("weight " + std::to_string(w) + " breaks the bound (V - 1) * w < 2^30 - 1 (largest allowed " +
           std::to_string(bound) + ")");
    return int32_t(w);
  }
  void add_edge(int32_t s, int32_t t, int32_t w, bool both) {
    if (s == t) {
      ++summary_.self_loops;
      return;
    }
    summary_.max_weight = std::max(summary_.max_weight, w);
    summary_.vertices = std::max({summary_.vertices, s + 1, t + 1});
    writer_.edge(s, t, w);
    if (both) writer_.edge(t, s, w);
    if (writer_.edges() > INT32_MAX) fail("more than 2^31 - 1 edges");
  }

  // Matrix Market coordinate: "%%MatrixMarket matrix coordinate FIELD SYMMETRY", comments
  // (%), "ROWS COLS NNZ", then NNZ lines "I J [VALUE]" (1-based). Row -> column is the edge.
  void matrix_market() {
    std::string_view line;
    if (!reader_.next(line) || lower(line.substr(0, 14)) != "%%matrixmarket")
      fail(1, "not a Matrix Market file (no %%MatrixMarket header)");
    Fields h(line);
    h.next();
    const std::string object = lower(h.next()), layout = lower(h.next()), field = lower(h.next()),
                      symmetry = lower(h.next());
    if (object != "matrix") fail("Matrix Market object '" + object + "': only 'matrix'");
    if (layout != "coordinate") fail("Matrix Market format '" + layout + "': only 'coordinate' (sparse)");
    if (field != "integer" && field != "pattern" && field != "real")
      fail("Matrix Market field '" + field + "': only integer, pattern, or real (with --scale)");
    if (field == "real" && !options_.scale) fail("real weights need --scale S (w -> round(w * S))");
    if (symmetry != "general" && symmetry != "symmetric")
      fail("Matrix Market symmetry '" + symmetry + "': only general or symmetric");
    const bool symmetric = symmetry == "symmetric";
    int64_t declared = -1, seen = 0;
    while (reader_.next(line)) {
      Fields f(line);
      if (f.done() || line.front() == '%') continue;
      if (declared < 0) {  // the size line
        const int64_t rows = integer(f.next(), "row count"), cols = integer(f.next(), "column count");
        declared = integer(f.next(), "entry count");
        if (!f.done()) fail("more than three fields in the size line");
        if (rows != cols) fail("a " + std::to_string(rows) + " x " + std::to_string(cols) + " matrix is not square");
        if (rows < 1 || rows > INT32_MAX) fail("vertex count " + std::to_string(rows) + " outside [1, 2^31 - 1]");
        if (declared < 0) fail("negative entry count");
        known_vertices_ = int32_t(rows);
        summary_.vertices = known_vertices_;
        continue;
      }
      const int32_t s = vertex(f.next(), 1, "row"), t = vertex(f.next(), 1, "column");
      const int32_t w = field == "pattern" ? 1 : weight(f.next(), field == "real");
      if (!f.done()) fail("more fields than '" + field + "' entries have");
      if (++seen > declared) fail("more entries than the " + std::to_string(declared) + " declared");
      add_edge(s, t, w, symmetric || options_.undirected);
    }
    if (declared < 0) fail("no size line");
    if (seen != declared)
      fail(std::to_string(declared) + " entries declared, " + std::to_string(seen) + " present (file truncated?)");
  }

  // DIMACS shortest paths (9th challenge): "c ..." comments, "p sp N M", "a U V W" (1-based).
  void dimacs() {
    std::string_view line;
    int64_t declared = -1, seen = 0;
    while (reader_.next(line)) {
      Fields f(line);
      if (f.done()) continue;
      const std::string_view kind = f.next();
      if (kind == "c") continue;
      if (kind == "p") {
        if (declared >= 0) fail("a second problem line");
        if (f.next() != "sp") fail("problem line is not 'p sp N M'");
        const int64_t n = integer(f.next(), "vertex count");
        declared = integer(f.next(), "arc count");
        if (!f.done()) fail("more than four fields in the problem line");
        if (n < 1 || n > INT32_MAX) fail("vertex count " + std::to_string(n) + " outside [1, 2^31 - 1]");
        if (declared < 0) fail("negative arc count");
        known_vertices_ = int32_t(n);
        summary_.vertices = known_vertices_;
        continue;
      }
      if (kind != "a") fail("line type '" + std::string(kind) + "': expected c, p or a");
      if (declared < 0) fail("an arc before the problem line 'p sp N M'");
      const int32_t s = vertex(f.next(), 1, "tail"), t = vertex(f.next(), 1, "head");
      const int32_t w = weight(f.next(), false);
      if (!f.done()) fail("more than four fields in an arc line");
      if (++seen > declared) fail("more arcs than the " + std::to_string(declared) + " declared");
      add_edge(s, t, w, options_.undirected);
    }
    if (declared < 0) fail("no problem line 'p sp N M'");
    if (seen != declared)
      fail(std::to_string(declared) + " arcs declared, " + std::to_string(seen) + " present (file truncated?)");
  }

  // Edge lists (SNAP and the like): "# ..." or "% ..." comments, "U V [W]" (W default 1).
  void edge_list() {
    std::string_view line;
    while (reader_.next(line)) {
      Fields f(line);
      if (f.done() || line.front() == '#' || line.front() == '%') continue;
      const int32_t s = vertex(f.next(), options_.base, "source"), t = vertex(f.next(), options_.base, "target");
      const std::string_view w_field = f.next();
      const int32_t w = w_field.empty() ? 1 : weight(w_field, true);
      if (!f.done()) fail("more than three fields (expected: source target [weight])");
      add_edge(s, t, w, options_.undirected);
    }
  }

  std::string input_;
  TextGraphOptions options_;
  LineReader reader_;
  EdgeListFile writer_;
  ConversionSummary summary_;
  int32_t known_vertices_ = 0;  ///< declared by the file's header (0: edge lists, learnt as read)
};

}  // namespace

TextFormat format_from_extension(const std::string& path) {
  const auto ends = [&](const char* ext) {
    const size_t n = std::strlen(ext);
    return path.size() >= n && lower(std::string_view(path).substr(path.size() - n)) == ext;
  };
  if (ends(".mtx")) return TextFormat::matrix_market;
  if (ends(".gr")) return TextFormat::dimacs;
  return TextFormat::edge_list;
}

const char* format_name(TextFormat f) {
  switch (f) {
    case TextFormat::matrix_market:
      return "mtx";
    case TextFormat::dimacs:
      return "gr";
    case TextFormat::edge_list:
      return "edges";
  }
  return "?";
}

TextFormat parse_format_name(const std::string& name) {
  for (TextFormat f : {TextFormat::matrix_market, TextFormat::dimacs, TextFormat::edge_list})
    if (name == format_name(f)) return f;
  throw std::invalid_argument("input format '" + name + "': expected mtx, gr or edges");
}

ConversionSummary convert_text_graph(const std::string& input, const std::string& output,
                                     const TextGraphOptions& options) {
  Converter c(input, output, options);
  return c.run(options.format.value_or(format_from_extension(input)));
}

}  // namespace apsp
