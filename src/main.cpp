// SPDX-License-Identifier: BSD-3-Clause
// apsp_kokkos: all-pairs shortest paths by blocked Floyd-Warshall.
//
//   apsp_kokkos [--kokkos-...] INPUT OUTPUT [--block-size B] [--quiet] ...
//
// Kokkos takes its own --kokkos-* options first; CLI11 parses what is left.
#include <Kokkos_Core.hpp>

#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "apsp/graph_file.hpp"
#include "apsp/pipeline.hpp"
#include "apsp/version.hpp"

namespace {

void print_result(const apsp::RunReport& r) {
  const double relax = double(r.vertices) * double(r.vertices) * double(r.vertices);
  std::printf(
      "apsp_kokkos RESULT V=%lld E=%lld backend=%s concurrency=%d block=%d solve_s=%.6f total_s=%.6f "
      "solve_relax_per_s=%.4e total_relax_per_s=%.4e\n",
      static_cast<long long>(r.vertices), static_cast<long long>(r.edges), r.backend.c_str(), r.concurrency, r.block,
      r.seconds.solve, r.seconds.total, relax / r.seconds.solve, relax / r.seconds.total);
  std::fflush(stdout);
}

void print_breakdown(const apsp::RunReport& r) {
  const auto& s = r.seconds;
  auto line = [](const char* stage, double t) { std::fprintf(stderr, "apsp_kokkos: %-9s %10.4f s\n", stage, t); };
  line("read", s.read);
  line("build", s.build);
  line("solve", s.solve);
  if (r.device_bytes > 0) line("copy back", s.copy_back);
  line("write", s.write);
  std::fprintf(stderr, "apsp_kokkos: %-9s %10.4f s  (V=%lld, E=%lld, %s, block %d, %d writers)\n", "total", s.total,
               static_cast<long long>(r.vertices), static_cast<long long>(r.edges), r.backend.c_str(), r.block,
               r.write_threads);
  std::fflush(stderr);
  print_result(r);
}

}  // namespace

int main(int argc, char* argv[]) {
  // Kokkos 3.x also answers an un-prefixed --help; keep ours away from it.
  std::vector<char*> kokkos_args, help_args;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    (i > 0 && (a == "--help" || a == "-h") ? help_args : kokkos_args).push_back(argv[i]);
  }
  int kargc = static_cast<int>(kokkos_args.size());
  kokkos_args.push_back(nullptr);
  Kokkos::ScopeGuard kokkos(kargc, kokkos_args.data());
  // What Kokkos left (its own --kokkos-* options removed) plus any --help, for CLI11.
  std::vector<char*> args(kokkos_args.begin(), kokkos_args.begin() + kargc);
  args.insert(args.end(), help_args.begin(), help_args.end());
  argc = static_cast<int>(args.size());
  argv = args.data();

  apsp::RunOptions opt;
  bool quiet = false, list_backends = false;
  CLI::App app{"apsp_kokkos " APSP_VERSION
               ": all-pairs shortest paths (blocked Floyd-Warshall, Kokkos).\n"
               "Reads a binary edge list (int32 V, E, then E x (src, dst, w)) and writes the V x V\n"
               "int32 distance matrix; unreachable pairs get 2^30-1."};
  app.footer(
      "Kokkos options come first and are Kokkos' own: --kokkos-help lists them "
      "(--kokkos-device-id, --kokkos-num-threads, --kokkos-print-configuration, ...).\n");
  app.add_option("input", opt.input, "graph file to read")->required();
  app.add_option("output", opt.output, "distance matrix file to write")->required();
  app.add_option("-b,--block-size", opt.block_size, "tile edge length B (default: the backend's, see backends/)")
      ->check(CLI::PositiveNumber);
  app.add_flag("-q,--quiet", quiet, "print nothing but errors");
  app.add_option("--backend", opt.backend, "execution space to run on (default: Kokkos' default)");
  app.add_flag("--list-backends", list_backends, "print the execution spaces this build enables and exit");
  app.add_option("--write-threads", opt.write_threads, "parallel writers for the output (default: up to 8)")
      ->check(CLI::PositiveNumber);
  app.add_option("--max-host-memory", opt.host_memory_limit,
                 "host memory the run may use, e.g. 64GB (default: what the OS reports available)")
      ->transform(CLI::AsSizeValue(false));
  app.set_version_flag("--version", std::string("apsp_kokkos ") + APSP_VERSION + " (" + APSP_GIT_HASH + "), Kokkos " +
                                        std::to_string(KOKKOS_VERSION));

  // --list-backends needs no positional arguments.
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--list-backends") {
      for (const auto& b : apsp::enabled_backends()) std::printf("%s\n", b.c_str());
      return 0;
    }
  CLI11_PARSE(app, argc, argv);

  try {
    const auto report = apsp::run_pipeline(opt);
    // Printed once the run has succeeded, so that a failure is one line on stderr.
    if (!quiet) print_breakdown(report);
    return 0;
  } catch (const apsp::InputError& e) {
    std::fprintf(stderr, "apsp_kokkos: error: %s\n", e.what());
    return 2;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "apsp_kokkos: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "apsp_kokkos: error: %s\n", e.what());
    return 1;
  }
}
