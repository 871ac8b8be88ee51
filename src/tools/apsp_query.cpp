// SPDX-License-Identifier: BSD-3-Clause
// apsp_query: one distance, its path, or one row, read from the solver's output files.
//
//   apsp_query DIST [PRED] I [J]
//
// DIST: the V x V int32 distance matrix apsp_kokkos writes; PRED: a V x V int32 predecessor
// matrix (entry I*V + J: the vertex before J on a shortest path from I; -1 where J = I or J is
// unreachable). With I and J: d(I, J), and with PRED the path. With I alone: row I, one line per
// vertex ("J D", and the predecessor with PRED). The files are memory-mapped: only the pages
// read are touched, whatever V is. A file whose size is not V x V int32 is refused.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "apsp/core/constants.hpp"

namespace {

using apsp::kInf;

/// A read-only mapping of a V x V int32 matrix.
class MatrixFile {
 public:
  explicit MatrixFile(const std::string& path) : path_(path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd);
      throw std::runtime_error(path + ": not a regular file");
    }
    bytes_ = size_t(st.st_size);
    const auto v = int64_t(std::llround(std::sqrt(double(bytes_) / 4.0)));
    if (bytes_ == 0 || bytes_ % 4 != 0 || uint64_t(v) * uint64_t(v) * 4 != bytes_) {
      ::close(fd);
      throw std::runtime_error(path + ": " + std::to_string(bytes_) + " bytes is not V x V int32 for any V");
    }
    vertices_ = v;
    void* p = ::mmap(nullptr, bytes_, PROT_READ, MAP_SHARED, fd, 0);
    ::close(fd);
    if (p == MAP_FAILED) throw std::runtime_error(path + ": cannot map: " + std::strerror(errno));
    ::madvise(p, bytes_, MADV_RANDOM);  // a row or a path: a few pages, no read-ahead of the rest
    data_ = static_cast<const int32_t*>(p);
  }
  ~MatrixFile() { ::munmap(const_cast<int32_t*>(data_), bytes_); }
  MatrixFile(const MatrixFile&) = delete;
  MatrixFile& operator=(const MatrixFile&) = delete;
  int64_t vertices() const { return vertices_; }
  int32_t at(int64_t i, int64_t j) const { return data_[i * vertices_ + j]; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  const int32_t* data_ = nullptr;
  size_t bytes_ = 0;
  int64_t vertices_ = 0;
};

std::optional<int64_t> to_vertex(const std::string& s) {
  if (s.empty() || s.size() > 18) return std::nullopt;
  for (char c : s)
    if (c < '0' || c > '9') return std::nullopt;
  return std::stoll(s);
}

std::string distance_text(int32_t d) { return d == kInf ? "INF" : std::to_string(d); }

/// The path from i to j by the predecessors, i first; throws if the chain is broken.
std::vector<int64_t> path(const MatrixFile& pred, int64_t i, int64_t j) {
  std::vector<int64_t> hops{j};
  for (int64_t cur = j; cur != i;) {
    const int32_t p = pred.at(i, cur);
    if (p < 0 || p >= pred.vertices() || int64_t(hops.size()) > pred.vertices())
      throw std::runtime_error(pred.path() + ": the predecessor chain from " + std::to_string(j) + " back to " +
                               std::to_string(i) + " breaks at vertex " + std::to_string(cur) + " (entry " +
                               std::to_string(p) + ")");
    hops.push_back(p);
    cur = p;
  }
  return {hops.rbegin(), hops.rend()};
}

}  // namespace

int main(int argc, char* argv[]) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::printf("usage: apsp_query DIST [PRED] I [J]\n  d(I, J) (and its path with PRED), or row I\n");
    return args.empty() ? 2 : 0;
  }
  try {
    // DIST I | DIST I J | DIST PRED I | DIST PRED I J
    if (args.size() < 2 || args.size() > 4) throw std::invalid_argument("expected DIST [PRED] I [J]");
    const bool has_pred = args.size() == 4 || (args.size() == 3 && !to_vertex(args[1]));
    const size_t first = has_pred ? 2 : 1;
    std::vector<int64_t> ids;
    for (size_t k = first; k < args.size(); ++k) {
      const auto v = to_vertex(args[k]);
      if (!v) throw std::invalid_argument("vertex '" + args[k] + "' is not a non-negative integer");
      ids.push_back(*v);
    }
    if (ids.empty()) throw std::invalid_argument("expected DIST [PRED] I [J]");
    MatrixFile dist(args[0]);
    std::optional<MatrixFile> pred;
    if (has_pred) {
      pred.emplace(args[1]);
      if (pred->vertices() != dist.vertices())
        throw std::runtime_error(args[1] + ": V = " + std::to_string(pred->vertices()) + ", but " + args[0] +
                                 " has V = " + std::to_string(dist.vertices()));
    }
    for (int64_t v : ids)
      if (v >= dist.vertices())
        throw std::invalid_argument("vertex " + std::to_string(v) + " outside [0, " + std::to_string(dist.vertices()) +
                                    ")");
    const int64_t i = ids[0];
    if (ids.size() == 2) {
      const int64_t j = ids[1];
      const int32_t d = dist.at(i, j);
      std::printf("d(%lld, %lld) = %s\n", static_cast<long long>(i), static_cast<long long>(j),
                  d == kInf ? "INF (no path)" : std::to_string(d).c_str());
      if (pred && d != kInf) {
        const std::vector<int64_t> p = path(*pred, i, j);
        std::string text;
        for (int64_t v : p) text += (text.empty() ? "" : " -> ") + std::to_string(v);
        std::printf("path (%zu edges): %s\n", p.size() - 1, text.c_str());
      }
      return 0;
    }
    for (int64_t j = 0; j < dist.vertices(); ++j) {
      if (pred)
        std::printf("%lld %s %d\n", static_cast<long long>(j), distance_text(dist.at(i, j)).c_str(), pred->at(i, j));
      else
        std::printf("%lld %s\n", static_cast<long long>(j), distance_text(dist.at(i, j)).c_str());
    }
    return 0;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "apsp_query: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "apsp_query: error: %s\n", e.what());
    return 1;
  }
}
