#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The reports' experiments, run on whatever backend the build has, drawn as PNG figures.

  1. time distribution of a run (read, build, solve, verify, copy back, write) for each V;
  2. time by phase (pivot, pivot row and column, the rest) for each V;
  3. scalability over the input size: solve and whole-run relaxations per second against V;
  4. the blocking factor: solve rate and the matrix traffic it implies, for each block size;
  5. with --ranks: scalability over the number of MPI ranks (one GPU each), and the time
     distribution of the runs on the most ranks, communication included; with --weak V0 also
     weak scaling (V = V0·√ranks: every rank holds the rows of V0 on one), and a markdown table
     of both (solve rate per GPU, efficiency against one GPU).

Every run goes through `apsp_kokkos --json`, so the figures come from the program's own records
(kept in OUT/records.jsonl). The launcher and the lists of sizes are parameters, so the same
script runs on a cluster:

  scripts/experiments.py --build build --sizes 1000 2000 4000 --block-sizes 32 64 128 --out docs/figures/cpu
  scripts/experiments.py --build build-cuda --backend Cuda --sizes 10000 20000 40000 \\
      --block-sizes 32 64 --block-v 20000 --out docs/figures/h200
  scripts/experiments.py --launcher "srun -n 1" ...
  scripts/experiments.py --build build-cuda --backend Cuda --sizes 20000 40000 --ranks 1 2 \
      --launcher "mpirun -np {ranks}" --out docs/figures/h200x2
  scripts/experiments.py --build build-cuda --backend Cuda --sizes 40000 80000 --weak 40000 \
      --ranks 1 2 4 --launcher "mpirun -np {ranks}" --out docs/figures/h200x4

