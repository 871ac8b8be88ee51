# SPDX-License-Identifier: BSD-3-Clause
"""A graph in SciPy's conventions, as the solver's edge list.

A dense array's non-edges are its zeros, infinities and NaNs; a sparse matrix's stored entries
are its edges (an explicit zero is an edge of weight 0; a stored infinity is none), as SciPy's
``floyd_warshall`` reads them. The diagonal is dropped (a self-loop never shortens a path) and
of repeated entries between the same pair the lightest counts (SciPy's rule for a CSR matrix
with repeated entries; SciPy refuses COO input, taken here by the same rule). Weights must be integers the solver
holds exactly, unless ``scale`` turns real weights into integers; anything else is a
``ValueError`` that names the entry. A CSR matrix or a C-ordered array is read by the module in
parallel (python/src/edge_arrays.cpp, the same rules); the NumPy pass here takes every other
input, and names the entry where that one finds a rule broken.
"""
import numpy as np
import scipy.sparse

from . import _core

#: The solver's distance of a pair with no path, in ``solve``'s int32 matrices (2**30 - 1).
INF = 1073741823


def _square(shape):
    if len(shape) != 2 or shape[0] != shape[1]:
        raise ValueError(f"csgraph must be a square matrix (V x V); its shape is {tuple(shape)}")
    return int(shape[0])


def _entries(csgraph):
    """(V, rows, cols, values) of the graph's edges, before any rule is applied."""
    if scipy.sparse.issparse(csgraph):
        V = _square(csgraph.shape)
        if csgraph.format == "csr":  # its arrays as they are: no COO copy (every stored entry counts)
            rows = np.repeat(np.arange(V, dtype=csgraph.indices.dtype), np.diff(csgraph.indptr))
            cols, values = csgraph.indices, csgraph.data
        else:
            coo = csgraph.tocoo()  # every stored entry, repeated ones too (the lightest counts)
            rows, cols, values = coo.row, coo.col, coo.data
        if values.dtype.kind == "f":
            finite = np.isfinite(values)  # a stored infinity is no edge, as in SciPy
            if finite.all():
                return V, rows, cols, values
            if np.isnan(values).any():
                i = int(np.flatnonzero(np.isnan(values))[0])
                raise ValueError(f"weight nan at ({rows[i]}, {cols[i]}): a stored entry must be a weight")
            return V, rows[finite], cols[finite], values[finite]
        return V, rows, cols, values
    a = np.asarray(csgraph)
    V = _square(a.shape)
    if a.dtype.kind == "f":
        mask = np.isfinite(a) & (a != 0)
    elif a.dtype.kind in "iub":
        mask = a != 0
    else:
        raise ValueError(f"csgraph has dtype {a.dtype}: numbers are needed")
    rows, cols = np.nonzero(mask)
    return V, rows, cols, a[mask]


def _first(where, rows, cols, values):
    i = int(np.flatnonzero(where)[0])
    return values[i], int(rows[i]), int(cols[i])


def _integer_weights(V, rows, cols, values, scale):
    """The weights as int32, every rule checked; ValueError naming the first entry that breaks one."""
    most = INF - 1 if V <= 1 else (INF - 1) // (V - 1)
    if scale is None and values.dtype.kind == "f":  # one pass where every weight is good (the usual case)
        if ((values >= 0) & (values <= most) & (values == np.floor(values))).all():
            return values.astype(np.int32)
    if scale is not None:
        if not scale > 0:
            raise ValueError(f"scale must be positive, not {scale}")
        scaled = values.astype(np.float64) * scale  # rounded half away from zero, exactly, as --scale's llround
        whole = np.trunc(scaled)  # (floor(|x| + 0.5) rounds 0.49999999999999994 up)
        values = whole + np.where(np.abs(scaled - whole) >= 0.5, np.copysign(1.0, scaled), 0.0)
    elif values.dtype.kind == "f" and (bad := values != np.floor(values)).any():
        w, i, j = _first(bad, rows, cols, values)
        raise ValueError(f"weight {w} at ({i}, {j}) is not an integer: pass scale= to take real weights")
    if (bad := values < 0).any():
        w, i, j = _first(bad, rows, cols, values)
        raise ValueError(f"weight {w} at ({i}, {j}) is negative: the solver takes weights >= 0")
    if (bad := values > np.iinfo(np.int32).max).any():
        w, i, j = _first(bad, rows, cols, values)
        raise ValueError(f"weight {w} at ({i}, {j}) is past the int32 range")
    if (bad := values > most).any():
        w, i, j = _first(bad, rows, cols, values)
        raise ValueError(f"weight {w} at ({i}, {j}) is too large for V = {V}: every path must stay "
                         f"below 2**30 - 1, so weights <= {most}")
    return values.astype(np.int32)


