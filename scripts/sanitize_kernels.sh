#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every kernel of a GPU build under compute-sanitizer's four tools (memcheck, racecheck,
# synccheck, initcheck): one line per tool, exit 1 on any finding.
#   scripts/sanitize_kernels.sh build-cuda [path/to/compute-sanitizer]
#
# The runs reach every kernel the program launches: graphs whose tiles take 16-bit lanes
# (weights 0..1000), take the int32 product (heavy weights), hold unreachable pairs (components)
# and long paths (a chain), each solved with --predecessors (the edge rows and the predecessor
# search besides the build and the phases) and once more with --verify. The kernels are named
# from the binary (cuobjdump) so that the list shows what exists; small V keeps the slow tools
# (racecheck) to seconds.
set -euo pipefail
build=${1:-build-cuda}
sanitizer=${2:-$(command -v compute-sanitizer || true)}
[ -n "$sanitizer" ] || { echo "compute-sanitizer not found (CUDA toolkit)"; exit 1; }
exe=$build/apsp_kokkos gen=$build/apsp_gen
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$gen" -n 300 -e 9000 --seed 1 "$work/random.bin" >/dev/null 2>&1
"$gen" -n 300 -e 9000 --seed 2 --min-weight 20000 --max-weight 100000 "$work/heavy.bin" >/dev/null 2>&1
"$gen" -n 300 -e 6000 --seed 3 --shape components --components 4 "$work/components.bin" >/dev/null 2>&1
"$gen" -n 200 --shape chain "$work/chain.bin" >/dev/null 2>&1

if command -v cuobjdump >/dev/null; then
  kernels=$(cuobjdump --list-elf "$exe" >/dev/null 2>&1 && cuobjdump -symbols "$exe" 2>/dev/null |
    grep -c "STT_FUNC.*STO_ENTRY" || true)
  echo "kernels in $exe: ${kernels:-unknown}"
fi

status=0
for tool in memcheck racecheck synccheck initcheck; do
  findings=0 runs=0 failed=""
  for g in random heavy components chain; do
    for extra in "--predecessors $work/p.out" "--verify"; do
      # shellcheck disable=SC2086 # extra is two words on purpose
      "$sanitizer" --tool "$tool" --error-exitcode 99 "$exe" --quiet "$work/$g.bin" "$work/d.out" $extra \
        >"$work/log" 2>&1 && rc=0 || rc=$?
      runs=$((runs + 1))
      # "ERROR SUMMARY: n errors" (memcheck, synccheck, initcheck), "RACECHECK SUMMARY: n hazards"
      n=$(grep -oE "(ERROR|RACECHECK) SUMMARY: [0-9]+" "$work/log" | grep -oE "[0-9]+$" | tail -1)
      if [ "$rc" -ne 0 ] || [ -z "$n" ] || [ "$n" -ne 0 ]; then
        findings=$((findings + ${n:-1}))
        failed="$failed $g(${extra%% *}, rc=$rc)"
        cp "$work/log" "${TMPDIR:-/tmp}/sanitize_${tool}_$g.log"
      fi
    done
  done
  if [ "$findings" -eq 0 ]; then
    echo "$tool: clean ($runs runs)"
  else
    echo "$tool: $findings finding(s) in$failed (logs: ${TMPDIR:-/tmp}/sanitize_${tool}_*.log)"
    status=1
  fi
done
exit $status
