# SPDX-License-Identifier: BSD-3-Clause
"""Every refusal: a ValueError that names what is wrong and where, and nothing solved."""
import numpy as np
import pytest
import scipy.sparse as sp

import apsp_kokkos


def refused(graph, match, **kw):
    with pytest.raises(ValueError, match=match):
        apsp_kokkos.floyd_warshall(graph, **kw)


def test_wrong_shapes():
    refused(np.zeros((3, 4)), r"square matrix.*\(3, 4\)")
    refused(np.zeros((2, 2, 2)), r"square matrix.*\(2, 2, 2\)")
    refused(np.zeros(5), r"square matrix.*\(5,\)")
    refused(sp.csr_matrix((2, 3)), r"square matrix.*\(2, 3\)")
    refused(np.array([["a", "b"], ["c", "d"]]), "dtype")


def test_weights_that_break_the_rules():
    a = np.zeros((4, 4))
    a[1, 2] = -3
    refused(a, r"weight -3.0 at \(1, 2\) is negative")
    a[1, 2] = 2.5
    refused(a, r"weight 2.5 at \(1, 2\) is not an integer.*scale=")
    a[1, 2] = 2**31
    refused(a, r"at \(1, 2\) is past the int32 range")
    a[1, 2] = 400_000_000  # fine alone, but (V - 1) * w must stay below 2**30 - 1
    refused(a, r"at \(1, 2\) is too large for V = 4.*<= 357913940")
    s = sp.csr_matrix(([1.0, np.nan], ([0, 2], [1, 3])), shape=(4, 4))
    refused(s, r"nan at \(2, 3\)")
    refused(np.ones((3, 3)), "scale must be positive", scale=-1.0)


def test_unweighted_ignores_the_weights():
    a = np.array([[0, -5.5], [0, 0]])
    np.testing.assert_array_equal(apsp_kokkos.floyd_warshall(a, unweighted=True), [[0, 1], [np.inf, 0]])


def test_bad_options():
    with pytest.raises(ValueError, match="Nonesuch"):
        apsp_kokkos.floyd_warshall(np.ones((3, 3)), backend="Nonesuch")
    with pytest.raises(ValueError, match="order must be"):
        apsp_kokkos.solve(np.ones((3, 3)), order="sideways")
    with pytest.raises(ValueError, match="block"):
        apsp_kokkos.solve(np.ones((3, 3)), block_size=7)


def test_bad_files(tmp_path):
    with pytest.raises(FileNotFoundError, match="nonexistent"):
        apsp_kokkos.read_graph(tmp_path / "nonexistent.bin")
    bad = tmp_path / "short.bin"
    bad.write_bytes(np.array([3, 2, 0, 1], dtype=np.int32).tobytes())
    with pytest.raises(ValueError, match="short.bin"):
        apsp_kokkos.read_graph(bad)
    out_of_range = tmp_path / "range.bin"
    out_of_range.write_bytes(np.array([3, 1, 0, 7, 1], dtype=np.int32).tobytes())
    with pytest.raises(ValueError, match=r"edge 0 \(0 -> 7"):
        apsp_kokkos.read_graph(out_of_range)
    text = tmp_path / "real.edges"
    text.write_text("0 1 2.5\n")
    with pytest.raises(ValueError, match="not an integer"):
        apsp_kokkos.read_graph(text)
