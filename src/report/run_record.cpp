// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/report/run_record.hpp"

#include <Kokkos_Core.hpp>

#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "apsp/core/host_tuning.hpp"
#include "apsp/core/version.hpp"
#include "apsp/graph/text_graph.hpp"

namespace apsp {

std::string kokkos_version_string() {
  const int v = KOKKOS_VERSION;  // e.g. 40601 or 30401
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}

namespace {

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return date;
}

void write_json(const std::string& path, const nlohmann::json& record) {
  if (path == "-") {
    std::cout << record.dump(2) << '\n' << std::flush;
    return;
  }
  std::ofstream out(path);
  out << record.dump(2) << '\n';
  if (!out) throw std::runtime_error(path + ": cannot write the JSON record");
}

}  // namespace

std::string verify_state(const RunReport& r) { return !r.verified ? "OFF" : r.verify.passed ? "PASSED" : "FAILED"; }

std::string output_state(const RunReport& r) {
  if (r.written) return "written";
  if (r.no_output) return "none";
  return r.discarded ? "discarded" : "withheld";
}

namespace {

nlohmann::json graph_of(const RunOptions& options, const RunReport* r) {
  if (options.memory) return {{"source", "memory"}};
  if (!options.generate) {
    nlohmann::json g = {{"source", "file"}, {"path", options.input}, {"format", "bin"}};
    if (const auto format = solver_input_format(options.input, options.input_format.format)) {
      const TextGraphOptions& t = options.input_format.text;
      g["format"] = format_name(*format);
      g["undirected"] = t.undirected;
      g["one_based"] = t.base == 1;
      g["scale"] = t.scale ? nlohmann::json(*t.scale) : nlohmann::json(nullptr);
      if (r != nullptr && r->text_input) {
        g["lines"] = r->text_input->lines;
        g["self_loops_dropped"] = r->text_input->self_loops;
        g["weights_rounded"] = r->text_input->rounded;
      }
    }
    return g;
  }
  const RandomGraphSpec& g = *options.generate;
  return {{"source", "generated"},
          {"vertices", g.vertices},
          {"expected_edges", g.expected_edges()},
          {"seed", g.seed},
          {"weights", {g.min_weight, g.max_weight}}};
}

// The record's parts that are objects of their own (write_run_record).
nlohmann::json seconds_json(const StageSeconds& s) {
  return {{"startup", s.startup},
          {"read", s.read},
          {"vertex_order", s.order},
          {"build", s.build},
          {"solve", s.solve},
          {"file_order", s.file_order},
          {"mpi_broadcast_wait", s.mpi},
          {"mpi_staging_wait", s.staging},
          {"predecessor_search", s.predecessors},
          {"verify", s.verify},
          {"copy_back_wait", s.copy_back},
          {"write", s.write},
          {"total", s.total}};
}

nlohmann::json ceiling_json(const RunReport& r) {
  using nlohmann::json;
  if (!r.ceiling.known()) return json(nullptr);
  return {{"relax_per_s", r.ceiling.relax_per_s},
          {"int32_relax_per_s", r.ceiling.rates.int32},
          {"uint16_relax_per_s", r.ceiling.rates.lanes16},
          {"share_16bit", r.ceiling.share16},
          {"share_left_out", r.ceiling.left_out},
          {"efficiency", r.efficiency()},
          {"measured_relax_per_s", r.efficiency_now() > 0 ? json(r.ceiling.measured_relax_per_s) : json(nullptr)},
          {"efficiency_now", r.efficiency_now() > 0 ? json(r.efficiency_now()) : json(nullptr)},
          {"basis", r.ceiling.basis}};
}

nlohmann::json rounds_json(const RunReport& r) {
  using nlohmann::json;
  if (!r.rounds.known()) return json(nullptr);
  return {{"timed", r.rounds.timed},
          {"median_relax_per_s", r.rounds.median},
          {"median_efficiency", r.round_efficiency() > 0 ? json(r.round_efficiency()) : json(nullptr)},
          {"slowest_relax_per_s", r.rounds.slowest},
          {"slowest_round", r.rounds.slowest_round}};
}

nlohmann::json mpi_json(const RunReport& r) {
  nlohmann::json waits = nlohmann::json::array();
  for (size_t i = 0; i + 2 < r.rank_waits.size(); i += 3)
    waits.push_back({{"rank", i / 3},
                     {"barrier_s", r.rank_waits[i]},
                     {"transfer_s", r.rank_waits[i + 1]},
                     {"own_lookahead_s", r.rank_waits[i + 2]}});
  return {{"ranks", r.ranks},
          {"nodes", r.nodes},
          {"pivot_rows_through", r.message_path},
          {"block_rounds", r.block_rounds > 0 ? nlohmann::json(r.block_rounds) : nlohmann::json(nullptr)},
          {"waits_per_rank", waits}};
}

nlohmann::json verify_json(const RunReport& r) {
  return {{"verdict", verify_state(r)},
          {"rows_checked", r.verify.rows_checked},
          {"predecessors_checked", r.verify.predecessors},
          {"reference_seconds", r.verify.seconds},
          {"first_mismatch", r.verify.first_mismatch}};
}

}  // namespace

