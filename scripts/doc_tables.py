#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The tables of README.md and docs/results.md, made from the run records in docs/records/ (the
program's --json records; scripts/compare_peer.py --records adds the whole runs timed from
outside and the public solution's beside them), so that every figure has a file behind it and
no table drifts from its records.

A table's place in a page is a pair of markers; the first names what goes there:

  <!-- table KIND [machine=TEXT] [label=TEXT] (made by scripts/doc_tables.py: edit the records, not the table) -->
  ...
  <!-- end table -->

KIND: `headline` (whole runs beside the public solution), `portability` (each platform's best
efficiency and the performance portability over them), `results` (every record in full),
`earlier` (the records of docs/records/earlier/: machines not at hand and code before the
current one, each row with its commit), `ranks` (docs/records/one-gpu-ranks/: MPI runs of ranks
sharing one GPU beside that GPU alone in the same call), `python` (docs/records/python/: the Python
package beside SciPy, NetworkX and the program, scripts/bench_python.py). machine= keeps the rows whose machine contains TEXT;
label= those whose graph is TEXT.

  doc_tables.py            prints every table
  doc_tables.py --write    rewrites them in place
  doc_tables.py --check    exit status 1, naming the page and the table, where a page's table is
                           not what its records make (ctest runs this)
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import apsp_report  # noqa: E402  (the records' loader, platforms and PP)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGES = ("README.md", "docs/results.md", "docs/python.md")
MARK = re.compile(r"<!-- table (\w+)((?: \w+=\"[^\"]*\")*)[^>]*-->\n(.*?)<!-- end table -->\n", re.S)
NOTE = "(made by scripts/doc_tables.py: edit the records, not the table)"


def records_in(folder):
    path = os.path.join(ROOT, folder)
    out = []
    for name in sorted(os.listdir(path)):
        if name.endswith(".json"):
            for r in apsp_report.load(os.path.join(path, name)):
                r["_name"] = os.path.relpath(os.path.join(path, name), os.path.join(ROOT, "docs"))
                out.append(r)
    return out


def machine(r):
    """The platform without its backend, and without the trademark signs."""
    return re.sub(r"\(R\)|\(TM\)", "", apsp_report.platform(r).rsplit(" / ", 1)[0]).replace("  ", " ")


def label(r):
    """What the graph is: the record's `label`, else read off the record's file name (the records
    before `label` existed were named for their graph)."""
    if r.get("label"):
        return r["label"]
    name = os.path.basename(r["_name"])
    kind = "4 components" if "components" in name else "200 x 200 grid" if "grid" in name else "random"
    return kind + (", nested order" if "nested" in name else "")


def rows_of(records):
    out = []
    for r in records:
        x = apsp_report.row(r)
        x.update(machine=machine(r), label=label(r), record=r["_name"], backend=r["kokkos"]["backend"],
                 solve_s=(r.get("seconds") or {}).get("solve"), total_s=(r.get("seconds") or {}).get("total"),
                 date=str(r.get("date", ""))[:10], whole=r.get("whole_run"), peer=r.get("peer"),
                 code=r.get("code_commit") or x["commit"][:7],
                 left_out=(r.get("ceiling") or {}).get("share_left_out") or 0.0)
        out.append(x)
    gpu_first = {b: i for i, b in enumerate(apsp_report.GPU_BACKENDS)}
    return sorted(out, key=lambda x: (gpu_first.get(x["backend"], 9), x["machine"], x["ranks"],
                                      -(x["concurrency"] or 0) if x["backend"] not in gpu_first else 0,
                                      x["label"], -(x["V"] or 0)))


def sci(x):
    return "" if x is None else f"{x:.2e}"


def pct(x):
    return "" if x is None else f"{100 * x:.1f} %"


def secs(x):
    return "" if x is None else f"{x:.3f} s" if x < 10 else f"{x:.1f} s"


def vv(v):
    return f"{v:,}".replace(",", " ")


def link(name, page):
    """A link from `page` to the record `name` (a path under docs/)."""
    to = os.path.relpath(os.path.join(ROOT, "docs", name), os.path.dirname(os.path.join(ROOT, page)))
    return f"[record]({to})"


