// SPDX-License-Identifier: BSD-3-Clause
// The kernel that does nothing but mark a block's strips (StripMarkKernel; the MPI layer's
// BandMarkKernel marks through the same function) reads a GPU's rows in runs of kMarkRun
// entries per load (gpu/operand_marks.hpp). Its marks and least entries against the strips'
// entries, read in runs (HIP's traits, whose wide loads the host compiles too) and one entry at
// a time (the host's traits).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <random>
#include <vector>

#include "apsp/core/constants.hpp"
#include "apsp/solver/distance_matrix.hpp"
#include "apsp/solver/gpu/operand_marks.hpp"
#include "apsp/solver/gpu/packed_tiles.hpp"
#include "apsp/solver/gpu/round_block_kernels.hpp"
#include "apsp/solver/tile_ops.hpp"
#include "host_team.hpp"

namespace {

using Host = Kokkos::DefaultHostExecutionSpace;
using register_tiles_test::PackedHip;

/// HIP's traits, counting the runs read through copy_run.
struct CountingHip : PackedHip {
  static inline std::atomic<int64_t> runs{0};
  template <int N>
  KOKKOS_FORCEINLINE_FUNCTION static void copy_run(int32_t* dst, const int32_t* src) {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    ++runs;
#endif
    PackedHip::copy_run<N>(dst, src);
  }
};

/// The host's tile operations with PackedTiles' rule for "small", as a GPU with the 16-bit
/// product marks; the host's traits: one entry per load.
struct NarrowOps : apsp::Impl::TileOps<Host> {
  KOKKOS_INLINE_FUNCTION static bool small_entry(int32_t v) {
    return apsp::Impl::PackedTiles<PackedHip>::small_entry(v);
  }
};

/// The same with a GPU's traits: runs of kMarkRun entries per load.
struct WideOps : NarrowOps {
  using Traits = CountingHip;
};

constexpr int kB = 16, kTiles = 8, kRounds = 4, kFirst = 2;  // the block: tile rows [2, 6)
constexpr int64_t kLeast = int64_t(2) * kTiles;              // ints from a flag to its least entry

/// The flags (row strips, then column strips) and least entries that StripMarkKernel<Ops> takes.
template <class Ops>
std::vector<int32_t> strip_marks(const apsp::DistanceMatrix<Host, int32_t>& d) {
  Kokkos::View<int32_t*, Host> marks("marks", size_t(2 * kLeast));
  Kokkos::parallel_for(
      Kokkos::TeamPolicy<Host>(Host(), 2 * kTiles, Kokkos::AUTO),
      apsp::Impl::StripMarkKernel<Ops>{d.data.data(), d.n, kB, kFirst, kRounds, kTiles, marks.data(), kLeast});
  Host().fence();
  return std::vector<int32_t>(marks.data(), marks.data() + 2 * kLeast);
}

/// The same, entry by entry: team t < nb marks tiles (t, J), team nb + t tiles (J, t).
std::vector<int32_t> marks_of_entries(const apsp::DistanceMatrix<Host, int32_t>& d) {
  std::vector<int32_t> out(size_t(2 * kLeast));
  for (int id = 0; id < 2 * kTiles; ++id) {
    const bool row_strip = id < kTiles;
    const int t = row_strip ? id : id - kTiles;
    const int64_t r0 = row_strip ? int64_t(t) * kB : int64_t(kFirst) * kB;
    const int64_t c0 = row_strip ? int64_t(kFirst) * kB : int64_t(t) * kB;
    const int rows = row_strip ? kB : kRounds * kB, cols = row_strip ? kRounds * kB : kB;
    int32_t flag = apsp::OperandMark::kUnseen, least = apsp::kInf;
    for (int64_t r = r0; r < r0 + rows; ++r)
      for (int64_t c = c0; c < c0 + cols; ++c) {
        const int32_t v = d.data(r * d.n + c);
        if (!NarrowOps::small_entry(v)) flag &= ~apsp::OperandMark::kSmall;
        if (v < apsp::kInf) flag &= ~apsp::OperandMark::kNoFinite;
        least = std::min(least, v);
      }
    out[size_t(id)] = flag;
    out[size_t(id + kLeast)] = least;
  }
  return out;
}

TEST(StripMarks, RunsOfEntriesMarkAsEntriesOneByOne) {
  apsp::DistanceMatrix<Host, int32_t> d(int64_t(kB) * kTiles, kB);
  const int64_t n = d.n;
  std::mt19937 rng(31);
  for (int64_t e = 0; e < n * n; ++e) d.data(e) = rng() % 4 == 0 ? apsp::kInf : int32_t(rng() % 2000);
  const auto fill = [&](int64_t r0, int64_t c0, int rows, int cols, int32_t v) {
    for (int64_t r = r0; r < r0 + rows; ++r)
      for (int64_t c = c0; c < c0 + cols; ++c) d.data(r * n + c) = v;
  };
  fill(0, int64_t(kFirst) * kB, kB, kRounds * kB, apsp::kInf);                // row strip 0: INF alone
  fill(int64_t(kFirst) * kB, int64_t(7) * kB, kRounds * kB, kB, apsp::kInf);  // column strip 7: INF alone
  // Entry (r, c) of tile (tile_row, tile_col).
  const auto at = [&](int64_t tile_row, int64_t r, int64_t tile_col, int64_t c) {
    return (tile_row * kB + r) * n + tile_col * kB + c;
  };
  d.data(at(3, 5, kFirst + 3, 15)) = 40000;  // row strip 3: one large entry, last of a run
  d.data(at(kFirst + 2, 9, 1, 0)) = 70000;   // column strip 1: one, first of a run
  d.data(at(6, 2, kFirst, 8)) = 0;           // row strip 6: its least entry, 0
  const std::vector<int32_t> expected = marks_of_entries(d);
  EXPECT_EQ(expected[0], apsp::OperandMark::kSmall | apsp::OperandMark::kNoFinite);
  EXPECT_EQ(expected[3] & apsp::OperandMark::kSmall, 0);
  EXPECT_EQ(expected[size_t(6 + kLeast)], 0);

  EXPECT_EQ(strip_marks<NarrowOps>(d), expected);
  CountingHip::runs = 0;
  EXPECT_EQ(strip_marks<WideOps>(d), expected);
  // Every entry of both strips read once, apsp::kMarkRun at a time.
  EXPECT_EQ(CountingHip::runs.load(), 2 * int64_t(kTiles) * kB * kRounds * kB / apsp::kMarkRun);
}

}  // namespace
