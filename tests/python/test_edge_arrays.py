# SPDX-License-Identifier: BSD-3-Clause
"""The module's parallel pass over a matrix's arrays against the package's NumPy pass: the same
edges, in the same order, for every dtype, layout and option it takes; nothing where a rule is
broken (the NumPy pass then names the entry: test_refusals.py)."""
import numpy as np
import pytest
import scipy.sparse as sp

from apsp_kokkos import _graph
from conftest import random_graph

DTYPES = [np.float64, np.float32, np.int64, np.int32, np.int16, np.int8, np.uint64, np.uint32, np.uint16,
          np.uint8, np.bool_]
OPTIONS = [dict(directed=True), dict(directed=False), dict(unweighted=True), dict(scale=0.5)]


def graph_with_everything(V=60, seed=4):
    """Ties, explicit zeros, repeated entries, diagonal entries and empty rows."""
    g = random_graph(V, 0.1, low=0, high=9, seed=seed).tocoo()
    rows = np.concatenate([g.row, [3, 3, 5, 7], np.arange(0, V, 7)])
    cols = np.concatenate([g.col, [4, 4, 5, 8], np.arange(0, V, 7)])
    data = np.concatenate([g.data, [2, 1, 6, 0], np.full(len(range(0, V, 7)), 3)])
    rows[rows == V - 2] = 0  # an empty row
    return sp.csr_matrix((data, (rows, cols)), shape=(V, V), dtype=np.float64)


def both(graph, **kw):
    fast = _graph._edges_in_parallel(graph, kw.get("directed", True), kw.get("unweighted", False), kw.get("scale"))
    assert fast is not None, "the parallel pass declined a graph it takes"
    V, edges = _graph._edges_by_numpy(graph, kw.get("directed", True), kw.get("unweighted", False), kw.get("scale"))
    assert fast[0] == V and fast[1].dtype == np.int32 and fast[1].shape == edges.shape
    np.testing.assert_array_equal(fast[1], edges)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_csr_arrays(dtype, options):
    g = graph_with_everything()
    g = sp.csr_matrix((g.data.astype(dtype), g.indices, g.indptr), shape=g.shape)
    both(g, **options)
    g64 = g.copy()  # SciPy's constructor takes int32 indices where they fit: set int64 ones by hand
    g64.indices, g64.indptr = g.indices.astype(np.int64), g.indptr.astype(np.int64)
    both(g64, **options)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_dense_arrays(dtype, options):
    a = graph_with_everything().toarray().astype(dtype)
    both(a, **options)


def test_dense_non_edges_and_stored_infinities():
    a = graph_with_everything().toarray()
    a[1, 2], a[2, 3], a[4, 5] = np.inf, np.nan, -np.inf
    both(a)
    g = sp.csr_matrix(a)
    g.data[g.data == 0] = np.inf  # (no zeros stored by csr_matrix(dense)) a stored infinity is no edge
    g.data[::5] = np.inf
    both(g)


def test_scale_rounds_half_away_from_zero_as_the_numpy_pass():
    a = np.zeros((3, 3))
    for w in (-0.4, 0.49999999999999994, 0.5, 1.5, 2.5, 1e-300, 357913940.4):
        a[0, 1] = a[1, 2] = w
        both(a, scale=1.0)
        both(sp.csr_matrix(a), scale=1.0)
    _, edges = _graph.edge_list(a, scale=1.0)
    assert edges[:, 2].tolist() == [357913940] * 2
    a[0, 1] = a[1, 2] = 0.49999999999999994  # below one half: 0, as the program's llround gives
    assert _graph.edge_list(a, scale=1.0)[1][:, 2].tolist() == [0, 0]
    assert _graph._edges_by_numpy(a, True, False, 1.0)[1][:, 2].tolist() == [0, 0]


def test_broken_rules_are_left_to_the_numpy_pass():
    def declined(graph, **kw):
        return _graph._edges_in_parallel(graph, kw.get("directed", True), kw.get("unweighted", False),
                                         kw.get("scale")) is None

    a = np.zeros((4, 4))
    for bad in (-3, 2.5, 2**31, 400_000_000):
        a[1, 2] = bad
        assert declined(a) and declined(sp.csr_matrix(a))
    assert not declined(a, unweighted=True)
    a[1, 2] = -3
    a[2, 2] = -3  # on the diagonal: never an edge, never checked
    a[1, 2] = 0
    assert not declined(a)
    s = sp.csr_matrix(([1.0, np.nan], ([0, 2], [1, 3])), shape=(4, 4))
    assert declined(s) and declined(s, unweighted=True)  # a stored NaN is an error, as in SciPy
    out_of_range = sp.csr_matrix((np.ones(2), np.array([1, 9]), np.array([0, 1, 2, 2, 2])), shape=(4, 4))
    assert declined(out_of_range)
    assert declined(np.ones((3, 3)), scale=-1.0)
    assert declined(np.asfortranarray(np.ones((3, 3))))  # not C-ordered: the NumPy pass takes it
    assert declined(np.ones((3, 3), dtype=np.float16))
