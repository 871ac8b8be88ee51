// SPDX-License-Identifier: BSD-3-Clause
#include "thread_binding.hpp"

#include <Kokkos_Core.hpp>

#include <cstdlib>
#include <string>

namespace apsp::cli {

namespace {
// The execution space this run will use: --backend's, else Kokkos' default.
std::string backend_asked(int argc, char* argv[]) {
  std::string name = Kokkos::DefaultExecutionSpace::name();
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--backend" && i + 1 < argc) name = argv[i + 1];
    if (a.rfind("--backend=", 0) == 0) name = a.substr(10);
  }
  for (char& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
  return name;
}
}  // namespace

std::string choose_thread_binding(int argc, char* argv[], const mpi::Runtime& mpi) {
  const char* bind = std::getenv("OMP_PROC_BIND");
  const char* places = std::getenv("OMP_PLACES");
  if (bind != nullptr || places != nullptr)
    return std::string("OMP_PROC_BIND=") + (bind ? bind : "(unset)") + " OMP_PLACES=" + (places ? places : "(unset)") +
           " (yours)";
#if defined(KOKKOS_ENABLE_OPENMP)
  const bool openmp_computes = backend_asked(argc, argv) == "openmp";
  const bool node_to_itself = !mpi.active() || mpi.local_size() == 1;
  if (openmp_computes && node_to_itself) {
    ::setenv("OMP_PROC_BIND", "spread", 0);
    ::setenv("OMP_PLACES", "threads", 0);
    return "OMP_PROC_BIND=spread OMP_PLACES=threads (default; set either to choose)";
  }
  ::setenv("OMP_PROC_BIND", "false", 0);
  return std::string("OMP_PROC_BIND=false (default for ") +
         (openmp_computes ? "several ranks on a node" : "a run whose host threads do not compute") +
         "; set OMP_PROC_BIND or OMP_PLACES to choose)";
#else
  (void)argc;
  (void)argv;
  (void)mpi;
  return "";
#endif
}

}  // namespace apsp::cli
