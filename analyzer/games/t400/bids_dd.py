"""400 double dummy with the bids: the perfect-information model of a 400 hand.

Both partnerships see all cards; with the four bids fixed, each plays for its side's points in
this hand (each player wins their bid's value if their own tricks reach it, else loses it, at
the variant's value table and the players' scores), so the answer is the points of seats 1+3
minus those of seats 2+4 under best play. Unlike solo double dummy (each player alone against
three), partners cooperate, as they do at the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from analyzer.core.errors import T400Error, keyed
from analyzer.core.notation import Card, Deal, as_deal
from analyzer.core.solve import solve_targets
from analyzer.games.t400.rules import MAX_BID, MIN_BID, TRICKS, Variant, as_variant, check_scores


@dataclass(frozen=True)
class BidsSolution:
    """The value of a deal with the bids under best play, and one line of that play."""

    value: int  # points of seats 1+3 minus seats 2+4
    tricks: tuple[int, int, int, int]  # each player's tricks at the end of the line (won included)
    made: tuple[bool, bool, bool, bool]
    values: tuple[int, int, int, int]  # each bid's value at its bidder's score
    cards: tuple[Card, ...]  # the line's cards in play order

    def to_dict(self) -> dict:
        return {"value": self.value, "tricks": list(self.tricks), "made": list(self.made),
                "values": list(self.values), "cards": [str(c) for c in self.cards]}  # fmt: skip


def solve_with_bids(
    deal: Deal | str,
    bids: Sequence[int],
    won: Sequence[int] = (0, 0, 0, 0),
    scores: Sequence[int] = (0, 0, 0, 0),
    variant: Variant | str | None = "dananeer",
    trump: str | int = "hearts",
    leader: int = 1,
) -> BidsSolution:
    """Best play for both partnerships with the bids fixed (``won``: tricks each player took
    before this ending; ``scores`` set each bid's value).

    >>> s = solve_with_bids("AKQ.-.-.- 432.-.-.- JT9.-.-.- 876.-.-.-", bids=[2, 2, 2, 2],
    ...                     won=[0, 5, 0, 5], trump="none")
    >>> s.value, s.tricks, s.made
    (-4, (3, 5, 0, 5), (True, True, False, True))
    """
    v = as_variant(variant)
    parsed = as_deal(deal)
    scores = check_scores(scores)
    bids = _four(bids, "bids")
    won = _four(won, "won")
    for seat, b in enumerate(bids, start=1):
        if not MIN_BID <= b <= MAX_BID:
            raise keyed("err.bid_range", seat=seat, bid=b)
    if any(w < 0 for w in won) or sum(won) + parsed.size != TRICKS:
        raise T400Error(
            f"won {list(won)}: tricks already taken must add up to {TRICKS - parsed.size} before an ending "
            f"of {parsed.size} cards a hand"
        )
    values = tuple(v.bid_value(b, s) for b, s in zip(bids, scores))
    score, tricks, line = solve_targets(parsed, bids, values, trump=trump, leader=leader, won=won)
    made = tuple(t >= b for t, b in zip(tricks, bids))
    return BidsSolution(score, tuple(tricks), made, values, tuple(line))


def _four(values: Sequence[int], what: str) -> tuple[int, int, int, int]:
    try:
        out = tuple(int(x) for x in values)
    except (TypeError, ValueError):
        raise T400Error(f"{what}: expected four whole numbers, seat 1 first") from None
    if len(out) != 4:
        raise T400Error(f"{what}: expected four values, seat 1 first, got {len(out)}")
    return out
