#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The ceiling every run reports, and scripts/apsp_report.py over records the runs here make.

The ceiling: the RESULT line and the record carry it; the record's run ceiling is the device's
two rates weighed by the share of relaxations in 16-bit lanes (recomputed here); a graph whose
every tile is too heavy for 16-bit lanes has a share of 0 and the int32 rate; the CPU's
calibration is cached under $XDG_CACHE_HOME and taken from there by the next run, measured again
with --calibrate, and skipped with --no-ceiling. The report: its table, best efficiencies and PP
recomputed from the records themselves; PP 0 for a failed or missing platform, n/a without
ceilings; old and unknown schemas; the plot.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

import numpy as np

ARGS = None


def solver(*args, env=None):
    return subprocess.run([ARGS.exe, *map(str, args)], capture_output=True, text=True, env=env, timeout=300)


def device_name(r):
    """The platform's device as the report names it: a GPU's without its index, a CPU's with
    the ISA its ceiling was measured in (the program's basis line names it)."""
    name = re.sub(r" \(device \d+\)$", "", r["kokkos"]["device"])
    isa = re.search(r"register add-min \(([^)]+)\)", (r.get("ceiling") or {}).get("basis") or "")
    return f"{name} ({isa.group(1)})" if isa else name


def report(*args):
    return subprocess.run([sys.executable, ARGS.report, *map(str, args)], capture_output=True, text=True, timeout=120)


def write_graph(path, v, edges):
    a = np.array(edges, dtype=np.int32).reshape(-1, 3)
    with open(path, "wb") as f:
        f.write(np.array([v, len(a)], dtype=np.int32).tobytes() + a.tobytes())


def random_graph(path, v, lo, hi, seed):
    rng = np.random.default_rng(seed)
    s, t = rng.integers(0, v, v * 20), rng.integers(0, v, v * 20)
    keep = s != t
    w = rng.integers(lo, hi + 1, keep.sum())
    write_graph(path, v, np.stack([s[keep], t[keep], w], axis=1))


def backends():
    return solver("--list-backends").stdout.split()