def headline(rows, page):
    out = ["| machine | backend | threads / GPUs | V | whole run | public solution | speed-up | efficiency |",
           "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for x in rows:
        if not (x["whole"] and x["peer"]):
            continue
        w, p = x["whole"]["median_s"], x["peer"]["median_s"]
        out.append(f"| {x['machine']} | {x['backend']} | {apsp_report.parallelism(x)} | {vv(x['V'])} | {secs(w)} | "
                   f"{secs(p)} ({x['peer']['name']}) | **{p / w:.2f}×** | {pct(x['efficiency'])} |")
    return out


def portability(rows, page):
    best = {}
    for x in rows:
        if x["label"] != "random" or x["efficiency"] is None:
            continue
        key = (x["platform"], apsp_report.parallelism(x))
        if key not in best or x["efficiency"] > best[key]["efficiency"]:
            best[key] = x
    out = ["| machine | backend | threads / GPUs | V | solve relax/s | ceiling relax/s | efficiency |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    for x in rows:
        if best.get((x["platform"], apsp_report.parallelism(x))) is x:
            out.append(f"| {x['machine']} | {x['backend']} | {apsp_report.parallelism(x)} | {vv(x['V'])} | "
                       f"{sci(x['solve_relax_per_s'])} | {sci(x['ceiling_relax_per_s'])} | {pct(x['efficiency'])} |")
    per_platform, pp, why = apsp_report.portability(list(best.values()), [])
    out += ["", f"PP = {pp:.3f} over {len(per_platform)} platforms ({why}; a platform is a device and a "
                f"backend, a CPU per instruction set its ceiling was measured in)." if pp is not None else "PP: n/a"]
    return out


def results(rows, page, earlier=False):
    head = ("| machine | backend | threads / GPUs | graph | V | solve | whole run (process) | total_s | "
            "solve relax/s | efficiency | public solution | " + ("code | " if earlier else "") + "date | |")
    out = [head, "| --- " * (head.count("|") - 1) + "|"]
    for x in rows:
        w = x["whole"]
        whole = f"{secs(w['median_s'])} (median of {len(w['process_wall_s'])})" if w else ""
        peer = f"{secs(x['peer']['median_s'])}" if x["peer"] else ""
        eff = pct(x["efficiency"]) + (f" ({100 * x['left_out']:.0f} % left out)" if x["left_out"] > 0.005 else "")
        out.append(f"| {x['machine']} | {x['backend']} | {apsp_report.parallelism(x)} | {x['label']} | {vv(x['V'])} | "
                   f"{secs(x['solve_s'])} | {whole} | {secs(x['total_s'])} | {sci(x['solve_relax_per_s'])} | {eff} | "
                   f"{peer} | " + (f"{x['code']} | " if earlier else "") + f"{x['date']} | {link(x['record'], page)} |")
    return out


def ranks_table(records, page):
    """MPI runs beside the one-process run of the same graph in the same folder (same call)."""
    alone = {(r["V"], label(r)): r for r in records if not (r.get("mpi") or {}).get("pivot_rows_through")}
    out = ["| ranks | rounds per block | graph | V | solve | one process's solve | ratio | blocked for the owner | "
           "copies | own look-ahead | |",
           "| --- " * 11 + "|"]
    mpi = [r for r in records if (r.get("mpi") or {}).get("pivot_rows_through")]
    for r in sorted(mpi, key=lambda r: (label(r), -r["V"], r["mpi"]["ranks"], -(r["mpi"].get("block_rounds") or 0))):
        one = alone.get((r["V"], label(r)))
        waits = r["mpi"].get("waits_per_rank") or []
        most = {k: max((w[k] for w in waits), default=0.0) for k in ("barrier_s", "transfer_s", "own_lookahead_s")}
        solve, ref = r["seconds"]["solve"], one["seconds"]["solve"] if one else None
        out.append(f"| {r['mpi']['ranks']} | {r['mpi'].get('block_rounds') or ''} | {label(r)} | {vv(r['V'])} | "
                   f"{secs(solve)} | {secs(ref)} | {f'{solve / ref:.2f}×' if ref else ''} | {secs(most['barrier_s'])} | "
                   f"{secs(most['transfer_s'])} | {secs(most['own_lookahead_s'])} | {link(r['_name'], page)} |")
    return out


def settled(row):
    """bench_python's --settle: the first call made that long after the graph (and, where the record
    says so, the program started that long after its file was written)."""
    if not row.get("settle_s"):
        return ""
    both = "both " if row.get("program_settle_s") == row["settle_s"] else ""
    return f" ({both}{row['settle_s']:g} s after the graph)"


def python_table(page):
    """scripts/bench_python.py's records: each tool's call on the same graph, in its own process."""
    out = ["| machine | backend | threads | commit | V | SciPy floyd_warshall | SciPy Dijkstra | NetworkX | apsp_kokkos call "
           "| SciPy's floyd_warshall over it | second call | program's solve | the call over the solve | |",
           "| --- " * 14 + "|"]
    folder = os.path.join(ROOT, "docs/records/python")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(folder, name)) as f:
            rec = json.load(f)
        for r in rec["rows"]:
            t = {k: v["first_s"] for k, v in r["tools"].items()}
            ours, solve = t["apsp_kokkos"], r["program"]["solve_s"]
            fw, again = t.get("scipy_floyd_warshall"), r["tools"]["apsp_kokkos"].get("again_s")
            maybe = {tool: secs(t[tool]) if tool in t else "—"
                     for tool in ("scipy_floyd_warshall", "scipy_dijkstra", "networkx_floyd_warshall_numpy")}
            out.append(f"| {re.sub(r'[(]R[)]|[(]TM[)]', '', r['machine'])} | {r['backend']} | {r['threads']} | "
                       f"{r['commit'][:7]} | {vv(r['V'])}{settled(r)} | {maybe['scipy_floyd_warshall']} | {maybe['scipy_dijkstra']} | "
                       f"{maybe['networkx_floyd_warshall_numpy']} | {secs(ours)} | "
                       f"{f'**{fw / ours:.0f}×**' if fw else '—'} | {secs(again) if again else '—'} | {secs(solve)} | "
                       f"{ours / solve - 1:+.0%} | {link('records/python/' + name, page)} |")
    return out


def make(kind, args, current, earlier, page):
    if kind == "python":
        return "\n".join(python_table(page)) + "\n"
    if kind == "ranks":
        return "\n".join(ranks_table(records_in("docs/records/one-gpu-ranks"), page)) + "\n"
    rows = earlier if kind == "earlier" else current
    if "machine" in args:
        rows = [x for x in rows if args["machine"] in x["machine"]]
    if "label" in args:
        rows = [x for x in rows if x["label"] == args["label"]]
    maker = {"headline": headline, "portability": portability, "results": results,
             "earlier": lambda r, p: results(r, p, earlier=True)}[kind]
    return "\n".join(maker(rows, page)) + "\n"


def render(text, current, earlier, page):
    def one(m):
        kind, raw = m.group(1), m.group(2)
        args = dict(re.findall(r'(\w+)="([^"]*)"', raw))
        head = f"<!-- table {kind}{raw} {NOTE} -->\n"
        return head + make(kind, args, current, earlier, page) + "<!-- end table -->\n"
    return MARK.sub(one, text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    current = rows_of(records_in("docs/records"))
    earlier = rows_of(records_in("docs/records/earlier"))
    stale = 0
    for page in PAGES:
        path = os.path.join(ROOT, page)
        with open(path) as f:
            text = f.read()
        made = render(text, current, earlier, page)
        if a.check:
            for old, new in zip(MARK.finditer(text), MARK.finditer(made)):
                if old.group(0) != new.group(0):
                    print(f"{page}: the table '{old.group(1)}{old.group(2)}' is not what docs/records/ makes "
                          "(scripts/doc_tables.py --write)")
                    stale += 1
        elif a.write:
            if made != text:
                with open(path, "w") as f:
                    f.write(made)
        else:
            for m in MARK.finditer(made):
                print(f"{page}: {m.group(1)}{m.group(2)}\n{m.group(3)}")
    if a.check:
        print(f"doc tables: {len(current)} current and {len(earlier)} earlier records, {stale} stale table(s)")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
