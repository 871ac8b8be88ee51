#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""--predecessors end to end, against SciPy and against the tie rule computed here.

For random graphs, chains, graphs of zero-weight ties and graphs with unreachable pairs, on
every backend of the build, at several block sizes and (with --mpiexec) at 1-3 ranks:
- the distance file is byte-identical to a run without --predecessors;
- every predecessor chain is a path of the graph (each hop an edge, the lightest of repeated
  ones) whose weights sum to SciPy's distance and to the length of the path SciPy's own
  predecessors (dijkstra(..., return_predecessors=True)) describe; -1 exactly on the diagonal
  and at unreachable pairs;
- the predecessors are the tie rule's (fewest edges, then the smallest predecessor), computed
  here by a Floyd-Warshall on (distance, edges) in NumPy, so every backend, block size and rank
  count writes the same file;
- --verify catches a changed predecessor (exit 1, nothing written), and bad use is refused with
  one line (exit 2, nothing written).
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import unittest

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

INF = 1073741823
ARGS = None


def run(cmd, **kw):
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=300, **kw)


def launch(np_, *args):
    """apsp_kokkos on np_ MPI ranks (np_ = 0: one plain process)."""
    if np_ == 0:
        return run([ARGS.exe, *args])
    return run([ARGS.mpiexec, *shlex.split(ARGS.mpiexec_flags), "-np", np_, ARGS.exe, *args])


def write_graph(path, v, edges):
    data = np.array([v, len(edges)] + [x for e in edges for x in e], dtype="<i4")
    data.tofile(path)


def lightest(edges):
    best = {}
    for s, t, w in edges:
        if s != t:
            best[(s, t)] = min(w, best.get((s, t), w))
    return best


def rule(v, best):
    """Distances, edge counts and the tie rule's predecessors by Floyd-Warshall on (d, h)."""
    big = np.int64(1) << 40
    d = np.full((v, v), big, dtype=np.int64)
    h = np.zeros((v, v), dtype=np.int64)
    np.fill_diagonal(d, 0)
    for (s, t), w in best.items():
        d[s, t], h[s, t] = w, 1
    for k in range(v):
        nd = d[:, k : k + 1] + d[k : k + 1, :]
        nh = h[:, k : k + 1] + h[k : k + 1, :]
        better = (nd < d) | ((nd == d) & (nh < h))
        d = np.where(better, nd, d)
        h = np.where(better, nh, h)
    pred = np.full((v, v), -1, dtype=np.int64)
    for (u, t), w in sorted(best.items()):  # ascending u: the first tight edge is the smallest
        tight = (d[:, u] + w == d[:, t]) & (h[:, u] + 1 == h[:, t]) & (d[:, t] < big) & (pred[:, t] < 0)
        tight[t] = False
        pred[tight, t] = u
    return np.where(d >= big, INF, d), pred


def path_length(pred_row, best, s, t):
    """The weight of the path a predecessor row gives from s to t (None when it is no path)."""
    length, hops = 0, 0
    while t != s:
        p = int(pred_row[t])
        if p < 0 or (p, t) not in best or hops > len(pred_row):
            return None
        length += best[(p, t)]
        t, hops = p, hops + 1
    return length


