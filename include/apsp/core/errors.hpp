// SPDX-License-Identifier: BSD-3-Clause
// The errors the program reports by kind: input that breaks the rules (exit 2) is an
// InputError; a bad option is std::invalid_argument (exit 2); anything else is a failure of
// the run (exit 1).
#pragma once

#include <stdexcept>

namespace apsp {

/// Input (or output path) that breaks the rules. what() is one line naming the file, the
/// rule and the offending value.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace apsp
