# SPDX-License-Identifier: BSD-3-Clause
"""read_graph against the matrix each file was written from, in every format the program reads."""
import numpy as np
import scipy.io
import scipy.sparse as sp
from scipy.sparse.csgraph import floyd_warshall as scipy_fw

import apsp_kokkos
from conftest import random_graph


def loop_free(g):
    """g without its diagonal (read_graph drops self-loops); weights must be >= 1 here."""
    g = sp.csr_matrix(g - sp.diags(g.diagonal()))
    g.eliminate_zeros()
    return g


def triples(g):
    c = g.tocoo()
    return c.row, c.col, c.data.astype(np.int64)


def test_binary_edge_list(tmp_path):
    g = loop_free(random_graph(70, 0.1, low=1))
    r, c, w = triples(g)
    path = tmp_path / "g.bin"
    body = np.stack([r, c, w], axis=1).astype(np.int32)
    path.write_bytes(np.array([70, len(r)], dtype=np.int32).tobytes() + body.tobytes())
    read = apsp_kokkos.read_graph(path)
    assert (read != g).nnz == 0 and read.shape == (70, 70)
    assert apsp_kokkos.read_graph.last_summary["format"] == "bin"
    np.testing.assert_array_equal(apsp_kokkos.solve(path).distances,
                                  np.where(np.isinf(d := scipy_fw(g)), apsp_kokkos.INF, d))


def test_matrix_market_and_edge_lists(tmp_path):
    g = loop_free(random_graph(40, 0.1, low=1))
    scipy.io.mmwrite(tmp_path / "g.mtx", g.astype(np.int64))  # an integer field (a real one needs scale)
    assert (apsp_kokkos.read_graph(tmp_path / "g.mtx") != g).nnz == 0
    r, c, w = triples(g)
    (tmp_path / "g.edges").write_text("".join(f"{a + 1} {b + 1} {x}\n" for a, b, x in zip(r, c, w)))
    assert (apsp_kokkos.read_graph(tmp_path / "g.edges", one_based=True)[:40, :40] != g).nnz == 0
    (tmp_path / "g.gr").write_text(f"p sp 40 {len(r)}\n" + "".join(f"a {a + 1} {b + 1} {x}\n" for a, b, x in zip(r, c, w)))
    assert (apsp_kokkos.read_graph(tmp_path / "g.gr") != g).nnz == 0


def test_repeated_edges_and_self_loops_read_as_the_program_reads_them(tmp_path):
    (tmp_path / "r.edges").write_text("0 1 5\n0 1 3\n1 1 4\n1 2 0.75\n")
    read = apsp_kokkos.read_graph(tmp_path / "r.edges", scale=4)
    assert read[0, 1] == 12 and read[1, 1] == 0 and read[1, 2] == 3 and read.nnz == 2
    summary = apsp_kokkos.read_graph.last_summary
    assert summary["self_loops_dropped"] == 1 and summary["format"] == "edges"
