// SPDX-License-Identifier: BSD-3-Clause
// The in-memory outputs (apsp/pipeline/memory_results.hpp): a parallel pass over the rows on the
// host's threads, the conversion fused into the copy; or the solver's own matrix, kept.
#include "apsp/pipeline/memory_results.hpp"

#include <Kokkos_Core.hpp>

#include <limits>
#include <memory>
#include <utility>

#include "apsp/core/constants.hpp"
#include "apsp/core/huge_page_array.hpp"

namespace apsp {
namespace {

using Host = Kokkos::DefaultHostExecutionSpace;
using HostRows = Kokkos::RangePolicy<Host, Kokkos::IndexType<int64_t>>;

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
    Kokkos::parallel_for("apsp::rows_into", HostRows(0, rows), [=](int64_t r) {
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

/// The matrix as the caller keeps it (kept_rows): taken where it lies in host memory, else
/// copied into huge pages of its own as the rows come.
class KeptRows final : public ResultFile {
 public:
  KeptRows(std::shared_ptr<KeptMatrix> into, int64_t vertices, Int32None convert)
      : into_(std::move(into)), vertices_(vertices), convert_(convert) {}

  void reserve_rows(int64_t first_row, int64_t rows, const RowsReady& ready) override {
    if (ready) (void)ready(first_row, rows, nullptr);
  }

  bool take_rows(const std::shared_ptr<int32_t[]>& matrix, int64_t first_row, int64_t rows, int64_t ld) override {
    if (first_row != 0 || rows < vertices_) return false;  // part of the matrix: not the whole result
    if (convert_.none_as != -1)  // in place, entry by entry: a pass over memory already resident
      RowsInto<int32_t, Int32None>(matrix.get(), ld, vertices_, convert_).write_rows(matrix.get(), 0, vertices_, ld);
    *into_ = {matrix, ld};
    return true;
  }

  void write_rows(const int32_t* data, int64_t first_row, int64_t rows, int64_t ld) override {
    if (!into_->data) {
      *into_ = {huge_page_array<int32_t>(size_t(vertices_ * vertices_)), vertices_};
      copy_ = std::make_unique<RowsInto<int32_t, Int32None>>(into_->data.get(), vertices_, vertices_, convert_);
    }
    copy_->write_rows(data, first_row, rows, ld);
  }

  void commit() override {}

 private:
  std::shared_ptr<KeptMatrix> into_;
  int64_t vertices_;
  Int32None convert_;
  std::unique_ptr<ResultFile> copy_;
};

}  // namespace

std::unique_ptr<ResultFile> int32_rows_into(int32_t* dst, int64_t ld, int64_t cols, int32_t none_as) {
  return std::make_unique<RowsInto<int32_t, Int32None>>(dst, ld, cols, Int32None{none_as});
}

std::unique_ptr<ResultFile> float64_rows_into(double* dst, int64_t ld, int64_t cols, double scale) {
  return std::make_unique<RowsInto<double, Float64Distance>>(
      dst, ld, cols, Float64Distance{scale, std::numeric_limits<double>::infinity()});
}

std::unique_ptr<ResultFile> kept_rows(std::shared_ptr<KeptMatrix> into, int64_t vertices, int32_t none_as) {
  return std::make_unique<KeptRows>(std::move(into), vertices, Int32None{none_as});
}

}  // namespace apsp
