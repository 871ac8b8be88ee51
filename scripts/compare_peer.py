#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Whole runs of apsp_kokkos beside another APSP program that takes `IN OUT` the same way (a
peer: its path is an argument, nothing of it belongs to this project), timed as users time
them: each process's wall time from outside, runs interleaved (ours, peer, ours, ...) in one
call, median of --repeats. Both outputs must be identical, byte for byte. Prints a table:

  scripts/compare_peer.py --peer /path/to/peer --sizes 5000 11000 20000 40000

With --threads, each size is timed at each count of host threads (OMP_NUM_THREADS for both
programs; an OpenMP peer such as a course's CPU solution reads it too), for CPU backends:

  scripts/compare_peer.py --peer /path/to/cpu_peer --sizes 6000 --threads 1 2 4 8 16
"""
import argparse
import datetime
import hashlib
import os
import re
import shlex
import statistics
import subprocess
import sys
import time


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 24), b""):
            h.update(block)
    return h.hexdigest()


def timed(cmd, env):
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {shlex.join(cmd)}\n{p.stderr[-2000:]}")
    return wall, p


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--peer", required=True, help="the other program (takes IN OUT)")
    ap.add_argument("--peer-name", default="", help="how the table names it (default: its file name)")
    ap.add_argument("--build", default="build", help="build directory with apsp_kokkos and apsp_gen")
    ap.add_argument("--sizes", type=int, nargs="+", default=[5000, 11000, 20000, 40000])
    ap.add_argument("--density", type=float, default=0.05, help="E ~ density * V^2 (apsp_gen random)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--work-dir", default="/dev/shm", help="where graphs are made")
    ap.add_argument("--out-dir", default="/dev/shm", help="where outputs go (each run a new file)")
    ap.add_argument("--launcher", default="", help="prefix for our runs, e.g. 'mpirun -np 2'")
    ap.add_argument("--peer-launcher", default="", help="prefix for the peer's runs")
    ap.add_argument("--extra", default="", help="extra apsp_kokkos arguments")
    ap.add_argument("--threads", type=int, nargs="+", default=[0],
                    help="host thread counts (OMP_NUM_THREADS for both programs); default: the environment's")
    args = ap.parse_args()

    exe, gen = os.path.join(args.build, "apsp_kokkos"), os.path.join(args.build, "apsp_gen")
    peer_name = args.peer_name or os.path.basename(args.peer)
    rows = []
    for threads, v in [(t, v) for t in args.threads for v in args.sizes]:
        env = dict(os.environ)
        if threads > 0:
            env["OMP_NUM_THREADS"] = str(threads)
        graph = os.path.join(args.work_dir, f"apsp_compare_v{v}_d{args.density}_s{args.seed}.bin")
        if not os.path.exists(graph):
            subprocess.run([gen, "-n", str(v), "-e", str(int(args.density * v * (v - 1))), "--seed", str(args.seed),
                            graph], check=True, capture_output=True)
        ours, theirs, solve, inside = [], [], [], []
        digests = set()
        for rep in range(args.repeats):
            for who in ("ours", "peer"):
                out = os.path.join(args.out_dir, f"apsp_compare_{who}_{rep}.out")
                if who == "ours":
                    cmd = [*shlex.split(args.launcher), exe, *shlex.split(args.extra), graph, out]
                else:
                    cmd = [*shlex.split(args.peer_launcher), args.peer, graph, out]
                wall, p = timed(cmd, env)
                if who == "ours":
                    ours.append(wall)
                    m = re.search(r"solve_s=([0-9.]+) total_s=([0-9.]+)", p.stdout)
                    if m:
                        solve.append(float(m.group(1)))
                        inside.append(float(m.group(2)))
                else:
                    theirs.append(wall)
                if rep == 0:
                    digests.add(sha256(out))
                os.remove(out)
        if len(digests) != 1:
            sys.exit(f"V={v}: the two outputs differ")
        row = dict(V=v, threads=threads or env.get("OMP_NUM_THREADS", "default"), ours=statistics.median(ours), peer=statistics.median(theirs),
                   solve=statistics.median(solve) if solve else float("nan"),
                   inside=statistics.median(inside) if inside else float("nan"), ours_all=ours, peer_all=theirs)
        rows.append(row)
        print(f"  V={v} threads={row['threads']}: ours {row['ours']:.3f} s, {peer_name} {row['peer']:.3f} s",
              file=sys.stderr, flush=True)

    # The commit the measured binary was built from (its --version), not this script's checkout.
    version = subprocess.run([os.path.join(args.build, "apsp_kokkos"), "--version"], capture_output=True,
                             text=True).stdout.strip().splitlines()
    rev = version[0].split("(")[1].split(")")[0] if version and "(" in version[0] else "unknown"
    print(f"\ndate {datetime.date.today().isoformat()}, apsp_kokkos {rev}, outputs to {args.out_dir}, "
          f"median of {args.repeats} interleaved runs, process wall from outside; outputs identical")
    bind = " ".join(f"{k}={os.environ[k]}" for k in ("OMP_PROC_BIND", "OMP_PLACES") if k in os.environ)
    if bind:
        print(f"host threads bound with {bind} (both programs)")
    print(f"| V | E ≈ | threads | apsp_kokkos process s | its total_s | its solve s | {peer_name} process s | speed-up |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(f"| {r['V']} | {int(args.density * r['V'] ** 2)} | {r['threads']} | {r['ours']:.3f} ({', '.join(f'{x:.2f}' for x in r['ours_all'])}) "
              f"| {r['inside']:.3f} | {r['solve']:.3f} | {r['peer']:.3f} ({', '.join(f'{x:.2f}' for x in r['peer_all'])}) "
              f"| {r['peer'] / r['ours']:.2f}× |")


if __name__ == "__main__":
    main()
