#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Installs what a Debian 12 machine needs to build and test apsp_kokkos, and builds
# Kokkos 3.4.01 (OpenMP + Serial) from Debian's `trilinos` source package into the cache
# unless a Kokkos is already given. The cache, $APSP_CACHE_DIR (default
# ${XDG_CACHE_HOME:-~/.cache}/apsp_kokkos), holds the Kokkos builds and the compiler cache
# (ccache) that every clone on the machine shares: a second clone builds no Kokkos again.
#
#   scripts/deps.sh            -> prints the Kokkos install prefix on its last line
#   scripts/deps.sh hip        -> the same for HIP (AMD GPUs, gfx908) + Serial, with Debian's
#                                 hipcc (ROCm 5.2), into the cache's kokkos-3.4.01-hip
#   scripts/deps.sh aarch64    -> the same for 64-bit Arm (OpenMP + Serial), with Debian's
#                                 cross compiler, and GoogleTest for it, into
#                                 the cache's kokkos-3.4.01-aarch64 (the binaries run under qemu-aarch64)
#
# A user's own Kokkos wins: set Kokkos_ROOT (or CMAKE_PREFIX_PATH) and nothing is built.
set -euo pipefail
cache=${APSP_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/apsp_kokkos}
log() { echo "[deps] $*" >&2; }

variant=${1:-openmp}
case "$variant" in openmp | hip | aarch64) ;; *) echo "usage: scripts/deps.sh [hip|aarch64]" >&2; exit 2 ;; esac
need_pkgs=(cmake ninja-build g++ libgtest-dev libcli11-dev nlohmann-json3-dev
           libopenmpi-dev openmpi-bin python3-scipy python3-numpy python3-matplotlib python3-networkx
           python3-pytest python3-venv python3-dev dpkg-dev
           clang-format clang-tidy universal-ctags ccache git)