class Predecessors(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.backends = run([ARGS.exe, "--list-backends"]).stdout.split()

    def tearDown(self):
        self.dir.cleanup()

    def path(self, name):
        return os.path.join(self.dir.name, name)

    def solve(self, graph, np_=0, extra=()):
        out, pred = self.path("d.out"), self.path("p.out")
        p = launch(np_, "--quiet", "--verify", *extra, graph, out, "--predecessors", pred)
        self.assertEqual(p.returncode, 0, f"{extra} np={np_}: {p.stderr}")
        with open(out, "rb") as f, open(pred, "rb") as g:
            return f.read(), g.read()

    blocks_taken = {}  # (backend, b): asked once for all graphs

    def block_ok(self, graph, backend, b):
        """Whether the backend takes block b at all (its distance-only run says so)."""
        if (backend, b) in Predecessors.blocks_taken:
            return Predecessors.blocks_taken[(backend, b)]
        p = run([ARGS.exe, "--quiet", "--no-verify", "--no-output", "--backend", backend, "-b", b, graph])
        taken = not (p.returncode == 2 and "is not supported" in p.stderr)
        if taken:
            self.assertEqual(p.returncode, 0, p.stderr)
        Predecessors.blocks_taken[(backend, b)] = taken
        return taken

    def check(self, name, v, edges, blocks=(16, 64, 128)):
        graph = self.path(f"{name}.bin")
        write_graph(graph, v, edges)
        best = lightest(edges)
        dist, want = rule(v, best)
        # SciPy on the same graph (zero weights shifted by an epsilon: csgraph drops explicit zeros).
        g = csr_matrix(([w if w > 0 else 1e-9 for w in best.values()], ([s for s, _ in best], [t for _, t in best])),
                       shape=(v, v))
        sd, sp = dijkstra(g, directed=True, return_predecessors=True)
        sd = np.where(np.isinf(sd), INF, np.rint(sd)).astype(np.int64)
        self.assertTrue((dist == sd).all(), f"{name}: the rule's distances are not SciPy's")
        plain = self.path("plain.out")
        p = run([ARGS.exe, "--quiet", "--no-verify", graph, plain])
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(plain, "rb") as f:
            distances = f.read()
        first = None
        for backend in self.backends:
            for b in blocks:
                if not self.block_ok(graph, backend, b):
                    continue
                for np_ in [0] + ([1, 2, 3] if ARGS.mpiexec else []):
                    what = f"{name}: {backend}, B = {b}, {np_ or 1} process(es)"
                    d_bytes, p_bytes = self.solve(graph, np_, ("--backend", backend, "-b", b))
                    self.assertEqual(d_bytes, distances, f"{what}: distances differ from the run without")
                    if first is None:
                        first = p_bytes
                        pred = np.frombuffer(p_bytes, dtype="<i4").reshape(v, v)
                        self.check_paths(name, v, best, sd, sp, pred, want)
                    self.assertEqual(p_bytes, first, f"{what}: another predecessor file")
                    if np_ == 3:  # renumbered on every rank, rows sent back (mpi/file_order_rows.hpp)
                        nested = self.solve(graph, np_, ("--backend", backend, "-b", b, "--order", "nested"))
                        self.assertEqual(nested, (distances, first), f"{what}, --order nested")

    def check_paths(self, name, v, best, sd, sp, pred, want):
        for s in range(v):
            for t in range(v):
                if s == t or sd[s, t] == INF:
                    self.assertEqual(pred[s, t], -1, f"{name}: pred({s}, {t})")
                    continue
                mine = path_length(pred[s], best, s, t)
                theirs = path_length(np.where(sp[s] < 0, -1, sp[s]), best, s, t)
                self.assertEqual(mine, sd[s, t], f"{name}: the path to {t} from {s}")
                self.assertEqual(mine, theirs, f"{name}: SciPy's path to {t} from {s}")
        self.assertTrue((pred == want).all(), f"{name}: not the tie rule's predecessors")

    def test_random(self):
        rng = np.random.default_rng(7)
        for v, e in ((50, 400), (130, 900)):
            edges = [(int(rng.integers(v)), int(rng.integers(v)), int(rng.integers(0, 60))) for _ in range(e)]
            self.check(f"random{v}", v, edges)

    def test_chain(self):
        v = 70
        self.check("chain", v, [(i, i + 1, 3) for i in range(v - 1)] + [(0, v - 1, 1000)])

    def test_zero_weight_ties(self):
        # weights 0 and 1 only: many shortest paths of one length, zero-weight cycles
        rng = np.random.default_rng(11)
        v = 60
        edges = [(int(rng.integers(v)), int(rng.integers(v)), int(rng.integers(0, 2))) for _ in range(500)]
        edges += [(3, 4, 0), (4, 3, 0)]
        self.check("zeros", v, edges)

    def test_unreachable(self):
        # two components, one-way bridges, an isolated vertex
        rng = np.random.default_rng(5)
        edges = [(int(rng.integers(30)), int(rng.integers(30)), int(rng.integers(1, 9))) for _ in range(120)]
        edges += [(30 + int(rng.integers(30)), 30 + int(rng.integers(30)), int(rng.integers(1, 9))) for _ in range(120)]
        edges += [(2, 40, 5)]
        self.check("parts", 61, edges)

    def test_grid(self):
        # a road-like 12 x 12 grid, both directions, weights 50..3000: long paths, few ties
        rng = np.random.default_rng(13)
        side, edges = 12, []
        for r in range(side):
            for c in range(side):
                u = r * side + c
                for v in ([u + 1] if c + 1 < side else []) + ([u + side] if r + 1 < side else []):
                    edges += [(u, v, int(rng.integers(50, 3001))), (v, u, int(rng.integers(50, 3001)))]
        self.check("grid", side * side, edges)

    def test_components(self):
        # four dense random components of 20 (weights 0..1000, as the generator's): most pairs unreachable
        rng = np.random.default_rng(17)
        edges = [(20 * c + int(rng.integers(20)), 20 * c + int(rng.integers(20)), int(rng.integers(0, 1001)))
                 for c in range(4) for _ in range(120)]
        self.check("components", 80, edges)

    def test_verify_catches_a_changed_predecessor(self):
        graph, out, pred = self.path("g.bin"), self.path("d.out"), self.path("p.out")
        write_graph(graph, 40, [(i, (i * 7 + 3) % 40, i % 5) for i in range(40)] + [(i, i + 1, 2) for i in range(39)])
        p = run([ARGS.exe, "--verify", graph, out, "--predecessors", pred, "--test-perturb-predecessor", "5,17"])
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("VERIFY FAILED: pred(5, 17)", p.stdout + p.stderr)
        self.assertFalse(os.path.exists(out) or os.path.exists(pred), "a failed check wrote its output")

    def test_verdict_and_record(self):
        graph, out, pred, rec = self.path("g.bin"), self.path("d.out"), self.path("p.out"), self.path("r.json")
        write_graph(graph, 30, [(i, (i * 7 + 3) % 30, i % 4) for i in range(30)] + [(i, i + 1, 2) for i in range(29)])
        p = run([ARGS.exe, "--verify", "--json", rec, graph, out, "--predecessors", pred])
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("VERIFY PASSED (30 rows against Dijkstra, predecessor chains walked", p.stdout)
        with open(rec) as f:
            r = json.load(f)
        self.assertEqual((r["predecessors"], r["verify"]["predecessors_checked"]), (pred, True))
        p = run([ARGS.exe, "--verify", "--json", rec, graph, out])
        self.assertNotIn("predecessor", p.stdout)
        with open(rec) as f:
            r = json.load(f)
        self.assertEqual((r["predecessors"], r["verify"]["predecessors_checked"]), (None, False))

    def test_refused(self):
        graph, out = self.path("g.bin"), self.path("d.out")
        write_graph(graph, 20, [(i, i + 1, 1) for i in range(19)])
        for extra, needle in (
            (["--predecessors", out], "the predecessor output is the distance output"),
            (["--predecessors", self.path("none/p.out")], "predecessor output"),
            (["--predecessors", graph], "predecessor output"),
        ):
            p = run([ARGS.exe, graph, out, *extra])
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn(needle, p.stderr)
            self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
            self.assertFalse(os.path.exists(out))
        # V above the old 17-bit predecessor field: refused for memory alone, naming the predecessors
        big = self.path("big.bin")
        np.array([140000, 0], dtype="<i4").tofile(big)
        p = run([ARGS.exe, "--max-host-memory", "1G", big, out, "--predecessors", self.path("p.out")])
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("V = 140000 needs", p.stderr)
        self.assertIn("the predecessors", p.stderr)
        self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
        p = run([ARGS.exe, "-b", "12", graph, out, "--predecessors", self.path("p.out")])
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("block size 12 is not supported", p.stderr)
        self.assertEqual(sorted(os.listdir(self.dir.name)), ["big.bin", "g.bin"], "something was left behind")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", required=True)
    ap.add_argument("--mpiexec", default="")
    ap.add_argument("--mpiexec-flags", default="")
    ARGS, rest = ap.parse_known_args()
    unittest.main(argv=[sys.argv[0], *rest])
