// SPDX-License-Identifier: BSD-3-Clause
// The MPI job's run: the one pipeline (src/pipeline/run_stages.hpp) over the MpiRanks policy.
#include "apsp/mpi/distributed_pipeline.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "../pipeline/run_stages.hpp"
#include "apsp/backends/enabled_backends.hpp"
#include "collective.hpp"
#include "mpi_ranks.hpp"

namespace apsp::mpi {

namespace {
int rank_of(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}
}  // namespace

std::vector<std::string> gather_strings(MPI_Comm comm, const std::string& mine) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  int length = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<size_t>(size));
  MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm);
  std::vector<int> offsets(static_cast<size_t>(size), 0);
  for (int r = 1; r < size; ++r) offsets[size_t(r)] = offsets[size_t(r - 1)] + lengths[size_t(r - 1)];
  std::string all(static_cast<size_t>(offsets.back() + lengths.back()), ' ');
  MPI_Allgatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, comm);
  std::vector<std::string> out;
  out.reserve(size_t(size));
  for (int r = 0; r < size; ++r) out.push_back(all.substr(size_t(offsets[size_t(r)]), size_t(lengths[size_t(r)])));
  return out;
}

std::vector<int32_t> concatenate_ints(MPI_Comm comm, const std::vector<int32_t>& mine) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  const auto length = static_cast<int64_t>(mine.size());
  std::vector<int64_t> lengths(static_cast<size_t>(size));
  MPI_Allgather(&length, 1, MPI_INT64_T, lengths.data(), 1, MPI_INT64_T, comm);
  int64_t total = 0;
  for (const int64_t l : lengths) total += l;
  std::vector<int32_t> all(static_cast<size_t>(total));
  // Each rank's part broadcast in pieces that an int counts (a part may pass 2^31 entries).
  constexpr int64_t kPiece = int64_t(1) << 28;
  int64_t at = 0;
  for (int r = 0; r < size; ++r) {
    if (r == rank_of(comm)) std::copy(mine.begin(), mine.end(), all.begin() + at);
    for (int64_t done = 0; done < lengths[size_t(r)]; done += kPiece) {
      const int count = static_cast<int>(std::min(kPiece, lengths[size_t(r)] - done));
      MPI_Bcast(all.data() + at + done, count, MPI_INT32_T, r, comm);
    }
    at += lengths[size_t(r)];
  }
  return all;
}

std::string devices_of_all_ranks(MPI_Comm comm, const std::string& mine) {
  std::vector<std::pair<std::string, int>> counted;
  for (const std::string& name : gather_strings(comm, mine)) {
    auto it = std::find_if(counted.begin(), counted.end(), [&](const auto& c) { return c.first == name; });
    if (it == counted.end())
      counted.emplace_back(name, 1);
    else
      ++it->second;
  }
  std::string text;
  for (const auto& [name, count] : counted)
    text += (text.empty() ? "" : ", ") + name + (count > 1 ? " x" + std::to_string(count) : "");
  return text;
}

VerifyReport combine_verdicts(MPI_Comm comm, const VerifyReport& local) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  VerifyReport all;
  all.predecessors = local.predecessors;  // the same option on every rank
  MPI_Allreduce(&local.rows_checked, &all.rows_checked, 1, MPI_INT64_T, MPI_SUM, comm);
  int failing = local.passed ? size : rank, first = size;
  MPI_Allreduce(&failing, &first, 1, MPI_INT, MPI_MIN, comm);
  all.passed = first == size;
  if (!all.passed) {
    int length = static_cast<int>(local.first_mismatch.size());
    MPI_Bcast(&length, 1, MPI_INT, first, comm);
    all.first_mismatch = local.first_mismatch;
    all.first_mismatch.resize(static_cast<size_t>(length));
    MPI_Bcast(all.first_mismatch.data(), length, MPI_CHAR, first, comm);
  }
  MPI_Allreduce(&local.seconds, &all.seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
  return all;
}

RunReport run_distributed_pipeline(const RunOptions& options, const Runtime& runtime) {
  // A backend this build lacks fails on every rank alike, before anything else.
  collectively(MPI_COMM_WORLD, [&] { dispatch_backend(options.backend, [](auto) { return 0; }); });
  MpiRanks ranks(runtime, options.mpi_io, options.pivot_rows, options.phase_times ? 1 : options.block_rounds);
  return dispatch_backend(options.backend,
                          [&](auto tag) { return Impl::run_stages<typename decltype(tag)::type>(options, ranks); });
}

}  // namespace apsp::mpi
