// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/io/graph_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the file format is little-endian int32; this host is not");

namespace apsp {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) { throw InputError(path + ": " + what); }
}  // namespace

GraphFile GraphFile::open(const std::string& path) {
  GraphFile g;
  g.path_ = path;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(path, std::string("cannot open input: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    fail(path, "cannot read input: not a regular file");
  }
  const int64_t size = st.st_size;
  auto close_and_fail = [&](const std::string& what) {
    ::close(fd);
    fail(path, what);
  };
  if (size < 8) close_and_fail("file is " + std::to_string(size) + " bytes, shorter than the 8-byte header (V, E)");
  int32_t header[2];
  if (::pread(fd, header, sizeof header, 0) != static_cast<ssize_t>(sizeof header))
    close_and_fail(std::string("cannot read header: ") + std::strerror(errno));
  const int64_t v = header[0], e = header[1];
  if (v < 1) close_and_fail("V = " + std::to_string(v) + " in the header; V must be at least 1");
  if (e < 0) close_and_fail("E = " + std::to_string(e) + " in the header; E must not be negative");
  if (e > v * (v - 1))
    close_and_fail("E = " + std::to_string(e) + " exceeds V*(V-1) = " + std::to_string(v * (v - 1)) +
                   " for V = " + std::to_string(v));
  const int64_t expected = 8 + 12 * e;
  if (size != expected)
    close_and_fail("file is " + std::to_string(size) + " bytes, but V = " + std::to_string(v) +
                   ", E = " + std::to_string(e) + " needs exactly 8 + 12*E = " + std::to_string(expected) +
                   (size < expected ? " (truncated)" : " (trailing bytes)"));
  g.vertices_ = static_cast<int32_t>(v);
  g.edges_ = e;
  if (e > 0) {
    // MAP_POPULATE reads the file now, so the "read" stage of the timing is the real read.
    void* p = ::mmap(nullptr, static_cast<size_t>(size), PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (p == MAP_FAILED) close_and_fail(std::string("cannot map input: ") + std::strerror(errno));
    g.map_ = p;
    g.map_bytes_ = static_cast<size_t>(size);
    g.edge_data_ = reinterpret_cast<const int32_t*>(static_cast<const char*>(p) + 8);
  }
  ::close(fd);
  return g;
}

GraphFile::GraphFile(GraphFile&& o) noexcept
    : path_(std::move(o.path_)),
      vertices_(o.vertices_),
      edges_(o.edges_),
      map_(o.map_),
      map_bytes_(o.map_bytes_),
      edge_data_(o.edge_data_) {
  o.map_ = nullptr;
  o.map_bytes_ = 0;
  o.edge_data_ = nullptr;
}

GraphFile::~GraphFile() {
  if (map_ != nullptr) ::munmap(map_, map_bytes_);
}

int32_t GraphFile::max_weight_allowed() const {
  if (vertices_ <= 1) return INT32_MAX;
  return static_cast<int32_t>((int64_t(kInf) - 1) / (vertices_ - 1));
}

void GraphFile::throw_bad_edge(int64_t index) const {
  const int32_t* e = edge_data_ + 3 * index;
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
