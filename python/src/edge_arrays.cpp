// SPDX-License-Identifier: BSD-3-Clause
// A graph in SciPy's conventions (a CSR matrix's arrays, or a dense matrix) as the solver's edge
// triples, on Kokkos' host threads: a pass that counts each row's edges and checks every weight,
// then a pass that writes them. The rules are python/apsp_kokkos/_graph.py's; where an entry
// breaks one, nothing is made and the package's own pass finds it and names it.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "apsp/core/constants.hpp"
#include "apsp/solver/host_pages.hpp"
#include "calls.hpp"

namespace apsp::python {
namespace {

using Host = Kokkos::DefaultHostExecutionSpace;
using HostRows = Kokkos::RangePolicy<Host, Kokkos::IndexType<int64_t>>;

/// What one stored entry is: no edge, an edge of weight `w`, or an entry that breaks a rule.
enum class Entry : int { none, edge, broken };

struct Rules {
  bool sparse, unweighted;
  double scale;  ///< 0: the weights as they are
  int64_t most;  ///< the heaviest weight a path of V - 1 edges keeps below INF
};

/// An entry's weight under the rules (SciPy's reading: a dense matrix's zeros, infinities and
/// NaNs are no edge; a sparse matrix's stored entries are edges, a stored infinity none, a
/// stored NaN an error). The diagonal is no edge, but a NaN stored there is still an error.
template <class Value>
Entry weigh(Value v, bool diagonal, const Rules& r, int32_t& w) {
  double x = 0;
  if constexpr (std::is_floating_point_v<Value>) {
    if (std::isnan(v)) return r.sparse ? Entry::broken : Entry::none;
    if (std::isinf(v) || diagonal || (!r.sparse && v == 0)) return Entry::none;
    x = double(v);
  } else {  // an integer (or bool) type: past 2**53 inexact as a double, but far past `most` then
    if (diagonal || (!r.sparse && v == 0)) return Entry::none;
    x = double(v);
  }
  if (r.unweighted) {
    w = 1;
    return Entry::edge;
  }
  if (r.scale > 0) {  // rounded half away from zero, exactly, as --scale's llround rounds
    x *= r.scale;
    const double whole = std::trunc(x);
    x = whole + (std::fabs(x - whole) >= 0.5 ? std::copysign(1.0, x) : 0.0);
  }
  if (!(x >= 0 && x <= double(r.most))) return Entry::broken;  // NaN too; past it int32 holds x
  w = int32_t(x);
  if (double(w) != x) return Entry::broken;  // not an integer
  return Entry::edge;
}

/// Row `i`'s stored entries, as (column, value) pairs to `visit`: a CSR row, or a dense row.
template <class Index, class Value>
struct CsrRows {
  const Index *indptr, *indices;
  const Value* data;
  int64_t vertices;
  template <class Visit>
  bool row(int64_t i, Visit&& visit) const {  // false: the arrays are not a CSR matrix of V x V
    const int64_t begin = int64_t(indptr[i]), end = int64_t(indptr[i + 1]);
    if (begin > end) return false;
    for (int64_t k = begin; k < end; ++k) {
      const int64_t j = int64_t(indices[k]);
      if (j < 0 || j >= vertices) return false;
      visit(j, data[k]);
    }
    return true;
  }
};
template <class Value>
struct DenseRows {
  const Value* data;
  int64_t vertices;
  template <class Visit>
  bool row(int64_t i, Visit&& visit) const {
    for (int64_t j = 0; j < vertices; ++j) visit(j, data[i * vertices + j]);
    return true;
  }
};

/// The edges of `rows` under `rules`: counted and checked row by row, then written at each row's
/// offset (and, undirected, reversed after all of them). Null where an entry breaks a rule.
template <class Rows>
std::shared_ptr<int32_t[]> edges_of_rows(const Rows& rows, const Rules& rules, bool directed, int64_t& count) {
  const int64_t V = rows.vertices;
  std::vector<int64_t> offset(size_t(V + 1), 0);
  int broken = 0;
  Kokkos::parallel_reduce(
      "apsp::count_edges", HostRows(0, V),
      [&](int64_t i, int& bad) {
        int64_t n = 0;
        int32_t w = 0;
        const bool ok = rows.row(i, [&](int64_t j, auto v) {
          const Entry e = weigh(v, i == j, rules, w);
          n += e == Entry::edge;
          bad |= e == Entry::broken;
        });
        bad |= !ok;
        offset[size_t(i + 1)] = n;
      },
      Kokkos::BOr<int>(broken));
  if (broken != 0) return nullptr;
  for (int64_t i = 0; i < V; ++i) offset[size_t(i + 1)] += offset[size_t(i)];
  const int64_t one_way = offset[size_t(V)];
  count = directed ? one_way : 2 * one_way;
  // Resident before the pass writes it, in huge pages only where they come quickly (a VM that
  // took back idle memory hands out huge pages slowly: host_pages.hpp).
  std::shared_ptr<int32_t[]> edges = resident_pages<Host, int32_t>(size_t(3 * count));
  int32_t* const out = edges.get();
  Kokkos::parallel_for("apsp::write_edges", HostRows(0, V), [&](int64_t i) {
    int64_t at = offset[size_t(i)];
    int32_t w = 0;
    rows.row(i, [&](int64_t j, auto v) {
      if (weigh(v, i == j, rules, w) != Entry::edge) return;
      int32_t* e = out + 3 * at++;
      e[0] = int32_t(i), e[1] = int32_t(j), e[2] = w;
      if (!directed) e += 3 * one_way, e[0] = int32_t(j), e[1] = int32_t(i), e[2] = w;
    });
  });
  Host().fence();
  return edges;
}

/// Calls `f` with a null pointer of the C++ type of `type`'s values; nothing for `other`.
template <class F>
void with_value_type(ValueType type, F&& f) {
  switch (type) {
    case ValueType::float64:
      return f(static_cast<const double*>(nullptr));
    case ValueType::float32:
      return f(static_cast<const float*>(nullptr));
    case ValueType::int64:
      return f(static_cast<const int64_t*>(nullptr));
    case ValueType::int32:
      return f(static_cast<const int32_t*>(nullptr));
    case ValueType::int16:
      return f(static_cast<const int16_t*>(nullptr));
    case ValueType::int8:
      return f(static_cast<const int8_t*>(nullptr));
    case ValueType::uint64:
      return f(static_cast<const uint64_t*>(nullptr));
    case ValueType::uint32:
      return f(static_cast<const uint32_t*>(nullptr));
    case ValueType::uint16:
      return f(static_cast<const uint16_t*>(nullptr));
    case ValueType::uint8:
      return f(static_cast<const uint8_t*>(nullptr));
    case ValueType::boolean:
      return f(static_cast<const bool*>(nullptr));
    default:
      return;
  }
}

/// indptr starts at 0 and ends at the number of stored entries (the rows' own order is checked
/// row by row).
bool csr_ends_agree(const MatrixArrays& m) {
  const auto at = [&](int64_t i) {
    return m.index_bytes == 4 ? int64_t(static_cast<const int32_t*>(m.indptr)[i])
                              : int64_t(static_cast<const int64_t*>(m.indptr)[i]);
  };
  return at(0) == 0 && at(m.vertices) == m.stored;
}

Rules rules_of(const MatrixArrays& m) {
  return {m.indptr != nullptr, m.unweighted, m.scale, max_weight_allowed(m.vertices)};
}

/// The edges of a CSR matrix whose indptr and indices are of type Index.
template <class Index, class Value>
EdgeArray csr_edges(const MatrixArrays& m, const Value* data, const Rules& rules) {
  EdgeArray e;
  const CsrRows<Index, Value> rows{static_cast<const Index*>(m.indptr), static_cast<const Index*>(m.indices), data,
                                   m.vertices};
  e.edges = edges_of_rows(rows, rules, m.directed, e.count);
  return e;
}

}  // namespace

EdgeArray edges_of_matrix(const MatrixArrays& m) {
  EdgeArray result;
  const Rules rules = rules_of(m);
  with_value_type(m.values, [&](auto typed) {
    using Value = std::remove_const_t<std::remove_pointer_t<decltype(typed)>>;
    const auto* data = static_cast<const Value*>(m.data);
    if (m.indptr == nullptr)
      result.edges = edges_of_rows(DenseRows<Value>{data, m.vertices}, rules, m.directed, result.count);
    else if (csr_ends_agree(m))
      result = m.index_bytes == 4 ? csr_edges<int32_t>(m, data, rules) : csr_edges<int64_t>(m, data, rules);
  });
  return result;
}

}  // namespace apsp::python
