// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/io/mapped_file_range.hpp"
#include "apsp/core/helper_thread.hpp"
#include "apsp/core/huge_page_array.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace apsp {

namespace {
// The one line for an output whose blocks cannot be had (errno-style `err`).
std::runtime_error allocation_error(const std::string& path, int64_t bytes, int err) {
  return std::runtime_error(path + ": cannot allocate " + std::to_string(bytes) +
                            " bytes for the output: " + std::strerror(err));
}

}  // namespace

MappedFileRange::MappedFileRange(int fd, int64_t begin, int64_t end, const std::string& path) {
  if (end <= begin) return;
  constexpr long kTmpfsMagic = 0x01021994;
  struct statfs fs {};
  const bool tmpfs = ::fstatfs(fd, &fs) == 0 && long(fs.f_type) == kTmpfsMagic;
  if (tmpfs) {
    // On tmpfs fallocate zeroes every page on one thread (6.4 GB: 1.14 s on an H200 host,
    // the critical path of a run whose solve is shorter); prepare() allocates them as it makes
    // them resident, on several threads. The space is checked now, for the same early error.
    if (int64_t(fs.f_bavail) * int64_t(fs.f_bsize) < end - begin) throw allocation_error(path, end - begin, ENOSPC);
  } else {
    const int rc = ::posix_fallocate(fd, begin, end - begin);
    if (rc == EOPNOTSUPP || rc == EINVAL) return;  // a mapping of unallocated blocks could fault (SIGBUS)
    if (rc != 0) throw allocation_error(path, end - begin, rc);
  }
  const int64_t page = ::sysconf(_SC_PAGESIZE), base = begin / page * page;
  // Pages are populated by prepare(), in parallel: one thread populates about 2 GB/s of a
  // fresh tmpfs file (3.0 s for 6.4 GB on an H200 host), several threads about 5 GB/s.
  void* p = ::mmap(nullptr, size_t(end - base), PROT_WRITE, MAP_SHARED, fd, base);
  if (p == MAP_FAILED) return;
  map_ = static_cast<char*>(p);
  base_ = base;
  begin_ = begin;
  end_ = end;
  in_memory_ = tmpfs;
  fd_ = fd;
  path_ = path;
}

MappedFileRange::MappedFileRange(MappedFileRange&& other) noexcept { *this = std::move(other); }

MappedFileRange& MappedFileRange::operator=(MappedFileRange&& other) noexcept {
  if (this != &other) {
    unmap();
    std::swap(map_, other.map_);
    base_ = other.base_;
    begin_ = other.begin_;
    end_ = other.end_;
    in_memory_ = other.in_memory_;
    fd_ = other.fd_;
    path_ = std::move(other.path_);
  }
  return *this;
}

// MADV_POPULATE_WRITE allocates what it needs (on tmpfs, where nothing was allocated up front)
// and reports a shortage as an error, never as SIGBUS.
void MappedFileRange::populate(int64_t first_page, int64_t end) const {
  char* p = map_ + (first_page - base_);
  const size_t bytes = size_t(end - first_page);
  if (populate_writable(p, bytes)) return;
  // Older kernels (EINVAL), or no space: the blocks first where prepare() allocates them (one
  // clear error where they cannot be had), then a write fault per page. The file is new, so its
  // bytes are zeros: an atomic add of zero writes without changing a byte a copy may already
  // have put there.
  if (in_memory_)
    if (const int rc = ::posix_fallocate(fd_, first_page, off_t(bytes)); rc != 0)
      throw allocation_error(path_, int64_t(bytes), rc);
  const size_t page = size_t(::sysconf(_SC_PAGESIZE));
  for (size_t off = 0; off < bytes; off += page) __atomic_fetch_add(p + off, char(0), __ATOMIC_RELAXED);
}

void MappedFileRange::prepare(int threads, int pieces, int64_t grain,
                              const std::function<void(int64_t, int64_t)>& ready) const {
  if (map_ == nullptr || end_ <= begin_) return;
  const int64_t page = ::sysconf(_SC_PAGESIZE);
  const int64_t units = (end_ - begin_ + grain - 1) / grain;
  pieces = static_cast<int>(std::clamp<int64_t>(pieces, 1, units));
  threads = std::clamp(threads, 1, pieces);
  // Piece i is [cut(i), cut(i + 1)), whole grains from begin; pieces are taken in order, so the
  // first ones are ready first (a device may start copying into them).
  auto cut = [&](int i) { return std::min(end_, begin_ + units * i / pieces * grain); };
  std::atomic<int> next{0};
  on_threads(threads, [&](int) {
    try {
      for (int i; (i = next++) < pieces;) {
        const int64_t b = cut(i), e = cut(i + 1);
        populate(b / page * page, e);  // madvise takes whole pages
        ready(b, e);
      }
    } catch (...) {
      next = pieces;  // the other threads stop too
      throw;
    }
  });
}

void MappedFileRange::drop_view(int64_t begin, int64_t end) const {
  if (map_ == nullptr) return;
  const int64_t page = ::sysconf(_SC_PAGESIZE);
  const int64_t b = (std::max(begin, begin_) + page - 1) / page * page, e = std::min(end, end_) / page * page;
  // The pages stay the file's (a shared mapping), locked or not: on failure nothing is lost,
  // and unmap() drops them later.
  if (e > b) (void)::madvise(map_ + (b - base_), size_t(e - b), MADV_DONTNEED);
}

void MappedFileRange::unmap(int threads) {
  if (map_ == nullptr) return;
  const size_t bytes = size_t(end_ - base_);
  // munmap() tears a mapping's page tables down on one thread (0.27-0.40 s for 6.4 GB on an
  // H200 host). MADV_DONTNEED does the same work under the shared lock, so several threads can
  // each drop a range of it at once; the pages of a shared mapping are the file's and keep its
  // bytes (dirty pages stay dirty for write-back), so this only ends this process's view.
  constexpr size_t kPerThread = size_t(64) << 20;  // below that a thread costs more than it saves
  threads = static_cast<int>(std::clamp<size_t>(bytes / kPerThread, 1, size_t(std::max(threads, 1))));
  if (threads > 1) {
    const size_t page = size_t(::sysconf(_SC_PAGESIZE));
    on_threads(threads, [&](int t) {
      const size_t b = bytes * size_t(t) / size_t(threads) / page * page;
      const size_t e = t + 1 == threads ? bytes : bytes * size_t(t + 1) / size_t(threads) / page * page;
      if (e > b) ::madvise(map_ + b, e - b, MADV_DONTNEED);  // on failure munmap does it below
    });
  }
  ::munmap(map_, bytes);
  map_ = nullptr;
}

void MappedFileRange::copy_rows(const int32_t* data, int64_t first_row, int64_t rows, int64_t cols, int64_t ld,
                                int threads) const {
  const int64_t row_bytes = cols * int64_t(sizeof(int32_t));
  char* dst = map_ + (first_row * row_bytes - base_);
  threads = static_cast<int>(std::clamp<int64_t>(threads, 1, std::max<int64_t>(rows, 1)));
  on_threads(threads, [&](int t) {
    const auto [r0, r1] = thread_share(rows, t, threads);
    for (int64_t r = r0; r < r1; ++r) std::memcpy(dst + r * row_bytes, data + r * ld, size_t(row_bytes));
  });
}

}  // namespace apsp
