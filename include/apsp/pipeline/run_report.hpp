// SPDX-License-Identifier: BSD-3-Clause
// What a run is asked to do (RunOptions) and what it reports (RunReport): the pipeline's
// input and output, for one process and for the ranks of an MPI job alike.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "apsp/check/verify.hpp"
#include "apsp/graph/random_graph.hpp"
#include "apsp/graph/vertex_order.hpp"
#include "apsp/io/graph_file.hpp"
#include "apsp/pipeline/memory_results.hpp"
#include "apsp/report/ceiling.hpp"
#include "apsp/report/round_rates.hpp"

namespace apsp {

struct RunReport;

struct RunOptions {
  std::string input;         ///< the graph file; empty when `generate` is set
  InputFormat input_format;  ///< how `input` is read (binary, or a text format and its options)
  std::string output;        ///< the distance matrix file; empty with `no_output`
  /// --generate: the graph is made where the run happens instead of read (each MPI rank makes
  /// the edges out of its own rows).
  std::optional<RandomGraphSpec> generate;
  bool no_output = false;  ///< --no-output: solve (and check) without writing the V x V result
  /// --predecessors: the predecessor matrix file (paths/predecessor_search.hpp has the tie rule); empty: none.
  std::string predecessors;
  /// The results into memory instead of files (the Python module): `output`, `no_output` and
  /// `predecessors` are then not used.
  std::optional<MemoryResults> memory;
  /// How the pipeline opens `input` at its read stage; unset: GraphFile::open(input). main()
  /// passes the graph it began reading while Kokkos initialised (io/input_prefetch.hpp).
  std::function<GraphFile()> open_input;
  std::string record_path;  ///< --json's file: checked with the output before any work
  /// Where the run's clock starts: the process's start (or MPI_Init's) for a whole run, so that
  /// total_s is what a user times; default: when the pipeline starts.
  std::chrono::steady_clock::time_point started{};
  std::string thread_binding;                         ///< how host threads are bound, for the banner and the record
  std::string backend;                                ///< "" = Kokkos' default execution space
  int block_size = 0;                                 ///< 0 = the backend's default (include/apsp/backends/)
  OrderChoice vertex_order = OrderChoice::automatic;  ///< --order: the numbering the solve takes
  int write_threads = 0;                              ///< 0 = automatic
  int64_t host_memory_limit = 0;                      ///< bytes the run may use on the host; 0 = what the OS reports
  int64_t result_chunk_bytes = 0;  ///< device backends: result copied back in chunks of this size; 0 = 32 MiB
  /// Rows checked against Dijkstra: -1 none (--no-verify), 0 every row up to V = 512, else 8.
  int64_t verify_rows = kDefaultVerifyRows;
  bool phase_times = false;         ///< time each phase (a fence after each; costs a little)
  CeilingOptions ceiling;           ///< --no-ceiling, --calibrate (report/ceiling.hpp)
  bool mpi_io = false;              ///< distributed runs: write through MPI-IO even on one node
  std::string pivot_rows = "auto";  ///< distributed runs: how pivot rows travel (auto, peer, device, mpi)
  /// Distributed runs: rounds per block across ranks (1: one round at a time); 0: the backend's
  /// (mpi/distributed_blocks.hpp on a GPU, one round at a time on a CPU).
  int block_rounds = 0;
  /// Called once the input is read and checked, before the solve (for a banner).
  std::function<void(const RunReport&)> on_start;
  /// Called after round `done` of `rounds`, at most every `progress_interval` seconds and
  /// after the last round, with the seconds since the solve began (it fences to know).
  std::function<void(int done, int rounds, double seconds)> on_progress;
  double progress_interval = 0.25;
  /// Test-only: after the solve, change entry (row, col) so that the check must catch it.
  int64_t perturb_row = -1, perturb_col = -1;
  int64_t perturb_predecessor_row = -1, perturb_predecessor_col = -1;  ///< the same in the predecessor matrix

