#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The main job on a fresh machine: install what is missing, build, solve a bundled graph; then
# install the Python package (scripts/python_package.sh) and solve the same graph from Python.
#   scripts/run.sh [INPUT [OUTPUT]]      (default: inputs/random_v1000.bin -> build/random_v1000.out)
# APSP_PYTHON=0 leaves the Python package out.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$("$here/scripts/build.sh")
input=${1:-$here/inputs/random_v1000.bin}
output=${2:-$build/$(basename "${input%.bin}").out}
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}
"$build/apsp_kokkos" "$input" "$output"
echo "output: $output" >&2
if [ "${APSP_PYTHON:-1}" != 0 ]; then
  python=$("$here/scripts/python_package.sh")
  "$python" - "$input" <<'PY'
import sys, apsp_kokkos
s = apsp_kokkos.solve(sys.argv[1])
r = s.record
print(f"python: apsp_kokkos.solve V={r['V']} backend={r['kokkos']['backend']} solve_s={r['seconds']['solve']:.3f} "
      f"verify={r['verify']['verdict']} (import apsp_kokkos with {sys.executable})")
PY
fi
