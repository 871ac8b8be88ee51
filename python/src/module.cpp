// SPDX-License-Identifier: BSD-3-Clause
// apsp_kokkos._core: the library's solve for Python (nanobind). The arrays arrive checked and
// converted by the package (python/apsp_kokkos/_graph.py); here they are handed to the pipeline
// without a copy, with the interpreter released while it runs, and the matrices it keeps are
// handed back as NumPy arrays over their memory. One call runs at a time, on
// Kokkos' own thread (session.cpp); Ctrl-C stops a run between two rounds.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <atomic>
#include <chrono>
#include <exception>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "apsp/core/errors.hpp"
#include "calls.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace apsp::python {
namespace {

using Edges = nb::ndarray<const int32_t, nb::shape<-1, 3>, nb::c_contig, nb::device::cpu>;
template <class T>
using Matrix = nb::ndarray<T, nb::ndim<2>, nb::device::cpu>;

std::mutex session_lock;  // one run (or start, or end) of Kokkos at a time

/// A matrix argument as rows of V values: V x V, each row contiguous.
template <class T>
Rows<T> rows_of(const nb::handle& array, int64_t vertices, const char* what) {
  if (array.is_none()) return {};
  auto m = nb::cast<Matrix<T>>(array);
  if (int64_t(m.shape(0)) != vertices || int64_t(m.shape(1)) != vertices || (vertices > 1 && m.stride(1) != 1))
    throw std::invalid_argument(std::string(what) + ": a V x V array with contiguous rows is needed");
  return {m.data(), int64_t(m.stride(0))};
}

/// A NumPy array of rows x cols T over `data`'s memory (rows `ld` apart), which the array owns
/// from here on.
template <class T>
nb::object numpy_over(const std::shared_ptr<T[]>& data, int64_t rows, int64_t cols, int64_t ld) {
  auto* memory = new std::shared_ptr<T[]>(data);
  nb::capsule owner(memory, [](void* p) noexcept { delete static_cast<std::shared_ptr<T[]>*>(p); });
  return nb::cast(nb::ndarray<nb::numpy, T, nb::ndim<2>>(memory->get(), {size_t(rows), size_t(cols)}, owner, {ld, 1}));
}

/// A kept matrix (calls.hpp) as a V x V NumPy array (on a host backend the solver's own
/// memory); None where nothing was kept.
template <class T>
nb::object numpy_of(const std::shared_ptr<Kept<T>>& kept, int64_t vertices) {
  if (!kept || !kept->data) return nb::none();
  return numpy_over(kept->data, vertices, vertices, kept->ld);
}

using AnyArray = nb::ndarray<nb::ro, nb::device::cpu>;

ValueType value_type(const nb::dlpack::dtype& t) {
  using Code = nb::dlpack::dtype_code;
  const auto code = Code(t.code);
  if (code == Code::Bool) return ValueType::boolean;
  if (code == Code::Float)
    return t.bits == 64 ? ValueType::float64 : t.bits == 32 ? ValueType::float32 : ValueType::other;
  const ValueType sized[4][2] = {{ValueType::int8, ValueType::uint8},
                                 {ValueType::int16, ValueType::uint16},
                                 {ValueType::int32, ValueType::uint32},
                                 {ValueType::int64, ValueType::uint64}};
  const int size = t.bits == 8 ? 0 : t.bits == 16 ? 1 : t.bits == 32 ? 2 : t.bits == 64 ? 3 : -1;
  if (size < 0 || (code != Code::Int && code != Code::UInt)) return ValueType::other;
  return sized[size][code == Code::UInt ? 1 : 0];
}

/// True where `a` is a C-contiguous array of `length` entries (ndim 1) or `length` x `length`.
bool contiguous_of(const AnyArray& a, size_t ndim, int64_t length) {
  if (a.ndim() != ndim) return false;
  for (size_t d = 0; d < ndim; ++d)
    if (int64_t(a.shape(d)) != length) return false;
  return length <= 1 || (a.stride(ndim - 1) == 1 && (ndim == 1 || a.stride(0) == length));
}

/// A matrix's edges (calls.hpp) as an (E, 3) int32 array, or None where the package's own pass
/// must look (a rule broken, a layout or type this pass does not take).
nb::object edges_of_arrays(int64_t vertices, const AnyArray& data, nb::handle indptr, nb::handle indices, bool directed,
                           bool unweighted, double scale) {
  MatrixArrays m;
  m.vertices = vertices;
  m.data = data.data();
  m.values = value_type(data.dtype());
  m.directed = directed, m.unweighted = unweighted, m.scale = scale;
  if (indptr.is_none()) {
    if (!contiguous_of(data, 2, vertices)) return nb::none();
  } else {
    const auto p = nb::cast<AnyArray>(indptr), i = nb::cast<AnyArray>(indices);
    m.stored = int64_t(i.shape(0));
    m.index_bytes = p.dtype().bits / 8;
    const bool ints = p.dtype() == i.dtype() && p.dtype().code == uint8_t(nb::dlpack::dtype_code::Int) &&
                      (m.index_bytes == 4 || m.index_bytes == 8);
    if (!ints || !contiguous_of(p, 1, vertices + 1) || !contiguous_of(i, 1, m.stored) ||
        !contiguous_of(data, 1, m.stored))
      return nb::none();
    m.indptr = p.data(), m.indices = i.data();
  }
  if (m.values == ValueType::other) return nb::none();
  EdgeArray e;
  {
    nb::gil_scoped_release released;
    std::lock_guard<std::mutex> one_at_a_time(session_lock);
    initialize(0, -1);
    on_kokkos_thread([&] { e = edges_of_matrix(m); }).get();
  }
  if (!e.edges) return nb::none();
  return numpy_over(e.edges, e.count, 3, 3);
}

/// The solve (calls.hpp) on Kokkos' thread, the interpreter released; a Ctrl-C that arrives
/// meanwhile stops it after the round under way (at most 0.1 s apart) and is raised here.
/// Returns the record, and the int32 distances and predecessors where `keep` and
/// `keep_predecessors` ask to keep them instead of filling the arrays given, or the float64
/// distances where `keep_float64` asks for them (on a host backend the solver's matrix widened).
nb::tuple solve_arrays(int32_t vertices, const Edges& edges, nb::handle distances64, nb::handle predecessors, bool keep,
                       bool keep_predecessors, bool keep_float64, double scale, std::string backend, int block_size,
                       std::string order, int64_t verify_rows, bool phase_times) {
  SolveCall c;
  c.vertices = vertices;
  c.edges = edges.data();
  c.edge_count = int64_t(edges.shape(0));
  c.distances64 = rows_of<double>(distances64, vertices, "distances");
  c.predecessors = rows_of<int32_t>(predecessors, vertices, "predecessors");
  if (keep) c.kept_distances = std::make_shared<KeptMatrix>();
  if (keep_float64) c.kept_distances64 = std::make_shared<KeptFloat64>();
  if (keep_predecessors) c.kept_predecessors = std::make_shared<KeptMatrix>();
  c.scale = scale;
  c.backend = std::move(backend);
  c.block_size = block_size;
  c.order = std::move(order);
  c.verify_rows = verify_rows;
  c.phase_times = phase_times;
  std::atomic<bool> stop{false};
  c.check_interrupt = [&stop] {
    if (stop) throw Interrupted{};
  };
  std::string record;
  PyObject *type = nullptr, *value = nullptr, *trace = nullptr;  // the interrupt, kept until raised
  std::exception_ptr failed;                                     // the solve's own error, raised after
  {
    nb::gil_scoped_release released;
    std::lock_guard<std::mutex> one_at_a_time(session_lock);
    initialize(0, -1);  // Kokkos' defaults, unless initialize() started it already
    auto done = on_kokkos_thread([&] { record = solve(c); });
    // Python's signal handlers run on the main thread only: this one waits, asking for them.
    while (done.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
      if (stop) continue;
      nb::gil_scoped_acquire held;
      if (PyErr_CheckSignals() != 0) {
        PyErr_Fetch(&type, &value, &trace);
        stop = true;
      }
    }
    try {
      done.get();
    } catch (const Interrupted&) {
    } catch (...) {
      failed = std::current_exception();
    }
  }
  if (stop) {  // the Ctrl-C is raised, also over a failure that came after it: its references go back
    PyErr_Restore(type, value, trace);
    throw nb::python_error();
  }
  if (failed) std::rethrow_exception(failed);
  nb::object distances =
      c.kept_distances64 ? numpy_of(c.kept_distances64, vertices) : numpy_of(c.kept_distances, vertices);
  return nb::make_tuple(record, distances, numpy_of(c.kept_predecessors, vertices));
}

nb::tuple read_graph_file(const std::string& path, const std::string& format, bool undirected, int one_based,
                          double scale) {
  auto* read = new ReadGraph;
  try {
    nb::gil_scoped_release released;
    *read = read_graph(path, format, undirected, one_based, scale);
  } catch (...) {
    delete read;
    throw;
  }
  nb::capsule owner(read, [](void* p) noexcept { delete static_cast<ReadGraph*>(p); });
  const size_t count = read->edges.size() / 3;
  auto edges = nb::ndarray<nb::numpy, int32_t, nb::shape<-1, 3>>(read->edges.data(), {count, 3}, owner);
  nb::dict summary;
  summary["format"] = read->format;
  summary["lines"] = read->lines;
  summary["self_loops_dropped"] = read->self_loops_dropped;
  summary["weights_rounded"] = read->weights_rounded;
  return nb::make_tuple(read->vertices, edges, summary);
}

}  // namespace
}  // namespace apsp::python

