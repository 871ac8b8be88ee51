# SPDX-License-Identifier: BSD-3-Clause
"""Graphs the Python package's tests share: each a SciPy sparse matrix with integer weights."""
import numpy as np
import pytest
import scipy.sparse as sp

import apsp_kokkos

BACKENDS = apsp_kokkos.backends()


def random_graph(V, density, low=0, high=1000, seed=1):
    """A random directed graph, weights in [low, high] (ties and zero weights when the range is small)."""
    rng = np.random.default_rng(seed)
    a = sp.random(V, V, density=density, random_state=rng, format="csr")
    a.data = rng.integers(low, high + 1, a.nnz).astype(np.float64)
    return a


def grid_graph(rows, cols, seed=2):
    """A rows x cols lattice, each edge both ways with its own weight in 1..9."""
    rng = np.random.default_rng(seed)
    V = rows * cols
    src, dst = [], []
    for r in range(rows):
        for c in range(cols):
            v = r * cols + c
            if c + 1 < cols:
                src += [v, v + 1]
                dst += [v + 1, v]
            if r + 1 < rows:
                src += [v, v + cols]
                dst += [v + cols, v]
    w = rng.integers(1, 10, len(src)).astype(np.float64)
    return sp.csr_matrix((w, (src, dst)), shape=(V, V))


def components_graph(sizes, seed=3):
    """Strongly connected blocks with no edge between them: most pairs unreachable."""
    blocks = [random_graph(n, 0.3, 1, 50, seed + i) for i, n in enumerate(sizes)]
    return sp.block_diag(blocks, format="csr")


@pytest.fixture(params=BACKENDS)
def backend(request):
    return request.param
