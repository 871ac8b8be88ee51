// SPDX-License-Identifier: BSD-3-Clause
// Host arrays (core/huge_page_array.hpp) that Kokkos Tools see as allocations by their label,
// as they see the Views that Kokkos allocates itself: a memory tool lists the distance matrix and
// the round operands, which the solver allocates itself so that their memory can outlive a View.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>

#include "apsp/core/huge_page_array.hpp"
#include "apsp/core/resident_pieces.hpp"

namespace apsp {

/// Pages of the system's usual size; huge pages where it grants them; or `resident`: huge pages
/// while the system hands them out quickly, usual ones after, every page resident on return
/// (resident_pages).
enum class PageSize { usual, huge, resident };

/// `count` uninitialised values of T made resident by ExecSpace's threads, each the contiguous
/// share that an even pass over the array gives it, in huge pages while they come quickly
/// (ResidentPieces), and in usual pages from the start where a huge page came slowly a moment ago
/// and less than this array was unmapped since (huge_pages_recently_slow): a run's round operands
/// after its matrix, whose 14.7 MB took 2.8-5.4 ms so against 0.8-22.5 ms with a slow huge page
/// per thread first (2-vCPU EPYC, V = 4000, the package's first call). A heap_array where no
/// mapping is to be had (below 2 MiB). A run's first touch of fresh memory is most of what it
/// spends outside the solve on a small machine: 128 MB of usual pages took 31-45 ms by first
/// writes on the 2-vCPU EPYC VM, 24-35 ms made resident this way, 8-12 ms in huge pages the host
/// still held (docs/python.md).
template <class ExecSpace, class T>
std::shared_ptr<T[]> resident_pages(size_t count) {
  const size_t bytes = count * sizeof(T);
  const HugePageMapping m = map_huge_pages(bytes);
  if (m.data == nullptr) return heap_array<T>(count);
  const int shares = std::max(1, int(ExecSpace().concurrency()));
  ResidentPieces pieces(m.data, bytes, shares, kSlowHugePageSeconds, !huge_pages_recently_slow(bytes));
  ResidentPieces* const each = &pieces;
  Kokkos::parallel_for("apsp::resident_pages", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int>>(0, shares),
                       [=](int share) { (void)each->run(share); });
  ExecSpace().fence();
  return std::shared_ptr<T[]>(static_cast<T*>(m.data), [m](T*) { unmap_huge_pages(m); });
}

/// `count` uninitialised values of T (a heap_array, a huge_page_array, or resident_pages made by
/// ExecSpace's threads), announced to Kokkos Tools (when a tool is loaded) under `label` in
/// HostSpace, until the last owner lets go (which may be after Kokkos has ended: the Python
/// package's arrays outlive it).
template <class T, class ExecSpace = Kokkos::DefaultHostExecutionSpace>
std::shared_ptr<T[]> labelled_host_pages(size_t count, const std::string& label, PageSize size) {
  std::shared_ptr<T[]> pages = size == PageSize::huge       ? huge_page_array<T>(count)
                               : size == PageSize::resident ? resident_pages<ExecSpace, T>(count)
                                                            : heap_array<T>(count);
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
