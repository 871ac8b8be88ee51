#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every test: install what is missing, build, run the whole ctest suite (unit tests on every
# enabled backend with OpenMP at 1 and 2 threads, command-line tests, conformance cases).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$("$here/scripts/build.sh")
cd "$build"
ctest --output-on-failure
