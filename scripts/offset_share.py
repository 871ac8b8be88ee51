#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Which phase-3 tile products of blocked Floyd-Warshall could run in 16-bit lanes, round by
round, on a small graph: the whole solve simulated in NumPy (every round's pivots one by one,
which gives the same matrix after each round as the three phases), and before each round k
every tile (i, j) off row and column k classified by its entries then:
  no finite   every entry INF (unreachable so far);
  small       a finite entry, and every entry at most 2^15 - 1 or INF (today's 16-bit rule for C);
  offsets     a finite entry, and its finite entries within 2^15 - 1 of a row offset plus a
              column offset (subtract each row's least, then each column's);
  with A, B   offsets, and the same of its operand tiles (i, k) and (k, j).
Prints each as a share of all those products. --order as in tile_spread.py. The matrix is
V x V doubles: V up to a few thousand.

  scripts/offset_share.py graph.bin [--block 64] [--order natural|bisect|morton] [--grid-width W]
"""
import argparse
import os
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tile_spread import add_order_options, after_offsets, read_renumbered  # noqa: E402

CAP = 2**15 - 1


def classify(d, v, b):
    """Per tile of the V x V matrix `d` (V a multiple of b): any finite entry, small, offsets."""
    nb = v // b
    t = d.reshape(nb, b, nb, b)
    finite = np.isfinite(t)
    small = np.all(~finite | (t <= CAP), axis=(1, 3))
    with warnings.catch_warnings():  # tiles without a finite entry
        warnings.simplefilter("ignore", RuntimeWarning)
        residual = np.nan_to_num(np.nanmax(after_offsets(np.where(finite, t, np.nan), 3, 1), axis=(1, 3)))
    return np.any(finite, axis=(1, 3)), small, residual < CAP


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("graph", help="a graph in the solver's binary format")
    ap.add_argument("--block", type=int, default=64, help="tile size B (default 64)")
    add_order_options(ap)
    args = ap.parse_args()
    b = args.block
    v, e, src, dst, weight = read_renumbered(ap, args, b)
    if v % b != 0:
        ap.error(f"V = {v} is not a multiple of the block {b}")
    d = np.full((v, v), np.inf)
    np.fill_diagonal(d, 0)
    np.minimum.at(d, (src, dst), weight)
    nb = v // b
    counts = {"no finite": 0, "small": 0, "offsets": 0, "offsets, with A and B": 0}
    products = 0
    for k in range(nb):
        finite, small, offsets = classify(d, v, b)
        off = np.ones((nb, nb), bool)
        off[k, :] = off[:, k] = False
        products += int(off.sum())
        counts["no finite"] += int((off & ~finite).sum())
        counts["small"] += int((off & finite & small).sum())
        counts["offsets"] += int((off & finite & offsets).sum())
        operands = offsets[:, k:k + 1] & offsets[k:k + 1, :]  # tiles (i, k) and (k, j)
        counts["offsets, with A and B"] += int((off & finite & offsets & operands).sum())
        for p in range(k * b, (k + 1) * b):
            np.minimum(d, d[:, p:p + 1] + d[p:p + 1, :], out=d)
    print(f"V = {v}, E = {e}, B = {b}, {args.order} order: {products} phase-3 tile products")
    for name, n in counts.items():
        print(f"{name}: {n / products * 100:.1f} %")


if __name__ == "__main__":
    main()
