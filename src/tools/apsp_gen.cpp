// SPDX-License-Identifier: BSD-3-Clause
// apsp_gen: writes a graph in the solver's input format (docs/graphs.md).
//
//   apsp_gen -n V [-e E] [--seed S] [--min-weight a] [--max-weight b]
//            [--shape random|chain|complete|components|grid] [--components K] [--width W] OUTPUT
//
// random:     each ordered pair (i, j), i != j, is an edge with probability E / (V(V-1)), so
//             E is met in expectation; the header holds the true count. O(E) time. Each row
//             has a random stream of its own (include/apsp/graph/random_graph.hpp): with the
//             default weights this is the graph `apsp_kokkos --generate V,E,SEED` builds.
// chain:      0 -> 1 -> ... -> V-1 (V - 1 edges).
// complete:   every ordered pair (V(V-1) edges).
// components: K blocks of consecutive vertices, random edges only inside a block, so pairs
//             in different blocks stay unreachable.
// grid:       rows of W vertices (default: the largest W with W * W <= V; the last row may be
//             short), each joined both ways to its right and lower neighbours: a planar graph
//             of long paths (about 4V edges, distances growing with the hops), like a road map.
// Weights are uniform in [min, max]. The same arguments give the same file.
#include <CLI/CLI.hpp>

#include "apsp/graph/random_graph.hpp"
#include "apsp/io/edge_list_file.hpp"
#include "cli/number_options.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using Rng = apsp::SplitMix64;

// Bernoulli(p) selection of the ordered pairs (i, j), i != j, of the vertex range
// [lo, lo + n), by geometric skips: O(edges) work however sparse.
void random_pairs(apsp::EdgeListFile& out, Rng& rng, int64_t lo, int64_t n, double p, int32_t wmin, int32_t wmax) {
  if (n < 2 || p <= 0) return;
  const int64_t pairs = n * (n - 1);
  auto emit = [&](int64_t idx) {
    const int64_t s = idx / (n - 1), r = idx % (n - 1);
    out.edge(int32_t(lo + s), int32_t(lo + r + (r >= s)), rng.between(wmin, wmax));
  };
  if (p >= 1) {
    for (int64_t i = 0; i < pairs; ++i) emit(i);
    return;
  }
  const double log_q = std::log1p(-p);
  for (int64_t idx = -1;;) {
    idx += 1 + int64_t(std::floor(std::log(1.0 - rng.uniform()) / log_q));
    if (idx >= pairs || idx < 0) break;
    emit(idx);
  }
}

/// What the command line asks for.
struct GenOptions {
  int64_t vertices = 0, edges = -1, components = 2, width = 0;
  uint64_t seed = 1;
  int32_t wmin = 0, wmax = 1000;
  std::string shape = "random", output;
};

void define_options(CLI::App& app, GenOptions& o) {
  app.add_option("-n,--vertices", o.vertices, "V")->required()->check(apsp::cli::integer_in(1, INT32_MAX));
  app.add_option("-e,--edges", o.edges, "edges (expected count for random/components; default 5*V)")
      ->check(apsp::cli::integer_in(0, INT64_MAX));
  app.add_option("--seed", o.seed, "random seed")->check(apsp::cli::integer_in(0, INT64_MAX));
  app.add_option("--min-weight", o.wmin, "smallest weight")->check(apsp::cli::integer_in(0, INT32_MAX));
  app.add_option("--max-weight", o.wmax, "largest weight")->check(apsp::cli::integer_in(0, INT32_MAX));
  app.add_option("--shape", o.shape, "random | chain | complete | components | grid")
      ->check(CLI::IsMember({"random", "chain", "complete", "components", "grid"}));
  app.add_option("--components", o.components, "number of components (shape components)")
      ->check(apsp::cli::positive_int());
  app.add_option("--width", o.width, "vertices per row (shape grid; default floor(sqrt(V)))")
      ->check(apsp::cli::integer_in(1, INT32_MAX));
  app.add_option("output", o.output, "file to write")->required();
}

