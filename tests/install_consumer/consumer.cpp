// SPDX-License-Identifier: BSD-3-Clause
// Runs the installed pipeline on a generated graph, checked against Dijkstra, and writes the
// distances to argv[1]: what a program built on the package would do.
#include <Kokkos_Core.hpp>

#include <cstdio>

#include "apsp/graph/random_graph.hpp"
#include "apsp/pipeline/pipeline.hpp"

int main(int argc, char* argv[]) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: consumer V,E,SEED OUTPUT\n");
    return 2;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  apsp::RunOptions options;
  options.generate = apsp::parse_random_graph_spec(argv[1]);
  options.output = argv[2];
  options.verify_rows = 16;
  const apsp::RunReport report = apsp::run_pipeline(options);
  std::printf("consumer: V=%lld E=%lld verify=%s written=%d\n", static_cast<long long>(report.vertices),
              static_cast<long long>(report.edges), report.verify.passed ? "PASSED" : "FAILED", int(report.written));
  return report.verify.passed && report.written ? 0 : 1;
}
