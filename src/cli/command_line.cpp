// SPDX-License-Identifier: BSD-3-Clause
#include "command_line.hpp"

#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "apsp/backends/enabled_backends.hpp"
#include "apsp/core/sizes.hpp"
#include "apsp/core/version.hpp"
#include "apsp/io/graph_file.hpp"
#include "apsp/report/run_record.hpp"
#include "number_options.hpp"

namespace apsp::cli {

namespace {

// A bad value in an option: its message becomes the one error line, with exit status 2.
struct UsageError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// What the options hold as text until they are converted.
struct RawOptions {
  std::vector<std::string> files;
  std::string generate, verify_k, host_memory, perturb, perturb_predecessor, order = "auto";
  bool no_verify = false, one_based = false;
  double scale = 0;
  CLI::Option* scale_option = nullptr;
  CLI::Option* verify = nullptr;
};

// The input and how it is read.
void define_input_options(CLI::App& app, CommandLine& cl, RawOptions& raw) {
  RunOptions& opt = cl.run;
  app.footer(
      "Kokkos options come first and are Kokkos' own: --kokkos-help lists them "
      "(--kokkos-device-id, --kokkos-num-threads, --kokkos-print-configuration, ...).\n");
  app.add_option("files", raw.files,
                 "INPUT OUTPUT: the graph file to read and the distance matrix file to write (INPUT is left out "
                 "with --generate, OUTPUT with --no-output)")
      ->expected(0, 64)
      ->type_name("INPUT OUTPUT");  // more than two: refused below with the names expected
  app.add_option("--generate", raw.generate,
                 "V[,E[,SEED]]: make a random graph in place of INPUT (each ordered pair an edge with probability "
                 "E/(V(V-1)), weights uniform in 0..1000; E default 5V, SEED 1): apsp_gen -n V -e E --seed SEED "
                 "writes the same graph");
  app.add_option("--input-format", opt.input_format.format,
                 "how INPUT is read: bin (the binary edge list), mtx (Matrix Market), gr (DIMACS), edges (text "
                 "\"U V [W]\" lines); default: from the name (.mtx, .gr; .txt, .edges, .el, .tsv: edges; anything "
                 "else: bin). Text is read into memory with apsp_convert's rules")
      ->check(CLI::IsMember({"bin", "mtx", "gr", "edges"}));
  app.add_flag("--undirected", opt.input_format.text.undirected, "text input: every edge in both directions");
  app.add_flag("--one-based", raw.one_based, "text edge lists: vertices are numbered from 1 (default 0)");
  raw.scale_option =
      app.add_option("--scale", raw.scale, "text input with real weights: w -> round(w * S)")->check(positive_real());
}

// What the solve writes and how it runs.
void define_solve_options(CLI::App& app, CommandLine& cl, RawOptions& raw) {
  RunOptions& opt = cl.run;
  app.add_flag("--no-output", opt.no_output, "solve (and check) without writing the V x V result");
  app.add_option("--predecessors", opt.predecessors,
                 "also write the V x V int32 predecessor matrix to this file: entry i*V + j is the vertex before j "
                 "on a shortest path from i (-1 where j = i or j is unreachable); ties: fewest edges, then the "
                 "smallest predecessor. Costs 8 more bytes per matrix entry where the solver runs")
      ->type_name("FILE");
  app.add_option("-b,--block-size", opt.block_size,
                 "tile edge length B (default: the backend's, see include/apsp/backends/)")
      ->check(positive_int());
  app.add_option("--order", raw.order,
                 "the vertex numbering the solve takes (the output is always in the file's): natural (the file's), "
                 "nested (nested dissection: a sparse graph's halves apart until their separator's rounds, so that "
                 "far more tile products are left out), or auto (nested for a graph of at most " +
                     std::to_string(kSparseDegree) +
                     " edges per vertex that splits into components or by a "
                     "separator of at most V/" +
                     std::to_string(kSeparatorShare) +
                     " vertices, where one more matrix fits; else natural). One process")
      ->check(CLI::IsMember({"auto", "natural", "nested"}));
}

// What the run reports and checks.
void define_report_options(CLI::App& app, CommandLine& cl, RawOptions& raw) {
  RunOptions& opt = cl.run;
  app.add_flag("-q,--quiet", cl.quiet, "print nothing but errors (and a FAILED check)");
  raw.verify = app.add_flag("--verify{default}", raw.verify_k,
                            "check K rows against Dijkstra (default 8; --verify alone: every row up to V = 512, "
                            "else 8); prints PASSED or FAILED, and FAILED exits 1 with no output file");
  app.add_flag("--no-verify", raw.no_verify, "skip the self-check")->excludes(raw.verify);
  app.add_option("--json", cl.json_path, "write a JSON record of the run to this file");
  app.add_flag("--progress", cl.progress, "show rounds done and time left (default: when stderr is a terminal)");
  app.add_flag(
      "--phase-times", opt.phase_times,
      "time each phase (a fence after each: a few percent longer on a CPU, which then also keeps its int32 "
      "matrix throughout; a GPU then takes its rounds one at a time, not in blocks of two to eight, and solves "
      "slower; the JSON record carries them)");
  auto* no_ceiling =
      app.add_flag("--no-ceiling", opt.ceiling.skip, "report no ceiling or efficiency (a CPU then calibrates nothing)");
  app.add_flag(
         "--calibrate", opt.ceiling.recalibrate,
         "CPU backends: measure the register add-min ceiling again after the run instead of taking the "
         "figure cached under $XDG_CACHE_HOME/apsp_kokkos; the cache keeps the highest figure measured "
         "(another process on the CPUs can only lower one; delete the file to start again); efficiency_now is the "
         "solve against this measurement")
      ->excludes(no_ceiling);
}

// Where the run goes: the backend, the writers, the MPI layer's paths, the memory; the test hooks.
void define_placement_options(CLI::App& app, CommandLine& cl, RawOptions& raw) {
  RunOptions& opt = cl.run;
  app.add_option("--backend", opt.backend, "execution space to run on (default: Kokkos' default)");
  app.add_flag("--list-backends", "print the execution spaces this build enables and exit");
  app.add_option("--write-threads", opt.write_threads, "parallel writers for the output (default: up to 8)")
      ->check(positive_int());
  app.add_flag("--mpi-io", opt.mpi_io,
               "under MPI, write the output through MPI-IO even when every rank is on one node (default there: "
               "parallel copies into a shared mapping)");
  app.add_option("--pivot-rows", opt.pivot_rows,
                 "under MPI, how pivot rows travel between GPUs: peer (each GPU copies the row from the owner's "
                 "GPU: CUDA or HIP IPC, one node), mpi, device (NCCL, where the build has it), or auto "
                 "(peer where every rank is on one node and its GPUs can, else mpi)")
      ->check(CLI::IsMember({"auto", "peer", "device", "mpi"}));
  app.add_option("--block-rounds", opt.block_rounds,
                 "under MPI, rounds per block across ranks: 1 takes one round at a time (the owner's pivot row to "
                 "every rank each round); 2, 4, 8 or 16 a block of them (the owner sends the block's rows once, "
                 "every rank takes the block's rounds in one pass over its rows); default: 16, 8 or 4 on a GPU by "
                 "the tile rows per rank, 1 on a CPU; --phase-times takes 1")
      ->check(CLI::IsMember({1, 2, 4, 8, 16}));
  app.add_option("--max-host-memory", raw.host_memory,
                 "host memory the run may use, e.g. 64GB or 512MiB (default: what the OS reports available)");
  // Test-only: corrupts one entry after the solve, so that tests can see --verify catch it.
  app.add_option("--test-perturb-entry", raw.perturb, "")->group("");                    // "ROW,COL"
  app.add_option("--test-perturb-predecessor", raw.perturb_predecessor, "")->group("");  // "ROW,COL"
  app.set_version_flag("--version", std::string("apsp_kokkos ") + APSP_VERSION + " (" + APSP_GIT_HASH + "), Kokkos " +
                                        kokkos_version_string());
}

// "ROW,COL" of the test-only hooks.
void row_col(const std::string& text, const char* option, int64_t& row, int64_t& col) {
  try {
    const size_t comma = text.find(',');
    row = std::stoll(text.substr(0, comma));
    col = comma == std::string::npos ? 0 : std::stoll(text.substr(comma + 1));
  } catch (const std::exception&) {
    throw UsageError(std::string(option) + " " + text + ": expected ROW,COL");
  }
}

// The options' text converted and checked together; throws UsageError.
void convert(RawOptions& raw, CommandLine& cl) {
  RunOptions& opt = cl.run;
  if (!raw.generate.empty()) {
    try {
      opt.generate = parse_random_graph_spec(raw.generate);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }
  // The files: INPUT OUTPUT, or with --generate only OUTPUT, with --no-output only INPUT.
  const bool generated = !raw.generate.empty();
  const size_t wanted = size_t(generated ? 0 : 1) + size_t(opt.no_output ? 0 : 1);
  if (raw.files.size() != wanted) {
    const char* names = generated ? (opt.no_output ? "no file" : "OUTPUT") : (opt.no_output ? "INPUT" : "INPUT OUTPUT");
    throw UsageError(std::string("expected ") + names + ", got " + std::to_string(raw.files.size()) + " file name" +
                     (raw.files.size() == 1 ? "" : "s") + " (--help lists the options)");
  }
  if (!generated) opt.input = raw.files[0];
  opt.input_format.text.base = raw.one_based ? 1 : 0;
  if (*raw.scale_option) opt.input_format.text.scale = raw.scale;
  const bool text_options = raw.one_based || opt.input_format.text.undirected || *raw.scale_option;
  if (text_options && (generated || !GraphFile::is_text(opt.input, opt.input_format)))
    throw UsageError(
        "--undirected, --one-based and --scale apply to a text INPUT (.mtx, .gr, an edge list, or "
        "--input-format mtx|gr|edges)");
  if (!opt.no_output) opt.output = raw.files.back();
  if (raw.no_verify) opt.verify_rows = -1;
  opt.vertex_order = raw.order == "nested"    ? OrderChoice::nested
                     : raw.order == "natural" ? OrderChoice::natural
                                              : OrderChoice::automatic;
  if (raw.verify->count() > 0) {
    const std::string bad = "--verify=" + raw.verify_k + ": K must be a positive number of rows";
    try {
      opt.verify_rows = raw.verify_k == "default" ? 0 : std::stoll(raw.verify_k);
    } catch (const std::exception&) {
      throw UsageError(bad);
    }
    if (opt.verify_rows < 1 && raw.verify_k != "default") throw UsageError(bad);
  }
  opt.record_path = cl.json_path;
  if (!raw.host_memory.empty()) {
    try {
      opt.host_memory_limit = parse_bytes(raw.host_memory, "--max-host-memory");
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }
  if (!raw.perturb.empty()) row_col(raw.perturb, "--test-perturb-entry", opt.perturb_row, opt.perturb_col);
  if (!raw.perturb_predecessor.empty())
    row_col(raw.perturb_predecessor, "--test-perturb-predecessor", opt.perturb_predecessor_row,
            opt.perturb_predecessor_col);
}

}  // namespace

std::optional<CommandLine> parse_command_line(std::vector<char*> args, bool speaker, int& exit_status) {
  // --list-backends needs no positional arguments.
  for (size_t i = 1; i < args.size(); ++i)
    if (std::string(args[i]) == "--list-backends") {
      if (speaker)
        for (const auto& b : enabled_backend_names()) std::printf("%s\n", b.c_str());
      exit_status = 0;
      return std::nullopt;
    }
  CommandLine cl;
  RawOptions raw;
  CLI::App app{"apsp_kokkos " APSP_VERSION
               ": all-pairs shortest paths (blocked Floyd-Warshall, Kokkos).\n"
               "Reads a binary edge list (int32 V, E, then E x (src, dst, w)) and writes the V x V\n"
               "int32 distance matrix; unreachable pairs get 2^30-1."};
  define_input_options(app, cl, raw);
  define_solve_options(app, cl, raw);
  define_report_options(app, cl, raw);
  define_placement_options(app, cl, raw);
  // Every rank parses the same arguments and reaches the same verdict; rank 0 prints it. The one
  // place where a usage error becomes one line and exit status 2.
  try {
    app.parse(static_cast<int>(args.size()), args.data());
    convert(raw, cl);
    return cl;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {  // --help, --version: printed, done
      exit_status = speaker ? app.exit(e) : 0;
      return std::nullopt;
    }
    if (speaker) std::fprintf(stderr, "apsp_kokkos: error: %s (--help lists the options)\n", e.what());
  } catch (const UsageError& e) {
    if (speaker) std::fprintf(stderr, "apsp_kokkos: error: %s\n", e.what());
  }
  exit_status = 2;
  return std::nullopt;
}

std::optional<CommandLine> early_command_line(int argc, char* argv[], bool speaker, int& exit_status) {
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i)
    if (i == 0 || std::string(argv[i]).rfind("--kokkos-", 0) != 0) args.push_back(argv[i]);
  return parse_command_line(args, speaker, exit_status);
}

}  // namespace apsp::cli
