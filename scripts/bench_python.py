#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The Python package against what people with graphs call today, process by process.

For each V, a random graph (E = V^2/20 edges, weights 1..1000, the same seed everywhere) is solved
in a fresh process by SciPy's floyd_warshall and shortest_path(method='D'), NetworkX's
floyd_warshall_numpy, apsp_kokkos.floyd_warshall (a SciPy CSR matrix in, a float64 array out,
the first call of the process: Kokkos' start included, then a second call), and by the
command-line program on the same graph as a file (its solve_s, and its process timed from
outside). Each timing is the call alone (the graph is made before the clock starts); the ratios
are against apsp_kokkos' first call. apsp_kokkos and the program run --repeat times per V, each
figure their median (every run kept in the record), the two in turns; the slow tools once. Slow tools are left out past --slow-max (Floyd-Warshall) and
--dijkstra-max. Past V = 10000 the graph's pairs are drawn with repeats (summed, as SciPy does).

  bench_python.py --exe build/apsp_kokkos --python build-python/venv/bin/python [--sizes 1000,2000]
                  [--slow-max 2000] [--dijkstra-max 4000] [--backend OpenMP] [--repeat 3] [--settle S]
                  [--record FILE]
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

MAKE = """
import numpy as np, scipy.sparse as sp
def graph(V):
    rng = np.random.default_rng(12345)
    if V <= 10000:
        g = sp.random(V, V, density=1 / 20, random_state=rng, format="csr")
    else:  # sp.random shuffles all V^2 places: minutes at V = 40000. Pairs drawn with repeats, the
        # repeats' weights summed as SciPy's CSR sums them (about 2.5 % of the pairs).
        rows, cols = rng.integers(0, V, (2, V * V // 20), dtype=np.int32)
        keep = rows != cols
        g = sp.csr_matrix((np.ones(int(keep.sum())), (rows[keep], cols[keep])), shape=(V, V))
    g.data = rng.integers(1, 1001, g.nnz).astype(np.float64)
    return g
"""

CALLS = {
    "scipy_floyd_warshall": "from scipy.sparse.csgraph import floyd_warshall as f\nrun = lambda g: f(g)",
    "scipy_dijkstra": "from scipy.sparse.csgraph import shortest_path as f\nrun = lambda g: f(g, method='D')",
    "networkx_floyd_warshall_numpy": ("import networkx as nx\n"
                                      "run = lambda g: nx.floyd_warshall_numpy(nx.from_scipy_sparse_array("
                                      "g, create_using=nx.DiGraph))"),
    "apsp_kokkos": "import apsp_kokkos\nrun = lambda g: apsp_kokkos.floyd_warshall(g, backend=BACKEND)",
}

TIMED = """
import time, json, sys
g = graph({V})
time.sleep({SETTLE})
t = time.perf_counter(); out = run(g); first = time.perf_counter() - t
again = None
if {AGAIN}:
    # The result kept past the clock, as the first one: freeing it (12.8 GB at V = 40 000) is
    # the caller's later business, not the call's.
    t = time.perf_counter(); kept = run(g); again = time.perf_counter() - t
    del kept
seconds = None
if {AGAIN}:  # the package's own record of the last call: where its time went
    seconds = {{k: v for k, v in apsp_kokkos.last_record()["seconds"].items() if isinstance(v, float) and v > 0}}
print(json.dumps({{"first_s": first, "again_s": again, "checksum": float(out[out != float("inf")].sum()),
                  "seconds": seconds}}))
"""


def time_tool(python, tool, V, backend, settle=0.0):
    code = MAKE + CALLS[tool].replace("BACKEND", repr(backend)) + TIMED.format(V=V, AGAIN=tool == "apsp_kokkos",
                                                                                SETTLE=settle)
    t = time.perf_counter()
    out = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    result["process_s"] = time.perf_counter() - t
    return result


def time_program(python, exe, V, settle=0.0):
    """The command-line program on the same graph written as a binary edge list, `settle` seconds
    after the file is written (the pause the package's call gets after its graph is made)."""
    with tempfile.TemporaryDirectory(dir="/dev/shm" if os.path.isdir("/dev/shm") else None) as tmp:
        write = MAKE + (f"import numpy as np\ng = graph({V}).tocoo()\n"
                        f"body = np.stack([g.row, g.col, g.data.astype(np.int64)], 1).astype(np.int32)\n"
                        f"open('{tmp}/g.bin', 'wb').write(np.array([{V}, g.nnz], np.int32).tobytes() + body.tobytes())\n")
        subprocess.run([python, "-c", write], check=True)
        time.sleep(settle)
        t = time.perf_counter()
        subprocess.run([exe, f"{tmp}/g.bin", f"{tmp}/g.out", "--quiet", "--json", f"{tmp}/r.json"], check=True)
        wall = time.perf_counter() - t
        with open(f"{tmp}/r.json") as f:
            record = json.load(f)
    return {"process_s": wall, "solve_s": record["seconds"]["solve"], "record": record}


def median_of(runs):
    """Each figure's median over the runs (a run: a dict of figures); every run's kept as `runs`."""
    def median(values):
        return sorted(values)[len(values) // 2]
    out = dict(runs[len(runs) // 2])
    for key, value in runs[0].items():
        if isinstance(value, float):
            out[key] = median([r[key] for r in runs])
    if len(runs) > 1:
        out["runs"] = [{k: v for k, v in r.items() if isinstance(v, float)} for r in runs]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--exe", required=True, help="the command-line program")
    ap.add_argument("--python", default=sys.executable, help="a Python that imports apsp_kokkos, SciPy and NetworkX")
    ap.add_argument("--sizes", default="1000,2000")
    ap.add_argument("--slow-max", type=int, default=2000, help="largest V for SciPy's and NetworkX's Floyd-Warshall")
    ap.add_argument("--dijkstra-max", type=int, default=4000, help="largest V for SciPy's Dijkstra")
    ap.add_argument("--backend", default=None)
    ap.add_argument("--repeat", type=int, default=3,
                    help="processes of apsp_kokkos and of the program per V (their medians; the slow tools once)")
    ap.add_argument("--settle", type=float, default=0.0,
                    help="seconds between making the graph and apsp_kokkos' first call (and between writing "
                         "the program's file and starting it): the memory the graph's making freed is then no "
                         "longer at hand where the system hands idle memory back (a VM's host: 3 s on the "
                         "2-vCPU EPYC VM), and the CPUs have idled as long")
    ap.add_argument("--record", help="append the figures to this JSON file (docs/records/python/)")
    a = ap.parse_args()
    rows = []
    for V in (int(v) for v in a.sizes.split(",")):
        row = {"V": V, "E": V * V // 20, "tools": {}, "settle_s": a.settle, "program_settle_s": a.settle}
        for tool in CALLS:
            if tool in ("scipy_floyd_warshall", "networkx_floyd_warshall_numpy") and V > a.slow_max:
                continue
            if tool == "scipy_dijkstra" and V > a.dijkstra_max:
                continue
            if tool != "apsp_kokkos":
                row["tools"][tool] = median_of([time_tool(a.python, tool, V, a.backend)])
        # The package and the program in turns, so that the ratio of their medians compares runs of
        # the same minutes: on a shared VM the speed drifts (the program's median solve at V = 4000
        # on the 2-vCPU EPYC: 0.351, 0.381 and 0.416 s in three runs of one afternoon).
        calls, programs = [], []
        for _ in range(a.repeat):
            calls.append(time_tool(a.python, "apsp_kokkos", V, a.backend, a.settle))
            programs.append(time_program(a.python, a.exe, V, a.settle))
        row["tools"]["apsp_kokkos"] = median_of(calls)
        row["program"] = median_of([{k: p[k] for k in ("process_s", "solve_s")} for p in programs])
        r = programs[0]["record"]
        row.update(machine=r["kokkos"]["device"], backend=r["kokkos"]["backend"],
                   threads=r["kokkos"]["concurrency"], commit=r["program"]["git_hash"])
        ours = row["tools"]["apsp_kokkos"]["first_s"]
        sums = {round(t["checksum"], 3) for t in row["tools"].values()}
        row["same_result"] = len(sums) == 1
        print(f"V={V} {row['backend']} {row['threads']} threads on {row['machine']} ({row['commit']}), "
              f"every tool's distances summing alike: {row['same_result']}:")
        for tool, t in row["tools"].items():
            print(f"  {tool:32s} {t['first_s']:9.3f} s  ({t['first_s'] / ours:7.1f}x apsp_kokkos' first call)"
                  + (f"; again {t['again_s']:.3f} s" if t.get("again_s") else ""))
        inside = row["tools"]["apsp_kokkos"].get("seconds") or {}
        print("  the package's second call, by its record: "
              + ", ".join(f"{k} {v:.3f} s" for k, v in inside.items() if k in ("build", "solve", "write", "total")))
        print(f"  {'command line: solve_s':32s} {row['program']['solve_s']:9.3f} s; process {row['program']['process_s']:.3f} s; "
              f"the call over the program's solve: {ours / row['program']['solve_s'] - 1:+.1%}")
        rows.append(row)
        if a.record:  # after each V, so that a run cut short keeps what it measured
            with open(a.record, "w") as f:
                json.dump({"kind": "python_benchmark", "host": platform.node(), "date": time.strftime("%Y-%m-%d"),
                           "repeat": a.repeat, "rows": rows}, f, indent=1)
                f.write("\n")


if __name__ == "__main__":
    main()
