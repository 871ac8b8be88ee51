#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# GPU benchmark: builds if needed, runs the whole test suite on the GPU, checks that the GPU
# output equals the OpenMP output byte for byte at V = 5000 and 11000, then times a list of V.
#
#   BUILD_DIR=build-cuda Kokkos_ROOT=/path/to/kokkos-cuda scripts/bench_gpu.sh [V ...]
#
# Kokkos_ROOT must be a CUDA-enabled Kokkos (its nvcc_wrapper compiles the project); it is
# needed only when BUILD_DIR holds no build yet. Environment: BLOCKS (block sizes, default
# the backend's), REPEATS (3), SKIP_TESTS=1, OUT_DIR (/dev/shm), CEILING (1.67e13 relax/s,
# the H100/H200 VIADDMNMX instruction ceiling), GPU_COUNTS (e.g. "1 2": also time each V
# with one MPI rank per GPU; default 1), MPIEXEC ("mpirun"), MPIEXEC_FLAGS (extra launcher
# flags, e.g. --allow-run-as-root).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$here/build-cuda}
sizes=("${@:-20000 40000}")
log() { echo "[bench_gpu] $*" >&2; }

if [ ! -x "$build/apsp_kokkos" ]; then
  : "${Kokkos_ROOT:?set Kokkos_ROOT to a CUDA-enabled Kokkos install}"
  log "building into $build"
  cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$Kokkos_ROOT" \
    -DCMAKE_CXX_COMPILER="$Kokkos_ROOT/bin/nvcc_wrapper" ${CMAKE_ARGS:-} >&2
  cmake --build "$build" -j"$(nproc)" >&2
fi
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader >&2 || true
"$build/apsp_kokkos" --list-backends | grep -qx Cuda || { log "this build has no CUDA backend"; exit 1; }

if [ "${SKIP_TESTS:-0}" != 1 ]; then
  log "test suite on $(hostname)"
  (cd "$build" && OMP_PROC_BIND=false ctest --output-on-failure -j4)
fi

work=${OUT_DIR:-/dev/shm}
log "GPU output against OpenMP output"
for v in 5000 11000; do
  g="$work/apsp_cmp_v$v.bin"
  "$build/apsp_gen" -n "$v" -e $((v * v / 20)) --seed 11 "$g" 2>/dev/null
  "$build/apsp_kokkos" -q --backend Cuda "$g" "$work/apsp_cmp_cuda.out"
  OMP_PROC_BIND=spread OMP_PLACES=threads "$build/apsp_kokkos" -q --backend OpenMP "$g" "$work/apsp_cmp_omp.out"
  if cmp -s "$work/apsp_cmp_cuda.out" "$work/apsp_cmp_omp.out"; then
    echo "V=$v: Cuda output == OpenMP output ($(stat -c %s "$work/apsp_cmp_cuda.out") bytes, sha256 $(sha256sum < "$work/apsp_cmp_cuda.out" | cut -c1-16))"
  else
    echo "V=$v: Cuda output DIFFERS from OpenMP output"; exit 1
  fi
  for gpus in ${GPU_COUNTS:-1}; do
    [ "$gpus" -gt 1 ] || continue
    ${MPIEXEC:-mpirun} ${MPIEXEC_FLAGS:-} -np "$gpus" "$build/apsp_kokkos" -q --backend Cuda "$g" "$work/apsp_cmp_mpi.out"
    if cmp -s "$work/apsp_cmp_mpi.out" "$work/apsp_cmp_omp.out"; then
      echo "V=$v: Cuda output on $gpus GPUs (MPI) == OpenMP output"
    else
      echo "V=$v: Cuda output on $gpus GPUs (MPI) DIFFERS from OpenMP output"; exit 1
    fi
    rm -f "$work/apsp_cmp_mpi.out"
  done
  rm -f "$g" "$work/apsp_cmp_cuda.out" "$work/apsp_cmp_omp.out"
done

read -r -a blocks <<< "${BLOCKS:-0}"
for gpus in ${GPU_COUNTS:-1}; do
  launcher=""
  [ "$gpus" -gt 1 ] && launcher="${MPIEXEC:-mpirun} ${MPIEXEC_FLAGS:-} -np $gpus"
  python3 "$here/scripts/bench.py" --build "$build" --backend Cuda --sizes ${sizes[@]} --block-sizes "${blocks[@]}" \
    --repeats "${REPEATS:-3}" --work-dir "$work" --out-dir "$work" --ceiling "${CEILING:-1.67e13}" \
    --launcher "$launcher"
done
