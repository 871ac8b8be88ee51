// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/core/process_clock.hpp"

#include <time.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

namespace apsp {

std::string process_start_ticks(long pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(f, line)) return "";
  const auto close = line.rfind(')');  // the command name may hold spaces
  if (close == std::string::npos) return "";
  std::istringstream rest(line.substr(close + 2));
  std::string field;
  for (int i = 3; i <= 22 && rest >> field; ++i) {
  }
  return field;
}

namespace {
// Seconds since boot at which this process started, or a negative number.
double started_after_boot() {
  const std::string ticks_text = process_start_ticks(long(::getpid()));
  const long ticks = ::sysconf(_SC_CLK_TCK);
  return ticks > 0 && !ticks_text.empty() ? std::stod(ticks_text) / double(ticks) : -1;
}
}  // namespace

std::chrono::steady_clock::time_point process_start() {
  static const std::chrono::steady_clock::time_point start = [] {
    const auto now = std::chrono::steady_clock::now();
    timespec boot{};
    const double began = started_after_boot();
    if (began < 0 || ::clock_gettime(CLOCK_BOOTTIME, &boot) != 0) return now;
    const double age = double(boot.tv_sec) + 1e-9 * double(boot.tv_nsec) - began;
    if (age < 0 || age > 3600) return now;  // a clock we cannot trust
    return now - std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(age));
  }();
  return start;
}

}  // namespace apsp
