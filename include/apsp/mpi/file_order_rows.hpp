// SPDX-License-Identifier: BSD-3-Clause
// A distributed matrix solved under another numbering of the vertices (graph/vertex_order.hpp)
// brought back to the file's. One process gathers the whole matrix into a second one
// (solver/file_numbering.hpp); under MPI a row of the solve belongs to another rank in the
// file's numbering, so each rank moves its rows' entries to their file columns while packing
// them in the order they are sent (where the matrix lies: a GPU does it at its own bandwidth),
// the ranks swap rows in one all-to-all through host memory, and each puts what it received at
// its file rows. The tile rows each rank holds are the same in both numberings, so everything
// after (the self-check, the writes) sees the rows it would have seen without renumbering.
#pragma once

#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "apsp/backends/backend_runtime.hpp"
#include "apsp/core/huge_page_array.hpp"
#include "apsp/solver/distance_matrix.hpp"
#include "apsp/solver/file_numbering.hpp"
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

/// A rank's rows of one matrix on their way to the file's numbering: packed (where the matrix
/// lies) and, from a device, copied to the host by the constructor, sent by exchange(), placed
/// by finish(). The steps that may fail (memory) are apart from the collective one, so that a
/// rank that fails never leaves the others waiting in the all-to-all. Memory beside the
/// matrix: one more of its rows where it lies, and on a device two host buffers of them.
template <class ExecSpace, class Value>
class FileOrderRows {
  using Matrix = DistanceMatrix<ExecSpace, Value>;
  using HostRows = Kokkos::View<Value*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static_assert(sizeof(Value) == sizeof(int32_t), "rows travel as int32");

 public:
  FileOrderRows(const Matrix& d, const TileRowPartition& part, int rank, const std::vector<int32_t>& label,
                const std::vector<int32_t>& original)
      : plan_(plan_file_order_exchange(part, d.block, rank, d.vertices, label, original)),
        n_(d.n),
        packed_(d.vertices, d.block, d.first_row, d.rows, "apsp::file_order_rows") {
    const auto cols = copied_to<ExecSpace>(label, "apsp::vertex_labels");
    const auto rows = copied_to<ExecSpace>(plan_.send_rows, "apsp::file_order_rows");
    move(d.data.data(), packed_.data.data(), rows.data(), nullptr, cols.data(), plan_.send_rows.size());
    // In huge pages: their first touch (by the copy from a device, or by MPI) is most of the
    // exchange's time in pages of the usual size.
    recv_ = huge_page_array<int32_t>(plan_.recv_rows.size() * size_t(n_));
    if constexpr (host_is_device<ExecSpace>()) return;
    send_ = huge_page_array<int32_t>(plan_.send_rows.size() * size_t(n_));
    Kokkos::deep_copy(host_rows(send_, plan_.send_rows.size()),
                      Kokkos::subview(packed_.data, std::pair<size_t, size_t>(0, plan_.send_rows.size() * size_t(n_))));
  }

  void exchange(MPI_Comm comm) {
    const int32_t* send = send_ ? send_.get() : reinterpret_cast<const int32_t*>(packed_.data.data());
    exchange_rows(comm, plan_, send, recv_.get(), n_);
  }

  /// The rows received, each at its file row of `d`.
  void finish(const Matrix& d) {
    send_.reset();
    const size_t count = plan_.recv_rows.size();
    const Value* from = reinterpret_cast<const Value*>(recv_.get());
    if constexpr (!host_is_device<ExecSpace>()) {
      Kokkos::deep_copy(Kokkos::subview(packed_.data, std::pair<size_t, size_t>(0, count * size_t(n_))),
                        host_rows(recv_, count));
      from = packed_.data.data();
    }
    const auto rows = copied_to<ExecSpace>(plan_.recv_rows, "apsp::file_order_rows");
    move(from, d.data.data(), nullptr, rows.data(), nullptr, count);
    recv_.reset();
  }

 private:
  HostRows host_rows(const std::shared_ptr<int32_t[]>& p, size_t rows) const {
    return HostRows(reinterpret_cast<Value*>(p.get()), rows * size_t(n_));
  }
  void move(const Value* in, Value* out, const int64_t* from, const int64_t* to, const int32_t* label,
            size_t rows) const {
    move_rows<ExecSpace>(in, out, from, to, label, rows, n_, packed_.vertices);
  }

  RowExchangePlan plan_;
  int64_t n_ = 0;
  Matrix packed_;                           ///< the rows in the order they are sent, then as received
  std::shared_ptr<int32_t[]> send_, recv_;  ///< in host memory (send_: only from a device)
};

}  // namespace apsp::mpi