void write_random(apsp::EdgeListFile& out, const GenOptions& o) {
  apsp::RandomGraphSpec spec;
  spec.vertices = o.vertices;
  spec.edges = o.edges;
  spec.seed = o.seed;
  spec.min_weight = o.wmin;
  spec.max_weight = o.wmax;
  std::vector<int32_t> row;
  for (int64_t i = 0; i < o.vertices; ++i) {
    row.clear();
    apsp::append_random_row(spec, i, row);
    for (size_t k = 0; k < row.size(); k += 3) out.edge(row[k], row[k + 1], row[k + 2]);
  }
}

void write_grid(apsp::EdgeListFile& out, Rng& rng, const GenOptions& o) {
  const int64_t vertices = o.vertices;
  int64_t width = o.width;
  if (width == 0)
    while ((width + 1) * (width + 1) <= vertices) ++width;
  for (int64_t i = 0; i < vertices; ++i) {
    if ((i + 1) % width != 0 && i + 1 < vertices) {
      out.edge(int32_t(i), int32_t(i + 1), rng.between(o.wmin, o.wmax));
      out.edge(int32_t(i + 1), int32_t(i), rng.between(o.wmin, o.wmax));
    }
    if (i + width < vertices) {
      out.edge(int32_t(i), int32_t(i + width), rng.between(o.wmin, o.wmax));
      out.edge(int32_t(i + width), int32_t(i), rng.between(o.wmin, o.wmax));
    }
  }
}

void write_components(apsp::EdgeListFile& out, Rng& rng, const GenOptions& o) {
  const int64_t vertices = o.vertices, components = std::min(o.components, vertices);
  double within = 0;
  for (int64_t c = 0; c < components; ++c) {
    // Component c is vertices [V c / K, V (c + 1) / K): whole-number bounds.
    const int64_t lo = vertices * c / components, hi = vertices * (c + 1) / components;
    const auto n = double(hi - lo);
    within += n * (n - 1);
  }
  for (int64_t c = 0; c < components; ++c) {
    const int64_t lo = vertices * c / components, hi = vertices * (c + 1) / components;
    random_pairs(out, rng, lo, hi - lo, within > 0 ? double(o.edges) / within : 0.0, o.wmin, o.wmax);
  }
}

/// The graph into `o.output`, committed; returns the edges written.
int64_t write_graph(const GenOptions& o) {
  Rng rng{o.seed * 0x2545f4914f6cdd1dULL + 12345};
  apsp::EdgeListFile out(o.output);
  if (o.shape == "chain") {
    for (int64_t i = 0; i + 1 < o.vertices; ++i) out.edge(int32_t(i), int32_t(i + 1), rng.between(o.wmin, o.wmax));
  } else if (o.shape == "complete") {
    random_pairs(out, rng, 0, o.vertices, 1.0, o.wmin, o.wmax);
  } else if (o.shape == "random") {
    write_random(out, o);
  } else if (o.shape == "grid") {
    write_grid(out, rng, o);
  } else {
    write_components(out, rng, o);
  }
  out.commit(int32_t(o.vertices));
  return out.edges();
}

}  // namespace

// Option set-up (CLI11) throws only on a programming error; the work itself is in a try.
int main(int argc, char* argv[]) {  // NOLINT(bugprone-exception-escape)
  GenOptions o;
  CLI::App app{"apsp_gen: write a graph in apsp_kokkos' input format"};
  define_options(app, o);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::fprintf(stderr, "apsp_gen: error: %s (--help lists the options)\n", e.what());
    return 2;
  }
  if (o.wmin > o.wmax) {
    std::fprintf(stderr, "apsp_gen: error: --min-weight %d > --max-weight %d\n", o.wmin, o.wmax);
    return 2;
  }
  if (o.edges < 0) o.edges = 5 * o.vertices;
  try {
    const int64_t written = write_graph(o);
    std::fprintf(stderr, "apsp_gen: %s: V=%lld E=%lld shape=%s seed=%llu\n", o.output.c_str(),
                 static_cast<long long>(o.vertices), static_cast<long long>(written), o.shape.c_str(),
                 static_cast<unsigned long long>(o.seed));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "apsp_gen: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
