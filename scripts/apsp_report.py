#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run records from any number of machines and backends in one table, with each run's
efficiency (solve relaxations per second over the ceiling of the devices it ran on, as the
program reported it) and the performance-portability metric over the platforms given.

  apsp_report.py RECORD.json [RECORDS.jsonl ...] [--platforms P1,P2] [--plot FILE.png] [--json]

A file holds one record (apsp_kokkos --json FILE) or one per line. A platform is a device and a
backend ("NVIDIA H200 / Cuda", "AMD EPYC / OpenMP"). PP (Pennycook, Sewall and Lee) is the
harmonic mean of each platform's best efficiency, and 0 when a platform has no run that
finished (only failures) or, with --platforms, is missing; n/a when a platform's records carry
no ceiling (--no-ceiling, or a record from before the ceiling). Records of schema 2 and 3 are
read; others are refused with one line. Exit status 0, or 2 for a file that cannot be read.
"""
import argparse
import json
import os
import re
import sys

SCHEMAS = (2, 3)


class RecordError(Exception):
    pass


def load(path):
    """The records in `path`: one JSON object, or one per line."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise RecordError(f"{path}: cannot read: {e.strerror}")
    try:
        docs = [json.loads(text)]
    except json.JSONDecodeError:
        try:
            docs = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as e:
            raise RecordError(f"{path}: not a run record (JSON, or JSON lines): {e.msg} at line {e.lineno}")
    records = []
    for n, r in enumerate(docs, 1):
        where = path if len(docs) == 1 else f"{path}:{n}"
        if not isinstance(r, dict) or r.get("program", {}).get("name") != "apsp_kokkos":
            raise RecordError(f"{where}: not an apsp_kokkos run record")
        schema = r.get("schema_version", 1)
        if schema not in SCHEMAS:
            raise RecordError(f"{where}: schema_version {schema}: this script reads schemas "
                              f"{', '.join(map(str, SCHEMAS))} (run it from the same version as the program)")
        records.append(dict(r, _file=where))
    return records


def platform(r):
    """'DEVICE / BACKEND' ('DEVICE (ISA) / BACKEND' for a CPU), or 'P x DEVICE / BACKEND' for P
    ranks (a platform of its own: how the ranks communicate is part of what is measured). The
    record names every rank's device, ', '-separated, identical names as 'NAME xN'; a GPU's
    carries '(device N)'."""
    k = r.get("kokkos", {})
    names = []
    for part in (k.get("device") or "?").split(", "):
        m = re.fullmatch(r"(.*?)(?: x(\d+))?", part.strip())
        names += [re.sub(r" \(device \d+\)$", "", m.group(1))] * int(m.group(2) or 1)
    kinds = sorted(set(names))
    # A CPU's model string ("AMD EPYC" in a VM) names machines of several generations; the ISA
    # its ceiling was measured in (the build's, e.g. AVX2 or AVX-512) tells them apart.
    isa = re.search(r"register add-min \(([^)]+)\)", (r.get("ceiling") or {}).get("basis") or "")
    if isa:
        kinds = [f"{name} ({isa.group(1)})" for name in kinds]
    ranks = (r.get("mpi") or {}).get("ranks", 1)
    prefix = f"{ranks} x " if ranks > 1 else ""
    return f"{prefix}{' + '.join(kinds)} / {k.get('backend') or '?'}"


def row(r):
    ok = r.get("status") in ("ok",)
    ceiling = r.get("ceiling") or {}
    rates = r.get("relaxations_per_second") or {}
    verdict = {"ok": (r.get("verify") or {}).get("verdict", "ok"), "verify_failed": "verify FAILED"}.get(
        r.get("status"), f"{r.get('status')}: {r.get('error', '')}".strip())
    mpi = r.get("mpi") or {}
    graph = r.get("graph") or {}
    return {
        "file": r["_file"],
        "platform": platform(r),
        "kokkos": (r.get("kokkos") or {}).get("version", "?"),
        "concurrency": (r.get("kokkos") or {}).get("concurrency"),
        "ranks": mpi.get("ranks", 1),
        "V": r.get("V"),
        "graph": os.path.basename(graph["path"]) if graph.get("path") else graph.get("source", ""),
        "solve_relax_per_s": rates.get("solve") if ok else None,
        "total_relax_per_s": rates.get("total") if ok else None,
        "ceiling_relax_per_s": ceiling.get("relax_per_s") if ok else None,
        "efficiency": ceiling.get("efficiency") if ok else None,
        # against the CPU calibration made right after the solve (runs that calibrated)
        "efficiency_now": ceiling.get("efficiency_now") if ok else None,
        "finished": ok or r.get("status") == "verify_failed",
        "verdict": verdict,
        "commit": (r.get("program") or {}).get("git_hash", "?"),
    }


