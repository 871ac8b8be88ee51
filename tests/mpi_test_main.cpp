// SPDX-License-Identifier: BSD-3-Clause
// GoogleTest under an MPI launch: MPI, then Kokkos, then the tests on every rank. Rank 0
// prints; the exit status is non-zero on every rank when a test failed on any.
#include <gtest/gtest.h>
#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <cstring>
#include <vector>

int main(int argc, char* argv[]) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int failed = 0;
  {
    // ctest discovers nothing here (tests run under mpiexec), but keep Kokkos' start-up
    // warnings out of a --gtest_list_tests listing all the same.
    std::vector<char*> args(argv, argv + argc);
    static char quiet_kokkos[] = "--kokkos-disable-warnings";
    args.push_back(quiet_kokkos);
    int n = static_cast<int>(args.size());
    args.push_back(nullptr);
    Kokkos::ScopeGuard kokkos(n, args.data());
    ::testing::InitGoogleTest(&n, args.data());
    if (rank != 0) {
      auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
      delete listeners.Release(listeners.default_result_printer());
    }
    const int mine = RUN_ALL_TESTS() != 0 ? 1 : 0;
    MPI_Allreduce(&mine, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return failed;
}