  /// Whether the predecessors are asked for (a file, or memory).
  bool predecessors_asked() const { return !predecessors.empty() || (memory && memory->predecessors); }
};

struct StageSeconds {
  double startup = 0;  ///< process start (MPI_Init under MPI) to the pipeline: loader, MPI, Kokkos, device, options
  double read = 0, build = 0, solve = 0;
  /// --order: the numbering computed (part of read) and the result brought back to the file's
  /// (part of solve).
  double order = 0, file_order = 0;
  double copy_back = 0;  ///< device backends: time spent waiting for result copies (overlapped with writes)
  double verify = 0;     ///< what the self-check added after the solve (its reference rows may be computed beside it)
  double write = 0, total = 0;
  /// Distributed runs (part of solve, overlapped with it on a GPU): seconds blocked in the
  /// pivot-row broadcasts, and waiting for pivot-row copies between device and host memory.
  double mpi = 0, staging = 0;
  /// --predecessors (part of solve): the shortest edges gathered and the search from each source.
  double predecessors = 0;
};

struct RunReport {
  int64_t vertices = 0, edges = 0;
  int block = 0;
  std::string backend;  ///< execution space name, e.g. "OpenMP"
  int concurrency = 0;  ///< threads (CPU) or resident threads (GPU) of the execution space
  int write_threads = 0;
  int64_t host_bytes = 0;         ///< host memory the run needs (per rank in a distributed run)
  int64_t device_bytes = 0;       ///< device memory the run needs (0 when the host is the device; per rank)
  std::string device;             ///< e.g. "NVIDIA H200" or the CPU model
  std::string thread_binding;     ///< OpenMP's binding, and who chose it
  std::vector<std::string> cpus;  ///< the CPUs each process (rank) may run on, e.g. "0-7"
  StageSeconds seconds;
  bool phases_timed = false;
  double phase_seconds[3] = {0, 0, 0};
  int matrix16_from = 0;  ///< (CPU) the round from which the solve kept distances in 16 bits; 0: never
  bool verified = false;  ///< the check ran (its verdict in `verify`)
  VerifyReport verify;
  bool written = false;    ///< the output file is in place (not when the check failed)
  bool discarded = false;  ///< nothing to write: --no-output, or a device that discards (/dev/null)
  bool no_output = false;  ///< --no-output
  std::string graph;       ///< "file", or the generated graph's spec (RandomGraphSpec::describe)
  std::string order;       ///< the vertex numbering the solve took, and why (VertexOrder::why)
  /// A text INPUT's reading (format, lines, self-loops dropped, weights rounded); none: binary.
  std::optional<ConversionSummary> text_input;
  int ranks = 1;  ///< MPI processes sharing the run
  int nodes = 1;
  std::string message_path;  ///< distributed runs: how pivot rows travel between ranks
  /// Distributed runs: per rank (in rank order) what its host waited for during the solve, three
  /// seconds each: blocked in the barrier or broadcast (the owner's rows not ready), the rows'
  /// copies, and as a block's owner its own look-ahead (the next block's opening).
  std::vector<double> rank_waits;
  int block_rounds = 0;  ///< distributed runs: the largest block of rounds across ranks (1: one at a time)
  RunCeiling ceiling;    ///< the devices' ceiling, weighted by the run's 16-bit share (report/ceiling.hpp)
  RoundRates rounds;     ///< (one process on a CPU) the median and slowest rounds (report/round_rates.hpp)
  /// V^3: Floyd-Warshall's relaxations whatever the graph (the rates' numerator).
  double relaxations() const { return double(vertices) * double(vertices) * double(vertices); }
  /// The efficiency: the relaxations the solve computed (V^3 less the share of products left
  /// out) per second over the ceiling; 0 when it is not known.
  double efficiency() const { return against(ceiling.known() ? ceiling.relax_per_s : 0); }
  /// The same against the calibration made right after the solve (RunCeiling::measured); 0
  /// when none was made.
  double efficiency_now() const { return against(ceiling.known() ? ceiling.measured_relax_per_s : 0); }
  /// The median round's rate over the ceiling, its relaxations counted as efficiency() counts
  /// the solve's; 0 when either is not known.
  double round_efficiency() const {
    return rounds.known() && ceiling.known() ? rounds.median * (1 - ceiling.left_out) / ceiling.relax_per_s : 0;
  }
  /// The relaxations done per solve second over `rate`; 0 when either is not known.
  double against(double rate) const {
    return rate > 0 && seconds.solve > 0 ? relaxations() * (1 - ceiling.left_out) / seconds.solve / rate : 0;
  }
};

}  // namespace apsp
