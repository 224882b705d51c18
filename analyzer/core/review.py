"""What a card cost, for either game: the double-dummy value of the position before each card
(what the best card keeps) against the value after it.

The game gives ``value_at(hands, trick, leader, winners)``: the position's value under best play
(hands: the four hands' cards still held; trick: the cards played to the current trick from
``leader``; winners: the seats that won the finished tricks, in order), and says which seats
want it high. A card costs its side ``before - after`` (or the reverse for the other side);
double dummy is exact, so no card gains.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from analyzer.core.notation import Card, Hand, Suit
from analyzer.core.records import HandRecord, Trick, legal_cards, trick_winner

ValueAt = Callable[[list[int], Sequence[Card], int, list[int]], int]


def card_costs(record: HandRecord, tricks: list[Trick], trump: Suit | None, value_at: ValueAt,
               maximises: Callable[[int], bool], say: Callable[[str], None]) -> list[dict]:  # fmt: skip
    """One row per card played: its trick and seat, the values before and after it, its cost,
    and for a card that cost, the cards that would have kept the value (``better``)."""
    hands = [h.bits for h in record.deal.hands]
    winners: list[int] = []
    before = value_at(hands, [], tricks[0].leader, winners) if tricks else 0
    out = []
    for t, trick in enumerate(tricks, start=1):
        for k, card in enumerate(trick.cards):
            say(f"card {len(out) + 1} of {len(record.cards)}")
            seat = trick.seat_of(k)
            after = _after(hands, trick, k, card, trump, value_at, winners)
            sign = 1 if maximises(seat) else -1
            row = {"trick": t, "seat": seat, "card": str(card), "value_before": before, "value_after": after,
                   "cost": sign * (before - after)}  # fmt: skip
            if row["cost"] > 0:
                held = list(Hand(hands[seat - 1]))
                row["better"] = [str(c) for c in legal_cards(held, trick.cards[:k])
                                 if _after(hands, trick, k, c, trump, value_at, winners) == before]  # fmt: skip
            hands[seat - 1] &= ~card.bit
            if k == 3:
                winners.append(trick.winner)
            out.append(row)
            before = after
    return out


def _after(hands, trick: Trick, k: int, card: Card, trump, value_at: ValueAt, winners: list[int]) -> int:
    """The value once the seat to play puts ``card`` on the trick (``hands`` left as they were)."""
    seat = trick.seat_of(k)
    hands[seat - 1] &= ~card.bit
    played = [*trick.cards[:k], card]
    try:
        if k == 3:
            won = (trick.leader - 1 + trick_winner(played, trump)) % 4 + 1
            return value_at(hands, [], won, [*winners, won])
        return value_at(hands, played, trick.leader, winners)
    finally:
        hands[seat - 1] |= card.bit


def add_decision_costs(rows: list[dict], record: HandRecord, leader: int, trump: int, bids, layouts: int, seed: int,
                       deal, solve, say: Callable[[str], None], first_lead_trump: bool = False) -> None:  # fmt: skip
    """Give each card of ``rows`` (:func:`card_costs`, in play order) its decision cost: pimc
    from its player's seat (their hand, the cards played before it, ``bids``), on ``layouts``
    layouts from ``deal(pos, n, rng)`` valued by ``solve`` (:func:`analyzer.core.pimc.decide`;
    in the unit of the row's ``cost``), and its :func:`card_verdict`. Each card's layouts come
    from its own random stream, (``seed``, the card's number)."""
    import random

    from analyzer.core.layouts import replay
    from analyzer.core.pimc import decision_cost

    cards = [c.index for c in record.cards]
    for k, row in enumerate(rows):
        say(f"decision {k + 1} of {len(rows)}")
        seat = row["seat"] - 1
        pos = replay(record.deal.hands[seat].bits, seat, leader - 1, cards[:k], trump, bids, first_lead_trump)
        rng = random.Random(f"{seed}:{k}")
        got = decision_cost(pos, cards[k], lambda p=pos, r=rng: deal(p, layouts, r), solve)
        row["decision_cost"] = got["decision_cost"]
        row["decision_cost_se"] = got["decision_cost_se"]
        row["pimc_best"] = [str(Card.from_index(c)) for c in got["pimc_best"]]
        row["layouts"] = got["layouts"]
        row["verdict"] = card_verdict(row["cost"], got["decision_cost"], got["decision_cost_se"])


def verdict(loss: float, se: float, best: bool, noise_se: float) -> str:
    """A bid's or call's verdict at a glance: ``best``; ``within noise`` when it is behind the
    recommended one by less than ``noise_se`` standard errors of the paired difference; else
    ``costly``."""
    if best:
        return "best"
    return "within noise" if loss <= noise_se * se else "costly"


def play_summary(cards: list[dict], seat: int) -> dict:
    """A player's part of the play: cards played, the costly ones, what they lost, the first;
    and, where decision costs were measured, the mistakes and the cards lost to bad luck."""
    mine = [c for c in cards if c["seat"] == seat]
    costly = [c for c in mine if c["cost"] > 0]
    first = costly[0] if costly else None
    return {"cards": len(mine), "costly_cards": len(costly), "play_loss": sum(c["cost"] for c in costly),
            "mistakes": sum(c.get("verdict") == "mistake" for c in mine),
            "bad_luck": sum(c.get("verdict") == "bad luck" for c in mine),
            "first_costly": None if first is None else {k: first[k] for k in ("trick", "card", "cost")}}  # fmt: skip


def team_summary(players: list[dict], count: str) -> list[dict]:
    """Per partnership (seats 1+3, seats 2+4): what the play lost and the costly bids or calls."""
    return [{"seats": list(team), "play_loss": sum(p["play_loss"] for p in players if p["seat"] in team),
             count: sum(p[count] for p in players if p["seat"] in team)} for team in ((1, 3), (2, 4))]  # fmt: skip


#: How many standard errors a card's decision cost must exceed to be called a mistake.
MISTAKE_SE = 2.0


def card_verdict(dd_cost: float, decision_cost: float | None, decision_cost_se: float | None) -> str:
    """A card's verdict from its two costs: ``mistake`` when its decision cost (pimc, from what
    the player could see) is clear beyond ``MISTAKE_SE`` standard errors; ``bad luck`` when it
    lost double dummy (all cards seen) but was not clearly worse from the player's seat; ``fine``
    otherwise (``-`` when the decision cost was not measured)."""
    if decision_cost is None:
        return "-"
    if decision_cost > 1e-9 and decision_cost > MISTAKE_SE * (decision_cost_se or 0.0):
        return "mistake"
    return "bad luck" if dd_cost > 0 else "fine"
