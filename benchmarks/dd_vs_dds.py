"""Double-dummy speed against DDS (the endplay package), measured in one run.

The same random full deals (hearts trump, seat 1 leading) are solved single-threaded by our
``team`` mode and by DDS's ``solve_board`` with one optimal card; the ratio of mean and median
times is printed, then ``solo`` mode's times and the batch throughput on all threads. Then the
full tables (all 20 trump and leader results) of the first ``--tables`` deals, ours
(``dd.solve_table``) against DDS's ``calc_dd_table``, both on one thread (DDS's ``SetMaxThreads(1)``).
Results are checked to agree. Usage:
``python benchmarks/dd_vs_dds.py [--deals 200] [--tables 50] [--seed 1] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import numpy as np
from endplay import _dds
from endplay.dds import calc_dd_table, solve_board
from endplay.dds.solve import SolveMode
from endplay.types import Deal, Denom, Player

from analyzer.core.runtime import max_threads, threads_used
from analyzer.core.solve import solve_batch
from kernels.core import dd


def random_deals(n: int, seed: int) -> list[list[int]]:
    r = random.Random(seed)
    deals = []
    for _ in range(n):
        deck = [16 * s + k for s in range(4) for k in range(13)]
        r.shuffle(deck)
        deals.append([sum(1 << c for c in deck[13 * q : 13 * (q + 1)]) for q in range(4)])
    return deals


def pbn(bits: list[int]) -> str:
    return "N:" + " ".join(
        ".".join(
            "".join("23456789TJQKA"[k] for k in range(12, -1, -1) if b >> (16 * s + k) & 1) for s in range(4)
        )
        for b in bits
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--tables", type=int, default=50, help="deals whose full tables are timed")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    deals = random_deals(args.deals, args.seed)
    hands = np.array(deals, dtype=np.uint64)
    W = dd.new_workspace()
    T = dd.new_table()
    dd.solve_one(W, T, hands[0], 1, 0, dd.TEAM, 0)  # compile / load, excluded from timing
    dd.clear_table(T)

    ours, theirs, solo, diffs = [], [], [], 0
    for i, bits in enumerate(deals):
        start = time.perf_counter()
        got = dd.solve_one(W, T, hands[i], 1, 0, dd.TEAM, 0)
        ours.append(time.perf_counter() - start)
        deal = Deal.from_pbn(pbn(bits))
        deal.trump = Denom.hearts
        deal.first = Player.north
        start = time.perf_counter()
        expected = max(score for _, score in solve_board(deal, SolveMode.OptimalOne))
        theirs.append(time.perf_counter() - start)
        diffs += got != expected
    for i in range(len(deals)):
        start = time.perf_counter()
        dd.solve_one(W, T, hands[i], 1, 0, dd.SOLO, 0)
        solo.append(time.perf_counter() - start)

    threads = max_threads()
    workspaces = np.zeros((threads, dd.W_SIZE), dtype=np.int64)
    tables = dd.new_tables(threads)
    with threads_used(threads):
        solve_batch(hands[:2], 1, 0, dd.TEAM, 0, workspaces, tables)
        for t in tables:
            dd.clear_table(t)
        start = time.perf_counter()
        solve_batch(hands, 1, 0, dd.TEAM, 0, workspaces, tables)
        batch = time.perf_counter() - start

    table_ours, table_theirs, table_diffs = time_tables(deals[: args.tables], hands[: args.tables])

    ms = 1000.0
    result = {
        "deals": len(deals),
        "seed": args.seed,
        "differences": diffs,
        **compare(ours, theirs, "team", "dds", "ratio"),
        "solo_mean_ms": statistics.mean(solo) * ms,
        "solo_median_ms": statistics.median(solo) * ms,
        "batch_threads": threads,
        "batch_deals_per_s": len(deals) / batch,
        "table_mib": dd.TT_MEMORY_BYTES / 2**20,
        "full_tables": len(table_ours),
        "full_table_differences": table_diffs,
        **compare(table_ours, table_theirs, "full_table", "dds_full_table", "full_table_ratio"),
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{len(deals)} random deals, hearts trump, seat 1 leads, single thread (seed {args.seed})")
    print(f"team mode: mean {result['team_mean_ms']:.1f} ms, median {result['team_median_ms']:.1f} ms")
    print(f"DDS      : mean {result['dds_mean_ms']:.1f} ms, median {result['dds_median_ms']:.1f} ms")
    print(
        f"ratio    : mean {result['ratio_mean']:.2f}, median {result['ratio_median']:.2f}; differences: {diffs}"
    )
    print(f"solo mode: mean {result['solo_mean_ms']:.1f} ms, median {result['solo_median_ms']:.1f} ms")
    print(f"batch on {threads} threads: {result['batch_deals_per_s']:.1f} deals/s (team mode)")
    print(
        f"full tables ({len(table_ours)} deals, 20 results each): mean {result['full_table_mean_ms']:.1f} ms, "
        f"median {result['full_table_median_ms']:.1f} ms; DDS calc_dd_table mean "
        f"{result['dds_full_table_mean_ms']:.1f} ms, median {result['dds_full_table_median_ms']:.1f} ms; ratio "
        f"mean {result['full_table_ratio_mean']:.2f}, median {result['full_table_ratio_median']:.2f}; "
        f"differences: {table_diffs}"
    )


def compare(
    ours: list[float], theirs: list[float], ours_name: str, theirs_name: str, ratio_name: str
) -> dict:
    """Mean and median of both timings (ms) and the ratios of ours to theirs, under these names."""
    mean, median = statistics.mean, statistics.median
    return {
        f"{ours_name}_mean_ms": mean(ours) * 1000.0,
        f"{ours_name}_median_ms": median(ours) * 1000.0,
        f"{theirs_name}_mean_ms": mean(theirs) * 1000.0,
        f"{theirs_name}_median_ms": median(theirs) * 1000.0,
        f"{ratio_name}_mean": mean(ours) / mean(theirs),
        f"{ratio_name}_median": median(ours) / median(theirs),
    }


def time_tables(deals: list[list[int]], hands: np.ndarray) -> tuple[list[float], list[float], int]:
    """Seconds per full table, ours and DDS's (one thread each), and the cells that differ. DDS
    gives the declarer's tricks with the declarer's left-hand opponent on lead; ours, seats 1+3's
    tricks for each leader."""
    W = dd.new_workspace()
    T = dd.new_table()
    out = np.zeros((5, 4), dtype=np.int64)
    dd.solve_table(W, T, hands[0], out, np.zeros(1, np.uint8))  # compile / load, excluded from timing
    dd.clear_table(T)
    _dds.SetMaxThreads(1)
    ours, theirs, diffs = [], [], 0
    for i, bits in enumerate(deals):
        start = time.perf_counter()
        dd.solve_table(W, T, hands[i], out, np.zeros(1, np.uint8))
        ours.append(time.perf_counter() - start)
        deal = Deal.from_pbn(pbn(bits))
        start = time.perf_counter()
        table = calc_dd_table(deal)
        theirs.append(time.perf_counter() - start)
        for strain in range(5):
            for leader in range(4):
                declarer = (leader + 3) % 4
                tricks = table[Denom(strain), Player(declarer)]
                diffs += out[strain, leader] != (tricks if declarer % 2 == 0 else 13 - tricks)
    return ours, theirs, int(diffs)


if __name__ == "__main__":
    main()