class Ceiling(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        self.env = dict(os.environ, XDG_CACHE_HOME=os.path.join(self.d, "cache"))
        self.cache = os.path.join(self.d, "cache", "apsp_kokkos", "cpu_ceiling.json")

    def tearDown(self):
        self.tmp.cleanup()

    def record(self, *args):
        rec = os.path.join(self.d, "run.json")
        p = solver("--json", rec, *args, env=self.env)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(rec) as f:
            return p, json.load(f)

    def test_the_run_ceiling_weighs_the_two_rates_by_the_16_bit_share(self):
        light, heavy = os.path.join(self.d, "light.bin"), os.path.join(self.d, "heavy.bin")
        random_graph(light, 400, 1, 1000, 1)
        random_graph(heavy, 400, 20000, 100000, 2)  # every distance above 2^16: no block qualifies
        for backend in backends():
            with self.subTest(backend=backend):
                p, r = self.record("--backend", backend, "--no-verify", light, os.path.join(self.d, "o"))
                c = r["ceiling"]
                i32, u16, share = c["int32_relax_per_s"], c["uint16_relax_per_s"], c["share_16bit"]
                self.assertGreater(i32, 0)
                expected = i32 if u16 == 0 or share == 0 else 1 / (share / u16 + (1 - share) / i32)
                self.assertAlmostEqual(c["relax_per_s"], expected, delta=expected * 1e-9)
                solve = r["relaxations_per_second"]["solve"]
                self.assertAlmostEqual(c["efficiency"], solve / c["relax_per_s"], delta=1e-9)
                self.assertTrue(0 < c["efficiency"] < 3, c)
                m = re.search(r"ceiling_relax_per_s=([0-9.e+]+) efficiency=([0-9.]+) efficiency_now=", p.stdout)
                self.assertIsNotNone(m, p.stdout)
                self.assertAlmostEqual(float(m.group(1)), c["relax_per_s"], delta=c["relax_per_s"] * 1e-4)
                if u16 > 0:  # weights 1..1000: once paths are short, blocks fit 16-bit lanes
                    self.assertGreater(share, 0)
                _, r = self.record("--backend", backend, "--no-verify", heavy, os.path.join(self.d, "o"))
                self.assertEqual(r["ceiling"]["share_16bit"], 0)
                self.assertEqual(r["ceiling"]["relax_per_s"], r["ceiling"]["int32_relax_per_s"])

    def test_a_cpu_run_says_from_which_round_it_kept_a_16_bit_matrix(self):
        light, heavy = os.path.join(self.d, "light.bin"), os.path.join(self.d, "heavy.bin")
        random_graph(light, 400, 1, 1000, 4)
        random_graph(heavy, 400, 20000, 100000, 5)
        out = os.path.join(self.d, "o")
        for backend in backends():
            with self.subTest(backend=backend):
                p, r = self.record("--backend", backend, "-b", 64, light, out)  # 7 rounds
                cpu_16 = backend in ("OpenMP", "Serial", "Threads") and r["ceiling"]["uint16_relax_per_s"] > 0
                m = r["matrix16_from_round"]
                if cpu_16:  # after a round whose products met no distance past 2^15 (not round 0: INF)
                    self.assertIsInstance(m, int)
                    self.assertTrue(1 <= m < 7, m)
                    self.assertIn(f"16-bit  matrix from round {m} of 7 on", p.stderr)
                else:
                    self.assertIsNone(m)
                self.assertEqual(r["verify"]["verdict"], "PASSED")
                for args in (("--phase-times", light), (heavy,)):  # timed phases, distances past 2^15
                    p, r = self.record("--backend", backend, "-b", 64, *args, out)
                    self.assertIsNone(r["matrix16_from_round"], args)
                    self.assertNotIn("16-bit  matrix", p.stderr)

    def test_a_cpu_run_times_its_rounds(self):
        g = os.path.join(self.d, "rounds.bin")
        v, b = 1000, 64  # 16 rounds, the last of 40 pivots: rounds 1 to 14 are alike
        random_graph(g, v, 1, 1000, 6)
        out = os.path.join(self.d, "o")
        for backend in backends():
            with self.subTest(backend=backend):
                p, r = self.record("--backend", backend, "-b", b, g, out)
                rounds = r["rounds"]
                if backend not in ("OpenMP", "Serial", "Threads"):  # a device's rounds run behind their launches
                    self.assertIsNone(rounds)
                    continue
                self.assertEqual(rounds["timed"], sum(1 for k in range(1, (v + b - 1) // b) if v - k * b >= b))
                median, slowest = rounds["median_relax_per_s"], rounds["slowest_relax_per_s"]
                self.assertTrue(0 < slowest <= median, rounds)
                self.assertTrue(1 <= rounds["slowest_round"] <= 14, rounds)
                # The rounds alike are parts of the solve, half of them at least the median one's time.
                half = (rounds["timed"] + 1) // 2
                self.assertLessEqual(half * v * v * b / median, r["seconds"]["solve"])
                self.assertLessEqual(v * v * b / slowest, r["seconds"]["solve"])
                c = r["ceiling"]
                self.assertAlmostEqual(rounds["median_efficiency"],
                                       median * (1 - c["share_left_out"]) / c["relax_per_s"], places=9)
                self.assertRegex(p.stderr, r"rounds  median [0-9.e+]+ relaxations/s \(\d+ % of the ceiling\), "
                                 rf"slowest [0-9.e+]+ \(round {rounds['slowest_round']}, [0-9.]+ of the median; "
                                 r"14 rounds alike\)")
                _, r = self.record("--backend", backend, "-b", 512, g, out)  # 2 rounds: none alike
                self.assertIsNone(r["rounds"])

    def test_the_calibration_is_cached_measured_again_on_request_and_skippable(self):
        g = os.path.join(self.d, "g.bin")
        random_graph(g, 200, 1, 1000, 3)
        out = os.path.join(self.d, "o")
        p = solver("--no-ceiling", g, out, env=self.env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("ceiling_relax_per_s=n/a efficiency=n/a efficiency_now=n/a", p.stdout)
        self.assertFalse(os.path.exists(self.cache))
        p, r = self.record("--backend", "Serial", g, out)
        self.assertIn("ceiling: calibrated after the run", p.stderr)
        with open(self.cache) as f:
            cache = json.load(f)
        (key, rates), = cache.items()
        self.assertIn("| 1 threads on CPUs", key)
        cached = rates["int32_relax_per_s"]
        self.assertAlmostEqual(r["ceiling"]["int32_relax_per_s"], cached, delta=1)  # (summed as integers)
        self.assert_measured_now(p, r, True)  # the first calibration is the kept one
        p, r2 = self.record("--backend", "Serial", g, out)
        self.assertIn("calibrated earlier (" + self.cache + ")", p.stderr)
        self.assertAlmostEqual(r2["ceiling"]["int32_relax_per_s"], cached, delta=1)
        self.assertIsNone(r2["ceiling"]["efficiency_now"])  # nothing measured by this run
        self.assertIn(" efficiency_now=n/a ", p.stdout)
        p, _ = self.record("--backend", "Serial", "--calibrate", g, out)
        self.assertIn("calibrated now", r["ceiling"]["basis"] + p.stderr)
        # --calibrate keeps the higher of the cached figure and its own: one above any
        # measurement stays, one below every measurement is replaced.
        for figure, kept in ((1e18, True), (1.0, False)):
            with open(self.cache, "w") as f:
                json.dump({key: {"int32_relax_per_s": figure, "uint16_relax_per_s": figure}}, f)
            p, r3 = self.record("--backend", "Serial", "--calibrate", g, out)
            with open(self.cache) as f:
                stored = json.load(f)[key]["int32_relax_per_s"]
            self.assert_measured_now(p, r3, not kept)
            if kept:
                # what this calibration measured, as a share of the kept figure: far below 1e18
                self.assertIn("calibrated now at 0 % of an earlier calibration's higher figure, which is kept",
                              r3["ceiling"]["basis"])
                self.assertIn("ceiling: " + r3["ceiling"]["basis"], p.stderr)  # said after the run too
                self.assertAlmostEqual(r3["ceiling"]["int32_relax_per_s"], figure, delta=figure * 1e-9)
                self.assertEqual(stored, figure)
            else:
                self.assertNotIn("higher figure", r3["ceiling"]["basis"])
                self.assertGreater(stored, 1e6)
                self.assertAlmostEqual(r3["ceiling"]["int32_relax_per_s"], stored, delta=1)
        p = solver("--no-ceiling", "--calibrate", g, out, env=self.env)
        self.assertEqual(p.returncode, 2)
        with open(self.cache, "w") as f:  # a damaged cache is measured again and replaced
            f.write("{not json")
        p, _ = self.record("--backend", "Serial", g, out)
        with open(self.cache) as f:
            self.assertEqual(len(json.load(f)), 1)
        with open(self.cache, "w") as f:  # so is one whose figure is not a number
            json.dump({key: {"int32_relax_per_s": "fast", "uint16_relax_per_s": -1}}, f)
        p, _ = self.record("--backend", "Serial", g, out)
        self.assertIn("ceiling: calibrated after the run", p.stderr)
        with open(self.cache) as f:
            self.assertGreater(json.load(f)[key]["int32_relax_per_s"], 0)
        # Written through a temporary file renamed into place: none is left beside the cache.
        self.assertEqual(os.listdir(os.path.dirname(self.cache)), ["cpu_ceiling.json"])


    def assert_measured_now(self, p, r, same_as_kept):
        """A run that calibrated: its efficiency against that calibration, in the record and on
        the RESULT line. `same_as_kept`: the calibration is the figure the cache kept (the first
        one, or one above the cached figure), else it is below it; never above."""
        c = r["ceiling"]
        now = c["measured_relax_per_s"]
        self.assertIsNotNone(now, c)
        if same_as_kept:
            self.assertAlmostEqual(now, c["relax_per_s"], delta=now * 1e-9)
        else:
            self.assertLess(now, c["relax_per_s"] * 1e-3)  # the kept figure here is 1e18
            self.assertIn("against the calibration made after the solve", p.stderr)
        solve = r["relaxations_per_second"]["solve"]
        self.assertAlmostEqual(c["efficiency_now"], solve / now, delta=c["efficiency_now"] * 1e-9)
        self.assertGreaterEqual(c["efficiency_now"], c["efficiency"] * (1 - 1e-9))
        m = re.search(r" efficiency=([0-9.]+) efficiency_now=([0-9.]+) ", p.stdout)
        self.assertIsNotNone(m, p.stdout)
        self.assertAlmostEqual(float(m.group(2)), c["efficiency_now"], delta=6e-4)


class Report(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        d = cls.d = cls.tmp.name
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(d, "cache"))
        cls.ok = []
        for v in (150, 300):
            g = os.path.join(d, f"g{v}.bin")
            random_graph(g, v, 1, 1000, v)
            for backend in backends():
                rec = os.path.join(d, f"{backend}_{v}.json")
                p = solver("--backend", backend, "--json", rec, g, os.path.join(d, "o"), env=env)
                assert p.returncode == 0, p.stderr
                cls.ok.append(rec)
        cls.failed = os.path.join(d, "failed.json")
        with open(os.path.join(d, "bad.bin"), "wb") as f:
            f.write(b"xx")
        solver("--json", cls.failed, os.path.join(d, "bad.bin"), os.path.join(d, "o2"), env=env)
        cls.unceiled = os.path.join(d, "none.json")
        solver("--no-ceiling", "--json", cls.unceiled, os.path.join(d, "g150.bin"), os.path.join(d, "o"), env=env)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def records(self, paths):
        out = []
        for p in paths:
            with open(p) as f:
                out.append(json.load(f))
        return out

    def test_table_best_efficiencies_and_pp(self):
        p = report("--json", *self.ok)
        self.assertEqual(p.returncode, 0, p.stderr)
        got = json.loads(p.stdout)
        best = {}
        for r in self.records(self.ok):
            key = device_name(r) + " / " + r["kokkos"]["backend"]
            best[key] = max(best.get(key, 0), r["ceiling"]["efficiency"])
        self.assertEqual(set(got["best_efficiency"]), set(best))
        for k, e in best.items():
            self.assertAlmostEqual(got["best_efficiency"][k], e, places=12)
        self.assertAlmostEqual(got["PP"], len(best) / sum(1 / e for e in best.values()), places=12)
        self.assertEqual(len(got["rows"]), len(self.ok))
        p = report(*self.ok)
        self.assertIn(f"PP={got['PP']:.3f} over {len(best)} platform(s)", p.stdout)
        for r in self.records(self.ok):
            self.assertIn(f"| {r['V']} | {r['relaxations_per_second']['solve']:.3e} |", p.stdout)

    def test_pp_is_zero_for_a_failed_or_missing_platform_and_na_without_ceilings(self):
        got = json.loads(report("--json", *self.ok, self.failed).stdout)
        self.assertEqual(got["PP"], 0.0)
        # A platform none of the records ran on (a GPU build's records are the GPU's own).
        absent = "Absent Accelerator 9000 / Cuda"
        self.assertNotIn(absent, {device_name(r) + " / " + r["kokkos"]["backend"] for r in self.records(self.ok)})
        got = json.loads(report("--json", *self.ok, "--platforms", absent).stdout)
        self.assertEqual(got["PP"], 0.0)
        self.assertIn(absent, got["PP_basis"])
        got = json.loads(report("--json", self.unceiled).stdout)
        self.assertIsNone(got["PP"])
        self.assertIn("no ceiling", got["PP_basis"])

    def test_several_ranks_are_a_platform_of_their_own(self):
        # A record as two ranks write it: every rank's device, ', '-separated (a GPU's with its
        # index, identical host names as 'NAME x2').
        with open(self.ok[0]) as f:
            r = json.load(f)
        name = device_name(r)
        bare = re.sub(r" \(device \d+\)$", "", r["kokkos"]["device"])
        backend = r["kokkos"]["backend"]
        paths = []
        for i, device in enumerate((f"{bare} (device 0), {bare} (device 1)", f"{bare} x2")):
            r["kokkos"]["device"], r["mpi"]["ranks"] = device, 2
            paths.append(os.path.join(self.d, f"ranks{i}.json"))
            with open(paths[-1], "w") as f:
                json.dump(r, f)
        got = json.loads(report("--json", self.ok[0], *paths).stdout)
        self.assertEqual(set(got["best_efficiency"]), {f"{name} / {backend}", f"2 x {name} / {backend}"})
        self.assertEqual([x["platform"] for x in got["rows"]].count(f"2 x {name} / {backend}"), 2)

    def test_a_cpu_in_two_instruction_sets_is_two_platforms(self):
        # One CPU model string, calibrated in AVX2 and in AVX-512 (two machines of one name,
        # or two builds): two platforms, each named with its ISA.
        with open(self.ok[0]) as f:
            r = json.load(f)
        if "register add-min" not in (r.get("ceiling") or {}).get("basis", ""):
            self.skipTest("not a CPU record")
        paths = []
        for isa in ("AVX2", "AVX-512"):
            r["ceiling"]["basis"] = f"register add-min ({isa}) on 1 thread"
            paths.append(os.path.join(self.d, f"isa_{isa}.json"))
            with open(paths[-1], "w") as f:
                json.dump(r, f)
        got = json.loads(report("--json", *paths).stdout)
        bare, backend = r["kokkos"]["device"], r["kokkos"]["backend"]
        self.assertEqual(set(got["best_efficiency"]), {f"{bare} (AVX2) / {backend}", f"{bare} (AVX-512) / {backend}"})

    def test_json_lines_old_and_unknown_schemas(self):
        lines = os.path.join(self.d, "all.jsonl")
        recs = self.records(self.ok)
        with open(lines, "w") as f:
            for r in recs:
                f.write(json.dumps(r) + "\n")
        self.assertEqual(len(json.loads(report("--json", lines).stdout)["rows"]), len(recs))
        old = dict(recs[0], schema_version=2)
        del old["ceiling"]
        path = os.path.join(self.d, "old.json")
        with open(path, "w") as f:
            json.dump(old, f)
        got = json.loads(report("--json", path).stdout)
        self.assertIsNone(got["rows"][0]["efficiency"])
        for schema in (None, 9):
            bad = dict(recs[0])
            if schema is None:
                del bad["schema_version"]
            else:
                bad["schema_version"] = schema
            with open(path, "w") as f:
                json.dump(bad, f)
            p = report(path)
            self.assertEqual(p.returncode, 2)
            self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
            self.assertIn(f"schema_version {schema or 1}", p.stderr)
        with open(path, "w") as f:
            f.write("not json\n")
        p = report(path)
        self.assertEqual((p.returncode, len(p.stderr.strip().splitlines())), (2, 1), p.stderr)

    def test_plot(self):
        png = os.path.join(self.d, "report.png")
        p = report(*self.ok, "--plot", png)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(png, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", required=True)
    ap.add_argument("--report", required=True)
    ARGS, rest = ap.parse_known_args()
    unittest.main(argv=[sys.argv[0], "-v", *rest])
