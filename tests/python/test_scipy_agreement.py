# SPDX-License-Identifier: BSD-3-Clause
"""floyd_warshall and solve against SciPy's floyd_warshall (and NetworkX's) on every backend."""
import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import floyd_warshall as scipy_fw

import apsp_kokkos
from conftest import components_graph, grid_graph, random_graph

GRAPHS = {
    "random": lambda: random_graph(150, 0.05),
    "ties_and_zeros": lambda: random_graph(120, 0.08, low=0, high=3),
    "grid": lambda: grid_graph(12, 13),
    "components": lambda: components_graph([40, 1, 25, 60]),
    "sparse_unreachable": lambda: random_graph(90, 0.005),
}


@pytest.mark.parametrize("name", sorted(GRAPHS))
@pytest.mark.parametrize("directed", [True, False])
def test_distances_equal_scipys(backend, name, directed):
    g = GRAPHS[name]()
    # A dense array's zeros are no edges; the sparse forms' stored zeros are edges (SciPy's rules).
    for given, read in ((g, g), (g.tocoo(), g), (sp.csc_matrix(g), g), (g.toarray(), g.toarray())):
        got = apsp_kokkos.floyd_warshall(given, directed=directed, backend=backend)
        assert got.dtype == np.float64 and got.flags.c_contiguous
        np.testing.assert_array_equal(got, scipy_fw(read, directed=directed))


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_unweighted_equal_scipys(backend, name):
    g = GRAPHS[name]()
    np.testing.assert_array_equal(apsp_kokkos.floyd_warshall(g, unweighted=True, backend=backend),
                                  scipy_fw(g, unweighted=True))


def test_integer_dtypes_and_explicit_zeros(backend):
    g = random_graph(60, 0.1, low=0, high=5)
    for dtype in (np.int8, np.uint16, np.int32, np.int64, np.float32):
        dense = g.toarray().astype(dtype)
        np.testing.assert_array_equal(apsp_kokkos.floyd_warshall(dense, backend=backend), scipy_fw(dense))
    # A stored zero is an edge of weight 0 in a sparse matrix, no edge in a dense one.
    z = sp.csr_matrix(([0.0, 4.0], ([0, 1], [1, 2])), shape=(3, 3))
    np.testing.assert_array_equal(apsp_kokkos.floyd_warshall(z, backend=backend), scipy_fw(z))
    assert apsp_kokkos.floyd_warshall(z, backend=backend)[0, 2] == 4.0


def test_repeated_edges_lightest_counts(backend):
    # A CSR matrix with repeated entries (SciPy takes the lightest), and the same entries as COO.
    csr = sp.csr_matrix((np.array([5.0, 3.0, 7.0]), np.array([1, 1, 2]), np.array([0, 2, 3, 3])), shape=(3, 3))
    assert not csr.has_canonical_format
    want = scipy_fw(csr)
    assert want[0, 2] == 10
    np.testing.assert_array_equal(apsp_kokkos.floyd_warshall(csr, backend=backend), want)
    coo = sp.coo_matrix(([5.0, 3.0, 7.0], ([0, 0, 1], [1, 1, 2])), shape=(3, 3))
    np.testing.assert_array_equal(apsp_kokkos.floyd_warshall(coo, backend=backend), want)


def test_networkx_graphs(backend):
    rng = np.random.default_rng(4)
    for graph in (nx.gnp_random_graph(70, 0.1, seed=5, directed=True), nx.karate_club_graph(),
                  nx.grid_2d_graph(6, 7), nx.barabasi_albert_graph(80, 2, seed=6)):
        for u, v in graph.edges():
            graph[u][v]["weight"] = int(rng.integers(1, 20))
        a = nx.to_scipy_sparse_array(graph, weight="weight", format="csr")
        want = nx.floyd_warshall_numpy(graph, weight="weight")
        np.testing.assert_array_equal(apsp_kokkos.floyd_warshall(a, directed=graph.is_directed(), backend=backend),
                                      want)


def test_smallest_graphs(backend):
    np.testing.assert_array_equal(apsp_kokkos.floyd_warshall(np.zeros((1, 1)), backend=backend), [[0.0]])
    empty = apsp_kokkos.floyd_warshall(np.zeros((0, 0)), backend=backend)
    assert empty.shape == (0, 0) and empty.dtype == np.float64
    d, p = apsp_kokkos.floyd_warshall(np.zeros((0, 0)), return_predecessors=True)
    assert d.shape == p.shape == (0, 0) and p.dtype == np.int32
    two = np.array([[0, 3], [0, 0]])
    np.testing.assert_array_equal(apsp_kokkos.floyd_warshall(two, backend=backend), [[0, 3], [np.inf, 0]])


def test_solve_returns_the_solvers_int32_matrix_and_record(backend):
    g = components_graph([30, 20])
    s = apsp_kokkos.solve(g, backend=backend, predecessors=True)
    want = scipy_fw(g)
    assert s.distances.dtype == np.int32 and s.predecessors.dtype == np.int32
    np.testing.assert_array_equal(np.where(np.isinf(want), apsp_kokkos.INF, want).astype(np.int32), s.distances)
    r = s.record
    assert r["kokkos"]["backend"] == backend and r["V"] == 50 and r["graph"] == {"source": "memory"}
    assert r["verify"]["verdict"] == "PASSED" and r["verify"]["predecessors_checked"]
    assert r["seconds"]["solve"] > 0 and "ceiling" in r and r == apsp_kokkos.last_record()


