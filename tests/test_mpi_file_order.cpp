// SPDX-License-Identifier: BSD-3-Clause
// Rows solved under another numbering brought back to the file's across ranks
// (mpi/file_order_rows.hpp): each rank's rows of a matrix whose entries name their own file
// row and column, numbered by a random permutation, must come back with every entry at its
// file row and column on the rank that holds that row, padding untouched.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "apsp/mpi/distributed_fw.hpp"
#include "apsp/mpi/file_order_peers.hpp"
#include "apsp/mpi/file_order_rows.hpp"
#include "backends_under_test.hpp"
#include "mpi_world.hpp"

namespace apsp::test {
namespace {

constexpr int32_t kPadding = -7;

/// Entry (i, j) of the file's matrix, i and j vertices.
int32_t entry(int64_t vertices, int64_t i, int64_t j) { return static_cast<int32_t>(i * vertices + j); }

template <class ExecSpace>
class FileOrderAcrossRanks : public ::testing::Test {};
TYPED_TEST_SUITE(FileOrderAcrossRanks, Backends, BackendName);

/// Each V's matrix numbered by a random permutation, moved back by `restore(d, part, label,
/// original)`: every entry must reach its file row and column, padding untouched.
template <class E, class Restore>
void check_file_order(const Restore& restore) {
  const int B = 16;
  // Fewer tile rows than ranks, a short last tile, several tile rows per rank.
  for (const int64_t v : {int64_t(B / 2 + 3), int64_t(3 * B + 5), int64_t(11 * B)}) {
    SCOPED_TRACE("V=" + std::to_string(v));
    std::vector<int32_t> label(size_t(v), 0), original(size_t(v), 0);
    std::iota(label.begin(), label.end(), 0);
    std::shuffle(label.begin(), label.end(), std::mt19937(uint32_t(v)));  // the same on every rank
    for (int64_t x = 0; x < v; ++x) original[size_t(label[size_t(x)])] = int32_t(x);
    const int64_t n = padded_size(v, B);
    const TileRowPartition part{int(n / B), ranks()};
    DistanceMatrix<E> d(v, B, int64_t(part.first(rank())) * B, int64_t(part.count(rank())) * B);
    // Solve row s, column c holds file entry (original[s], original[c]); padding kPadding.
    std::vector<int32_t> rows(size_t(d.rows * n), kPadding);
    for (int64_t s = 0; s < d.rows && d.first_row + s < v; ++s)
      for (int64_t c = 0; c < v; ++c)
        rows[size_t(s * n + c)] = entry(v, original[size_t(d.first_row + s)], original[size_t(c)]);
    Kokkos::deep_copy(d.data, Kokkos::View<const int32_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                                  rows.data(), rows.size()));
    restore(d, part, label, original);
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.data);
    int64_t wrong = 0;
    for (int64_t t = 0; t < d.rows; ++t)
      for (int64_t j = 0; j < n; ++j) {
        const bool vertex = d.first_row + t < v && j < v;
        wrong += h(size_t(t * n + j)) != (vertex ? entry(v, d.first_row + t, j) : kPadding);
      }
    EXPECT_EQ(wrong, 0) << "rank " << rank();
  }
}

TYPED_TEST(FileOrderAcrossRanks, ThroughHostMemory) {
  using E = TypeParam;
  check_file_order<E>([](const DistanceMatrix<E>& d, const TileRowPartition& part, const std::vector<int32_t>& label,
                         const std::vector<int32_t>& original) {
    mpi::FileOrderRows<E, int32_t> moving(d, part, rank(), label, original);
    moving.exchange(MPI_COMM_WORLD);
    moving.finish(d);
  });
}

TYPED_TEST(FileOrderAcrossRanks, ThroughThePeersGpus) {
  using E = TypeParam;
  if constexpr (!mpi::kFileOrderThroughPeers<E>) {
    GTEST_SKIP() << "a host backend: no device peers";
  } else {
    if (!mpi::DistributedFloydWarshall<E>::device_peers_work(MPI_COMM_WORLD))
      GTEST_SKIP() << "the GPUs do not open each other's buffers here";
    check_file_order<E>([](const DistanceMatrix<E>& d, const TileRowPartition& part, const std::vector<int32_t>& label,
                           const std::vector<int32_t>& original) {
      mpi::file_order_through_peers(MPI_COMM_WORLD, d, part, label, original);
    });
  }
}

}  // namespace
}  // namespace apsp::test
