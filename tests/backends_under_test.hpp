// SPDX-License-Identifier: BSD-3-Clause
// Typed tests run over every execution space the build enables (include/apsp/backends/enabled_backends.hpp).
#pragma once

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <string>

#include "apsp/backends/enabled_backends.hpp"

namespace apsp::test {

template <class List>
struct ToGtest;
template <class... Spaces>
struct ToGtest<SpaceList<Spaces...>> {
  using type = ::testing::Types<Spaces...>;
};

using Backends = ToGtest<EnabledBackends>::type;

struct BackendName {
  template <class T>
  static std::string GetName(int /*index*/) {
    return T::name();
  }
};

}  // namespace apsp::test
