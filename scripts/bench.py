#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Times apsp_kokkos over a list of V (and block sizes) and prints a table.

Each configuration runs --repeats times as a whole process; the table gives the median.
Graphs come from apsp_gen (random, E ~ density * V^2), made once in --work-dir.
Rows are also printed as Markdown for docs/results-log.md, with device, date and commit.

  scripts/bench.py --build build --sizes 2000 4000 --repeats 3
  scripts/bench.py --build build --sizes 20000 40000 --block-sizes 64 128 --ceiling 1.67e13
"""
import argparse
import datetime
import json
import os
import re
import shlex
import statistics
import subprocess
import time
import sys

def device_name(backend):
    if backend.lower() == "cuda":
        try:
            return subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                                  capture_output=True, text=True).stdout.splitlines()[0].strip()
        except (OSError, IndexError):
            return "unknown GPU"
    with open("/proc/cpuinfo") as f:
        model = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "unknown CPU")
    return f"{model}, {os.cpu_count()} cores"


def commit(exe):
    """The commit the binary was built from (its --version), else the source tree's."""
    p = subprocess.run([exe, "--version"], capture_output=True, text=True)
    m = re.search(r"\(([0-9a-f]{7,}(?:-dirty)?)\)", p.stdout)
    if m:
        return m.group(1)
    here = os.path.dirname(os.path.abspath(__file__))
    p = subprocess.run(["git", "-C", here, "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", here, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return (p.stdout.strip() or "unknown") + ("+dirty" if dirty else "")


def run_once(cmd, record, out):
    """One run; the fields of its JSON record (`--json`, docs/run_record.md) that the table
    uses, with process_s: the process's wall time measured from outside, as a user times it.
    The previous run's output is removed first, outside the timing: replacing a file frees its
    pages inside the rename (a V = 40 000 run's write stage on tmpfs: 0.44-0.74 s against
    0.10-0.12 s into a new name, docs/running.md), the old file's cost and not the run's
    (compare_peer.py writes a new file each run too)."""
    if os.path.isfile(out):
        os.remove(out)
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit(f"failed: {shlex.join(cmd)}\n{p.stderr}")
    with open(record) as f:
        r = json.load(f)
    if r.get("schema_version", 0) < 3 or r["status"] != "ok":
        sys.exit(f"unexpected record (schema {r.get('schema_version')}, status {r.get('status')}) from "
                 f"{shlex.join(cmd)}")
    s = r["seconds"]
    fields = dict(E=r["E"], backend=r["kokkos"]["backend"], ranks=r["mpi"]["ranks"],
                  concurrency=r["kokkos"]["concurrency"], block=r["block_size"], solve_s=s["solve"],
                  total_s=s["total"], process_s=wall, verify=r["verify"]["verdict"])
    stages = {k: s[k] for k in ("startup", "read", "build", "solve", "verify", "copy_back_wait", "write")}
    if r["mpi"]["ranks"] > 1:
        stages["mpi"], stages["staging"] = s["mpi_broadcast_wait"], s["mpi_staging_wait"]
    return fields, stages


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build", help="build directory with apsp_kokkos and apsp_gen")
    ap.add_argument("--sizes", type=int, nargs="+", default=[4000])
    ap.add_argument("--block-sizes", type=int, nargs="+", default=[0], help="0 = the backend's default")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--backend", default="", help="execution space (default: Kokkos' default)")
    ap.add_argument("--density", type=float, default=0.05, help="E ~ density * V^2")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--work-dir", default="/dev/shm", help="where graphs are made")
    ap.add_argument("--out-dir", default="/dev/shm", help="where outputs are written")
    ap.add_argument("--launcher", default="", help="prefix for each run, e.g. 'mpirun -np 2'")
    ap.add_argument("--extra", default="", help="extra apsp_kokkos arguments")
    ap.add_argument("--ceiling", type=float, default=0, help="relax/s ceiling for a '%% of ceiling' column")
    args = ap.parse_args()

    exe = os.path.join(args.build, "apsp_kokkos")
    gen = os.path.join(args.build, "apsp_gen")
    rows = []
    for v in args.sizes:
        graph = os.path.join(args.work_dir, f"apsp_bench_v{v}_d{args.density}_s{args.seed}.bin")
        if not os.path.exists(graph):
            e = int(args.density * v * (v - 1))
            subprocess.run([gen, "-n", str(v), "-e", str(e), "--seed", str(args.seed), graph], check=True,
                           capture_output=True)
        for b in args.block_sizes:
            out = os.path.join(args.out_dir, f"apsp_bench_v{v}.out")
            record = os.path.join(args.out_dir, f"apsp_bench_v{v}.json")
            cmd = [*shlex.split(args.launcher), exe, "--json", record, *shlex.split(args.extra)]
            if args.backend:
                cmd += ["--backend", args.backend]
            if b:
                cmd += ["--block-size", str(b)]
            cmd += [graph, out]
            runs = [run_once(cmd, record, out) for _ in range(args.repeats)]
            for path in (out, record):
                if os.path.exists(path):
                    os.remove(path)
            solve = statistics.median(float(f["solve_s"]) for f, _ in runs)
            total = statistics.median(float(f["total_s"]) for f, _ in runs)
            process = statistics.median(float(f["process_s"]) for f, _ in runs)
            stages = {k: statistics.median(float(s[k]) for _, s in runs) for k in runs[0][1]}
            f0 = runs[0][0]
            rows.append(dict(V=v, E=int(f0["E"]), backend=f0["backend"], ranks=int(f0.get("ranks", 1)),
                             conc=f0["concurrency"], block=int(f0["block"]),
                             solve=solve, total=total, process=process, stages=stages, relax_solve=v**3 / solve,
                             relax_total=v**3 / total))
            print(f"  V={v} block={f0['block']}: solve {solve:.3f} s, total {total:.3f} s, process {process:.3f} s "
                  f"({args.repeats} runs, median)", file=sys.stderr, flush=True)

    dev = device_name(rows[0]["backend"]) if rows else ""
    date = datetime.date.today().isoformat()
    rev = commit(exe)
    print(f"\ndevice: {dev}   commit: {rev}   date: {date}   output to: {args.out_dir}   "
          f"repeats: {args.repeats} (median)")
    hdr = f"{'V':>7} {'backend':>8} {'ranks':>5} {'conc':>6} {'B':>4} {'solve s':>9} {'total s':>9} {'process s':>9} " \
          f"{'solve relax/s':>14} " \
          f"{'total relax/s':>14}"
    if args.ceiling:
        hdr += f" {'% ceiling':>10}"
    hdr += "  stages (s)"
    print(hdr)
    for r in rows:
        line = f"{r['V']:>7} {r['backend']:>8} {r['ranks']:>5} {r['conc']:>6} {r['block']:>4} {r['solve']:>9.3f} " \
               f"{r['total']:>9.3f} {r['process']:>9.3f} " \
               f"{r['relax_solve']:>14.3e} {r['relax_total']:>14.3e}"
        if args.ceiling:
            line += f" {100 * r['relax_solve'] / args.ceiling:>9.1f}%"
        line += "  " + " ".join(f"{k}={v:.3f}" for k, v in r["stages"].items())
        print(line)
    print("\nMarkdown rows (docs/results-log.md):")
    for r in rows:
        print(f"| {dev} | {date} | {rev} | {r['V']} | {r['E']} | {r['backend']} ({r['conc']}) | {r['ranks']} | {r['block']} | "
              f"{r['solve']:.3f} | {r['total']:.3f} ({r['process']:.3f} process) | {r['relax_solve']:.3e} | "
              f"{r['relax_total']:.3e} | "
              f"{args.out_dir} |")


if __name__ == "__main__":
    main()
