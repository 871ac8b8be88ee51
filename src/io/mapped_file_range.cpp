// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/io/mapped_file_range.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

namespace apsp {

MappedFileRange::MappedFileRange(int fd, int64_t begin, int64_t end, const std::string& path) {
  if (end <= begin) return;
  const int rc = ::posix_fallocate(fd, begin, end - begin);
  if (rc == EOPNOTSUPP || rc == EINVAL) return;  // a mapping of unallocated blocks could fault (SIGBUS)
  if (rc != 0)
    throw std::runtime_error(path + ": cannot allocate " + std::to_string(end - begin) +
                             " bytes for the output: " + std::strerror(rc));
  const int64_t page = ::sysconf(_SC_PAGESIZE), base = begin / page * page;
  void* p = ::mmap(nullptr, size_t(end - base), PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, base);
  if (p == MAP_FAILED) return;
  map_ = static_cast<char*>(p);
  base_ = base;
  begin_ = begin;
  end_ = end;
  constexpr long kTmpfsMagic = 0x01021994;
  struct statfs fs {};
  in_memory_ = ::fstatfs(fd, &fs) == 0 && long(fs.f_type) == kTmpfsMagic;
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
  }
  return *this;
}

void MappedFileRange::unmap() {
  if (map_ != nullptr) ::munmap(map_, size_t(end_ - base_));
  map_ = nullptr;
}

void MappedFileRange::copy_rows(const int32_t* data, int64_t first_row, int64_t rows, int64_t cols, int64_t ld,
                                int threads) const {
  const int64_t row_bytes = cols * int64_t(sizeof(int32_t));
  char* dst = map_ + (first_row * row_bytes - base_);
  threads = static_cast<int>(std::clamp<int64_t>(threads, 1, std::max<int64_t>(rows, 1)));
  std::vector<std::thread> pool;
  pool.reserve(size_t(threads));
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([=] {
      for (int64_t r = rows * t / threads; r < rows * (t + 1) / threads; ++r)
        std::memcpy(dst + r * row_bytes, data + r * ld, size_t(row_bytes));
    });
  for (auto& th : pool) th.join();
}

}  // namespace apsp
