#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Whole runs of several commands on the same graphs, timed as users time them: each process's
wall time from outside (launcher included), runs interleaved (a, b, c, a, b, c, ...) in one
call, median of --repeats; every command's output must be identical, byte for byte. Prints a
table with each command's time as a ratio to the first's. A command is NAME=TEMPLATE, where
the template names the input {in} and the output {out}:

  scripts/compare_runs.py --sizes 40000 \\
      --run "1 GPU=build/apsp_kokkos {in} {out}" \\
      --run "2 GPUs=mpirun -np 2 --bind-to none build/apsp_kokkos {in} {out}" \\
      --run "peer=/path/to/peer {in} {out}"

Graphs come from apsp_gen (random, E ~ --density V^2, or --edges-per-vertex). Output /dev/null
skips the comparison of outputs (use it where only the solve matters).
"""
import argparse
import datetime
import os
import re
import shlex
import statistics
import subprocess
import sys
import time

from compare_peer import sha256  # the same digest as the peer comparison


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--run", action="append", required=True, help="NAME=COMMAND with {in} and {out}")
    ap.add_argument("--build", default="build", help="build directory with apsp_gen")
    ap.add_argument("--sizes", type=int, nargs="+", default=[11000])
    ap.add_argument("--density", type=float, default=0.05, help="E ~ density * V^2")
    ap.add_argument("--edges-per-vertex", type=int, default=0, help="E = this * V instead of --density")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--work-dir", default="/dev/shm", help="where graphs are made")
    ap.add_argument("--out-dir", default="/dev/shm", help="where outputs go (each run a new file); /dev/null: none")
    args = ap.parse_args()

    runs = []
    for r in args.run:
        name, _, template = r.partition("=")
        if not template or "{in}" not in template or "{out}" not in template:
            sys.exit(f"--run {r!r}: expected NAME=COMMAND with {{in}} and {{out}}")
        runs.append((name, template))
    env = dict(os.environ)
    table = []
    for v in args.sizes:
        e = args.edges_per_vertex * v if args.edges_per_vertex else int(args.density * v * (v - 1))
        graph = os.path.join(args.work_dir, f"apsp_runs_v{v}_e{e}_s{args.seed}.bin")
        if not os.path.exists(graph):
            subprocess.run([os.path.join(args.build, "apsp_gen"), "-n", str(v), "-e", str(e), "--seed",
                            str(args.seed), graph], check=True, capture_output=True)
        walls = {name: [] for name, _ in runs}
        solves = {name: [] for name, _ in runs}
        digests = {}
        for rep in range(args.repeats):
            for i, (name, template) in enumerate(runs):
                out = "/dev/null" if args.out_dir == "/dev/null" else os.path.join(args.out_dir, f"apsp_runs_{i}.out")
                cmd = shlex.split(template.format(**{"in": graph, "out": out}))
                t0 = time.monotonic()
                p = subprocess.run(cmd, capture_output=True, text=True, env=env)
                wall = time.monotonic() - t0
                if p.returncode != 0:
                    sys.exit(f"{name} failed ({p.returncode}): {shlex.join(cmd)}\n{p.stderr[-3000:]}")
                walls[name].append(wall)
                m = re.search(r"solve_s=([0-9.]+)", p.stdout)
                if m:
                    solves[name].append(float(m.group(1)))
                if out != "/dev/null":
                    if rep == 0:
                        digests[name] = sha256(out)
                    os.remove(out)
                print(f"  V={v} {name}: {wall:.3f} s", file=sys.stderr, flush=True)
        if len(set(digests.values())) > 1:
            sys.exit(f"V={v}: outputs differ: {digests}")
        table.append((v, e, walls, solves))

    same = "outputs identical" if args.out_dir != "/dev/null" else "outputs discarded"
    print(f"\ndate {datetime.date.today().isoformat()}, outputs to {args.out_dir}, "
          f"median of {args.repeats} interleaved runs, process wall from outside; {same}")
    # What each run's program says it is (apsp_kokkos --version names the commit it was built from).
    for name, template in runs:
        exe = next((w for w in shlex.split(template) if os.path.sep in w and os.access(w, os.X_OK)), None)
        if exe is None:
            continue
        try:
            out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=60).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            continue
        if out.startswith("apsp_kokkos"):
            print(f"{name}: {out.splitlines()[0]}")
    first = runs[0][0]
    print("| V | E | run | process s (runs) | solve s | vs " + first + " |")
    print("| --- | --- | --- | --- | --- | --- |")
    for v, e, walls, solves in table:
        base = statistics.median(walls[first])
        for name, _ in runs:
            w = statistics.median(walls[name])
            s = f"{statistics.median(solves[name]):.3f}" if solves[name] else ""
            print(f"| {v} | {e} | {name} | {w:.3f} ({', '.join(f'{x:.2f}' for x in walls[name])}) | {s} "
                  f"| {base / w:.2f}× |")


if __name__ == "__main__":
    main()
