#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# CPU benchmark: builds if needed, then times the OpenMP backend at V = 4000 (or the sizes
# given), output to /dev/shm and to disk, and shows the vectorised phase-3 inner loop.
#   scripts/bench_cpu.sh [V ...]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$("$here/scripts/build.sh")
sizes=("${@:-4000}")
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}
echo "== OpenMP, output to /dev/shm"
python3 "$here/scripts/bench.py" --build "$build" --backend OpenMP --sizes "${sizes[@]}" --repeats 3 --out-dir /dev/shm
echo "== OpenMP, output to disk ($build)"
python3 "$here/scripts/bench.py" --build "$build" --backend OpenMP --sizes "${sizes[@]}" --repeats 3 --out-dir "$build"
echo "== Evidence: vector instructions in the phase-3 kernel (OpenMP)"
"$here/scripts/show_vector_loop.sh" "$build/apsp_kokkos"
