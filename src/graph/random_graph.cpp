// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/graph/random_graph.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace apsp {

namespace {

constexpr int64_t kInfinity = (int64_t(1) << 30) - 1;  // the format's "no path"

// SplitMix64 (Steele, Lea, Flood 2014): small, fast, the same stream on every platform.
uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

struct Stream {
  uint64_t s;
  uint64_t next() { return mix(s += 0x9e3779b97f4a7c15ULL); }
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  int32_t between(int32_t lo, int32_t hi) { return lo + int32_t(next() % uint64_t(int64_t(hi) - lo + 1)); }
};

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
  if (spec.vertices > 1)
    spec.max_weight = int32_t(std::min<int64_t>(spec.max_weight, (kInfinity - 1) / (spec.vertices - 1)));
  return spec;
}

void append_random_row(const RandomGraphSpec& spec, int64_t row, std::vector<int32_t>& out) {
  const int64_t n = spec.vertices;
  const double p = spec.probability();
  if (n < 2 || p <= 0) return;
  Stream rng{mix(mix(spec.seed) + uint64_t(row))};
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
