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
# (racecheck) to seconds. One process and, where mpirun is, two ranks run --order nested as well
# (below).
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
"$gen" -n 400 --shape grid --seed 4 "$work/grid.bin" >/dev/null 2>&1

if command -v cuobjdump >/dev/null; then
  kernels=$(cuobjdump --list-elf "$exe" >/dev/null 2>&1 && cuobjdump -symbols "$exe" 2>/dev/null |
    grep -c "STT_FUNC.*STO_ENTRY" || true)
  echo "kernels in $exe: ${kernels:-unknown}"
fi

# One run under the tool, on each of RANKS ranks (mpirun) where RANKS > 1; a run with findings,
# a non-zero exit or a rank without its summary line counts, and its log is kept.
check() {  # TOOL LABEL RANKS COMMAND...
  local tool=$1 label=$2 ranks=$3 rc counts n=0 c
  shift 3
  local launch=("$sanitizer" --tool "$tool" --error-exitcode 99)
  if [ "$ranks" -gt 1 ]; then
    # The ranks' pivot rows arrive in pinned host buffers written by MPI from the CPU, which the
    # tool does not see: initcheck calls every copy out of them uninitialized (25152 findings per
    # rank at V = 400, the same with and without --order nested). Without its check of the copy
    # APIs it still checks every kernel's reads (0 findings).
    [ "$tool" = initcheck ] && launch+=(--check-api-memory-access no)
    launch=(mpirun -np "$ranks" --bind-to none "${launch[@]}")
  fi
  "${launch[@]}" "$@" >"$work/log" 2>&1 && rc=0 || rc=$?
  runs=$((runs + 1))
  # "ERROR SUMMARY: n errors" (memcheck, synccheck, initcheck), "RACECHECK SUMMARY: n hazards"
  counts=$(grep -oE "(ERROR|RACECHECK) SUMMARY: [0-9]+" "$work/log" | grep -oE "[0-9]+$" || true)
  for c in $counts; do n=$((n + c)); done
  if [ "$rc" -ne 0 ] || [ "$(grep -c . <<<"$counts")" -lt "$ranks" ] || [ "$n" -ne 0 ]; then
    findings=$((findings + (n > 0 ? n : 1)))
    failed="$failed $label(rc=$rc)"
    cp "$work/log" "${TMPDIR:-/tmp}/sanitize_${tool}_${label}.log"
  fi
}

# Under MPI (where mpirun is), two ranks sharing the GPU: --order nested adds the kernel that
# packs and places the rows renumbered back (mpi/file_order_*.hpp), through the GPUs' peer
# buffers and, with --pivot-rows mpi, through host memory.
mpi=0
command -v mpirun >/dev/null && mpi=1

status=0
for tool in memcheck racecheck synccheck initcheck; do
  findings=0 runs=0 failed=""
  for g in random heavy components chain; do
    check "$tool" "$g-predecessors" 1 "$exe" --quiet "$work/$g.bin" "$work/d.out" --predecessors "$work/p.out"
    check "$tool" "$g-verify" 1 "$exe" --quiet "$work/$g.bin" "$work/d.out" --verify
  done
  # One process renumbered: the rows are moved back to the file's numbering on the GPU
  # (solver/file_numbering.hpp), the kernel the MPI layer uses too.
  check "$tool" "nested-predecessors" 1 "$exe" --quiet --order nested "$work/grid.bin" "$work/d.out" \
    --predecessors "$work/p.out"
  if [ "$mpi" -eq 1 ]; then
    for path in peers host; do
      extra=()
      [ "$path" = host ] && extra=(--pivot-rows mpi)
      check "$tool" "mpi-nested-$path" 2 "$exe" --quiet --order nested "${extra[@]}" "$work/grid.bin" \
        "$work/d.out" --predecessors "$work/p.out"
    done
  fi
  if [ "$findings" -eq 0 ]; then
    echo "$tool: clean ($runs runs)"
  else
    echo "$tool: $findings finding(s) in$failed (logs: ${TMPDIR:-/tmp}/sanitize_${tool}_*.log)"
    status=1
  fi
done
exit $status
