#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every header stands alone: each of include/apsp/ and its sub-folders (the backends' in include/apsp/backends/
# too) compiled as the only include of a translation unit, with the compiler and flags of the
# build's own src/main.cpp (its compile_commands.json). A host build checks the host headers; a
# HIP build (hipcc: scripts/build_hip.sh runs this) the HIP ones too, a CUDA build (nvcc_wrapper)
# the CUDA ones too.
#   scripts/check_headers.sh BUILD_DIR [PATTERN]   (PATTERN: only the headers whose path matches)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
[ -f "$build/compile_commands.json" ] || { echo "$build/compile_commands.json missing (configure first)"; exit 1; }
mapfile -t cmd < <(python3 - "$build/compile_commands.json" <<'PY'
import json, shlex, sys
for e in json.load(open(sys.argv[1])):
    if e["file"].endswith("/src/main.cpp"):
        args = shlex.split(e["command"]) if "command" in e else e["arguments"]
        out, i = [], 0
        while i < len(args):
            if args[i] in ("-o", "-c"):
                i += 2
                continue
            if not args[i].endswith("main.cpp"):
                out.append(args[i])
            i += 1
        print("\n".join(out))
        break
PY
)
[ "${#cmd[@]}" -gt 0 ] || { echo "no compile command for src/main.cpp in $build"; exit 1; }
case "${cmd[0]}" in
  *hipcc*) skip="cuda" only=(-fsyntax-only) ;;
  *nvcc*) skip="hip" only=(-c -o /dev/null) ;;  # nvcc has no syntax-only pass
  *) skip="cuda\|hip" only=(-fsyntax-only) ;;
esac
headers=$(cd "$here/include" && find apsp -name "*.hpp" | sort | grep -v "^apsp/backends/\($skip\)_" | grep -e "${2:-.}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
check() {
  local h=$1 tu
  tu="$work/$(echo "$h" | tr '/.' '__').cpp"
  printf '#include "%s"\n' "$h" >"$tu"
  if ! "${cmd[@]}" "${only[@]}" "$tu" >"$tu.log" 2>&1; then
    echo "$h does not compile on its own:"
    grep -m 3 "error" "$tu.log"
    return 1
  fi
}
export -f check
export work
status=0
printf '%s\n' $headers | xargs -P "$(nproc)" -I{} bash -c "$(declare -p cmd only); check {}" || status=1
echo "headers: $(printf '%s\n' $headers | wc -l) checked$([ $status -eq 0 ] && echo ", each compiles on its own")"
exit $status
