// SPDX-License-Identifier: BSD-3-Clause
// Large host arrays in transparent huge pages where the system grants them: a device pins them
// in half the time (960 MB of edges read ahead: 0.019 s against 0.036-0.043 s on an H200 host)
// and they are freed in a tenth (0.002 s against 0.027-0.030 s); docs/results-log.md.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>

namespace apsp {

/// The huge page that a mapping asks for (x86-64's and most Arm kernels' transparent huge page).
inline constexpr size_t kHugePageBytes = size_t(2) << 20;

/// An anonymous mapping asked for huge pages (MADV_HUGEPAGE, 2 MiB-aligned), or none.
struct HugePageMapping {
  void* data = nullptr;  ///< `bytes` usable from here, aligned to 2 MiB
  void* base = nullptr;  ///< what to unmap: `mapped` bytes from here
  size_t mapped = 0;
};

/// A mapping for `bytes`, its pages not yet touched; none (data null) below one huge page or
/// where the system cannot map it. Where the system gives no huge pages (THP "never", or none
/// free), its pages are ordinary ones.
HugePageMapping map_huge_pages(size_t bytes);
void unmap_huge_pages(const HugePageMapping& m) noexcept;

/// A huge page of a fresh mapping came slowly (resident_pieces.hpp): the system had none at hand.
void note_slow_huge_page() noexcept;
/// How long note_slow_huge_page holds at most.
inline constexpr std::chrono::milliseconds kSlowHugePageMemory{1000};
/// A huge page came slowly less than kSlowHugePageMemory ago, and since then this process has
/// unmapped less than `bytes` (memory it frees may give huge pages back): a new mapping of
/// `bytes` would find none at hand either (a run's round operands after its matrix).
bool huge_pages_recently_slow(size_t bytes) noexcept;

/// Makes the pages of [pages, pages + bytes) (whole pages) resident and writable without
/// changing a byte (MADV_POPULATE_WRITE, Linux 5.14), one huge page's worth per call; false where
/// the kernel refuses (an older one: EINVAL; no memory, or no space for a file's pages).
bool populate_writable(void* pages, size_t bytes);

/// populate_writable over the whole pages inside [data, data + bytes), in pieces on up to
/// `threads` threads, so that a later pass writes without a fault per page: what a device run
/// does with host threads that would otherwise wait for the GPU. Best effort: where the kernel
/// refuses, the pages fault as usual.
void make_pages_resident(void* data, size_t bytes, int threads);

/// The most threads worth making fresh pages resident with: an H200 host did so for tmpfs pages at
/// 4.5 GB/s with one thread, 12.9 with 4, and only 6.8 with 8 (scripts/page_rate.sh,
/// docs/results-log.md).
inline constexpr int kPopulateThreads = 4;

/// The alignment of every heap_array and huge_page_array at least: a cache line, the widest
/// vector load.
inline constexpr size_t kHostArrayAlignment = 64;

/// `count` uninitialised values of T from the heap (large ones in pages of the system's usual
/// size), aligned to kHostArrayAlignment, freed with its last owner.
template <class T>
std::shared_ptr<T[]> heap_array(size_t count) {
  static_assert(std::is_trivially_default_constructible_v<T> && std::is_trivially_destructible_v<T>,
                "the values are left uninitialised and never destroyed");
  constexpr std::align_val_t align{kHostArrayAlignment};
  return std::shared_ptr<T[]>(static_cast<T*>(::operator new[](count * sizeof(T), align)),
                              [](T* p) { ::operator delete[](p, align); });
}

/// `count` uninitialised values of T: in huge pages where map_huge_pages gives them, else a
/// heap_array. Either way freed with its last owner.
template <class T>
std::shared_ptr<T[]> huge_page_array(size_t count) {
  const HugePageMapping m = map_huge_pages(count * sizeof(T));
  if (m.data == nullptr) return heap_array<T>(count);
  return std::shared_ptr<T[]>(static_cast<T*>(m.data), [m](T*) { unmap_huge_pages(m); });
}

}  // namespace apsp
