// SPDX-License-Identifier: BSD-3-Clause
// Text graphs to the binary edge list: the format by name or extension, then the format's reader
// (matrix_market.cpp, dimacs_graph.cpp, edge_list_text.cpp) through text_reader.hpp.
#include "apsp/graph/text_graph.hpp"

#include <cstring>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "text_reader.hpp"

namespace apsp {

TextFormat format_from_extension(const std::string& path) {
  const auto ends = [&](const char* ext) {
    const size_t n = std::strlen(ext);
    return path.size() >= n && text::lower(std::string_view(path).substr(path.size() - n)) == ext;
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

const char* format_title(TextFormat f) {
  switch (f) {
    case TextFormat::matrix_market:
      return "Matrix Market";
    case TextFormat::dimacs:
      return "DIMACS .gr";
    case TextFormat::edge_list:
      return "edge list";
  }
  return "?";
}

TextFormat parse_format_name(const std::string& name) {
  for (TextFormat f : {TextFormat::matrix_market, TextFormat::dimacs, TextFormat::edge_list})
    if (name == format_name(f)) return f;
  throw std::invalid_argument("input format '" + name + "': expected mtx, gr or edges");
}

std::optional<TextFormat> solver_input_format(const std::string& path, const std::string& format) {
  if (format == "bin") return std::nullopt;
  if (!format.empty()) {
    try {
      return parse_format_name(format);
    } catch (const std::invalid_argument&) {
      throw std::invalid_argument("--input-format '" + format + "': expected bin, mtx, gr or edges");
    }
  }
  const std::string lower = text::lower(path);
  const auto ends = [&](std::string_view ext) {
    return lower.size() >= ext.size() && std::string_view(lower).substr(lower.size() - ext.size()) == ext;
  };
  if (ends(".mtx")) return TextFormat::matrix_market;
  if (ends(".gr")) return TextFormat::dimacs;
  for (const char* ext : {".txt", ".edges", ".el", ".tsv"})
    if (ends(ext)) return TextFormat::edge_list;
  return std::nullopt;
}

std::optional<TextGuess> guess_text(const char* bytes, size_t n) {
  if (n == 0) return std::nullopt;
  for (size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if ((c < 0x20 || c > 0x7e) && c != '\n' && c != '\r' && c != '\t') return std::nullopt;
  }
  const std::string head = text::lower(std::string_view(bytes, n));
  if (head.rfind("%%matrixmarket", 0) == 0) return TextGuess{"Matrix Market", TextFormat::matrix_market};
  if (head.rfind("c ", 0) == 0 || head.rfind("p sp", 0) == 0 || head.find("\np sp") != std::string::npos)
    return TextGuess{"DIMACS .gr", TextFormat::dimacs};
  return TextGuess{"an edge list", TextFormat::edge_list};
}

TextGraphEdges read_text_graph(const std::string& input, const TextGraphOptions& options) {
  TextGraphEdges g;
  text::TextGraphReader reader(input, g.edges, options);
  g.summary = reader.run(options.format.value_or(format_from_extension(input)));
  return g;
}

ConversionSummary convert_text_graph(const std::string& input, const std::string& output,
                                     const TextGraphOptions& options) {
  text::TextGraphReader reader(input, output, options);
  return reader.run(options.format.value_or(format_from_extension(input)));
}

}  // namespace apsp
