#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Fails if a tracked C++ file differs from the project's .clang-format, or lacks an SPDX line.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
for f in $(git ls-files '*.cpp' '*.hpp'); do
  if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then echo "not formatted: $f"; status=1; fi
  head -n 3 "$f" | grep -q "SPDX-License-Identifier" || { echo "no SPDX line: $f"; status=1; }
done
for f in $(git ls-files '*.py' '*.sh' 'CMakeLists.txt' '*/CMakeLists.txt' 'cmake/*.cmake'); do
  head -n 3 "$f" | grep -q "SPDX-License-Identifier" || { echo "no SPDX line: $f"; status=1; }
done
[ $status -eq 0 ] && echo "format and licence headers: ok"
exit $status
