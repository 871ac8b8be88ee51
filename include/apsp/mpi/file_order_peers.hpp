// SPDX-License-Identifier: BSD-3-Clause
// The file's numbering restored across the GPUs of one node without the host
// (file_order_rows.hpp does it through host memory): each rank packs its rows, entries at their
// file columns and rows in the order they are sent, into a buffer the others can read (CUDA or
// HIP IPC, backends/gpu_peers.hpp); each then copies the rows it holds in the file's numbering
// from every rank's buffer straight into its matrix, rank by rank, and puts each at its row.
#pragma once

#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "apsp/backends/backend_runtime.hpp"
#include "apsp/mpi/file_order_rows.hpp"

namespace apsp::mpi {

/// Whether this backend has the peers' path at all (a GPU's; the caller checks that they work).
template <class ExecSpace>
inline constexpr bool kFileOrderThroughPeers = DevicePeers<ExecSpace>::available;

/// Collective over `comm` (one node, one GPU per rank, peers that open each other's buffers):
/// `d`'s rows, solved under `label`'s numbering, in the file's. Device memory beside the matrix:
/// one more of its rows.
template <class ExecSpace, class Value>
void file_order_through_peers(MPI_Comm comm, const DistanceMatrix<ExecSpace, Value>& d, const TileRowPartition& part,
                              const std::vector<int32_t>& label, const std::vector<int32_t>& original) {
  if constexpr (kFileOrderThroughPeers<ExecSpace>) {
    int rank = 0, ranks = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &ranks);
    const RowExchangePlan plan = plan_file_order_exchange(part, d.block, rank, d.vertices, label, original);
    const size_t row_bytes = size_t(d.n) * sizeof(Value);
    const auto all_gather = [comm](const void* mine, void* all, size_t bytes) {
      MPI_Allgather(mine, static_cast<int>(bytes), MPI_BYTE, all, static_cast<int>(bytes), MPI_BYTE, comm);
    };
    DevicePeers<ExecSpace> peers(rank, ranks, std::max<size_t>(1, size_t(d.rows)) * row_bytes, all_gather, 1);
    if (!peers.opened())  // the same answer on every rank
      throw std::runtime_error(std::string("--order: the node's GPUs could not open each other's buffers (") +
                               DevicePeers<ExecSpace>::name + ")");
    auto* box = static_cast<Value*>(peers.outbox(0));
    const auto cols = copied_to<ExecSpace>(label, "apsp::vertex_labels");
    const auto sent = copied_to<ExecSpace>(plan.send_rows, "apsp::file_order_rows");
    const auto placed = copied_to<ExecSpace>(plan.recv_rows, "apsp::file_order_rows");
    const auto move = [&](const Value* in, Value* out, const int64_t* from, const int64_t* to, const int32_t* cols_of,
                          size_t rows) { move_rows<ExecSpace>(in, out, from, to, cols_of, rows, d.n, d.vertices); };
    const ExecSpace exec;
    move(d.data.data(), box, sent.data(), nullptr, cols.data(), plan.send_rows.size());
    // Where this rank's rows lie in each rank's buffer; every buffer packed before any is read.
    std::vector<int> at(size_t(ranks), 0);
    MPI_Alltoall(plan.send_offsets.data(), 1, MPI_INT, at.data(), 1, MPI_INT, comm);
    Value* mine = d.data.data();
    for (int p = 0; p < ranks; ++p)
      if (plan.recv_counts[size_t(p)] > 0)
        peers.fetch_at(mine + int64_t(plan.recv_offsets[size_t(p)]) * d.n, p, size_t(at[size_t(p)]) * row_bytes,
                       size_t(plan.recv_counts[size_t(p)]) * row_bytes, exec);
    exec.fence();
    MPI_Barrier(comm);  // every rank done reading this rank's buffer
    const size_t count = plan.recv_rows.size();
    move(mine, box, nullptr, placed.data(), nullptr, count);
    move(box, mine, nullptr, nullptr, nullptr, count);
    MPI_Barrier(comm);  // the buffer freed on every rank after its last reader
  }
}

}  // namespace apsp::mpi
