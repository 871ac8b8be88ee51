#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Evidence from a HIP build's machine code (no AMD GPU needed): for each kernel of the solver,
# VGPRs, AGPRs, SGPRs, LDS, scratch (spill) bytes and occupancy from the compiler's resource
# report, the LDS a team takes at run time (team scratch + Kokkos' own), and the instruction mix
# of phase 3's inner loop from the disassembly (v_min3_i32: two relaxations' mins in one
# instruction; ds_read: LDS loads).
#   scripts/show_hip_kernel.sh [build-hip] [--check]
# --check: exit 1 if a phase-3 kernel spills (scratch or VGPR spills), its inner loop has no
# v_min3_i32, or the next slice's loads are waited for before half of it (the test command
# runs it so).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build-hip}
check=${2:-}
[ -f "$build/compile_commands.json" ] || { echo "no compile_commands.json in $build (scripts/build_hip.sh)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# pipeline.cpp instantiates every phase kernel of the single-process solve. Compiled once more
# with the build's own command, keeping the device assembly and the resource remarks.
command=$(python3 - "$build/compile_commands.json" "$work" <<'PY'
import json, shlex, sys
entry = next(e for e in json.load(open(sys.argv[1])) if e["file"].endswith("src/pipeline/pipeline.cpp"))
args = shlex.split(entry["command"])
out, skip = [], 0
for a in args:
    if skip:
        skip -= 1
        continue
    if a in ("-o", "-MF", "-MT"):
        skip = 1
        continue
    if a == "-MD":
        continue
    out.append(a)
out += ["-o", sys.argv[2] + "/pipeline.o", "-save-temps", "-Rpass-analysis=kernel-resource-usage"]
print(entry["directory"] + "\n" + shlex.join(out))
PY
)
directory=$(head -n1 <<<"$command")
(cd "$work" && eval "$(tail -n1 <<<"$command")" >"$work/remarks.txt" 2>&1) || {
  cat "$work/remarks.txt"
  exit 1
}
asm=$(ls "$work"/pipeline-hip-amdgcn-amd-amdhsa-*.s | head -n1)
: "$directory"
python3 - "$work/remarks.txt" "$asm" "$check" "$here/include/apsp/backends/hip_backend.hpp" <<'PY'
import re, subprocess, sys
from collections import Counter

remarks, asm, check = sys.argv[1], sys.argv[2], sys.argv[3] == "--check"
arch = re.search(r"amdhsa-(gfx\w+)\.s$", asm).group(1)

def short(mangled):
    name = subprocess.run(["c++filt"], input=mangled, capture_output=True, text=True).stdout.strip()
    # A phase kernel names its tile operations and whether it is the tuned instantiation;
    # other functors only their execution space.
    m = re.search(r"apsp::Impl::(\w+Kernel)<apsp::Impl::(\w+)<[^<>]*>\s*(?:, (true|false))?\s*>", name)
    if m:
        return m.group(1) + {"true": " (tuned)", "false": " (general)"}.get(m.group(3), "")
    m = re.search(r"apsp::Impl::(\w+)<[^<>]*?(?:, (true|false))?>", name)
    if not m:
        return None
    return m.group(1) + {"true": " (tuned)", "false": " (general)"}.get(m.group(2), "")

# Resource report: one "Function Name" remark, then one remark per resource.
kernels, cur = {}, None
for line in open(remarks):
    m = re.search(r"Function Name: (\S+)", line)
    if m:
        name = short(m.group(1))
        cur = kernels.setdefault(name, {}) if name else None
        if cur is not None:
            cur["mangled"] = m.group(1)
        continue
    m = re.search(r"remark: \S+\s+([A-Za-z ]+?)(?: \[[^\]]*\])?: (\d+) \[", line)
    if m and cur is not None:
        cur[m.group(1).strip()] = int(m.group(2))
if not kernels:
    sys.exit("no resource remarks: does this hipcc know -Rpass-analysis=kernel-resource-usage?")

# Team scratch at run time (the kernels ask for it dynamically; the report's LDS is the static
# part): team threads and scratch bytes as the program asks for them at the default B, from the
# backend's defaults in include/apsp/backends/hip_backend.hpp and the shape it shares with CUDA
# (register_tile_team.hpp), plus the (team size + 2) doubles Kokkos reserves per team.
header = open(sys.argv[4]).read() + open(sys.argv[4].replace("hip_backend.hpp", "register_tile_team.hpp")).read()
value = lambda name: int(re.search(r"#define APSP_HIP_" + name + r" (\d+)", header).group(1))
tile_rows, tile_cols, block, slice = value("TILE_ROWS"), value("TILE_COLS"), value("BLOCK"), value("SLICE")
pad = int(re.search(r"kScratchPad = (\d+)", header).group(1))
team = (block // tile_rows) * (block // tile_cols)
product_lds = 2 * (block * (slice + pad) + slice * (block + pad)) * 4 + 64 + (team + 2) * 8
closure_lds = 4 * block * 4 + 64 + (team + 2) * 8
print(f"== {arch}: resources per kernel (compiler report; LDS at run time for B = {block}, team {team})")
print(f"{'kernel':34} {'VGPR':>5} {'AGPR':>5} {'SGPR':>5} {'scratch B':>9} {'VGPR spill':>10} {'occupancy':>9} {'LDS B':>7}")
for name in sorted(kernels):
    k = kernels[name]
    lds = k.get("LDS Size", 0)
    if "Tiles" in name or "Cross" in name or "RowColumn" in name:
        lds += product_lds
    elif name.startswith("PivotTile"):
        lds += closure_lds
    print(f"{name:34} {k.get('VGPRs', 0):5} {k.get('AGPRs', 0):5} {k.get('SGPRs', 0):5} {k.get('ScratchSize', 0):9} "
          f"{k.get('VGPRs Spill', 0):10} {k.get('Occupancy', 0):9} {lds:7}")

# Phase 3's inner loop: the innermost loop (a backward branch) with v_min3_i32 in it.
target = kernels.get("RemainingTilesKernel (tuned)") or kernels.get("RemainingTilesKernel")
text = open(asm).read()
start = text.index("\n" + target["mangled"] + ":")
end = text.index(".Lfunc_end", start)
lines = [l.strip() for l in text[start:end].splitlines()]
labels = {m.group(1): i for i, l in enumerate(lines) if (m := re.match(r"^(\.LBB\w+):", l))}
ops = lambda body: Counter(l.split()[0] for l in body if l and not l.startswith((".", ";")) and ":" not in l.split()[0])
best = None
for i, l in enumerate(lines):
    m = re.match(r"^s_(?:cbranch_\w+|branch)\s+(\.LBB\w+)", l)
    if m and m.group(1) in labels and labels[m.group(1)] < i:
        body = lines[labels[m.group(1)]:i + 1]
        if ops(body)["v_min3_i32"] and (best is None or len(body) < len(best)):
            best = body
whole = ops(lines)
keys = ("v_min3_i32", "v_min_i32", "v_add_u32", "ds_read", "ds_write", "global_load", "flat_load", "buffer_",
        "scratch_", "v_accvgpr", "s_barrier", "s_waitcnt")
pick = lambda c: {k: v for k, v in sorted(c.items()) if k.startswith(keys)}
print(f"\n== phase 3 ({[n for n in kernels if kernels[n] is target][0]}), whole kernel:", pick(whole))
failures = []
if best:
    c = ops(best)
    n = sum(c.values())
    min3 = c["v_min3_i32"]
    single = sum(v for k, v in c.items() if k.startswith("v_min_i32"))
    adds = sum(v for k, v in c.items() if k.startswith("v_add_u32"))
    reads = sum(v for k, v in c.items() if k.startswith("ds_read"))
    read_bytes = sum(v * {"b32": 4, "b64": 8, "b128": 16, "2_b32": 8, "2_b64": 16, "2st64_b64": 16}.get(k.split("ds_read")[1].lstrip("_"), 4)
                     for k, v in c.items() if k.startswith("ds_read"))
    relax = 2 * min3 + single
    print(f"== inner loop: {n} instructions, {relax} relaxations: v_min3_i32 {min3}, v_min_i32 {single}, "
          f"v_add_u32 {adds}, ds_read {reads} ({read_bytes} bytes)")
    print(f"   per relaxation: {(min3 + single + adds) / relax:.3f} min/add instructions, {n / relax:.3f} instructions, "
          f"{reads / relax:.4f} LDS reads, {read_bytes / relax:.3f} LDS bytes")
    valu = sum(v for k, v in c.items() if k.startswith("v_") and not k.startswith("v_accvgpr"))
    # A CDNA SIMD issues one 64-lane VALU instruction every 4 clocks (16 lanes a clock), a CU
    # has 4 SIMDs: 64 lanes of VALU work per clock per CU, if nothing else stalls.
    print(f"   VALU: {valu} instructions, {valu / relax:.3f} per relaxation -> at most "
          f"{64 * relax / valu:.1f} relaxations per clock per CU (a prediction from the mix, not a measurement)")
    print("   all:", dict(sorted(c.items())))
    # The next slice's loads (register staging): how much of the relaxation they overlap, from
    # their issue to the first wait on one of them: the counter is in order, so s_waitcnt
    # vmcnt(N) waits for one of the k loads issued in the loop so far when N < k (a larger N
    # waits for older loads, e.g. the thread tile's own on the first pass).
    first_load = next((i for i, l in enumerate(best) if l.startswith(("global_load", "flat_load"))), None)
    if first_load is not None:
        issued, wait = 0, len(best)
        for i in range(first_load, len(best)):
            if best[i].startswith(("global_load", "flat_load")):
                issued += 1
            m = re.match(r"s_waitcnt .*vmcnt\((\d+)\)", best[i])
            if m and int(m.group(1)) < issued:
                wait = i
                break
        covered = sum(l.startswith("v_min3_i32") for l in best[first_load:wait])
        print(f"   next slice's global loads in flight across {covered} of the loop's {min3} v_min3_i32")
        if covered < min3 // 2:
            failures.append(f"the next slice's loads overlap only {covered} of {min3} v_min3_i32")
else:
    failures.append("phase 3 has no loop with v_min3_i32")
for name, k in kernels.items():
    if name.startswith(("RemainingTiles", "NextPivotCross")) and (k.get("ScratchSize", 0) or k.get("VGPRs Spill", 0)):
        failures.append(f"{name} spills: {k.get('ScratchSize', 0)} bytes of scratch, {k.get('VGPRs Spill', 0)} VGPRs")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if check and failures else 0)
PY
