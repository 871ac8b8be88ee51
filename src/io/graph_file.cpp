// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/io/graph_file.hpp"
#include "apsp/core/helper_thread.hpp"
#include "apsp/core/huge_page_array.hpp"

#include "path_parts.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the file format is little-endian int32; this host is not");

namespace apsp {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) { throw InputError(path + ": " + what); }

// A file that fails as the binary edge list: when its first bytes are text, the error says so
// and how to read it (people hand the solver a .mtx renamed, or an edge list named .dat).
[[noreturn]] void fail_header(int fd, const std::string& path, const std::string& what) {
  char head[256];
  const ssize_t n = ::pread(fd, head, sizeof head, 0);
  if (n > 0)
    if (const auto text = guess_text(head, size_t(n)))
      fail(path, std::string("this is text (") + text->what + "), not the binary edge list: pass --input-format " +
                     format_name(text->format) +
                     " to read it as text, or convert it once: apsp_convert --input-format " +
                     format_name(text->format) + " " + path + " GRAPH.bin");
  fail(path, what);
}

}  // namespace

GraphFile GraphFile::open(const std::string& path) {
  GraphFile g;
  g.path_ = path;
  if (path.empty()) throw InputError("input path is empty");
  // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below).
  g.fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (g.fd_ < 0) fail(path, std::string("cannot open input: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(g.fd_, &st) != 0) fail(path, std::string("cannot read input: ") + std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    fail(path, std::string("cannot read input: not a regular file (") + Impl::kind_of(st.st_mode) + ")");
  const int64_t size = st.st_size;
  if (size < 8)
    fail_header(g.fd_, path, "file is " + std::to_string(size) + " bytes, shorter than the 8-byte header (V, E)");
  int32_t header[2];
  if (::pread(g.fd_, header, sizeof header, 0) != static_cast<ssize_t>(sizeof header))
    fail(path, std::string("cannot read header: ") + std::strerror(errno));
  const int64_t v = header[0], e = header[1];
  if (v < 1) fail_header(g.fd_, path, "V = " + std::to_string(v) + " in the header; V must be at least 1");
  if (e < 0) fail_header(g.fd_, path, "E = " + std::to_string(e) + " in the header; E must not be negative");
  if (e > v * (v - 1))
    fail_header(g.fd_, path,
                "E = " + std::to_string(e) + " exceeds V*(V-1) = " + std::to_string(v * (v - 1)) +
                    " for V = " + std::to_string(v));
  const int64_t expected = 8 + 12 * e;  // e < 2^31: no overflow
  if (size != expected)
    fail_header(g.fd_, path,
                "file is " + std::to_string(size) + " bytes, but V = " + std::to_string(v) +
                    ", E = " + std::to_string(e) + " needs exactly 8 + 12*E = " + std::to_string(expected) +
                    (size < expected ? " (truncated)" : " (trailing bytes)"));
  g.vertices_ = static_cast<int32_t>(v);
  g.edges_ = e;
  return g;
}

GraphFile GraphFile::open(const std::string& path, const InputFormat& how) {
  const auto format = solver_input_format(path, how.format);
  if (!format) return open(path);
  TextGraphOptions options = how.text;
  options.format = *format;
  TextGraphEdges read = read_text_graph(path, options);
  GraphFile g;
  g.path_ = path;
  g.vertices_ = read.summary.vertices;
  g.edges_ = read.summary.edges;
  g.text_ = read.summary;
  // The cache is the vector itself (no copy: a text graph's edges may be most of the memory).
  auto edges = std::make_shared<std::vector<int32_t>>(std::move(read.edges));
  edges->resize(std::max<size_t>(edges->size(), 3));
  g.cache_ = std::shared_ptr<int32_t[]>(edges, edges->data());  // owned by `edges`
  g.cached_ = g.edges_;
  return g;
}

GraphFile::GraphFile(GraphFile&& o) noexcept
    : path_(std::move(o.path_)),
      vertices_(o.vertices_),
      edges_(o.edges_),
      fd_(o.fd_),
      cache_(std::move(o.cache_)),
      cached_(o.cached_),
      generated_(o.generated_),
      text_(o.text_),
      partial_(o.partial_),
      given_(o.given_) {
  o.fd_ = -1;
  o.cached_ = 0;
}

GraphFile::~GraphFile() {
  if (fd_ >= 0) ::close(fd_);
}

GraphFile GraphFile::from_memory(int32_t vertices, std::shared_ptr<int32_t[]> edges, int64_t count, std::string name) {
  if (vertices < 1) throw InputError(name + ": V = " + std::to_string(vertices) + "; V must be at least 1");
  if (count < 0 || (count > 0 && edges == nullptr))
    throw InputError(name + ": no edges given for E = " + std::to_string(count));
  GraphFile g;
  g.path_ = std::move(name);
  g.vertices_ = vertices;
  g.edges_ = count;
  g.given_ = true;
  g.cache_ = edges != nullptr ? std::move(edges) : std::shared_ptr<int32_t[]>(new int32_t[3]);
  g.cached_ = count;
  return g;
}

GraphFile GraphFile::generate(const RandomGraphSpec& spec, int64_t first_row, int64_t last_row, int threads) {
  GraphFile g;
  g.path_ = "--generate " + std::to_string(spec.vertices) + "," + std::to_string(spec.expected_edges()) + "," +
            std::to_string(spec.seed);
  g.vertices_ = static_cast<int32_t>(spec.vertices);
  g.generated_ = spec;
  first_row = std::clamp<int64_t>(first_row, 0, spec.vertices);
  last_row = std::clamp<int64_t>(last_row, first_row, spec.vertices);
  g.partial_ = first_row > 0 || last_row < spec.vertices;
  // Each thread makes a contiguous range of rows, then copies them to their place in one array.
  const int64_t rows = last_row - first_row;
  threads = static_cast<int>(std::clamp<int64_t>(threads, 1, std::max<int64_t>(1, rows / 64)));
  std::vector<std::vector<int32_t>> parts(static_cast<size_t>(threads));
  std::vector<size_t> at(static_cast<size_t>(threads) + 1, 0);
  const double per_row = 3 * spec.probability() * double(spec.vertices);
  on_threads(threads, [&](int t) {
    const auto [b0, e0] = thread_share(rows, t, threads);
    const int64_t b = first_row + b0, e = first_row + e0;
    auto& part = parts[size_t(t)];
    part.reserve(static_cast<size_t>(per_row * double(e - b) * 1.01) + 64);
    for (int64_t r = b; r < e; ++r) append_random_row(spec, r, part);
  });
  for (int t = 0; t < threads; ++t) at[size_t(t) + 1] = at[size_t(t)] + parts[size_t(t)].size();
  g.edges_ = int64_t(at.back() / 3);
  g.cache_ = huge_page_array<int32_t>(std::max<size_t>(at.back(), 1));
  on_threads(threads, [&](int t) {
    std::copy(parts[size_t(t)].begin(), parts[size_t(t)].end(), g.cache_.get() + at[size_t(t)]);
    std::vector<int32_t>().swap(parts[size_t(t)]);
  });
  g.cached_ = g.edges_;
  return g;
}

void GraphFile::read_edges(int64_t first, int64_t count, int32_t* out) const {
  if (in_memory()) {  // all of it
    std::copy(cache_.get() + 3 * first, cache_.get() + 3 * (first + count), out);
    return;
  }
  // Large spans are read by several threads at once: one thread copies a cached file at a few
  // GB/s, which made the read of a 960 MB edge list (V = 40000, E = 8e7) 0.3 s of a whole run.
  constexpr int64_t kPerThread = int64_t(1) << 20;  // edges
  const int threads = static_cast<int>(std::clamp<int64_t>(count / kPerThread, 1, 8));
  if (threads == 1) return read_span(first, count, out);
  on_threads(threads, [&](int t) {
    const auto [b, e] = thread_share(count, t, threads);
    read_span(first + b, e - b, out + 3 * b);
  });
}

void GraphFile::cache_edges(int64_t count, const std::atomic<bool>& stop) {
  count = std::clamp<int64_t>(count, 0, edges_);
  drop_cache();
  if (count == 0) return;
  // Uninitialised (no first pass over the memory): the reads fault its pages in. Huge pages: a
  // device pins them for the build in half the time, and they are freed in a tenth.
  cache_ = huge_page_array<int32_t>(size_t(3 * count));
  constexpr int64_t kPiece = int64_t(1) << 24;  // edges: a check of `stop` every 192 MiB
  while (cached_ < count && !stop.load(std::memory_order_relaxed)) {
    const int64_t n = std::min(kPiece, count - cached_);
    read_edges(cached_, n, cache_.get() + 3 * cached_);
    cached_ += n;
  }
}

void GraphFile::read_span(int64_t first, int64_t count, int32_t* out) const {
  auto* p = reinterpret_cast<char*>(out);
  int64_t offset = 8 + 12 * first, left = 12 * count;
  while (left > 0) {
    const ssize_t n = ::pread(fd_, p, size_t(std::min<int64_t>(left, int64_t(1) << 30)), offset);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(path_, std::string("cannot read edges: ") + std::strerror(errno));
    if (n == 0) {
      struct stat st {};
      const int64_t now = ::fstat(fd_, &st) == 0 ? int64_t(st.st_size) : -1;
      fail(path_, "the file shrank to " + std::to_string(now) + " bytes while it was being read (E = " +
                      std::to_string(edges_) + " needs " + std::to_string(8 + 12 * edges_) + ")");
    }
    p += n;
    offset += n;
    left -= n;
  }
}

int32_t GraphFile::max_weight_allowed() const { return apsp::max_weight_allowed(vertices_); }

void GraphFile::throw_bad_edge(int64_t index) const {
  int32_t e[3];
  read_edges(index, 1, e);
  const int32_t s = e[0], t = e[1], w = e[2];
  std::ostringstream msg;
  msg << "edge " << index << " (src " << s << ", dst " << t << ", w " << w << "): ";
  if (s < 0 || s >= vertices_)
    msg << "src = " << s << " is outside [0, V) with V = " << vertices_;
  else if (t < 0 || t >= vertices_)
    msg << "dst = " << t << " is outside [0, V) with V = " << vertices_;
  else if (w < 0)
    msg << "negative weight " << w;
  else
    msg << "weight " << w << " breaks the bound (V-1)*max_w < INF = " << kInf << " (V = " << vertices_
        << " allows weights up to " << max_weight_allowed() << ")";
  fail(path_, msg.str());
}

}  // namespace apsp
