// SPDX-License-Identifier: BSD-3-Clause
// gpu::Peers (backends/gpu_peers.hpp), the buffers the GPUs of one node lend each other for the
// pivot rows, on every rank of a real launch, over a stand-in for a GPU vendor's API: POSIX
// shared memory in place of device memory and its IPC handles, memcpy in place of the copies.
// What it checks is the class's own part, the same for CUDA and HIP: every rank reads what
// every other rank posted, at either parity; and a rank that cannot open another's buffer
// makes opened() false on every rank, with none left waiting in a collective.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <mpi.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "apsp/backends/gpu_peers.hpp"
#include "mpi_world.hpp"

namespace apsp::test {
namespace {

/// The calls gpu::Peers makes, over shared memory. Error: 0 for success.
struct ShmApi {
  using Space = Kokkos::DefaultHostExecutionSpace;
  using Error = int;
  using Stream = int;
  struct IpcHandle {
    char name[48];
    size_t bytes;
  };
  static constexpr Error kSuccess = 0;
  static constexpr const char* kName = "shm";
  static constexpr const char* kIpcName = "POSIX shared memory";
  static const char* error_string(Error) { return "failed"; }
  static Error get_last_error() { return 0; }
  static Stream stream(const Space&) { return 0; }

  static int fail_open_on_rank;  ///< the rank whose ipc_open fails (-1: none)

  static Error malloc_device(void** p, size_t bytes) {
    static int made = 0;
    char name[48];
    std::snprintf(name, sizeof name, "/apsp_test_peers_%d_%d", int(getpid()), made++);
    const int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0) return 1;
    const bool sized = ftruncate(fd, off_t(bytes)) == 0;
    void* at = sized ? mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    close(fd);
    if (at == MAP_FAILED) {
      shm_unlink(name);
      return 1;
    }
    *p = at;
    IpcHandle h{};
    std::snprintf(h.name, sizeof h.name, "%s", name);
    h.bytes = bytes;
    made_here()[at] = h;
    return 0;
  }
  static Error free_device(void* p) {
    const IpcHandle h = made_here().at(p);
    made_here().erase(p);
    munmap(p, h.bytes);
    return shm_unlink(h.name);
  }
  static Error ipc_get_handle(IpcHandle* h, void* p) {
    *h = made_here().at(p);
    return 0;
  }
  static Error ipc_open(void** p, IpcHandle h) {
    if (rank() == fail_open_on_rank) return 1;
    const int fd = shm_open(h.name, O_RDWR, 0);
    if (fd < 0) return 1;
    void* at = mmap(nullptr, h.bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (at == MAP_FAILED) return 1;
    *p = at;
    opened_here()[at] = h.bytes;
    return 0;
  }
  static Error ipc_close(void* p) {
    const size_t bytes = opened_here().at(p);
    opened_here().erase(p);
    return munmap(p, bytes);
  }
  static Error copy_async(void* dst, const void* src, size_t bytes, Stream) {
    std::memcpy(dst, src, bytes);
    return 0;
  }

 private:
  static std::map<void*, IpcHandle>& made_here() {
    static std::map<void*, IpcHandle> m;
    return m;
  }
  static std::map<void*, size_t>& opened_here() {
    static std::map<void*, size_t> m;
    return m;
  }
};
int ShmApi::fail_open_on_rank = -1;

auto all_gather() {
  return [](const void* mine, void* all, size_t bytes) {
    MPI_Allgather(mine, static_cast<int>(bytes), MPI_BYTE, all, static_cast<int>(bytes), MPI_BYTE, MPI_COMM_WORLD);
  };
}

// Each rank posts rows of its own at both parities (an odd size: the second outbox starts past
// it, aligned), and every rank reads every other rank's, at either parity, as the pivot rows'
// peer path does round after round.
TEST(MpiDevicePeers, EveryRankReadsWhatEachOtherPosted) {
  const size_t count = 1001;  // int32 per row block
  gpu::Peers<ShmApi> peers(rank(), ranks(), count * sizeof(int32_t), all_gather());
  ASSERT_TRUE(peers.opened());
  EXPECT_STREQ(gpu::Peers<ShmApi>::name, ShmApi::kIpcName);  // what the banner names the path by
  const ShmApi::Space exec;
  for (int round = 0; round < 4; ++round) {
    const int parity = round % 2;
    std::vector<int32_t> row(count);
    for (size_t i = 0; i < count; ++i) row[i] = int32_t(1000000 * round + 1000 * rank() + int(i % 997));
    peers.post(row.data(), parity, count * sizeof(int32_t), exec);
    MPI_Barrier(MPI_COMM_WORLD);  // every rank's outbox of this parity holds its row
    for (int from = 0; from < ranks(); ++from) {
      if (from == rank()) continue;
      std::vector<int32_t> got(count, -1);
      peers.fetch(got.data(), from, parity, count * sizeof(int32_t), exec);
      int64_t wrong = 0;
      for (size_t i = 0; i < count; ++i) wrong += got[i] != int32_t(1000000 * round + 1000 * from + int(i % 997));
      EXPECT_EQ(wrong, 0) << "round " << round << ", from rank " << from;
    }
    MPI_Barrier(MPI_COMM_WORLD);  // all read before the outbox of this parity is written again
  }
}

// A rank that cannot open another's buffer: opened() false on every rank alike (the caller then
// takes MPI's path), and a later collective still meets every rank.
TEST(MpiDevicePeers, OneRankFailingToOpenIsKnownEverywhere) {
  if (ranks() < 2) GTEST_SKIP() << "one rank opens nothing";
  ShmApi::fail_open_on_rank = ranks() - 1;
  {
    gpu::Peers<ShmApi> peers(rank(), ranks(), 256, all_gather());
    EXPECT_FALSE(peers.opened()) << "rank " << rank();
  }
  ShmApi::fail_open_on_rank = -1;
  int one = 1, sum = 0;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(sum, ranks());
}

}  // namespace
}  // namespace apsp::test