[ "$variant" = hip ] && need_pkgs+=(hipcc libamdhip64-dev)
[ "$variant" = aarch64 ] && need_pkgs+=(g++-aarch64-linux-gnu qemu-user)
missing=()
for p in "${need_pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
if [ ${#missing[@]} -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >&2
fi

if [ -n "${Kokkos_ROOT:-}" ] && [ "$variant" = openmp ]; then
  log "using Kokkos_ROOT=$Kokkos_ROOT"
  echo "$Kokkos_ROOT"; exit 0
fi

# The OpenMP build is position-independent, so that the Python module (a shared object, python/)
# links the same static Kokkos as the program.
prefix="$cache/kokkos-3.4.01-$variant"
pic=()
[ "$variant" = openmp ] && prefix+="-pic" && pic=(-DCMAKE_POSITION_INDEPENDENT_CODE=ON)
have() { [ -f "$prefix/lib/cmake/$1/$1Config.cmake" ] || [ -f "$prefix/lib64/cmake/$1/$1Config.cmake" ]; }
if have Kokkos && { [ "$variant" != openmp ] || have KokkosKernels; } &&
  { [ "$variant" != aarch64 ] || have GTest; }; then
  log "Kokkos 3.4.01 ($variant) found in $prefix"
  echo "$prefix"; exit 0
fi

# Kokkos 3.4.01 ships inside Trilinos 13.2 (Debian bookworm's `trilinos` source package).
src="$cache/src"
mkdir -p "$src"
if [ ! -d "$src/kokkos-3.4.01" ]; then
  if ! ls "$src"/trilinos_*.orig.tar.* >/dev/null 2>&1; then
    log "downloading Debian's trilinos source package"
    if ! (cd "$src" && apt-get source --download-only trilinos >/dev/null 2>&1 </dev/null); then
      # No deb-src entry yet: add one for bookworm's main archive and try again.
      log "adding a deb-src entry for bookworm"
      printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' |
        $sudo_cmd tee /etc/apt/sources.list.d/apsp-kokkos-deb-src.sources >/dev/null
      $sudo_cmd apt-get update -qq
      (cd "$src" && apt-get source --download-only trilinos >&2 </dev/null)
    fi
  fi
  log "extracting packages/kokkos from the Trilinos tarball"
  tarball=$(ls "$src"/trilinos_*.orig.tar.* | head -n1)
  rm -rf "$src/extract" && mkdir -p "$src/extract"
  tar xf "$tarball" -C "$src/extract" --wildcards '*/packages/kokkos/*' '*/packages/kokkos-kernels/*'
  mv "$src"/extract/*/packages/kokkos "$src/kokkos-3.4.01"
  mv "$src"/extract/*/packages/kokkos-kernels "$src/kokkos-kernels-3.4.01"
  rm -rf "$src/extract"
fi

# cmake_install SRC ARGS...: configure, build and install one package into $prefix.
cmake_install() {
  local src=$1 build="$cache/build-$(basename "$1")"
  shift
  rm -rf "$build"
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" "$@" >&2
  cmake --build "$build" -j"$(nproc)" >&2
  cmake --install "$build" >&2
  rm -rf "$build"
}
if [ "$variant" = hip ]; then
  # hipcc would ask rocm_agent_enumerator for this machine's GPU (there is none): name the target.
  export HCC_AMDGPU_TARGET=gfx908
  log "building Kokkos 3.4.01 (HIP for gfx908 + Serial) into $prefix"
  cmake_install "$src/kokkos-3.4.01" -DCMAKE_CXX_COMPILER=hipcc -DCMAKE_CXX_STANDARD=17 -DKokkos_ENABLE_HIP=ON \
    -DKokkos_ENABLE_SERIAL=ON -DKokkos_ARCH_VEGA908=ON -DKokkos_ENABLE_TESTS=OFF -DKokkos_ENABLE_EXAMPLES=OFF
  echo "$prefix"; exit 0
fi
if [ "$variant" = aarch64 ]; then
  cross=(-DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64 -DCMAKE_C_COMPILER=aarch64-linux-gnu-gcc
         -DCMAKE_CXX_COMPILER=aarch64-linux-gnu-g++)
  log "building Kokkos 3.4.01 (OpenMP + Serial, aarch64) and GoogleTest into $prefix"
  have Kokkos || cmake_install "$src/kokkos-3.4.01" "${cross[@]}" -DCMAKE_CXX_STANDARD=17 -DKokkos_ENABLE_OPENMP=ON \
    -DKokkos_ENABLE_SERIAL=ON -DKokkos_ARCH_ARMV80=ON -DKokkos_ENABLE_LIBDL=OFF -DKokkos_ENABLE_TESTS=OFF \
    -DKokkos_ENABLE_EXAMPLES=OFF
  cmake_install /usr/src/googletest "${cross[@]}" -DBUILD_GMOCK=OFF
  echo "$prefix"; exit 0
fi
if ! have Kokkos; then
  log "building Kokkos 3.4.01 (OpenMP + Serial) into $prefix"
  cmake_install "$src/kokkos-3.4.01" "${pic[@]}" -DCMAKE_CXX_STANDARD=17 -DKokkos_ENABLE_OPENMP=ON \
    -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_TESTS=OFF -DKokkos_ENABLE_EXAMPLES=OFF
fi
# Kokkos Kernels 3.4.01 (same tarball) for the self-check's CSR graph; no explicit
# instantiations are needed (the project instantiates what it uses), so it builds in seconds.
log "building Kokkos Kernels 3.4.01 into $prefix"
cmake_install "$src/kokkos-kernels-3.4.01" "${pic[@]}" -DKokkos_ROOT="$prefix" \
  -DKokkosKernels_INST_DOUBLE=OFF -DKokkosKernels_INST_FLOAT=OFF -DKokkosKernels_INST_COMPLEX_DOUBLE=OFF \
  -DKokkosKernels_INST_ORDINAL_INT=OFF -DKokkosKernels_INST_ORDINAL_INT64_T=OFF \
  -DKokkosKernels_INST_OFFSET_INT=OFF -DKokkosKernels_INST_OFFSET_SIZE_T=OFF \
  -DKokkosKernels_ENABLE_TESTS=OFF -DKokkosKernels_ENABLE_EXAMPLES=OFF
echo "$prefix"
