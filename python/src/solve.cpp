// SPDX-License-Identifier: BSD-3-Clause
// The library's pipeline over arrays the caller owns (calls.hpp): the graph comes from memory,
// the results go into the caller's arrays (apsp/pipeline/memory_results.hpp); everything else is
// the program's run, its self-check and record included.
#include <memory>
#include <string>
#include <utility>

#include "apsp/backends/enabled_backends.hpp"
#include "apsp/core/errors.hpp"
#include "apsp/pipeline/pipeline.hpp"
#include "apsp/report/run_record.hpp"
#include "calls.hpp"

namespace apsp::python {
namespace {

constexpr int32_t kScipyNone = -9999;  // SciPy's predecessor where there is none

OrderChoice order_choice(const std::string& order) {
  if (order == "auto") return OrderChoice::automatic;
  if (order == "natural") return OrderChoice::natural;
  if (order == "nested") return OrderChoice::nested;
  throw std::invalid_argument("order must be 'auto', 'natural' or 'nested', not '" + order + "'");
}

MemoryResults results_of(const SolveCall& c) {
  MemoryResults m;
  if (c.distances64.data != nullptr) {
    const Rows<double> d = c.distances64;
    const double scale = c.scale;
    m.distances = [d, scale](int64_t v) { return float64_rows_into(d.data, d.ld, v, scale); };
  } else if (c.kept_distances64) {
    const double scale = c.scale;
    m.distances = [kept = c.kept_distances64, scale](int64_t v) { return kept_float64_rows(kept, v, scale); };
    m.distance_entries = 2 * int64_t(c.vertices) * c.vertices;  // room to widen the solver's matrix in place
  } else {
    m.distances = [kept = c.kept_distances](int64_t v) { return kept_rows(kept, v); };
  }
  if (c.predecessors.data != nullptr) {
    const Rows<int32_t> p = c.predecessors;
    m.predecessors = [p](int64_t v) { return int32_rows_into(p.data, p.ld, v, kScipyNone); };
  } else if (c.kept_predecessors) {
    m.predecessors = [kept = c.kept_predecessors](int64_t v) { return kept_rows(kept, v, kScipyNone); };
  }
  return m;
}

}  // namespace

std::string solve(const SolveCall& c) {
  if (c.distances64.data == nullptr && !c.kept_distances && !c.kept_distances64)
    throw std::invalid_argument("no array for the distances");
  RunOptions o;
  o.memory = results_of(c);
  // The caller's array, shared for the run only: the graph never outlives this call.
  std::shared_ptr<int32_t[]> edges(const_cast<int32_t*>(c.edges), [](int32_t*) {});
  const int32_t vertices = c.vertices;
  const int64_t count = c.edge_count;
  o.open_input = [edges, vertices, count] { return GraphFile::from_memory(vertices, edges, count, "the graph given"); };
  o.backend = c.backend;
  o.block_size = c.block_size;
  o.vertex_order = order_choice(c.order);
  o.verify_rows = c.verify_rows;
  o.phase_times = c.phase_times;
  if (c.check_interrupt) {
    o.on_progress = [check = c.check_interrupt](int, int, double) { check(); };
    o.progress_interval = 0.1;
  }
  const RunReport report = run_pipeline(o);
  if (report.verified && !report.verify.passed)
    throw std::runtime_error("the self-check found a wrong entry: " + report.verify.first_mismatch);
  return run_record_json(o, report);
}

std::vector<std::string> backends() { return enabled_backend_names(); }

ReadGraph read_graph(const std::string& path, const std::string& format, bool undirected, int one_based, double scale) {
  InputFormat how;
  how.format = format;
  how.text.undirected = undirected;
  how.text.base = one_based;
  if (scale > 0) how.text.scale = scale;
  const GraphFile g = GraphFile::open(path, how);
  ReadGraph r;
  r.vertices = g.vertices();
  r.edges.resize(size_t(3 * g.edges()));
  g.read_edges(0, g.edges(), r.edges.data());
  r.format = "bin";
  if (const auto& t = g.text()) {
    r.format = format_name(t->format);
    r.lines = t->lines;
    r.self_loops_dropped = t->self_loops;
    r.weights_rounded = t->rounded;
  }
  return r;
}

}  // namespace apsp::python
