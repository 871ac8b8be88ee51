#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds the Python package (pyproject.toml, python/) and installs it into a virtual environment
# beside the builds, build-python/venv ($APSP_VENV): Debian's Python refuses pip outside one
# (PEP 668). The environment sees Debian's NumPy, SciPy, NetworkX and pytest (scripts/deps.sh
# installs them); scikit-build-core and nanobind come from PyPI once. The build folder is kept
# (build-python/<wheel tag>) and compiles go through ccache, so a second install compiles only what
# changed. Kokkos: $Kokkos_ROOT, else the position-independent one deps.sh caches.
# Prints the environment's python on its last line.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
kokkos=$("$here/scripts/deps.sh" | tail -n 1)
source "$here/scripts/compiler_cache.sh"
venv=${APSP_VENV:-$here/build-python/venv}
if [ ! -x "$venv/bin/python" ]; then
  /usr/bin/python3 -m venv --system-site-packages "$venv"
fi
if ! "$venv/bin/python" -c "import scikit_build_core, nanobind" 2>/dev/null; then
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "scikit-build-core>=0.10" "nanobind>=2.0" >&2
fi
CMAKE_ARGS="${CMAKE_ARGS:-} ${launcher[*]}" Kokkos_ROOT="$kokkos" \
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-build-isolation "$here" >&2
echo "$venv/bin/python"
