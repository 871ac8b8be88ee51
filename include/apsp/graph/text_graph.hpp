// SPDX-License-Identifier: BSD-3-Clause
// Graphs as people keep them (Matrix Market, DIMACS .gr, whitespace edge lists) turned into the
// program's binary edge list (docs/graphs.md), in one streaming pass: memory stays a read
// buffer and a write buffer whatever the file's size.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "apsp/core/errors.hpp"

namespace apsp {

enum class TextFormat { matrix_market, dimacs, edge_list };

struct TextGraphOptions {
  std::optional<TextFormat> format;  ///< none: from the extension (.mtx, .gr, anything else an edge list)
  bool undirected = false;           ///< every edge in both directions
  int base = 0;                      ///< edge lists: the first vertex's number (0 or 1)
  std::optional<double> scale;       ///< real weights: multiplied by this and rounded (required for them)
};

struct ConversionSummary {
  TextFormat format = TextFormat::edge_list;
  int32_t vertices = 0;
  int64_t edges = 0;       ///< written
  int64_t lines = 0;       ///< read
  int64_t self_loops = 0;  ///< dropped (they never shorten anything)
  int32_t max_weight = 0;
  int64_t rounded = 0;  ///< real weights that were not integers after scaling
};

/// The format a path's extension names (.mtx, .gr; anything else an edge list).
TextFormat format_from_extension(const std::string& path);
const char* format_name(TextFormat f);
/// "Matrix Market", "DIMACS .gr", "edge list".
const char* format_title(TextFormat f);
/// "mtx", "gr", "edges" -> the format; throws std::invalid_argument otherwise.
TextFormat parse_format_name(const std::string& name);

/// The solver's reading of its INPUT: `format` "bin" (the binary edge list), "mtx", "gr" or
/// "edges"; empty: from the extension, where only .mtx, .gr and the edge-list names .txt,
/// .edges, .el, .tsv mean text (anything else is the binary edge list, as the spec has it).
/// None: binary. Throws std::invalid_argument for another `format`.
std::optional<TextFormat> solver_input_format(const std::string& path, const std::string& format);

/// What the first bytes of a file that is not a valid binary edge list look like, when they look
/// like text: "Matrix Market", "DIMACS .gr" or "an edge list" with the format's name ("mtx", ...);
/// none when they do not (a byte outside printable ASCII and white space).
struct TextGuess {
  const char* what;
  TextFormat format;
};
std::optional<TextGuess> guess_text(const char* bytes, size_t n);

/// A text graph read into memory: three int32 per edge (src, dst, w), as the binary file holds
/// them, with every rule the conversion applies. Throws as convert_text_graph does.
struct TextGraphEdges {
  ConversionSummary summary;
  std::vector<int32_t> edges;
};
TextGraphEdges read_text_graph(const std::string& input, const TextGraphOptions& options);

/// Converts `input` to the binary edge list `output`, written as every output of the project is
/// (io/edge_list_file.hpp: nothing left behind on failure; an existing `output` replaced only
/// when complete). Self-loops are dropped, repeated edges kept (the solver keeps the lightest).
/// Throws InputError for a malformed line or a rule of the format broken ("FILE:LINE: reason",
/// LINE 0 for the file as a whole) and for an output the rules refuse (the input itself, a
/// directory, ...); std::runtime_error for I/O failures.
ConversionSummary convert_text_graph(const std::string& input, const std::string& output,
                                     const TextGraphOptions& options);

}  // namespace apsp
