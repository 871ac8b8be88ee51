// SPDX-License-Identifier: BSD-3-Clause
// This process's rank and the number of ranks in MPI_COMM_WORLD, for the C++ tests that run
// under an MPI launch (mpi_test_main.cpp).
#pragma once

#include <mpi.h>

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

}  // namespace apsp::test
