"""Card play in 400 measured in points: every card against the 400 double dummy with the bids.

400 has no partnership-tricks objective: each player plays for the points of the bids at the
table (their own and their partner's made, the other side's set). The yardstick is therefore the
project's 400 double dummy with the bids (``analyzer.core.solve.targets_score_at``: seats 1+3's
points minus seats 2+4's under best play by all four, each side for its points). On live deals
(the EV bots' bids, dead hands skipped; seat 1 leads, hearts trump) every card a policy plays is
scored: the points its side keeps after the card against the best legal card in the same
position. A card *costs* when its side loses points. Reported, each with its standard error
(deals are the sampling unit: the ratio estimator's delta-method SE over deals):

* per card kind (lead, follow, ruff, discard) and position in the trick; the opening lead;
* before and after the player's own bid is made (the decisions after a made bid are where
  the first round of card play left known losses);
* points lost per deal over the four players.

``benchmarks/play_vs_dd.py`` measures the same cards in partnership double-dummy tricks (the
bridge measure; DDS): the two disagree where a trick that helps the partnership hurts a bid.

* with ``--pimc-deals N``: the *pimc* reference player (sampled layouts, each legal card valued
  by the same double dummy, the best on average) at seats 1+3 against the policy, then the seats
  swapped: its points lost per card, and the duplicate difference in points a hand with its 95%
  interval. pimc's layouts fit what the table has shown: the cards played, the voids, and the
  bids (each other seat's whole hand is one on which the EV bot bids what that seat bid:
  :class:`BidReader`); ``--pimc-blind`` ignores the bids, as the reference did before 2026-12-03.

``--policy pimc`` measures the per-card table with pimc at all four seats (``--pimc-samples``
layouts a decision): what the reference player itself loses against the double dummy on the same
deals, a yardstick for what play without sight of the hidden hands can reach.

Usage: ``python benchmarks/play_vs_bids_dd.py [--policy standard] [--deals 100] [--seed 1]
[--pimc-deals 0] [--pimc-samples 10] [--pimc-blind] [--json] [--out FILE]``.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from copy import deepcopy

import numpy as np
from play_vs_dd import (  # the benchmark beside
    KINDS,
    Position,
    emit,
    mean_ci,
    points_13_minus_24,
    sample_layouts,
)

from analyzer.core.notation import Card
from analyzer.core.pimc import values_with_bids
from analyzer.core.policies import policy_id
from analyzer.core.solve import targets_score_at
from analyzer.games.t400 import simulate
from analyzer.games.t400.lead import live_deals
from analyzer.games.t400.pimc import BidReader
from analyzer.games.t400.rules import Variant


def value(pos: Position, values) -> int:
    """Seats 1+3's points minus seats 2+4's under best play from ``pos`` (the 400 double dummy)."""
    trick = [Card.from_index(c) for c in pos.trick]
    return targets_score_at(pos.hands, trick, pos.leader + 1, pos.bids, values, pos.taken, trump="hearts")


def after(pos: Position, card: int, values) -> int:
    nxt = deepcopy(pos)
    nxt.play(card)
    if nxt.played.bit_count() == 52:
        tricks = nxt.taken
        made = [(1 if t >= b else -1) * v for t, b, v in zip(tricks, nxt.bids, values)]
        return made[0] + made[2] - made[1] - made[3]
    return value(nxt, values)


def pimc_card(pos: Position, values, samples: int, rng: random.Random, sampler=sample_layouts) -> int:
    """The *pimc* reference player in points: ``samples`` layouts of the unseen cards from
    ``sampler`` (consistent with what the mover has seen: its hand, the cards played, the voids
    shown; :meth:`BidReader.layouts` also fits the bids), every legal card valued by the 400 double
    dummy with the bids on each (:func:`analyzer.core.pimc.values_with_bids`, the product's), the
    best on average (ties to the lowest card)."""
    legal = pos.legal()
    if len(legal) == 1:
        return legal[0]
    sign = 1 if pos.mover % 2 == 0 else -1
    totals = sign * values_with_bids(pos, sampler(pos, samples, rng), legal, values).sum(axis=0)
    return max(zip(legal, totals), key=lambda x: (x[1], -(x[0] & 15)))[0]


def measure(hands, bids, policy: int, values_of, players=None, seats=(0, 1, 2, 3), rng=None) -> tuple[list[tuple], list[int]]:
    """(kind, position in trick, opening lead, bid made before the card, points lost) for every
    card of one deal that ``seats`` play, and the tricks each seat took. ``players``: per seat,
    a kernel policy id or ("pimc", samples, sampler); all four ``policy`` by default."""
    pos = Position(hands, bids)
    values = values_of(bids)
    players = players or [policy] * 4
    out = []
    for _ in range(52):
        who = players[pos.mover]
        card = pimc_card(pos, values, who[1], rng, who[2]) if isinstance(who, tuple) else pos.kernel_card(who)
        legal = pos.legal()
        mover = pos.mover
        if mover not in seats:
            pos.play(card)
            continue
        sign = 1 if mover % 2 == 0 else -1
        if len(legal) == 1:
            loss = 0
        else:
            scores = {c: sign * after(pos, c, values) for c in legal}
            # double dummy: the position is worth what its best card keeps (a check of the solver)
            assert max(scores.values()) == sign * value(pos, values), (pos.trick, scores)
            loss = max(scores.values()) - scores[card]
        made = pos.taken[mover] >= pos.bids[mover]
        out.append((pos.kind(card), len(pos.trick) + 1, pos.played == 0, made, loss))
        pos.play(card)
    return out, pos.taken


def ratio(deals: list[list[tuple]], keep) -> dict:
    """Points lost per card and the share of costly cards among the cards ``keep`` selects, with
    standard errors over deals (ratio estimator, delta method)."""
    n = np.array([sum(1 for x in d if keep(x)) for d in deals], dtype=float)
    loss = np.array([sum(x[4] for x in d if keep(x)) for d in deals], dtype=float)
    costly = np.array([sum(x[4] > 0 for x in d if keep(x)) for d in deals], dtype=float)
    total = n.sum()
    if total == 0:
        return {"cards": 0}

    def est(y):
        r = y.sum() / total
        m = len(deals)
        resid = y - r * n
        se = math.sqrt(m / (m - 1) * (resid**2).sum()) / total if m > 1 else float("nan")
        return r, se

    per_card, per_card_se = est(loss)
    share, share_se = est(costly)
    return {"cards": int(total), "points_per_card": per_card, "points_per_card_se": per_card_se,
            "costly": share, "costly_se": share_se}  # fmt: skip


def table(deals: list[list[tuple]]) -> dict:
    out = {}
    for kind in KINDS:
        out[kind] = ratio(deals, lambda x, k=kind: x[0] == k)
        for position in (1, 2, 3, 4):
            row = ratio(deals, lambda x, k=kind, p=position: x[0] == k and x[1] == p)
            if row["cards"]:
                out[f"{kind} {position}"] = row
    out["opening lead"] = ratio(deals, lambda x: x[2])
    out["before the bid is made"] = ratio(deals, lambda x: not x[3])
    out["after the bid is made"] = ratio(deals, lambda x: x[3])
    out["all"] = ratio(deals, lambda x: True)
    per_deal = np.array([sum(x[4] for x in d) for d in deals], dtype=float)
    out["points_lost_per_deal"] = float(per_deal.mean())
    out["points_lost_per_deal_se"] = float(per_deal.std(ddof=1) / math.sqrt(len(deals))) if len(deals) > 1 else math.nan
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--policy", default="standard")
    parser.add_argument("--deals", type=int, default=100, help="Live deals (several seconds each).")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pimc-deals", type=int, default=0, help="Deals for the pimc reference (slow).")
    parser.add_argument("--pimc-samples", type=int, default=10)
    parser.add_argument("--pimc-blind", action="store_true", help="pimc samples layouts without the bids.")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--out", help="Also write the JSON result here.")
    args = parser.parse_args()
    v = Variant.preset("dananeer")
    bot = simulate.bot_array(v)
    table_pimc = args.policy == "pimc"
    pid = None if table_pimc else policy_id(args.policy)
    reader = None if args.pimc_blind else BidReader(v, bot)
    sampler = reader.layouts if reader else sample_layouts
    players = [("pimc", args.pimc_samples, sampler)] * 4 if table_pimc else None
    table_rng = random.Random(args.seed)
    t0 = time.perf_counter()
    hands, bids = live_deals(args.deals, args.seed, v, bot)

    def values_of(b):
        return [v.bid_value(int(x), 0) for x in b]

    deals = []
    for i, (h, b) in enumerate(zip(hands, bids), start=1):
        deals.append(measure(h, b, pid, values_of, players, rng=table_rng)[0])
        print(f"\r{i}/{len(hands)} deals ({time.perf_counter() - t0:.0f} s)", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    result = {"policy": args.policy, "seed": args.seed, "deals": len(deals), "variant": "dananeer",
              "command": "python benchmarks/play_vs_bids_dd.py " + " ".join(sys.argv[1:]),
              "per_card": table(deals)}  # fmt: skip
    if table_pimc:
        result["pimc_samples"] = args.pimc_samples
    if args.pimc_deals and not table_pimc:
        # pimc at seats 1+3 against the policy at 2+4, then the seats swapped, on the same deals
        # and bids: its cards' points lost, and the duplicate difference in points a hand
        rng = random.Random(args.seed)
        ph, pb = live_deals(args.pimc_deals, args.seed + 2, v, bot)
        pimc = ("pimc", args.pimc_samples, sampler)
        pimc_cards, policy_cards, diffs = [], [], []
        for i, (h, b) in enumerate(zip(ph, pb), start=1):
            first, taken1 = measure(h, b, pid, values_of, [pimc, pid, pimc, pid], seats=(0, 2), rng=rng)
            second, taken2 = measure(h, b, pid, values_of, [pid, pimc, pid, pimc], seats=(0, 2), rng=rng)
            pimc_cards.append(first)
            policy_cards.append(second)
            diffs.append((points_13_minus_24(v, b, taken1) - points_13_minus_24(v, b, taken2)) / 2)
            print(f"\rpimc {i}/{len(ph)} deals ({time.perf_counter() - t0:.0f} s)", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        result["pimc"] = {"samples": args.pimc_samples, "deals": len(ph), "seed": args.seed + 2,
                          "per_card": table(pimc_cards)["all"], "policy_per_card": table(policy_cards)["all"],
                          "duplicate_vs_policy": mean_ci(diffs)}  # fmt: skip
    if table_pimc or args.pimc_deals:
        result["pimc_reads_bids"] = reader.stats() if reader else False
    result["seconds"] = time.perf_counter() - t0
    if emit(result, args):
        return
    print(f"{args.policy}: points lost per card against the 400 double dummy with the bids, {len(deals)} live deals")
    print(f"{'cards':>24} {'n':>6} {'costly':>14} {'points/card':>16}")
    for key, row in result["per_card"].items():
        if isinstance(row, dict) and row.get("cards"):
            print(f"{key:>24} {row['cards']:6d} {row['costly']:7.1%} ± {row['costly_se']:4.1%} "
                  f"{row['points_per_card']:8.3f} ± {row['points_per_card_se']:.3f}")  # fmt: skip
    pc = result["per_card"]
    print(f"points lost per deal (four players): {pc['points_lost_per_deal']:.2f} ± {pc['points_lost_per_deal_se']:.2f}")
    if "pimc" in result:
        pm = result["pimc"]
        du = pm["duplicate_vs_policy"]
        print(f"pimc ({pm['samples']} samples) at seats 1+3, {pm['deals']} deals: {pm['per_card']['points_per_card']:.3f} ± "
              f"{pm['per_card']['points_per_card_se']:.3f} points lost per card, against {pm['policy_per_card']['points_per_card']:.3f} "
              f"± {pm['policy_per_card']['points_per_card_se']:.3f} for {args.policy} on the same seats")  # fmt: skip
        print(f"pimc vs {args.policy} in duplicate: {du['mean']:+.2f} points a hand, 95% CI {du['ci95'][0]:+.2f}..{du['ci95'][1]:+.2f}")
    print(f"({result['seconds']:.0f} s)")


if __name__ == "__main__":
    main()
