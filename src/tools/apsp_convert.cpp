// SPDX-License-Identifier: BSD-3-Clause
// apsp_convert: a graph as people keep it -> the solver's binary edge list (docs/graphs.md).
//
//   apsp_convert [--input-format mtx|gr|edges] [--undirected] [--one-based] [--scale S] INPUT OUTPUT
//
// mtx:   Matrix Market coordinate (SuiteSparse): integer, pattern (weight 1) or real (only with
//        --scale S: each weight becomes round(w * S), and the program says so); general or
//        symmetric (both directions). Entry (i, j) is the edge i -> j, 1-based.
// gr:    DIMACS shortest-path files (9th challenge): "p sp N M", arcs "a U V W", 1-based.
// edges: whitespace edge lists (SNAP and the like): "U V [W]" (W default 1), comments '#' or
//        '%', 0-based unless --one-based; V = the largest vertex + 1.
// The format comes from the extension (.mtx, .gr; anything else: edges) unless given.
// One pass, streaming: memory is a 1 MiB read buffer and a 1 MiB write buffer. Self-loops are
// dropped; repeated edges are kept (the solver keeps the lightest). A malformed line stops the
// conversion with "FILE:LINE: reason"; the output is written beside its place and renamed into
// it only when complete, so nothing is left behind on failure.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <optional>
#include <string>

#include "apsp/graph/text_graph.hpp"
#include "cli/number_options.hpp"

int main(int argc, char* argv[]) {  // NOLINT(bugprone-exception-escape): CLI11 set-up only
  CLI::App app{"apsp_convert: Matrix Market, DIMACS .gr or edge-list text -> the solver's binary edge list"};
  std::string input, output, format;
  apsp::TextGraphOptions options;
  bool one_based = false, quiet = false;
  double scale = 0;
  app.add_option("INPUT", input, "graph file (.mtx, .gr, or an edge list)")->required();
  app.add_option("OUTPUT", output, "binary edge list to write")->required();
  app.add_option("--input-format", format, "mtx, gr or edges (default: from INPUT's extension)");
  app.add_flag("--undirected", options.undirected, "every edge in both directions");
  app.add_flag("--one-based", one_based, "edge lists: vertices are numbered from 1 (default 0)");
  auto* scale_opt =
      app.add_option("--scale", scale, "real weights: w -> round(w * S)")->check(apsp::cli::positive_real());
  app.add_flag("--quiet,-q", quiet, "print nothing on success");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::fprintf(stderr, "apsp_convert: error: %s (--help lists the options)\n", e.what());
    return 2;
  }
  try {
    if (!format.empty()) options.format = apsp::parse_format_name(format);
    if (*scale_opt) options.scale = scale;
    options.base = one_based ? 1 : 0;
    const apsp::ConversionSummary s = apsp::convert_text_graph(input, output, options);
    if (!quiet) {
      std::printf("apsp_convert: %s -> %s (%s): V=%d E=%lld max_w=%d lines=%lld self_loops_dropped=%lld\n",
                  input.c_str(), output.c_str(), apsp::format_name(s.format), s.vertices,
                  static_cast<long long>(s.edges), s.max_weight, static_cast<long long>(s.lines),
                  static_cast<long long>(s.self_loops));
      if (options.scale)
        std::printf("apsp_convert: weights scaled by %g and rounded to integers (%lld changed by rounding)\n",
                    *options.scale, static_cast<long long>(s.rounded));
    }
    return 0;
  } catch (const apsp::InputError& e) {
    std::fprintf(stderr, "apsp_convert: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "apsp_convert: error: %s\n", e.what());
    return 1;
  }
}
