// SPDX-License-Identifier: BSD-3-Clause
// A distributed matrix solved under another numbering of the vertices (graph/vertex_order.hpp)
// brought back to the file's. One process gathers the whole matrix into a second one
// (solver/file_numbering.hpp); under MPI a row of the solve belongs to another rank in the
// file's numbering, so each rank moves its rows' entries to their file columns while packing
// them, the ranks swap rows in one all-to-all, and each puts what it received at its file rows.
// The tile rows each rank holds are the same in both numberings, so everything after (the
// self-check, the writes) sees the rows it would have seen without renumbering.
#pragma once

#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "apsp/core/huge_page_array.hpp"
#include "apsp/solver/distance_matrix.hpp"
#include "apsp/solver/tile_row_partition.hpp"

namespace apsp::mpi {

/// Which of this rank's rows go to which rank, and where the rows it receives belong. Counts
/// and offsets are in rows, per rank; rows are local indices (0 = the rank's first row).
struct RowExchangePlan {
  std::vector<int> send_counts, send_offsets, recv_counts, recv_offsets;
  std::vector<int64_t> send_rows;  ///< the solve's rows, in the order they are sent
  std::vector<int64_t> recv_rows;  ///< the file's rows, in the order they arrive
};

/// The plan for this rank: solve row g goes to the rank holding file row original[g]; file row
/// t comes from the rank holding solve row label[t]. Each rank sends in ascending file rows, so
/// a receiver knows every row's place without being told. Rows from V on (padding) stay.
RowExchangePlan plan_file_order_exchange(const TileRowPartition& part, int block, int rank, int64_t vertices,
                                         const std::vector<int32_t>& label, const std::vector<int32_t>& original);

/// Collective: every rank's packed rows of `ld` entries to the ranks the plan names.
void exchange_rows(MPI_Comm comm, const RowExchangePlan& plan, const int32_t* send, int32_t* recv, int64_t ld);

/// A rank's rows of one matrix on their way to the file's numbering, in host memory: filled
/// (and, on a device, copied to the host) by the constructor, sent by exchange(), placed by
/// finish(). The steps that may fail (memory) are apart from the collective one, so that a
/// rank that fails never leaves the others waiting in the all-to-all.
template <class ExecSpace, class Value>
class FileOrderRows {
 public:
  FileOrderRows(const DistanceMatrix<ExecSpace, Value>& d, const TileRowPartition& part, int rank,
                const std::vector<int32_t>& label, const std::vector<int32_t>& original)
      : plan_(plan_file_order_exchange(part, d.block, rank, d.vertices, label, original)),
        host_(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.data)),
        n_(d.n),
        send_(heap_array<int32_t>(plan_.send_rows.size() * size_t(d.n))),
        recv_(heap_array<int32_t>(plan_.recv_rows.size() * size_t(d.n))) {
    const int64_t n = n_, v = d.vertices;
    const Value* from = host_.data();
    auto* to = reinterpret_cast<Value*>(send_.get());
    const int32_t* cols = label.data();
    const int64_t* rows = plan_.send_rows.data();
    Kokkos::parallel_for("apsp::file_order::pack",
                         Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, int64_t(plan_.send_rows.size())),
                         [=](const int64_t k) {
                           const Value* row = from + rows[k] * n;
                           Value* out = to + k * n;
                           for (int64_t j = 0; j < v; ++j) out[j] = row[cols[j]];
                           for (int64_t j = v; j < n; ++j) out[j] = row[j];
                         });
    Kokkos::DefaultHostExecutionSpace().fence();
  }

  void exchange(MPI_Comm comm) { exchange_rows(comm, plan_, send_.get(), recv_.get(), n_); }

  /// The rows received, each at its file row, and the matrix (a device's) given them.
  void finish(const DistanceMatrix<ExecSpace, Value>& d) {
    send_.reset();
    const int64_t n = n_;
    const auto* from = reinterpret_cast<const Value*>(recv_.get());
    Value* to = host_.data();
    const int64_t* rows = plan_.recv_rows.data();
    Kokkos::parallel_for(
        "apsp::file_order::place",
        Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, int64_t(plan_.recv_rows.size())),
        [=](const int64_t k) { std::memcpy(to + rows[k] * n, from + k * n, size_t(n) * sizeof(Value)); });
    Kokkos::DefaultHostExecutionSpace().fence();
    recv_.reset();
    Kokkos::deep_copy(d.data, host_);  // nothing to copy where the matrix is the host's
  }

 private:
  static_assert(sizeof(Value) == sizeof(int32_t), "rows travel as int32");
  RowExchangePlan plan_;
  using HostRows = decltype(Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), std::declval<typename DistanceMatrix<ExecSpace, Value>::view_type>()));
  HostRows host_;
  int64_t n_ = 0;
  std::shared_ptr<int32_t[]> send_, recv_;
};

}  // namespace apsp::mpi
