// SPDX-License-Identifier: BSD-3-Clause
// The single-process run: the one pipeline (run_stages.hpp) over the SingleProcess policy, on
// the execution space the options name.
#include "apsp/pipeline/pipeline.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>

#include "apsp/backends/enabled_backends.hpp"
#include "run_stages.hpp"
#include "single_process.hpp"

namespace apsp {

int64_t host_memory_available() {
  int64_t avail = INT64_MAX;
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  int64_t kb;
  std::string unit;
  while (meminfo >> key >> kb >> unit)
    if (key == "MemAvailable:") avail = kb * 1024;
  // A cgroup v2 limit, when one is set, can be tighter than the machine's free memory.
  std::ifstream max_f("/sys/fs/cgroup/memory.max"), cur_f("/sys/fs/cgroup/memory.current");
  std::string max_s;
  int64_t cur = 0;
  if (max_f >> max_s && max_s != "max" && cur_f >> cur) avail = std::min<int64_t>(avail, std::stoll(max_s) - cur);
  return avail;
}

RunReport run_pipeline(const RunOptions& options) {
  Impl::SingleProcess one;
  return dispatch_backend(options.backend,
                          [&](auto tag) { return Impl::run_stages<typename decltype(tag)::type>(options, one); });
}

}  // namespace apsp
