// SPDX-License-Identifier: BSD-3-Clause
// What the tests of a GPU backend's tile code on the host share (test_register_tiles.cpp,
// test_packed_tiles.cpp, test_round_operands.cpp): a team of host threads with a real barrier,
// each running the very function a GPU thread runs, the slice buffers of a tile shape, the
// min-plus product entry by entry, and HIP's shape with CUDA's 16-bit product emulated.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "apsp/backends/backend_traits.hpp"
#include "apsp/solver/gpu/register_tiles.hpp"
#include "apsp/solver/gpu/slice_staging.hpp"

// Outside the unnamed namespace: nvcc's device pass, which compiles the barrier out, would
// otherwise warn that arrive_and_wait() is never referenced.
namespace register_tiles_test {

/// A team of host threads: team_rank() and team_barrier(), all that gpu/register_tiles.hpp asks of a team.
class HostTeam {
 public:
  struct Barrier {
    std::mutex m;
    std::condition_variable cv;
    int size, waiting = 0;
    long generation = 0;
    bool all = true, last_all = true;  // the vote being taken, and the last one's outcome
    explicit Barrier(int n) : size(n) {}
    /// Waits for the whole team; returns whether every thread passed v = true.
    bool arrive_and_wait(bool v = true) {
      std::unique_lock<std::mutex> lock(m);
      const long g = generation;
      all = all && v;
      if (++waiting == size) {
        waiting = 0;
        last_all = all;
        all = true;
        ++generation;
        cv.notify_all();
      } else {
        cv.wait(lock, [&] { return generation != g; });
      }
      // The next vote cannot end before this thread joins it: last_all is still this one's.
      return last_all;
    }
  };
  HostTeam(int rank, Barrier* barrier) : rank_(rank), barrier_(barrier) {}
  // Host and device functions like the tile code that calls them (a CUDA build compiles this
  // file with nvcc); they only ever run on the host.
  KOKKOS_INLINE_FUNCTION int team_rank() const { return rank_; }
  KOKKOS_INLINE_FUNCTION void team_barrier() const {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    barrier_->arrive_and_wait();
#endif
  }
  /// A barrier that returns whether v holds on every thread (CUDA's __syncthreads_and).
  KOKKOS_INLINE_FUNCTION bool team_all(bool v) const {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    return barrier_->arrive_and_wait(v);
#else
    return v;
#endif
  }

  /// Runs f(team) on `threads` threads, one team.
  template <class F>
  static void run(int threads, F f) {
    Barrier barrier(threads);
    std::vector<std::thread> pool;
    pool.reserve(size_t(threads));
    for (int r = 0; r < threads; ++r) pool.emplace_back([&, r] { f(HostTeam(r, &barrier)); });
    for (auto& t : pool) t.join();
  }

 private:
  int rank_;
  Barrier* barrier_;
};

template <class Traits>
struct Shape {
  using Ops = apsp::Impl::RegisterTiles<Traits>;
  using Layout = apsp::Impl::SliceLayout<Traits>;
  static int threads(int B) { return Traits::team_size(B); }
  /// Slice buffers as a GPU team's scratch, 16-byte aligned, every entry a value no staged
  /// entry has (a run left unstaged shows in the result).
  static std::vector<int32_t> scratch(int B) {
    return std::vector<int32_t>(size_t(Layout::kBuffers) * apsp::Impl::slice_buffer_ints<Traits>(B) + 4, -7777);
  }
};

/// Entry (r, j) of the matrix of leading dimension ld whose corner is at `corner`.
inline size_t at(int64_t corner, int64_t r, int64_t ld, int64_t j) { return size_t(corner + r * ld + j); }

/// The tile product entry by entry: c(r, j) = min(c(r, j), min over p < pivots of a(r, p) + bk(p, j)).
inline void reference_product(std::vector<int32_t>& m, int64_t ld, int64_t c, int64_t a, int64_t bk, int B,
                              int pivots) {
  std::vector<int32_t> out(size_t(B) * size_t(B));
  for (int r = 0; r < B; ++r)
    for (int j = 0; j < B; ++j) {
      int32_t best = m[at(c, r, ld, j)];
      for (int p = 0; p < pivots; ++p) {
        const int32_t s = m[at(a, r, ld, p)] + m[at(bk, p, ld, j)];
        best = s < best ? s : best;
      }
      out[at(0, r, B, j)] = best;
    }
  for (int r = 0; r < B; ++r)
    for (int j = 0; j < B; ++j) m[at(c, r, ld, j)] = out[at(0, r, B, j)];
}

/// The HIP tile shape with the tuned product in 16-bit lanes where a tile allows it, as CUDA's
/// on sm_90 (gpu/packed_tiles.hpp), its packed add-min emulated: the packed product's staging,
/// layout, vote and exactness run here through the very templates a GPU runs.
struct PackedHip : apsp::HipBackendTraits {
  static constexpr bool kPackedTiles = true;
  static inline std::atomic<int> packed_teams{0};  // teams whose vote chose the packed product
  KOKKOS_INLINE_FUNCTION static int32_t packed_min_plus(int32_t c, int32_t a, int32_t b) {
    return apsp::Impl::portable_packed_min_plus(c, a, b);
  }
  template <class Team>
  KOKKOS_INLINE_FUNCTION static bool team_all(const Team& team, bool v) {
    const bool all = team.team_all(v);
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    if (all && team.team_rank() == 0) ++packed_teams;
#endif
    return all;
  }
};

}  // namespace register_tiles_test
