// SPDX-License-Identifier: BSD-3-Clause
// What the Python module (module.cpp) calls: the library's pipeline over arrays the caller owns,
// Kokkos' lifetime in the interpreter, a matrix's edges and a graph file read into edge arrays.
#pragma once

#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "apsp/pipeline/memory_results.hpp"

namespace apsp::python {

/// A Python exception raised while the run was under way (Ctrl-C): the run stops, and the
/// module raises it again once it holds the interpreter.
struct Interrupted : std::exception {
  const char* what() const noexcept override { return "interrupted"; }
};

/// Kokkos, started once per interpreter on a thread of its own (threads and device id: 0 / -1 for
/// Kokkos' defaults) and finalised at its exit. The caller holds the session's lock (module.cpp).
void initialize(int threads, int device_id);
bool initialized();
void finalize();
/// Runs `job` on Kokkos' thread (initialize first); the future holds its end or its exception.
std::future<void> on_kokkos_thread(std::function<void()> job);

/// Where the results go: the caller's row-major arrays of V x V, row r from data + r * ld
/// (elements); or matrices kept (KeptMatrix: the solver's own on a host backend, no copy).
template <class T>
struct Rows {
  T* data = nullptr;
  int64_t ld = 0;
};

/// One solve (what `apsp_kokkos.solve` and `floyd_warshall` ask for).
struct SolveCall {
  int32_t vertices = 0;
  const int32_t* edges = nullptr;  ///< triples (src, dst, w)
  int64_t edge_count = 0;
  Rows<double> distances64;  ///< float64 distances, inf where no path (SciPy's), into the caller's array, or
  std::shared_ptr<KeptFloat64> kept_distances64;  ///< the same, kept (the solver's matrix widened), or
  std::shared_ptr<KeptMatrix> kept_distances;     ///< int32 as the file holds them (INF where no path), kept
  Rows<int32_t> predecessors;                     ///< none: data null; -9999 where there is none (SciPy's), or
  std::shared_ptr<KeptMatrix> kept_predecessors;  ///< the same, kept
  double scale = 1.0;                             ///< the weights were multiplied by it: float64 distances divided back
  std::string backend;                            ///< "" = Kokkos' default
  int block_size = 0;                             ///< 0 = the backend's
  std::string order = "auto";                     ///< auto, natural, nested
  int64_t verify_rows = -1;                       ///< rows checked against Dijkstra (-1: none)
  bool phase_times = false;
  /// Called between rounds (on Kokkos' thread): throws Interrupted to stop the run.
  std::function<void()> check_interrupt;
};

/// Runs the call (the session started); returns the run's record as JSON. Throws InputError or
/// std::invalid_argument for what the rules refuse, std::runtime_error for the rest.
std::string solve(const SolveCall& call);

/// A graph file as read by the program (binary, .mtx, .gr, edge list): V, and the edges as
/// triples (src, dst, w), and what the reading did to a text file.
struct ReadGraph {
  int32_t vertices = 0;
  std::vector<int32_t> edges;
  std::string format;  ///< "bin", "mtx", "gr", "edges"
  int64_t lines = 0, self_loops_dropped = 0, weights_rounded = 0;
};
ReadGraph read_graph(const std::string& path, const std::string& format, bool undirected, int one_based, double scale);

/// The C++ types a matrix's values may have (NumPy's dtypes), for edges_of_matrix.
enum class ValueType { float64, float32, int64, int32, int16, int8, uint64, uint32, uint16, uint8, boolean, other };

/// A graph as SciPy's functions take it: a CSR matrix's arrays (indptr of V + 1 offsets, indices
/// and values of its stored entries; indptr[0] == 0) or a dense V x V matrix (indptr null), each
/// array contiguous.
struct MatrixArrays {
  int64_t vertices = 0;
  const void* indptr = nullptr;  ///< null: `data` is dense, row-major
  const void* indices = nullptr;
  int index_bytes = 4;  ///< of indptr and indices: 4 or 8
  int64_t stored = 0;   ///< CSR: the stored entries (indices and values)
  const void* data = nullptr;
  ValueType values = ValueType::other;
  bool directed = true, unweighted = false;
  double scale = 0;  ///< 0: the weights as they are; else each is round(w * scale)
};

/// The edge triples (src, dst, w) of `count` edges, or none (null).
struct EdgeArray {
  std::shared_ptr<int32_t[]> edges;
  int64_t count = 0;
};

/// The graph's edges by the package's rules (python/apsp_kokkos/_graph.py), on Kokkos' host
/// threads (call on Kokkos' thread); none where an entry breaks a rule, an index is out of
/// range or the values' type is `other`: the package's own pass then says why.
EdgeArray edges_of_matrix(const MatrixArrays& matrix);

/// The backends this build enables, Kokkos' default first.
std::vector<std::string> backends();

}  // namespace apsp::python
