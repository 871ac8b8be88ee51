#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Prints the innermost loop of the OpenMP phase-3 kernel from the binary's disassembly and
# counts its packed add / min instructions (vpaddd / vpminsd on ymm or zmm registers).
#   scripts/show_vector_loop.sh build/apsp_kokkos
set -euo pipefail
exe=${1:-build/apsp_kokkos}
objdump -d --no-show-raw-insn -C "$exe" > /tmp/apsp_disasm.s
awk '/^[0-9a-f]+ <apsp::Impl::RemainingTilesKernel<Kokkos::OpenMP(, false)?>::operator\(\)/ {on=1; next}
       on && /^$/ {exit} on {print}' /tmp/apsp_disasm.s > /tmp/apsp_phase3.s
# The innermost loop: the backward jump that encloses the most vpminsd.
python3 - /tmp/apsp_phase3.s <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
addr = [int(l.split(":")[0], 16) if re.match(r"\s*[0-9a-f]+:", l) else None for l in lines]
best = None
for i, l in enumerate(lines):
    m = re.search(r"\tj\w+\s+([0-9a-f]+) ", l)
    if not m or addr[i] is None:
        continue
    target = int(m.group(1), 16)
    if target >= addr[i]:
        continue
    start = next(j for j in range(len(lines)) if addr[j] == target)
    body = lines[start:i + 1]
    mins = sum("vpminsd" in b for b in body)
    if mins and (best is None or len(body) < len(best[1]) or mins > best[0]):
        if best is None or mins >= best[0]:
            best = (mins, body)
if not best:
    sys.exit("no vectorised min loop found in the phase-3 kernel")
body = best[1]
for b in body:
    print(re.sub(r"\s+<.*", "", b))
count = lambda op: sum(op in b for b in body)
print(f"\ninner loop: {len(body)} instructions, vpaddd={count('vpaddd')} vpminsd={count('vpminsd')} "
      f"(ymm: {sum('ymm' in b for b in body)}, zmm: {sum('zmm' in b for b in body)})")
PY
