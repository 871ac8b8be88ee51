// SPDX-License-Identifier: BSD-3-Clause
// The in-memory outputs (apsp/pipeline/memory_results.hpp): a parallel pass over the rows on the
// host's threads, the conversion fused into the copy; or the solver's own matrix, kept.
#include "apsp/pipeline/memory_results.hpp"

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <type_traits>
#include <utility>

#include "apsp/core/constants.hpp"
#include "apsp/core/cpus.hpp"
#include "apsp/core/huge_page_array.hpp"

namespace apsp {
namespace {

using Host = Kokkos::DefaultHostExecutionSpace;
using HostRows = Kokkos::RangePolicy<Host, Kokkos::IndexType<int64_t>>;

/// A device run reserves the rows on a thread of its own while the GPU computes (ResultFile::
/// reserve_rows): the host's threads are idle then, so the result's pages are made resident
/// there instead of faulting one by one in the conversion after the solve. One CPU is left to
/// the thread that drives the GPU.
void make_rows_resident(void* rows, size_t bytes) {
  const int threads = std::min(kPopulateThreads, int(thread_cpus().size()) - 1);
  make_pages_resident(rows, bytes, threads);
}

struct Int32None {
  int32_t none_as;
  KOKKOS_INLINE_FUNCTION int32_t operator()(int32_t v) const { return v == -1 ? none_as : v; }
};
struct Float64Distance {
  double scale;
  double infinity;  // a member: in a CUDA build the call is host-and-device code, where
                    // numeric_limits' constexpr host functions may not be called
  double no_path;   // INF / scale: every distance's quotient lies below it (division is monotonic,
                    // and quotients of integers below 2^31 are at least 2^-31 apart, relatively)
  explicit Float64Distance(double s)
      : scale(s), infinity(std::numeric_limits<double>::infinity()), no_path(double(kInf) / s) {}
  // The test on the quotient, in doubles as the result: a test on the int32 entry (of another
  // width) left GCC a branch and a scalar division per entry; this one it vectorizes.
  KOKKOS_INLINE_FUNCTION double operator()(int32_t v) const {
    const double d = double(v) / scale;
    return d >= no_path ? infinity : d;
  }
};

/// Float64Distance where the scale is 1: the same values without a division per entry, which
/// was most of a widening pass's time (2-vCPU EPYC, V = 4000: 15-22 ms with it, 7-9 without).
struct WholeFloat64Distance {
  double infinity, no_path;
  KOKKOS_INLINE_FUNCTION double operator()(int32_t v) const {
    const double d = double(v);
    return d >= no_path ? infinity : d;
  }
};

/// f(the cheapest converter that gives what `convert` gives).
template <class Convert, class F>
void with_cheapest(const Convert& convert, F&& f) {
  if constexpr (std::is_same_v<Convert, Float64Distance>)
    if (convert.scale == 1.0) return f(WholeFloat64Distance{convert.infinity, convert.no_path});
  f(convert);
}

/// Rows into `dst` through `convert(value)`: the caller's memory, nothing to allocate and
/// nothing to commit.
template <class T, class Convert>
class RowsInto final : public ResultFile {
 public:
  RowsInto(T* dst, int64_t ld, int64_t cols, Convert convert) : dst_(dst), ld_(ld), cols_(cols), convert_(convert) {}

  /// The caller's memory: for a device run (`ready` given) its pages made resident, their
  /// bytes kept; a device copies through its own buffers.
  void reserve_rows(int64_t first_row, int64_t rows, const RowsReady& ready) override {
    if (!ready) return;  // the host's run, about to write the rows itself
    if (rows > 0) make_rows_resident(dst_ + first_row * ld_, size_t((rows - 1) * ld_ + cols_) * sizeof(T));
    (void)ready(first_row, rows, nullptr);
  }

  void write_rows(const int32_t* data, int64_t first_row, int64_t rows, int64_t ld) override {
    if (rows <= 0) return;
    T* const dst = dst_ + first_row * ld_;
    const int64_t cols = cols_, dst_ld = ld_;
    with_cheapest(convert_, [&](auto convert) {
      Kokkos::parallel_for("apsp::rows_into", HostRows(0, rows), [=](int64_t r) {
        const int32_t* from = data + r * ld;
        T* to = dst + r * dst_ld;
        for (int64_t c = 0; c < cols; ++c) to[c] = convert(from[c]);
      });
    });
    Host().fence();
  }

