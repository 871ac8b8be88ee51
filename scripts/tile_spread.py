#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""How far a graph's final distance tiles are from 16-bit lanes: for a sample of tile rows,
each B x B tile's largest finite entry, its spread (largest minus smallest) and what is left
after the best per-row and per-column offsets (subtract each row's minimum, then each column's);
prints the median, the 10th percentile and the share of tiles under 2^15 - 1 for each. A tile
whose spread is over 2^15 - 1 cannot take a 16-bit product after any offset of the whole tile.
The distances are SciPy's Dijkstra from the sampled rows' sources (no solve of the whole graph).

--order asks the same of the graph with its vertices renumbered, so that a tile holds vertices
close to one another: "bisect" (recursive halving of the undirected graph by hop distance from
two far-apart vertices, down to B vertices, from the edges alone), "nested" (nested dissection,
the separating level of each part numbered after its two sides: the solver's --order nested,
src/graph/vertex_order.cpp) or "morton" (a grid of --grid-width columns numbered row by row,
renumbered along a Z curve). A tile's spread is at
most the sum of the spans of its two vertex sets, so compact tiles have small spreads.

  scripts/tile_spread.py graph.bin [--block 128] [--rows 5] [--order natural|bisect|morton|nested]
"""
import argparse
import warnings

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as cg


def bisection_order(g, b):
    """Vertices in the order of a recursive halving of the undirected graph: each part split
    by (hops from u) - (hops from w), u and w far apart, into halves of whole tiles while it
    holds more than two."""
    sym = (g + g.T).tocsr()
    parts, todo = [], [np.arange(g.shape[0])]
    while todo:
        nodes = todo.pop()
        if len(nodes) <= b:
            parts.append(nodes)
            continue
        sub = sym[nodes][:, nodes]
        u = cg.breadth_first_order(sub, 0, directed=False, return_predecessors=False)[-1]
        hops_u = cg.shortest_path(sub, unweighted=True, indices=[u], directed=False)[0]
        w = int(np.argmax(np.where(np.isfinite(hops_u), hops_u, -1)))
        hops_w = cg.shortest_path(sub, unweighted=True, indices=[w], directed=False)[0]
        with np.errstate(invalid="ignore"):  # parts not reached from u or w sort last
            key = np.nan_to_num(hops_u - hops_w, nan=np.inf)
        by_key = nodes[np.argsort(key, kind="stable")]
        half = max(b, round(len(nodes) / 2 / b) * b) if len(nodes) > 2 * b else (len(nodes) + 1) // 2
        todo += [by_key[half:], by_key[:half]]  # the first half is split next
    return np.concatenate(parts)


def nested_order(g, b):
    """Vertices in nested-dissection order: each part (of the undirected graph) split by the
    middle level of a breadth-first search from a far vertex into the levels before it, the
    levels after it and the level itself (a separator: no edge joins the two sides), numbered in
    that order, the separator last; components one after the other; parts of at most b vertices
    in search order."""
    sym = (g + g.T).tocsr()

    def order(nodes):
        if len(nodes) <= b:
            return [nodes]
        sub = sym[nodes][:, nodes]
        n, label = cg.connected_components(sub, directed=False)
        if n > 1:
            return [part for c in range(n) for part in order(nodes[label == c])]
        u = cg.breadth_first_order(sub, 0, directed=False, return_predecessors=False)[-1]
        hops = cg.shortest_path(sub, unweighted=True, indices=[u], directed=False)[0].astype(np.int64)
        counts = np.bincount(hops)
        middle = int(np.searchsorted(np.cumsum(counts), len(nodes) / 2))
        if middle == 0 or middle == len(counts) - 1:  # no level splits it
            return [nodes[np.argsort(hops, kind="stable")]]
        return order(nodes[hops < middle]) + order(nodes[hops > middle]) + [nodes[hops == middle]]

    return np.concatenate(order(np.arange(g.shape[0])))


def morton_order(v, width):
    """Vertices r * width + c of a grid, along a Z curve over (r, c)."""
    r, c = np.arange(v) // width, np.arange(v) % width
    z = np.zeros(v, dtype=np.int64)
    for bit in range(16):
        z |= ((c >> bit) & 1) << (2 * bit) | ((r >> bit) & 1) << (2 * bit + 1)
    return np.argsort(z, kind="stable")


def add_order_options(ap):
    ap.add_argument("--order", choices=("natural", "bisect", "morton", "nested"), default="natural",
                    help="vertex numbering whose tiles are measured (default: the file's)")
    ap.add_argument("--grid-width", type=int, default=0, help="columns of the grid (--order morton)")


def read_renumbered(ap, args, b):
    """The graph of args.graph (the solver's binary format) as V, E and its edges (src, dst,
    weight as float64), the vertices renumbered as args.order says for tiles of b."""
    if args.order == "morton" and args.grid_width <= 0:
        ap.error("--order morton needs --grid-width")
    head = np.fromfile(args.graph, dtype="<i4", count=2)
    v, e = int(head[0]), int(head[1])
    edges = np.fromfile(args.graph, dtype="<i4", count=3 * e, offset=8).reshape(e, 3)
    src, dst, weight = edges[:, 0].astype(np.int64), edges[:, 1].astype(np.int64), edges[:, 2].astype(np.float64)
    if args.order != "natural":
        g = sp.csr_matrix((weight, (src, dst)), shape=(v, v))
        order = (bisection_order(g, b) if args.order == "bisect" else
                 nested_order(g, b) if args.order == "nested" else morton_order(v, args.grid_width))
        label = np.empty(v, dtype=np.int64)
        label[order] = np.arange(v)  # the new number of each vertex
        src, dst = label[src], label[dst]
    return v, e, src, dst, weight


def after_offsets(f, across, down):
    """f (NaN where INF) less the best row offsets (each row's least along axis `across`), then
    the best column offsets (each column's least along axis `down`); rows and columns without a
    finite entry stay NaN."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        f = f - np.nan_to_num(np.nanmin(f, axis=across, keepdims=True))
        return f - np.nan_to_num(np.nanmin(f, axis=down, keepdims=True))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("graph", help="a graph in the solver's binary format")
    ap.add_argument("--block", type=int, default=128, help="tile size B (default 128, the CUDA tile)")
    ap.add_argument("--rows", type=int, default=5, help="tile rows sampled, evenly spaced (default 5)")
    add_order_options(ap)
    args = ap.parse_args()
    b = args.block
    v, e, src, dst, weight = read_renumbered(ap, args, b)
    g = sp.csr_matrix((weight, (src, dst)), shape=(v, v))
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
            figures.append((np.nanmax(f), np.nanmax(f) - np.nanmin(f), np.nanmax(after_offsets(f, 1, 0))))
    if not figures:
        print("no finite entry in the sampled tiles")
        return
    x = np.array(figures)
    print(f"V = {v}, E = {e}, B = {b}, {args.order} order: {len(x)} tiles with finite entries in tile rows {rows}")
    for name, col in (("largest entry", 0), ("spread (largest - smallest)", 1), ("after row and column offsets", 2)):
        c = x[:, col]
        print(
            f"{name}: median {np.median(c):.0f}, 10th percentile {np.percentile(c, 10):.0f}, "
            f"under 2^15 - 1: {np.mean(c < cap) * 100:.1f} % of tiles"
        )


if __name__ == "__main__":
    main()
