// SPDX-License-Identifier: BSD-3-Clause
// This process's rank and the number of ranks in MPI_COMM_WORLD, and a scratch directory they
// share, for the C++ tests that run under an MPI launch (mpi_test_main.cpp).
#pragma once

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "reference.hpp"

namespace apsp::test {

inline int rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
inline int ranks() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

/// A scratch directory every rank sees (rank 0 makes it and names it), removed at the end.
/// Entries of the rows `d` holds (the vertices' columns) that differ from the V x V matrix
/// `expected` (the single-device solver's).
template <class Matrix>
int64_t rows_differing(const Matrix& d, const std::vector<int32_t>& expected) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.data);
  int64_t wrong = 0;
  for (int64_t i = 0; i < d.rows && d.first_row + i < d.vertices; ++i)
    for (int64_t j = 0; j < d.vertices; ++j)
      wrong += h(size_t(i * d.n + j)) != expected[size_t((d.first_row + i) * d.vertices + j)];
  return wrong;
}

class SharedDir {
 public:
  SharedDir() {
    std::string path;
    if (rank() == 0) path = dir_.path();
    int length = static_cast<int>(path.size());
    MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
    path.resize(size_t(length));
    MPI_Bcast(path.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
    path_ = path;
  }
  ~SharedDir() { MPI_Barrier(MPI_COMM_WORLD); }  // every rank done before rank 0 removes it
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  TempDir dir_;  // made (and removed) on every rank; only rank 0's is used
  std::string path_;
};

}  // namespace apsp::test
