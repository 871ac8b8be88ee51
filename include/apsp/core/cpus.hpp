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

/// The CPU model from `cpuinfo` (/proc/cpuinfo; "CPU" where it names none). A virtual
/// machine's model string can leave the number out ("AMD EPYC" on Zen 3, 4 and 5 alike,
/// "Intel(R) Xeon(R) Processor"): such a name gets the family and model numbers, which tell the
/// generations apart ("AMD EPYC (family 26 model 2)"; no comma: a run's devices are joined by
/// ", "). The calibration cache and apsp_report.py's platforms go by this name.
std::string cpu_model(const std::string& cpuinfo = "/proc/cpuinfo");

/// The CPUs the OS has online (`sysfs`/online, "0-31"), ascending; where that file is missing,
/// 0 .. hardware_concurrency() - 1. `sysfs`: where the file is (tests).
std::vector<int> online_cpus(const std::string& sysfs = "/sys/devices/system/cpu");

/// The `rank`-th of `ranks` contiguous shares of `cpus`, sizes differing by at most one (one
/// CPU each, in turn, where ranks outnumber CPUs).
std::vector<int> share_of(const std::vector<int>& cpus, int rank, int ranks);

/// The CPUs for a GPU rank (node-local `rank` of `ranks`) that a launcher bound to `bound`:
/// `bound`, unless that is one CPU and its share of `node` (the node's online CPUs) is more.
/// Open MPI binds each rank to one core by default for -np <= 2; a GPU rank's host work (the
/// pivot rows through host staging, MPI, the output's copies) then shares that core with the
/// thread that launches the kernels: 5.76 s against 1.75 s for V = 40000 on two H200s.
std::vector<int> gpu_rank_cpus(const std::vector<int>& bound, const std::vector<int>& node, int rank, int ranks);

/// The cores `cpus` belong to, as the OS reports them (/sys/devices/system/cpu/cpuN/topology):
/// fewer cores than CPUs where hardware threads share a core (SMT). Where the topology is not
/// reported, every CPU counts as a core. `sysfs`: where the cpuN folders are (tests).
int cores_of(const std::vector<int>& cpus, const std::string& sysfs = "/sys/devices/system/cpu");

}  // namespace apsp
