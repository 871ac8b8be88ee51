// SPDX-License-Identifier: BSD-3-Clause
// The one list of the execution spaces this build runs on, in the order the program prefers
// them. Dispatch by name (`--backend`), `--list-backends` and the typed tests all read it.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <string>
#include <vector>

#include "apsp/backends/backend_runtime.hpp"
#include "apsp/backends/backend_traits.hpp"

namespace apsp {

template <class... Spaces>
struct SpaceList {};

namespace Impl {
template <class List, class Space, bool kEnabled>
struct AppendIf {
  using type = List;
};
template <class... Spaces, class Space>
struct AppendIf<SpaceList<Spaces...>, Space, true> {
  using type = SpaceList<Spaces..., Space>;
};
#if defined(KOKKOS_ENABLE_CUDA)
using WithCuda = SpaceList<Kokkos::Cuda>;
#else
using WithCuda = SpaceList<>;
#endif
#if defined(KOKKOS_ENABLE_HIP)
using WithHip = AppendIf<WithCuda, hip::Space, true>::type;
#else
using WithHip = WithCuda;
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
using WithOpenMP = AppendIf<WithHip, Kokkos::OpenMP, true>::type;
#else
using WithOpenMP = WithHip;
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
using WithSerial = AppendIf<WithOpenMP, Kokkos::Serial, true>::type;
#else
using WithSerial = WithOpenMP;
#endif
}  // namespace Impl

/// Every execution space of this build that has BackendTraits and BackendRuntime.
using EnabledBackends = Impl::WithSerial;

/// A type carried as a value, so that a generic lambda learns which space it was called for.
template <class ExecSpace>
struct SpaceTag {
  using type = ExecSpace;
};

namespace Impl {
template <class F, class... Spaces>
void for_each_in(F& f, SpaceList<Spaces...> /*list*/) {
  (f(SpaceTag<Spaces>{}), ...);
}
}  // namespace Impl

/// Calls f(SpaceTag<ExecSpace>{}) for each enabled execution space, in the list's order.
template <class F>
void for_each_backend(F&& f) {
  Impl::for_each_in(f, EnabledBackends{});
}

/// Names of the enabled execution spaces, Kokkos' default first.
inline std::vector<std::string> enabled_backend_names() {
  std::vector<std::string> names{Kokkos::DefaultExecutionSpace::name()};
  for_each_backend([&](auto tag) {
    const std::string n = decltype(tag)::type::name();
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  });
  return names;
}

namespace Impl {
inline bool same_name(std::string a, std::string b) {
  auto lower = [](std::string& s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  };
  lower(a);
  lower(b);
  return a == b;
}
template <class F, class First, class... Rest>
auto dispatch_in(const std::string& name, F& f, SpaceList<First, Rest...>) {
  if (same_name(name, First::name())) return f(SpaceTag<First>{});
  if constexpr (sizeof...(Rest) > 0) {
    return dispatch_in(name, f, SpaceList<Rest...>{});
  } else {
    std::string list;
    for (const auto& b : enabled_backend_names()) list += (list.empty() ? "" : ", ") + b;
    throw std::invalid_argument("backend '" + name + "' is not enabled in this build (enabled: " + list + ")");
  }
}
}  // namespace Impl

/// Calls f(SpaceTag<ExecSpace>{}) for the enabled execution space named `backend` (any case;
/// "" = Kokkos' default). Throws std::invalid_argument for a name this build does not enable.
template <class F>
auto dispatch_backend(const std::string& backend, F&& f) {
  const std::string name = backend.empty() ? Kokkos::DefaultExecutionSpace::name() : backend;
  return Impl::dispatch_in(name, f, EnabledBackends{});
}

/// GPUs this process can see (0 in a build without a GPU backend). Callable before Kokkos is
/// initialised, so that each MPI rank can pick its own.
inline int visible_gpus() {
  int gpus = 0;
  for_each_backend([&](auto tag) { gpus += BackendRuntime<typename decltype(tag)::type>::visible_devices(); });
  return gpus;
}

/// The GPUs this process can see, "0: NAME, 1: NAME" ("" where none, or in a host build), as callable.
inline std::string visible_gpu_names() {
  std::string names;
  for_each_backend([&](auto tag) {
    const std::string n = BackendRuntime<typename decltype(tag)::type>::visible_device_names();
    names += (names.empty() || n.empty() ? "" : ", ") + n;
  });
  return names;
}

/// Whether the build enables a backend that computes on a device (Kokkos then starts it, and a
/// device id must name one of its GPUs).
inline bool has_device_backend() {
  bool device = false;
  for_each_backend([&](auto tag) {
    using Space = typename decltype(tag)::type;
    device = device || !Kokkos::SpaceAccessibility<typename Space::memory_space, Kokkos::HostSpace>::accessible;
  });
  return device;
}

}  // namespace apsp
