// SPDX-License-Identifier: BSD-3-Clause
#include "text_reader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "apsp/core/constants.hpp"
#include "apsp/core/errors.hpp"

namespace apsp::text {

TextGraphReader::TextGraphReader(const std::string& input, const std::string& output, const TextGraphOptions& options)
    : input_(input), options_(options), reader_(input) {
  file_.emplace(output, std::vector<std::string>{input});
}

TextGraphReader::TextGraphReader(const std::string& input, std::vector<int32_t>& memory,
                                 const TextGraphOptions& options)
    : input_(input), options_(options), reader_(input), memory_(&memory) {}

ConversionSummary TextGraphReader::run(TextFormat format) {
  summary_.format = format;
  switch (format) {
    case TextFormat::matrix_market:
      read_matrix_market(*this);
      break;
    case TextFormat::dimacs:
      read_dimacs(*this);
      break;
    case TextFormat::edge_list:
      read_edge_list(*this);
      break;
  }
  summary_.lines = reader_.number();
  summary_.edges = edges_;
  if (summary_.vertices < 1) fail(0, "no vertices");
  if (summary_.edges > int64_t(summary_.vertices) * (summary_.vertices - 1))
    fail(0, std::to_string(summary_.edges) +
                " edges exceed V(V-1) = " + std::to_string(int64_t(summary_.vertices) * (summary_.vertices - 1)) +
                " (repeated edges: keep the lightest of each pair before converting)");
  // Edge lists learn V at the end: their weights are checked against its bound only now.
  if (summary_.max_weight > max_weight_allowed(summary_.vertices))
    fail(0, "weight " + std::to_string(summary_.max_weight) +
                " breaks the bound (V - 1) * w < 2^30 - 1 for V = " + std::to_string(summary_.vertices) +
                " (largest allowed " + std::to_string(max_weight_allowed(summary_.vertices)) + ")");
  if (file_) file_->commit(summary_.vertices);
  return summary_;
}

void TextGraphReader::declare_vertices(int64_t n) {
  if (n < 1 || n > INT32_MAX) fail("vertex count " + std::to_string(n) + " outside [1, 2^31 - 1]");
  known_vertices_ = int32_t(n);
  summary_.vertices = known_vertices_;
}

void TextGraphReader::fail(int64_t line, const std::string& why) const {
  throw InputError(input_ + ":" + std::to_string(line) + ": " + why);
}

int64_t TextGraphReader::integer(std::string_view field, const char* what) const {
  if (field.empty()) fail(std::string("missing ") + what);
  const auto v = to_integer(field);
  if (!v) fail(std::string(what) + " '" + std::string(field) + "' is not an integer");
  return *v;
}

int32_t TextGraphReader::vertex(std::string_view field, int base, const char* what) const {
  const int64_t v = integer(field, what) - base;
  if (v < 0) fail(std::string(what) + " " + std::string(field) + " is below " + std::to_string(base));
  if (known_vertices_ > 0 && v >= known_vertices_)
    fail(std::string(what) + " " + std::string(field) + " is beyond the " + std::to_string(known_vertices_) +
         " vertices declared");
  if (v >= INT32_MAX) fail(std::string(what) + " " + std::string(field) + " is too large for int32");
  return int32_t(v);
}

int32_t TextGraphReader::weight(std::string_view field, bool real_allowed) {
  if (field.empty()) fail("missing weight");
  int64_t w = 0;
  if (const auto i = to_integer(field)) {
    w = options_.scale ? std::llround(double(*i) * *options_.scale) : *i;
  } else {
    const auto r = to_real(field);
    if (!r) fail("weight '" + std::string(field) + "' is not a number");
    if (!real_allowed || !options_.scale)
      fail("weight '" + std::string(field) + "' is not an integer (real weights need --scale S: w -> round(w * S))");
    const double scaled = *r * *options_.scale;
    if (std::fabs(scaled) > double(INT32_MAX)) fail("weight " + std::string(field) + " scaled is too large");
    w = std::llround(scaled);
    summary_.rounded += double(w) != scaled;
  }
  if (w < 0) fail("negative weight " + std::string(field));
  const int64_t bound = known_vertices_ > 0 ? max_weight_allowed(known_vertices_) : INT32_MAX;
  if (w > bound)
    fail("weight " + std::to_string(w) + " breaks the bound (V - 1) * w < 2^30 - 1 (largest allowed " +
         std::to_string(bound) + ")");
  return int32_t(w);
}

void TextGraphReader::add_edge(int32_t s, int32_t t, int32_t w, bool both) {
  if (s == t) {
    ++summary_.self_loops;
    return;
  }
  summary_.max_weight = std::max(summary_.max_weight, w);
  summary_.vertices = std::max({summary_.vertices, s + 1, t + 1});
  const auto put = [&](int32_t from, int32_t to) {
    if (file_)
      file_->edge(from, to, w);
    else
      memory_->insert(memory_->end(), {from, to, w});
    ++edges_;
  };
  put(s, t);
  if (both) put(t, s);
  if (edges_ > INT32_MAX) fail("more than 2^31 - 1 edges");
}

}  // namespace apsp::text
