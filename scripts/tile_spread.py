#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""How far a graph's final distance tiles are from 16-bit lanes: for a sample of tile rows,
each B x B tile's largest finite entry, its spread (largest minus smallest) and what is left
after the best per-row and per-column offsets (subtract each row's minimum, then each column's);
prints the median, the 10th percentile and the share of tiles under 2^15 - 1 for each. A tile
whose spread is over 2^15 - 1 cannot take a 16-bit product after any offset of the whole tile.
The distances are SciPy's Dijkstra from the sampled rows' sources (no solve of the whole graph).

  scripts/tile_spread.py graph.bin [--block 128] [--rows 5]
"""
import argparse
import warnings

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as cg


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("graph", help="a graph in the solver's binary format")
    ap.add_argument("--block", type=int, default=128, help="tile size B (default 128, the CUDA tile)")
    ap.add_argument("--rows", type=int, default=5, help="tile rows sampled, evenly spaced (default 5)")
    args = ap.parse_args()

    head = np.fromfile(args.graph, dtype="<i4", count=2)
    v, e = int(head[0]), int(head[1])
    edges = np.fromfile(args.graph, dtype="<i4", count=3 * e, offset=8).reshape(e, 3)
    g = sp.csr_matrix((edges[:, 2].astype(np.float64), (edges[:, 0], edges[:, 1])), shape=(v, v))
    b = args.block
    nb = (v + b - 1) // b
    cap = 2**15 - 1
    rows = sorted(set(int(t) for t in np.linspace(0, nb - 1, min(args.rows, nb))))
    figures = []  # per tile: largest finite entry, spread, after offsets (None: no finite entry)
    for ti in rows:
        d = cg.dijkstra(g, indices=np.arange(ti * b, min(v, (ti + 1) * b)))
        for tj in range(nb):
            t = d[:, tj * b : min(v, (tj + 1) * b)]
            finite = np.isfinite(t)
            if not finite.any():
                continue
            f = np.where(finite, t, np.nan)
            with warnings.catch_warnings():  # rows or columns without a finite entry stay NaN
                warnings.simplefilter("ignore", RuntimeWarning)
                shifted = f - np.nanmin(f, axis=1, keepdims=True)
                shifted = shifted - np.nanmin(shifted, axis=0, keepdims=True)
            figures.append((np.nanmax(f), np.nanmax(f) - np.nanmin(f), np.nanmax(shifted)))
    if not figures:
        print("no finite entry in the sampled tiles")
        return
    x = np.array(figures)
    print(f"V = {v}, E = {e}, B = {b}: {len(x)} tiles with finite entries in tile rows {rows}")
    for name, col in (("largest entry", 0), ("spread (largest - smallest)", 1), ("after row and column offsets", 2)):
        c = x[:, col]
        print(
            f"{name}: median {np.median(c):.0f}, 10th percentile {np.percentile(c, 10):.0f}, "
            f"under 2^15 - 1: {np.mean(c < cap) * 100:.1f} % of tiles"
        )


if __name__ == "__main__":
    main()
