#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Installs what is missing (scripts/deps.sh), configures and builds into $BUILD_DIR (build/).
# Kokkos: $Kokkos_ROOT if set, else Kokkos 3.4.01 (OpenMP + Serial) built once into the cache (deps.sh).
# Compiles go through ccache where it is installed (compiler_cache.sh). Extra CMake arguments:
# $CMAKE_ARGS. The binary is tuned for this machine (-march=native;
# APSP_NATIVE=OFF for a portable one): these scripts build where they run.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$here/build}
kokkos=$("$here/scripts/deps.sh" | tail -n 1)
source "$here/scripts/compiler_cache.sh"
# shellcheck disable=SC2086
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$kokkos" "${launcher[@]}" \
  -DAPSP_NATIVE="${APSP_NATIVE:-ON}" ${CMAKE_ARGS:-} >&2
cmake --build "$build" -j"$(nproc)" >&2
echo "$build"
