#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""End-to-end tests of the apsp_kokkos command line, on every backend the build enables:
the 16 conformance cases by their SHA-256, random graphs against scipy's Dijkstra, every
bad-input rule of the spec, and the options."""
import argparse
import hashlib
import json
import os
import re
import resource
import signal
import socket
import stat
import struct
import subprocess
import sys
import tempfile
import time
import unittest

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import shortest_path

INF = 2**30 - 1
ARGS = None


def run(*args, check=False):
    p = subprocess.run([ARGS.exe, *map(str, args)], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"{args} exited {p.returncode}: {p.stderr}")
    return p


def backends():
    return run("--list-backends", check=True).stdout.split()


def assert_one_error_line(test, p, words):
    """`p` printed nothing but one error line naming every one of `words`; returns that line."""
    lines = p.stderr.strip().splitlines()
    test.assertEqual(len(lines), 1, p.stderr)
    test.assertTrue(lines[0].startswith("apsp_kokkos: error: "), lines[0])
    for w in words:
        test.assertIn(str(w), lines[0])
    return lines[0]


def write_words(path, words):
    with open(path, "wb") as f:
        f.write(struct.pack(f"<{len(words)}i", *words))


def write_graph(path, v, edges):
    words = [v, len(edges)]
    for e in edges:
        words.extend(e)
    write_words(path, words)


def read_graph(path):
    data = np.fromfile(path, dtype="<i4")
    v, e = int(data[0]), int(data[1])
    return v, data[2:].reshape(e, 3)


def scipy_apsp(v, edges):
    """Dijkstra from every source (scipy), lightest of repeated edges, self-loops ignored."""
    dense = np.full((v, v), np.inf)
    if len(edges):
        src, dst, w = edges[:, 0], edges[:, 1], edges[:, 2].astype(float)
        keep = src != dst
        np.minimum.at(dense, (src[keep], dst[keep]), w[keep])
    # Zero-weight edges must stay edges in the sparse form, so every weight carries a tiny
    # epsilon; eps * hops stays far below 0.5 and rounding recovers the integer distance.
    rows, cols = np.nonzero(np.isfinite(dense))
    eps = 1e-6
    graph = csr_matrix((dense[rows, cols] + eps, (rows, cols)), shape=(v, v))
    d = shortest_path(graph, method="D", directed=True)
    out = np.full((v, v), INF, dtype=np.int64)
    reach = np.isfinite(d)
    out[reach] = np.rint(d[reach]).astype(np.int64)
    np.fill_diagonal(out, 0)
    return out.astype("<i4")


def read_matrix(path, v):
    return np.fromfile(path, dtype="<i4").reshape(v, v)


def conformance_sums(folder):
    """{output name: SHA-256} of the conformance cases in `folder` (its SHA256SUMS)."""
    sums = {}
    with open(os.path.join(folder, "SHA256SUMS")) as f:
        for line in f:
            digest, name = line.split()
            sums[name] = digest
    return sums


class Conformance(unittest.TestCase):
    def test_sixteen_cases_match_their_hashes_on_every_backend(self):
        sums = conformance_sums(ARGS.conformance)
        self.assertEqual(len(sums), 16)
        with tempfile.TemporaryDirectory() as tmp:
            for backend in backends():
                for name, digest in sorted(sums.items()):
                    case = os.path.join(ARGS.conformance, name[: -len(".out")])
                    out = os.path.join(tmp, name)
                    run("--quiet", "--backend", backend, case, out, check=True)
                    with open(out, "rb") as f:
                        self.assertEqual(hashlib.sha256(f.read()).hexdigest(), digest, f"{name} on {backend}")


class AgainstScipy(unittest.TestCase):
    def check(self, gen_args, v, extra=()):
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            subprocess.run([ARGS.gen, "-n", str(v), *map(str, gen_args), g], check=True, capture_output=True)
            v_read, edges = read_graph(g)
            self.assertEqual(v_read, v)
            expected = scipy_apsp(v, edges)
            for backend in backends():
                out = os.path.join(tmp, f"out_{backend}")
                run("--quiet", "--backend", backend, *extra, g, out, check=True)
                got = read_matrix(out, v)
                bad = np.argwhere(got != expected)
                self.assertEqual(len(bad), 0, f"{backend} {gen_args}: first mismatch at {bad[:1]}")

    def test_random_sparse(self):
        self.check(["-e", 3000, "--seed", 1], 333)

    def test_random_dense_with_zero_weights(self):
        self.check(["-e", 20000, "--seed", 2, "--min-weight", 0, "--max-weight", 3], 200)

    def test_components_leave_pairs_unreachable(self):
        self.check(["--shape", "components", "--components", 3, "-e", 2000, "--seed", 3], 211)

    def test_grid_of_long_paths(self):
        # 13 x 13 and a short last row; distances past 2^15 (weights up to 3000)
        self.check(["--shape", "grid", "--min-weight", 50, "--max-weight", 3000, "--seed", 5], 13 * 13 + 6)

    def test_tile_spread_script_on_a_chain(self):
        # scripts/tile_spread.py on a chain of weight 1000, B = 16, every tile row sampled: its
        # medians are those of the distances SciPy gives here, tile by tile.
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "tile_spread.py")
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "chain.bin")
            subprocess.run([ARGS.gen, "-n", "64", "--shape", "chain", "--min-weight", "1000", "--max-weight", "1000", g],
                           check=True, capture_output=True)
            out = subprocess.run([sys.executable, script, g, "--block", "16", "--rows", "4"], check=True,
                                 capture_output=True, text=True).stdout
            v, edges = read_graph(g)
            d = scipy_apsp(v, edges).astype(float)
            d[d == INF] = np.inf
            largest, spread = [], []
            for ti in range(4):
                for tj in range(4):
                    t = d[ti * 16:(ti + 1) * 16, tj * 16:(tj + 1) * 16]
                    if np.isfinite(t).any():
                        largest.append(t[np.isfinite(t)].max())
                        spread.append(t[np.isfinite(t)].max() - t[np.isfinite(t)].min())
            self.assertIn(f"largest entry: median {np.median(largest):.0f},", out)
            self.assertIn(f"spread (largest - smallest): median {np.median(spread):.0f},", out)
            self.assertIn(f"{len(largest)} tiles with finite entries", out)

    def test_tile_spread_script_renumbered(self):
        # scripts/tile_spread.py --order on a 16 x 16 grid, B = 16. morton: the spreads of the
        # tiles of 4 x 4 patches (the renumbering done here bit by bit, from SciPy's distances);
        # bisect: tiles of close vertices, so a median spread below the row-by-row numbering's.
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "tile_spread.py")
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "grid.bin")
            subprocess.run([ARGS.gen, "-n", "256", "--shape", "grid", "--min-weight", "50", "--max-weight", "3000",
                            "--seed", "3", g], check=True, capture_output=True)

            def run(*extra):
                return subprocess.run([sys.executable, script, g, "--block", "16", "--rows", "16", *extra], check=True,
                                      capture_output=True, text=True).stdout

            def median_spread(out):
                return float(re.search(r"spread \(largest - smallest\): median (\d+)", out).group(1))

            v, edges = read_graph(g)
            d = scipy_apsp(v, edges).astype(float)
            # Z order of (row, column) in a 16 x 16 grid: interleave the 4 bits of each.
            z = [sum(((c >> b) & 1) << (2 * b) | ((r >> b) & 1) << (2 * b + 1) for b in range(4))
                 for r, c in (divmod(x, 16) for x in range(v))]
            order = sorted(range(v), key=lambda x: z[x])  # vertex at each new position
            spreads = []
            for ti in range(16):
                for tj in range(16):
                    t = d[np.ix_(order[ti * 16:(ti + 1) * 16], order[tj * 16:(tj + 1) * 16])]
                    spreads.append(t.max() - t.min())
            self.assertIn(f"spread (largest - smallest): median {np.median(spreads):.0f},", run("--order", "morton",
                                                                                                "--grid-width", "16"))
            self.assertLess(median_spread(run("--order", "bisect")), median_spread(run()))

    def test_offset_share_script(self):
        # scripts/offset_share.py: nb (nb - 1)^2 products; on a chain of weight 1 every finite
        # tile is small, and offsets add nothing; on a 16 x 16 grid of heavy weights a Z-curve
        # numbering lets more products take offsets than the row-by-row one. Products with an
        # operand of INF alone occur in both; the operand offsets take every product today's rule
        # takes and more, and each of them, run as 16-bit lanes would run it, is exact.
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "offset_share.py")

        def shares(g, *extra):
            out = subprocess.run([sys.executable, script, g, "--block", "16", *extra], check=True,
                                 capture_output=True, text=True).stdout
            return out, {m.group(1): float(m.group(2)) for m in re.finditer(r"^(.*): ([\d.]+) %$", out, re.M)}

        with tempfile.TemporaryDirectory() as tmp:
            chain, grid = os.path.join(tmp, "chain.bin"), os.path.join(tmp, "grid.bin")
            subprocess.run([ARGS.gen, "-n", "64", "--shape", "chain", "--min-weight", "1", "--max-weight", "1", chain],
                           check=True, capture_output=True)
            subprocess.run([ARGS.gen, "-n", "256", "--shape", "grid", "--min-weight", "5000", "--max-weight", "9000",
                            "--seed", "3", grid], check=True, capture_output=True)
            out, c = shares(chain)
            self.assertIn("36 phase-3 tile products", out)  # 4 rounds x 3 x 3 tiles
            self.assertAlmostEqual(c["no finite"] + c["small"], 100.0, delta=0.15)
            self.assertEqual(c["small"], c["offsets"])
            out, natural = shares(grid, "--check")
            self.assertIn("3600 phase-3 tile products", out)
            self.assertRegex(out, r"checked [1-9]\d* products in 16-bit lanes after operand offsets: 0 differ")
            _, morton = shares(grid, "--order", "morton", "--grid-width", "16")
            self.assertGreater(morton["offsets"], natural["offsets"])
            self.assertGreaterEqual(morton["offsets"], morton["offsets, with A and B"])
            for c in (natural, morton):
                self.assertGreater(c["left out"], 0)
                self.assertGreater(c["16-bit after operand offsets"], c["16-bit today"])

    def test_chain_of_heaviest_weights(self):
        self.check(["--shape", "chain", "--min-weight", 1000, "--max-weight", 1000], 301)

    def test_complete_graph_with_small_block(self):
        self.check(["--shape", "complete", "--seed", 4], 70, extra=["--block-size", 16])

    def test_bundled_input(self):
        for name in sorted(os.listdir(ARGS.inputs)):
            if not name.endswith(".bin"):
                continue
            path = os.path.join(ARGS.inputs, name)
            v, edges = read_graph(path)
            expected = scipy_apsp(v, edges)
            with tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, "out")
                run("--quiet", path, out, check=True)
                self.assertTrue(np.array_equal(read_matrix(out, v), expected), name)

    def test_self_loops_and_repeated_edges_are_accepted(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            # E = 7 stays within V(V-1) = 12, which the spec still enforces.
            edges = [(0, 1, 9), (0, 1, 4), (0, 1, 7), (1, 1, 1), (1, 2, 3), (2, 0, 5), (2, 2, 0)]
            write_graph(g, 4, edges)
            expected = scipy_apsp(4, np.array(edges))
            for backend in backends():
                out = os.path.join(tmp, "out")
                run("--quiet", "--backend", backend, g, out, check=True)
                got = read_matrix(out, 4)
                self.assertTrue(np.array_equal(got, expected), backend)
                self.assertEqual(got[0, 1], 4)


class BadInput(unittest.TestCase):
    """Each rule: exit non-zero, one line on stderr naming the file and the rule, and the
    output path untouched (not created; an existing file not clobbered; no temp left)."""

    def expect_refused(self, input_path, words, out_name="out.bin", extra=(), tmp=None):
        for existing in (False, True):
            with tempfile.TemporaryDirectory() as outdir:
                out = os.path.join(outdir, out_name)
                if existing:
                    write_words(out, [123, 456])
                p = run(*extra, input_path, out)
                self.assertNotEqual(p.returncode, 0, p.stderr)
                assert_one_error_line(self, p, words)
                self.assertEqual(p.stdout, "")
                if existing:
                    with open(out, "rb") as f:
                        self.assertEqual(f.read(), struct.pack("<2i", 123, 456))
                    self.assertEqual(os.listdir(outdir), [out_name])
                else:
                    self.assertEqual(os.listdir(outdir), [])

    def case(self, words_in_file, expect, raw=None):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "bad.bin")
            with open(path, "wb") as f:
                f.write(raw if raw is not None else struct.pack(f"<{len(words_in_file)}i", *words_in_file))
            self.expect_refused(path, [path, *expect])

    def test_missing_file(self):
        self.expect_refused("/nonexistent/graph.bin", ["/nonexistent/graph.bin", "cannot open"])

    def test_directory_as_input(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.expect_refused(tmp, [tmp, "not a regular file"])

    def test_shorter_than_header(self):
        self.case(None, ["5 bytes", "8-byte header"], raw=b"\x01\x00\x00\x00\x02")

    def test_v_below_one(self):
        self.case([0, 0], ["V = 0"])
        self.case([-7, 0], ["V = -7"])

    def test_negative_e(self):
        self.case([5, -2], ["E = -2"])

    def test_e_above_v_times_v_minus_1(self):
        self.case([4, 13], ["E = 13", "V*(V-1) = 12"])

    def test_file_shorter_or_longer_than_8_plus_12e(self):
        self.case([4, 2, 0, 1, 5], ["20 bytes", "32", "truncated"])
        self.case([4, 1, 0, 1, 5, 0], ["24 bytes", "20", "trailing"])

    def test_src_or_dst_out_of_range(self):
        self.case([4, 2, 0, 1, 5, 4, 1, 5], ["edge 1", "src = 4"])
        self.case([4, 2, 0, 1, 5, -1, 1, 5], ["edge 1", "src = -1"])
        self.case([4, 2, 0, 1, 5, 1, 4, 5], ["edge 1", "dst = 4"])

    def test_negative_weight(self):
        self.case([4, 3, 0, 1, 5, 1, 2, 5, 2, 3, -1], ["edge 2", "negative weight -1"])

    def test_weight_breaking_the_bound(self):
        # V = 3: (V-1) * w < INF allows w <= 536870911.
        self.case([3, 1, 0, 1, 536870912], ["edge 0", "536870912", "536870911"])

    def test_too_large_for_memory(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            write_graph(g, 2000, [(0, 1, 1)])
            # A host backend, whose figure is the matrix itself (a GPU's is its result buffers).
            host = [b for b in backends() if b in ("Serial", "OpenMP")]
            if not host:
                self.skipTest("no host backend in this build")
            # The 2112^2 matrix (B = 192, a multiple of every ISA's block of C, so the operands
            # take no padding) and one round's packed operands: 11 tile rows of A and 11 tile
            # columns of Bk, 192 x 192 each, in int32 and (where the ISA has them) 16-bit
            # lanes: 4 + 4 and 4 + 2 bytes an entry (solver/host/operands.hpp); besides them
            # only the threads' scratch and the operands' flags, under 0.15 MB here.
            matrix, tiles = 2112 * 2112 * 4, 11 * 192 * 192
            p = run(g, os.path.join(tmp, "out"), "--backend", host[0], "--block-size", 192, "--max-host-memory", "1MB")
            m = re.search(r"needs ([0-9.]+) MB", p.stderr)
            self.assertIsNotNone(m, p.stderr)
            self.assertTrue((matrix + tiles * 8) / 1e6 - 0.05 <= float(m.group(1)) <= (matrix + tiles * 14) / 1e6 + 0.15,
                            p.stderr)
            self.expect_refused(g, [g, "V = 2000", "only 1.00 MB", "available"],
                                extra=["--backend", host[0], "--block-size", 192, "--max-host-memory", "1MB"])

    def test_output_directory_missing(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            write_graph(g, 3, [(0, 1, 1)])
            p = run(g, os.path.join(tmp, "no", "such", "out.bin"))
            self.assertNotEqual(p.returncode, 0)
            self.assertEqual(len(p.stderr.strip().splitlines()), 1)
            self.assertIn("does not exist", p.stderr)
            self.assertEqual(sorted(os.listdir(tmp)), ["g.bin"])

    def test_output_directory_not_writable(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            write_graph(g, 3, [(0, 1, 1)])
            # /proc refuses new files even to root; a read-only directory does for others.
            p = run(g, "/proc/apsp_out.bin")
            self.assertNotEqual(p.returncode, 0)
            self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
            self.assertIn("/proc/apsp_out.bin", p.stderr)
            self.assertFalse(os.path.exists("/proc/apsp_out.bin"))

    def test_block_size_the_backend_cannot_use(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            write_graph(g, 3, [(0, 1, 1)])
            p = run("--block-size", 7, g, os.path.join(tmp, "out"))
            self.assertNotEqual(p.returncode, 0)
            self.assertIn("block size 7", p.stderr)
            self.assertFalse(os.path.exists(os.path.join(tmp, "out")))


def temp_files(folder):
    """The program's temporary outputs in `folder` (hidden .apsp_kokkos.* files)."""
    return [n for n in os.listdir(folder) if n.startswith(".apsp_kokkos.")]


