"""Speed of 400 double dummy with the bids (``kernels/core/bids_dd.py``), one thread.

Full deals: live deals of ``analyzer.games.t400.lead.live_deals`` (the EV bots' bids,
dananeer, scores 0, hearts trump, seat 1 leads), each solved by ``solve_bids`` and by
``solve_bids_made`` for seat 1 (the form ``t400 bid --model dd`` needs). Endings: random hands of
6 to 10 cards with random bids and tricks already won (as the exactness tests draw them). Every
figure is the median over ``--repeats`` runs of that run's median, mean and slowest solve.
Usage: ``python benchmarks/bids_dd_speed.py [--deals 30] [--endings 20] [--repeats 3] [--json]
[--write]``; ``--write`` keeps the figures in ``benchmarks/results/bids_dd_speed.json``, the table
of docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import numpy as np

from analyzer.games.t400.bidder import bot_array
from analyzer.games.t400.lead import live_deals
from analyzer.games.t400.rules import as_variant
from kernels.core import bids_dd

HEARTS = 1


def random_endings(n: int, size: int, seed: int):
    r = random.Random(seed * 100 + size)
    rows = []
    for _ in range(n):
        cards = r.sample(range(52), 4 * size)
        hands = [
            sum(1 << (16 * (c // 13) + c % 13) for c in cards[i * size : (i + 1) * size]) for i in range(4)
        ]
        won = [0, 0, 0, 0]
        for _ in range(13 - size):
            won[r.randrange(4)] += 1
        bids = [min(13, max(2, w + r.randint(0, size))) for w in won]
        values = [r.choice([2, 3, 4, 10, 27, 40]) for _ in range(4)]
        rows.append((np.array(hands, dtype=np.uint64), np.array(bids), np.array(values), np.array(won)))
    return rows


def time_rows(rows, table, context, player=None):
    times, nodes = [], []
    for hands, bids, values, won in rows:
        t0 = time.perf_counter()
        if player is None:
            bids_dd.solve_bids(hands, HEARTS, 0, bids, values, won, table, context)
        else:
            bids_dd.solve_bids_made(hands, HEARTS, 0, bids, values, won, player, -1, table, context, bids_dd.NO_GUESS,
                                    False)
        times.append(time.perf_counter() - t0)
        nodes.append(int(context[bids_dd.CTX_NODES]))
    return {"median_s": statistics.median(times), "mean_s": statistics.fmean(times), "max_s": max(times),
            "mean_nodes": statistics.fmean(nodes)}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--endings", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--write", action="store_true", help="keep the figures in benchmarks/results/")
    args = parser.parse_args()
    variant = as_variant("dananeer")
    hands, bids = live_deals(args.deals, args.seed, variant, bot_array(variant))
    values = np.array([[variant.bid_value(int(b), 0) for b in row] for row in bids], dtype=np.int64)
    zeros = np.zeros(4, dtype=np.int64)
    sets = {f"{size} cards": random_endings(args.endings, size, args.seed) for size in range(6, 11)}
    full = [(hands[i], bids[i], values[i], zeros) for i in range(len(hands))]
    table, context = bids_dd.new_table()
    time_rows(sets["6 cards"][:2], table, context)  # compile, not timed
    time_rows(sets["6 cards"][:2], table, context, player=0)
    runs: dict[str, list[dict]] = {}
    for _ in range(args.repeats):
        for name, rows in sets.items():
            runs.setdefault(name, []).append(time_rows(rows, table, context))
        runs.setdefault("13 cards (full deal)", []).append(time_rows(full, table, context))
        runs.setdefault("13 cards, seat 1 made or not", []).append(time_rows(full, table, context, player=0))
    result = {name: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for name, rs in runs.items()}
    result["memory_per_thread_bytes"] = bids_dd.TT_MEMORY_BYTES + bids_dd.CTX_SIZE * 8
    if args.write:
        import results

        results.write("bids_dd_speed", {"repeats": args.repeats, "sets": result})
    if args.json:
        print(json.dumps(result, indent=2))
        return
    for name, r in result.items():
        if isinstance(r, dict):
            print(f"{name:>30}: median {r['median_s'] * 1e3:.3g} ms, mean {r['mean_s'] * 1e3:.3g} ms, "
                  f"slowest {r['max_s'] * 1e3:.3g} ms, "
                  f"{r['mean_nodes']:,.0f} nodes a solve (median of {args.repeats} runs)")  # fmt: skip
    print(f"memory per thread: {result['memory_per_thread_bytes'] / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
