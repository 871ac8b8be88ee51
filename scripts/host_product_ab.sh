#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Compares two versions of the CPU's phase-3 tile product in one process, run in alternation
# (scripts/host_product_ab.cpp), each beside the register ceiling's loop and the L1 micro-kernel:
# each version's include folder is compiled with the project's namespace renamed, so both live
# in one binary. For a change to the micro-kernel or the product on a host whose speed drifts
# between runs.
#   scripts/host_product_ab.sh INCLUDE_A INCLUDE_B [B=192] [TILES=21] [ROUNDS=30] [light|heavy]
#   e.g. A = HEAD's include folder (git archive HEAD include | tar -x -C /tmp/head), B = include
# ROWS and REGS (environment) set the block of C (default: 6 and 2, AVX2's); CXXFLAGS the target.
# PROCESSES=N runs N copies at once, each pinned to its own CPU (spread over the CPUs, as
# OMP_PROC_BIND=spread places threads): the product as the solve's threads run it when all are
# busy; one line per copy, then the medians over the copies. BUILT=1 runs the binary that OUT_DIR
# holds from an earlier call, if any, instead of compiling the two versions again.
set -euo pipefail
[ $# -ge 2 ] || { sed -n 3,14p "$0"; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT_DIR:-/tmp/apsp_host_product_ab}
mkdir -p "$out"
cxx=${CXX:-g++}
flags=${CXXFLAGS:--O3 -march=native}
shape="-DAPSP_AB_ROWS=${ROWS:-6} -DAPSP_AB_REGS=${REGS:-2}"
src="$here/scripts/host_product_ab.cpp"
if [ "${BUILT:-0}" != 1 ] || [ ! -x "$out/host_product_ab" ]; then
  # shellcheck disable=SC2086
  "$cxx" -std=c++17 $flags $shape -I"$1" -Dapsp=apsp_a -DAPSP_AB_PART=a -c "$src" -o "$out/a.o"
  # shellcheck disable=SC2086
  "$cxx" -std=c++17 $flags $shape -I"$2" -Dapsp=apsp_b -DAPSP_AB_PART=b -c "$src" -o "$out/b.o"
  # shellcheck disable=SC2086
  "$cxx" -std=c++17 $flags $shape -I"$here/include" "$src" "$out/a.o" "$out/b.o" -o "$out/host_product_ab"
fi
shift 2
copies=${PROCESSES:-1}
if [ "$copies" -le 1 ]; then
  exec "$out/host_product_ab" "$@"
fi
cpus=$(nproc)
for ((p = 0; p < copies; ++p)); do
  taskset -c $((p * cpus / copies)) "$out/host_product_ab" "$@" > "$out/copy.$p.txt" &
done
wait
python3 - "$out" "$copies" "$cpus" <<'PY'
import re, statistics, sys
out, n, cpus = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ratio, a, b, l1, ghz, per_clock = [], [], [], [], [], []
for p in range(n):
    text = open(f"{out}/copy.{p}.txt").read()
    r = re.search(r"B/A per round: median ([0-9.]+), quartiles ([0-9.-]+)", text)
    m = re.search(r"A ([0-9.]+) \| B ([0-9.]+) \| L1 micro-kernel ([0-9.]+)", text)
    c = re.search(r"round: ([0-9.]+) GHz, the register loop ([0-9.]+)", text)
    ratio.append(float(r.group(1)))
    a.append(float(m.group(1))); b.append(float(m.group(2))); l1.append(float(m.group(3)))
    ghz.append(float(c.group(1))); per_clock.append(float(c.group(2)))
    print(f"copy {p} (CPU {p * cpus // n}): B/A median {r.group(1)} (quartiles {r.group(2)}); against the register loop: "
          f"A {m.group(1)}, B {m.group(2)}, L1 micro-kernel {m.group(3)}; {c.group(1)} GHz")
med = statistics.median
print(f"{n} copies: B/A median {med(ratio):.3f} (range {min(ratio):.3f}-{max(ratio):.3f}); against the register loop: "
      f"A {med(a):.3f} ({min(a):.3f}-{max(a):.3f}), B {med(b):.3f}, L1 micro-kernel {med(l1):.3f} ({min(l1):.3f}-{max(l1):.3f}); "
      f"clock {med(ghz):.2f} GHz ({min(ghz):.2f}-{max(ghz):.2f}), register loop {med(per_clock):.2f} per clock")
PY
