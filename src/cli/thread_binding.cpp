// SPDX-License-Identifier: BSD-3-Clause
#include "thread_binding.hpp"

#include "apsp/core/cpus.hpp"

#include <Kokkos_Core.hpp>

#include <sched.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace apsp::cli {

namespace {
// The backend this run computes on (--backend, else Kokkos' default), in lower case.
std::string chosen_backend(int argc, char* argv[]) {
  std::string name = Kokkos::DefaultExecutionSpace::name();
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--backend" && i + 1 < argc) name = argv[i + 1];
    if (a.rfind("--backend=", 0) == 0) name = a.substr(10);
  }
  for (char& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

bool gpu_computes(int argc, char* argv[]) {
  const std::string backend = chosen_backend(argc, argv);
  return backend == "cuda" || backend == "hip";
}

// Moves the process from `from` to `to`; false (and left on `from`) where the system refuses
// or a cpuset (container, batch system) allows only part of `to`.
bool move_to(const std::vector<int>& from, const std::vector<int>& to) {
  if (to.empty() || to == from || !set_allowed_cpus(to)) return false;
  if (allowed_cpus() == to) return true;
  set_allowed_cpus(from);
  return false;
}

// A GPU rank that the launcher bound to one CPU takes its share of the node instead
// (gpu_rank_cpus says why); returns the banner's note, or "" where nothing changed.
std::string widen_lone_gpu_rank(int argc, char* argv[], const mpi::Runtime& mpi) {
  if (!mpi.active() || mpi.local_size() < 2 || !gpu_computes(argc, argv)) return "";
  const std::vector<int> bound = allowed_cpus();
  if (!move_to(bound, gpu_rank_cpus(bound, online_cpus(), mpi.local_rank(), mpi.local_size()))) return "";
  return " (the launcher had bound this rank to CPU " + cpu_list(bound) +
         " alone, which its host staging and MPI would share with the kernels' launches; bind with "
         "--map-by slot:PE=N --bind-to core to choose)";
}

#if defined(KOKKOS_ENABLE_OPENMP)  // the binding concerns OpenMP's threads only
// This rank's CPUs when several ranks share a node: what the launcher bound it to, when that
// is fewer than the node has, else its node-local rank's share of them.
std::vector<int> rank_share(const mpi::Runtime& mpi) {
  std::vector<int> cpus = allowed_cpus();
  const int node_cpus = static_cast<int>(std::thread::hardware_concurrency());
  if (cpus.empty() || int(cpus.size()) < node_cpus) return cpus;  // bound by the launcher
  return share_of(cpus, mpi.local_rank(), mpi.local_size());
}

// For the banner, after the program started itself again with its default binding: the cores
// and hardware threads it may use, and the thread count taken.
std::string smt_note() {
  const std::vector<int> cpus = thread_cpus();
  const int cores = cores_of(cpus), threads = int(cpus.size());
  if (cores >= threads)
    return ", " + std::to_string(threads) + " CPUs, one hardware thread each as the OS reports them";
  const char* ours = std::getenv("APSP_KOKKOS_BINDING");
  return ", " + std::to_string(cores) + " cores of " + std::to_string(threads) + " hardware threads" +
         (ours != nullptr && std::string(ours) == "cores" ? ": one thread per core" : "");
}
#endif

}  // namespace

bool openmp_computes(int argc, char* argv[]) {
#if defined(KOKKOS_ENABLE_OPENMP)
  return chosen_backend(argc, argv) == "openmp";
#else
  (void)argc;
  (void)argv;
  return false;
#endif
}

bool host_threads_asked(int argc, char* argv[]) {
  if (std::getenv("OMP_NUM_THREADS") != nullptr) return true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--kokkos-num-threads", 0) == 0 || a.rfind("--kokkos-threads", 0) == 0) return true;
  }
  return false;
}

void share_node_before_mpi(int argc, char* argv[]) {
#if defined(KOKKOS_ENABLE_OPENMP)
  const char* bind = std::getenv("OMP_PROC_BIND");
  const bool binds = (bind != nullptr && std::string(bind) != "false") || std::getenv("OMP_PLACES") != nullptr;
  const mpi::LocalPlace place = mpi::launched_local_place();
  if (!binds || place.size < 2 || std::getenv("APSP_KOKKOS_BINDING") != nullptr) return;
  const std::vector<int> cpus = thread_cpus();
  if (cpus.empty()) return;
  // The user's binding applies to the places OpenMP finds when it loads. Unbound by the
  // launcher, that is the whole node, the same for every rank (43 s instead of 1.9 s on
  // 2 x H200, V = 11000); a GPU rank that the launcher bound to one CPU has that CPU alone
  // (1.28 s instead of 0.30 s, V = 20000). Start once more on this rank's share of the node,
  // where the same binding keeps to the rank's own CPUs.
  const bool unbound = cpus.size() >= std::thread::hardware_concurrency();
  const std::vector<int> share = unbound                    ? share_of(cpus, place.rank, place.size)
                                 : gpu_computes(argc, argv) ? gpu_rank_cpus(cpus, online_cpus(), place.rank, place.size)
                                                            : cpus;  // a CPU rank keeps the launcher's binding
  if (!move_to(cpus, share)) return;
  ::setenv("APSP_KOKKOS_BINDING", "share", 1);
  ::execv("/proc/self/exe", argv);
  // Could not start again: the check after MPI starts refuses the binding with its reason.
  set_allowed_cpus(cpus);
#else
  (void)argc;
  (void)argv;
#endif
}

