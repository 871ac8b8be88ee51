#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every test: install what is missing, build, run the whole ctest suite (unit tests on every
# enabled backend with OpenMP at 1 and 2 threads, command-line, fuzz, MPI and style tests,
# conformance cases); then build once more with UndefinedBehaviorSanitizer on the project's own
# code, and without Kokkos Kernels (as a GPU build made with Kokkos alone: the self-check's
# plain CSR), and run the suite again there (style checks once are enough, MPI launches at two
# ranks only), any report failing it;
# then compile the program and the unit tests for AMD GPUs (HIP, gfx908) and check the
# phase kernels' machine code (scripts/build_hip.sh): a HIP build that fails fails the run;
# last, cross-compile for 64-bit Arm and run the CPU micro-kernel's tests, the conformance cases
# and random graphs against the x86 output under qemu-aarch64 (scripts/build_arm.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
# Each stage's wall time on stderr, so that a slow run says where its time went.
t0=$SECONDS
stage() { echo "[test.sh] $1: $((SECONDS - t0)) s" >&2; t0=$SECONDS; }
build=$("$here/scripts/build.sh")
stage "packages, Kokkos and the build"
# Two at a time: the style checks (clang-tidy: about 6 minutes on a 2-vCPU Zen 3) run beside the rest.
(cd "$build" && ctest --output-on-failure -j2)
stage "ctest"
ubsan=$(BUILD_DIR="$here/build-ubsan" CMAKE_ARGS="${CMAKE_ARGS:-} -DAPSP_SANITIZE=undefined -DAPSP_WITH_KOKKOS_KERNELS=OFF" \
  "$here/scripts/build.sh")
stage "UBSan build"
# Under the sanitizer: two at a time as above, and of the program's MPI launches only two ranks
# (the MPI layer's code is the same at every rank count; the first build ran them all), with
# the MPI unit tests at every rank count.
(cd "$ubsan" && export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 &&
  ctest --output-on-failure -j2 -LE 'style|mpi' && ctest --output-on-failure -R '^(mpi\.np2|mpi_unit\.np[0-9]+)$')
stage "UBSan ctest"
"$here/scripts/build_hip.sh" >/dev/null
stage "HIP build"
X86_BUILD="$build" "$here/scripts/build_arm.sh"
stage "Arm build and qemu runs"
