"""Card play measured against double dummy: the yardstick every play policy is held to.

On random live deals of 400 (four EV bots bid, dead hands skipped; seat 1 leads, hearts trump)
every card a policy plays is checked with DDS (the endplay package): the partnership tricks the
mover's side keeps with best play after the card, against the best card in that position. A card
*costs* when its side loses at least one double-dummy trick. Reported:

* per card kind (lead, follow, ruff, discard) and position in the trick (1st..4th): cards, the
  share that cost a trick, tricks lost per card; the opening lead on its own; tricks lost per
  deal over the four players;
* strong hands: deals where seat 1 bid 6 or more; the share where seat 1 took fewer tricks than
  solo double dummy gives it (the project's own solver: seat 1 against the other three);
* duplicate points: the policy's partnership against ``--against`` (default ``basic``) on the same
  deals and bids, both seatings (``kernels.t400.rollout.duplicate_hands``), mean per hand, 95% CI;
* ``--pimc-deals N``: a slow reference player, *pimc*: at each decision it deals ``--pimc-samples``
  layouts of the unseen cards consistent with what the player has seen (its hand, the cards
  played, the voids shown; the bids are not used), scores every legal card by DDS on each and
  plays the best on average (partnership tricks). Measured the same way (per-card loss), and in
  duplicate against the policy on the same deals.

Usage: ``python benchmarks/play_vs_dd.py [--policy standard] [--deals 200] [--strong 400]
[--duplicate 80000] [--pimc-deals 0] [--seed 1] [--json] [--out FILE]``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time

import numpy as np
from endplay.dds import solve_board
from endplay.types import Card as EpCard
from endplay.types import Deal as EpDeal
from endplay.types import Denom, Player
from strong_hands import play_side_by_side

from analyzer.core import layouts, pimc
from analyzer.core.layouts import sample_layouts
from analyzer.core.notation import Card
from analyzer.core.policies import policy_id
from analyzer.core.solve import solve_many
from analyzer.games.t400 import simulate
from analyzer.games.t400.lead import live_deals
from analyzer.games.t400.rules import Variant

KINDS = ("lead", "follow", "ruff", "discard")
RANKS = "23456789TJQKA"


def pbn(hands) -> str:
    return "N:" + " ".join(
        ".".join("".join(RANKS[k] for k in range(12, -1, -1) if int(b) >> (16 * s + k) & 1) for s in range(4))
        for b in hands
    )


def ep_card(index: int) -> EpCard:
    return EpCard(str(Card.from_index(index)))


def card_index(card: EpCard) -> int:
    return Card.parse(str(card)).index


class Position(layouts.Position):
    """:class:`analyzer.core.layouts.Position`, and the position for DDS."""

    def ep_deal(self, hands=None) -> EpDeal:
        """The position for DDS: the remaining hands (or ``hands``) with the current trick replayed."""
        hands = list(self.hands if hands is None else hands)
        for k, c in enumerate(self.trick):
            hands[(self.leader + k) % 4] |= 1 << c
        d = EpDeal(pbn(hands))
        d.trump = (Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs, Denom.nt)[self.trump]
        d.first = Player(self.leader)
        for c in self.trick:
            d.play(ep_card(c))
        return d


def dd_scores(pos: Position) -> dict[int, int]:
    """Tricks the mover's side keeps from here after each legal card (DDS)."""
    return {card_index(c): t for c, t in solve_board(pos.ep_deal())}


def pimc_card(pos: Position, samples: int, rng: random.Random, sampler=sample_layouts) -> int:
    """pimc in partnership tricks: every legal card valued by the partnership double dummy
    (:func:`analyzer.core.pimc.team_tricks`, the product's; DDS gives the same tricks) on
    ``samples`` layouts from ``sampler`` (what the mover has seen; a game's benchmark may also fit
    the auction), the best on average (ties to the lowest card)."""
    legal = pos.legal()
    if len(legal) == 1:
        return legal[0]
    totals = pimc.team_tricks(pos, sampler(pos, samples, rng), legal).sum(axis=0)
    return max(zip(legal, totals), key=lambda x: (x[1], -(x[0] & 15)))[0]


