// SPDX-License-Identifier: BSD-3-Clause
#include "console.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "apsp/core/host_tuning.hpp"
#include "apsp/core/sizes.hpp"
#include "apsp/core/version.hpp"
#include "apsp/graph/text_graph.hpp"
#include "apsp/report/run_record.hpp"

namespace apsp::cli {

namespace {

std::string sci(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3e", x);
  return text;
}

}  // namespace

void print_banner(const RunReport& r) {
  std::fprintf(stderr, "apsp_kokkos %s (%s), Kokkos %s: %s on %s, concurrency %d\n", APSP_VERSION, APSP_GIT_HASH,
               kokkos_version_string().c_str(), r.backend.c_str(), r.device.c_str(), r.concurrency);
  std::fprintf(stderr, "apsp_kokkos: host code: %s\n", host_tuning());
  if (!r.thread_binding.empty()) std::fprintf(stderr, "apsp_kokkos: host threads: %s\n", r.thread_binding.c_str());
  if (r.ranks > 1) {
    std::string cpus;
    for (const auto& c : r.cpus) cpus += (cpus.empty() ? "" : " | ") + c;
    std::fprintf(stderr, "apsp_kokkos: host CPUs per rank: %s\n", cpus.c_str());
  }
  if (r.ranks > 1)
    std::fprintf(stderr, "apsp_kokkos: MPI: %d ranks on %d node(s), pivot rows through %s\n", r.ranks, r.nodes,
                 r.message_path.c_str());
  if (r.graph != "file") std::fprintf(stderr, "apsp_kokkos: generated graph: %s\n", r.graph.c_str());
  if (const auto& t = r.text_input)
    std::fprintf(stderr, "apsp_kokkos: input read as %s text: %lld lines, %lld self-loops dropped%s\n",
                 format_title(t->format), static_cast<long long>(t->lines), static_cast<long long>(t->self_loops),
                 t->rounded > 0 ? (", " + std::to_string(t->rounded) + " scaled weights rounded").c_str() : "");
  if (!r.order.empty() && r.seconds.order > 0)
    std::fprintf(stderr, "apsp_kokkos: vertex order: %s, %.3f s\n", r.order.c_str(), r.seconds.order);
  else if (!r.order.empty())
    std::fprintf(stderr, "apsp_kokkos: vertex order: %s\n", r.order.c_str());
  if (r.ceiling.rates.int32 > 0)
    std::fprintf(stderr, "apsp_kokkos: ceiling%s: %.3e int32%s relaxations/s (%s)\n", r.ranks > 1 ? " (all ranks)" : "",
                 r.ceiling.rates.int32,
                 r.ceiling.rates.lanes16 > 0 ? (", " + sci(r.ceiling.rates.lanes16) + " 16-bit").c_str() : "",
                 r.ceiling.basis.c_str());
  else if (!r.ceiling.basis.empty())
    std::fprintf(stderr, "apsp_kokkos: ceiling: %s\n", r.ceiling.basis.c_str());
  std::fprintf(stderr, "apsp_kokkos: V=%lld E=%lld block %d; memory%s: host %s%s\n", static_cast<long long>(r.vertices),
               static_cast<long long>(r.edges), r.block, r.ranks > 1 ? " per rank" : "",
               format_bytes(r.host_bytes).c_str(),
               r.device_bytes > 0 ? (", device " + format_bytes(r.device_bytes)).c_str() : "");
  std::fflush(stderr);
}

void print_result(const RunReport& r) {
  const double relax = r.relaxations();
  char ceiling[128] = "ceiling_relax_per_s=n/a efficiency=n/a efficiency_now=n/a";
  char now[32] = "n/a";
  if (r.efficiency_now() > 0) std::snprintf(now, sizeof now, "%.3f", r.efficiency_now());
  if (r.ceiling.known())
    std::snprintf(ceiling, sizeof ceiling, "ceiling_relax_per_s=%.4e efficiency=%.3f efficiency_now=%s",
                  r.ceiling.relax_per_s, r.efficiency(), now);
  std::printf(
      "apsp_kokkos RESULT V=%lld E=%lld backend=%s ranks=%d concurrency=%d block=%d solve_s=%.6f total_s=%.6f "
      "solve_relax_per_s=%.4e total_relax_per_s=%.4e %s verify=%s input=%s output=%s\n",
      static_cast<long long>(r.vertices), static_cast<long long>(r.edges), r.backend.c_str(), r.ranks, r.concurrency,
      r.block, r.seconds.solve, r.seconds.total, relax / r.seconds.solve, relax / r.seconds.total, ceiling,
      verify_state(r).c_str(), r.graph == "file" ? "file" : "generated", output_state(r).c_str());
  std::fflush(stdout);
}

void print_breakdown(const RunReport& r) {
  const auto& s = r.seconds;
  auto line = [](const char* stage, double t) { std::fprintf(stderr, "apsp_kokkos: %-9s %10.4f s\n", stage, t); };
  line("start-up", s.startup);
  line("read", s.read);
  line("build", s.build);
  line("solve", s.solve);
  if (r.ranks > 1)
    std::fprintf(
        stderr, "apsp_kokkos:   MPI     %.4f s in broadcasts, %.4f s staging (slowest rank; overlapped with phase 3)\n",
        s.mpi, s.staging);
  if (s.predecessors > 0)
    std::fprintf(stderr, "apsp_kokkos:   paths   %.4f s (the predecessor search after the distances)\n",
                 s.predecessors);
  if (r.ceiling.known())
    std::fprintf(stderr,
                 "apsp_kokkos:   ceiling %.3e relaxations/s (%.0f %% of them in 16-bit lanes): the solve at %.0f %%\n",
                 r.ceiling.relax_per_s, 100 * r.ceiling.share16, 100 * r.efficiency());
  if (r.ceiling.known() && r.ceiling.measured_after)
    std::fprintf(stderr, "apsp_kokkos:   ceiling: %s\n", r.ceiling.basis.c_str());
  // A calibration below the kept one: the machine gave less than its best just then.
  if (r.efficiency_now() > 0 && r.ceiling.measured_relax_per_s < r.ceiling.relax_per_s * 0.9995)
    std::fprintf(stderr,
                 "apsp_kokkos:   against the calibration made after the solve, %.3e relaxations/s: the solve at "
                 "%.0f %%\n",
                 r.ceiling.measured_relax_per_s, 100 * r.efficiency_now());
  if (r.rounds.known()) {
    const std::string of_ceiling =
        r.round_efficiency() > 0 ? " (" + std::to_string(std::lround(100 * r.round_efficiency())) + " % of the ceiling)"
                                 : "";
    std::fprintf(stderr,
                 "apsp_kokkos:   rounds  median %.3e relaxations/s%s, slowest %.3e (round %d, %.2f of the median; "
                 "%d rounds alike)\n",
                 r.rounds.median, of_ceiling.c_str(), r.rounds.slowest, r.rounds.slowest_round,
                 r.rounds.slowest / r.rounds.median, r.rounds.timed);
    // Rounds alike that differ by 2x: the solve's figure is not the machine's alone.
    if (r.rounds.slowest < 0.5 * r.rounds.median)
      std::fprintf(stderr,
                   "apsp_kokkos:   a round ran at under half the median one's rate: something else ran on these "
                   "CPUs, or their clock fell\n");
  }
  if (r.matrix16_from > 0)
    std::fprintf(stderr, "apsp_kokkos:   16-bit  matrix from round %d of %lld on (every distance below 2^15 by then)\n",
                 r.matrix16_from, static_cast<long long>((r.vertices + r.block - 1) / r.block));
  if (r.ceiling.left_out > 0)
    std::fprintf(stderr,
                 "apsp_kokkos:   left out %.1f %% of the tile products' relaxations (an operand unreachable "
                 "throughout)\n",
                 100 * r.ceiling.left_out);
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

void print_verdict(const RunReport& r, bool quiet, std::FILE* to) {
  if (!r.verified) return;
  if (r.verify.passed) {
    if (!quiet)
      std::fprintf(
          to,
          "apsp_kokkos VERIFY PASSED (%lld rows against Dijkstra%s, %.3f s after the solve; reference rows %.3f s)\n",
          static_cast<long long>(r.verify.rows_checked), r.verify.predecessors ? ", predecessor chains walked" : "",
          r.seconds.verify, r.verify.seconds);
  } else {
    std::fprintf(to, "apsp_kokkos VERIFY FAILED: %s (%lld rows against Dijkstra); no output written\n",
                 r.verify.first_mismatch.c_str(), static_cast<long long>(r.verify.rows_checked));
  }
}

}  // namespace apsp::cli
