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
from collections import defaultdict

import numpy as np
from endplay.dds import solve_all_boards, solve_board
from endplay.types import Card as EpCard
from endplay.types import Deal as EpDeal
from endplay.types import Denom, Player

from analyzer.core.notation import Card
from analyzer.core.policies import policy_id
from analyzer.core.solve import solve_many
from analyzer.games.t400 import simulate
from analyzer.games.t400.lead import live_deals
from analyzer.games.t400.rules import Variant
from kernels.core.cards import HEARTS
from kernels.core.kit import Kit
from kernels.policies import play as kp

KINDS = ("lead", "follow", "ruff", "discard")
RANKS = "23456789TJQKA"
TRUMP = HEARTS


def pbn(hands) -> str:
    return "N:" + " ".join(
        ".".join("".join(RANKS[k] for k in range(12, -1, -1) if int(b) >> (16 * s + k) & 1) for s in range(4))
        for b in hands
    )


def ep_card(index: int) -> EpCard:
    return EpCard(str(Card.from_index(index)))


def card_index(card: EpCard) -> int:
    return Card.parse(str(card)).index


class Position:
    """The public state of a hand being played, kept card by card."""

    def __init__(self, hands, bids, leader=0, trump=TRUMP):
        self.trump = trump
        self.hands = [int(h) for h in hands]
        self.bids = [int(b) for b in bids]
        self.taken = [0, 0, 0, 0]
        self.leader = leader
        self.trick: list[int] = []
        self.played = 0
        self.played_by = [0, 0, 0, 0]  # each seat's cards played, for layouts that must fit its bid
        self.voids = 0

    @property
    def mover(self) -> int:
        return (self.leader + len(self.trick)) % 4

    def best(self) -> tuple[int, int]:
        """(winning card, its position) of the current trick."""
        pos = 0
        for k in range(1, len(self.trick)):
            c, b = self.trick[k], self.trick[pos]
            if (c >> 4 == b >> 4 and c > b) or (c >> 4 == self.trump and b >> 4 != self.trump):
                pos = k
        return self.trick[pos], pos

    def kernel_card(self, policy: int) -> int:
        seat = self.mover
        led = self.trick[0] >> 4 if self.trick else 0
        best, best_pos = self.best() if self.trick else (0, 0)
        bids = sum(b << (8 * s) for s, b in enumerate(self.bids))
        taken = sum(t << (8 * s) for s, t in enumerate(self.taken))
        return int(kp.pick_card(Kit(policy), policy, seat, np.uint64(self.hands[seat]), np.uint64(self.played), self.voids,
                                  bids, taken, self.leader, len(self.trick), led, best, best_pos, self.trump))  # fmt: skip

    def kind(self, card: int) -> str:
        if not self.trick:
            return "lead"
        led = self.trick[0] >> 4
        if card >> 4 == led:
            return "follow"
        return "ruff" if card >> 4 == self.trump else "discard"

    def legal(self) -> list[int]:
        hand = self.hands[self.mover]
        cards = [c for c in range(64) if hand >> c & 1]
        if self.trick:
            follow = [c for c in cards if c >> 4 == self.trick[0] >> 4]
            return follow or cards
        return cards

    def play(self, card: int) -> None:
        seat = self.mover
        assert card in self.legal(), (card, self.legal())
        if self.trick and card >> 4 != self.trick[0] >> 4:
            self.voids |= 1 << (4 * seat + (self.trick[0] >> 4))
        self.hands[seat] &= ~(1 << card)
        self.played |= 1 << card
        self.played_by[seat] |= 1 << card
        self.trick.append(card)
        if len(self.trick) == 4:
            _, pos = self.best()
            self.leader = (self.leader + pos) % 4
            self.taken[self.leader] += 1
            self.trick = []

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


def sample_layouts(pos: Position, n: int, rng: random.Random) -> list[list[int]]:
    """``n`` layouts of the unseen cards among the other three seats, honouring their hand sizes
    and the voids they have shown."""
    me = pos.mover
    unseen = [c for q in range(4) if q != me for c in range(64) if pos.hands[q] >> c & 1]
    sizes = {q: bin(pos.hands[q]).count("1") for q in range(4) if q != me}
    out = []
    while len(out) < n:
        rng.shuffle(unseen)
        room = dict(sizes)
        layout = [0, 0, 0, 0]
        layout[me] = pos.hands[me]
        ok = True
        for c in sorted(unseen, key=lambda c: -sum(pos.voids >> (4 * q + (c >> 4)) & 1 for q in room)):
            seats = [q for q in room if room[q] and not pos.voids >> (4 * q + (c >> 4)) & 1]
            if not seats:
                ok = False
                break
            q = rng.choice(seats)
            layout[q] |= 1 << c
            room[q] -= 1
        if ok:
            out.append(layout)
    return out


