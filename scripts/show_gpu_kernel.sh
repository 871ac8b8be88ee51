#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Evidence from a CUDA build's machine code (no GPU needed): registers, stack and local memory
# of each kernel, and the instruction mix of phase 3 and of its innermost loop (VIADDMNMX is
# Hopper's fused add-min; LDS.128 / LDG.E.128 are 16-byte shared / global loads).
#   scripts/show_gpu_kernel.sh build-cuda/apsp_kokkos [path/to/cuobjdump]
set -euo pipefail
exe=${1:-build-cuda/apsp_kokkos}
cuobjdump=${2:-$(command -v cuobjdump || true)}
[ -n "$cuobjdump" ] || { echo "cuobjdump not found (CUDA toolkit, or pip nvidia-cuda-cuobjdump)"; exit 1; }
echo "== resources per kernel"
"$cuobjdump" --dump-resource-usage "$exe" 2>&1 |
  grep -A1 -E "Kernel|Tiles|FillRows|ScatterEdges|FirstBadEdge" |
  grep -oE "((PivotTile|PivotRowColumn|RemainingTiles|NextPivotCross)Kernel(INS_[0-9]*CudaELb[01])?|FillRows|ScatterEdges|FirstBadEdge|REG:[0-9]+|STACK:[0-9]+|SHARED:[0-9]+|LOCAL:[0-9]+)" |
  sed -E 's/INS_[0-9]*CudaELb1/ (tuned)/; s/INS_[0-9]*CudaELb0/ (general)/' |
  paste -sd' ' | sed -E 's/ (PivotTile|PivotRow|Remaining|NextPivot|FillRows|Scatter|FirstBad)/\n\1/g' | sort -u
echo
# Phase 3's tuned instantiation (B = 128, whole rounds) where the build has one, else phase 3.
sass=$("$cuobjdump" --dump-sass "$exe")
pattern='Function : .*RemainingTilesKernel.*Lb1'
grep -qE "$pattern" <<<"$sass" || pattern='Function : .*RemainingTiles'
# (the first such function only: a fat binary may hold the code twice)
awk -v p="$pattern" '!done && $0 ~ p {on=1; next} /Function :/ {if (on) done=1; on=0} on' <<<"$sass" > /tmp/apsp_phase3.sass
python3 - /tmp/apsp_phase3.sass <<'PY'
import re, sys
from collections import Counter
ins = []
for line in open(sys.argv[1]):
    m = re.match(r"\s+/\*([0-9a-f]{4,})\*/\s+(.*?);", line)
    if m:
        ins.append((int(m.group(1), 16), m.group(2)))
op = lambda t: (t.split()[1] if t.startswith("@") else t.split()[0])
keep = ("VIADDMNMX", "VIMNMX3", "IMAD", "LDS", "LDG", "STG", "STS", "LDL", "STL", "BAR")
whole = Counter(op(t) for _, t in ins)
print("== phase 3 (RemainingTilesKernel, tuned where built), whole kernel:", {k: v for k, v in sorted(whole.items()) if k.startswith(keep)})
best = None
for a, t in ins:
    m = re.search(r"BRA .*?0x([0-9a-f]+)", t)
    if m and int(m.group(1), 16) < a:
        body = [x for x in ins if int(m.group(1), 16) <= x[0] <= a]
        n = sum("VIADDMNMX" in x[1] for x in body)
        if n and (best is None or len(body) < len(best)):
            best = body
if best:
    c = Counter(op(t) for _, t in best)
    v = c["VIADDMNMX"]
    print(f"== innermost loop: {len(best)} instructions, {v} VIADDMNMX ({100 * v / len(best):.0f}%),",
          {k: n for k, n in sorted(c.items()) if k.startswith(keep)})
PY
