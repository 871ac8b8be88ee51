# SPDX-License-Identifier: BSD-3-Clause
"""Predecessors: walked back, every path's weight is its distance; where SciPy finds none, none."""
import numpy as np
import pytest
from scipy.sparse.csgraph import floyd_warshall as scipy_fw

import apsp_kokkos
from conftest import components_graph, grid_graph, random_graph


def walk_back(weights, dist, pred, i, j):
    """The length of the path pred gives from i to j (at most V steps)."""
    length, v = 0.0, j
    for _ in range(len(dist)):
        if v == i:
            return length
        u = pred[i, v]
        assert u >= 0, f"pred[{i}, {v}] = {u} on the way to {j}"
        length += weights[u, v]
        v = u
    raise AssertionError(f"the path from {i} to {j} does not end")


@pytest.mark.parametrize("make", [lambda: random_graph(80, 0.06, low=0, high=3), lambda: grid_graph(8, 9),
                                  lambda: components_graph([20, 1, 30])])
def test_paths_walk_back_to_the_distances(backend, make):
    g = make()
    d, p = apsp_kokkos.floyd_warshall(g, return_predecessors=True, backend=backend)
    want_d, want_p = scipy_fw(g, return_predecessors=True)
    np.testing.assert_array_equal(d, want_d)
    assert p.dtype == np.int32
    np.testing.assert_array_equal(p == -9999, want_p == -9999)  # none exactly where SciPy has none
    weights = g.toarray()  # (no repeated edges in these graphs)
    for i in range(len(d)):
        for j in np.flatnonzero(np.isfinite(d[i])):
            assert walk_back(weights, d, p, i, j) == d[i, j]


def test_unique_shortest_paths_give_scipys_predecessors(backend):
    g = random_graph(100, 0.05, low=1, high=10**6, seed=7)  # ties all but impossible
    d, p = apsp_kokkos.floyd_warshall(g, return_predecessors=True, backend=backend)
    want_d, want_p = scipy_fw(g, return_predecessors=True)
    np.testing.assert_array_equal(d, want_d)
    np.testing.assert_array_equal(p, want_p)


def test_tie_rule_fewest_edges_then_smallest_vertex(backend):
    # 0 -> 3 directly at weight 2, or 0 -> 1 -> 3 and 0 -> 2 -> 3 at 1 + 1: the direct edge wins.
    a = np.zeros((4, 4))
    a[0, 3], a[0, 1], a[1, 3], a[0, 2], a[2, 3] = 2, 1, 1, 1, 1
    _, p = apsp_kokkos.floyd_warshall(a, return_predecessors=True, backend=backend)
    assert p[0, 3] == 0
    a[0, 3] = 0  # no direct edge: two paths of two edges, the smaller last vertex (1) wins
    _, p = apsp_kokkos.floyd_warshall(a, return_predecessors=True, backend=backend)
    assert p[0, 3] == 1
