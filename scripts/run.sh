#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The main job on a fresh machine: install what is missing, build, solve a bundled graph.
#   scripts/run.sh [INPUT [OUTPUT]]      (default: inputs/random_v1000.bin -> build/random_v1000.out)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$("$here/scripts/build.sh")
input=${1:-$here/inputs/random_v1000.bin}
output=${2:-$build/$(basename "${input%.bin}").out}
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}
"$build/apsp_kokkos" "$input" "$output"
echo "output: $output" >&2
