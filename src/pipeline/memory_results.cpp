// SPDX-License-Identifier: BSD-3-Clause
// The in-memory outputs (apsp/pipeline/memory_results.hpp): a parallel pass over the rows on the
// host's threads, the conversion fused into the copy.
#include "apsp/pipeline/memory_results.hpp"

#include <Kokkos_Core.hpp>

#include <limits>

#include "apsp/core/constants.hpp"

namespace apsp {
namespace {

/// Rows into `dst` through `convert(value)`: nothing to reserve (the caller's memory is already
/// there), nothing to commit.
template <class T, class Convert>
class RowsInto final : public ResultFile {
 public:
  RowsInto(T* dst, int64_t ld, int64_t cols, Convert convert) : dst_(dst), ld_(ld), cols_(cols), convert_(convert) {}

  void reserve_rows(int64_t first_row, int64_t rows, const RowsReady& ready) override {
    if (ready) (void)ready(first_row, rows, nullptr);  // a device copies through its own buffers
  }

  void write_rows(const int32_t* data, int64_t first_row, int64_t rows, int64_t ld) override {
    if (rows <= 0) return;
    T* const dst = dst_ + first_row * ld_;
    const int64_t cols = cols_, dst_ld = ld_;
    const Convert convert = convert_;
    using Host = Kokkos::DefaultHostExecutionSpace;
    Kokkos::parallel_for("apsp::rows_into", Kokkos::RangePolicy<Host, Kokkos::IndexType<int64_t>>(0, rows),
                         [=](int64_t r) {
                           const int32_t* from = data + r * ld;
                           T* to = dst + r * dst_ld;
                           for (int64_t c = 0; c < cols; ++c) to[c] = convert(from[c]);
                         });
    Host().fence();
  }

  void commit() override {}

 private:
  T* dst_;
  int64_t ld_, cols_;
  Convert convert_;
};

struct Int32None {
  int32_t none_as;
  KOKKOS_INLINE_FUNCTION int32_t operator()(int32_t v) const { return v == -1 ? none_as : v; }
};
struct Float64Distance {
  double scale;
  double infinity;  // a member: in a CUDA build the call is host-and-device code, where
                    // numeric_limits' constexpr host functions may not be called
  KOKKOS_INLINE_FUNCTION double operator()(int32_t v) const { return v >= kInf ? infinity : double(v) / scale; }
};

}  // namespace

std::unique_ptr<ResultFile> int32_rows_into(int32_t* dst, int64_t ld, int64_t cols, int32_t none_as) {
  return std::make_unique<RowsInto<int32_t, Int32None>>(dst, ld, cols, Int32None{none_as});
}

std::unique_ptr<ResultFile> float64_rows_into(double* dst, int64_t ld, int64_t cols, double scale) {
  return std::make_unique<RowsInto<double, Float64Distance>>(
      dst, ld, cols, Float64Distance{scale, std::numeric_limits<double>::infinity()});
}

}  // namespace apsp
