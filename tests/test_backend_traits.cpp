// SPDX-License-Identifier: BSD-3-Clause
// Backend traits whose device form is one instruction, run where the kernels run them, against
// their definition written out here: the 16-bit product's capped pack (gpu/packed_tiles.hpp), which
// CUDA on sm_90 does with cvt.pack.sat (I2IP).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "apsp/core/constants.hpp"
#include "backends_under_test.hpp"

namespace apsp::test {
namespace {

// Values around the cap (2^15 - 1), the 16-bit boundary, INF and the largest int32.
const std::vector<int32_t> kValues = {0, 1, 0x7ffe, 0x7fff, 0x8000, 0xfffe, 0xffff, 0x10000, 0x17fff, kInf, 0x7fffffff};

// min(lo, 2^15 - 1) in the low half and min(hi, 2^15 - 1) in the high half.
uint32_t capped_pair(int32_t lo, int32_t hi) {
  const auto cap = [](int32_t v) { return v < 0x7fff ? uint32_t(v) : 0x7fffu; };
  return cap(lo) | cap(hi) << 16;
}

// out(i * n + j) = pack_capped(values(i), values(j)), n values.
template <class ExecSpace, class Traits>
struct PackAll {
  Kokkos::View<const int32_t*, typename ExecSpace::memory_space> values;
  Kokkos::View<int32_t*, typename ExecSpace::memory_space> out;
  KOKKOS_INLINE_FUNCTION void operator()(int t) const {
    const int n = int(values.extent(0));
    out(t) = Traits::pack_capped(values(t / n), values(t % n));
  }
};

// Every (lo, hi) pair of kValues packed by ExecSpace's traits on ExecSpace.
template <class ExecSpace>
std::vector<int32_t> packed_on(const ExecSpace& exec) {
  using Space = typename ExecSpace::memory_space;
  const int n = int(kValues.size());
  Kokkos::View<int32_t*, Space> values("values", n), out("out", n * n);
  auto h = Kokkos::create_mirror_view(values);
  for (int i = 0; i < n; ++i) h(i) = kValues[size_t(i)];
  Kokkos::deep_copy(values, h);
  Kokkos::parallel_for(Kokkos::RangePolicy<ExecSpace>(exec, 0, n * n),
                       PackAll<ExecSpace, BackendTraits<ExecSpace>>{values, out});
  auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  return std::vector<int32_t>(r.data(), r.data() + r.extent(0));
}

template <class ExecSpace>
class BackendTraitsOnDevice : public ::testing::Test {};
TYPED_TEST_SUITE(BackendTraitsOnDevice, Backends, BackendName);

TYPED_TEST(BackendTraitsOnDevice, PackCappedIsTwoCappedHalves) {
  if constexpr (!BackendTraits<TypeParam>::kRegisterTiles) {
    GTEST_SKIP() << "a CPU backend has no 16-bit product of register tiles";
  } else {
    const std::vector<int32_t> got = packed_on(TypeParam());
    const size_t n = kValues.size();
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j)
        EXPECT_EQ(uint32_t(got[i * n + j]), capped_pair(kValues[i], kValues[j]))
            << "lo " << kValues[i] << ", hi " << kValues[j];
  }
}

// The portable form every register-tile backend inherits (the HIP build, and the host tests
// of the packed product), on the host.
TEST(BackendTraits, PortablePackCappedIsTwoCappedHalves) {
  for (int32_t lo : kValues)
    for (int32_t hi : kValues)
      EXPECT_EQ(uint32_t(HipBackendTraits::pack_capped(lo, hi)), capped_pair(lo, hi)) << lo << ", " << hi;
}

}  // namespace
}  // namespace apsp::test
