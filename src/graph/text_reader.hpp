// SPDX-License-Identifier: BSD-3-Clause
// The one interface the text formats read through (src/graph/ only): each format is a function
// `void read_FORMAT(TextGraphReader&)` in a file of its own that walks the lines and hands every
// edge to add_edge(); the reader applies the rules every format shares (vertex range, weights,
// the bound (V - 1) * w < 2^30 - 1, self-loops, edge count) and writes the binary edge list, or
// keeps the edges in memory (the solver reading a text graph itself).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "apsp/graph/text_graph.hpp"
#include "apsp/io/edge_list_file.hpp"
#include "text_lines.hpp"

namespace apsp::text {

class TextGraphReader {
 public:
  /// Writes the binary edge list `output` (apsp_convert).
  TextGraphReader(const std::string& input, const std::string& output, const TextGraphOptions& options);
  /// Appends the edges to `memory`, three int32 each (src, dst, w), as the binary file holds them.
  TextGraphReader(const std::string& input, std::vector<int32_t>& memory, const TextGraphOptions& options);

  /// Reads `format`, checks the whole graph, commits the output.
  ConversionSummary run(TextFormat format);

  // For the formats:
  bool next_line(std::string_view& line) { return reader_.next(line); }
  const TextGraphOptions& options() const { return options_; }
  /// A vertex count the file declares in its header: vertices are checked against it as read.
  void declare_vertices(int64_t n);
  [[noreturn]] void fail(int64_t line, const std::string& why) const;
  [[noreturn]] void fail(const std::string& why) const { fail(reader_.number(), why); }
  int64_t integer(std::string_view field, const char* what) const;
  /// A vertex numbered from `base`, within [0, V) once shifted (V: when declared).
  int32_t vertex(std::string_view field, int base, const char* what) const;
  /// An integer weight, or a real one scaled and rounded when --scale was given.
  int32_t weight(std::string_view field, bool real_allowed);
  /// The edge s -> t (and t -> s with `both`); a self-loop is counted and dropped.
  void add_edge(int32_t s, int32_t t, int32_t w, bool both);

 private:
  std::string input_;
  TextGraphOptions options_;
  LineReader reader_;
  std::optional<EdgeListFile> file_;  ///< the output, or none: the edges go to memory_
  std::vector<int32_t>* memory_ = nullptr;
  int64_t edges_ = 0;
  ConversionSummary summary_;
  int32_t known_vertices_ = 0;  ///< declared by the file's header (0: edge lists, learnt as read)
};

void read_matrix_market(TextGraphReader& in);
void read_dimacs(TextGraphReader& in);
void read_edge_list(TextGraphReader& in);

}  // namespace apsp::text
