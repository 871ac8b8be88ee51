// SPDX-License-Identifier: BSD-3-Clause
// This process's rank and the number of ranks in MPI_COMM_WORLD, and a scratch directory they
// share, for the C++ tests that run under an MPI launch (mpi_test_main.cpp).
#pragma once

#include <mpi.h>

#include <string>

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