def play_and_measure(hands, bids, players, rng, losses=None, seats=(0, 1, 2, 3)) -> list[int]:
    """Play a deal with ``players`` per seat (a kernel policy id, or ("pimc", samples)); record
    the DD loss of each card played by ``seats`` into ``losses`` if given. Returns the tricks."""
    pos = Position(hands, bids)
    for _ in range(52):
        who = players[pos.mover]
        card = pimc_card(pos, who[1], rng) if isinstance(who, tuple) else pos.kernel_card(who)
        if losses is not None and pos.mover in seats:
            scores = dd_scores(pos)
            loss = max(scores.values()) - scores[card]
            losses.append((pos.kind(card), len(pos.trick) + 1, pos.played == 0 and not pos.trick, loss))
        pos.play(card)
    return pos.taken


def loss_table(losses) -> dict:
    table = {}
    for kind in KINDS:
        for position in (1, 2, 3, 4, None):
            rows = [x for x in losses if x[0] == kind and (position is None or x[1] == position)]
            if rows:
                key = kind if position is None else f"{kind} {position}"
                table[key] = {"cards": len(rows), "costly": sum(x[3] >= 1 for x in rows) / len(rows),
                              "tricks_per_card": sum(x[3] for x in rows) / len(rows)}  # fmt: skip
    opening = [x for x in losses if x[2]]
    if opening:  # none among the defenders' cards
        table["opening lead"] = {"cards": len(opening), "costly": sum(x[3] >= 1 for x in opening) / len(opening),
                                 "tricks_per_card": sum(x[3] for x in opening) / len(opening)}  # fmt: skip
    table["all"] = {"cards": len(losses), "costly": sum(x[3] >= 1 for x in losses) / len(losses),
                    "tricks_per_card": sum(x[3] for x in losses) / len(losses)}  # fmt: skip
    return table


def points_13_minus_24(rules_v: Variant, bids, tricks) -> int:
    pts = [rules_v.score_change(int(b), int(t), 0) for b, t in zip(bids, tricks)]
    return pts[0] + pts[2] - pts[1] - pts[3]


def mean_ci(x) -> dict:
    x = np.asarray(x, dtype=float)
    se = float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else float("nan")
    return {
        "n": len(x),
        "mean": float(x.mean()),
        "ci95": [float(x.mean() - 1.96 * se), float(x.mean() + 1.96 * se)],
    }