def portability(rows, expected):
    """{platform: best efficiency (None: no ceiling; 0: nothing finished)}, PP, and why it is what it is."""
    best = {}
    for p in expected:
        best[p] = 0.0
    for x in rows:
        p = x["platform"]
        if not x["finished"]:
            best.setdefault(p, 0.0)
            continue
        e = x["efficiency"]
        if e is None:
            if best.get(p) in (None, 0.0):
                best[p] = None
            continue
        if best.get(p) is None or e > best[p]:
            best[p] = e
    if not best:
        return best, None, "no records"
    if any(v is None for v in best.values()):
        return best, None, "no ceiling in the records of " + ", ".join(p for p, v in best.items() if v is None)
    if any(v == 0 for v in best.values()):
        return best, 0.0, "a platform failed or is missing: " + ", ".join(p for p, v in best.items() if v == 0)
    return best, len(best) / sum(1 / v for v in best.values()), "harmonic mean of each platform's best efficiency"


GPU_BACKENDS = ("Cuda", "HIP", "SYCL", "OpenMPTarget")


def parallelism(x):
    """'1 GPU', '2 GPUs', '16 threads', '8 threads x 2 ranks': what ran the solve."""
    backend = x["platform"].rsplit(" / ", 1)[-1]
    if backend in GPU_BACKENDS:
        return f"{x['ranks']} GPU" + ("s" if x["ranks"] > 1 else "")
    threads = x["concurrency"] or 1
    return f"{threads} thread" + ("s" if threads > 1 else "") + (f" x {x['ranks']} ranks" if x["ranks"] > 1 else "")


def sci(x):
    return "" if x is None else f"{x:.3e}"


def pct(x):
    return "n/a" if x is None else f"{100 * x:.1f} %"


def print_table(rows, best, pp, why):
    print("| machine / backend | Kokkos | threads or GPUs | graph | V | solve relax/s | whole-run relax/s "
          "| ceiling relax/s | efficiency | against the calibration just after | verdict | commit |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for x in rows:
        print(f"| {x['platform']} | {x['kokkos']} | {parallelism(x)} | {x['graph']} | {x['V'] or ''} | "
              f"{sci(x['solve_relax_per_s'])} | {sci(x['total_relax_per_s'])} | {sci(x['ceiling_relax_per_s'])} | "
              f"{pct(x['efficiency'])} | {pct(x['efficiency_now'])} | {x['verdict']} | {x['commit']} |")
    print()
    for p, e in best.items():
        print(f"best efficiency {pct(e)}: {p}")
    print(f"PP={'n/a' if pp is None else f'{pp:.3f}'} over {len(best)} platform(s) ({why})")


def plot(rows, best, pp, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    # One line per platform and parallelism (threads, or a GPU's resident threads, and ranks).
    series = sorted({(x["platform"], x["concurrency"] or 0, x["ranks"]) for x in rows})
    for p, conc, ranks in series:
        pts = sorted((x["V"], x["solve_relax_per_s"]) for x in rows
                     if (x["platform"], x["concurrency"] or 0, x["ranks"]) == (p, conc, ranks) and x["solve_relax_per_s"])
        one = next(x for x in rows if (x["platform"], x["concurrency"] or 0, x["ranks"]) == (p, conc, ranks))
        label = f"{p}, {parallelism(one)}"
        if pts:
            left.plot([v for v, _ in pts], [s for _, s in pts], "o-", label=label)
    left.set_xscale("log")
    left.set_yscale("log")
    left.set_xlabel("V")
    left.set_ylabel("solve relaxations / s")
    left.set_title("Solve rate by platform")
    left.legend(fontsize=7)
    names = list(best)
    right.barh(range(len(names)), [100 * (best[n] or 0) for n in names], color="tab:blue")
    right.set_yticks(range(len(names)))
    right.set_yticklabels(names, fontsize=7)
    right.set_xlim(0, 110)
    right.set_xlabel("best efficiency, % of the device's ceiling")
    right.set_title(f"PP = {'n/a' if pp is None else f'{pp:.3f}'}")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", nargs="+", help="apsp_kokkos --json files (one record, or one per line)")
    ap.add_argument("--platforms", default="", help="the platforms PP is over, 'DEVICE / BACKEND,...': a missing one makes it 0")
    ap.add_argument("--plot", metavar="FILE.png", help="relax/s against V per platform, and the efficiency bars")
    ap.add_argument("--json", action="store_true", help="print the rows, the best efficiencies and PP as JSON")
    a = ap.parse_args()
    try:
        records = [r for path in a.records for r in load(path)]
    except RecordError as e:
        print(f"apsp_report: error: {e}", file=sys.stderr)
        return 2
    rows = sorted((row(r) for r in records),
                  key=lambda x: (x["platform"], x["ranks"], x["concurrency"] or 0, x["V"] or 0, x["graph"]))
    expected = [p.strip() for p in a.platforms.split(",") if p.strip()]
    best, pp, why = portability(rows, expected)
    if a.json:
        json.dump({"rows": rows, "best_efficiency": best, "PP": pp, "PP_basis": why}, sys.stdout, indent=2)
        print()
    else:
        print_table(rows, best, pp, why)
    if a.plot:
        plot(rows, best, pp, a.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
