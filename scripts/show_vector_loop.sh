#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Prints the CPU micro-kernel's inner loops (include/apsp/backends/host_microkernel.hpp; one
# pivot of a block of C per iteration, two in AVX2's and AVX-512's assembly) from a binary's
# disassembly: the int32 loop and the 16-bit one, each with
# its instruction mix (add-mins, broadcasts, loads, stack accesses, register copies). x86-64
# (AVX2, AVX-512, SSE) and AArch64 (NEON) binaries; OBJDUMP picks the disassembler
# (aarch64-linux-gnu-objdump for a cross build).
#   scripts/show_vector_loop.sh build/apsp_kokkos [--full]
set -euo pipefail
exe=${1:-build/apsp_kokkos}
full=${2:-}
objdump=${OBJDUMP:-objdump}
"$objdump" -d --no-show-raw-insn -C "$exe" >/tmp/apsp_disasm.s
python3 - /tmp/apsp_disasm.s "$full" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
full = sys.argv[2] == "--full"
# The functions that hold both loops: HostTileBlocks<...OpenMP...>::block_at, and relax32
# and relax16 where the compiler kept them apart (GCC 12 for AArch64 keeps relax16 apart; else
# Serial's).
body, name = [], None
for want in ("OpenMP", "Serial"):
    on = False
    for l in lines:
        if re.match(r"^[0-9a-f]+ <", l):
            on = "HostTileBlocks" in l and want in l and any(f">::{f}(" in l for f in ("block_at", "relax32", "relax16"))
            if on and name is None:
                name = l
            continue
        if on:
            body.append(l)
    if body:
        break
if not body:
    sys.exit("no HostTileBlocks<...>::block_at in this binary (a CPU backend's micro-kernel)")
addr = [int(l.split(":")[0], 16) if re.match(r"\s*[0-9a-f]+:", l) else None for l in body]
text = [re.sub(r"^\s*[0-9a-f]+:\s*", "", l) for l in body]
MIN32, MIN16 = ("vpminsd", "pminsd", "smin"), ("vpminuw", "pminuw", "umin")
is_min = lambda t, kinds: any(re.match(rf"{k}\b", t) for k in kinds)
loops = []
for i, t in enumerate(text):  # backward branches: innermost loops
    m = re.match(r"(j\w+|b\.\w+|b|cbnz|cbz)\s+([0-9a-f]+)", t)
    if not m or addr[i] is None:
        continue
    target = int(m.group(2), 16)
    if target >= addr[i]:
        continue
    start = next((j for j in range(len(body)) if addr[j] == target), None)
    if start is None:
        continue
    loop = text[start:i + 1]
    # innermost: no backward branch inside (forward ones skip the prefetch of the next block)
    inner = not any(
        (n := re.match(r"(j\w+|b\.\w+|b|cbnz|cbz)\s+([0-9a-f]+)", t)) and int(n.group(2), 16) < addr[start + k]
        for k, t in enumerate(loop[:-1]))
    n32, n16 = sum(is_min(t, MIN32) for t in loop), sum(is_min(t, MIN16) for t in loop)
    if inner and (n32 or n16):
        loops.append(("int32" if n32 >= n16 else "uint16", loop))
# Keep the innermost loop of each lane type with the most mins.
best = {}
for lanes, loop in loops:
    mins = sum(is_min(t, MIN32 if lanes == "int32" else MIN16) for t in loop)
    if lanes not in best or (mins, -len(loop)) > best[lanes][0]:
        best[lanes] = ((mins, -len(loop)), loop)
print(name.split("<", 1)[1].rstrip(">:"))
for lanes in ("int32", "uint16"):
    if lanes not in best:
        print(f"\n{lanes}: no loop found")
        continue
    loop = best[lanes][1]
    count = lambda pat: sum(bool(re.search(pat, t)) for t in loop)
    mins = count(r"^(v?pmin(sd|uw)|smin|umin)\b")
    adds = count(r"^(v?padd(d|w)\b|add\s+v\d)")
    bcast = count(r"broadcast|\{1to\d+\}|ld1r|^dup\s+v\d+\.\w+,\s*v\d+\.\w\[")
    loads = count(r"^v?movdq[au](32|64)?\s+-?(0x)?[0-9a-f]*\(|^(ldr\s+[qs]\d|ld1\s)") + 2 * count(r"^ldp\s+q") + \
        count(r"^v?padd\w*\s+-?(0x)?[0-9a-f]*\(")
    stack = count(r"\((%rsp|%rbp)\)|\[sp\b")
    ahead_c = count(r"^prefetchw|^prfm\s+pst")  # for writing: the next block of C
    prefetches = count(r"^prefetch|^prfm")
    copies = count(r"^v?movdq[au](32|64)?\s+%[xyz]mm\d+,\s*%[xyz]mm\d+$|^mov\s+v\d+\.16b")
    regs = sorted(set(re.findall(r"%([xyz])mm\d+", " ".join(loop)))) or ["v (NEON)"]
    print(f"\n{lanes} loop: {len(loop)} instructions; {mins} min, {adds} add, {bcast} broadcast, "
          f"{loads} vector load, {prefetches} prefetch ({ahead_c} of the next block of C, "
          f"{prefetches - ahead_c} of B's panel ahead), "
          f"{stack} stack access, {copies} register copy; registers: "
          f"{', '.join(r + 'mm' if r in 'xyz' else r for r in regs)}")
    if full or lanes == "int32":
        for t in loop:
            print("   ", re.sub(r"\s+<.*", "", t))
PY
