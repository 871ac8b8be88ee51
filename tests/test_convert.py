#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""apsp_convert, apsp_kokkos reading text itself, and apsp_query end to end.

Each text format is written here from a random graph, converted, solved by apsp_kokkos, and the
distances compared with SciPy's Dijkstra on the graph as this test reads it (repeated edges:
the lightest; self-loops: nothing); apsp_kokkos given the text file itself with the same options
must write the same bytes. Malformed files must stop the conversion, and the solver, with one
line naming the file, the line and the reason, leaving no output and an older output untouched.
A text file given to the solver as binary is named as text, with the command that converts it.
apsp_query is checked against the solver's output and SciPy's predecessors (paths made of
edges of the graph whose weights sum to the distance).
"""
import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import unittest

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

INF = 1073741823
ARGS = None


def run(cmd, **kw):
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=120, **kw)


def random_edges(rng, v, e, max_w=100, zero=False):
    edges = []
    for _ in range(e):
        s, t = rng.randrange(v), rng.randrange(v)
        edges.append((s, t, rng.randint(0 if zero else 1, max_w)))
    return edges


def scipy_distances(v, edges):
    """Distances as the spec reads the graph: repeated edges keep the lightest, self-loops nothing."""
    best = {}
    for s, t, w in edges:
        if s != t:
            best[(s, t)] = min(w, best.get((s, t), w))
    # zero weights: csgraph drops explicit zeros of a sparse matrix, so shift by a tiny epsilon
    rows = [s for s, _ in best]
    cols = [t for _, t in best]
    vals = [w if w > 0 else 1e-9 for w in best.values()]
    g = csr_matrix((vals, (rows, cols)), shape=(v, v))
    d = dijkstra(g, directed=True)
    out = np.where(np.isinf(d), INF, np.rint(d)).astype(np.int64)
    return out


class Convert(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.d = self.dir.name

    def tearDown(self):
        self.dir.cleanup()

    def path(self, name):
        return os.path.join(self.d, name)

    def write(self, name, text):
        with open(self.path(name), "w") as f:
            f.write(text)
        return self.path(name)

    def convert_and_solve(self, src, *flags):
        out = self.path("graph.bin")
        r = run([ARGS.convert, *flags, src, out])
        self.assertEqual(r.returncode, 0, r.stderr)
        dist = self.path("dist.out")
        r = run([ARGS.exe, "-q", out, dist])
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out, "rb") as f:
            v = int(np.frombuffer(f.read(4), dtype=np.int32)[0])
        return v, np.fromfile(dist, dtype=np.int32).reshape(v, v)

    def check(self, v, edges, src, *flags):
        got_v, got = self.convert_and_solve(src, *flags)
        self.assertEqual(got_v, v)
        np.testing.assert_array_equal(got, scipy_distances(v, edges))
        direct = self.path("direct.out")
        r = run([ARGS.exe, "-q", *flags, src, direct])
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(direct, "rb") as a, open(self.path("dist.out"), "rb") as b:
            self.assertEqual(a.read(), b.read(), f"{src} read directly differs from its conversion")

    def test_matrix_market_integer_general_and_symmetric(self):
        rng = random.Random(1)
        v = 70
        edges = random_edges(rng, v, 400, zero=True)
        body = "".join(f"{s + 1} {t + 1} {w}\n" for s, t, w in edges)
        src = self.write("g.mtx", f"%%MatrixMarket matrix coordinate integer general\n% comment\n{v} {v} {len(edges)}\n{body}")
        self.check(v, edges, src)
        src = self.write("s.mtx", f"%%MatrixMarket matrix coordinate integer symmetric\n{v} {v} {len(edges)}\n{body}")
        both = edges + [(t, s, w) for s, t, w in edges]
        self.check(v, both, src)

    def test_matrix_market_pattern_and_real_with_scale(self):
        rng = random.Random(2)
        v = 50
        edges = random_edges(rng, v, 200)
        body = "".join(f"{s + 1} {t + 1}\n" for s, t, _ in edges)
        src = self.write("p.mtx", f"%%MatrixMarket matrix coordinate pattern general\n{v} {v} {len(edges)}\n{body}")
        self.check(v, [(s, t, 1) for s, t, _ in edges], src)
        reals = [(s, t, w / 8.0) for s, t, w in edges]  # exact in binary: scaled by 4, w/2 rounds half away
        body = "".join(f"{s + 1} {t + 1} {w!r}\n" for s, t, w in reals)
        src = self.write("r.mtx", f"%%MatrixMarket matrix coordinate real general\n{v} {v} {len(edges)}\n{body}")
        r = run([ARGS.convert, src, self.path("x.bin")])
        self.assertEqual(r.returncode, 2)
        self.assertIn("--scale", r.stderr)
        scaled = [(s, t, int(np.floor(w * 4 + 0.5))) for s, t, w in reals]
        self.check(v, scaled, src, "--scale", "4")
        r = run([ARGS.convert, "--scale", "4", src, self.path("y.bin")])
        self.assertIn("rounded to integers", r.stdout)

    def test_dimacs(self):
        rng = random.Random(3)
        v = 80
        edges = random_edges(rng, v, 500, max_w=1000)
        body = "".join(f"a {s + 1} {t + 1} {w}\n" for s, t, w in edges)
        src = self.write("g.gr", f"c a comment\np sp {v} {len(edges)}\nc another\n{body}")
        self.check(v, edges, src)

    def test_edge_lists(self):
        rng = random.Random(4)
        v = 64
        edges = random_edges(rng, v, 300)
        edges.append((v - 1, 0, 5))  # the largest vertex appears: V = v
        src = self.write("g.txt", "# SNAP-like header\n% also a comment\n\n" +
                         "".join(f"{s}\t{t}  {w}\n" for s, t, w in edges))
        self.check(v, edges, src)
        src = self.write("one.edges", "".join(f"{s + 1} {t + 1}\n" for s, t, _ in edges))
        self.check(v, [(s, t, 1) for s, t, _ in edges], src, "--one-based")
        both = edges + [(t, s, w) for s, t, w in edges]
        src = self.write("u.el", "".join(f"{s} {t} {w}\n" for s, t, w in edges))
        self.check(v, both, src, "--undirected")
        src = self.write("forced.mtx", "".join(f"{s} {t} {w}\n" for s, t, w in edges))
        self.check(v, edges, src, "--input-format", "edges")

    def test_malformed_lines_leave_nothing(self):
        cases = [
            ("a.gr", "p sp 3 2\na 1 2 5\na 2 4 1\n", "a.gr:3:", "beyond the 3 vertices"),
            ("b.gr", "p sp 3 2\na 1 2 5\n", "b.gr:2:", "2 arcs declared, 1 present"),
            ("c.gr", "a 1 2 5\n", "c.gr:1:", "before the problem line"),
            ("d.gr", "p sp 3 1\na 1 2 -5\n", "d.gr:2:", "negative weight"),
            ("e.gr", "p sp 3 1\nx 1 2 5\n", "e.gr:2:", "line type 'x'"),
            ("f.mtx", "%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 1 0\n", "f.mtx:1:", "complex"),
            ("g.mtx", "%%MatrixMarket matrix coordinate integer general\n2 3 1\n1 2 1\n", "g.mtx:2:", "not square"),
            ("h.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 x\n", "h.mtx:3:", "not a number"),
            ("i.mtx", "%%MatrixMarket matrix array integer general\n3 3\n", "i.mtx:1:", "coordinate"),
            ("j.mtx", "hello\n", "j.mtx:1:", "not a Matrix Market file"),
            ("k.txt", "0 1 2\n1 2 3 4\n", "k.txt:2:", "more than three fields"),
            ("l.txt", "0 1 2\n1 two 3\n", "l.txt:2:", "not an integer"),
            ("m.txt", "0 1 2.5\n", "m.txt:1:", "--scale"),
            ("n.txt", "0 1 600000000\n2 3 1\n", "n.txt:0:", "breaks the bound"),
            ("o.gr", "p sp 3 1\na 1 2 600000000\n", "o.gr:2:", "breaks the bound"),
            ("p.txt", "0 1 1\n0 1 1\n0 1 1\n", "p.txt:0:", "exceed V(V-1)"),
            ("q.txt", "-1 1 1\n", "q.txt:1:", "below 0"),
        ]
        for name, text, where, why in cases:
            with self.subTest(name=name):
                src = self.write(name, text)
                out = self.path("out.bin")
                with open(out, "wb") as f:
                    f.write(b"old output")
                for cmd in ([ARGS.convert, src, out], [ARGS.exe, src, out]):
                    r = run(cmd)
                    self.assertEqual(r.returncode, 2, r.stderr)
                    self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                    self.assertIn(where, r.stderr)
                    self.assertIn(why, r.stderr)
                    with open(out, "rb") as f:
                        self.assertEqual(f.read(), b"old output")
                    self.assertEqual([n for n in os.listdir(self.d) if n.startswith(".apsp")], [])
        r = run([ARGS.convert, self.path("missing.gr"), self.path("none.bin")])
        self.assertEqual(r.returncode, 1)
        self.assertFalse(os.path.exists(self.path("none.bin")))
        src = self.write("same.txt", "0 1 1\n")
        os.symlink(src, self.path("link.bin"))
        os.mkdir(self.path("folder"))
        for out, why in [(src, "same file as"), (self.path("link.bin"), "same file as"), (self.path("folder"), "directory")]:
            r = run([ARGS.convert, src, out])
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
            self.assertIn(why, r.stderr)
        with open(src) as f:
            self.assertEqual(f.read(), "0 1 1\n")
        self.assertEqual([n for n in os.listdir(self.d) if n.startswith(".apsp")], [])

    def test_solver_names_text_given_as_binary(self):
        """Text under a name that means binary: one line naming the format and apsp_convert; with
        --input-format the same file solves; text-only options on a binary input are refused."""
        v = 6
        edges = [(0, 1, 3), (1, 2, 4), (2, 5, 1), (5, 0, 2)]
        cases = [
            ("m.bin", f"%%MatrixMarket matrix coordinate integer general\n{v} {v} {len(edges)}\n" +
             "".join(f"{s + 1} {t + 1} {w}\n" for s, t, w in edges), "Matrix Market", "mtx"),
            ("d.dat", f"p sp {v} {len(edges)}\n" + "".join(f"a {s + 1} {t + 1} {w}\n" for s, t, w in edges),
             "DIMACS", "gr"),
            ("e", "".join(f"{s} {t} {w}\n" for s, t, w in edges) + f"{v - 1} {v - 1} 1\n", "an edge list", "edges"),
        ]
        for name, text, what, fmt in cases:
            with self.subTest(name=name):
                src = self.write(name, text)
                out = self.path(name + ".out")
                r = run([ARGS.exe, src, out])
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                self.assertIn(f"this is text ({what}", r.stderr)
                self.assertIn(f"--input-format {fmt}", r.stderr)
                self.assertIn(f"apsp_convert --input-format {fmt} {src}", r.stderr)
                self.assertFalse(os.path.exists(out))
                record = self.path("run.json")
                r = run([ARGS.exe, "-q", "--input-format", fmt, "--json", record, src, out])
                self.assertEqual(r.returncode, 0, r.stderr)
                np.testing.assert_array_equal(np.fromfile(out, dtype=np.int32).reshape(v, v),
                                              scipy_distances(v, edges))
                with open(record) as f:
                    graph = json.load(f)["graph"]
                self.assertEqual(graph["format"], fmt)
                self.assertEqual(graph["self_loops_dropped"], 1 if fmt == "edges" else 0)
        binary = self.path("g.bin")
        with open(binary, "wb") as f:
            f.write(np.array([2, 1, 0, 1, 5], dtype=np.int32).tobytes())
        for flag in (["--undirected"], ["--one-based"], ["--scale", "2"]):
            r = run([ARGS.exe, *flag, binary, self.path("o.bin")])
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("apply to a text INPUT", r.stderr)
        with open(binary, "wb") as f:  # binary that is not text: the header's own complaint
            f.write(np.array([3, 5, 0, 1], dtype=np.int32).tobytes())
        r = run([ARGS.exe, binary, self.path("o.bin")])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("needs exactly 8 + 12*E", r.stderr)

    def test_signal_mid_conversion_leaves_nothing(self):
        fifo = self.path("slow.txt")
        os.mkfifo(fifo)
        out = self.path("out.bin")
        p = subprocess.Popen([ARGS.convert, fifo, out], stderr=subprocess.PIPE, text=True)
        with open(fifo, "w") as w:  # the converter holds its temporary file while it waits for more
            w.write("0 1 1\n")
            w.flush()
            for _ in range(100):
                if any(n.startswith(".apsp") for n in os.listdir(self.d)):
                    break
                time.sleep(0.05)
            self.assertTrue(any(n.startswith(".apsp") for n in os.listdir(self.d)))
            p.send_signal(signal.SIGTERM)
            p.wait(timeout=30)
        self.assertEqual(p.returncode, -signal.SIGTERM)
        self.assertEqual(sorted(os.listdir(self.d)), ["slow.txt"])


class Query(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.d = self.dir.name
        rng = random.Random(5)
        self.v = 40
        edges = random_edges(rng, self.v, 150, max_w=20, zero=True)
        edges += [(39, 38, 1)]  # 38 and 39 reach little; some pairs stay unreachable
        self.edges = {}
        for s, t, w in edges:
            if s != t:
                self.edges[(s, t)] = min(w, self.edges.get((s, t), w))
        src = os.path.join(self.d, "g.txt")
        with open(src, "w") as f:
            f.write("".join(f"{s} {t} {w}\n" for (s, t), w in self.edges.items()))
            f.write(f"{self.v - 1} {self.v - 1} 0\n")  # a self-loop naming the last vertex
        self.bin = os.path.join(self.d, "g.bin")
        self.dist = os.path.join(self.d, "dist.out")
        self.assertEqual(run([ARGS.convert, "-q", src, self.bin]).returncode, 0)
        r = run([ARGS.exe, "-q", self.bin, self.dist])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.d_np = np.fromfile(self.dist, dtype=np.int32).reshape(self.v, self.v)
        # predecessors from SciPy (its -9999 -> -1), as --predecessors lays them out
        rows, cols = zip(*self.edges)
        vals = [w if w > 0 else 1e-9 for w in self.edges.values()]
        _, pred = dijkstra(csr_matrix((vals, (rows, cols)), shape=(self.v, self.v)), return_predecessors=True)
        self.pred = os.path.join(self.d, "pred.out")
        np.where(pred < 0, -1, pred).astype(np.int32).tofile(self.pred)

    def tearDown(self):
        self.dir.cleanup()

    def test_distances_and_paths(self):
        for i in range(self.v):
            for j in (0, 7, 38, self.v - 1):
                r = run([ARGS.query, self.dist, self.pred, i, j])
                self.assertEqual(r.returncode, 0, r.stderr)
                lines = r.stdout.splitlines()
                d = int(self.d_np[i, j])
                if d == INF:
                    self.assertEqual(lines, [f"d({i}, {j}) = INF (no path)"])
                    continue
                self.assertEqual(lines[0], f"d({i}, {j}) = {d}")
                hops = [int(x) for x in lines[1].split(": ")[1].split(" -> ")]
                self.assertEqual((hops[0], hops[-1]), (i, j))
                self.assertEqual(sum(self.edges[(a, b)] for a, b in zip(hops, hops[1:])), d)
                r = run([ARGS.query, self.dist, i, j])
                self.assertEqual(r.stdout.splitlines(), lines[:1])

    def test_rows(self):
        r = run([ARGS.query, self.dist, 3])
        self.assertEqual(r.returncode, 0, r.stderr)
        want = [f"{j} {'INF' if x == INF else x}" for j, x in enumerate(self.d_np[3])]
        self.assertEqual(r.stdout.splitlines(), want)
        r = run([ARGS.query, self.dist, self.pred, 3])
        self.assertEqual([l.rsplit(" ", 1)[0] for l in r.stdout.splitlines()], want)

    def test_refusals(self):
        bad = os.path.join(self.d, "bad.out")
        with open(bad, "wb") as f:
            f.write(b"\0" * 20)
        for cmd, code, text in [
            ([bad, 0], 1, "20 bytes is not V x V int32"),
            ([self.dist, self.v], 2, f"outside [0, {self.v})"),
            ([self.dist, "x"], 2, "not a non-negative integer"),
            ([self.dist, bad, 0, 1], 1, "20 bytes"),
            ([os.path.join(self.d, "none"), 0], 1, "cannot open"),
        ]:
            r = run([ARGS.query, *cmd])
            self.assertEqual(r.returncode, code, r.stderr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1)
            self.assertIn(text, r.stderr)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--exe", required=True)
    p.add_argument("--convert", required=True)
    p.add_argument("--query", required=True)
    ARGS, rest = p.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