class Hostile(unittest.TestCase):
    """What a hostile user (or a bad day) does: nothing that is not the output is ever harmed,
    nothing is left behind, and every refusal is one line before any work."""

    def refused(self, p, *words):
        self.assertEqual(p.returncode, 2, p.stderr)
        assert_one_error_line(self, p, words)

    def test_fifo_as_input_is_refused_without_waiting(self):
        with tempfile.TemporaryDirectory() as tmp:
            fifo = os.path.join(tmp, "fifo")
            os.mkfifo(fifo)
            p = subprocess.run([ARGS.exe, fifo, os.path.join(tmp, "out")], capture_output=True, text=True, timeout=20)
            self.refused(p, fifo, "not a regular file", "a FIFO")

    def test_nodes_that_are_not_regular_files_are_refused_and_left_as_they_are(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            write_graph(g, 3, [(0, 1, 1)])
            fifo, sock, sub = (os.path.join(tmp, n) for n in ("fifo", "sock", "sub"))
            os.mkfifo(fifo)
            server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            server.bind(sock)
            os.mkdir(sub)
            nodes = {fifo: stat.S_ISFIFO, sock: stat.S_ISSOCK, sub: stat.S_ISDIR}
            if os.geteuid() == 0:  # a device that does not discard (like /dev/zero), made here
                zero = os.path.join(tmp, "zero")
                os.mknod(zero, 0o666 | stat.S_IFCHR, os.makedev(1, 5))
                nodes[zero] = stat.S_ISCHR
            for node, is_kind in nodes.items():
                link = node + ".link"
                os.symlink(node, link)
                for target in (node, link):
                    self.refused(run(g, target), target, "only a regular file is replaced")
                    self.assertTrue(is_kind(os.stat(node).st_mode), node)
                    self.assertTrue(os.path.islink(link))
            server.close()
            self.assertEqual(temp_files(tmp), [])

    @unittest.skipUnless(os.geteuid() == 0, "making a device node needs root")
    def test_a_discarding_device_is_no_output_and_stays_a_device(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            write_graph(g, 50, [(i, i + 1, 3) for i in range(49)])
            null = os.path.join(tmp, "null")
            os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
            for backend in backends():
                p = run("--backend", backend, g, null)
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertIn("apsp_kokkos RESULT V=50", p.stdout)
                st = os.stat(null)
                self.assertTrue(stat.S_ISCHR(st.st_mode))
                self.assertEqual((os.major(st.st_rdev), os.minor(st.st_rdev)), (1, 3))
            self.assertEqual(sorted(os.listdir(tmp)), ["g.bin", "null"])

    def test_a_symlink_to_a_regular_file_is_written_through(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            write_graph(g, 3, [(0, 1, 4), (1, 2, 5)])
            os.mkdir(os.path.join(tmp, "real"))
            target = os.path.join(tmp, "real", "out.bin")
            write_words(target, [9])
            link = os.path.join(tmp, "out.bin")
            os.symlink(target, link)
            run(g, link, check=True)
            self.assertTrue(os.path.islink(link))
            self.assertEqual(read_matrix(target, 3)[0].tolist(), [0, 4, 9])
            self.assertEqual(temp_files(tmp) + temp_files(os.path.join(tmp, "real")), [])

    def test_the_input_is_never_the_output(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            write_graph(g, 3, [(0, 1, 1)])
            with open(g, "rb") as f:
                before = f.read()
            os.link(g, os.path.join(tmp, "hard"))
            os.symlink(g, os.path.join(tmp, "soft"))
            for out in (g, os.path.join(tmp, "hard"), os.path.join(tmp, "soft")):
                self.refused(run(g, out), "same file as", "overwritten")
            self.refused(run("--json", g, g, os.path.join(tmp, "o")), "JSON record", "same file as")
            with open(g, "rb") as f:
                self.assertEqual(f.read(), before)

    def test_paths_and_options_are_refused_before_any_work(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            write_graph(g, 130, [(0, 1, 1)])
            out = os.path.join(tmp, "out")
            self.refused(run(g, ""), "output path is empty")
            self.refused(run("--json", os.path.join(tmp, "no", "r.json"), g, out), "JSON record", "does not exist")
            self.refused(run("--json", out, g, out), "would overwrite the output")
            self.refused(run("--block-size", 65536, g, out), "block size 65536", "backend: it must be")
            for bad in ("0", "-1", "abc", "12 parsecs"):
                self.refused(run("--max-host-memory", bad, g, out), "--max-host-memory", bad)
            p = run("--max-host-memory", "1", g, out)
            self.refused(p, "V = 130", "needs", "of host memory", "only 1 B")
            self.assertEqual(sorted(os.listdir(tmp)), ["g.bin"])

    def test_names_up_to_the_file_system_limit_work(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            write_graph(g, 3, [(0, 1, 1)])
            longest = os.path.join(tmp, "o" * os.pathconf(tmp, "PC_NAME_MAX"))
            run(g, longest, check=True)
            self.assertEqual(os.path.getsize(longest), 36)
            self.refused(run(g, longest + "o"), "file name is", "allows")

    def start_and_wait_for_temp(self, tmp, g):
        """Starts a run and returns it once its temporary output exists."""
        p = subprocess.Popen([os.path.abspath(ARGS.exe), "--backend", "Serial", g, os.path.join(tmp, "out")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=tmp,
                             preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_CORE, (0, 0)))
        for _ in range(2000):
            if temp_files(tmp) or p.poll() is not None:
                break
            time.sleep(0.005)
        self.assertTrue(temp_files(tmp), "no temporary output appeared")
        return p

    def test_every_catchable_signal_leaves_nothing_behind(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            subprocess.run([ARGS.gen, "-n", "2500", "-e", "20000", g], check=True, capture_output=True)
            for sig in (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGTERM, signal.SIGUSR1, signal.SIGUSR2,
                        signal.SIGPIPE, signal.SIGALRM, signal.SIGXCPU, signal.SIGXFSZ):
                p = self.start_and_wait_for_temp(tmp, g)
                p.send_signal(sig)
                p.wait(timeout=30)
                self.assertEqual(p.returncode, -sig, f"{sig!r}: {p.stderr.read()}")
                p.stderr.close()
                self.assertEqual(sorted(os.listdir(tmp)), ["g.bin"], repr(sig))

    def test_the_next_run_removes_what_a_killed_run_left(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            subprocess.run([ARGS.gen, "-n", "2500", "-e", "20000", g], check=True, capture_output=True)
            p = self.start_and_wait_for_temp(tmp, g)
            p.kill()
            p.wait(timeout=30)
            p.stderr.close()
            self.assertEqual(len(temp_files(tmp)), 1)  # SIGKILL cannot be caught
            small = os.path.join(tmp, "small.bin")
            write_graph(small, 3, [(0, 1, 1)])
            run(small, os.path.join(tmp, "out2"), check=True)
            self.assertEqual(sorted(os.listdir(tmp)), ["g.bin", "out2", "small.bin"])


class Options(unittest.TestCase):
    def test_help_lists_the_options(self):
        p = run("--help", check=True)
        for opt in ("--block-size", "--quiet", "--backend", "--kokkos-help", "INPUT", "OUTPUT", "--generate",
                    "--no-output", "--no-verify"):
            self.assertIn(opt, p.stdout)

    def test_usage_errors_are_one_line_and_status_2(self):
        with tempfile.TemporaryDirectory() as tmp:
            case = os.path.join(ARGS.conformance, "c03.1")
            for args, words in ((["--no-such-option", case, os.path.join(tmp, "o")], ["--no-such-option", "--help"]),
                                ([], ["expected INPUT OUTPUT, got 0"]),
                                ([case], ["expected INPUT OUTPUT, got 1"]),
                                ([case, case, case], ["expected INPUT OUTPUT, got 3"]),
                                (["--generate", "100", case, os.path.join(tmp, "o")], ["expected OUTPUT, got 2"]),
                                (["--no-output", case, os.path.join(tmp, "o")], ["expected INPUT, got 2"]),
                                (["--generate", "100,x"], ["--generate 100,x", "E 'x'"]),
                                (["--generate", "0", "--no-output"], ["V must be in"]),
                                (["--generate", "10,91", "--no-output"], ["E must be in"]),
                                (["--generate", "10,5,-1", "--no-output"], ["SEED"]),
                                (["--verify=3", "--no-verify", case, os.path.join(tmp, "o")], ["excludes"]),
                                (["--verify=x", case, os.path.join(tmp, "o")], ["--verify=x", "positive"]),
                                (["-b", "abc", case, os.path.join(tmp, "o")], ["--block-size", "'abc'", "integer"]),
                                (["--write-threads", "abc", case, os.path.join(tmp, "o")], ["--write-threads", "'abc'"]),
                                (["--write-threads", "0", case, os.path.join(tmp, "o")], ["--write-threads", "'0'"]),
                                (["--generate", "100", "--no-output", "--test-perturb-entry", "abc"],
                                 ["--test-perturb-entry abc", "ROW,COL"])):
                p = run(*args)
                self.assertEqual(p.returncode, 2, p.stderr)
                assert_one_error_line(self, p, words)
                self.assertLess(len(p.stderr), 200, p.stderr)  # one short line, not a range of doubles
            self.assertEqual(os.listdir(tmp), [])

    def test_every_numeric_option_refuses_bad_values_in_one_short_line(self):
        """Every numeric option of every program: a non-number, a negative and an overflowing
        value each exit 2 with one line of at most 200 characters naming the option."""
        tools = os.path.dirname(os.path.abspath(ARGS.exe))
        gen, convert, query = (os.path.join(tools, n) for n in ("apsp_gen", "apsp_convert", "apsp_query"))
        bad = ("abc", "-1", "99999999999999999999")
        with tempfile.TemporaryDirectory() as tmp:
            g, out, d = (os.path.join(tmp, n) for n in ("g.bin", "out", "d.bin"))
            write_graph(g, 4, [(0, 1, 1)])
            run(g, d, check=True)
            cases = []  # (command, the words the line must hold)
            for v in bad:
                for opt in ("--block-size", "--write-threads"):
                    cases.append(([ARGS.exe, opt, v, g, out], [opt, v]))
                cases.append(([ARGS.exe, f"--verify={v}", g, out], ["--verify", v]))
                cases.append(([ARGS.exe, "--max-host-memory", v, g, out], ["--max-host-memory", v]))
                cases.append(([ARGS.exe, "--generate", v, "--no-output"], ["--generate", v]))
                cases.append(([ARGS.exe, "--generate", f"100,{v}", "--no-output"], ["--generate", v]))
                cases.append(([ARGS.exe, "--generate", f"100,200,{v}", "--no-output"], ["--generate", v]))
                for opt in ("--test-perturb-entry", "--test-perturb-predecessor"):
                    if v != "-1":  # a negative row means "none" for the test hooks
                        cases.append(([ARGS.exe, "--generate", "100", "--no-output", opt, f"{v},1"], [opt, v]))
                for opt in ("-n", "-e", "--seed", "--min-weight", "--max-weight", "--components", "--width"):
                    args = ["-n", v] if opt == "-n" else ["-n", "10", opt, v]
                    long = {"-n": "--vertices", "-e": "--edges"}.get(opt, opt)
                    cases.append(([gen, *args, os.path.join(tmp, "gen.bin")], [long, v]))
                real = "1e999" if v.startswith("9") else v  # a double's overflow
                cases.append(([convert, "--scale", real, g, out], ["--scale", real]))
                cases.append(([query, d, v], ["vertex", v]))
                cases.append(([query, d, "0", v], ["vertex", v]))
            for command, words in cases:
                p = subprocess.run(command, capture_output=True, text=True)
                what = " ".join(os.path.basename(c) if c.startswith("/") else c for c in command)
                self.assertEqual(p.returncode, 2, f"{what}: {p.stderr}")
                lines = p.stderr.strip().splitlines()
                self.assertEqual(len(lines), 1, f"{what}: {p.stderr}")
                self.assertTrue(lines[0].startswith(os.path.basename(command[0]) + ": error: "), lines[0])
                for w in words:
                    self.assertIn(w, lines[0], what)
                self.assertLessEqual(len(lines[0]), 200, f"{what}: {lines[0]}")
            self.assertEqual(sorted(os.listdir(tmp)), ["d.bin", "g.bin"])

    def test_kokkos_help_is_a_whole_run(self):
        p = run("--kokkos-help")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("--kokkos-help", p.stdout + p.stderr)

    def test_a_run_whose_host_threads_do_not_compute_starts_one_openmp_thread(self):
        """Where OpenMP's threads do not compute (a GPU's run, or Serial's), Kokkos starts one;
        OMP_NUM_THREADS or --kokkos-num-threads, where the user gives them, win."""
        if not {"Serial", "OpenMP"} <= set(backends()):
            self.skipTest("needs the Serial and OpenMP backends")
        case = os.path.join(ARGS.conformance, "c03.1")
        env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "OMP_PROC_BIND", "OMP_PLACES")}

        def pool(*args, **extra):
            p = subprocess.run([ARGS.exe, "--json", "-", *args, case, os.devnull], capture_output=True, text=True,
                               env={**env, **extra})
            self.assertEqual(p.returncode, 0, p.stderr)
            k = json.loads(p.stdout)["kokkos"]
            m = re.search(r"thread_pool_topology\[ *1 x (\d+) x 1 *\]", k["configuration"])
            self.assertIsNotNone(m, k["configuration"])
            return int(m.group(1)), k["thread_binding"]

        threads, binding = pool("--backend", "Serial")
        self.assertEqual(threads, 1)
        self.assertIn("one thread", binding)
        self.assertEqual(pool("--backend", "Serial", OMP_NUM_THREADS="2")[0], 2)
        self.assertEqual(pool("--kokkos-num-threads=2", "--backend", "Serial")[0], 2)
        self.assertEqual(pool("--backend", "OpenMP", OMP_NUM_THREADS="2")[0], 2)

    def test_kokkos_options_in_either_spelling(self):
        """--help names Kokkos 4's spellings; they work on Kokkos 3.4 too (translated), and a
        tool library named by KOKKOS_TOOLS_LIBS is loaded on either."""
        host = [b for b in backends() if b in ("Serial", "OpenMP")]
        if "OpenMP" not in host:
            self.skipTest("no OpenMP backend in this build")
        case = os.path.join(ARGS.conformance, "c03.1")
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "o")
            p = run("--kokkos-num-threads=1", "--backend", "OpenMP", case, out, check=True)
            self.assertIn("concurrency=1 ", p.stdout)
            p = run("--kokkos-print-configuration", "--quiet", case, out, check=True)
            self.assertIn("Kokkos Version", p.stdout)
            missing = os.path.join(tmp, "no_such_tool.so")
            p = subprocess.run([ARGS.exe, "--quiet", case, out], capture_output=True, text=True,
                               env={**os.environ, "KOKKOS_TOOLS_LIBS": missing})
            self.assertIn(missing, p.stdout + p.stderr)

    def test_a_device_id_past_the_gpus_is_refused_in_one_line(self):
        """In a GPU build, a --kokkos-device-id (or KOKKOS_DEVICE_ID) that names no GPU is bad
        input: one line naming the GPUs there are, exit 2, nothing written, before Kokkos starts
        (Kokkos itself aborts with a backtrace). A host build has no device to choose: ignored."""
        gpu = any(b in ("Cuda", "HIP") for b in backends())
        case = os.path.join(ARGS.conformance, "c03.1")
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "o")
            for how in (["--kokkos-device-id=99"], ["ENV"]):
                env = {**os.environ, "KOKKOS_DEVICE_ID": "99"} if how == ["ENV"] else os.environ
                args = [a for a in how if a != "ENV"]
                p = subprocess.run([ARGS.exe, *args, case, out], capture_output=True, text=True, env=env)
                if gpu:
                    self.assertEqual(p.returncode, 2, p.stderr)
                    self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
                    self.assertRegex(p.stderr, r"device id 99 names no GPU of .*(the GPUs there are: 0: |no GPU)")
                    self.assertFalse(os.path.exists(out))
                else:
                    self.assertEqual(p.returncode, 0, p.stderr)
                    os.remove(out)

    def test_every_allocation_is_labelled(self):
        """Kokkos Tools name each allocation by its label: every one the program makes has one
        (a tool lists them; tests/tools/allocation_labels.cpp). Kokkos 3.x's OpenMP backend
        allocates its own thread-team scratch without a label, which no caller can change, so
        there the check covers the other backends."""
        if not ARGS.tools_lib:
            self.skipTest("no --tools-lib")
        version = re.search(r"Kokkos (\d+)\.", run("--version", check=True).stdout)
        unlabelled_by_kokkos = {"OpenMP"} if version and int(version.group(1)) < 4 else set()
        with tempfile.TemporaryDirectory() as tmp:
            for backend in backends():
                if backend in unlabelled_by_kokkos:
                    continue
                for extra in ([], ["--generate", "300,5000", "--no-output"]):
                    args = [ARGS.exe, "--backend", backend, "--verify=3", *extra]
                    if not extra:
                        args += [os.path.join(ARGS.inputs, "random_v1000.bin"), os.path.join(tmp, "o")]
                    p = subprocess.run(args, capture_output=True, text=True,
                                       env={**os.environ, "KOKKOS_TOOLS_LIBS": ARGS.tools_lib})
                    self.assertEqual(p.returncode, 0, p.stderr)
                    labels = re.findall(r"^apsp-test: allocation \S+ '(.*)' \d+$", p.stderr, re.M)
                    self.assertIn("apsp::distance_matrix", labels, p.stderr)  # the tool saw them
                    self.assertNotIn("[unlabeled]", labels, f"{backend} {extra}")
                    self.assertNotIn("", labels, f"{backend} {extra}")

    def test_default_output_is_breakdown_and_result_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "o")
            p = run(os.path.join(ARGS.conformance, "c03.1"), out, check=True)
            for stage in ("read", "build", "solve", "write", "total"):
                self.assertRegex(p.stderr, rf"apsp_kokkos: {stage}\s+[0-9.]+ s")
            self.assertRegex(
                p.stdout,
                r"(?m)^apsp_kokkos RESULT V=\d+ E=\d+ backend=\w+ ranks=\d+ concurrency=\d+ block=\d+ solve_s=[0-9.]+ "
                r"total_s=[0-9.]+ solve_relax_per_s=[0-9.e+]+ total_relax_per_s=[0-9.e+]+ "
                r"ceiling_relax_per_s=[0-9.e+]+ efficiency=[0-9.]+ efficiency_now=(?:[0-9.]+|n/a) verify=PASSED "
                r"input=file output=written\n$",
            )
            # Checked by default (8 rows, or all of a smaller graph); --no-verify turns it off.
            self.assertRegex(p.stdout, r"^apsp_kokkos VERIFY PASSED \((\d+) rows against Dijkstra")
            p = run("--no-verify", os.path.join(ARGS.conformance, "c03.1"), out, check=True)
            self.assertRegex(p.stdout, r"(?m)^apsp_kokkos RESULT .* verify=OFF input=file output=written\n$")

    def test_quiet_prints_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            p = run("--quiet", os.path.join(ARGS.conformance, "c03.1"), os.path.join(tmp, "o"), check=True)
            self.assertEqual(p.stdout, "")
            self.assertEqual(p.stderr, "")

    def test_block_size_changes_nothing_in_the_output(self):
        case = os.path.join(ARGS.conformance, "c05.2")
        with tempfile.TemporaryDirectory() as tmp:
            outs = []
            for b in (16, 32, 64):  # sizes every backend takes
                out = os.path.join(tmp, f"o{b}")
                p = run("--block-size", b, case, out, check=True)
                self.assertIn(f"block={b}", p.stdout)
                with open(out, "rb") as f:
                    outs.append(f.read())
            self.assertEqual(len(set(outs)), 1)


class GeneratedGraphs(unittest.TestCase):
    """--generate V[,E[,SEED]] builds apsp_gen's random graph where the run happens, and
    --no-output skips the V x V file: a benchmark needs neither an input nor an output file."""

    def test_the_same_graph_as_apsp_gen_on_every_backend(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            subprocess.run([ARGS.gen, "-n", "300", "-e", "4000", "--seed", "5", g], check=True, capture_output=True)
            v, edges = read_graph(g)
            expected = scipy_apsp(v, edges)
            for backend in backends():
                out = os.path.join(tmp, "o_" + backend)
                p = run("--generate", "300,4000,5", "--backend", backend, out, check=True)
                self.assertRegex(p.stdout, rf"RESULT V=300 E={len(edges)} .* verify=PASSED input=generated output=written")
                self.assertTrue(np.array_equal(read_matrix(out, v), expected), backend)
            self.assertEqual(sorted(os.listdir(tmp)), sorted(["g.bin"] + ["o_" + b for b in backends()]))

    def test_no_output_writes_nothing_and_says_so(self):
        with tempfile.TemporaryDirectory() as tmp:
            rec = os.path.join(tmp, "r.json")
            p = subprocess.run([ARGS.exe, "--generate", "700", "--no-output", "--json", rec], capture_output=True,
                               text=True, cwd=tmp)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertRegex(p.stdout, r"RESULT V=700 E=\d+ .* verify=PASSED input=generated output=none\n")
            self.assertIn("generated graph: V=700 E~3500 seed=1", p.stderr)
            with open(rec) as f:
                r = json.load(f)
            self.assertEqual((r["graph"]["source"], r["graph"]["expected_edges"], r["graph"]["seed"]),
                             ("generated", 3500, 1))
            self.assertEqual((r["output_state"], r["output_written"], r["output"]), ("none", False, ""))
            self.assertEqual(os.listdir(tmp), ["r.json"])  # nothing else, not even a temporary file

    def test_a_wrong_entry_is_caught_without_an_output(self):
        p = run("--generate", "200,3000,3", "--no-output", "--test-perturb-entry", "199,5")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("VERIFY FAILED: d(199, 5)", p.stdout)
        self.assertRegex(p.stdout, r"RESULT .* verify=FAILED input=generated output=none")


class SelfCheckAndRecords(unittest.TestCase):
    def graph(self, tmp, v=600, e=6000):
        g = os.path.join(tmp, "g.bin")
        subprocess.run([ARGS.gen, "-n", str(v), "-e", str(e), "--seed", "9", g], check=True, capture_output=True)
        return g

    def test_verify_passes_on_every_backend(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = self.graph(tmp)
            for backend in backends():
                p = run("--verify", "--backend", backend, g, os.path.join(tmp, "o"), check=True)
                self.assertIn("apsp_kokkos VERIFY PASSED (8 rows against Dijkstra", p.stdout)
                p = run("--verify=20", "--backend", backend, g, os.path.join(tmp, "o"), check=True)
                self.assertIn("VERIFY PASSED (20 rows", p.stdout)

    def test_verify_checks_every_row_of_a_small_graph(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = self.graph(tmp, v=100, e=900)
            p = run("--verify", g, os.path.join(tmp, "o"), check=True)
            self.assertIn("VERIFY PASSED (100 rows", p.stdout)

    def test_verify_catches_a_wrong_entry(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = self.graph(tmp)
            for backend in backends():
                out = os.path.join(tmp, "o_" + backend)
                p = run("--verify=4", "--backend", backend, "--test-perturb-entry", "599,17", g, out)
                self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
                self.assertRegex(p.stdout, r"VERIFY FAILED: d\(599, 17\) = \d+, Dijkstra gives \d+")
                self.assertFalse(os.path.exists(out))
                self.assertEqual(sorted(os.listdir(tmp)), ["g.bin"])
                # even --quiet reports the failure
                p = run("--quiet", "--verify=4", "--backend", backend, "--test-perturb-entry", "0,1", g, out)
                self.assertEqual(p.returncode, 1)
                self.assertIn("VERIFY FAILED", p.stdout)

    def test_json_record(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = self.graph(tmp)
            rec = os.path.join(tmp, "run.json")
            run("--json", rec, g, os.path.join(tmp, "o0"), check=True)
            with open(rec) as f:
                self.assertIsNone(json.load(f)["phase_seconds"])  # untimed unless asked: fences cost
            p = run("--json", rec, "--phase-times", "--verify=3", g, os.path.join(tmp, "o"), check=True)
            with open(rec) as f:
                r = json.load(f)
            self.assertEqual(r["program"]["name"], "apsp_kokkos")
            self.assertRegex(r["program"]["git_hash"], r"^[0-9a-f]{7,}|unknown$")
            # What the host code was tuned for, word for word in the record and the banner (a
            # compiler wrapper once dropped the spaces of the build's definition).
            self.assertRegex(r["program"]["host_code"], r"^(portable \(no -march, |-march=native on \S)")
            self.assertIn("host code: " + r["program"]["host_code"] + "\n", p.stderr)
            self.assertIn(r["kokkos"]["backend"], backends())
            self.assertRegex(r["kokkos"]["version"], r"^\d+\.\d+\.\d+$")
            self.assertEqual(r["mpi"]["ranks"], 1)
            self.assertEqual((r["schema_version"], r["status"]), (3, "ok"))
            self.assertEqual((r["graph"]["source"], r["graph"]["path"], r["output_state"]), ("file", g, "written"))
            v, _ = read_graph(g)
            self.assertEqual((r["V"], r["block_size"]), (v, int(re.search(r"block=(\d+)", p.stdout).group(1))))
            s = r["seconds"]
            self.assertGreater(s["solve"], 0)
            self.assertLessEqual(s["read"] + s["build"] + s["solve"] + s["verify"] + s["write"], s["total"] * 1.01)
            ph = r["phase_seconds"]
            self.assertLessEqual(ph["pivot"] + ph["pivot_row_column"] + ph["remaining"], s["solve"] * 1.01)
            self.assertAlmostEqual(r["relaxations_per_second"]["solve"], v**3 / s["solve"], delta=v**3 / s["solve"] * 1e-6)
            self.assertEqual(r["verify"]["verdict"], "PASSED")
            self.assertEqual(r["verify"]["rows_checked"], 3)
            self.assertTrue(r["output_written"])
            run("--json", rec, "--no-verify", g, os.path.join(tmp, "o"), check=True)
            with open(rec) as f:
                self.assertEqual(json.load(f)["verify"]["verdict"], "OFF")

    def test_json_to_standard_output(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = self.graph(tmp)
            p = run("--json", "-", "--verify=2", g, os.path.join(tmp, "o"), check=True)
            r = json.loads(p.stdout)  # the record and nothing else: no RESULT or VERIFY line
            self.assertEqual((r["schema_version"], r["status"], r["verify"]["verdict"]), (3, "ok", "PASSED"))
            self.assertEqual(sorted(os.listdir(tmp)), sorted([os.path.basename(g), "o"]))

    def test_a_refused_run_leaves_a_record_and_harms_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            bad = os.path.join(tmp, "bad.bin")
            with open(bad, "wb") as f:
                f.write(b"xx")
            rec = os.path.join(tmp, "run.json")
            p = run("--json", rec, bad, os.path.join(tmp, "o"))
            line = assert_one_error_line(self, p, [bad])
            self.assertEqual(p.returncode, 2)
            with open(rec) as f:
                r = json.load(f)
            self.assertEqual((r["schema_version"], r["status"], r["input"]), (3, "bad_input", bad))
            self.assertEqual("apsp_kokkos: error: " + r["error"], line)
            self.assertEqual(sorted(os.listdir(tmp)), ["bad.bin", "run.json"])
            # A record that would land on the input is not written: the input stays as it was.
            p = run("--json", bad, bad, os.path.join(tmp, "o"))
            self.assertEqual(p.returncode, 2)
            with open(bad, "rb") as f:
                self.assertEqual(f.read(), b"xx")

    def test_progress_banner_and_quiet(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = self.graph(tmp)
            p = run("--progress", g, os.path.join(tmp, "o1"), check=True)
            self.assertRegex(p.stderr, r"^apsp_kokkos \S+ \(\S+\), Kokkos \d+\.\d+\.\d+: \w+ on .+, concurrency \d+\n")
            self.assertRegex(p.stderr, r"apsp_kokkos: V=600 E=\d+ block \d+; memory: host [0-9.]+ [MG]B")
            self.assertRegex(p.stderr, r"round (\d+)/\1 \(100%\)")
            p = run("--progress", "--quiet", g, os.path.join(tmp, "o2"), check=True)
            self.assertEqual(p.stderr + p.stdout, "")
            with open(os.path.join(tmp, "o1"), "rb") as a, open(os.path.join(tmp, "o2"), "rb") as b:
                self.assertEqual(a.read(), b.read())


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--exe", required=True)
    parser.add_argument("--gen", required=True)
    parser.add_argument("--conformance", required=True)
    parser.add_argument("--inputs", required=True)
    parser.add_argument("--tools-lib", default="", help="tests/tools/allocation_labels.cpp, built")
    ARGS, rest = parser.parse_known_args()
    # NumPy's BLAS may have pinned this process to one core; the solver runs it inherits would
    # put all their OpenMP threads there.
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, range(os.cpu_count()))
    unittest.main(argv=[sys.argv[0], "-v", *rest])
