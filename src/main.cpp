// SPDX-License-Identifier: BSD-3-Clause
// apsp_kokkos: all-pairs shortest paths by blocked Floyd-Warshall.
//
//   apsp_kokkos [--kokkos-...] INPUT OUTPUT [--block-size B] [--quiet] [--verify[=K]] ...
//
// Kokkos takes its own --kokkos-* options first; CLI11 parses what is left.
#include <unistd.h>
#include <Kokkos_Core.hpp>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "apsp/graph_file.hpp"
#include "apsp/mpi/runtime.hpp"
#include "apsp/pipeline.hpp"
#include "apsp/run_record.hpp"
#include "apsp/version.hpp"
#if defined(APSP_HAVE_MPI)
#include "apsp/mpi/distributed_pipeline.hpp"
#endif

namespace {

std::string bytes_text(int64_t bytes) {
  char buf[32];
  if (bytes >= 1000000000)
    std::snprintf(buf, sizeof buf, "%.2f GB", bytes / 1e9);
  else
    std::snprintf(buf, sizeof buf, "%.1f MB", bytes / 1e6);
  return buf;
}

void print_banner(const apsp::RunReport& r) {
  std::fprintf(stderr, "apsp_kokkos %s (%s), Kokkos %s: %s on %s, concurrency %d\n", APSP_VERSION, APSP_GIT_HASH,
               apsp::kokkos_version_string().c_str(), r.backend.c_str(), r.device.c_str(), r.concurrency);
  if (r.ranks > 1)
    std::fprintf(stderr, "apsp_kokkos: MPI: %d ranks on %d node(s), pivot rows through %s\n", r.ranks, r.nodes,
                 r.message_path.c_str());
  std::fprintf(stderr, "apsp_kokkos: V=%lld E=%lld block %d; memory%s: host %s%s\n", static_cast<long long>(r.vertices),
               static_cast<long long>(r.edges), r.block, r.ranks > 1 ? " per rank" : "",
               bytes_text(r.host_bytes).c_str(),
               r.device_bytes > 0 ? (", device " + bytes_text(r.device_bytes)).c_str() : "");
  std::fflush(stderr);
}

void print_result(const apsp::RunReport& r) {
  const double relax = double(r.vertices) * double(r.vertices) * double(r.vertices);
  std::printf(
      "apsp_kokkos RESULT V=%lld E=%lld backend=%s ranks=%d concurrency=%d block=%d solve_s=%.6f total_s=%.6f "
      "solve_relax_per_s=%.4e total_relax_per_s=%.4e\n",
      static_cast<long long>(r.vertices), static_cast<long long>(r.edges), r.backend.c_str(), r.ranks, r.concurrency,
      r.block, r.seconds.solve, r.seconds.total, relax / r.seconds.solve, relax / r.seconds.total);
  std::fflush(stdout);
}

void print_breakdown(const apsp::RunReport& r) {
  const auto& s = r.seconds;
  auto line = [](const char* stage, double t) { std::fprintf(stderr, "apsp_kokkos: %-9s %10.4f s\n", stage, t); };
  line("read", s.read);
  line("build", s.build);
  line("solve", s.solve);
  if (r.ranks > 1)
    std::fprintf(
        stderr, "apsp_kokkos:   MPI     %.4f s in broadcasts, %.4f s staging (slowest rank; overlapped with phase 3)\n",
        s.mpi, s.staging);
  if (r.phases_timed)
    std::fprintf(stderr, "apsp_kokkos:   phases  %.4f / %.4f / %.4f s (pivot / row+column / rest)\n",
                 r.phase_seconds[0], r.phase_seconds[1], r.phase_seconds[2]);
  if (r.verified) line("verify", s.verify);
  if (r.device_bytes > 0) line("copy back", s.copy_back);
  line("write", s.write);
  std::fprintf(stderr, "apsp_kokkos: %-9s %10.4f s  (V=%lld, E=%lld, %s, block %d, %d writers%s)\n", "total", s.total,
               static_cast<long long>(r.vertices), static_cast<long long>(r.edges), r.backend.c_str(), r.block,
               r.write_threads, r.ranks > 1 ? (", " + std::to_string(r.ranks) + " ranks").c_str() : "");
  std::fflush(stderr);
}

void print_progress(int done, int rounds, double seconds) {
  const double left = done > 0 ? seconds * (rounds - done) / done : 0;
  std::fprintf(stderr, "\rapsp_kokkos: round %d/%d (%3.0f%%), %.1f s elapsed, ~%.1f s left   ", done, rounds,
               100.0 * done / rounds, seconds, left);
  if (done == rounds) std::fputc('\n', stderr);
  std::fflush(stderr);
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// With several ranks on a node, each takes the GPU of its node-local rank: a device chosen on
// the command line would put them all on one GPU. Returns Kokkos' arguments with any device
// choice replaced (said on rank 0), and, unless threads were asked for, the node's cores
// shared among its ranks' host threads.
std::vector<std::string> kokkos_args_for_rank(const std::vector<std::string>& args, const apsp::mpi::Runtime& mpi) {
  if (!mpi.active() || mpi.local_size() < 2) return args;
  const int gpus = apsp::visible_gpus();
  auto is_device_choice = [](const std::string& a) {
    return starts_with(a, "--kokkos-device-id") || starts_with(a, "--kokkos-device=") ||
           starts_with(a, "--device-id") || starts_with(a, "--kokkos-map-device-id-by");
  };
  std::vector<std::string> out;
  std::string dropped;
  bool threads_given = std::getenv("OMP_NUM_THREADS") != nullptr;
  for (const std::string& a : args) {
    threads_given = threads_given || starts_with(a, "--kokkos-num-threads") || starts_with(a, "--kokkos-threads");
    if (gpus > 0 && is_device_choice(a))
      dropped += (dropped.empty() ? "" : " ") + a;
    else
      out.push_back(a);
  }
  if (!threads_given)
#if KOKKOS_VERSION >= 40000
    out.push_back("--kokkos-num-threads=" +
#else
    out.push_back("--kokkos-threads=" +
#endif
                  std::to_string(std::max(1u, std::thread::hardware_concurrency() / unsigned(mpi.local_size()))));
  if (gpus == 0) return out;
  out.push_back("--kokkos-device-id=" + std::to_string(mpi.local_rank() % gpus));
  if (mpi.rank() == 0 && !dropped.empty())
    std::fprintf(stderr, "apsp_kokkos: note: %s ignored: %d ranks on this node take GPUs by node-local rank\n",
                 dropped.c_str(), mpi.local_size());
  // One visible GPU per rank is what `srun --gpus-per-task=1` gives: no warning then.
  if (mpi.rank() == 0 && gpus > 1 && mpi.local_size() > gpus)
    std::fprintf(stderr, "apsp_kokkos: warning: %d ranks on this node share %d GPU(s)\n", mpi.local_size(), gpus);
  return out;
}

}  // namespace

int main(int argc, char* argv[]) {
  // MPI first (when an MPI launcher started us), so that each rank can pick its GPU before
  // Kokkos starts; finalised last.
  apsp::mpi::Runtime mpi(&argc, &argv);
  if (!mpi.active() && apsp::mpi::launched_world_size() > 1) {
    std::fprintf(stderr,
                 "apsp_kokkos: error: started as one of %d MPI processes, but this build has no MPI (configure with "
                 "MPI installed); each process would solve the whole problem\n",
                 apsp::mpi::launched_world_size());
    return 2;
  }
  const bool rank0 = mpi.rank() == 0;

  // Kokkos 3.x also answers an un-prefixed --help; keep ours away from it.
  std::vector<std::string> kokkos_strings, help_strings;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    (i > 0 && (a == "--help" || a == "-h") ? help_strings : kokkos_strings).push_back(a);
  }
  kokkos_strings = kokkos_args_for_rank(kokkos_strings, mpi);
  std::vector<char*> kokkos_args, help_args;
  for (auto& a : kokkos_strings) kokkos_args.push_back(a.data());
  for (auto& a : help_strings) help_args.push_back(a.data());
  int kargc = static_cast<int>(kokkos_args.size());
  kokkos_args.push_back(nullptr);
  Kokkos::ScopeGuard kokkos(kargc, kokkos_args.data());
  // What Kokkos left (its own --kokkos-* options removed) plus any --help, for CLI11.
  std::vector<char*> args(kokkos_args.begin(), kokkos_args.begin() + kargc);
  args.insert(args.end(), help_args.begin(), help_args.end());
  argc = static_cast<int>(args.size());
  argv = args.data();

  apsp::RunOptions opt;
  bool quiet = false, progress = false;
  std::string verify_k;
  std::string json_path;
  std::vector<int64_t> perturb;
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
  app.add_flag("-q,--quiet", quiet, "print nothing but errors (and a FAILED check)");
  auto* verify = app.add_flag("--verify{default}", verify_k,
                              "check K rows (--verify=K; default: every row up to V = 512, else 8) against "
                              "Dijkstra; prints PASSED or FAILED, and FAILED exits 1 with no output file");
  app.add_option("--json", json_path, "write a JSON record of the run to this file");
  app.add_flag("--progress", progress, "show rounds done and time left (default: when stderr is a terminal)");
  app.add_flag("--phase-times", opt.phase_times,
               "time each phase (a fence after each, which costs a few percent; the JSON record carries them)");
  app.add_option("--backend", opt.backend, "execution space to run on (default: Kokkos' default)");
  app.add_flag("--list-backends", "print the execution spaces this build enables and exit");
  app.add_option("--write-threads", opt.write_threads, "parallel writers for the output (default: up to 8)")
      ->check(CLI::PositiveNumber);
  app.add_flag("--mpi-io", opt.mpi_io,
               "under MPI, write the output through MPI-IO even when every rank is on one node (default there: "
               "parallel copies into a shared mapping)");
  app.add_option("--max-host-memory", opt.host_memory_limit,
                 "host memory the run may use, e.g. 64GB (default: what the OS reports available)")
      ->transform(CLI::AsSizeValue(false));
  // Test-only: corrupts one entry after the solve, so that tests can see --verify catch it.
  app.add_option("--test-perturb-entry", perturb, "")->expected(2)->delimiter(',')->group("");
  app.set_version_flag("--version", std::string("apsp_kokkos ") + APSP_VERSION + " (" + APSP_GIT_HASH + "), Kokkos " +
                                        apsp::kokkos_version_string());

  // --list-backends needs no positional arguments.
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--list-backends") {
      if (rank0)
        for (const auto& b : apsp::enabled_backends()) std::printf("%s\n", b.c_str());
      return 0;
    }
  // Every rank parses the same arguments and reaches the same verdict; rank 0 prints it.
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return rank0 ? app.exit(e) : e.get_exit_code();
  }

  if (verify->count() > 0) {
    try {
      opt.verify_rows = verify_k == "default" ? 0 : std::stoll(verify_k);
      if (opt.verify_rows < 1 && verify_k != "default") throw std::invalid_argument("");
    } catch (const std::exception&) {
      if (rank0)
        std::fprintf(stderr, "apsp_kokkos: error: --verify=%s: K must be a positive number of rows\n",
                     verify_k.c_str());
      return 2;
    }
  }
  // Phases are timed only on request: the fences that time them slow the solve (launch latency
  // exposed each phase; under MPI they also undo the overlap of broadcasts with phase 3).
  if (perturb.size() == 2) {
    opt.perturb_row = perturb[0];
    opt.perturb_col = perturb[1];
  }
  // Rank 0 speaks for the job.
  if (!rank0) quiet = true;
  if (!quiet) opt.on_start = print_banner;
  if (!quiet && (progress || ::isatty(STDERR_FILENO))) opt.on_progress = print_progress;

  try {
#if defined(APSP_HAVE_MPI)
    const auto report = mpi.active() ? apsp::mpi::run_distributed_pipeline(opt, mpi) : apsp::run_pipeline(opt);
#else
    const auto report = apsp::run_pipeline(opt);
#endif
    if (!json_path.empty() && rank0) apsp::write_run_record(json_path, opt, report);
    // Printed once the run has ended, so that a failed run prints one line.
    if (!quiet) print_breakdown(report);
    if (report.verified) {
      if (report.verify.passed) {
        if (!quiet)
          std::printf("apsp_kokkos VERIFY PASSED (%lld rows against Dijkstra, %.3f s)\n",
                      static_cast<long long>(report.verify.rows_checked), report.seconds.verify);
      } else if (rank0) {
        std::printf("apsp_kokkos VERIFY FAILED: %s (%lld rows against Dijkstra); no output written\n",
                    report.verify.first_mismatch.c_str(), static_cast<long long>(report.verify.rows_checked));
      }
    }
    if (!quiet && report.written) print_result(report);
    return report.verified && !report.verify.passed ? 1 : 0;
  } catch (const std::exception& e) {
    const bool bad_input = dynamic_cast<const apsp::InputError*>(&e) != nullptr ||
                           dynamic_cast<const std::invalid_argument*>(&e) != nullptr;
    const int code = bad_input ? 2 : 1;
    // Under MPI a failure every rank agreed on is reported once; any other ends the job.
    if (!mpi.active() || !apsp::mpi::failure_agreed()) {
      if (mpi.active())
        std::fprintf(stderr, "apsp_kokkos: error: rank %d: %s\n", mpi.rank(), e.what());
      else
        std::fprintf(stderr, "apsp_kokkos: error: %s\n", e.what());
      std::fflush(stderr);
      if (mpi.active()) mpi.abort(code);
    } else if (rank0) {
      std::fprintf(stderr, "apsp_kokkos: error: %s\n", e.what());
    }
    return code;
  }
}
