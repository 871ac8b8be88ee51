#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Cross-compiles the program and the CPU micro-kernel's tests for 64-bit Arm (aarch64, NEON)
# with Debian's g++-aarch64-linux-gnu against Kokkos 3.4.01 built for it (scripts/deps.sh
# aarch64), into $BUILD_DIR (build-arm/), then runs them under qemu-aarch64 (user-mode emulation:
# Arm instructions on this x86 machine, no Arm hardware): the product and closure tests in NEON
# and in plain C++, the 16 conformance cases against their SHA-256, and random graphs (light and
# heavy weights, components, a chain) against the output of the x86 build in $X86_BUILD
# (build/). Last, the NEON inner loops of the micro-kernel (scripts/show_vector_loop.sh).
# Any difference fails the run.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$here/build-arm}
x86=${X86_BUILD:-$here/build}
kokkos=$("$here/scripts/deps.sh" aarch64 | tail -n 1)
sysroot=/usr/aarch64-linux-gnu
source "$here/scripts/compiler_cache.sh"
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_SYSTEM_NAME=Linux "${launcher[@]}" \
  -DCMAKE_SYSTEM_PROCESSOR=aarch64 -DCMAKE_C_COMPILER=aarch64-linux-gnu-gcc -DCMAKE_CXX_COMPILER=aarch64-linux-gnu-g++ \
  -DKokkos_ROOT="$kokkos" -DCMAKE_PREFIX_PATH="$kokkos" -DAPSP_WITH_MPI=OFF -DAPSP_WITH_KOKKOS_KERNELS=OFF \
  -DAPSP_NATIVE=OFF >&2
cmake --build "$build" -j"$(nproc)" --target apsp_kokkos apsp_host_tiles_native apsp_host_tiles_scalar >&2
run() { qemu-aarch64 -L "$sysroot" "$@"; }
export OMP_NUM_THREADS=2 OMP_PROC_BIND=false
echo "== under qemu-aarch64: $(run "$build/apsp_kokkos" --version | head -n 1)"
for isa in native scalar; do
  echo -n "micro-kernel tests ($isa): "
  run "$build/tests/apsp_host_tiles_$isa" --gtest_brief=1 >/tmp/apsp_arm_tiles.log 2>&1 ||
    { cat /tmp/apsp_arm_tiles.log; exit 1; }
  grep -o "ISA [A-Za-z0-9.-]*\|PASSED.*" /tmp/apsp_arm_tiles.log | tr '\n' ' '
  echo
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
conformance=${APSP_CONFORMANCE_DIR:-$here/tests/data/conformance}
[ -f "$conformance/SHA256SUMS" ] || { echo "conformance: $conformance/SHA256SUMS not found"; exit 1; }
while read -r sum out; do  # "<sha256>  <case>.out"
  run "$build/apsp_kokkos" -q "$conformance/${out%.out}" "$work/$out"
  echo "$sum  $work/$out"
done <"$conformance/SHA256SUMS" | sha256sum -c --quiet
echo "conformance: $(wc -l <"$conformance/SHA256SUMS") cases, SHA-256 as expected"
# Graphs made by the x86 build's generator; each output compared with the x86 build's.
gen() { "$x86/apsp_gen" "$@" 2>/dev/null; }
gen -n 300 -e 9000 --seed 21 "$work/light.bin"
gen -n 777 -e 60000 --seed 22 --min-weight 900 --max-weight 1000 "$work/heavy.bin"
gen -n 640 -e 40000 --seed 23 --shape components --components 5 "$work/components.bin"
gen -n 400 --seed 24 --shape chain "$work/chain.bin"
for g in light heavy components chain; do
  for b in 64 208; do
    run "$build/apsp_kokkos" -q -b "$b" "$work/$g.bin" "$work/$g.arm.out"
    "$x86/apsp_kokkos" -q -b 64 "$work/$g.bin" "$work/$g.x86.out"
    cmp -s "$work/$g.arm.out" "$work/$g.x86.out" || { echo "$g (B = $b): the aarch64 output differs from x86's"; exit 1; }
  done
done
echo "random graphs: light, heavy, components, chain at B = 64 and 208: outputs identical to x86's"
echo "== NEON inner loops (aarch64-linux-gnu-objdump)"
loops=$(OBJDUMP=aarch64-linux-gnu-objdump "$here/scripts/show_vector_loop.sh" "$build/apsp_kokkos" --full)
echo "$loops"
# Both lane types have a NEON loop: a missing one means the micro-kernel moved where the script
# does not look (or was not vectorised), which this check is here to see.
if grep -q "no loop found" <<<"$loops"; then echo "a NEON inner loop was not found"; exit 1; fi
echo "$build" >&2
