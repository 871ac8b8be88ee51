#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# clang-tidy with the repository's .clang-tidy over every project source in a build's
# compile_commands.json (src/, tests/); fails on any finding in the project's own files. The
# tests' own files take every check but the static analyzer's (clang-analyzer-*): its path
# search over GoogleTest's typed-test expansions took 157 s for tests/test_solver.cpp against
# 16 s without it, most of the test command's clang-tidy time; src/ keeps it, and the headers
# the tests include are analysed through src/.
#   scripts/check_tidy.sh BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
tidy=${CLANG_TIDY:-$(command -v clang-tidy || true)}
[ -n "$tidy" ] || { echo "clang-tidy not found"; exit 1; }
[ -f "$build/compile_commands.json" ] || { echo "$build/compile_commands.json missing (configure first)"; exit 1; }
# The project's translation units (not the generated or third-party ones).
mapfile -t files < <(python3 -c '
import json, sys
root = sys.argv[1]
seen = set()
for e in json.load(open(sys.argv[2])):
    f = e["file"]
    if f.startswith(root + "/src/") or f.startswith(root + "/tests/"):
        if f not in seen:
            seen.add(f)
            print(f)
' "$here" "$build/compile_commands.json")
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# GCC's flags that clang does not know are dropped; nvcc builds are not checked here.
run_tidy() {  # [EXTRA-ARG]: clang-tidy on the files read from stdin, nproc at a time
  xargs -r -P "$(nproc)" -n 1 "$tidy" -p "$build" --quiet "$@" --extra-arg=-Wno-unknown-warning-option \
    --extra-arg=-Wno-ignored-optimization-argument
}
{
  printf '%s\n' "${files[@]}" | grep -v "^$here/tests/" | run_tidy
  printf '%s\n' "${files[@]}" | grep "^$here/tests/" | run_tidy "--checks=-clang-analyzer-*"
} >"$log" 2>&1 || true
if grep -E "(warning|error):" "$log" | grep -v "^Suppressed" >/dev/null; then
  grep -E -A3 "(warning|error):" "$log"
  echo "clang-tidy: $(grep -cE "(warning|error):" "$log") finding(s) in ${#files[@]} files"
  exit 1
fi
echo "clang-tidy: ${#files[@]} files, no findings"
