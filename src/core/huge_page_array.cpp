// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/core/huge_page_array.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>

#include "apsp/core/helper_thread.hpp"

// Linux 5.14's MADV_POPULATE_WRITE: fault every page in, writable, in one call.
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

namespace apsp {
namespace {
// populate_writable's unit: each call holds the process's mmap lock for this much.
constexpr size_t kPopulatePiece = kHugePageBytes;
}  // namespace

HugePageMapping map_huge_pages(size_t bytes) {
#if defined(MADV_HUGEPAGE)
  if (bytes < kHugePageBytes) return {};
  const size_t rounded = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  // One huge page more than needed, so that the part used can start on a 2 MiB boundary (the
  // kernel backs only aligned 2 MiB ranges with huge pages).
  const size_t mapped = rounded + kHugePageBytes;
  void* base = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) return {};
  char* data =
      static_cast<char*>(base) + (kHugePageBytes - reinterpret_cast<uintptr_t>(base) % kHugePageBytes) % kHugePageBytes;
  // Advice only: refused (THP "never", or a kernel without it), the pages are 4 KiB ones.
  (void)::madvise(data, rounded, MADV_HUGEPAGE);
  return {data, base, mapped};
#else
  (void)bytes;
  return {};
#endif
}

namespace {
using Clock = std::chrono::steady_clock;
/// When a huge page last came slowly (Clock ticks; 0: never), and the bytes unmapped since.
std::atomic<Clock::rep> slow_huge_page_at{0};
std::atomic<size_t> unmapped_since_slow{0};
}  // namespace

void unmap_huge_pages(const HugePageMapping& m) noexcept {
  if (m.base == nullptr) return;
  ::munmap(m.base, m.mapped);
  unmapped_since_slow.fetch_add(m.mapped, std::memory_order_relaxed);
}

void note_slow_huge_page() noexcept {
  unmapped_since_slow.store(0, std::memory_order_relaxed);
  slow_huge_page_at.store(std::max<Clock::rep>(1, Clock::now().time_since_epoch().count()), std::memory_order_relaxed);
}

bool huge_pages_recently_slow(size_t bytes) noexcept {
  const Clock::rep at = slow_huge_page_at.load(std::memory_order_relaxed);
  return at != 0 && Clock::now() - Clock::time_point(Clock::duration(at)) < kSlowHugePageMemory &&
         unmapped_since_slow.load(std::memory_order_relaxed) < bytes;
}

bool populate_writable(void* pages, size_t bytes) {
  // One call per huge page's worth. Each madvise holds the process's mmap lock, which every mmap
  // and munmap (a GPU driver's too) waits for: beside a thread populating 1 GB, a 1 MiB mmap +
  // munmap took 134-621 us on average (worst 170-801 ms) with 64 MiB calls, 19-30 us (worst
  // 19-24 ms) with 2 MiB ones (2-vCPU EPYC VM, usual pages).
  for (size_t off = 0; off < bytes; off += kPopulatePiece)
    if (::madvise(static_cast<char*>(pages) + off, std::min(kPopulatePiece, bytes - off), MADV_POPULATE_WRITE) != 0)
      return false;
  return true;
}

void make_pages_resident(void* data, size_t bytes, int threads) {
  const auto page = uintptr_t(::sysconf(_SC_PAGESIZE));
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + page - 1) / page * page;
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) / page * page;
  if (end <= begin) return;
  // Pieces of populate_writable's call, taken in order.
  const auto pieces = int64_t((end - begin + kPopulatePiece - 1) / kPopulatePiece);
  std::atomic<int64_t> next{0};
  std::atomic<bool> refused{false};  // a kernel without MADV_POPULATE_WRITE: the pages fault later
  on_threads(int(std::clamp<int64_t>(threads, 1, pieces)), [&](int) {
    for (int64_t i; !refused && (i = next++) < pieces;) {
      const uintptr_t b = begin + uintptr_t(i) * kPopulatePiece, e = std::min<uintptr_t>(end, b + kPopulatePiece);
      // NOLINTNEXTLINE(performance-no-int-to-ptr): whole pages of the caller's range
      if (!populate_writable(reinterpret_cast<void*>(b), e - b)) refused = true;
    }
  });
}

}  // namespace apsp
