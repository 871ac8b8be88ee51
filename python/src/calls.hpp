// SPDX-License-Identifier: BSD-3-Clause
// What the Python module (module.cpp) calls: the library's pipeline over arrays the caller owns,
// Kokkos' lifetime in the interpreter, and a graph file read into an edge array.
#pragma once

#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

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

/// Where the results go: row-major arrays of V x V, row r from data + r * ld (elements).
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
  Rows<double> distances64;    ///< float64 distances, inf where no path (SciPy's), or
  Rows<int32_t> distances32;   ///< int32 distances as the file holds them (INF where no path)
  Rows<int32_t> predecessors;  ///< none: data null; -9999 where there is none (SciPy's)
  double scale = 1.0;          ///< the weights were multiplied by it: float64 distances divided back
  std::string backend;         ///< "" = Kokkos' default
  int block_size = 0;          ///< 0 = the backend's
  std::string order = "auto";  ///< auto, natural, nested
  int64_t verify_rows = -1;    ///< rows checked against Dijkstra (-1: none)
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

/// The backends this build enables, Kokkos' default first.
std::vector<std::string> backends();

}  // namespace apsp::python
