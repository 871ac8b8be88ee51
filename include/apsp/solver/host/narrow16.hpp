// SPDX-License-Identifier: BSD-3-Clause
// A padded n x n int32 matrix narrowed to 16 bits in its own memory, and widened back: the CPU
// solve's 16-bit stage (host/sixteen.hpp) and a result left narrowed for its output
// (DistanceMatrix::narrowed16) both go through here. Host memory and host threads only.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>

#include "apsp/core/constants.hpp"

namespace apsp::Impl {

template <class ExecSpace>
struct Narrow16 {
  /// The matrix narrowed in place: entry (r, c) to byte 2 (r n + c) (row r lands where the
  /// int32 row r / 2 was), padding `pad`. Rows go in ranges [0, 1), [1, 2), [2, 4), ...,
  /// [2^m, 2^(m+1)), one kernel each: a range writes only where the ranges before it were read.
  static void narrow(int32_t* rows, int64_t n, int64_t V, uint16_t pad) {
    auto* bytes = reinterpret_cast<unsigned char*>(rows);
    for (int64_t lo = 0, hi = 1; lo < n; lo = hi, hi = hi * 2 < n ? hi * 2 : n)
      Kokkos::parallel_for("apsp::narrow16", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(lo, hi),
                           [=](const int64_t r) { narrow_row(bytes, r, n, V, pad); });
    ExecSpace().fence();
  }
  /// The inverse, ranges from the last: row r's int32 place holds 16-bit rows 2 r and 2 r + 1,
  /// widened already. Padding entries get what the matrix was built with (0 on the diagonal,
  /// INF elsewhere).
  static void widen(int32_t* rows, int64_t n, int64_t V) {
    auto* bytes = reinterpret_cast<unsigned char*>(rows);
    int64_t hi = n, lo = 1;
    while (lo * 2 < n) lo *= 2;
    for (;;) {
      Kokkos::parallel_for("apsp::widen16", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(lo, hi),
                           [=](const int64_t r) { widen_row(bytes, r, n, V); });
      if (lo == 0) break;
      hi = lo;
      lo /= 2;
    }
    ExecSpace().fence();
  }

 private:
  static constexpr int kRun = 16;  ///< entries converted at a time, through registers

  /// Row r: entries from byte 4 r n, to byte 2 r n, in increasing order (the write of a run
  /// lands where this row or earlier ones were read). memcpy: the two types alias.
  static void narrow_row(unsigned char* m, int64_t r, int64_t n, int64_t V, uint16_t pad) {
    const int64_t valid = r < V ? V : 0;
    for (int64_t c = 0; c < n; c += kRun) {
      int32_t in[kRun];
      uint16_t out[kRun];
      const int w = n - c < kRun ? int(n - c) : kRun;
      if (w == kRun && c + kRun <= valid) {  // constant sizes: copies in registers, not calls
        std::memcpy(in, m + 4 * (r * n + c), sizeof in);
        for (int j = 0; j < kRun; ++j) out[j] = uint16_t(in[j]);
        std::memcpy(m + 2 * (r * n + c), out, sizeof out);
        continue;
      }
      std::memcpy(in, m + 4 * (r * n + c), size_t(w) * 4);
      for (int j = 0; j < kRun; ++j) out[j] = c + j < valid ? uint16_t(in[j]) : pad;
      std::memcpy(m + 2 * (r * n + c), out, size_t(w) * 2);
    }
  }
  /// Row r: from byte 2 r n to byte 4 r n, in decreasing order.
  static void widen_row(unsigned char* m, int64_t r, int64_t n, int64_t V) {
    for (int64_t c = (n - 1) / kRun * kRun; c >= 0; c -= kRun) {
      uint16_t in[kRun];
      int32_t out[kRun];
      const int w = n - c < kRun ? int(n - c) : kRun;
      if (w == kRun && r < V && c + kRun <= V) {
        std::memcpy(in, m + 2 * (r * n + c), sizeof in);
        for (int j = 0; j < kRun; ++j) out[j] = int32_t(in[j]);
        std::memcpy(m + 4 * (r * n + c), out, sizeof out);
        continue;
      }
      std::memcpy(in, m + 2 * (r * n + c), size_t(w) * 2);
      for (int j = 0; j < kRun; ++j) out[j] = r < V && c + j < V ? int32_t(in[j]) : (r == c + j ? 0 : kInf);
      std::memcpy(m + 4 * (r * n + c), out, size_t(w) * 4);
    }
  }
};

}  // namespace apsp::Impl
