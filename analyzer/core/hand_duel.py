"""Duplicate single hands between two card players, either of which may be pimc.

A whole-match duel (``t400 duel``) runs in a kernel, where pimc cannot: each of its decisions
deals layouts and solves them from Python. So pimc is measured hand by hand: every deal is played
twice with its bids or contract fixed, player A's side on seats 1+3 and then on seats 2+4, and the
margin of a deal is half the difference of seats 1+3's points between the two plays (A's points
minus B's, the cards cancelling out). The deals' margins give the mean and its standard error.

Each game supplies a table (:class:`HandTable`): the deals with the EV bots' bids or contract, the
starting position, pimc's card, and the points of seats 1+3 at the end.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from analyzer.core.layouts import Position

#: The name of the strong player in a BIDDER/POLICY configuration.
PIMC = "pimc"
#: The most deals a duel of hands plays (pimc takes seconds a deal).
MAX_DEALS = 100_000


class HandTable(Protocol):
    """One game's side of a duel of hands (see the module's docstring)."""

    def deals(self) -> Sequence:
        """The deals, in order (each what :meth:`start` and :meth:`points` take)."""

    def start(self, deal) -> Position:
        """The position before the opening lead."""

    def pimc_card(self, deal, pos: Position, rng: random.Random) -> tuple[int, int]:
        """pimc's card for the mover, and how many layouts it solved."""

    def points(self, deal, pos: Position) -> int:
        """Seats 1+3's points minus seats 2+4's, all 52 cards played."""


def play_once(table: HandTable, deal, players: Sequence, rng: random.Random, tally: dict) -> int:
    """Play one deal with ``players`` (per seat, a kernel policy id or :data:`PIMC`): seats 1+3's
    points minus 2+4's. ``tally`` counts pimc's decisions, layouts and seconds."""
    pos = table.start(deal)
    for _ in range(52):
        who = players[pos.mover]
        if who == PIMC:
            t0 = time.perf_counter()
            card, layouts = table.pimc_card(deal, pos, rng)
            tally["decisions"] += 1
            tally["layouts"] += layouts
            tally["seconds"] += time.perf_counter() - t0
        else:
            card = pos.kernel_card(who)
        pos.play(card)
    return table.points(deal, pos)


def deal_rng(seed: int, i: int) -> random.Random:
    """Deal ``i``'s random numbers (pimc's layouts) in a duel seeded ``seed``."""
    return random.Random(seed * 1_000_003 + i)


def duel_hands(table: HandTable, a, b, seed: int, progress: Callable[[int, int], None] | None = None,
               stop: Callable[[], bool] | None = None) -> dict:  # fmt: skip
    """A's margin over B in points a hand on ``table``'s deals (``a``, ``b``: a kernel policy id
    or :data:`PIMC`). Deal ``i``'s random numbers (pimc's layouts) come from ``(seed, i)``, so a
    deal's result does not depend on the others. ``stop()`` is asked after each deal: when it says
    so, the deal just played is dropped (a Ctrl-C may have cut its searches) and the result covers
    the deals before it."""
    deals = table.deals()
    margins: list[float] = []
    tally = {"decisions": 0, "layouts": 0, "seconds": 0.0}
    interrupted = False
    for i, deal in enumerate(deals):
        rng = deal_rng(seed, i)
        first = play_once(table, deal, [a, b, a, b], rng, tally)
        second = play_once(table, deal, [b, a, b, a], rng, tally)
        if stop is not None and stop():
            interrupted = True
            break
        margins.append((first - second) / 2)
        if progress is not None:
            progress(i + 1, len(deals))
    return {**margin_stats(margins), "deals_asked": len(deals), "interrupted": interrupted,
            "pimc_decisions": tally["decisions"],
            "pimc_layouts_per_decision": tally["layouts"] / tally["decisions"] if tally["decisions"] else 0.0,
            "pimc_seconds_per_decision": tally["seconds"] / tally["decisions"] if tally["decisions"] else 0.0}  # fmt: skip


def margin_stats(margins: Sequence[float]) -> dict:
    """The mean margin a hand, its standard error over deals and a 95% interval (normal)."""
    n = len(margins)
    mean = sum(margins) / n if n else math.nan
    if n > 1:
        se = math.sqrt(sum((m - mean) ** 2 for m in margins) / (n - 1) / n)
    else:
        se = math.nan
    return {"deals": n, "margin_per_hand": mean, "margin_per_hand_se": se,
            "ci95": [mean - 1.96 * se, mean + 1.96 * se], "a_better": sum(m > 0 for m in margins),
            "b_better": sum(m < 0 for m in margins)}  # fmt: skip