std::string choose_thread_binding(int argc, char* argv[], const mpi::Runtime& mpi) {
  const char* bind = std::getenv("OMP_PROC_BIND");
  const char* places = std::getenv("OMP_PLACES");
  // Set by this program when it started itself again with its default binding (below).
  const bool our_default = std::getenv("APSP_KOKKOS_BINDING") != nullptr;
  const bool user_binds = bind != nullptr && std::string(bind) != "false";
  const std::string widened = user_binds ? "" : widen_lone_gpu_rank(argc, argv, mpi);
#if defined(KOKKOS_ENABLE_OPENMP)
  const bool computes = openmp_computes(argc, argv);
  if (mpi.active() && mpi.local_size() > 1) {
    if (user_binds) {
      // The OpenMP runtime read the binding when it loaded: it cannot be changed from here
      // (share_node_before_mpi did, where the launcher left the ranks unbound). Refused where
      // it still puts ranks of this node on the same CPUs (main).
      const char* ours = std::getenv("APSP_KOKKOS_BINDING");
      return std::string("OMP_PROC_BIND=") + bind + " OMP_PLACES=" + (places ? places : "(unset)") + " (yours" +
             (ours != nullptr && std::string(ours) == "share"
                  ? ", on CPUs " + cpu_list(thread_cpus()) + ", this rank's share of the node)"
                  : ")");
    }
    // Unbound OpenMP threads inherit the main thread's CPUs: this rank's share of the node.
    const std::vector<int> mine = rank_share(mpi);
    if (!mine.empty()) {
      set_allowed_cpus(mine);
      ::setenv("OMP_PROC_BIND", "false", 0);  // no binding for OpenMP to add (and no Kokkos advice)
      return "CPUs " + cpu_list(mine) + " of this node for this rank's threads" + widened;
    }
  }
  if (bind != nullptr || places != nullptr)
    return std::string("OMP_PROC_BIND=") + (bind ? bind : "(unset)") + " OMP_PLACES=" + (places ? places : "(unset)") +
           (our_default ? " (default" + smt_note() + "; set either to choose)" : " (yours)");
  if (computes && !mpi.active()) {
    // The OpenMP runtime reads OMP_PROC_BIND and OMP_PLACES when it is loaded, before main():
    // to bind by default the program starts itself once more with them set (a few ms). Where
    // hardware threads share a core (SMT), one thread per core: the product's micro-kernel keeps
    // a core's vector units busy from one thread (host_microkernel.hpp), and a second thread on
    // the same core shares them and its L1 and L2.
    const std::vector<int> cpus = allowed_cpus();
    const bool smt = !cpus.empty() && cores_of(cpus) < int(cpus.size());
    ::setenv("OMP_PROC_BIND", "spread", 1);
    ::setenv("OMP_PLACES", smt ? "cores" : "threads", 1);
    const bool per_core = smt && !host_threads_asked(argc, argv);
    if (per_core) ::setenv("OMP_NUM_THREADS", std::to_string(cores_of(cpus)).c_str(), 1);
    ::setenv("APSP_KOKKOS_BINDING", per_core ? "cores" : "1", 1);
    ::execv("/proc/self/exe", argv);
    ::unsetenv("OMP_PROC_BIND");  // could not start again: run unbound, and say so
    ::unsetenv("OMP_PLACES");
  }
  ::setenv("OMP_PROC_BIND", "false", 0);  // tells Kokkos nothing is bound (no advice printed)
  if (computes) return "unbound (default for this run; set OMP_PROC_BIND or OMP_PLACES to choose)";
  return std::string("unbound") + (host_threads_asked(argc, argv) ? "" : ", one thread") +
         " (default for a run whose host threads do not compute; set OMP_PROC_BIND or OMP_PLACES, and "
         "OMP_NUM_THREADS, to choose)";
#else
  (void)argc;
  (void)argv;
  (void)mpi;
  (void)bind;
  (void)places;
  (void)our_default;
  return widened.empty() ? "" : "CPUs " + cpu_list(allowed_cpus()) + " of this node" + widened;
#endif
}

}  // namespace apsp::cli
