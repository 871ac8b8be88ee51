// SPDX-License-Identifier: BSD-3-Clause
// Bytes [begin, end) of an output file allocated ahead and mapped, so that rows of the result
// land there by parallel copies (or, on tmpfs, straight from a device).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace apsp {

/// Bytes [begin, end) of an open file, allocated (fallocate; on tmpfs by prepare(), its space
/// checked first) and mapped, its pages made resident by prepare(), so that rows of the result
/// land there by parallel copies (parallel writes to one tmpfs file serialise on its inode lock;
/// copies into a mapping do not). Independent of the result: a device run makes it while the GPU
/// computes. Empty (false) where the file system cannot allocate ahead or map; writes then go
/// another way.
class MappedFileRange {
 public:
  MappedFileRange() = default;
  /// Throws std::runtime_error when the blocks cannot be allocated (a full disk), naming `path`.
  /// The file must stay open while the range is prepared.
  MappedFileRange(int fd, int64_t begin, int64_t end, const std::string& path);
  MappedFileRange(MappedFileRange&& other) noexcept;
  MappedFileRange& operator=(MappedFileRange&& other) noexcept;
  MappedFileRange(const MappedFileRange&) = delete;
  MappedFileRange& operator=(const MappedFileRange&) = delete;
  ~MappedFileRange() { unmap(); }

  explicit operator bool() const { return map_ != nullptr; }
  /// True when file bytes [begin, end) lie inside the mapping.
  bool covers(int64_t begin, int64_t end) const { return map_ != nullptr && begin >= begin_ && end <= end_; }

  /// Copies `rows` rows of `cols` int32, row r from `data + r * ld`, to file rows
  /// [first_row, first_row + rows) (rows of `cols` int32), with `threads` threads. The rows
  /// must lie inside the mapping (covers()).
  void copy_rows(const int32_t* data, int64_t first_row, int64_t rows, int64_t cols, int64_t ld, int threads) const;

  /// The mapped bytes of file byte `begin` onwards when the file lives in memory (tmpfs):
  /// there the mapping's pages are the file, so a device may copy into them directly. Null
  /// otherwise (on a disk file, page-cache pages written by DMA may miss their write-back).
  char* memory_at(int64_t begin) const { return in_memory_ && covers(begin, begin) ? map_ + (begin - base_) : nullptr; }

  /// Makes the mapping's pages resident, in up to `pieces` pieces of whole `grain`s (bytes,
  /// counted from the range's first byte) taken in order by `threads` threads, calling
  /// ready(begin, end) (file bytes) from the thread that prepared a piece as soon as it is.
  /// Throws std::runtime_error after every thread has stopped.
  void prepare(int threads, int pieces, int64_t grain, const std::function<void(int64_t, int64_t)>& ready) const;

  /// Drops this process's page-table entries for the whole pages inside file bytes [begin,
  /// end), keeping the mapping's addresses: for pages a device holds page-locked and alone
  /// writes from then on (they stay the file's pages, and a later access maps them again).
  /// Tearing 6.4 GB of a mapping down took 0.18 s on an H200 host after the result was
  /// copied; done piece by piece as the pages are locked, it is off the run's path.
  void drop_view(int64_t begin, int64_t end) const;

  /// Ends the mapping (a shared mapping's pages are the file's: nothing to flush), tearing a
  /// large one down with up to `threads` threads.
  void unmap(int threads = 1);

 private:
  /// Makes file bytes [first_page, end) of the mapping resident and writable, allocating their
  /// blocks where the constructor did not (tmpfs).
  void populate(int64_t first_page, int64_t end) const;

  char* map_ = nullptr;  ///< file byte base_ (begin_ rounded down to a page)
  int64_t base_ = 0, begin_ = 0, end_ = 0;
  bool in_memory_ = false;  ///< the file is on tmpfs (its blocks allocated by prepare())
  int fd_ = -1;             ///< the file (not owned)
  std::string path_;        ///< its name, for errors
};

}  // namespace apsp