def _edges_in_parallel(csgraph, directed, unweighted, scale):
    """(V, edges) by the module's parallel pass over a CSR matrix's or a C-ordered dense array's
    own memory; None where that pass cannot say (another format, dtype or layout, or an entry
    that breaks a rule: edge_list's own pass then names it)."""
    if scale is not None and not scale > 0:
        return None
    flags = (bool(directed), bool(unweighted), float(scale or 0.0))
    if scipy.sparse.issparse(csgraph):
        if csgraph.format != "csr" or len(csgraph.shape) != 2 or csgraph.shape[0] != csgraph.shape[1]:
            return None
        V = int(csgraph.shape[0])
        edges = _core.edges_of_arrays(V, csgraph.data, csgraph.indptr, csgraph.indices, *flags)
    elif (isinstance(csgraph, np.ndarray) and csgraph.ndim == 2 and csgraph.shape[0] == csgraph.shape[1]
          and csgraph.dtype.kind in "fiub" and csgraph.flags.c_contiguous):
        V = int(csgraph.shape[0])
        edges = _core.edges_of_arrays(V, csgraph, None, None, *flags)
    else:
        return None
    return None if edges is None else (V, edges)


def edge_list(csgraph, directed=True, unweighted=False, scale=None):
    """(V, edges): the graph as an (E, 3) int32 array of (source, target, weight)."""
    fast = _edges_in_parallel(csgraph, directed, unweighted, scale)
    return fast if fast is not None else _edges_by_numpy(csgraph, directed, unweighted, scale)


def _edges_by_numpy(csgraph, directed, unweighted, scale):
    """edge_list's own pass, in NumPy: every input, every rule, the first broken one named."""
    V, rows, cols, values = _entries(csgraph)
    off_diagonal = rows != cols
    if not off_diagonal.all():
        rows, cols, values = rows[off_diagonal], cols[off_diagonal], values[off_diagonal]
    if unweighted:
        weights = np.ones(len(rows), dtype=np.int32)
    else:
        weights = _integer_weights(V, rows, cols, values, scale)
    count = len(rows) * (1 if directed else 2)
    edges = np.empty((count, 3), dtype=np.int32)
    edges[: len(rows), 0], edges[: len(rows), 1], edges[: len(rows), 2] = rows, cols, weights
    if not directed:  # each edge both ways; the lighter of a pair counts
        edges[len(rows):, 0], edges[len(rows):, 1], edges[len(rows):, 2] = cols, rows, weights
    return V, edges


def lightest_edges(V, edges):
    """A sparse matrix of the edges (CSR), of repeated edges the lightest, self-loops dropped."""
    src, dst, w = (edges[:, k].astype(np.int64) for k in range(3))
    keep = src != dst
    src, dst, w = src[keep], dst[keep], w[keep]
    order = np.lexsort((w, dst, src))
    src, dst, w = src[order], dst[order], w[order]
    first = np.ones(len(src), dtype=bool)
    first[1:] = (src[1:] != src[:-1]) | (dst[1:] != dst[:-1])
    make = getattr(scipy.sparse, "csr_array", scipy.sparse.csr_matrix)
    return make((w[first].astype(np.float64), (src[first], dst[first])), shape=(V, V))
