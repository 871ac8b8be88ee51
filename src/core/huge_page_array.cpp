// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/core/huge_page_array.hpp"

#include <sys/mman.h>

#include <cstdint>

namespace apsp {

HugePageMapping map_huge_pages(size_t bytes) {
#if defined(MADV_HUGEPAGE)
  constexpr size_t kHuge = size_t(2) << 20;
  if (bytes < kHuge) return {};
  const size_t rounded = (bytes + kHuge - 1) / kHuge * kHuge;
  // One huge page more than needed, so that the part used can start on a 2 MiB boundary (the
  // kernel backs only aligned 2 MiB ranges with huge pages).
  const size_t mapped = rounded + kHuge;
  void* base = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) return {};
  char* data = static_cast<char*>(base) + (kHuge - reinterpret_cast<uintptr_t>(base) % kHuge) % kHuge;
  // Advice only: refused (THP "never", or a kernel without it), the pages are 4 KiB ones.
  (void)::madvise(data, rounded, MADV_HUGEPAGE);
  return {data, base, mapped};
#else
  (void)bytes;
  return {};
#endif
}

void unmap_huge_pages(const HugePageMapping& m) noexcept {
  if (m.base != nullptr) ::munmap(m.base, m.mapped);
}

}  // namespace apsp