NB_MODULE(_core, m) {
  using namespace apsp::python;
  m.doc() = "apsp_kokkos' solver (blocked Floyd-Warshall on Kokkos); use the package's functions";
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const apsp::InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const std::invalid_argument& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  m.def("solve", &solve_arrays, "vertices"_a, "edges"_a, "distances64"_a.none(), "predecessors"_a.none(), "keep"_a,
        "keep_predecessors"_a, "keep_float64"_a, "scale"_a, "backend"_a, "block_size"_a, "order"_a, "verify_rows"_a,
        "phase_times"_a);
  m.def("edges_of_arrays", &edges_of_arrays, "vertices"_a, "data"_a, "indptr"_a.none(), "indices"_a.none(),
        "directed"_a, "unweighted"_a, "scale"_a);
  m.def("read_graph", &read_graph_file, "path"_a, "format"_a, "undirected"_a, "one_based"_a, "scale"_a);
  m.def("backends", &backends);
  m.def(
      "initialize",
      [](int threads, int device_id) {
        nb::gil_scoped_release released;
        std::lock_guard<std::mutex> one_at_a_time(session_lock);
        initialize(threads, device_id);
      },
      "threads"_a, "device_id"_a);
  m.def("initialized", [] { return initialized(); });
  m.def("finalize", [] {
    nb::gil_scoped_release released;
    std::lock_guard<std::mutex> one_at_a_time(session_lock);
    finalize();
  });
}
