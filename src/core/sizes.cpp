// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/core/sizes.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace apsp {

std::string format_bytes(int64_t bytes) {
  if (bytes == kTooLarge) return "more than 9.2 EB";
  struct Unit {
    double size;
    const char* name;
  };
  static constexpr Unit kUnits[] = {{1e18, "EB"}, {1e15, "PB"}, {1e12, "TB"}, {1e9, "GB"}, {1e6, "MB"}, {1e3, "kB"}};
  char buf[48];
  for (const Unit& u : kUnits)
    if (double(bytes) >= u.size) {
      const double x = double(bytes) / u.size;
      std::snprintf(buf, sizeof buf, x < 10 ? "%.2f %s" : (x < 100 ? "%.1f %s" : "%.0f %s"), x, u.name);
      return buf;
    }
  std::snprintf(buf, sizeof buf, "%lld B", static_cast<long long>(bytes));
  return buf;
}

int64_t parse_bytes(const std::string& text, const std::string& what) {
  auto bad = [&](const std::string& why) {
    return std::invalid_argument(what + " '" + text + "': " + why +
                                 " (a size such as 64GB, 512MiB or 1.5T; plain numbers are bytes)");
  };
  size_t at = 0;
  double number = 0;
  try {
    number = std::stod(text, &at);
  } catch (const std::exception&) {
    throw bad("not a size");
  }
  if (!std::isfinite(number)) throw bad("not a size");
  std::string unit;
  for (size_t i = at; i < text.size(); ++i)
    if (!std::isspace(static_cast<unsigned char>(text[i])))
      unit += char(std::tolower(static_cast<unsigned char>(text[i])));
  struct Unit {
    const char* name;
    double factor;
  };
  static constexpr Unit kUnits[] = {{"", 1},
                                    {"b", 1},
                                    {"k", 1e3},
                                    {"kb", 1e3},
                                    {"m", 1e6},
                                    {"mb", 1e6},
                                    {"g", 1e9},
                                    {"gb", 1e9},
                                    {"t", 1e12},
                                    {"tb", 1e12},
                                    {"p", 1e15},
                                    {"pb", 1e15},
                                    {"kib", 1024.0},
                                    {"mib", 1048576.0},
                                    {"gib", 1073741824.0},
                                    {"tib", 1099511627776.0},
                                    {"pib", 1125899906842624.0}};
  for (const Unit& u : kUnits)
    if (unit == u.name) {
      const double bytes = number * u.factor;
      if (bytes < 1) throw bad(number < 0 ? "negative" : "must be at least one byte");
      if (bytes >= 9.2e18) throw bad("too large");
      return static_cast<int64_t>(bytes);
    }
  throw bad("unknown unit '" + unit + "'");
}

}  // namespace apsp
