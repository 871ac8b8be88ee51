// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/graph/random_graph.hpp"

#include "apsp/core/constants.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace apsp {

namespace {

int64_t parse_int(const std::string& field, const char* what, const std::string& text) {
  size_t used = 0;
  long long value = 0;
  try {
    value = std::stoll(field, &used, 10);
  } catch (const std::exception&) {
    used = 0;
  }
  if (field.empty() || used != field.size())
    throw std::invalid_argument("--generate " + text + ": " + what + " '" + field + "' is not a whole number");
  return value;
}

}  // namespace

double RandomGraphSpec::probability() const {
  if (vertices < 2) return 0;
  return std::clamp(double(expected_edges()) / (double(vertices) * double(vertices - 1)), 0.0, 1.0);
}

std::string RandomGraphSpec::describe() const {
  return "V=" + std::to_string(vertices) + " E~" + std::to_string(expected_edges()) + " seed=" + std::to_string(seed) +
         " weights " + std::to_string(min_weight) + ".." + std::to_string(max_weight);
}

RandomGraphSpec parse_random_graph_spec(const std::string& text) {
  std::vector<std::string> fields{""};
  for (char c : text) {
    if (c == ',')
      fields.emplace_back();
    else
      fields.back().push_back(c);
  }
  if (fields.size() > 3) throw std::invalid_argument("--generate " + text + ": expected V[,E[,SEED]]");
  RandomGraphSpec spec;
  spec.vertices = parse_int(fields[0], "V", text);
  if (spec.vertices < 1 || spec.vertices > INT32_MAX)
    throw std::invalid_argument("--generate " + text + ": V must be in [1, 2^31 - 1]");
  if (fields.size() > 1) {
    spec.edges = parse_int(fields[1], "E", text);
    const double pairs = double(spec.vertices) * double(spec.vertices - 1);
    if (spec.edges < 0 || double(spec.edges) > pairs || spec.edges > INT32_MAX)
      throw std::invalid_argument("--generate " + text + ": E must be in [0, min(V (V - 1), 2^31 - 1)]");
  } else if (spec.expected_edges() > INT32_MAX) {
    throw std::invalid_argument("--generate " + text + ": the default E = 5 V exceeds 2^31 - 1; give E");
  }
  if (fields.size() > 2) {
    const int64_t seed = parse_int(fields[2], "SEED", text);
    if (seed < 0) throw std::invalid_argument("--generate " + text + ": SEED must not be negative");
    spec.seed = uint64_t(seed);
  }
  spec.max_weight = std::min(spec.max_weight, max_weight_allowed(spec.vertices));
  return spec;
}

void append_random_row(const RandomGraphSpec& spec, int64_t row, std::vector<int32_t>& out) {
  const int64_t n = spec.vertices;
  const double p = spec.probability();
  if (n < 2 || p <= 0) return;
  SplitMix64 rng{SplitMix64::mix(SplitMix64::mix(spec.seed) + uint64_t(row))};
  auto emit = [&](int64_t k) {  // the k-th of the row's n - 1 candidates: every j but the row itself
    out.push_back(int32_t(row));
    out.push_back(int32_t(k + (k >= row)));
    out.push_back(rng.between(spec.min_weight, spec.max_weight));
  };
  if (p >= 1) {
    for (int64_t k = 0; k < n - 1; ++k) emit(k);
    return;
  }
  // Bernoulli(p) over the candidates by geometric skips: O(edges), however sparse.
  const double log_q = std::log1p(-p);
  for (int64_t k = -1;;) {
    const double skip = std::floor(std::log(1.0 - rng.uniform()) / log_q);
    if (skip >= double(n)) break;
    k += 1 + int64_t(skip);
    if (k >= n - 1) break;
    emit(k);
  }
}

}  // namespace apsp
