#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Compiles the program and the unit tests for AMD GPUs (HIP, gfx908) against Kokkos 3.4.01
# built with Debian's hipcc (scripts/deps.sh hip), into $BUILD_DIR (build-hip/), with the host
# code tuned for this CPU (APSP_NATIVE=ON: hipcc takes -march=native for the host side), then shows the
# kernels' machine code and fails if phase 3 spills (scripts/show_hip_kernel.sh --check). No
# AMD GPU is needed, and none runs anything here: the HIP path is compiled and inspected only.
# Kokkos 4.x for gfx90a works the same way: Kokkos_ROOT=<its prefix> (README, "AMD GPUs").
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$here/build-hip}
kokkos=${Kokkos_ROOT:-$("$here/scripts/deps.sh" hip | tail -n 1)}
# hipcc would ask rocm_agent_enumerator for this machine's GPU when linking (there is none).
export HCC_AMDGPU_TARGET=${HCC_AMDGPU_TARGET:-gfx908}
source "$here/scripts/compiler_cache.sh"
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=hipcc \
  -DKokkos_ROOT="$kokkos" -DAPSP_NATIVE=ON "${launcher[@]}" >&2
# The program and the unit tests (the GPU-typed tests compile for HIP; nothing here runs them);
# the host-only test binaries would only be compiled again by hipcc.
cmake --build "$build" -j"$(nproc)" --target apsp_kokkos apsp_unit_tests >&2
"$here/scripts/show_hip_kernel.sh" "$build" --check >&2
"$here/scripts/check_headers.sh" "$build" 'apsp/backends/hip_' >&2  # the HIP headers on their own
echo "$build"
