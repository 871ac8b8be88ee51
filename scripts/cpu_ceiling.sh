#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The relaxation ceiling of this CPU for the ISA the build targets: builds scripts/cpu_ceiling.cpp
# with the project's SIMD layer (include/apsp/backends/host_simd.hpp) and runs it on one thread and on all
# (OMP_NUM_THREADS, default: every CPU), in int32 and 16-bit lanes: the register-resident
# add-min (hand-written assembly for AVX2, AVX-512 and NEON) and the host product's own
# micro-kernel over L1-resident operands, per shape, in relaxations per second and per clock
# per thread. Ends with CEILING lines, the figures the program's efficiency is measured against.
#   scripts/cpu_ceiling.sh [SECONDS_PER_MEASUREMENT=0.3] [VARIANT_FILTER]
#   CXX=aarch64-linux-gnu-g++ CXXFLAGS=-O3 scripts/cpu_ceiling.sh   (build only, elsewhere run)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT_DIR:-/tmp/apsp_cpu_ceiling}
mkdir -p "$out"
cxx=${CXX:-g++}
"$cxx" -std=c++17 ${CXXFLAGS:--O3 -march=native} -fopenmp -I"$here/include" "$here/scripts/cpu_ceiling.cpp" \
  -o "$out/cpu_ceiling"
target=$("$cxx" -dumpmachine 2>/dev/null || echo unknown)
if [ "${target%%-*}" != "$(uname -m)" ]; then  # a cross compiler: its binary runs elsewhere
  echo "built $out/cpu_ceiling (cross compiler: run it on its machine)"
  exit 0
fi
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}
"$out/cpu_ceiling" "${1:-0.3}" "${2:-}"
