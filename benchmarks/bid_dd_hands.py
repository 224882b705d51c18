"""How long ``t400 bid --model dd`` takes at its default size on random hands, as a user meets it.

Random seat-1 hands (dealt from ``--seed``), scores 0, dananeer; each answered once by
``recommend_bid(model="dd")`` with the kernels compiled beforehand (one throw-away answer), the
sampling time of each (``elapsed_s``: compiling excluded) and the answer. Prints each hand's
seconds, recommendation and P(make) of it, then the median and the slowest; ``--json`` the rows.
Usage: ``python benchmarks/bid_dd_hands.py [--hands 30] [--seed 1] [--threads N] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import statistics

from analyzer.core.dealing import deal_hands
from analyzer.core.notation import Hand
from analyzer.games.t400.advice import recommend_bid


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    recommend_bid("AKQ5.KJ4.T93.862", model="dd", samples=1, threads=args.threads)  # compile, not timed
    rows = []
    for bits in deal_hands(args.hands, seed=args.seed)[:, 0]:
        hand = Hand(int(bits)).to_dot()
        a = recommend_bid(hand, model="dd", threads=args.threads)
        row = {"hand": hand, "seconds": a.elapsed_s, "bid": a.recommended, "deals": a.samples,
               "p_make": a.row(a.recommended).p_make, "p_make_se": a.row(a.recommended).p_make_se}  # fmt: skip
        rows.append(row)
        if not args.json:
            print(f"{hand:20s} {row['seconds']:6.1f} s  bid {row['bid']}  P(make) {100 * row['p_make']:.1f}% "
                  f"± {100 * row['p_make_se']:.1f}", flush=True)  # fmt: skip
    seconds = [r["seconds"] for r in rows]
    summary = {"hands": len(rows), "seed": args.seed, "median_s": statistics.median(seconds), "max_s": max(seconds),
               "rows": rows}  # fmt: skip
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"median {summary['median_s']:.1f} s, slowest {summary['max_s']:.1f} s over {len(rows)} hands")


if __name__ == "__main__":
    main()
