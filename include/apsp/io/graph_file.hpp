// SPDX-License-Identifier: BSD-3-Clause
// Reading the binary edge-list format (../shared/spec.md): header checks up front, the edges
// memory-mapped so that the process holds no second copy of them.
#pragma once

#include <cstdint>
#include <string>

#include "apsp/core/constants.hpp"
#include "apsp/core/errors.hpp"

namespace apsp {

/// A graph file, validated as far as its header goes and mapped read-only.
/// Edge contents are checked where they are consumed (`initialise_from_edges`), in parallel.
class GraphFile {
 public:
  /// Opens and maps `path`; throws InputError for a missing/unreadable file, a short file,
  /// V < 1, E < 0, E > V(V-1), or a size other than 8 + 12E bytes.
  static GraphFile open(const std::string& path);

  GraphFile(GraphFile&& other) noexcept;
  GraphFile& operator=(GraphFile&&) = delete;
  GraphFile(const GraphFile&) = delete;
  ~GraphFile();

  const std::string& path() const { return path_; }
  int32_t vertices() const { return vertices_; }
  int64_t edges() const { return edges_; }
  /// 3 * edges() int32: src, dst, w for each edge.
  const int32_t* edge_data() const { return edge_data_; }

  /// Largest weight for which every path length stays below INF: (V - 1) * w < INF.
  int32_t max_weight_allowed() const;

  /// Throws InputError describing which rule edge `index` breaks.
  [[noreturn]] void throw_bad_edge(int64_t index) const;

 private:
  GraphFile() = default;
  std::string path_;
  int32_t vertices_ = 0;
  int64_t edges_ = 0;
  void* map_ = nullptr;
  size_t map_bytes_ = 0;
  const int32_t* edge_data_ = nullptr;
};

}  // namespace apsp
