// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/core/cpus.hpp"
#include "apsp/core/helper_thread.hpp"

#include <sched.h>
#if defined(_OPENMP)
#include <omp.h>
#endif

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace apsp {

std::string cpu_model(const std::string& cpuinfo) {
  std::ifstream in(cpuinfo);
  std::string name, family, model;
  auto value = [](const std::string& line) {  // after "key\t: "
    const size_t at = line.find_first_not_of(' ', line.find(':') + 1);
    return at == std::string::npos ? std::string() : line.substr(at);
  };
  for (std::string line; (name.empty() || family.empty() || model.empty()) && std::getline(in, line);) {
    if (line.find(':') == std::string::npos) continue;
    if (line.rfind("model name", 0) == 0)
      name = value(line);
    else if (line.rfind("cpu family", 0) == 0)
      family = value(line);
    else if (line.rfind("model", 0) == 0)
      model = value(line);
  }
  if (name.empty()) return "CPU";
  const bool numbered = std::any_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (numbered || family.empty() || model.empty()) return name;
  return name + " (family " + family + " model " + model + ")";
}

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (::sched_getaffinity(0, sizeof set, &set) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

std::vector<int> thread_cpus() {
  std::vector<int> cpus;
#if defined(_OPENMP)
  if (omp_get_proc_bind() != omp_proc_bind_false)
    for (int p = 0; p < omp_get_num_places(); ++p) {
      std::vector<int> ids(size_t(std::max(0, omp_get_place_num_procs(p))));
      omp_get_place_proc_ids(p, ids.data());
      cpus.insert(cpus.end(), ids.begin(), ids.end());
    }
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
#endif
  return cpus.empty() ? allowed_cpus() : cpus;
}

bool set_allowed_cpus(const std::vector<int>& cpus) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus)
    if (c >= 0 && c < CPU_SETSIZE) CPU_SET(c, &set);
  return !cpus.empty() && ::sched_setaffinity(0, sizeof set, &set) == 0;
}

void use_process_cpus() { set_allowed_cpus(thread_cpus()); }

std::string cpu_list(const std::vector<int>& cpus) {
  std::string text;
  for (size_t i = 0; i < cpus.size();) {
    size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!text.empty()) text += ',';
    text += std::to_string(cpus[i]);
    if (j > i) text += "-" + std::to_string(cpus[j]);
    i = j + 1;
  }
  return text;
}

std::vector<int> online_cpus(const std::string& sysfs) {
  std::vector<int> cpus;
  std::ifstream in(sysfs + "/online");
  std::string text;
  if (in >> text) {
    std::stringstream ranges(text);
    for (std::string range; std::getline(ranges, range, ',');) {
      const size_t dash = range.find('-');
      try {
        const int first = std::stoi(range.substr(0, dash));
        const int last = dash == std::string::npos ? first : std::stoi(range.substr(dash + 1));
        for (int c = first; c <= last && c < CPU_SETSIZE; ++c) cpus.push_back(c);
      } catch (const std::exception&) {
        cpus.clear();  // not the kernel's format: fall back below
        break;
      }
    }
  }
  if (cpus.empty())
    for (int c = 0; c < int(std::thread::hardware_concurrency()); ++c) cpus.push_back(c);
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

std::vector<int> share_of(const std::vector<int>& cpus, int rank, int ranks) {
  const int n = int(cpus.size());
  if (n == 0 || ranks < 1) return {};
  if (ranks >= n) return {cpus[size_t(rank % n)]};
  return std::vector<int>(cpus.begin() + n * rank / ranks, cpus.begin() + n * (rank + 1) / ranks);
}

std::vector<int> gpu_rank_cpus(const std::vector<int>& bound, const std::vector<int>& node, int rank, int ranks) {
  if (bound.size() != 1) return bound;
  std::vector<int> share = share_of(node, rank, ranks);
  return share.size() > 1 ? share : bound;
}

int cores_of(const std::vector<int>& cpus, const std::string& sysfs) {
  std::set<std::pair<long, long>> cores;  // (package, core)
  for (int c : cpus) {
    const std::string dir = sysfs + "/cpu" + std::to_string(c) + "/topology/";
    long package = -1, core = -1;
    std::ifstream(dir + "physical_package_id") >> package;
    std::ifstream(dir + "core_id") >> core;
    if (core < 0) return int(cpus.size());  // not reported
    cores.insert({package, core});
  }
  return int(cores.size());
}

}  // namespace apsp
