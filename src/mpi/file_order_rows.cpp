// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/mpi/file_order_rows.hpp"

#include <algorithm>

namespace apsp::mpi {

namespace {
std::vector<int> offsets_of(const std::vector<int>& counts) {
  std::vector<int> offsets(counts.size(), 0);
  for (size_t r = 1; r < counts.size(); ++r) offsets[r] = offsets[r - 1] + counts[r - 1];
  return offsets;
}
}  // namespace

RowExchangePlan plan_file_order_exchange(const TileRowPartition& part, int block, int rank, int64_t vertices,
                                         const std::vector<int32_t>& label, const std::vector<int32_t>& original) {
  const int64_t first = int64_t(part.first(rank)) * block;
  const int64_t last = std::min<int64_t>(vertices, first + int64_t(part.count(rank)) * block);
  const auto holder = [&](int64_t row) { return part.owner(static_cast<int>(row / block)); };
  RowExchangePlan plan;
  plan.send_counts.assign(size_t(part.parts), 0);
  plan.recv_counts.assign(size_t(part.parts), 0);
  // Sent in ascending file rows: grouped by the rank that holds them, in the order it expects.
  for (int64_t g = first; g < last; ++g) plan.send_rows.push_back(g - first);
  std::sort(plan.send_rows.begin(), plan.send_rows.end(),
            [&](int64_t a, int64_t b) { return original[size_t(first + a)] < original[size_t(first + b)]; });
  for (const int64_t r : plan.send_rows) ++plan.send_counts[size_t(holder(original[size_t(first + r)]))];
  // Received from each rank in turn, each rank's rows in ascending file rows.
  std::vector<std::vector<int64_t>> from(size_t(part.parts));
  for (int64_t t = first; t < last; ++t) from[size_t(holder(label[size_t(t)]))].push_back(t - first);
  for (size_t p = 0; p < from.size(); ++p) {
    plan.recv_counts[p] = static_cast<int>(from[p].size());
    plan.recv_rows.insert(plan.recv_rows.end(), from[p].begin(), from[p].end());
  }
  plan.send_offsets = offsets_of(plan.send_counts);
  plan.recv_offsets = offsets_of(plan.recv_counts);
  return plan;
}

void exchange_rows(MPI_Comm comm, const RowExchangePlan& plan, const int32_t* send, int32_t* recv, int64_t ld) {
  // Counted in rows (a row one datatype), so that no count passes an int's range.
  MPI_Datatype row;
  MPI_Type_contiguous(static_cast<int>(ld), MPI_INT32_T, &row);
  MPI_Type_commit(&row);
  MPI_Alltoallv(send, plan.send_counts.data(), plan.send_offsets.data(), row, recv, plan.recv_counts.data(),
                plan.recv_offsets.data(), row, comm);
  MPI_Type_free(&row);
}

}  // namespace apsp::mpi
