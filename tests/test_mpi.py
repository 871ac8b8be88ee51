#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""apsp_kokkos under a real MPI launch with --np ranks, on every backend the build enables:
the output is byte-identical to one process (V smaller than P*B, V not a multiple of B, long
paths across ranks), the conformance hashes hold, bad input makes every rank exit non-zero
with one message and no output file, and the self-check and the JSON record work."""
import argparse
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import unittest

from test_cli import temp_files, conformance_sums, read_graph, read_matrix, scipy_apsp, write_graph, write_words

ARGS = None
# Each rank reports its own exit status on stderr and leaves with 0, so that the launcher
# does not end the other ranks early (as Open MPI does once one exits non-zero) and a test
# sees every rank's status.
RANK_EXIT = re.compile(r"^apsp-test: rank (\d+) exit (\d+)$", re.M)
WRAPPER = '"$0" "$@"; echo "apsp-test: rank ${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-?}} exit $?" >&2'


def launcher():
    return [ARGS.mpiexec, *shlex.split(ARGS.mpiexec_flags), "-np", str(ARGS.np)]


def launch(program, args, last_rank_extra):
    """The launcher's command for `program` (a list) with `args` on ARGS.np ranks; where
    `last_rank_extra` is given, an MPMD launch whose last rank alone also gets those arguments."""
    args = [*map(str, args)]
    if not last_rank_extra:
        return [*launcher(), *program, *args]
    first = [ARGS.mpiexec, *shlex.split(ARGS.mpiexec_flags), "-np", str(ARGS.np - 1), *program, *args]
    return [*first, ":", "-np", "1", *program, *map(str, last_rank_extra), *args]


def mpirun(*args, last_rank_extra=()):
    """Runs apsp_kokkos on ARGS.np ranks; returns (process, exit status of each rank)."""
    p = subprocess.run(launch(["sh", "-c", WRAPPER, ARGS.exe], args, last_rank_extra), capture_output=True, text=True)
    exits = {int(r): int(c) for r, c in RANK_EXIT.findall(p.stderr)}
    return p, exits


def mpirun_plain(*args, last_rank_extra=()):
    """Runs apsp_kokkos on ARGS.np ranks, as a user would; returns the launcher's status."""
    return subprocess.run(launch([ARGS.exe], args, last_rank_extra), capture_output=True, text=True).returncode


def single(*args):
    p = subprocess.run([ARGS.exe, *map(str, args)], capture_output=True, text=True)
    if p.returncode != 0:
        raise AssertionError(f"{args}: {p.stderr}")


def backends():
    return subprocess.run([ARGS.exe, "--list-backends"], capture_output=True, text=True, check=True).stdout.split()


def error_lines(stderr):
    return [line for line in stderr.splitlines() if line.startswith("apsp_kokkos: error:")]


