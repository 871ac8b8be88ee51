// SPDX-License-Identifier: BSD-3-Clause
// The self-check's graph (src/check/ only): the edge list as the check reads it, and its CSR form
// built on several threads, on which the reference Dijkstra runs and the predecessor walk looks
// edges up.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "apsp/io/graph_file.hpp"

#if defined(APSP_HAVE_KOKKOS_KERNELS)
#include <KokkosSparse_CrsMatrix.hpp>
#endif

namespace apsp::check {

// The graph in CSR form: the edges out of u are [offset(u), offset(u + 1)) of (dst, w).
// Self-loops are dropped; repeated edges stay (Dijkstra takes the lightest by itself).
// With Kokkos Kernels it is a KokkosSparse::CrsMatrix on the host (weights as values).
#if defined(APSP_HAVE_KOKKOS_KERNELS)
using HostDevice = Kokkos::Device<Kokkos::DefaultHostExecutionSpace, Kokkos::HostSpace>;
using Csr = KokkosSparse::CrsMatrix<int32_t, int32_t, HostDevice, void, int64_t>;
inline int64_t row_begin(const Csr& c, int64_t u) { return c.graph.row_map(u); }
inline int32_t column(const Csr& c, int64_t i) { return c.graph.entries(i); }
inline int32_t weight(const Csr& c, int64_t i) { return c.values(i); }
inline int64_t rows(const Csr& c) { return c.numRows(); }
#else
// Arrays left uninitialised (no serial zero fill: the build's threads write every entry, and
// first touch their pages in parallel).
struct Csr {
  int64_t vertices = 0;
  std::unique_ptr<int64_t[]> offset;
  std::unique_ptr<int32_t[]> dst, weight;
};
inline int64_t row_begin(const Csr& c, int64_t u) { return c.offset[size_t(u)]; }
inline int32_t column(const Csr& c, int64_t i) { return c.dst[size_t(i)]; }
inline int32_t weight(const Csr& c, int64_t i) { return c.weight[size_t(i)]; }
inline int64_t rows(const Csr& c) { return c.vertices; }
#endif

// The edge list as the check reads it: from memory as far as the read-ahead holds it, the rest
// from the file (a chunk at a time, so that a thread holds at most one chunk).
class EdgeReader {
 public:
  EdgeReader(const GraphFile& g, const GraphFile::SharedEdges& in_memory)
      : graph_(g), memory_(in_memory.data.get()), in_memory_(in_memory.data ? in_memory.count : 0) {}
  int64_t edges() const { return graph_.edges(); }
  /// Calls f(src, dst, w) for edges [begin, end), in order; returns false when `stop` was set.
  template <class F>
  bool for_each(int64_t begin, int64_t end, const std::atomic<bool>* stop, F&& f) const {
    constexpr int64_t kChunk = int64_t(1) << 16;  // edges: 768 KiB a thread when read from the file
    std::vector<int32_t> buf;
    for (int64_t at = begin; at < end;) {
      if (stop != nullptr && stop->load(std::memory_order_relaxed)) return false;
      int64_t count = std::min(kChunk, end - at);
      const int32_t* e;
      if (at < in_memory_) {
        count = std::min(count, in_memory_ - at);
        e = memory_ + 3 * at;
      } else {
        buf.resize(size_t(3 * count));
        graph_.read_edges(at, count, buf.data());
        e = buf.data();
      }
      for (int64_t i = 0; i < count; ++i) f(e[3 * i], e[3 * i + 1], e[3 * i + 2]);
      at += count;
    }
    return true;
  }

 private:
  const GraphFile& graph_;
  const int32_t* memory_;
  int64_t in_memory_;
};

/// Threads the CSR build uses at most: one per 65 536 edges, at most 16 (each thread's counts
/// cost 8 bytes a vertex).
int csr_threads(int64_t edges, int asked);

/// Builds the CSR on up to `threads` threads: each counts the edges out of every vertex in its
/// own range of the edge list, then places them, after those of the ranges before it (so every
/// vertex's edges keep the file's order, as one thread would place them). Edges the input's
/// rules refuse are left out: the check may start before the build has checked the input, and
/// must end whatever it holds (a negative weight could keep Dijkstra going). `sorted`: each
/// vertex's edges in order of (destination, weight), so that edge_weight can look an edge up
/// (the predecessor walk). Returns nothing when `stop` was set.
std::optional<Csr> build_csr(const EdgeReader& edges, int64_t v, int32_t max_weight, int threads, bool sorted,
                             const std::atomic<bool>* stop);

/// The lightest edge u -> t in a sorted CSR (build_csr(g, true)), or -1 when there is none.
int64_t edge_weight(const Csr& csr, int64_t u, int32_t t);

}  // namespace apsp::check
