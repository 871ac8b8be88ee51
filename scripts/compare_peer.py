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

Without --peer only apsp_kokkos is timed. With --records DIR each (size, threads) leaves one
record in DIR: the program's own --json record of the median run, with `whole_run` (every
process wall time, the median, where the output went), `peer` (the same of the peer, and that
the bytes were the same) and `label` (what the graph is) added: the README's and results.md's
tables are made from such records (scripts/doc_tables.py). Graphs are apsp_gen's random ones,
or of any shape --gen-args asks for (then name it with --label):

  scripts/compare_peer.py --sizes 40000 --gen-args "--shape components --components 4 --seed 2" \\
      --label "4 components" --records docs/records --tag h200
"""
import argparse
import datetime
import hashlib
import json
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


def make_graph(args, gen, v):
    gen_args = shlex.split(args.gen_args)
    tag = re.sub(r"[^A-Za-z0-9]+", "_", args.gen_args).strip("_") or f"d{args.density}_s{args.seed}"
    graph = os.path.join(args.work_dir, f"apsp_compare_v{v}_{tag}.bin")
    if not os.path.exists(graph):
        cmd = [gen, "-n", str(v)]
        if "-e" not in gen_args and "--edges" not in gen_args:
            cmd += ["-e", str(int(args.density * v * (v - 1)))]
        if "--seed" not in gen_args:
            cmd += ["--seed", str(args.seed)]
        subprocess.run(cmd + gen_args + [graph], check=True, capture_output=True)
    return graph


def time_one_size(args, exe, graph, env, tmp_record):
    """Interleaved runs at one size and thread count: our walls, the peer's, our solve and
    total_s, the record of each of our runs, and whether every output had the same bytes."""
    ours, theirs, solve, inside, records = [], [], [], [], []
    digests = set()
    players = ("ours", "peer") if args.peer else ("ours",)
    for rep in range(args.repeats):
        for who in players:
            out = os.path.join(args.out_dir, f"apsp_compare_{who}_{rep}.out")
            if who == "ours":
                extra = ["--json", tmp_record] if args.records else []
                target = [] if "--no-output" in args.extra else [out]
                cmd = [*shlex.split(args.launcher), exe, *shlex.split(args.extra), *extra, graph, *target]
            else:
                cmd = [*shlex.split(args.peer_launcher), args.peer, graph, out]
            wall, p = timed(cmd, env)
            if who == "ours":
                ours.append(wall)
                m = re.search(r"solve_s=([0-9.]+) total_s=([0-9.]+)", p.stdout)
                if m:
                    solve.append(float(m.group(1)))
                    inside.append(float(m.group(2)))
                if args.records:
                    with open(tmp_record) as f:
                        records.append(json.load(f))
            else:
                theirs.append(wall)
            if rep == 0 and "--no-output" not in args.extra:
                digests.add(sha256(out))
            if os.path.exists(out):
                os.remove(out)
    return ours, theirs, solve, inside, records, len(digests) <= 1


def write_record(args, records, ours, theirs, peer_name, v, threads):
    """The record of our median run, with the whole runs and the peer's beside it."""
    median = sorted(range(len(ours)), key=lambda i: ours[i])[len(ours) // 2]
    r = records[median]
    r["label"] = args.label
    r["whole_run"] = {"process_wall_s": ours, "median_s": statistics.median(ours), "output_to": args.out_dir,
                      "launcher": args.launcher, "repeats": args.repeats}
    if theirs:
        r["peer"] = {"name": peer_name, "process_wall_s": theirs, "median_s": statistics.median(theirs),
                     "launcher": args.peer_launcher, "same_bytes": True}
    slug = re.sub(r"[^a-z0-9]+", "", args.label.lower()) or "graph"
    name = f"{args.tag}_{slug}_v{v}" + (f"_{threads}t" if threads else "") + ".json"
    os.makedirs(args.records, exist_ok=True)
    with open(os.path.join(args.records, name), "w") as f:
        json.dump(r, f, indent=1, sort_keys=True)
        f.write("\n")


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--peer", default="", help="the other program (takes IN OUT); none: apsp_kokkos alone")
    ap.add_argument("--peer-name", default="", help="how the table names it (default: its file name)")
    ap.add_argument("--build", default="build", help="build directory with apsp_kokkos and apsp_gen")
    ap.add_argument("--sizes", type=int, nargs="+", default=[5000, 11000, 20000, 40000])
    ap.add_argument("--density", type=float, default=0.05, help="E ~ density * V^2 (apsp_gen random)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--gen-args", default="", help="further apsp_gen arguments (a shape, weights, a seed)")
    ap.add_argument("--label", default="random", help="what the graph is, in the record and the tables")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--work-dir", default="/dev/shm", help="where graphs are made")
    ap.add_argument("--out-dir", default="/dev/shm", help="where outputs go (each run a new file)")
    ap.add_argument("--launcher", default="", help="prefix for our runs, e.g. 'mpirun -np 2'")
    ap.add_argument("--peer-launcher", default="", help="prefix for the peer's runs")
    ap.add_argument("--extra", default="", help="extra apsp_kokkos arguments")
    ap.add_argument("--threads", type=int, nargs="+", default=[0],
                    help="host thread counts (OMP_NUM_THREADS for both programs); default: the environment's")
    ap.add_argument("--records", default="", help="folder for one record per size and thread count")
    ap.add_argument("--tag", default="run", help="the records' name prefix (the machine, e.g. h200)")
    return ap.parse_args()


def main():
    args = parse_args()
    exe, gen = os.path.join(args.build, "apsp_kokkos"), os.path.join(args.build, "apsp_gen")
    peer_name = args.peer_name or os.path.basename(args.peer)
    tmp_record = os.path.join(args.work_dir, f"apsp_compare_record_{os.getpid()}.json")
    rows = []
    for threads, v in [(t, v) for t in args.threads for v in args.sizes]:
        env = dict(os.environ)
        if threads > 0:
            env["OMP_NUM_THREADS"] = str(threads)
        graph = make_graph(args, gen, v)
        ours, theirs, solve, inside, records, same = time_one_size(args, exe, graph, env, tmp_record)
        if not same:
            sys.exit(f"V={v}: the two outputs differ")
        if args.records:
            write_record(args, records, ours, theirs, peer_name, v, threads)
        nan = float("nan")
        rows.append(dict(V=v, threads=threads or env.get("OMP_NUM_THREADS", "default"), ours=statistics.median(ours),
                         peer=statistics.median(theirs) if theirs else nan,
                         solve=statistics.median(solve) if solve else nan,
                         inside=statistics.median(inside) if inside else nan, ours_all=ours, peer_all=theirs))
        print(f"  V={v} threads={rows[-1]['threads']}: ours {rows[-1]['ours']:.3f} s, {peer_name or '-'} "
              f"{rows[-1]['peer']:.3f} s", file=sys.stderr, flush=True)
    print_table(args, rows, peer_name)


def print_table(args, rows, peer_name):
    # The commit the measured binary was built from (its --version), not this script's checkout.
    version = subprocess.run([os.path.join(args.build, "apsp_kokkos"), "--version"], capture_output=True,
                             text=True).stdout.strip().splitlines()
    rev = version[0].split("(")[1].split(")")[0] if version and "(" in version[0] else "unknown"
    print(f"\ndate {datetime.date.today().isoformat()}, apsp_kokkos {rev}, {args.label} graphs, outputs to "
          f"{args.out_dir}, median of {args.repeats} interleaved runs, process wall from outside; outputs identical")
    bind = " ".join(f"{k}={os.environ[k]}" for k in ("OMP_PROC_BIND", "OMP_PLACES") if k in os.environ)
    if bind:
        print(f"host threads bound with {bind} (both programs)")
    print(f"| V | threads | apsp_kokkos process s | its total_s | its solve s | {peer_name or 'peer'} process s "
          "| speed-up |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        peer = f"{r['peer']:.3f} ({', '.join(f'{x:.2f}' for x in r['peer_all'])})" if r["peer_all"] else ""
        speed = f"{r['peer'] / r['ours']:.2f}×" if r["peer_all"] else ""
        print(f"| {r['V']} | {r['threads']} | {r['ours']:.3f} ({', '.join(f'{x:.2f}' for x in r['ours_all'])}) "
              f"| {r['inside']:.3f} | {r['solve']:.3f} | {peer} | {speed} |")


if __name__ == "__main__":
    main()
