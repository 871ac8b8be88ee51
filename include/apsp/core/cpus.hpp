// SPDX-License-Identifier: BSD-3-Clause
// The CPUs a process may run on (its affinity mask), as lists and as text.
#pragma once

#include <string>
#include <vector>

namespace apsp {

/// The CPUs this process may run on, ascending (the calling thread's affinity mask).
std::vector<int> allowed_cpus();

/// The CPUs this process's host threads will use, ascending: where OpenMP binds them, the
/// CPUs of its places (found when it loaded, before it bound the first thread to the first
/// place), else allowed_cpus().
std::vector<int> thread_cpus();

/// Puts the calling thread (before it starts others: the whole process) on `cpus`; false when
/// the system refuses (the thread stays where it was).
bool set_allowed_cpus(const std::vector<int>& cpus);

/// "0-7,16-23".
std::string cpu_list(const std::vector<int>& cpus);

/// The cores `cpus` belong to, as the OS reports them (/sys/devices/system/cpu/cpuN/topology):
/// fewer cores than CPUs where hardware threads share a core (SMT). Where the topology is not
/// reported, every CPU counts as a core. `sysfs`: where the cpuN folders are (tests).
int cores_of(const std::vector<int>& cpus, const std::string& sysfs = "/sys/devices/system/cpu");

}  // namespace apsp