In the launcher, {ranks} stands for the rank count; one rank runs without the launcher (the
single-device program, the baseline of the scaling figure).
"""
import argparse
import json
import os
import shlex
import subprocess
import sys

plt = None  # matplotlib, imported after the runs (see main)

STAGES = ["read", "build", "solve", "verify", "copy_back_wait", "write"]
PHASES = [("pivot", "phase 1: pivot tile"), ("pivot_row_column", "phase 2: pivot row and column"),
          ("remaining", "phase 3: all other tiles")]


def ranks_of(record):
    """MPI ranks of a --json record: `mpi.ranks` (records before schema 2 also had `mpi_ranks`)."""
    return record.get("mpi", {}).get("ranks") or record.get("mpi_ranks", 1)


def run(args, v, block, tag, ranks=0):
    graph = os.path.join(args.work_dir, f"apsp_exp_v{v}_d{args.density}_s{args.seed}.bin")
    if not os.path.exists(graph):
        subprocess.run([os.path.join(args.build, "apsp_gen"), "-n", str(v), "-e", str(int(args.density * v * (v - 1))),
                        "--seed", str(args.seed), graph], check=True, capture_output=True)
    out = os.path.join(args.work_dir, "apsp_exp.out")
    record = os.path.join(args.work_dir, "apsp_exp.json")
    launcher = args.launcher
    if "{ranks}" in launcher:
        launcher = launcher.format(ranks=ranks) if ranks > 1 else ""
    cmd = [*shlex.split(launcher), os.path.join(args.build, "apsp_kokkos"), "--quiet", "--json", record]
    if args.backend:
        cmd += ["--backend", args.backend]
    if block:
        cmd += ["--block-size", str(block)]
    if tag == "size":
        cmd += ["--phase-times"]  # for the phase figure; its fences cost a few percent of the solve
    if args.verify:
        cmd += [f"--verify={args.verify}"]
    cmd += [graph, out]
    best = None
    for _ in range(args.repeats):
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"failed: {shlex.join(cmd)}\n{p.stdout}{p.stderr}")
        with open(record) as f:
            r = json.load(f)
        if best is None or r["seconds"]["total"] < best["seconds"]["total"]:
            best = r
    os.remove(out)
    best["experiment"] = tag
    print(f"  {tag}: V={v} B={best['block_size']} solve {best['seconds']['solve']:.3f} s "
          f"total {best['seconds']['total']:.3f} s", file=sys.stderr, flush=True)
    return best


def label(records):
    r = records[0]
    devices = r["kokkos"]["device"].split(", ")  # one entry per GPU under MPI
    device = devices[0].split(" (")[0] if len(devices) > 1 else devices[0]
    count = f"{len(devices)} × " if len(devices) > 1 else ""
    return f"{r['kokkos']['backend']} on {count}{device}, commit {r['program']['git_hash']}"


def finish(fig, ax, title, records, path, legend_outside=False):
    ax.set_title(f"{title}\n{label(records)}", fontsize=9)
    if legend_outside:  # beside the bars, which fill the axes
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    else:
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def stacked_percent(records, parts, whole, ylabel, title, path):
    """Bars per V: each (name, seconds-of-record) part as a % of whole(record)."""
    fig, ax = plt.subplots(figsize=(9, 4))
    xs = [str(r["V"]) for r in records]
    bottom = [0.0] * len(records)
    for name, seconds in parts:
        vals = [seconds(r) / whole(r) * 100 for r in records]
        if not any(vals):
            continue
        ax.bar(xs, vals, bottom=bottom, label=name)
        bottom = [b + x for b, x in zip(bottom, vals)]
    ax.set_xlabel("V")
    ax.set_ylabel(ylabel)
    finish(fig, ax, title, records, path, legend_outside=True)


def figure_time_distribution(records, path):
    parts = []
    for stage in STAGES:
        if stage == "solve" and ranks_of(records[0]) > 1:
            # Under MPI: the time blocked in pivot-row broadcasts, part of the solve (overlapped
            # with phase 3 on a GPU).
            parts.append(("solve", lambda r: r["seconds"]["solve"] - r["seconds"]["mpi_broadcast_wait"]))
            parts.append(("solve: host in MPI broadcasts (GPU busy with phase 3)", lambda r: r["seconds"]["mpi_broadcast_wait"]))
            continue
        parts.append((stage.replace("_", " "), lambda r, s=stage: r["seconds"].get(s, 0)))
    ranks = ranks_of(records[0])
    stacked_percent(records, parts, lambda r: r["seconds"]["total"], "% of the whole run",
                    "Time distribution of a run" + (f", {ranks} ranks" if ranks > 1 else ""), path)


def figure_rank_scaling(records, path):
    """Solve rate against ranks for each V, with the ideal (linear from one rank)."""
    fig, ax = plt.subplots(figsize=(7, 4))
    for i, v in enumerate(sorted({r["V"] for r in records})):
        rs = sorted((r for r in records if r["V"] == v), key=lambda r: ranks_of(r))
        xs = [ranks_of(r) for r in rs]
        rate = [r["relaxations_per_second"]["solve"] for r in rs]
        ax.plot(xs, rate, "o-", color=f"C{i}", label=f"V = {v}")
        ax.plot(xs, [rate[0] * x / xs[0] for x in xs], ":", color=f"C{i}")
        for x, y in zip(xs[1:], rate[1:]):
            ax.annotate(f"{y / (rate[0] * x / xs[0]) * 100:.0f} %", (x, y), textcoords="offset points",
                        xytext=(6, -4 - 9 * i), fontsize=8)
    ax.set_xlabel("MPI ranks (one GPU each)")
    ax.set_xticks(sorted({ranks_of(r) for r in records}))
    ax.set_ylabel("solve relaxations per second")
    ax.set_ylim(bottom=0)
    finish(fig, ax, "Scalability over the number of GPUs (dotted: linear; %: efficiency)", records, path)


def figure_weak_scaling(records, path):
    """Solve rate per GPU against ranks, V growing as sqrt(ranks); ideal: flat."""
    fig, ax = plt.subplots(figsize=(7, 4))
    rs = sorted(records, key=lambda r: ranks_of(r))
    xs = [ranks_of(r) for r in rs]
    per_gpu = [r["relaxations_per_second"]["solve"] / ranks_of(r) for r in rs]
    ax.plot(xs, per_gpu, "o-", color="C0", label="solve rate per GPU")
    ax.axhline(per_gpu[0], color="C0", linestyle=":")
    for r, x, y in zip(rs[1:], xs[1:], per_gpu[1:]):
        ax.annotate(f"V = {r['V']}: {y / per_gpu[0] * 100:.0f} %", (x, y), textcoords="offset points",
                    xytext=(-30, -14), fontsize=8)
    ax.annotate(f"V = {rs[0]['V']}", (xs[0], per_gpu[0]), textcoords="offset points", xytext=(4, -14), fontsize=8)
    ax.set_xlabel("MPI ranks (one GPU each)")
    ax.set_xticks(xs)
    ax.set_ylabel("solve relaxations per second per GPU")
    ax.set_ylim(bottom=0)
    finish(fig, ax, "Weak scaling: the same rows per GPU (dotted: one GPU; %: efficiency)", records, path)


def figure_phases(records, path):
    parts = [(name, lambda r, k=key: r["phase_seconds"][k]) for key, name in PHASES]
    stacked_percent(records, parts, lambda r: r["seconds"]["solve"], "% of the solve",
                    f"Time by phase (B = {records[0]['block_size']})", path)


def figure_scaling(records, path, ceiling):
    fig, ax = plt.subplots(figsize=(7, 4))
    vs = [r["V"] for r in records]
    ax.plot(vs, [r["relaxations_per_second"]["solve"] for r in records], "o-", label="solve")
    ax.plot(vs, [r["relaxations_per_second"]["total"] for r in records], "s--", label="whole run")
    if ceiling:
        ax.axhline(ceiling, color="gray", linestyle=":", label=f"instruction ceiling {ceiling:.3g}")
    ax.set_xlabel("V")
    ax.set_ylabel("relaxations per second (V³ / s)")
    ax.set_ylim(bottom=0)
    finish(fig, ax, "Scalability over the input size", records, path)


def figure_block_size(records, path):
    # Phase 3 reads and writes each matrix entry once per round: 8 bytes per entry per round,
    # n / B rounds, so 8 n^3 / B bytes in all: the traffic the blocking factor implies.
    fig, ax = plt.subplots(figsize=(7, 4))
    bs = [r["block_size"] for r in records]
    rate = [r["relaxations_per_second"]["solve"] for r in records]
    ax.plot(bs, rate, "o-", color="C0")
    ax.set_xlabel("block size B")
    ax.set_ylabel("solve relaxations per second", color="C0")
    ax.set_xscale("log", base=2)
    ax.set_ylim(bottom=0)
    ax2 = ax.twinx()
    n = [-(-r["V"] // b) * b for r, b in zip(records, bs)]
    gbs = [8 * m**3 / b / r["seconds"]["solve"] / 1e9 for m, b, r in zip(n, bs, records)]
    ax2.plot(bs, gbs, "s--", color="C1")
    ax2.set_ylabel("matrix traffic of phase 3, GB/s (8 n³ / B bytes)", color="C1")
    ax2.set_ylim(bottom=0)
    ax.set_title(f"Blocking factor at V = {records[0]['V']}\n{label(records)}", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--backend", default="")
    ap.add_argument("--launcher", default="", help="prefix for each run, e.g. 'mpirun -np 2' or 'srun -n 1'")
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000, 4000])
    ap.add_argument("--block-sizes", type=int, nargs="+", default=[32, 64, 128])
    ap.add_argument("--block-v", type=int, default=0, help="V for the block-size experiment (default: largest size)")
    ap.add_argument("--repeats", type=int, default=2, help="runs per point; the fastest is kept")
    ap.add_argument("--density", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--verify", type=int, default=0, help="rows to check per run (0: no check)")
    ap.add_argument("--ceiling", type=float, default=0, help="relax/s line in the scalability figure")
    ap.add_argument("--work-dir", default="/dev/shm")
    ap.add_argument("--ranks", type=int, nargs="+", default=[],
                    help="rank counts for the scaling experiment (the launcher takes {ranks})")
    ap.add_argument("--weak", type=int, default=0,
                    help="with --ranks: also weak scaling from this V on one rank (V = V0·sqrt(ranks))")
    ap.add_argument("--out", required=True, help="folder for records.jsonl and the PNG figures")
    ap.add_argument("--replot", action="store_true", help="draw the figures from OUT/records.jsonl, run nothing")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.replot:
        with open(os.path.join(args.out, "records.jsonl")) as f:
            records = [json.loads(line) for line in f]
        plot(args, *[[r for r in records if r["experiment"] == e] for e in ("size", "block", "ranks", "weak")])
        return
    # Runs inherit this process's CPU affinity; NumPy's BLAS (under matplotlib) can pin it to one
    # core, which would put every OpenMP thread of the solver there. So: all cores, and plotting
    # only after the runs.
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, range(os.cpu_count()))

    by_v, by_b, by_r, by_w = [], [], [], []
    if args.ranks:  # the scaling experiments alone
        by_r = [run(args, v, 0, "ranks", n) for n in args.ranks for v in args.sizes]
        for n in args.ranks if args.weak else []:
            v = weak_size(args.weak, n)
            same = [r for r in by_r if r["V"] == v and ranks_of(r) == n]  # already run as strong
            by_w.append(dict(same[0], experiment="weak") if same else run(args, v, 0, "weak", n))
    else:
        by_v = [run(args, v, 0, "size") for v in args.sizes]
        bv = args.block_v or max(args.sizes)
        by_b = [run(args, bv, b, "block") for b in args.block_sizes]
    with open(os.path.join(args.out, "records.jsonl"), "w") as f:
        for r in by_v + by_b + by_r + by_w:
            r["kokkos"].pop("configuration", None)
            f.write(json.dumps(r) + "\n")
    plot(args, by_v, by_b, by_r, by_w)
    print(f"{len(by_v) + len(by_b) + len(by_r) + len(by_w)} runs; figures in {args.out}")


def weak_size(v0, ranks):
    """V whose matrix, split over `ranks`, gives each rank the rows of V0 on one."""
    return round(v0 * ranks**0.5)


def scaling_table(strong, weak):
    """Markdown rows: solve rate per GPU and efficiency against one GPU (the same V for strong
    scaling, V0 for weak scaling)."""
    rows = ["| device | commit | V | E | GPUs | solve s | total s | solve relax/s | per GPU | efficiency "
            "| device memory per rank |", "|" + " --- |" * 11]
    for kind, records in (("strong", strong), ("weak", weak)):
        one = {r["V"]: r for r in records if ranks_of(r) == 1}
        base = min(one.values(), key=lambda r: r["V"]) if kind == "weak" and one else None
        for r in sorted(records, key=lambda r: (r["V"], ranks_of(r))) if kind == "strong" else \
                sorted(records, key=lambda r: ranks_of(r)):
            n, rate = ranks_of(r), r["relaxations_per_second"]["solve"]
            ref = base if kind == "weak" else one.get(r["V"])
            if n == 1 and kind == "weak":
                continue  # the same run as strong scaling's one-GPU row
            eff = "–" if n == 1 or not ref else \
                f"{rate / n / ref['relaxations_per_second']['solve'] * 100:.1f} % ({kind})"
            device = r["kokkos"]["device"].split(" (")[0] + (f" ×{n}" if n > 1 else "")
            rows.append(f"| {device} | {r['program']['git_hash'][:7]} | {r['V']} | {r['E']} | {n} "
                        f"| {r['seconds']['solve']:.3f} | {r['seconds']['total']:.3f} | {rate:.3e} "
                        f"| {rate / n:.3e} | {eff} | {r['memory_bytes']['device'] / 1e9:.2f} GB |")
    return "\n".join(rows)


def plot(args, by_v, by_b, by_r=(), by_w=()):
    global plt
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot

    plt = matplotlib.pyplot
    if by_v:
        figure_time_distribution(by_v, os.path.join(args.out, "time_distribution.png"))
        figure_phases(by_v, os.path.join(args.out, "phases.png"))
        figure_scaling(by_v, os.path.join(args.out, "scaling_v.png"), args.ceiling)
    if by_b:
        figure_block_size(by_b, os.path.join(args.out, "block_size.png"))
    if by_r:
        most = max(ranks_of(r) for r in by_r)
        figure_rank_scaling(by_r, os.path.join(args.out, "scaling_gpus.png"))
        figure_time_distribution([r for r in by_r if ranks_of(r) == most],
                                 os.path.join(args.out, "time_distribution.png"))
        # Under MPI the phases go untimed (fences would undo the overlap): no phase figure.
        if by_w:
            figure_weak_scaling(by_w, os.path.join(args.out, "weak_scaling.png"))
        table = scaling_table(by_r, by_w)
        with open(os.path.join(args.out, "table.md"), "w") as f:
            f.write(table + "\n")
        print(table)


if __name__ == "__main__":
    main()
