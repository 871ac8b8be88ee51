#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Predicted parallel efficiency of the MPI layer's row split (docs/scaling.md).

Per round k of V/B rounds, with the look-ahead of one round:
  - every rank: phase 3 on its n/P tile rows, n * (n/P) * B relaxations at the measured rate R;
  - the critical chain, hidden behind that phase 3 while it is shorter: the owner's phase 1 and
    the pivot row's phase 2 (n * B * B relaxations), then the pivot-row broadcast of 4 * B * n bytes
    (S / link rate + a per-hop latency for a pipelined chain over P ranks).
A round lasts max(phase 3 share, chain); efficiency = (one GPU's round / P) / that. A rank must
also hold its n/P rows (4 * n * n/P bytes) and two pivot row blocks in device memory.

Every input is a flag; the defaults are the figures in docs/scaling.md (measured ones marked
there, published link rates and assumed latencies marked as such). Prints predictions only.
"""
import argparse


def round_times(v, p, a):
    n = -(-v // a.block) * a.block  # padded to whole tiles
    phase3 = n * (n / p) * a.block / a.rate
    pivot_bytes = 4 * a.block * n
    link = a.node_link if p <= a.gpus_per_node else a.network_link
    hop = a.node_hop_latency if p <= a.gpus_per_node else a.network_hop_latency
    t12 = a.t1 + n * a.block * a.block / a.phase2_rate  # phase 1, then the pivot row's phase 2
    chain = t12 + pivot_bytes / link + hop * max(0, p - 1)
    one_gpu = n * n * a.block / a.rate
    return n, phase3, chain, one_gpu


def block_times(v, p, a, layout):
    """(blocks, band, chain, extra, one GPU's solve) of blocks of a.blocks rounds across ranks
    (mpi/distributed_blocks.hpp): per block every rank relaxes its share through the block's R B
    pivots (band); the chain the others may wait for is the owner's look-ahead (the next block's
    rows and its opening: 2 R B rows of its share, at the fused rate) and the transfer of the
    block's rows (1D: 4 R B n bytes to every rank; 2D on a sqrt(P) x sqrt(P) grid: 4 R B n /
    sqrt(P) bytes of rows and as many of columns). Over the whole solve each rank also does its
    share of the row strips, a fraction R B / n of its work (extra)."""
    n = -(-v // a.block) * a.block
    rb = a.blocks * a.block
    across = n if layout == "1d" else n / p ** 0.5  # the columns of a rank's strip
    band = n * (n / p) * rb / a.fused_rate
    moved = 4 * rb * n if layout == "1d" else 2 * 4 * rb * n / p ** 0.5
    link = a.node_link if p <= a.gpus_per_node else a.network_link
    hop = a.node_hop_latency if p <= a.gpus_per_node else a.network_hop_latency
    chain = 2 * rb * across * rb / a.fused_rate + moved / link + hop * max(0, (p if layout == "1d" else p ** 0.5) - 1)
    extra = (n / p) * n * rb / a.fused_rate
    return n / rb, band, chain, extra, n * n * n / a.rate_one


def print_blocks(a):
    print(f"PREDICTION (not a measurement): blocks of {a.blocks} rounds across ranks, B={a.block}, fused "
          f"{a.fused_rate:.3g}/s per GPU (one GPU alone {a.rate_one:.3g}/s), links {a.node_link / 1e9:.0f} GB/s in a "
          f"node of {a.gpus_per_node}, {a.network_link / 1e9:.0f} GB/s between nodes")
    print("| V | layout | " + " | ".join(f"P={p}" for p in a.gpus) + " |")
    print("| --- | --- |" + " --- |" * len(a.gpus))
    for v in a.sizes:
        for layout in ("1d", "2d"):
            cells = []
            for p in a.gpus:
                blocks, band, chain, extra, one = block_times(v, p, a, layout)
                solve = blocks * max(band, chain) + extra
                cells.append(f"{100 * one / p / solve:.0f} % ({solve:.3g} s)")
            name = "tile-row bands" if layout == "1d" else "2D grid"
            print(f"| {v} | {name} | " + " | ".join(cells) + " |")


def chain_exceeds_phase3(v, p, a):
    _, phase3, chain, _ = round_times(v, p, a)
    return chain > phase3


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--block", type=int, default=128, help="B")
    ap.add_argument("--rate", type=float, default=1.538e13, help="phase 3 relaxations/s per GPU (H200, 4acd697)")
    ap.add_argument("--t1", type=float, default=130e-6, help="phase 1 of a round (one tile, one team), s")
    ap.add_argument("--phase2-rate", type=float, default=1.19e13, help="relaxations/s of the pivot row's phase 2")
    ap.add_argument("--gpus-per-node", type=int, default=8)
    ap.add_argument("--node-link", type=float, default=450e9, help="bytes/s per GPU in a node (NVLink 4, one way)")
    ap.add_argument("--network-link", type=float, default=50e9, help="bytes/s per GPU between nodes (InfiniBand NDR)")
    ap.add_argument("--node-hop-latency", type=float, default=3e-6, help="s per hop of a pipelined broadcast")
    ap.add_argument("--network-hop-latency", type=float, default=5e-6)
    ap.add_argument("--device-memory", type=float, default=141e9, help="bytes per GPU (H200)")
    ap.add_argument("--sizes", type=int, nargs="+", default=[100000, 200000, 500000, 1000000])
    ap.add_argument("--gpus", type=int, nargs="+", default=[8, 16, 32, 64, 128, 256, 512, 1024])
    ap.add_argument("--blocks", type=int, default=0, help="rounds per block across ranks: the blocks model instead")
    ap.add_argument("--fused-rate", type=float, default=2.832e13,
                    help="relax/s of a rank's products in blocks (H200, fa06fe9: V = 40000 at one rank, blocks of 16)")
    ap.add_argument("--rate-one", type=float, default=2.889e13, help="one GPU alone, relax/s (H200, fa06fe9, V = 40000)")
    a = ap.parse_args()
    if a.blocks > 0:
        print_blocks(a)
        return

    print("PREDICTION (not a measurement): row split, look-ahead of one round; "
          f"B={a.block}, R={a.rate:.3g}/s per GPU, phase 1 {a.t1 * 1e6:.0f} us, phase 2 at {a.phase2_rate:.3g}/s, "
          f"links {a.node_link / 1e9:.0f} GB/s in a node of {a.gpus_per_node}, {a.network_link / 1e9:.0f} GB/s between nodes")
    print("| V | " + " | ".join(f"P={p}" for p in a.gpus) + " | P where the chain exceeds phase 3 |")
    print("| --- |" + " --- |" * (len(a.gpus) + 1))
    for v in a.sizes:
        cells = []
        for p in a.gpus:
            n, phase3, chain, one = round_times(v, p, a)
            rows_bytes = 4 * n * (n / p) + 2 * 4 * a.block * n
            if rows_bytes > 0.95 * a.device_memory:
                cells.append("does not fit")
                continue
            eff = (one / p) / max(phase3, chain)
            solve = (n // a.block) * max(phase3, chain)
            cells.append(f"{100 * eff:.0f} % ({solve:.3g} s)")
        crossover = next((p for p in range(1, 1 << 20) if chain_exceeds_phase3(v, p, a)), None)
        print(f"| {v} | " + " | ".join(cells) + f" | {crossover} |")


if __name__ == "__main__":
    main()
