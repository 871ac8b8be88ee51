// SPDX-License-Identifier: BSD-3-Clause
// The memory check of a run (run_stages.hpp): what this process needs on the host and, where a
// device solves, on the device, refused with both figures before anything is allocated.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "apsp/backends/backend_runtime.hpp"
#include "apsp/backends/backend_traits.hpp"
#include "apsp/check/verify.hpp"
#include "apsp/core/errors.hpp"
#include "apsp/core/sizes.hpp"
#include "apsp/paths/predecessor_search.hpp"
#include "apsp/pipeline/pipeline.hpp"
#include "apsp/solver/blocked_fw.hpp"
#include "apsp/solver/build_from_edges.hpp"
#include "apsp/solver/distance_matrix.hpp"
#include "processes.hpp"
#include "result_rows.hpp"

namespace apsp::Impl {

/// Sizes the run for this process (the one that holds the most rows) and refuses it, naming
/// both figures, when the host or the device cannot hold it.
template <class ExecSpace, class Procs>
void check_memory(const RunOptions& opt, const Procs& procs, int64_t most_rows, int64_t local_edges,
                  bool edges_in_memory, RunReport& rep, bool renumbered = false) {
  constexpr bool on_device = !host_is_device<ExecSpace>();
  const int64_t v = rep.vertices, n = padded_size(v, rep.block);
  const bool paths = opt.predecessors_asked();
  // With --predecessors: the predecessor rows beside the distance rows, and where the solver
  // runs what the search takes (predecessor_search.hpp).
  // A result widened in place (memory_results.hpp) takes room beside the matrix, on the host.
  const int64_t widened = opt.memory ? size_mul(opt.memory->distance_entries, 4) : 0;
  const int64_t rows = on_device ? matrix_bytes(v, rep.block, most_rows, paths ? 8 : 4)
                                 : size_add(std::max(matrix_bytes(v, rep.block, most_rows), widened),
                                            paths ? matrix_bytes(v, rep.block, most_rows) : 0);
  // Renumbered (graph/vertex_order.hpp): each result matrix is gathered into a new one in turn,
  // where the solver runs; under MPI, unless the node's GPUs copy the rows from each other, it
  // is sent from and received into host memory, a device's rows through two host buffers
  // (mpi/file_order_rows.hpp).
  const int64_t renumbering = renumbered ? matrix_bytes(v, rep.block, most_rows, 4) : 0;
  const bool through_host = Procs::kMpi && !procs.template renumbers_through_peers<ExecSpace>();
  const int64_t renumbering_host =
      renumbered && through_host ? matrix_bytes(v, rep.block, most_rows, on_device ? 8 : 4) : 0;
  SolverMemory extra = procs.template solver_memory<BlockedFloydWarshall<ExecSpace>>(v, rep.block);
  if (paths)
    extra.beside_matrix =
        size_add(extra.beside_matrix, predecessor_search_bytes<ExecSpace>(v, most_rows, local_edges, rep.edges));
  if (on_device) {
    rep.device_bytes = size_add(size_add(rows, extra.beside_matrix),
                                3 * int64_t(sizeof(int32_t)) * std::min<int64_t>(kEdgeChunk, rep.edges));
    rep.host_bytes = result_chunk_bytes(v, rep.block, opt.result_chunk_bytes) + extra.pinned_host + widened;
  } else {
    rep.host_bytes = size_add(rows, extra.beside_matrix);
  }
  if (on_device)
    rep.device_bytes = size_add(rep.device_bytes, renumbering);
  else
    rep.host_bytes = size_add(rep.host_bytes, renumbering);
  rep.host_bytes = size_add(rep.host_bytes, renumbering_host);
  // A generated graph (this process's rows of it) or a text graph is held in memory, and the
  // self-check builds the graph's CSR form.
  if (edges_in_memory) rep.host_bytes = size_add(rep.host_bytes, size_mul(12, local_edges));
  if (opt.verify_rows >= 0)
    rep.host_bytes = size_add(rep.host_bytes, verify_memory_bytes(v, rep.edges, Procs::kMpi && opt.generate));
  const std::string what =
      "V = " + std::to_string(v) + (Procs::kMpi ? " on " + std::to_string(procs.ranks()) + " ranks" : "");
  const char* per = Procs::kMpi ? " per rank" : "";
  const std::string matrix =
      (Procs::kMpi ? std::to_string(most_rows) + " rows of the " + std::to_string(n) + "^2 int32 matrix, pivot rows"
                   : std::to_string(n) + "^2 int32 distance matrix") +
      (paths ? ", the predecessors and the edges" : "") +
      (renumbered ? (Procs::kMpi ? ", buffers to renumber them back (--order)" : ", one more matrix for --order") : "");
  procs.collectively([&] {
    // The ranks of a node share its memory.
    const int64_t node_bytes = size_mul(rep.host_bytes, procs.ranks_on_node());
    const int64_t available = opt.host_memory_limit > 0 ? opt.host_memory_limit : host_memory_available();
    if (node_bytes > available)
      throw InputError(opt.input + ": " + what + " needs " + format_bytes(rep.host_bytes) + " of host memory" + per +
                       " (" +
                       (procs.ranks_on_node() > 1
                            ? std::to_string(procs.ranks_on_node()) + " ranks on this node: " + format_bytes(node_bytes)
                        : on_device ? std::string("pinned result buffers")
                                    : matrix) +
                       "), but only " + format_bytes(available) + " is available");
    if (!on_device) return;
    const int64_t free_bytes = BackendRuntime<ExecSpace>::device_memory_available();
    if (rep.device_bytes > free_bytes)
      throw InputError(opt.input + ": " + what + " needs " + format_bytes(rep.device_bytes) + " of " + rep.backend +
                       " device memory" + per + " (" + matrix + ", edge staging), but only " +
                       format_bytes(free_bytes) + " is free");
  });
}

}  // namespace apsp::Impl
