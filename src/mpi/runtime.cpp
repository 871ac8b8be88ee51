// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/mpi/runtime.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "apsp/core/cpus.hpp"

#if defined(APSP_HAVE_MPI)
#include <mpi.h>
#if defined(OPEN_MPI) && __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // MPIX_CUDA_AWARE_SUPPORT, MPIX_Query_cuda_support, MPIX_ROCM_AWARE_SUPPORT
#endif
#endif

namespace apsp::mpi {

namespace {
bool agreed = false;

int env_int(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::atoi(v) : 0;
}

// Set by a launcher in every process it starts (Open MPI, MPICH/Hydra and PMI, PMIx), or a
// task of a Slurm job step of several tasks (srun, whatever its --mpi plugin sets).
[[maybe_unused]] bool started_by_launcher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK"})
    if (std::getenv(name) != nullptr) return true;
  return env_int("SLURM_STEP_NUM_TASKS") > 1;
}
}  // namespace

bool built_with_mpi() {
#if defined(APSP_HAVE_MPI)
  return true;
#else
  return false;
#endif
}

bool slurm_step_without_process_manager() {
#if defined(OPEN_MPI)
  if (env_int("SLURM_STEP_NUM_TASKS") <= 1) return false;
  if (const char* type = std::getenv("SLURM_MPI_TYPE"); type != nullptr && std::strcmp(type, "none") != 0) return false;
  for (char** e = environ; *e != nullptr; ++e)
    if (std::strncmp(*e, "PMI_", 4) == 0 || std::strncmp(*e, "PMIX_", 5) == 0 ||
        std::strncmp(*e, "OMPI_COMM_WORLD", 15) == 0)
      return false;
  return true;
#else
  // Other MPIs may reach Slurm through its PMI-1 library, which needs no variable (MPICH or
  // MVAPICH built --with-pmi=slurm under srun --mpi=none); the check after MPI_Init catches
  // the ones that cannot.
  return false;
#endif
}

int launched_world_size() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS", "SLURM_STEP_NUM_TASKS"})
    if (const int n = env_int(name); n > 0) return n;
  // PMIx (e.g. srun --mpi=pmix) names the rank but not always the size.
  return std::getenv("PMIX_RANK") != nullptr ? 2 : 1;
}

namespace {
// Slurm's tasks on node `node` from SLURM_STEP_TASKS_PER_NODE, e.g. "2(x3),1": 0 if unknown.
int slurm_tasks_on_node(const char* spec, int node) {
  for (const char* p = spec; p != nullptr && *p != '\0';) {
    char* end = nullptr;
    const long tasks = std::strtol(p, &end, 10);
    if (end == p) return 0;
    long repeat = 1;
    if (end[0] == '(' && end[1] == 'x') {
      repeat = std::strtol(end + 2, &end, 10);
      if (*end == ')') ++end;
    }
    if (node < repeat) return int(tasks);
    node -= int(repeat);
    p = *end == ',' ? end + 1 : nullptr;
  }
  return 0;
}
}  // namespace

LocalPlace launched_local_place() {
  if (const char* r = std::getenv("OMPI_COMM_WORLD_LOCAL_RANK"))
    return {std::atoi(r), env_int("OMPI_COMM_WORLD_LOCAL_SIZE")};
  if (const char* r = std::getenv("MPI_LOCALRANKID")) return {std::atoi(r), env_int("MPI_LOCALNRANKS")};
  if (const char* r = std::getenv("SLURM_LOCALID"))
    return {std::atoi(r), slurm_tasks_on_node(std::getenv("SLURM_STEP_TASKS_PER_NODE"), env_int("SLURM_NODEID"))};
  return {0, 0};
}

Runtime::Runtime(int* argc, char*** argv) {
#if defined(APSP_HAVE_MPI)
  if (!started_by_launcher()) return;
  int provided = 0;
  init_started_ = std::chrono::steady_clock::now();
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  active_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local_rank_);
  MPI_Comm_size(node, &local_size_);
  MPI_Comm_free(&node);
  int leader = local_rank_ == 0 ? 1 : 0;
  MPI_Allreduce(&leader, &nodes_, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
#else
  (void)argc;
  (void)argv;
#endif
}

Runtime::~Runtime() {
#if defined(APSP_HAVE_MPI)
  if (active_) MPI_Finalize();
#endif
}

std::string Runtime::shared_cpus() const {
#if defined(APSP_HAVE_MPI)
  if (!active_ || local_size_ < 2) return "";
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  const std::vector<int> mine = thread_cpus();
  // Every rank's host and CPUs, as fixed-size records: host (64 bytes) and a CPU bit set.
  constexpr int kHost = 64, kWords = 16;  // 1024 CPUs
  std::vector<uint64_t> record(size_t(kHost / 8 + kWords), 0);
  std::memcpy(record.data(), host, std::min<size_t>(std::strlen(host), kHost - 1));
  for (int c : mine)
    if (c < 64 * kWords)
      record[static_cast<size_t>(kHost / 8) + static_cast<size_t>(c / 64)] |= uint64_t(1) << (c % 64);
  std::vector<uint64_t> all(record.size() * size_t(size_));
  MPI_Allgather(record.data(), int(record.size()), MPI_UINT64_T, all.data(), int(record.size()), MPI_UINT64_T,
                MPI_COMM_WORLD);
  const size_t n = record.size();
  for (int a = 0; a < size_; ++a)
    for (int b = a + 1; b < size_; ++b) {
      const uint64_t* ra = &all[size_t(a) * n];
      const uint64_t* rb = &all[size_t(b) * n];
      if (std::memcmp(ra, rb, kHost) != 0) continue;  // other nodes
      std::vector<int> both;
      for (int w = 0; w < kWords; ++w)
        for (int bit = 0; bit < 64; ++bit)
          if ((ra[kHost / 8 + w] & rb[kHost / 8 + w]) >> bit & 1) both.push_back(64 * w + bit);
      if (!both.empty())
        return "ranks " + std::to_string(a) + " and " + std::to_string(b) + " on " +
               std::string(reinterpret_cast<const char*>(ra)) + " share CPUs " + cpu_list(both);
    }
#endif
  return "";
}

std::string Runtime::first_refusal(const std::string& mine) const {
#if defined(APSP_HAVE_MPI)
  if (!active_) return mine;
  int first = mine.empty() ? size_ : rank_;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == size_) return "";
  int length = rank_ == first ? int(mine.size()) : 0;
  MPI_Bcast(&length, 1, MPI_INT, first, MPI_COMM_WORLD);
  std::string text = rank_ == first ? mine : std::string(size_t(length), ' ');
  MPI_Bcast(text.data(), length, MPI_CHAR, first, MPI_COMM_WORLD);
  return text;
#else
  return mine;
#endif
}

void Runtime::abort(int code) const {
#if defined(APSP_HAVE_MPI)
  if (active_) MPI_Abort(MPI_COMM_WORLD, code);
#endif
  std::exit(code);
}

bool device_aware(const char* api) {
  const std::string name = api != nullptr ? api : "";
#if defined(APSP_HAVE_MPI) && defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  if (name == "CUDA") return MPIX_Query_cuda_support() == 1;
#endif
#if defined(APSP_HAVE_MPI) && defined(MPIX_ROCM_AWARE_SUPPORT) && MPIX_ROCM_AWARE_SUPPORT
  if (name == "ROCm") return MPIX_Query_rocm_support() == 1;
#endif
  return false;
}

bool failure_agreed() { return agreed; }
void set_failure_agreed() { agreed = true; }

}  // namespace apsp::mpi
