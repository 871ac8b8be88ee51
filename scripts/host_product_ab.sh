#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Compares two versions of the CPU's phase-3 tile product in one process, run in alternation
# (scripts/host_product_ab.cpp): each version's include folder is compiled with the project's
# namespace renamed, so both live in one binary. For a change to the micro-kernel or the
# product on a host whose speed drifts between runs.
#   scripts/host_product_ab.sh INCLUDE_A INCLUDE_B [B=192] [TILES=21] [ROUNDS=30] [light|heavy]
#   e.g. A = HEAD's include folder (git archive HEAD include | tar -x -C /tmp/head), B = include
# ROWS and REGS (environment) set the block of C (default: 6 and 2, AVX2's); CXXFLAGS the target.
set -euo pipefail
[ $# -ge 2 ] || { sed -n 3,9p "$0"; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT_DIR:-/tmp/apsp_host_product_ab}
mkdir -p "$out"
cxx=${CXX:-g++}
flags=${CXXFLAGS:--O3 -march=native}
shape="-DAPSP_AB_ROWS=${ROWS:-6} -DAPSP_AB_REGS=${REGS:-2}"
src="$here/scripts/host_product_ab.cpp"
# shellcheck disable=SC2086
"$cxx" -std=c++17 $flags $shape -I"$1" -Dapsp=apsp_a -DAPSP_AB_PART=a -c "$src" -o "$out/a.o"
# shellcheck disable=SC2086
"$cxx" -std=c++17 $flags $shape -I"$2" -Dapsp=apsp_b -DAPSP_AB_PART=b -c "$src" -o "$out/b.o"
"$cxx" -std=c++17 -O2 "$src" "$out/a.o" "$out/b.o" -o "$out/host_product_ab"
shift 2
"$out/host_product_ab" "$@"
