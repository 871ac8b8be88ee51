// SPDX-License-Identifier: BSD-3-Clause
// Numeric options, checked for every program of the project (apsp_kokkos, apsp_gen,
// apsp_convert): a value that is not a number, out of range or too large for its type is one
// short line naming what the option takes (CLI11's own range checks print the double range,
// a 300-digit number).
#pragma once

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace apsp::cli {

/// An integer in [lo, hi]: "'x' is not an integer in [lo, hi]".
inline CLI::Validator integer_in(int64_t lo, int64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) {
        errno = 0;
        char* end = nullptr;
        const long long v = std::strtoll(text.c_str(), &end, 10);
        if (!text.empty() && end == text.c_str() + text.size() && errno == 0 && v >= lo && v <= hi)
          return std::string();
        return "'" + text + "' is not an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
      },
      "INT in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
}

/// A positive integer that fits an int.
inline CLI::Validator positive_int() { return integer_in(1, INT32_MAX); }

/// A finite real number above 0: "'x' is not a positive number".
inline CLI::Validator positive_real() {
  return CLI::Validator(
      [](std::string& text) {
        errno = 0;
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (!text.empty() && end == text.c_str() + text.size() && errno == 0 && std::isfinite(v) && v > 0)
          return std::string();
        return "'" + text + "' is not a positive number";
      },
      "POSITIVE");
}

}  // namespace apsp::cli