def emit(result: dict, args) -> bool:
    """Write the result as JSON to ``--out``, and print it for ``--json`` (then True: nothing
    more to print)."""
    text = json.dumps(result, indent=2)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    if args.json:
        print(text)
    return bool(args.json)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--policy", default="standard")
    parser.add_argument("--against", default="basic", help="The other partnership's policy in duplicate.")
    parser.add_argument("--deals", type=int, default=200, help="Live deals for the per-card check.")
    parser.add_argument("--strong", type=int, default=400, help="Deals with seat 1 bidding 6+.")
    parser.add_argument("--duplicate", type=int, default=81920, help="Deals for duplicate points.")
    parser.add_argument("--pimc-deals", type=int, default=0)
    parser.add_argument("--pimc-samples", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--out", help="Also write the JSON result here.")
    args = parser.parse_args()
    v = Variant.preset("dananeer")
    bot = simulate.bot_array(v)
    pid = policy_id(args.policy)
    rng = random.Random(args.seed)
    t0 = time.perf_counter()
    result: dict = {"policy": args.policy, "seed": args.seed,
                    "command": "python benchmarks/play_vs_dd.py " + " ".join(sys.argv[1:])}  # fmt: skip

    hands, bids = live_deals(args.deals, args.seed, v, bot)
    losses: list = []
    for h, b in zip(hands, bids):
        play_and_measure(h, b, [pid] * 4, rng, losses)
    result["per_card"] = loss_table(losses)
    result["per_card"]["tricks_lost_per_deal"] = sum(x[3] for x in losses) / len(hands)
    result["per_card"]["deals"] = len(hands)

    strong_h, strong_b = live_deals(args.strong, args.seed + 1, v, bot, min_bid=6)
    solo = solve_many(strong_h, trump="hearts", leader=1, mode="solo", player=1)
    got = play_side_by_side(strong_h, strong_b, pid, pid)
    below = got < solo
    result["strong"] = {"deals": len(got), "below_solo_dd": float(below.mean()),
                        "short_by": float((solo - got)[below].mean()) if below.any() else 0.0,
                        "tricks": float(got.mean()), "solo_dd": float(solo.mean()),
                        "made": float((got >= strong_b[:, 0]).mean())}  # fmt: skip

    chunks = max(1, args.duplicate // 2048)
    n, mean, se = simulate.duplicate_edge(args.policy, args.against, chunks, seed=args.seed, chunk_size=2048)
    result["duplicate"] = {"against": args.against, "deals": int(n), "points_per_hand": mean,
                           "ci95": [mean - 1.96 * se, mean + 1.96 * se]}  # fmt: skip

    if args.pimc_deals:
        ph, pb = live_deals(args.pimc_deals, args.seed + 2, v, bot)
        pimc_losses: list = []
        diffs = []
        pimc = ("pimc", args.pimc_samples)
        for h, b in zip(ph, pb):
            first = play_and_measure(h, b, [pimc, pid, pimc, pid], rng, pimc_losses, seats=(0, 2))
            second = play_and_measure(h, b, [pid, pimc, pid, pimc], rng)
            diffs.append((points_13_minus_24(v, b, first) - points_13_minus_24(v, b, second)) / 2)
        result["pimc"] = {"samples": args.pimc_samples, "deals": len(ph), "per_card": loss_table(pimc_losses),
                          "duplicate_vs_policy": mean_ci(diffs)}  # fmt: skip
    result["seconds"] = time.perf_counter() - t0
    if emit(result, args):
        return
    print(f"{args.policy}: per-card double-dummy loss on {len(hands)} live deals (DDS, partnership tricks)")
    print(f"{'cards':>24} {'n':>6} {'cost >= 1':>10} {'tricks/card':>12}")
    for key, row in result["per_card"].items():
        if isinstance(row, dict):
            print(f"{key:>24} {row['cards']:6d} {row['costly']:10.1%} {row['tricks_per_card']:12.3f}")
    print(f"tricks lost per deal (four players): {result['per_card']['tricks_lost_per_deal']:.2f}")
    st = result["strong"]
    print(f"strong seat 1 (bid >= 6), {st['deals']} deals: below solo DD {st['below_solo_dd']:.1%} "
          f"(by {st['short_by']:.2f}); tricks {st['tricks']:.2f} vs solo DD {st['solo_dd']:.2f}; made {st['made']:.1%}")  # fmt: skip
    du = result["duplicate"]
    print(f"duplicate {args.policy} vs {du['against']}: {du['points_per_hand']:+.3f} points per hand, "
          f"95% CI {du['ci95'][0]:+.3f}..{du['ci95'][1]:+.3f} ({du['deals']:,} live deals)")  # fmt: skip
    if "pimc" in result:
        pm = result["pimc"]
        print(
            f"pimc per card (seats 1+3 against {args.policy}): cost >= 1 {pm['per_card']['all']['costly']:.1%}, "
            f"{pm['per_card']['all']['tricks_per_card']:.3f} tricks per card; opening lead "
            f"{pm['per_card']['opening lead']['costly']:.1%}"
        )
        print(f"pimc ({pm['samples']} samples) vs {args.policy}, {pm['deals']} deals: "
              f"{pm['duplicate_vs_policy']['mean']:+.2f} points per hand, 95% CI "
              f"{pm['duplicate_vs_policy']['ci95'][0]:+.2f}..{pm['duplicate_vs_policy']['ci95'][1]:+.2f}")  # fmt: skip
    print(f"({result['seconds']:.0f} s)")


if __name__ == "__main__":
    main()
