"""pimc for 400 (:mod:`analyzer.core.pimc`): "what should I play now?" with the bids read.

The layouts fit the bids: each other seat's whole hand (its cards in the layout and those it
has played) is one on which the EV bot bids what that seat bid, after the same earlier bids and
at the same scores (:class:`BidReader`; when too few of the layouts drawn fit, the rest are
those that contradict the fewest seats). Each card is valued by 400's double dummy with the
bids (each player's target is their bid, worth its value at their score): the mover's side's
points minus the other side's at the end of the hand, and whether the mover's bid is made on a
line of best play (among lines of equal points, the mover's side prefers it made).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from analyzer.core.errors import T400Error
from analyzer.core.fmt import pct
from analyzer.core.layouts import FittingSampler, Position, replay, sample_layouts
from analyzer.core.notation import Card, as_hand
from analyzer.core.pimc import (
    DEFAULT_LAYOUTS,
    Advice,
    best_card,
    check_play,
    check_player,
    decide,
    first_reason,
    ranked,
    values_with_bids,
)
from analyzer.core.reasons import reason
from analyzer.core.runtime import check_seed
from analyzer.games.t400.rules import FIRST_LEADER, TRUMP, Variant, as_variant
from kernels.core.kit import Kit
from kernels.t400 import bidder as kb


class BidReader(FittingSampler):
    """What the bids tell the pimc player: a layout fits when each other seat's whole hand (its
    cards in the layout and those it has played) is one on which the EV bot, which made the
    deal's bids, bids what that seat bid (after the same earlier bids, at ``scores``)."""

    def __init__(self, v: Variant, bot, scores=(0, 0, 0, 0)):
        super().__init__()
        self.rules, self.bot, self.kit = v.kernel_rules(), bot, Kit(bidder=kb.EV_BIDDER)
        self.scores = np.asarray(scores, dtype=np.int64)

    def misfits(self, pos: Position):
        bids = np.array(pos.bids, dtype=np.int64)
        played = np.array(pos.played_by, dtype=np.uint64)
        me = pos.mover

        def count(layouts: np.ndarray) -> np.ndarray:
            got = kb.bids_in_records(self.rules, kb.EV_BIDDER, self.kit, self.bot, layouts | played,
                                     np.tile(self.scores, (len(layouts), 1)), np.tile(bids, (len(layouts), 1)))  # fmt: skip
            wrong = got != bids
            wrong[:, me] = False  # the mover's own hand is not sampled
            return wrong.sum(axis=1)

        return count

    def layouts(self, pos: Position, n: int, rng: random.Random) -> list[list[int]]:
        """``n`` layouts that fit the bids (see :func:`analyzer.core.pimc.sample_fitting`)."""
        return self.fit(pos, n, rng, self.misfits(pos))


