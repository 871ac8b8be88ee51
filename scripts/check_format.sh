#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Fails if a C++ file of the project differs from its .clang-format, or a source lacks an SPDX
# line. The files are found by name, not through git, so that a copy without .git (git archive)
# checks the same files.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
project_files() {  # NAME-PATTERN...: the project's files (not builds, caches or hidden folders)
  local args=() p
  for p in "$@"; do args+=(-o -name "$p"); done
  find . \( -path './build*' -o -path './.*' \) -prune -o -type f \( "${args[@]:1}" \) -print | sort
}
mapfile -t cxx < <(project_files '*.cpp' '*.hpp' '*.cu')
[ "${#cxx[@]}" -gt 0 ] || { echo "no C++ files found"; exit 1; }
for f in "${cxx[@]}"; do
  if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then echo "not formatted: $f"; status=1; fi
  head -n 3 "$f" | grep -q "SPDX-License-Identifier" || { echo "no SPDX line: $f"; status=1; }
done
for f in $(project_files '*.py' '*.sh' 'CMakeLists.txt' '*.cmake'); do
  head -n 3 "$f" | grep -q "SPDX-License-Identifier" || { echo "no SPDX line: $f"; status=1; }
done
[ $status -eq 0 ] && echo "format and licence headers: ok (${#cxx[@]} C++ files)"
exit $status
