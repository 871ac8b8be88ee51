#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every test (docs/testing.md says what each proves and where the time goes):
#   scripts/test.sh           install what is missing, build, run the whole ctest suite (unit tests
#                             on every enabled backend with OpenMP at 1 and 2 threads, command-line,
#                             fuzz, MPI and style tests, conformance cases); then build once more with
#                             UndefinedBehaviorSanitizer on the project's own code, and without Kokkos
#                             Kernels (as a GPU build made with Kokkos alone: the self-check's plain
#                             CSR), and run there the tests that execute that code, once each; then
#                             compile the program and the unit tests for AMD GPUs (HIP, gfx908) and
#                             check the phase kernels' machine code (scripts/build_hip.sh); last,
#                             cross-compile for 64-bit Arm and run the CPU micro-kernel's tests, the
#                             conformance cases and random graphs against the x86 output under
#                             qemu-aarch64 (scripts/build_arm.sh); last, install the Python package
#                             into build-python/venv and run its tests (tests/python) against SciPy
#                             and NetworkX. Any failure fails the run.
#   scripts/test.sh --quick   build, then the C++ unit tests and the style checks that take
#                             seconds: the edit-compile-test loop (CONTRIBUTING.md says when).
# Compiles go through ccache and clang-tidy keeps its verdicts, both in the cache that every clone
# on the machine shares (scripts/deps.sh), so a second run recompiles and re-checks only what
# changed.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
quick=0
case "${1:-}" in
  --quick) quick=1 ;;
  "") ;;
  *) echo "usage: scripts/test.sh [--quick]" >&2; exit 2 ;;
esac
# Each stage's wall time on stderr, so that a slow run says where its time went.
t0=$SECONDS
stage() { echo "[test.sh] $1: $((SECONDS - t0)) s" >&2; t0=$SECONDS; }
build=$("$here/scripts/build.sh")
stage "packages, Kokkos and the build"
if [ $quick = 1 ]; then
  (cd "$build" && ctest --output-on-failure -j2 -L unit -E '^mpi_unit' &&
    ctest --output-on-failure -R '^(format|doc_links|repository_shape|doc_tables)$')
  stage "unit tests and quick style checks"
  exit 0
fi
# Two at a time: the style checks (clang-tidy) run beside the rest.
(cd "$build" && ctest --output-on-failure -j2)
stage "ctest"
# The sanitizer's build at -O1 (half the compile time of -O3; what sanitizers are made for).
ubsan=$(BUILD_DIR="$here/build-ubsan" \
  CMAKE_ARGS="${CMAKE_ARGS:-} -DAPSP_SANITIZE=undefined -DAPSP_WITH_KOKKOS_KERNELS=OFF -DCMAKE_CXX_FLAGS_RELEASE=-O1" \
  "$here/scripts/build.sh")
stage "UBSan build"
# Under the sanitizer, each test of the code it instruments once: the unit tests at 2 threads (and
# the round driver's at 5), the command line at 2, of the program's MPI launches two ranks, the
# MPI unit tests at every rank count; not the style checks, the install or the Spack recipe
# (CMake and Python only), nor the 1-thread runs the first build made.
(cd "$ubsan" && export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 &&
  ctest --output-on-failure -j2 -LE 'style|mpi|install' -E '\.omp1$' &&
  ctest --output-on-failure -R '^(mpi\.np2|mpi_unit\.np[0-9]+)$')
stage "UBSan ctest"
"$here/scripts/build_hip.sh" >/dev/null
stage "HIP build"
X86_BUILD="$build" "$here/scripts/build_arm.sh"
stage "Arm build and qemu runs"
# The Python package, installed as a user installs it, against SciPy and NetworkX (tests/python).
python=$("$here/scripts/python_package.sh")
(cd "$here/tests/python" && OMP_NUM_THREADS=2 "$python" -m pytest -q -p no:cacheprovider)
stage "Python package"
