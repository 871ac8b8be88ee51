// SPDX-License-Identifier: BSD-3-Clause
// Text graphs to the binary edge list: the format by name or extension, then the format's reader
// (matrix_market.cpp, dimacs_graph.cpp, edge_list_text.cpp) through text_reader.hpp.
#include "apsp/graph/text_graph.hpp"

#include <cstring>
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

TextFormat parse_format_name(const std::string& name) {
  for (TextFormat f : {TextFormat::matrix_market, TextFormat::dimacs, TextFormat::edge_list})
    if (name == format_name(f)) return f;
  throw std::invalid_argument("input format '" + name + "': expected mtx, gr or edges");
}

ConversionSummary convert_text_graph(const std::string& input, const std::string& output,
                                     const TextGraphOptions& options) {
  text::TextGraphReader reader(input, output, options);
  return reader.run(options.format.value_or(format_from_extension(input)));
}

}  // namespace apsp
