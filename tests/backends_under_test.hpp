// SPDX-License-Identifier: BSD-3-Clause
// Every execution space the Kokkos build enables; typed tests run over all of them.
#pragma once

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

namespace apsp::test {

template <class... T>
struct List {};
template <class L, class T>
struct Append;
template <class... T, class U>
struct Append<List<T...>, U> {
  using type = List<T..., U>;
};
template <class L>
struct ToGtest;
template <class... T>
struct ToGtest<List<T...>> {
  using type = ::testing::Types<T...>;
};

using L0 = List<>;
#if defined(KOKKOS_ENABLE_SERIAL)
using L1 = Append<L0, Kokkos::Serial>::type;
#else
using L1 = L0;
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
using L2 = Append<L1, Kokkos::OpenMP>::type;
#else
using L2 = L1;
#endif
#if defined(KOKKOS_ENABLE_CUDA)
using L3 = Append<L2, Kokkos::Cuda>::type;
#else
using L3 = L2;
#endif

using Backends = ToGtest<L3>::type;

struct BackendName {
  template <class T>
  static std::string GetName(int) {
    return T::name();
  }
};

}  // namespace apsp::test
