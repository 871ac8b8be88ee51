// SPDX-License-Identifier: BSD-3-Clause
// Reading the binary edge-list format (docs/graphs.md): header checks up front, then the
// edges read in chunks where they are consumed, so that the process never holds them all and a
// file that shrinks while it is read is an error, not a crash (a mapped file would be SIGBUS).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "apsp/core/constants.hpp"
#include "apsp/core/errors.hpp"
#include "apsp/graph/random_graph.hpp"
#include "apsp/graph/text_graph.hpp"

namespace apsp {

/// How INPUT is read: --input-format and the text formats' options.
struct InputFormat {
  std::string format;     ///< "bin", "mtx", "gr", "edges"; empty: from the extension (solver_input_format)
  TextGraphOptions text;  ///< --undirected, --one-based, --scale (its `format` is set from `format`)
};

/// The input graph: a file, validated as far as its header goes and kept open for reading its
/// edges, or a random graph generated in memory (--generate). Edge contents are checked where
/// they are consumed (`initialise_from_edges`), in parallel.
class GraphFile {
 public:
  /// Opens `path` (never blocking, even on a FIFO); throws InputError for a missing or
  /// unreadable file, anything but a regular file, a short file, V < 1, E < 0, E > V(V-1), or
  /// a size other than 8 + 12E bytes.
  /// A text file given as binary is named as such, with the command that converts it.
  static GraphFile open(const std::string& path);
  /// INPUT as `how` says: the binary edge list (open), or a text graph (Matrix Market, DIMACS
  /// .gr, an edge list) read into memory in one streaming pass with the converter's rules.
  static GraphFile open(const std::string& path, const InputFormat& how);
  /// Whether `path` is read as text (then open(path, how) reads it all at once: nothing to
  /// read ahead).
  static bool is_text(const std::string& path, const InputFormat& how) {
    return solver_input_format(path, how.format).has_value();
  }

  /// The random graph `spec` (graph/random_graph.hpp), or only the edges out of rows
  /// [first_row, last_row) of it (each MPI rank makes its own), generated in memory by up to
  /// `threads` threads on the process's CPUs; `edges()` counts those made here.
  static GraphFile generate(const RandomGraphSpec& spec, int64_t first_row, int64_t last_row, int threads);
  /// A graph the caller holds in memory (the Python module): `edges` triples (src, dst, w),
  /// shared with the caller for as long as the graph lives, checked where they are consumed as a
  /// file's are. `name` says where it came from (the banner, messages).
  static GraphFile from_memory(int32_t vertices, std::shared_ptr<int32_t[]> edges, int64_t count, std::string name);
  /// The spec of a generated graph; none for a file.
  const std::optional<RandomGraphSpec>& generated() const { return generated_; }
  /// A generated graph that holds only some rows' edges (see generate).
  bool partial() const { return partial_; }
  /// A text graph's reading (its format, self-loops dropped, ...); none for the binary format.
  const std::optional<ConversionSummary>& text() const { return text_; }
  /// Whether the edges are all in memory, with no file behind them (generated, read as text, or
  /// given by the caller).
  bool in_memory() const { return generated_.has_value() || text_.has_value() || given_; }

  GraphFile(GraphFile&& other) noexcept;
  GraphFile& operator=(GraphFile&&) = delete;
  GraphFile(const GraphFile&) = delete;
  ~GraphFile();

  const std::string& path() const { return path_; }
  int32_t vertices() const { return vertices_; }
  int64_t edges() const { return edges_; }

  /// Edges [first, first + count) as 3 * count int32 (src, dst, w for each) into `out`.
  /// Throws InputError when the file has shrunk since it was opened.
  void read_edges(int64_t first, int64_t count, int32_t* out) const;

  /// Reads edges [0, count) into memory this object owns (several threads), so that the build
  /// takes them from there instead of the file: done while the process starts (InputPrefetch).
  /// `stop` ends it early; what was read by then stays usable. Throws like read_edges.
  void cache_edges(int64_t count, const std::atomic<bool>& stop);
  /// Edges [first, first + count) from the cache (3 int32 each), or null when not all are there.
  const int32_t* cached_edges(int64_t first, int64_t count) const {
    return first >= 0 && first + count <= cached_ ? cache_.get() + 3 * first : nullptr;
  }
  /// Edges [0, cached_count()) are in the cache.
  int64_t cached_count() const { return cached_; }
  /// Edges [0, count) of the cache, shared: a reader on another thread keeps them alive
  /// whatever the graph does with its own handle meanwhile (release_cache).
  struct SharedEdges {
    std::shared_ptr<const int32_t[]> data;
    int64_t count = 0;
  };
  SharedEdges share_cache() const { return {cache_, cached_}; }
  /// Hands the graph's handle on the cache over (once the matrix is built), so that the caller
  /// frees it where that costs nothing (freeing 960 MB took 0.04 s on an H200 host), unless a
  /// share outlives it; null for a graph held in memory, which keeps its edges: it cannot read
  /// them again.
  std::shared_ptr<int32_t[]> release_cache() {
    if (in_memory()) return nullptr;
    cached_ = 0;
    return std::move(cache_);
  }
  /// Frees the cache (release_cache, freed here).
  void drop_cache() { release_cache().reset(); }

  /// Largest weight for which every path length stays below INF: (V - 1) * w < INF.
  int32_t max_weight_allowed() const;

  /// Throws InputError describing which rule edge `index` breaks.
  [[noreturn]] void throw_bad_edge(int64_t index) const;

 private:
  GraphFile() = default;
  void read_span(int64_t first, int64_t count, int32_t* out) const;  ///< read_edges on one thread
  std::string path_;
  int32_t vertices_ = 0;
  int64_t edges_ = 0;
  int fd_ = -1;
  std::shared_ptr<int32_t[]> cache_;  ///< edges [0, cached_), when cache_edges() read them (all of a generated graph)
  int64_t cached_ = 0;
  std::optional<RandomGraphSpec> generated_;
  std::optional<ConversionSummary> text_;
  bool partial_ = false;
  bool given_ = false;  ///< from_memory
};

}  // namespace apsp