  void commit() override {}

 private:
  T* dst_;
  int64_t ld_, cols_;
  Convert convert_;
};

/// Entries [j, v) of a row (int32 or uint16) widened from the last back, eight at a time, where
/// the host has AVX-512 and the scale is 1: each line of eight doubles stored past the caches (a
/// line of the result is never read here, and a fresh one is not read first). Returns j (v: nothing done),
/// below which the caller goes on. 2-vCPU EPYC, V = 4000, the package's first call: the widening
/// 10.4 -> 6.5 ms and 9.9 -> 5.6 ms in two comparisons (medians of 11 and 9 processes each, in
/// turns); an SSE2 form through a buffer on the stack was slower than plain stores (14.2 against
/// 9.6 ms).
template <class Source, class Convert>
int64_t stream_row_back(const Source* from, double* to, int64_t v, const Convert& convert) {
#if defined(__AVX512F__)
  if constexpr (std::is_same_v<Convert, WholeFloat64Distance>) {
    int64_t j = v;
    while (j > 0 && reinterpret_cast<uintptr_t>(to + j) % 64 != 0) {  // NOLINT(performance-no-int-to-ptr)
      --j;
      const int32_t x = from[j];
      to[j] = convert(x);
    }
    const __m512d no_path = _mm512_set1_pd(convert.no_path), infinity = _mm512_set1_pd(convert.infinity);
    for (; j >= 8; j -= 8) {
      __m256i x;  // 8 int32, loaded unaligned (or 8 uint16, widened)
      // NOLINTBEGIN(cppcoreguidelines-pro-type-reinterpret-cast)
      if constexpr (sizeof(Source) == 2)
        x = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(from + j - 8)));
      else
        x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(from + j - 8));
      // NOLINTEND(cppcoreguidelines-pro-type-reinterpret-cast)
      const __m512d d = _mm512_maskz_cvtepi32_pd(0xFF, x);  // (GCC 12 warns of the unmasked form's undefined source)
      _mm512_stream_pd(to + j - 8, _mm512_mask_mov_pd(d, _mm512_cmp_pd_mask(d, no_path, _CMP_GE_OQ), infinity));
    }
    _mm_sfence();  // the streamed lines before anything this thread stores next, and the wave's end
    return j;
  }
#endif
  (void)from, (void)to, (void)convert;
  return v;
}

/// The int32 (or uint16) rows of a V-column matrix (row r at r * ld, ld <= 8 V / the entry's
/// bytes) as C-ordered float64 rows in the same memory, which holds 8 V^2 bytes at least. A
/// float64 row lies at or after its own row and before no earlier one, so a row written from its
/// last entry back (each piece read before it is written) overwrites only entries read already,
/// its own or later rows'. Rows whose float64 place lies past every row still to be read go
/// together, in parallel: waves of about (1 - the entry's bytes / 8) of the rows left; the last
/// row or two, which overlap themselves, alone.
template <class Source, class Convert>
void widen_in_place(Source* matrix, int64_t vertices, int64_t ld, Convert convert) {
  const int64_t v = vertices, ratio = int64_t(sizeof(double) / sizeof(Source));  // 2 or 4
  auto* out = reinterpret_cast<double*>(matrix);  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
  const auto widen_row = [=](int64_t r) {
    const Source* from = matrix + r * ld;
    double* to = out + r * v;
    int64_t j = stream_row_back(from, to, v, convert);
    for (; j >= 8; j -= 8) {
      int32_t piece[8];
      for (int k = 0; k < 8; ++k) piece[k] = int32_t(from[j - 8 + k]);
      for (int k = 0; k < 8; ++k) to[j - 8 + k] = convert(piece[k]);
    }
    while (j-- > 0) {
      const int32_t x = from[j];
      to[j] = convert(x);
    }
  };
  for (int64_t hi = v; hi > 0;) {
    // The lowest row whose float64 place (8 lo v bytes on) is past row hi - 1's end.
    const int64_t lo = ((hi - 1) * ld + v + ratio * v - 1) / (ratio * v);
    if (lo >= hi - 1) {
      widen_row(--hi);
      continue;
    }
    Kokkos::parallel_for("apsp::widen_in_place", HostRows(lo, hi), widen_row);
    Host().fence();
    hi = lo;
  }
}

