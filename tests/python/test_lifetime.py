# SPDX-License-Identifier: BSD-3-Clause
"""Kokkos' lifetime as a Python user expects it: many calls, threads, Ctrl-C, reload, exit."""
import importlib
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
from scipy.sparse.csgraph import floyd_warshall as scipy_fw

import apsp_kokkos
from conftest import random_graph


def run_python(code, timeout=120):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)


def test_calls_from_several_threads():
    graphs = [random_graph(90, 0.05, seed=s) for s in range(8)]
    results = [None] * len(graphs)

    def work(i):
        results[i] = apsp_kokkos.floyd_warshall(graphs[i])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(graphs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for g, got in zip(graphs, results):
        np.testing.assert_array_equal(got, scipy_fw(g))


def test_reload_and_initialize_after_start():
    importlib.reload(apsp_kokkos)
    g = random_graph(30, 0.1)
    np.testing.assert_array_equal(apsp_kokkos.floyd_warshall(g), scipy_fw(g))
    try:
        apsp_kokkos.initialize(threads=1)
    except RuntimeError as e:
        assert "before the first solve" in str(e)
    else:
        raise AssertionError("initialize after the first solve was accepted")


def test_exit_is_clean_and_threads_are_taken():
    # A host backend's: a GPU's concurrency is its own, whatever the threads.
    r = run_python("import apsp_kokkos, numpy as np\n"
                   "apsp_kokkos.initialize(threads=1)\n"
                   "host = [b for b in apsp_kokkos.backends() if b in ('OpenMP', 'Serial')][0]\n"
                   "apsp_kokkos.floyd_warshall(np.ones((5, 5)), backend=host)\n"
                   "print(apsp_kokkos.last_record()['kokkos']['concurrency'])\n")
    assert r.returncode == 0 and r.stdout.strip() == "1", r.stderr
    assert r.stderr == "", r.stderr


def test_kept_matrices_outlive_kokkos():
    # solve()'s arrays are the solver's memory, not Kokkos': alive after Kokkos ends at exit.
    r = run_python("import apsp_kokkos, numpy as np, atexit\n"
                   "s = apsp_kokkos.solve(np.ones((700, 700)), predecessors=True)\n"
                   "atexit.register(lambda: print(int(s.distances.sum()), int(s.predecessors[5, 7])))\n")
    assert r.returncode == 0 and r.stdout.strip() == f"{700 * 699} 5", r.stderr
    assert r.stderr == "", r.stderr


def test_ctrl_c_stops_a_solve_and_the_next_call_works():
    # A run started in the background (`cmd &` without job control) inherits SIGINT ignored,
    # and Python then installs no KeyboardInterrupt handler: the child asks for Python's own, as an
    # interactive interpreter has it.
    code = ("import apsp_kokkos, numpy as np, time, sys, signal\n"
            "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
            "from scipy.sparse import random\n"
            "g = random(8000, 8000, density=0.01, random_state=1, format='csr'); g.data[:] = 7\n"
            "apsp_kokkos.floyd_warshall(np.ones((3, 3)))\n"
            "print('ready', flush=True)\n"
            "t = time.perf_counter()\n"
            "try:\n"
            "    apsp_kokkos.floyd_warshall(g, backend='Serial')\n"
            "    print('finished %.2f' % (time.perf_counter() - t), flush=True)\n"
            "except KeyboardInterrupt:\n"
            "    print('interrupted %.2f' % (time.perf_counter() - t), flush=True)\n"
            "print(apsp_kokkos.floyd_warshall(np.array([[0, 2], [0, 0]]))[0, 1], flush=True)\n")
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "ready"
    time.sleep(0.5)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    lines = out.split()
    assert p.returncode == 0, err
    # The Serial solve takes 5 s on a 2-vCPU Xeon and on a 2-vCPU EPYC.
    assert lines[0] == "interrupted" and float(lines[1]) < 2, (out, err)
    assert lines[2] == "2.0"
