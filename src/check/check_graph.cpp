// SPDX-License-Identifier: BSD-3-Clause
#include "check_graph.hpp"

#include <tuple>
#include <utility>

#include "apsp/core/helper_thread.hpp"

namespace apsp::check {

namespace {
#if defined(APSP_HAVE_KOKKOS_KERNELS)
// The matrix's own arrays, filled in place (no copy, no second set of them in memory).
class CsrStorage {
 public:
  int64_t* offsets(int64_t v) {
    row_map_ = decltype(row_map_)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::verify::row_map"), v + 1);
    return row_map_.data();
  }
  void edges(int64_t nnz, int32_t*& dst, int32_t*& w) {
    entries_ = decltype(entries_)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::verify::entries"), nnz);
    values_ = decltype(values_)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::verify::weights"), nnz);
    dst = entries_.data();
    w = values_.data();
  }
  Csr finish(int64_t v, int64_t nnz) {
    return Csr("apsp::verify::graph", int32_t(v), int32_t(v), nnz, values_, row_map_, entries_);
  }

 private:
  Csr::row_map_type::non_const_type row_map_;
  Csr::index_type::non_const_type entries_;
  Csr::values_type::non_const_type values_;
};
#else
class CsrStorage {
 public:
  int64_t* offsets(int64_t v) {
    csr_.vertices = v;
    csr_.offset.reset(new int64_t[size_t(v + 1)]);
    return csr_.offset.get();
  }
  void edges(int64_t nnz, int32_t*& dst, int32_t*& w) {
    csr_.dst.reset(new int32_t[size_t(std::max<int64_t>(nnz, 1))]);
    csr_.weight.reset(new int32_t[size_t(std::max<int64_t>(nnz, 1))]);
    dst = csr_.dst.get();
    w = csr_.weight.get();
  }
  Csr finish(int64_t /*v*/, int64_t /*nnz*/) { return std::move(csr_); }

 private:
  Csr csr_;
};
#endif
}  // namespace

int csr_threads(int64_t edges, int asked) {
  return static_cast<int>(std::clamp<int64_t>(std::min(asked, 16), 1, std::max<int64_t>(1, edges >> 16)));
}

std::optional<Csr> build_csr(const EdgeReader& edges, int64_t v, int32_t max_weight, int threads, bool sorted,
                             const std::atomic<bool>* stop) {
  const int64_t e = edges.edges();
  threads = csr_threads(e, threads);
  const auto valid = [v, max_weight](int32_t s, int32_t t, int32_t w) {
    return s >= 0 && s < v && t >= 0 && t < v && s != t && w >= 0 && w <= max_weight;
  };
  // place[t * v + u]: thread t's count of edges out of u, then where it places the next one.
  std::vector<int64_t> place(size_t(threads) * size_t(v), 0);
  std::atomic<bool> stopped{false};
  on_threads(threads, [&](int t) {
    int64_t* count = place.data() + size_t(t) * size_t(v);
    const auto [b, end] = thread_share(e, t, threads);
    if (!edges.for_each(b, end, stop, [&](int32_t s, int32_t d, int32_t w) {
          if (valid(s, d, w)) ++count[s];
        }))
      stopped = true;
  });
  if (stopped) return std::nullopt;
  CsrStorage storage;
  int64_t* offset = storage.offsets(v);
  int64_t nnz = 0;
  for (int64_t u = 0; u < v; ++u) {
    offset[u] = nnz;
    for (int t = 0; t < threads; ++t) {
      int64_t& at = place[size_t(t) * size_t(v) + size_t(u)];
      const int64_t count = at;
      at = nnz;
      nnz += count;
    }
  }
  offset[v] = nnz;
  int32_t *dst = nullptr, *w = nullptr;
  storage.edges(nnz, dst, w);
  on_threads(threads, [&](int t) {
    int64_t* next = place.data() + size_t(t) * size_t(v);
    const auto [b, end] = thread_share(e, t, threads);
    if (!edges.for_each(b, end, stop, [&](int32_t s, int32_t d, int32_t weight) {
          if (!valid(s, d, weight)) return;
          const int64_t at = next[s]++;
          dst[at] = d;
          w[at] = weight;
        }))
      stopped = true;
  });
  if (stopped) return std::nullopt;
  if (sorted)
    on_threads(threads, [&](int t) {
      std::vector<std::pair<int32_t, int32_t>> row;
      const auto [u0, u1] = thread_share(v, t, threads);
      for (int64_t u = u0; u < u1; ++u) {
        row.clear();
        for (int64_t i = offset[u]; i < offset[u + 1]; ++i) row.emplace_back(dst[i], w[i]);
        std::sort(row.begin(), row.end());
        for (size_t i = 0; i < row.size(); ++i)
          std::tie(dst[offset[u] + int64_t(i)], w[offset[u] + int64_t(i)]) = row[i];
      }
    });
  return storage.finish(v, nnz);
}

int64_t edge_weight(const Csr& csr, int64_t u, int32_t t) {
  int64_t lo = row_begin(csr, u), hi = row_begin(csr, u + 1);
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (column(csr, mid) < t)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < row_begin(csr, u + 1) && column(csr, lo) == t ? weight(csr, lo) : -1;
}

}  // namespace apsp::check
