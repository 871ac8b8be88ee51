// SPDX-License-Identifier: BSD-3-Clause
#include "kokkos_args.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "apsp/backends/enabled_backends.hpp"
#include "apsp/core/cpus.hpp"
#include "thread_binding.hpp"

namespace apsp::cli {

namespace {

// Host threads for this rank: the CPUs of its affinity mask (choose_thread_binding gave it
// its share of the node), else the node's cores shared among its ranks.
int threads_allowed(const mpi::Runtime& mpi) {
  if (const auto cpus = thread_cpus(); !cpus.empty()) return int(cpus.size());
  return int(std::max(1u, std::thread::hardware_concurrency() / unsigned(mpi.local_size())));
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// Kokkos' option for `n` host threads, as the Kokkos in use spells it.
std::string threads_option(int n) {
#if KOKKOS_VERSION >= 40000
  return "--kokkos-num-threads=" + std::to_string(n);
#else
  return "--kokkos-threads=" + std::to_string(n);
#endif
}

// Host threads for Kokkos where the user chose none, or 0 for Kokkos' own default: one where
// OpenMP's threads do not compute (a GPU's run, or Serial's: a pool of 16 cost 0.014 s of a
// V = 1000 run's 0.386 s on an H100 host, docs/results-log.md); with several ranks on a node, the
// node's cores shared among its ranks.
int default_host_threads(int argc, char* argv[], const mpi::Runtime& mpi) {
#if defined(KOKKOS_ENABLE_OPENMP)
  if (!openmp_computes(argc, argv)) return 1;
#else
  (void)argc;
  (void)argv;
#endif
  return mpi.active() && mpi.local_size() > 1 ? threads_allowed(mpi) : 0;
}

// With several ranks on a node, each takes the GPU of its node-local rank: a device chosen on
// the command line would put them all on one GPU. Returns Kokkos' arguments with any device
// choice replaced (said on rank 0). `sharing`: the warning for ranks that outnumber the
// node's GPUs (printed later, once the backend is known: a CPU run does not care).
std::vector<std::string> kokkos_args_for_rank(const std::vector<std::string>& args, const mpi::Runtime& mpi,
                                              std::string& sharing) {
  if (!mpi.active() || mpi.local_size() < 2) return args;
  const int gpus = visible_gpus();
  auto is_device_choice = [](const std::string& a) {
    return starts_with(a, "--kokkos-device-id") || starts_with(a, "--kokkos-device=") ||
           starts_with(a, "--device-id") || starts_with(a, "--kokkos-map-device-id-by");
  };
  std::vector<std::string> out;
  std::string dropped;
  for (const std::string& a : args) {
    if (gpus > 0 && is_device_choice(a))
      dropped += (dropped.empty() ? "" : " ") + a;
    else
      out.push_back(a);
  }
  // The variable too: Kokkos 3.x refuses a variable that disagrees with the option.
  if (const char* env = std::getenv("KOKKOS_DEVICE_ID"); gpus > 0 && env != nullptr) {
    dropped += std::string(dropped.empty() ? "" : " ") + "KOKKOS_DEVICE_ID=" + env;
    unsetenv("KOKKOS_DEVICE_ID");
  }
  // More ranks than cores on this node (a test on a small machine, one thread each): Kokkos'
  // oversubscription warning, several lines on every rank, would bury the run's own messages.
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  if (unsigned(mpi.local_size()) > cores) out.push_back("--kokkos-disable-warnings");
  if (gpus == 0) return out;
  out.push_back("--kokkos-device-id=" + std::to_string(mpi.local_rank() % gpus));
  if (mpi.rank() == 0 && !dropped.empty())
    std::fprintf(stderr, "apsp_kokkos: note: %s ignored: %d ranks on this node take GPUs by node-local rank\n",
                 dropped.c_str(), mpi.local_size());
  // One visible GPU per rank is what `srun --gpus-per-task=1` gives: no warning then.
  if (gpus > 1 && mpi.local_size() > gpus)
    sharing = std::to_string(mpi.local_size()) + " ranks on this node share " + std::to_string(gpus) + " GPUs";
  return out;
}

// Kokkos' options as the Kokkos in use spells them, so that --help's list works on each: 4.x
// renamed --kokkos-threads to --kokkos-num-threads and --kokkos-tools-library to
// --kokkos-tools-libs (3.x rejects the new names; 4.x still takes the old ones) and added
// --kokkos-print-configuration, which this program does itself on 3.x (`print_configuration`).
// KOKKOS_TOOLS_LIBS, 4.x's variable, is handed to 3.x as KOKKOS_PROFILE_LIBRARY.
std::vector<std::string> spelled_for_this_kokkos(const std::vector<std::string>& args, bool& print_configuration) {
#if KOKKOS_VERSION >= 40000
  (void)print_configuration;
  return args;
#else
  if (const char* tools = std::getenv("KOKKOS_TOOLS_LIBS"); tools != nullptr && !std::getenv("KOKKOS_PROFILE_LIBRARY"))
    setenv("KOKKOS_PROFILE_LIBRARY", tools, 0);
  std::vector<std::string> out;
  for (const std::string& a : args) {
    if (a == "--kokkos-print-configuration") {
      print_configuration = true;
    } else if (starts_with(a, "--kokkos-num-threads")) {
      out.push_back("--kokkos-threads" + a.substr(std::strlen("--kokkos-num-threads")));
    } else if (starts_with(a, "--kokkos-tools-libs")) {
      out.push_back("--kokkos-tools-library" + a.substr(std::strlen("--kokkos-tools-libs")));
    } else {
      out.push_back(a);
    }
  }
  return out;
#endif
}

// --kokkos-device-id=N (or a spelling Kokkos also takes), else KOKKOS_DEVICE_ID, else -1.
int chosen_device(const std::vector<std::string>& kokkos_strings) {
  int id = -1;
  const char* env = std::getenv("KOKKOS_DEVICE_ID");
  auto number = [](const std::string& text) {
    char* end = nullptr;
    const long v = std::strtol(text.c_str(), &end, 10);
    return end != text.c_str() && *end == '\0' && v >= 0 && v <= INT32_MAX ? int(v) : -1;
  };
  if (env != nullptr) id = number(env);
  for (size_t i = 1; i < kokkos_strings.size(); ++i)
    for (const char* name : {"--kokkos-device-id=", "--device-id=", "--kokkos-device="})
      if (starts_with(kokkos_strings[i], name)) id = number(kokkos_strings[i].substr(std::strlen(name)));
  return id;
}

}  // namespace

KokkosArguments::KokkosArguments(int argc, char* argv[], const mpi::Runtime& mpi) {
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    (i > 0 && (a == "--help" || a == "-h") ? help_strings_ : kokkos_strings_).push_back(a);
    kokkos_help_ = kokkos_help_ || a == "--kokkos-help";
  }
  kokkos_strings_ = spelled_for_this_kokkos(kokkos_strings_, print_configuration_);
  if (!host_threads_asked(argc, argv))  // the user's own choice wins
    if (const int threads = default_host_threads(argc, argv, mpi); threads > 0)
      kokkos_strings_.push_back(threads_option(threads));
  asked_device_ = chosen_device(kokkos_strings_);  // before a rank's own GPU replaces it
  kokkos_strings_ = kokkos_args_for_rank(kokkos_strings_, mpi, gpu_sharing_);
  for (auto& a : kokkos_strings_) kokkos_args_.push_back(a.data());
  kokkos_argc_ = static_cast<int>(kokkos_args_.size());
  kokkos_args_.push_back(nullptr);
}

std::string KokkosArguments::gpu_sharing(const std::string& backend) const {
  if (gpu_sharing_.empty()) return "";
  try {
    const bool on_gpu =
        dispatch_backend(backend, [](auto tag) { return !host_is_device<typename decltype(tag)::type>(); });
    return on_gpu ? gpu_sharing_ : "";
  } catch (const std::invalid_argument&) {
    return "";  // a backend this build lacks: refused with its own message
  }
}

std::vector<char*> KokkosArguments::remaining() {
  std::vector<char*> args(kokkos_args_.begin(), kokkos_args_.begin() + kokkos_argc_);
  for (auto& a : help_strings_) args.push_back(a.data());
  return args;
}

}  // namespace apsp::cli
