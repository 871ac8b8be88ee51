// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/core/resident_pieces.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "apsp/core/helper_thread.hpp"
#include "apsp/core/huge_page_array.hpp"

namespace apsp {
namespace {

constexpr size_t kPiece = kHugePageBytes;

/// Pages of a fresh mapping made resident: MADV_POPULATE_WRITE, or where the kernel refuses it
/// (an older one), a zero written to each page, which the kernel cleared already.
void populate_fresh(char* pages, size_t bytes, size_t page) {
  static std::atomic<bool> refused{false};
  if (!refused && populate_writable(pages, bytes)) return;
  refused = true;
  for (size_t at = 0; at < bytes; at += page) static_cast<volatile char*>(pages)[at] = 0;
}

}  // namespace

ResidentPieces::ResidentPieces(void* data, size_t bytes, int shares, double slow_seconds, bool huge_first)
    : data_(static_cast<char*>(data)), shares_(std::max(shares, 1)), slow_seconds_(slow_seconds) {
  const auto page = size_t(::sysconf(_SC_PAGESIZE));
  end_ = (bytes + page - 1) / page * page;  // whole pages, all inside the mapping
  const auto pieces = int64_t((end_ + kPiece - 1) / kPiece);
  runs_ = std::make_unique<Run[]>(size_t(shares_));
  for (int s = 0; s < shares_; ++s) {
    const auto [first, last] = thread_share(pieces, s, shares_);
    runs_[size_t(s)].next = first;
    runs_[size_t(s)].last = last;
  }
  if (!huge_first) {
#if defined(MADV_NOHUGEPAGE)
    (void)::madvise(data_, end_, MADV_NOHUGEPAGE);
#endif
    for (int s = 0; s < shares_; ++s) runs_[size_t(s)].usual = true;
  }
}

int64_t ResidentPieces::run(int share) {
  int64_t quick = 0;
  for (int k = 0; k < shares_; ++k) {  // its own run first, then the others' rests
    Run& r = runs_[size_t((share + k) % shares_)];
    for (int64_t piece; (piece = r.next++) < r.last;) quick += make_resident(r, piece) ? 1 : 0;
  }
  return quick;
}

bool ResidentPieces::make_resident(Run& run, int64_t piece) {
  const size_t from = size_t(piece) * kPiece, to = std::min(end_, from + kPiece);
  const bool asked_huge = !run.usual.load(std::memory_order_relaxed);
  const auto t0 = std::chrono::steady_clock::now();
  populate_fresh(data_ + from, to - from, size_t(::sysconf(_SC_PAGESIZE)));
  if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() <= slow_seconds_) return true;
  if (asked_huge) note_slow_huge_page();
  if (!run.usual.exchange(true)) {  // the rest of the run in usual pages, which the system has at hand
#if defined(MADV_NOHUGEPAGE)
    const size_t rest_end = std::min(end_, size_t(run.last) * kPiece);
    if (rest_end > to) (void)::madvise(data_ + to, rest_end - to, MADV_NOHUGEPAGE);
#endif
  }
  return false;
}

}  // namespace apsp
