# SPDX-License-Identifier: BSD-3-Clause
"""All-pairs shortest paths by blocked Floyd-Warshall on Kokkos, with SciPy's conventions.

``floyd_warshall`` takes what ``scipy.sparse.csgraph.floyd_warshall`` takes and returns what it
returns; ``solve`` returns the solver's int32 matrices and the run's record; ``read_graph`` reads
the files the command-line program reads. The backend (``backends()``: "OpenMP", "Serial",
"Cuda", ...) is chosen by name; Kokkos starts on first use (``initialize`` sets its threads or
device first) and ends at interpreter exit. docs/python.md has the whole story.
"""
import atexit
import json
import os
import threading
from collections import namedtuple

import numpy as np

from . import _core
from ._graph import INF, edge_list, lightest_edges

__all__ = ["floyd_warshall", "solve", "read_graph", "backends", "initialize", "last_record", "Solution", "INF"]

#: SciPy's predecessor where there is none (the diagonal, unreachable pairs).
NO_PREDECESSOR = -9999

Solution = namedtuple("Solution", ["distances", "predecessors", "record"])
Solution.__doc__ = """``solve``'s result: int32 distances (INF where no path), int32 predecessors
(-9999 where none; None unless asked) and the run's record (a dict: docs/run_record.md)."""

_local = threading.local()
atexit.register(_core.finalize)


def initialize(threads=None, device_id=None):
    """Starts Kokkos with ``threads`` host threads (default: OpenMP's) on GPU ``device_id``
    (default: Kokkos' choice). Only before the first solve: Kokkos starts once per process."""
    if _core.initialized():
        raise RuntimeError("Kokkos has started already: initialize() goes before the first solve")
    _core.initialize(int(threads or 0), -1 if device_id is None else int(device_id))


def backends():
    """The backends this build enables, the default first (e.g. ['OpenMP', 'Serial'])."""
    return list(_core.backends())


def last_record():
    """The record of this thread's last solve, as a dict (None before the first)."""
    return getattr(_local, "record", None)


def _run(V, edges, distances, predecessors, scale, backend, check, order, block_size, phase_times=False):
    """The solve: into the float64 ``distances`` (and ``predecessors``) given; where
    ``distances`` is None, into int32 matrices it returns (``predecessors``: True to have them);
    where it is ``float``, into float64 distances it returns (the solver's own memory, widened,
    on a host backend) and the ``predecessors`` array given."""
    verify_rows = {False: -1, True: 8}.get(check, check)
    keep = distances is None
    keep_float64 = distances is float
    record, kept, kept_predecessors = _core.solve(
        V, edges, None if keep or keep_float64 else distances, None if keep else predecessors, keep,
        keep and bool(predecessors), keep_float64, float(scale or 1.0), backend or "", int(block_size), order,
        int(verify_rows), bool(phase_times))
    _local.record = json.loads(record)
    return _local.record, kept, kept_predecessors


def _output(csgraph, overwrite):
    """SciPy's overwrite: the input's own memory for the distances where it is a C-ordered
    float64 array; else ``float``: the solve makes the array (_run)."""
    if (overwrite and isinstance(csgraph, np.ndarray) and csgraph.dtype == np.float64
            and csgraph.flags.c_contiguous and csgraph.flags.writeable):
        return csgraph
    return float


def floyd_warshall(csgraph, directed=True, return_predecessors=False, unweighted=False, overwrite=False, *,
                   scale=None, backend=None, check=False, order="auto", block_size=0):
    """Shortest-path lengths between every pair, as ``scipy.sparse.csgraph.floyd_warshall``.

    Returns float64 distances (``inf`` where there is no path) and, with
    ``return_predecessors``, int32 predecessors (-9999 where there is none). Weights must be
    non-negative integers (any dtype holding integer values) unless ``scale`` is given: then
    each weight w counts as round(w * scale) and the distances are divided by ``scale``.
    Among several shortest paths the predecessors follow the one with the fewest edges, then the
    smallest last vertex before the target (SciPy's follow the order its loops relax).
    ``backend`` names the Kokkos backend; ``check`` compares rows against Dijkstra
    (True: 8 rows, or a number of rows).
    """
    V, edges = edge_list(csgraph, directed, unweighted, scale)
    dist = _output(csgraph, overwrite)
    pred = np.empty((V, V), dtype=np.int32) if return_predecessors else None
    if V == 0:
        dist = np.empty((0, 0), dtype=np.float64) if dist is float else dist
    else:
        _, made, _ = _run(V, edges, dist, pred, scale, backend, check, order, block_size)
        dist = made if dist is float else dist
    return (dist, pred) if return_predecessors else dist


def solve(csgraph, *, directed=True, unweighted=False, scale=None, predecessors=False, backend=None, check=True,
          order="auto", block_size=0, phase_times=False):
    """The solver's own result: a ``Solution`` of int32 distances (``INF`` = 2**30 - 1 where no
    path), int32 predecessors (with ``predecessors=True``) and the run's record as a dict
    (ceiling, efficiency, seconds of each stage; docs/run_record.md). ``csgraph`` is what
    ``floyd_warshall`` takes, or a graph file's path (``read_graph``). The self-check is on
    (8 rows against Dijkstra) unless ``check=False``. On a host backend (OpenMP, Serial) the
    matrices are the solver's own, without a copy: each row lies in the solver's padded row (a
    multiple of its block size), so they are not C-contiguous where V is not such a multiple."""
    if isinstance(csgraph, (str, os.PathLike)):
        csgraph = read_graph(csgraph, scale=scale)
        scale = None
    V, edges = edge_list(csgraph, directed, unweighted, scale)
    if V == 0:
        empty = np.empty((0, 0), dtype=np.int32)
        return Solution(empty, empty.copy() if predecessors else None, None)
    record, dist, pred = _run(V, edges, None, predecessors, scale, backend, check, order, block_size, phase_times)
    return Solution(dist, pred, record)


def read_graph(path, *, format=None, undirected=False, one_based=False, scale=None):
    """A graph file as the program reads it: the binary edge list (.bin), Matrix Market (.mtx),
    DIMACS (.gr) or an edge list (any other name, or ``format``: "bin", "mtx", "gr", "edges"),
    as a SciPy CSR matrix of float64 weights (of repeated edges the lightest; self-loops dropped).
    Real weights need ``scale`` (w -> round(w * scale)). The reading's summary is in
    ``read_graph.last_summary``."""
    if not os.path.exists(path):
        raise FileNotFoundError(f"{os.fspath(path)}: no such file")
    V, edges, summary = _core.read_graph(os.fspath(path), format or "", bool(undirected), 1 if one_based else 0,
                                         float(scale or 0.0))
    bad = (edges[:, 0] < 0) | (edges[:, 0] >= V) | (edges[:, 1] < 0) | (edges[:, 1] >= V) | (edges[:, 2] < 0)
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        s, t, w = (int(x) for x in edges[k])
        raise ValueError(f"{os.fspath(path)}: edge {k} ({s} -> {t}, weight {w}) breaks the rules "
                         f"(vertices 0..{V - 1}, weights >= 0)")
    read_graph.last_summary = dict(summary, vertices=V, edges=len(edges))
    return lightest_edges(V, edges)