class SameAsOneProcess(unittest.TestCase):
    def check(self, v, gen_args, extra=(), against_scipy=False, mpi_extra=(), single_extra=()):
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            subprocess.run([ARGS.gen, "-n", str(v), *map(str, gen_args), g], check=True, capture_output=True)
            ref = os.path.join(tmp, "one_process")
            single("--quiet", *extra, *single_extra, g, ref)
            with open(ref, "rb") as f:
                expected = f.read()
            if against_scipy:
                vv, edges = read_graph(g)
                self.assertTrue((read_matrix(ref, vv) == scipy_apsp(vv, edges)).all())
            for backend in backends():
                out = os.path.join(tmp, f"out_{backend}")
                p, exits = mpirun("--quiet", "--backend", backend, *extra, *mpi_extra, g, out)
                self.assertEqual(sorted(exits.items()), [(r, 0) for r in range(ARGS.np)], p.stderr)
                with open(out, "rb") as f:
                    self.assertTrue(f.read() == expected, f"{backend}, {ARGS.np} ranks, V={v} {extra}")
            self.assertEqual([n for n in os.listdir(tmp) if ".tmp." in n], [])

    def test_v_not_a_multiple_of_the_block(self):
        self.check(1003, ["--seed", 11], against_scipy=True)
        self.check(1003, ["--seed", 12], extra=["--block-size", 16])

    def test_fewer_tile_rows_than_ranks(self):
        # V < P * B: 3 tile rows of 16 (or 2 of the default B) for up to 4 ranks.
        self.check(40, ["--seed", 13, "-e", 300], extra=["--block-size", 16], against_scipy=True)
        self.check(100, ["--seed", 14])
        self.check(1, ["-e", 0])

    def test_long_paths_cross_every_rank(self):
        self.check(301, ["--shape", "chain", "--max-weight", 1000], extra=["--block-size", 16], against_scipy=True)

    def test_written_through_mpi_io(self):
        self.check(500, ["--seed", 15], extra=["--block-size", 16, "--mpi-io"])

    def test_unreachable_pairs(self):
        self.check(211, ["--shape", "components", "--components", 3, "-e", 2000, "--seed", 3],
                   extra=["--block-size", 16])

    def test_blocks_of_rounds_across_ranks(self):
        # Blocks of 2, 4 and 16 rounds (mpi/distributed_blocks.hpp; a CPU takes one round at a
        # time unless asked): cut at the ranks' rows and before a short last round, on long
        # paths, unreachable pairs and distances past 2^15.
        for rounds in (2, 4, 16):
            blocks = ["--block-size", 16, "--block-rounds", rounds]
            self.check(331, ["--shape", "chain", "--max-weight", 1000], extra=blocks)
            self.check(405, ["--shape", "components", "--components", 4, "-e", 6000, "--seed", 5], extra=blocks)
            self.check(300, ["--seed", 16, "--min-weight", 40000, "--max-weight", 97000], extra=blocks)
        self.check(1003, ["--seed", 17], extra=["--block-rounds", 4], against_scipy=True)

    def test_nested_dissection_numbering(self):
        # Solved under nested dissection on every rank, each rank's rows sent back to the rank
        # that holds them in the file's numbering: the bytes of one process in the file's own.
        nested, natural = ["--order", "nested", "--verify"], ["--order", "natural"]
        self.check(400, ["--shape", "grid", "--width", 20, "--seed", 8], extra=["--block-size", 16],
                   mpi_extra=nested, single_extra=natural, against_scipy=True)
        self.check(405, ["--shape", "components", "--components", 4, "-e", 3000, "--seed", 5],
                   extra=["--block-size", 16], mpi_extra=[*nested, "--block-rounds", 4], single_extra=natural)
        self.check(40, ["--shape", "grid", "--seed", 9], extra=["--block-size", 16], mpi_extra=nested,
                   single_extra=natural)


class Conformance(unittest.TestCase):
    def test_sixteen_cases_match_their_hashes(self):
        sums = conformance_sums(ARGS.conformance)
        self.assertEqual(len(sums), 16)
        with tempfile.TemporaryDirectory() as tmp:
            for name, digest in sorted(sums.items()):
                out = os.path.join(tmp, name)
                p, exits = mpirun("--quiet", "--block-size", 16, os.path.join(ARGS.conformance, name[: -len(".out")]), out)
                self.assertEqual(sorted(exits.items()), [(r, 0) for r in range(ARGS.np)], p.stderr)
                with open(out, "rb") as f:
                    self.assertEqual(hashlib.sha256(f.read()).hexdigest(), digest, f"{name}, {ARGS.np} ranks")


