// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <cstdlib>
#include <cstring>
#include <vector>

int main(int argc, char* argv[]) {
  // ctest runs these beside other tests: OpenMP threads unbound unless the caller binds them
  // (tests/CMakeLists.txt can give discovered tests one environment variable only).
  setenv("OMP_PROC_BIND", "false", 0);
  // ctest discovers tests by parsing --gtest_list_tests; Kokkos' start-up warnings
  // (e.g. OMP_PROC_BIND unset) must not land in that list.
  std::vector<char*> args(argv, argv + argc);
  static char quiet_kokkos[] = "--kokkos-disable-warnings";
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--gtest_list_tests") == 0) args.push_back(quiet_kokkos);
  int n = static_cast<int>(args.size());
  args.push_back(nullptr);
  Kokkos::ScopeGuard kokkos(n, args.data());
  ::testing::InitGoogleTest(&n, args.data());
  return RUN_ALL_TESTS();
}
