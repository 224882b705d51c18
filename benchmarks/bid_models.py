"""``t400 bid``'s three models on the example hands: the rollout, 400 double dummy with the bids
(``dd``) and solo double dummy (``solo-dd``), as README's table "400 double dummy in the bid
analysis" shows them.

The hands are the report's ``EXAMPLE_HANDS`` and README's A5.AKQ73.KQ4.J82; seat 1, scores 0,
dananeer. ``dd`` and ``solo-dd`` solve the same ``--deals`` deals (same seed, same chunk), the
rollout samples to its default precision. Every figure comes with its standard error; the dd
time is the sampling time (compiling excluded).
Usage: ``python benchmarks/bid_models.py [--deals 48] [--seed 0] [--threads N] [--json]``.
"""

from __future__ import annotations

import argparse
import json

from analyzer.games.t400.advice import recommend_bid
from analyzer.reports.t400.guide import EXAMPLE_HANDS

HANDS = [hand for _, hand in EXAMPLE_HANDS] + ["A5.AKQ73.KQ4.J82"]


def summary(a) -> dict:
    """The recommendation, its EV and P(best), the trick mean and each bid's P(make), with SEs."""
    row = a.row(a.recommended)
    return {"bid": a.recommended, "ev": row.ev, "ev_se": row.ev_se, "p_best": a.p_best,
            "tricks_mean": a.tricks_mean, "tricks_mean_se": a.tricks_mean_se, "deals": a.samples,
            "seconds": a.elapsed_s, "p_make": {r.bid: [r.p_make, r.p_make_se] for r in a.rows}}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=48)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    recommend_bid(HANDS[0], model="dd", samples=1, threads=args.threads)  # compile, not timed
    rows = []
    for hand in HANDS:
        row = {"hand": hand}
        for model, samples in (("rollout", None), ("dd", args.deals), ("solo-dd", args.deals)):
            a = recommend_bid(hand, model=model, samples=samples, seed=args.seed, threads=args.threads)
            row[model] = summary(a)
        rows.append(row)
        if not args.json:
            r, d, s = row["rollout"], row["dd"], row["solo-dd"]
            print(f"| {hand} | {r['bid']} ({r['ev']:+.2f} ± {r['ev_se']:.2f}; {100 * r['p_best']:.0f}%) "
                  f"| {d['bid']} ({d['ev']:+.2f} ± {d['ev_se']:.2f}; {100 * d['p_best']:.0f}%) | {s['bid']} "
                  f"| {r['tricks_mean']:.2f} ± {r['tricks_mean_se']:.2f} / {d['tricks_mean']:.2f} ± "
                  f"{d['tricks_mean_se']:.2f} / {s['tricks_mean']:.2f} ± {s['tricks_mean_se']:.2f} "
                  f"| {d['seconds']:.0f} s |", flush=True)  # fmt: skip
    if args.json:
        print(json.dumps(rows))


if __name__ == "__main__":
    main()
