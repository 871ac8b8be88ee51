#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A mutation fuzzer of the input format, run as a test. Each case mutates a small valid graph
file (header fields, truncation, trailing bytes, flipped bytes, edge fields at and past their
limits, self-loops and repeated edges) and runs apsp_kokkos on it, into an output that already
exists. Every case must end in one of two ways:

- accepted (exit 0): the spec's rules, judged here independently of the program, say the file
  is valid, and the output equals SciPy's shortest paths;
- refused (exit 2): exactly one stderr line, naming the input, and the rules say the file is
  invalid (or the program said it needs more memory than it was given);

and either way the old output is intact unless replaced by the right result, and no temporary
file is left. Anything else (a signal, another exit code, a second line) counts as a crash.
Seeded and bounded by a case count and a time budget; prints the counts."""
import argparse
import os
import random
import shlex
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

from test_cli import scipy_apsp, temp_files

INF = 2**30 - 1
SENTINEL = struct.pack("<3i", 7, 7, 7)


def valid_graph(rng):
    v = rng.choice([1, 2, 3, rng.randint(4, 20), rng.randint(21, 70)])
    edges = []
    for _ in range(rng.randint(0, min(v * (v - 1), 3 * v))):
        s, t = rng.randrange(v), rng.randrange(v)
        if s != t:
            edges.append((s, t, rng.randint(0, 1000)))
    return v, edges


def encode(v, e, edges):
    return struct.pack("<2i", v, e) + b"".join(struct.pack("<3i", *x) for x in edges)


def i32(x):
    return (x + 2**31) % 2**32 - 2**31


def mutate(rng, v, edges):
    """One to three mutations of a valid file; returns the bytes."""
    data = bytearray(encode(v, len(edges), edges))
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(9)
        n_edges = (len(data) - 8) // 12 if len(data) >= 8 else 0
        if kind == 0 and len(data) >= 4:  # V
            struct.pack_into("<i", data, 0, rng.choice(
                [0, -1, 1, 2, v - 1, v + 1, 2**31 - 1, 1518500250, -2**31, 5000, i32(rng.getrandbits(32))]))
        elif kind == 1 and len(data) >= 8:  # E
            struct.pack_into("<i", data, 4, rng.choice(
                [0, -1, n_edges - 1, n_edges + 1, v * (v - 1), v * (v - 1) + 1, 2**31 - 1, i32(rng.getrandbits(32))]))
        elif kind == 2:  # truncated
            del data[rng.randrange(len(data) + 1):]
        elif kind == 3:  # trailing bytes
            data += bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 24)))
        elif kind == 4 and len(data) > 8:  # a flipped byte in the edges
            data[rng.randrange(8, len(data))] ^= 1 << rng.randrange(8)
        elif kind == 5 and n_edges > 0:  # src or dst at and past the limits
            at = 8 + 12 * rng.randrange(n_edges) + 4 * rng.randrange(2)
            struct.pack_into("<i", data, at, rng.choice([-1, v, v + 1, 2**31 - 1, -2**31, v - 1, 0]))
        elif kind == 6 and n_edges > 0:  # weight at and past the bound
            bound = (INF - 1) // (v - 1) if v > 1 else 2**31 - 1
            struct.pack_into("<i", data, 8 + 12 * rng.randrange(n_edges) + 8,
                             rng.choice([-1, 0, bound, bound + 1 if bound < 2**31 - 1 else -5, 2**31 - 1, -2**31]))
        elif kind == 7 and n_edges > 0 and len(data) >= 8:  # a repeated edge or a self-loop, counted
            s, t, w = struct.unpack_from("<3i", data, 8 + 12 * rng.randrange(n_edges))
            extra = (s, s, rng.randint(0, 1000)) if rng.random() < 0.5 else (s, t, rng.randint(0, 1000))
            data += struct.pack("<3i", *extra)
            struct.pack_into("<i", data, 4, i32(struct.unpack_from("<i", data, 4)[0] + 1))
        elif kind == 8:
            data = bytearray(data[:rng.choice([0, 3, 7, 8])])
    return bytes(data)


def judge(data):
    """The spec's verdict, worked out here: (valid, v, edges) or (False, reason)."""
    if len(data) < 8:
        return False, "short"
    v, e = struct.unpack_from("<2i", data, 0)
    if v < 1 or e < 0 or e > v * (v - 1) or len(data) != 8 + 12 * e:
        return False, "header or size"
    bound = (INF - 1) // (v - 1) if v > 1 else 2**31 - 1
    edges = [struct.unpack_from("<3i", data, 8 + 12 * i) for i in range(e)]
    for s, t, w in edges:
        if not (0 <= s < v and 0 <= t < v) or w < 0 or w > bound:
            return False, "edge"
    return True, (v, edges)


