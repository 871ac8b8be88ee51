// SPDX-License-Identifier: BSD-3-Clause
// The HIP execution and memory spaces under one name: Kokkos 3.x has them in
// Kokkos::Experimental, Kokkos 4 in Kokkos.
#pragma once

#include <Kokkos_Core.hpp>

namespace apsp::hip {
#if KOKKOS_VERSION >= 40000
using Space = Kokkos::HIP;
using HostPinnedSpace = Kokkos::HIPHostPinnedSpace;
#else
using Space = Kokkos::Experimental::HIP;
using HostPinnedSpace = Kokkos::Experimental::HIPHostPinnedSpace;
#endif
}  // namespace apsp::hip