namespace {

nlohmann::json run_record(const RunOptions& options, const RunReport& r) {
  using nlohmann::json;
  const double relax = r.relaxations();
  std::ostringstream config;
  Kokkos::print_configuration(config, false);

  json record = {
      {"schema_version", kRunRecordSchema},
      {"status", r.verified && !r.verify.passed ? "verify_failed" : "ok"},
      {"program",
       {{"name", "apsp_kokkos"}, {"version", APSP_VERSION}, {"git_hash", APSP_GIT_HASH}, {"host_code", host_tuning()}}},
      {"date", utc_now()},
      {"kokkos",
       {{"version", kokkos_version_string()},
        {"backend", r.backend},
        {"device", r.device},
        {"concurrency", r.concurrency},
        {"thread_binding", r.thread_binding},
        {"configuration", config.str()}}},
      {"mpi", mpi_json(r)},
      {"cpus_per_process", r.cpus},
      {"input", options.input},
      {"graph", graph_of(options, &r)},
      {"output", options.output},
      {"output_state", output_state(r)},
      {"predecessors", options.predecessors.empty() ? json(nullptr) : json(options.predecessors)},
      {"V", r.vertices},
      {"E", r.edges},
      {"block_size", r.block},
      {"vertex_order", r.order},
      {"memory_bytes", {{"host", r.host_bytes}, {"device", r.device_bytes}}},
      {"seconds", seconds_json(r.seconds)},
      {"phase_seconds", r.phases_timed ? json{{"pivot", r.phase_seconds[0]},
                                              {"pivot_row_column", r.phase_seconds[1]},
                                              {"remaining", r.phase_seconds[2]}}
                                       : json(nullptr)},
      {"matrix16_from_round", r.matrix16_from > 0 ? json(r.matrix16_from) : json(nullptr)},
      {"relaxations_per_second", {{"solve", relax / r.seconds.solve}, {"total", relax / r.seconds.total}}},
      {"ceiling", ceiling_json(r)},
      {"rounds", rounds_json(r)},
      {"write_threads", r.write_threads},
      {"output_written", r.written},
      {"verify", verify_json(r)},
  };
  return record;
}

}  // namespace

void write_run_record(const std::string& path, const RunOptions& options, const RunReport& r) {
  write_json(path, run_record(options, r));
}

std::string run_record_json(const RunOptions& options, const RunReport& report) {
  return run_record(options, report).dump();
}

void write_failure_record(const std::string& path, const RunOptions& options, const std::string& status,
                          const std::string& error) {
  write_json(path, {{"schema_version", kRunRecordSchema},
                    {"status", status},
                    {"error", error},
                    {"program", {{"name", "apsp_kokkos"}, {"version", APSP_VERSION}, {"git_hash", APSP_GIT_HASH}}},
                    {"date", utc_now()},
                    {"kokkos", {{"version", kokkos_version_string()}, {"backend", options.backend}}},
                    {"input", options.input},
                    {"graph", graph_of(options, nullptr)},
                    {"output", options.output}});
}

}  // namespace apsp
