// SPDX-License-Identifier: BSD-3-Clause
// The CPUs a process may run on (its affinity mask), as lists and as text.
#pragma once

#include <string>
#include <vector>

namespace apsp {

/// The CPUs this process may run on, ascending.
std::vector<int> allowed_cpus();

/// "0-7,16-23".
std::string cpu_list(const std::vector<int>& cpus);

}  // namespace apsp
