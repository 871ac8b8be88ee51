// SPDX-License-Identifier: BSD-3-Clause
// Host arrays (core/huge_page_array.hpp) that Kokkos Tools see as allocations by their label,
// as they see the Views that Kokkos allocates itself: a memory tool lists the distance matrix and
// the round operands, which the solver allocates itself so that their memory can outlive a View.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <memory>
#include <string>

#include "apsp/core/huge_page_array.hpp"

namespace apsp {

/// Pages of the system's usual size, or huge pages where it grants them.
enum class PageSize { usual, huge };

/// `count` uninitialised values of T (a heap_array, or a huge_page_array), announced to Kokkos
/// Tools (when a tool is loaded) under `label` in HostSpace, until the last owner lets go (which
/// may be after Kokkos has ended: the Python package's arrays outlive it).
template <class T>
std::shared_ptr<T[]> labelled_host_pages(size_t count, const std::string& label, PageSize size) {
  std::shared_ptr<T[]> pages = size == PageSize::huge ? huge_page_array<T>(count) : heap_array<T>(count);
  if (!Kokkos::Tools::profileLibraryLoaded()) return pages;
  const auto space = Kokkos::Tools::make_space_handle(Kokkos::HostSpace::name());
  const uint64_t bytes = count * sizeof(T);
  Kokkos::Tools::allocateData(space, label, pages.get(), bytes);
  return std::shared_ptr<T[]>(pages.get(), [pages, space, label, bytes](T* p) mutable {
    if (Kokkos::Tools::profileLibraryLoaded()) Kokkos::Tools::deallocateData(space, label, p, bytes);
    pages.reset();
  });
}

}  // namespace apsp