def test_solve_keeps_the_solvers_own_matrices(backend):
    g = random_graph(300, 0.02)  # V not a multiple of the block: the solver's rows are padded
    s = apsp_kokkos.solve(g, backend=backend, predecessors=True, check=False)
    block = s.record["block_size"]
    padded = -(-300 // block) * block
    host = backend in ("OpenMP", "Serial")
    for m in (s.distances, s.predecessors):  # on a host backend the solver's padded rows, no copy
        assert m.shape == (300, 300) and not m.flags.owndata and m.flags.writeable
        assert m.strides == ((padded if host else 300) * 4, 4)
    want, pred = scipy_fw(g, return_predecessors=True)
    np.testing.assert_array_equal(s.distances, np.where(np.isinf(want), apsp_kokkos.INF, want))
    np.testing.assert_array_equal(s.predecessors == -9999, pred == -9999)
    # Each array owns its memory: one outlives the other and the next solve's.
    distances, predecessors = s.distances.copy(), s.predecessors
    del s
    apsp_kokkos.solve(random_graph(300, 0.02, seed=9), backend=backend, predecessors=True, check=False)
    np.testing.assert_array_equal(predecessors == -9999, pred == -9999)
    np.testing.assert_array_equal(distances, np.where(np.isinf(want), apsp_kokkos.INF, want))


@pytest.mark.parametrize("block_size", [0, 16])
def test_float64_result_at_every_padding(backend, block_size):
    # On a host backend the result is the solver's padded int32 matrix widened to float64 in
    # place, rows from the last back, in waves: every V around a block's edge, a row of 1 to 8
    # entries past a multiple of 8, V = 1 and V smaller than half a block (copied instead).
    for v in (1, 2, 3, 7, 9, 16, 17, 31, 33, 100, 255, 256, 257, 300):
        g = random_graph(v, min(1.0, 6.0 / v), seed=v, low=0, high=9)
        got = apsp_kokkos.floyd_warshall(g, backend=backend, block_size=block_size, scale=2.0)
        assert got.dtype == np.float64 and got.shape == (v, v) and got.flags.c_contiguous and got.flags.writeable
        np.testing.assert_array_equal(got, scipy_fw(g), err_msg=f"V = {v}, block {block_size}")
    # The array outlives the next solve's (its memory is its own).
    kept = apsp_kokkos.floyd_warshall(random_graph(257, 0.03, seed=4), backend=backend)
    apsp_kokkos.floyd_warshall(random_graph(257, 0.03, seed=5), backend=backend)
    np.testing.assert_array_equal(kept, scipy_fw(random_graph(257, 0.03, seed=4)))


def connected_graph(V, seed):
    """A random graph with a cycle through every vertex: every pair reachable, distances below 2**15."""
    g = random_graph(V, 0.05, low=1, high=1000, seed=seed).tolil()
    for v in range(V):
        g[v, (v + 1) % V] = 1000
    return g.tocsr()


def test_float64_result_from_the_16_bit_matrix(backend):
    # Where every pair is joined by paths below 2**15, a CPU solve's later rounds run on a 16-bit
    # matrix, and a float64 result is widened from it directly (the round operands aside, no int32
    # pass): rows from the last back, in waves, into the same memory; with a scale that divides.
    took = []
    for v, block in ((40, 16), (130, 32), (257, 0), (300, 16), (513, 0)):
        g = connected_graph(v, seed=v)
        for scale in (None, 4.0):
            got = apsp_kokkos.floyd_warshall(g, backend=backend, block_size=block, scale=scale)
            took.append(apsp_kokkos.last_record()["matrix16_from_round"] is not None)
            assert got.dtype == np.float64 and got.shape == (v, v) and got.flags.c_contiguous
            np.testing.assert_array_equal(got, scipy_fw(g), err_msg=f"V = {v}, block {block}, scale {scale}")
    if backend in ("OpenMP", "Serial"):
        assert any(took), "no solve took the 16-bit stage"


def test_overwrite_uses_the_inputs_memory(backend):
    g = random_graph(50, 0.1).toarray()
    want = scipy_fw(g)
    got = apsp_kokkos.floyd_warshall(g, overwrite=True, backend=backend)
    assert got is g
    np.testing.assert_array_equal(got, want)
    kept = random_graph(50, 0.1).toarray()
    assert apsp_kokkos.floyd_warshall(kept, backend=backend) is not kept


def test_scale_takes_real_weights(backend):
    g = random_graph(60, 0.1)
    g.data = g.data / 8.0  # multiples of 1/8: exact after scaling by 8
    np.testing.assert_array_equal(apsp_kokkos.floyd_warshall(g, scale=8, backend=backend), scipy_fw(g))


@pytest.mark.parametrize("scale", [3.0, 0.7, 1e6])
def test_scaled_distances_are_the_solvers_divided(backend, scale):
    # A scale that is no power of two: each float64 distance must be the solver's int32 distance
    # divided by it, correctly rounded, and inf where there is no path; into the result the
    # package makes (the solver's matrix widened) and into the caller's array (overwrite).
    g = components_graph([30, 25, 35])
    g.data = g.data / scale  # real weights: the solver takes round(w * scale), the integers again
    ints = apsp_kokkos.solve(g, scale=scale, backend=backend, check=False).distances[:90, :90]
    want = np.where(ints == apsp_kokkos.INF, np.inf, ints / scale)
    assert np.isinf(want).any() and (want[np.isfinite(want)] != np.floor(want[np.isfinite(want)])).any()
    np.testing.assert_array_equal(apsp_kokkos.floyd_warshall(g, scale=scale, backend=backend), want)
    dense = g.toarray()
    got = apsp_kokkos.floyd_warshall(dense, scale=scale, backend=backend, overwrite=True)
    assert got is dense
    np.testing.assert_array_equal(got, want)
