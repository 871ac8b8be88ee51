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
  with A, B   offsets, and the same of its operand tiles (i, k) and (k, j);
and by its operands:
  left out    A (tile (i, k)) or Bk (tile (k, j)) is INF alone: the product changes nothing,
              and the solver leaves it out;
  16-bit today
              not left out, and in 16-bit lanes by today's rule (gpu/packed_tiles.hpp: C at most
              2^15 - 1, or C's finite entries below it and both operands' at most
              (2^15 - 2) / 2);
  16-bit after operand offsets
              not left out, and exact in 16-bit lanes after subtracting from A's row i its
              least finite entry r_i and from Bk's column j its least s_j (C entering as
              c - r_i - s_j, clamped to [0, 2^15 - 1], and min(c, r_i + s_j + lane) written
              back where the lane ends below 2^15 - 1): either every finite entry of both
              operands is within (2^15 - 2) / 2 of its row's (column's) least, or C holds no
              INF and every c - r_i - s_j is at most 2^15 - 1 (the two cases of
              gpu/packed_tiles.hpp, with offsets).
Prints each as a share of all those products. --check also runs each product counted as
16-bit after operand offsets as 16-bit lanes would (every lane an integer in [0, 2^16), no add
wrapping) and prints how many of them differ from the exact product. --order as in
tile_spread.py. The matrix is V x V doubles: V up to a few thousand.

  scripts/offset_share.py graph.bin [--block 64] [--order natural|bisect|morton|nested] [--grid-width W] [--check]
"""
import argparse
import os
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tile_spread import add_order_options, after_offsets, read_renumbered  # noqa: E402

CAP = 2**15 - 1
SMALL = (CAP - 1) // 2


def operand_offsets(d, v, b, k):
    """Round k's operands: per tile row i, A = tile (i, k): any finite entry, each row's least
    finite entry r (0 where none), the largest spread of a row's finite entries and the largest
    finite entry; the same per tile column j of Bk = tile (k, j), by columns (s)."""
    nb = v // b
    a = d[:, k * b:(k + 1) * b].reshape(nb, b, b)  # [i, row, pivot]
    bk = d[k * b:(k + 1) * b, :].reshape(b, nb, b).transpose(1, 0, 2)  # [j, pivot, column]

    def least_and_spread(x, axis):
        fin = np.isfinite(x)
        lo = np.where(fin, x, np.inf).min(axis=axis)
        hi = np.where(fin, x, -np.inf).max(axis=axis)
        has = np.isfinite(lo)
        return (fin.any(axis=(1, 2)), np.where(has, lo, 0), np.where(has, hi - lo, 0).max(axis=1),
                np.where(has, hi, 0).max(axis=1))

    return least_and_spread(a, 2) + least_and_spread(bk, 1)


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


def lanes_product(c, a, bk, r, s):
    """C after the product through A and Bk in 16-bit lanes with row offsets r (A's rows, C's
    rows) and column offsets s (Bk's columns, C's columns), as the 16-bit path would compute it."""
    def capped(x):
        return np.where(np.isfinite(x), np.minimum(x, CAP), CAP)
    a16 = capped(a - r[:, None])
    b16 = capped(bk - s[None, :])
    c16 = np.clip(np.where(np.isfinite(c), c - r[:, None] - s[None, :], CAP), 0, CAP)
    sums = a16[:, :, None] + b16[None, :, :]
    assert sums.max() < 2**16  # no lane wraps
    lane = np.minimum(c16, sums.min(axis=1))
    return np.where(lane < CAP, np.minimum(c, r[:, None] + s[None, :] + lane), c)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("graph", help="a graph in the solver's binary format")
    ap.add_argument("--block", type=int, default=64, help="tile size B (default 64)")
    add_order_options(ap)
    ap.add_argument("--check", action="store_true", help="run the 16-bit products with offsets, count those that differ")
    args = ap.parse_args()
    b = args.block
    v, e, src, dst, weight = read_renumbered(ap, args, b)
    if v % b != 0:
        ap.error(f"V = {v} is not a multiple of the block {b}")
    d = np.full((v, v), np.inf)
    np.fill_diagonal(d, 0)
    np.minimum.at(d, (src, dst), weight)
    nb = v // b
    counts = {"no finite": 0, "small": 0, "offsets": 0, "offsets, with A and B": 0, "left out": 0,
              "16-bit today": 0, "16-bit after operand offsets": 0}
    products = checked = wrong = 0
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
        a_any, r, a_spread, a_max, b_any, s, b_spread, b_max = operand_offsets(d, v, b, k)
        left_out = ~(a_any[:, None] & b_any[None, :])
        both_close = (a_spread <= SMALL)[:, None] & (b_spread <= SMALL)[None, :]
        t = d.reshape(nb, b, nb, b)
        with np.errstate(invalid="ignore"):  # INF - INF nowhere: r and s are finite
            c_over = (t - r[:, :, None, None] - s[None, None, :, :]).max(axis=(1, 3))
        no_inf = np.isfinite(t).all(axis=(1, 3))
        sixteen = both_close | (no_inf & (c_over <= CAP))
        c_max = np.where(np.isfinite(t), t, 0).max(axis=(1, 3))
        small_ops = (a_max <= SMALL)[:, None] & (b_max <= SMALL)[None, :]
        today = (no_inf & (c_max <= CAP)) | (~no_inf & (c_max < CAP) & small_ops)
        counts["16-bit today"] += int((off & ~left_out & today).sum())
        counts["left out"] += int((off & left_out).sum())
        counts["16-bit after operand offsets"] += int((off & ~left_out & sixteen).sum())
        if args.check:
            for i, j in zip(*np.nonzero(off & ~left_out & sixteen)):
                c, a, bk = t[i, :, j, :], t[i, :, k, :], t[k, :, j, :]
                exact = np.minimum(c, (a[:, :, None] + bk[None, :, :]).min(axis=1))
                wrong += int(not np.array_equal(lanes_product(c, a, bk, r[i], s[j]), exact))
                checked += 1
        for p in range(k * b, (k + 1) * b):
            np.minimum(d, d[:, p:p + 1] + d[p:p + 1, :], out=d)
    print(f"V = {v}, E = {e}, B = {b}, {args.order} order: {products} phase-3 tile products")
    for name, n in counts.items():
        print(f"{name}: {n / products * 100:.1f} %")
    if args.check:
        print(f"checked {checked} products in 16-bit lanes after operand offsets: {wrong} differ from the exact product")


if __name__ == "__main__":
    main()