def solver(values, threads: int | None = None):
    """The values of :func:`analyzer.core.pimc.decide` for 400: the mover's side's points
    (``values``: each seat's bid's points) and whether the mover is made, per layout and card."""

    def solve(pos: Position, layouts, cards):
        doubled = values_with_bids(pos, layouts, cards, values, favoured=pos.mover, threads=threads)
        made = (doubled & 1) == 1
        even = pos.mover % 2 == 0
        score = np.where(made, (doubled - 1) // 2 if even else (doubled + 1) // 2, doubled // 2)
        return (score if even else -score), made

    return solve


class DuelTable:
    """400's side of a duel of hands (:mod:`analyzer.core.hand_duel`): ``n`` live deals with the
    EV bots' bids at 0-0-0-0 (dead hands skipped), seat 1 leading, pimc reading the bids on
    ``layouts`` layouts a decision, and each seat's points by the variant's value table."""

    #: What pimc's layouts fit, and what the bots made: the duel's words.
    reads = "bids"

    def __init__(self, v: Variant, n: int, seed: int, layouts: int = DEFAULT_LAYOUTS, threads: int | None = None):
        from analyzer.games.t400.bidder import bot_array
        from analyzer.games.t400.lead import live_deals

        self.v, bot = v, bot_array(v)
        hands, bids = live_deals(n, seed, v, bot)
        self._deals = [([int(x) for x in h], [int(x) for x in b]) for h, b in zip(hands, bids)]
        self.reader, self.layouts, self.threads = BidReader(v, bot), layouts, threads

    def deals(self) -> list:
        return self._deals

    def start(self, deal) -> Position:
        return Position(deal[0], deal[1], leader=FIRST_LEADER - 1, trump=int(TRUMP))

    def pimc_card(self, deal, pos: Position, rng: random.Random) -> tuple[int, int]:
        values = [self.v.bid_value(b, 0) for b in deal[1]]
        d = decide(pos, self.reader.layouts(pos, self.layouts, rng), solver(values, self.threads))
        return best_card(d), d.layouts

    def points(self, deal, pos: Position) -> int:
        pts = [self.v.score_change(b, t, 0) for b, t in zip(deal[1], pos.taken)]
        return pts[0] + pts[2] - pts[1] - pts[3]


@dataclass
class CardRow:
    """One legal card (and the cards ``equal`` to it: worth the same on every layout): the
    mover's side's points (mean and SE over the layouts), P(the mover's bid is made), P(it is
    the best card)."""

    card: str
    equal: list[str]
    points: float
    points_se: float
    p_made: float
    p_best: float


@dataclass(kw_only=True)
class CardAdvice(Advice):
    """``t400 card``'s answer for a 400 position: the common fields and the bids and scores."""

    bids: list[int]
    scores: list[int]

    def to_dict(self) -> dict:
        out = {"game": "400", **self.common(), "bids": self.bids, "scores": self.scores,
               "layouts_fit_bids": self.fitted}  # fmt: skip
        return out


def check_card_inputs(hand, seat: int, bids, play, variant, scores, layouts: int):
    """The checked inputs of :func:`recommend_card`: (hand bits, seat index, bids, cards, variant, scores)."""
    v = as_variant(variant)
    h = check_player(hand, seat)
    bids = list(bids or [])
    if len(bids) != 4:
        raise T400Error("--bids: the four bids, seat 1 first (the hand is being played)")
    from analyzer.games.t400.rules import check_bids, check_scores

    scores = list(check_scores(scores))
    check_bids(v, scores, bids)
    if v.is_dead(bids, scores):
        raise T400Error(f"bids {','.join(map(str, bids))}: the hand is dead (under the table minimum), not played")
    cards = check_play(play, layouts)
    return h.bits, seat - 1, bids, cards, v, scores


def recommend_card(hand, seat: int, bids, play=(), variant="dananeer", scores=(0, 0, 0, 0),
                   layouts: int = DEFAULT_LAYOUTS, seed: int = 0, threads: int | None = None,
                   stop_early: bool = True, read_bids: bool = True, progress=None) -> CardAdvice:  # fmt: skip
    """What should seat ``seat`` (1..4, holding ``hand`` as dealt) play after ``play`` (the cards
    so far, in order, from seat 1's lead)? Each legal card valued by pimc on ``layouts`` layouts
    that fit the bids (``read_bids=False``: any layout), stopping early once one card is best
    beyond doubt (``stop_early``); ``progress(done, total)``: the layouts solved."""
    import time

    from analyzer.core.runtime import COMPILE_CLOCK
    from analyzer.games.t400.bidder import bot_array

    check_seed(seed)
    start, compiled = time.perf_counter(), COMPILE_CLOCK.seconds()
    bits, me, bids, cards, v, scores = check_card_inputs(hand, seat, bids, play, variant, scores, layouts)
    if len(cards) >= 52:
        raise T400Error("the hand is over: all 52 cards are played")
    pos = replay(bits, me, FIRST_LEADER - 1, cards, int(TRUMP), bids)
    if pos.mover != me:
        raise T400Error(f"it is seat {pos.mover + 1}'s turn to play, not seat {seat}'s")
    values = [v.bid_value(b, s) for b, s in zip(bids, scores)]
    rng = random.Random(seed)
    reader = BidReader(v, bot_array(v), scores) if read_bids else None
    dealt = reader.layouts(pos, layouts, rng) if reader else sample_layouts(pos, layouts, rng)
    decision = decide(pos, dealt, solver(values, threads), stop_early=stop_early, progress=progress)
    found, recommended = ranked(decision, seed)
    rows = [CardRow(r["card"], r["equal"], r["mean"], r["se"], r["extra"], r["p_best"]) for r in found]
    advice = CardAdvice(
        hand=as_hand(hand).to_dot(), seat=seat, bids=bids, scores=scores, variant=v.label,
        played=[Card.from_index(c).symbol for c in cards], trick=[Card.from_index(c).symbol for c in pos.trick],
        taken=list(pos.taken), layouts=decision.layouts, layouts_asked=layouts,
        fitted=reader.stats()["all_layouts_fit"] if reader else 0.0, seed=seed, rows=rows, recommended=recommended,
    )  # fmt: skip
    advice.reasons = _reasons(advice)
    advice.compile_s = COMPILE_CLOCK.seconds() - compiled
    advice.elapsed_s = time.perf_counter() - start - advice.compile_s
    return advice


def _reasons(a: CardAdvice) -> list[dict]:
    """The recommendation in words, from the figures of the table (catalogue keys ``card.why.*``)."""
    rows = [{"card": r.card, "mean": r.points, "p_best": r.p_best} for r in a.rows]
    out = [first_reason(rows, a.recommended, a.layouts, "card.why.best_bids")]
    if len(rows) == 1:
        return out
    best = a.row(a.recommended)
    if best.p_made < 0.5 <= max(r.p_made for r in a.rows):
        out.append(reason("card.why.sacrifice", p=pct(best.p_made, digits=0)))
    else:
        out.append(reason("card.why.made", bid=a.bids[a.seat - 1], p=pct(best.p_made, digits=0)))
    return out