def program_lines(stderr):
    """stderr without the launcher's own notices (Open MPI's boxes between dashed lines, which
    it prints when a rank exits non-zero)."""
    lines, boxed = [], False
    for line in stderr.strip().splitlines():
        if line.startswith("-" * 20):
            boxed = not boxed
        elif not boxed:
            lines.append(line)
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", required=True)
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--seconds", type=float, default=120)
    ap.add_argument("--seed", type=int, default=20261123)
    ap.add_argument("--mpiexec", default="")
    ap.add_argument("--mpiexec-flags", default="")
    ap.add_argument("--np", type=int, default=3)
    args = ap.parse_args()
    launch = [args.mpiexec, *shlex.split(args.mpiexec_flags), "-np", str(args.np)] if args.mpiexec else []
    rng = random.Random(args.seed)
    counts = {"cases": 0, "accepted": 0, "refused": 0, "refused for memory": 0, "crashes": 0}
    failures = []
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        inp, out = os.path.join(tmp, "in.bin"), os.path.join(tmp, "out.bin")
        while counts["cases"] < args.cases and time.monotonic() - start < args.seconds:
            v, edges = valid_graph(rng)
            data = mutate(rng, v, edges)
            with open(inp, "wb") as f:
                f.write(data)
            with open(out, "wb") as f:
                f.write(SENTINEL)
            backend = rng.choice(["Serial", "OpenMP"])
            cmd = [*launch, args.exe, "-q", "--backend", backend, "--max-host-memory", "8MB", inp, out]
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            counts["cases"] += 1
            ok, detail = judge(data)
            lines = program_lines(p.stderr)
            problem = None
            if p.returncode == 0:
                counts["accepted"] += 1
                if not ok:
                    problem = "accepted an input the rules refuse (" + detail + ")"
                else:
                    with open(out, "rb") as f:
                        got = f.read()
                    v, edge_list = detail
                    want = scipy_apsp(v, np.array(edge_list, dtype=np.int64).reshape(-1, 3)).tobytes()
                    if got != want:
                        problem = "wrong result"
                    elif p.stderr.strip():
                        problem = "accepted with stderr output"
            elif p.returncode == 2 and len(lines) == 1 and lines[0].startswith("apsp_kokkos: error: " + inp):
                memory = "needs" in lines[0] and "memory" in lines[0]
                counts["refused for memory" if memory else "refused"] += 1
                if ok and not memory:
                    problem = "refused a valid input"
                else:
                    with open(out, "rb") as f:
                        if f.read() != SENTINEL:
                            problem = "old output changed by a refused run"
            else:
                counts["crashes"] += 1
                problem = f"exit {p.returncode}, {len(lines)} stderr lines"
            leftovers = [n for n in os.listdir(tmp) if n not in ("in.bin", "out.bin")] + temp_files(tmp)
            if leftovers:
                problem = (problem or "") + f" left behind: {leftovers}"
            if problem:
                failures.append((counts["cases"], problem, data[:64].hex(), p.stderr.strip()[:300]))
                for n in os.listdir(tmp):
                    if n not in ("in.bin", "out.bin"):
                        os.unlink(os.path.join(tmp, n))
    mode = f"mpirun -np {args.np}" if launch else "one process"
    print(f"fuzz ({mode}, seed {args.seed}, {time.monotonic() - start:.1f} s): " +
          ", ".join(f"{k} {n}" for k, n in counts.items()))
    for case, problem, head, err in failures[:10]:
        print(f"  case {case}: {problem}; file starts {head}; stderr: {err}")
    passed = counts["cases"] - len(failures)
    print(f"{passed} passed, {len(failures)} failed")
    return 1 if failures or counts["cases"] == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