def deal_batch(pos: Position, k: int, gen: np.random.Generator) -> np.ndarray:
    """``k`` layouts of the unseen cards at once (uint64[<= k, 4], the mover's hand in its row):
    the most constrained cards first, each to a seat that has not shown out of its suit, with
    probability in proportion to the room the seat has left (a uniform deal when nobody has shown
    out); a layout that runs out of seats for a card is dropped."""
    me = pos.mover
    seats = [q for q in range(4) if q != me]
    cards = [c for q in seats for c in range(64) if pos.hands[q] >> c & 1]
    allowed = np.array([[not pos.voids >> (4 * q + (c >> 4)) & 1 for q in seats] for c in cards], dtype=np.int64)
    room = np.tile(np.array([pos.hands[q].bit_count() for q in seats], dtype=np.int64), (k, 1))
    out = np.zeros((k, 4), dtype=np.uint64)
    out[:, me] = pos.hands[me]
    alive = np.ones(k, dtype=bool)
    rows = np.arange(k)
    seat_of = np.array(seats)
    for i in np.argsort(allowed.sum(axis=1), kind="stable"):
        weight = room * allowed[i]
        total = weight.sum(axis=1)
        alive &= total > 0
        pick = np.minimum((gen.random(k)[:, None] * total[:, None] >= np.cumsum(weight, axis=1)).sum(axis=1), 2)
        room[rows, pick] -= 1
        out[rows, seat_of[pick]] |= np.uint64(1 << cards[i])
    return out[alive]


def sample_fitting(pos: Position, n: int, rng: random.Random, misfits, budget: int = 1 << 16) -> tuple[list[list[int]], bool]:
    """``n`` layouts as :func:`deal_batch` deals them that also fit what the other seats told:
    ``misfits(layouts)`` counts, for each layout, the seats whose whole hand (the layout's cards
    and those it played) contradicts it (e.g. its bid); layouts with none are kept. Drawn in
    growing batches up to ``budget``; if fewer than ``n`` fit, the rest are the layouts that
    contradict the fewest seats. Returns (layouts, whether all fit)."""
    gen = np.random.default_rng(rng.getrandbits(64))
    kept: list[np.ndarray] = []
    spare, spare_bad = None, None
    drawn, k = 0, 32 * n
    while sum(len(x) for x in kept) < n and drawn < budget:
        size = min(k, budget - drawn)
        batch = deal_batch(pos, size, gen)
        drawn, k = drawn + size, 4 * k
        if not len(batch):
            continue
        bad = misfits(batch)
        kept.append(batch[bad == 0])
        if spare is None or bad.min() < spare_bad.min():
            spare, spare_bad = batch, bad
    if spare is None:  # the voids left no deal in the batches: the sequential sampler always finds one
        return sample_layouts(pos, n, rng), False
    fit = np.concatenate(kept)
    if len(fit) >= n:
        return [[int(x) for x in row] for row in fit[:n]], True
    rest = spare[np.argsort(spare_bad, kind="stable")][: n - len(fit)]
    return [[int(x) for x in row] for row in np.concatenate([fit, rest])], False


class FittingSampler:
    """A game's reader of the auction for pimc: :func:`sample_fitting` with the misfits the
    subclass counts, tallying the decisions and those where every layout fitted."""

    def __init__(self):
        self.decisions = self.all_fit = 0

    def fit(self, pos: Position, n: int, rng: random.Random, misfits) -> list[list[int]]:
        found, all_fit = sample_fitting(pos, n, rng, misfits)
        self.decisions += 1
        self.all_fit += all_fit
        return found

    def stats(self) -> dict:
        """For the JSON: the decisions, and the share where every layout fitted the auction."""
        return {"decisions": self.decisions, "all_layouts_fit": self.all_fit / max(self.decisions, 1)}


def pimc_card(pos: Position, samples: int, rng: random.Random, sampler=sample_layouts) -> int:
    """pimc in partnership tricks: every legal card valued by DDS on ``samples`` layouts from
    ``sampler`` (what the mover has seen; a game's benchmark may also fit the auction), the best on
    average (ties to the lowest card)."""
    legal = pos.legal()
    if len(legal) == 1:
        return legal[0]
    totals: dict[int, float] = defaultdict(float)
    boards = [pos.ep_deal(layout) for layout in sampler(pos, samples, rng)]
    for solved in solve_all_boards(boards):
        for c, t in solved:
            totals[card_index(c)] += t
    return max(legal, key=lambda c: (totals[c], -(c & 15)))


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
    got = np.zeros(len(strong_h), dtype=np.int64)
    tricks = np.zeros(4, dtype=np.int64)
    none = np.zeros(0, dtype=np.int64)
    for i, (h, b) in enumerate(zip(strong_h, strong_b)):
        kp.play_hand(h, b, 0, np.full(4, pid, dtype=np.int64), Kit(pid), TRUMP, tricks, none)
        got[i] = tricks[0]
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