class BadInput(unittest.TestCase):
    """Every rank exits with the same non-zero status, one error line in all, and the output
    path untouched (not created, or an existing file kept; no temporary file left)."""

    def expect_refused(self, input_path, words, extra=(), status=2, out_dir=None, last_rank_extra=()):
        for existing in (False, True):
            with tempfile.TemporaryDirectory() as outdir:
                out = os.path.join(out_dir or outdir, "out.bin")
                if existing and out_dir is None:
                    write_words(out, [123, 456])
                p, exits = mpirun(*extra, input_path, out, last_rank_extra=last_rank_extra)
                self.assertEqual(sorted(exits.items()), [(r, status) for r in range(ARGS.np)], p.stderr)
                errors = error_lines(p.stderr)
                self.assertEqual(len(errors), 1, p.stderr)
                for w in words:
                    self.assertIn(str(w), errors[0])
                self.assertEqual(p.stdout, "")
                if existing and out_dir is None:
                    with open(out, "rb") as f:
                        self.assertEqual(f.read(), struct.pack("<2i", 123, 456))
                    self.assertEqual(os.listdir(outdir), ["out.bin"])
                else:
                    self.assertEqual(os.listdir(outdir), [])
        self.assertEqual(mpirun_plain(*extra, input_path, out, last_rank_extra=last_rank_extra), status)

    def graph_file(self, tmp, words):
        path = os.path.join(tmp, "bad.bin")
        write_words(path, words)
        return path

    def test_header_rules(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.expect_refused(self.graph_file(tmp, [4, 13]), ["E = 13", "V*(V-1) = 12"])
            self.expect_refused(self.graph_file(tmp, [4, 2, 0, 1, 5]), ["20 bytes", "truncated"])
        self.expect_refused("/nonexistent/graph.bin", ["/nonexistent/graph.bin", "cannot open"])

    def test_bad_edge_far_into_the_list(self):
        with tempfile.TemporaryDirectory() as tmp:
            v = 200
            edges = [(i, (i + 1) % v, 3) for i in range(v)]
            edges[150] = (150, 200, 3)  # dst out of range, in the rows of a later rank
            g = os.path.join(tmp, "g.bin")
            write_graph(g, v, edges)
            self.expect_refused(g, ["edge 150", "dst = 200"], extra=["--block-size", 16])

    def test_weight_breaking_the_bound(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.expect_refused(self.graph_file(tmp, [3, 1, 0, 1, 536870912]), ["edge 0", "536870911"])

    def test_too_large_for_memory(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            write_graph(g, 3000, [(0, 1, 1)])
            self.expect_refused(g, ["V = 3000", "per rank", "available"], extra=["--max-host-memory", "1MB"])

    def test_one_rank_short_of_memory_ends_every_rank(self):
        """Only the last rank lacks the memory (an MPMD launch gives it a lower limit, as a GPU
        that another process fills would): every rank exits 2, one line, no output file."""
        if ARGS.np < 2:
            self.skipTest("needs a second rank")
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            write_graph(g, 3000, [(i, (i + 1) % 3000, 1) for i in range(3000)])
            self.expect_refused(g, [f"rank {ARGS.np - 1}: ", "V = 3000"], last_rank_extra=["--max-host-memory", "1MB"])

    def test_bad_options(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            write_graph(g, 3, [(0, 1, 1)])
            self.expect_refused(g, ["block size 7"], extra=["--block-size", 7])
            self.expect_refused(g, ["backend 'nosuch'"], extra=["--backend", "nosuch"])
            # Pivot rows from GPU to GPU: not for a host backend, whose memory is the host's.
            host = next(b for b in ("OpenMP", "Serial", "Threads") if b in backends())
            self.expect_refused(g, ["--pivot-rows=peer", host], extra=["--backend", host, "--pivot-rows", "peer"])

    def test_a_device_id_past_the_gpus(self):
        """A GPU that is not there is bad input under a launcher too, though with several ranks
        on a node a valid choice is replaced by each rank's own GPU (GPU builds only: a host
        build has no device to choose)."""
        if not any(b in ("Cuda", "HIP") for b in backends()):
            self.skipTest("a host build")
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            write_graph(g, 3, [(0, 1, 1)])
            self.expect_refused(g, ["device id 99 names no GPU", "the GPUs there are: 0: "],
                                extra=["--kokkos-device-id=99"])

    def test_output_directory_missing(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            write_graph(g, 3, [(0, 1, 1)])
            self.expect_refused(g, ["does not exist"], out_dir=os.path.join(tmp, "no", "such"))


def pid_of_rank(rank):
    """The pid of apsp_kokkos' rank `rank` of the run under way (Open MPI's or PMI's rank
    variable in its environment), or None."""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                env = f.read().split(b"\0")
            if os.path.realpath(f"/proc/{pid}/exe") != os.path.realpath(ARGS.exe):
                continue
        except OSError:
            continue
        for name in (b"OMPI_COMM_WORLD_RANK=", b"PMI_RANK="):
            if name + str(rank).encode() in env:
                return int(pid)
    return None


class NothingLeftBehind(unittest.TestCase):
    """SIGKILL cannot be caught: when a rank dies mid-run the launcher stops the others, and the
    temporary output rank 0 created is removed (by the other ranks where rank 0 was killed)."""

    def test_rank_0_killed_mid_run_leaves_no_temporary_output(self):
        self.kill_mid_run(last_rank=False)

    def test_last_rank_killed_mid_run_leaves_no_temporary_output(self):
        self.kill_mid_run(last_rank=True)

    def kill_mid_run(self, last_rank):
        if ARGS.np < 2:
            self.skipTest("needs a second rank")
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            # Long enough that rank 0 is still solving when it is killed: V = 4000 became too
            # short once the host kernels used AVX-512 (0.7 s per rank of two, Serial).
            subprocess.run([ARGS.gen, "-n", "6400", "-e", "64000", g], check=True, capture_output=True)
            p = subprocess.Popen([*launcher(), ARGS.exe, "--backend", "Serial", g, os.path.join(tmp, "out")],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            # The temporary output itself: MPI-IO may put short-lived files of its own, named
            # after it, beside it.
            ours = re.compile(r"^\.apsp_kokkos\.[0-9a-f]{8}\.\d+\.\d+\.[0-9a-z]{8}$")
            temps = []
            for _ in range(4000):
                temps = [n for n in temp_files(tmp) if ours.match(n)]
                if temps or p.poll() is not None:
                    break
                time.sleep(0.005)
            self.assertEqual(len(temps), 1, "no temporary output appeared")
            # Once the run is under way: between creating the file and telling the other ranks
            # its name (one broadcast) only the next run can remove it (the stale-file rule).
            time.sleep(0.5)
            self.assertIsNone(p.poll(), "the run ended before rank 0 could be killed")
            rank0 = int(temps[0].split(".")[3])  # .apsp_kokkos.<host>.<pid>.<start>.<random>
            victim = pid_of_rank(ARGS.np - 1) if last_rank else rank0
            if victim is None:
                p.kill()
                p.wait()
                self.skipTest("the launcher's rank variable is not visible in /proc")
            os.kill(victim, signal.SIGKILL)
            p.wait(timeout=120)
            self.assertNotEqual(p.returncode, 0)
            self.assertEqual(sorted(os.listdir(tmp)), ["g.bin"])


class Placement(unittest.TestCase):
    """Ranks of one node never share CPUs: unbound, each takes its share of the node; a binding
    exported to every rank alike (OMP_PROC_BIND=spread OMP_PLACES=threads under a launcher that
    does not bind) applies within each rank's share; ranks a launcher put on the same CPUs with
    such a binding are refused with one line, since they would take turns on them, except GPU
    ranks, which start again on their shares (src/cli/thread_binding.cpp)."""

    def setUp(self):
        if ARGS.np != 2 or len(os.sched_getaffinity(0)) < 2:
            self.skipTest("two ranks on a node of two CPUs or more")

    def run_with(self, tmp, prefix=(), **env):
        g = os.path.join(tmp, "g.bin")
        write_graph(g, 300, [(i, i + 1, 1) for i in range(299)])
        record = os.path.join(tmp, "r.json")
        environ = {k: v for k, v in os.environ.items() if k not in ("OMP_PROC_BIND", "OMP_PLACES")}
        environ.update(env)
        p = subprocess.run([*launcher(), *prefix, ARGS.exe, "--json", record, g, os.path.join(tmp, "out")],
                           capture_output=True, text=True, env=environ)
        return p, record

    def disjoint_cpus(self, record):
        with open(record) as f:
            r = json.load(f)
        cpus = r["cpus_per_process"]
        self.assertEqual(len(cpus), 2)
        sets = [set(expand(c)) for c in cpus]
        self.assertTrue(all(sets), cpus)
        self.assertFalse(sets[0] & sets[1], cpus)
        return r

    def test_unbound_ranks_take_disjoint_cpus(self):
        with tempfile.TemporaryDirectory() as tmp:
            p, record = self.run_with(tmp)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.disjoint_cpus(record)

    def test_an_exported_binding_keeps_to_each_ranks_share(self):
        with tempfile.TemporaryDirectory() as tmp:
            p, record = self.run_with(tmp, OMP_PROC_BIND="spread", OMP_PLACES="threads")
            self.assertEqual(p.returncode, 0, p.stderr)
            r = self.disjoint_cpus(record)
            self.assertIn("OMP_PROC_BIND=spread", r["kokkos"]["thread_binding"])
            self.assertIn("this rank's share of the node", r["kokkos"]["thread_binding"])

    def test_ranks_bound_to_the_same_cpus_are_refused(self):
        if shutil.which("taskset") is None:
            self.skipTest("taskset")
        with tempfile.TemporaryDirectory() as tmp:
            p, record = self.run_with(tmp, ("taskset", "-c", "0"), OMP_PROC_BIND="spread", OMP_PLACES="threads")
            if backends()[0] in ("Cuda", "HIP"):  # the default backend: a GPU's ranks move
                self.assertEqual(p.returncode, 0, p.stderr)
                self.disjoint_cpus(record)
                return
            self.assertNotEqual(p.returncode, 0)
            lines = [l for l in p.stderr.splitlines() if l.startswith("apsp_kokkos")]
            self.assertEqual(len(lines), 1, p.stderr)
            self.assertIn("share CPUs 0", lines[0])
            self.assertIn("unset OMP_PROC_BIND", lines[0])
            self.assertFalse(os.path.exists(os.path.join(tmp, "out")))


def expand(cpu_list):
    """"0-2,5" -> [0, 1, 2, 5]."""
    out = []
    for part in cpu_list.split(","):
        a, _, b = part.partition("-")
        out += range(int(a), int(b or a) + 1)
    return out


class SlurmVariables(unittest.TestCase):
    """A task of an srun step of several tasks (only Slurm's variables set, as srun --mpi=none
    leaves them) starts MPI; where MPI then sees it alone (no process manager it can reach),
    every task would solve and write the whole problem, so the run is refused with what to use."""

    def test_an_srun_task_starts_mpi_and_refuses_to_run_alone(self):
        if ARGS.np != 1:
            self.skipTest("runs once, with the 1-rank tests")
        slurm = {"SLURM_STEP_NUM_TASKS": "2", "SLURM_PROCID": "0", "SLURM_LOCALID": "0", "SLURM_NODEID": "0",
                 "SLURM_STEP_TASKS_PER_NODE": "2"}
        env = {k: v for k, v in os.environ.items() if not k.startswith(("OMPI_COMM_WORLD", "PMI", "SLURM"))}
        with tempfile.TemporaryDirectory() as tmp:
            p = subprocess.run([ARGS.exe, "--generate", "50", os.path.join(tmp, "o")], capture_output=True, text=True,
                               env={**env, **slurm}, timeout=120)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertEqual(error_lines(p.stderr), [
                "apsp_kokkos: error: started as one of 2 tasks, but MPI sees this process alone (the MPI library "
                "cannot reach the launcher's process manager); under Slurm use srun --mpi=pmix (or pmi2), or mpirun"])
            self.assertEqual(os.listdir(tmp), [])
            # A step of one task is a plain run.
            p = subprocess.run([ARGS.exe, "--generate", "50", os.path.join(tmp, "o")], capture_output=True, text=True,
                               env={**env, **slurm, "SLURM_STEP_NUM_TASKS": "1", "SLURM_STEP_TASKS_PER_NODE": "1"},
                               timeout=120)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(os.listdir(tmp), ["o"])


def slurm_is_up():
    """True when srun can reach a Slurm controller with a node of two CPUs or more that takes jobs."""
    if shutil.which("srun") is None or shutil.which("sinfo") is None:
        return False
    try:
        p = subprocess.run(["sinfo", "-h", "-o", "%T %c"], capture_output=True, text=True, timeout=10)
    except subprocess.TimeoutExpired:
        return False
    return p.returncode == 0 and any(l.split()[0] in ("idle", "mixed") and int(l.split()[1]) >= 2
                                     for l in p.stdout.splitlines() if len(l.split()) == 2)


class RealSrun(unittest.TestCase):
    """Launched by Slurm itself where a Slurm cluster answers (skipped elsewhere): srun
    --mpi=pmix starts MPI, the ranks take the CPUs Slurm bound them to, and the output is the
    one a single process writes; srun --mpi=none is refused by every task with one line."""

    def setUp(self):
        if ARGS.np != 1:
            self.skipTest("runs once, with the 1-rank tests")
        if not slurm_is_up():
            self.skipTest("no Slurm cluster answers here (srun, sinfo)")

    def test_srun_pmix_matches_one_process(self):
        env = {k: v for k, v in os.environ.items() if not k.startswith(("OMPI_", "PMI", "SLURM", "OMP_"))}
        with tempfile.TemporaryDirectory() as tmp:
            g, record = os.path.join(tmp, "g.bin"), os.path.join(tmp, "r.json")
            subprocess.run([ARGS.gen, "-n", "700", "-e", "30000", "--seed", "9", g], check=True, capture_output=True)
            single("--quiet", "--no-verify", g, os.path.join(tmp, "one"))
            p = subprocess.run(["srun", "-n", "2", "--mpi=pmix", ARGS.exe, "--json", record, g, os.path.join(tmp, "two")],
                               capture_output=True, text=True, env=env, timeout=300)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(os.path.join(tmp, "one"), "rb") as a, open(os.path.join(tmp, "two"), "rb") as b:
                self.assertTrue(a.read() == b.read())
            with open(record) as f:
                r = json.load(f)
            self.assertEqual((r["mpi"]["ranks"], r["verify"]["verdict"]), (2, "PASSED"))
            sets = [set(expand(c)) for c in r["cpus_per_process"]]
            self.assertTrue(all(sets) and not sets[0] & sets[1], r["cpus_per_process"])

    def test_srun_without_a_process_manager_is_refused(self):
        env = {k: v for k, v in os.environ.items() if not k.startswith(("OMPI_", "PMI", "SLURM"))}
        with tempfile.TemporaryDirectory() as tmp:
            p = subprocess.run(["srun", "-n", "2", "--mpi=none", ARGS.exe, "--generate", "50", os.path.join(tmp, "o")],
                               capture_output=True, text=True, env=env, timeout=300)
            self.assertNotEqual(p.returncode, 0)
            self.assertEqual(error_lines(p.stderr), 2 * [
                "apsp_kokkos: error: started as one of 2 tasks, but MPI sees this process alone (the MPI library "
                "cannot reach the launcher's process manager); under Slurm use srun --mpi=pmix (or pmi2), or mpirun"])
            self.assertEqual(os.listdir(tmp), [])


class GeneratedGraph(unittest.TestCase):
    def test_each_rank_makes_its_rows_of_apsp_gens_graph(self):
        """--generate under MPI: each rank makes only the edges out of its own rows; the file
        is the one a single process writes from apsp_gen's graph, E is the sum over ranks, and
        the check (which needs the whole graph on the rank of each sampled row) passes."""
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            subprocess.run([ARGS.gen, "-n", "517", "-e", "9000", "--seed", "4", g], check=True, capture_output=True)
            _, edges = read_graph(g)
            ref = os.path.join(tmp, "one_process")
            single("--quiet", "--no-verify", g, ref)
            out = os.path.join(tmp, "out")
            p, exits = mpirun("--generate", "517,9000,4", "--verify=12", "--block-size", 16, out)
            self.assertEqual(sorted(exits.items()), [(r, 0) for r in range(ARGS.np)], p.stderr)
            self.assertIn(f"RESULT V=517 E={len(edges)} ", p.stdout)
            self.assertIn("VERIFY PASSED (12 rows", p.stdout)
            with open(out, "rb") as a, open(ref, "rb") as b:
                self.assertTrue(a.read() == b.read())
            p, exits = mpirun("--generate", "517,9000,4", "--no-output", "--block-size", 16)
            self.assertEqual(sorted(exits.items()), [(r, 0) for r in range(ARGS.np)], p.stderr)
            self.assertIn("verify=PASSED input=generated output=none", p.stdout)
            # One tile row (V < B): rank 0 makes every row, the others none; all take part in E.
            subprocess.run([ARGS.gen, "-n", "40", "-e", "300", "--seed", "2", g], check=True, capture_output=True)
            _, edges = read_graph(g)
            single("--quiet", "--no-verify", g, ref)
            p, exits = mpirun("--generate", "40,300,2", out)
            self.assertEqual(sorted(exits.items()), [(r, 0) for r in range(ARGS.np)], p.stderr)
            self.assertIn(f"RESULT V=40 E={len(edges)} ", p.stdout)
            with open(out, "rb") as a, open(ref, "rb") as b:
                self.assertTrue(a.read() == b.read())


class NestedOrderUnderMpi(unittest.TestCase):
    def test_the_record_names_the_numbering(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            subprocess.run([ARGS.gen, "-n", "900", "--shape", "grid", "--width", "30", g], check=True,
                           capture_output=True)
            rec = os.path.join(tmp, "run.json")
            p, exits = mpirun("--order", "nested", "--json", rec, "--block-size", 16, g, os.path.join(tmp, "out"))
            self.assertEqual(sorted(exits.items()), [(r, 0) for r in range(ARGS.np)], p.stderr)
            with open(rec) as f:
                r = json.load(f)
            self.assertIn("nested dissection", r["vertex_order"])
            self.assertGreater(r["seconds"]["file_order"], 0)

    def test_a_generated_graph_is_refused_nested_dissection(self):
        # Each rank makes only its own rows' edges; the numbering needs the whole graph.
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out")
            p, exits = mpirun("--generate", "300", "--order", "nested", out)
            self.assertEqual(sorted(exits.items()), [(r, 2) for r in range(ARGS.np)], p.stderr)
            self.assertEqual(len(error_lines(p.stderr)), 1, p.stderr)
            self.assertIn("--order nested", p.stderr)
            self.assertEqual(os.listdir(tmp), [])


class SelfCheckAndRecord(unittest.TestCase):
    def test_verify_passes_and_json_names_the_ranks(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            subprocess.run([ARGS.gen, "-n", "300", "--seed", "5", g], check=True, capture_output=True)
            rec = os.path.join(tmp, "run.json")
            p, exits = mpirun("--verify", "--json", rec, "--block-size", 16, g, os.path.join(tmp, "out"))
            self.assertEqual(sorted(exits.items()), [(r, 0) for r in range(ARGS.np)], p.stderr)
            self.assertEqual(p.stdout.count("VERIFY PASSED (300 rows"), 1, p.stdout)
            self.assertEqual(p.stdout.count("RESULT"), 1, p.stdout)
            self.assertIn(f"ranks={ARGS.np} ", p.stdout)
            if ARGS.np > 1:
                self.assertIn(f"MPI: {ARGS.np} ranks", p.stderr)
            with open(rec) as f:
                r = json.load(f)
            self.assertEqual((r["mpi"]["ranks"], r["status"]), (ARGS.np, "ok"))
            self.assertEqual(r["verify"]["verdict"], "PASSED")
            self.assertEqual(r["verify"]["rows_checked"], 300)
            self.assertGreaterEqual(r["seconds"]["solve"], r["seconds"]["mpi_broadcast_wait"])

    def test_verify_catches_a_wrong_entry_on_the_last_rank(self):
        with tempfile.TemporaryDirectory() as tmp:
            g = os.path.join(tmp, "g.bin")
            subprocess.run([ARGS.gen, "-n", "300", "--seed", "6", g], check=True, capture_output=True)
            out = os.path.join(tmp, "out")
            # Row V - 1 is always checked and lies on the last rank that holds rows.
            p, exits = mpirun("--verify=4", "--test-perturb-entry", "299,7", "--block-size", 16, g, out)
            self.assertEqual(sorted(exits.items()), [(r, 1) for r in range(ARGS.np)], p.stderr)
            self.assertEqual(p.stdout.count("VERIFY FAILED: d(299, 7)"), 1, p.stdout)
            self.assertEqual(sorted(os.listdir(tmp)), ["g.bin"])
            self.assertEqual(mpirun_plain("--verify=4", "--test-perturb-entry", "299,7", g, out), 1)
            self.assertEqual(sorted(os.listdir(tmp)), ["g.bin"])


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--exe", required=True)
    parser.add_argument("--gen", required=True)
    parser.add_argument("--conformance", required=True)
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--mpiexec-flags", default="")
    parser.add_argument("--np", type=int, required=True)
    ARGS, rest = parser.parse_known_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, range(os.cpu_count()))
    unittest.main(argv=[sys.argv[0], "-v", *rest])
