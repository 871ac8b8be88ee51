#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Evidence from a CUDA build's machine code (no GPU needed): registers, stack and local memory
# of each kernel, and the instruction mix of phase 3's main kernel and of its slice loops (at B =
# 128 on a large matrix sixteen rounds per pass over C, BlockTilesKernel's; VIADDMNMX is
# Hopper's fused add-min, VIADDMNMX.U16x2 the same on two 16-bit lanes; LDS.128 / LDG.E.128 are
# 16-byte shared / global loads).
#   scripts/show_gpu_kernel.sh build-cuda/apsp_kokkos [path/to/cuobjdump]
# No GPU is needed, nor the whole toolkit: PyPI's nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm
# (nvidia/cu13/bin in their wheels, nvdisasm on PATH) read a CUDA 13 build.
set -euo pipefail
exe=${1:-build-cuda/apsp_kokkos}
cuobjdump=${2:-$(command -v cuobjdump || true)}
[ -n "$cuobjdump" ] || { echo "cuobjdump not found (CUDA toolkit, or pip nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm; nvdisasm on PATH)"; exit 1; }
echo "== resources per kernel"
"$cuobjdump" --dump-resource-usage "$exe" 2>&1 |
  grep -A1 -E "Kernel|Tiles|FillRows|ScatterEdges|FirstBadEdge" |
  grep -oE "((PivotTile|PivotRowColumn|RemainingTiles|NextPivotCross|PairTiles|StripMark)Kernel(INS_[0-9]*CudaELb[01])?|BlockTilesKernelINS[0-9]*_[0-9]*TileOpsINS_[0-9]*CudaEEELi[0-9]+E|FillRows|ScatterEdges|FirstBadEdge|REG:[0-9]+|STACK:[0-9]+|SHARED:[0-9]+|LOCAL:[0-9]+)" |
  sed -E 's/PairTilesKernelINS_[0-9]*CudaELb1/PairTilesKernel (fused)/; s/PairTilesKernelINS_[0-9]*CudaELb0/PairTilesKernel (lagging)/' |
  sed -E 's/BlockTilesKernelINS[0-9]*_[0-9]*TileOpsINS_[0-9]*CudaEEELi([0-9]+)E/BlockTilesKernel (\1 rounds)/' |
  sed -E 's/INS_[0-9]*CudaELb1/ (tuned)/; s/INS_[0-9]*CudaELb0/ (general)/' |
  paste -sd' ' | sed -E 's/ (PivotTile|PivotRow|Remaining|NextPivot|PairTiles|BlockTiles|StripMark|FillRows|Scatter|FirstBad)/\n\1/g' | sort -u
echo
# Phase 3's main kernel: the fused tiles of a block of sixteen rounds (B = 128), else eight,
# else those of a pair, else the tuned single-round instantiation, else phase 3.
sass=$("$cuobjdump" --dump-sass "$exe")
pattern='Function : .*BlockTilesKernel.*Li16E'
grep -qE "$pattern" <<<"$sass" || pattern='Function : .*BlockTilesKernel.*Li8E'
grep -qE "$pattern" <<<"$sass" || pattern='Function : .*PairTilesKernel.*Lb1E'
grep -qE "$pattern" <<<"$sass" || pattern='Function : .*RemainingTilesKernel.*Lb1'
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
print("== phase 3 (BlockTilesKernel of sixteen or eight rounds, PairTilesKernel's fused tiles, or RemainingTilesKernel), whole kernel:", {k: v for k, v in sorted(whole.items()) if k.startswith(keep)})
# The slice loops: innermost loops that relax (one per product form: int32, and 16-bit lanes
# where the build has the packed product).
loops = []
for a, t in ins:
    m = re.search(r"BRA .*?0x([0-9a-f]+)", t)
    if m and int(m.group(1), 16) < a:
        body = [x for x in ins if int(m.group(1), 16) <= x[0] <= a]
        if any("VIADDMNMX" in x[1] for x in body):
            loops.append(body)
innermost = [b for b in loops if not any(o is not b and b[0][0] <= o[0][0] and o[-1][0] <= b[-1][0] for o in loops)]
for body in innermost:
    c = Counter(op(t) for _, t in body)
    form = "16-bit lanes" if c["VIADDMNMX.U16x2"] else "int32"
    v = c["VIADDMNMX"] + c["VIADDMNMX.U16x2"]
    print(f"== slice loop ({form}): {len(body)} instructions, {v} VIADDMNMX ({100 * v / len(body):.0f}%),",
          {k: n for k, n in sorted(c.items()) if k.startswith(keep)})
PY
