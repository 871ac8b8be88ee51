# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the build scripts ($here: the repository): the compiler cache (Debian's ccache) for
# the project's compiles, kept beside the Kokkos builds in the cache of scripts/deps.sh, so that
# building the same sources again (another clone, the next test run, the sanitizer build of an
# unchanged file) compiles only what changed. Paths under the repository are hashed relative to
# it (CCACHE_BASEDIR), so that two clones share their entries. APSP_CCACHE=0 turns it off.
# Sets `launcher` to the CMake arguments that use it (none without ccache).
launcher=()
if command -v ccache >/dev/null && [ "${APSP_CCACHE:-1}" != 0 ]; then
  export CCACHE_DIR=${CCACHE_DIR:-${APSP_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/apsp_kokkos}/ccache}
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$here} CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
