#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The relaxation ceiling of this GPU (Hopper, sm_90): builds scripts/minplus_mix.cu, prints
# relaxations per second and per clock per multiprocessor for the fused add-min, the
# IMAD/IADD3 + VIMNMX3 pair form, mixes of the two and the fused form on two 16-bit lanes
# (VIADDMNMX.U16x2, two relaxations per instruction), with operands in registers and from
# shared memory; then the instruction mix of each variant's loop (from the SASS) and, where
# Nsight Compute can read the counters, the pipe utilisation of each variant (which pipe limits).
#   scripts/minplus_mix.sh [STEPS=4000] [OUT_DIR=/tmp/minplus_mix]
set -euo pipefail
steps=${1:-4000}
out=${2:-/tmp/minplus_mix}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
nvcc -std=c++20 -O3 -arch=sm_90 -o "$out/minplus_mix" "$here/minplus_mix.cu"
"$out/minplus_mix" "$steps" | tee "$out/throughput.txt"
echo
if command -v cuobjdump >/dev/null; then
  echo "== instructions per step (16 pivots, 1024 relaxations per thread) in each variant's loop"
  cuobjdump --dump-sass "$out/minplus_mix" >"$out/minplus_mix.sass"
  python3 - "$out/minplus_mix.sass" <<'PY'
import re, sys
from collections import Counter
funcs, cur = {}, None
for line in open(sys.argv[1]):
    m = re.search(r"Function : (\S+)", line)
    if m:
        cur = m.group(1); funcs[cur] = []; continue
    m = re.match(r"\s+/\*([0-9a-f]{4,})\*/\s+(.*?);", line)
    if m and cur:
        funcs[cur].append((int(m.group(1), 16), m.group(2)))
op = lambda t: t.split()[1] if t.startswith("@") else t.split()[0]
for name, ins in funcs.items():
    m = re.search(r"relax_kernelILi([0-9]+)ELi([012])ELb([01])", name)
    if not m:
        continue
    loop = None
    for a, t in ins:  # the innermost backward branch around the min instructions
        b = re.search(r"BRA .*?0x([0-9a-f]+)", t)
        if b and int(b.group(1), 16) < a:
            body = [x for x in ins if int(b.group(1), 16) <= x[0] <= a]
            if any("MNMX" in x[1] for x in body) and (loop is None or len(body) < len(loop)):
                loop = body
    c = Counter(op(t) for _, t in loop)
    keep = {k: v for k, v in sorted(c.items()) if k.startswith(("VIADDMNMX", "VIMNMX3", "IMAD", "IADD3", "LDS"))}
    adds = {'0': 'IMAD', '1': 'IADD3', '2': '16x2'}[m.group(2)]
    print(f"{'shared   ' if m.group(3) == '1' else 'registers'} pairs={m.group(1)}/64 adds={adds}: "
          f"{len(loop)} instructions, {keep}")
PY
  echo
fi
# Pipe utilisation: Nsight Compute where it can read the counters (not on every machine).
metrics=smsp__issue_active.avg.pct_of_peak_sustained_active
metrics+=,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active
metrics+=,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active
metrics+=,sm__inst_executed_pipe_fmaheavy.avg.pct_of_peak_sustained_active
metrics+=,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active
metrics+=,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active
metrics+=,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
metrics+=,sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_active
if command -v ncu >/dev/null &&
  ncu --clock-control none --metrics "$metrics" -k regex:relax_kernel --launch-skip 1 --launch-count 1 \
    "$out/minplus_mix" 20 >"$out/ncu_probe.txt" 2>&1 && grep -q pct "$out/ncu_probe.txt"; then
  echo "== pipe utilisation (% of peak while active; Nsight Compute, steps=200)"
  ncu --clock-control none --metrics "$metrics" -k regex:relax_kernel --csv "$out/minplus_mix" 200 \
    >"$out/ncu.csv" 2>"$out/ncu.err" || true
  python3 - "$out/ncu.csv" <<'PY'
import csv, re, sys
from collections import defaultdict
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
head, rows = rows[0], rows[1:]
k, mname, val = head.index("Kernel Name"), head.index("Metric Name"), head.index("Metric Value")
table = defaultdict(dict)
for r in rows:
    table[r[k]][r[mname]] = r[val]  # the timed launch of each variant overwrites its warm-up
short = lambda m: m.replace("sm__inst_executed_pipe_", "inst:").replace("sm__pipe_", "cycles:").replace(
    "smsp__issue_active", "issue").replace(".avg.pct_of_peak_sustained_active", "").replace("_cycles_active", "")
names = sorted({m for v in table.values() for m in v})
print(f"{'variant':34}" + "".join(f"{short(m):>16}" for m in names))
for kern, v in table.items():
    m = re.search(r"relax_kernel<(\d+), (\d+), (true|false)>", kern)
    adds = {'0': 'IMAD', '1': 'IADD3', '2': '16x2'}.get(m.group(2), m.group(2)) if m else ''
    label = f"{'shared' if m.group(3) == 'true' else 'registers'} pairs={m.group(1)} adds={adds}" if m else kern[:34]
    print(f"{label:34}" + "".join(f"{v.get(n, ''):>16}" for n in names))
PY
else
  echo "== pipe utilisation: Nsight Compute cannot read the counters here ($(tail -1 "$out/ncu_probe.txt" 2>/dev/null || echo 'no ncu'))"
fi