/// An output kept (kept_rows, kept_float64_rows): the solver's matrix taken where it lies in
/// host memory as a whole (int32: -1 written as none_as in place; float64: widened in place where
/// it has room), else a copy into huge pages of its own as the rows come.
template <class T, class Convert>
class KeptRows final : public ResultFile {
 public:
  KeptRows(std::shared_ptr<Kept<T>> into, int64_t vertices, Convert convert)
      : into_(std::move(into)), vertices_(vertices), convert_(convert) {}

  /// A device run (`ready` given): the result's memory allocated and made resident while the
  /// GPU computes.
  void reserve_rows(int64_t first_row, int64_t rows, const RowsReady& ready) override {
    if (!ready) return;  // the host's run: its matrix is taken, or written right after
    if (first_row == 0 && rows >= vertices_) {
      allocate();
      make_rows_resident(into_->data.get(), size_t(vertices_ * vertices_) * sizeof(T));
    }
    (void)ready(first_row, rows, nullptr);
  }

  /// float64: widened in place, from 16-bit rows straight where the solve left them so (one pass
  /// instead of widening to int32 first: 2-vCPU EPYC, V = 4000, the int32 pass's 4.4-5.5 ms gone,
  /// the float64 widening alike, 4.8-6.0 ms before, 5.3-5.4 after).
  bool take_rows(const std::shared_ptr<int32_t[]>& matrix, int64_t first_row, int64_t rows, int64_t ld,
                 int64_t capacity, bool narrowed16) override {
    const int64_t v = vertices_;
    if (first_row != 0 || rows < v) return false;  // part of the matrix: not the whole result
    if constexpr (std::is_same_v<T, double>) {
      if (ld * (narrowed16 ? 2 : 4) > 8 * v || capacity < 2 * v * v) return false;
      with_cheapest(convert_, [&](auto convert) {
        if (narrowed16)  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): the same memory
          widen_in_place(reinterpret_cast<uint16_t*>(matrix.get()), v, ld, convert);
        else
          widen_in_place(matrix.get(), v, ld, convert);
      });
      // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): the same memory, now float64
      *into_ = {std::shared_ptr<double[]>(matrix, reinterpret_cast<double*>(matrix.get())), v};
    } else {
      if (narrowed16) return false;  // int32 kept as it lies: widened by the caller first
      if (convert_.none_as != -1)    // in place, entry by entry: a pass over memory already resident
        RowsInto<int32_t, Int32None>(matrix.get(), ld, v, convert_).write_rows(matrix.get(), 0, v, ld);
      *into_ = {matrix, ld};
    }
    return true;
  }
  bool takes_rows16() const override { return std::is_same_v<T, double>; }

  void write_rows(const int32_t* data, int64_t first_row, int64_t rows, int64_t ld) override {
    allocate();
    copy_->write_rows(data, first_row, rows, ld);
  }

  void commit() override {}

 private:
  /// The result's memory of its own (a device's), once.
  void allocate() {
    if (into_->data) return;
    *into_ = {huge_page_array<T>(size_t(vertices_ * vertices_)), vertices_};
    copy_ = std::make_unique<RowsInto<T, Convert>>(into_->data.get(), vertices_, vertices_, convert_);
  }

  std::shared_ptr<Kept<T>> into_;
  int64_t vertices_;
  Convert convert_;
  std::unique_ptr<ResultFile> copy_;
};

}  // namespace

std::unique_ptr<ResultFile> int32_rows_into(int32_t* dst, int64_t ld, int64_t cols, int32_t none_as) {
  return std::make_unique<RowsInto<int32_t, Int32None>>(dst, ld, cols, Int32None{none_as});
}

std::unique_ptr<ResultFile> float64_rows_into(double* dst, int64_t ld, int64_t cols, double scale) {
  return std::make_unique<RowsInto<double, Float64Distance>>(dst, ld, cols, Float64Distance(scale));
}

std::unique_ptr<ResultFile> kept_float64_rows(std::shared_ptr<KeptFloat64> into, int64_t vertices, double scale) {
  return std::make_unique<KeptRows<double, Float64Distance>>(std::move(into), vertices, Float64Distance(scale));
}

std::unique_ptr<ResultFile> kept_rows(std::shared_ptr<KeptMatrix> into, int64_t vertices, int32_t none_as) {
  return std::make_unique<KeptRows<int32_t, Int32None>>(std::move(into), vertices, Int32None{none_as});
}

}  // namespace apsp
