"""Checked Python entry points to the simulation kernels: dealing, playing, bot bids, full hands.

Every function here validates its input, converts it to plain arrays and calls a kernel; the
kernels themselves assume checked input.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from analyzer import config
from analyzer.core.dealing import deal_hands
from analyzer.core.errors import T400Error
from analyzer.core.notation import Card, Deal, Hand, as_deal, as_hand
from analyzer.core.policies import per_seat, policies_kit, policy_id
from analyzer.core.runtime import check_seed, chunks_for, threads_used
from analyzer.games.t400.bidder import bidder_id, bot_array
from analyzer.games.t400.equity import require_table
from analyzer.games.t400.rules import FIRST_LEADER, TRUMP, Variant, as_variant
from kernels.core.kit import Kit
from kernels.policies import play as kp
from kernels.t400 import bidder as kb
from kernels.t400 import rollout as kr
from kernels.t400.lineup import lineup_kit, make_lineup

__all__ = [
    "deal_hands",
    "play_deal",
    "play_hand",
    "simulate_full_hands",
    "bot_bid",
    "lineup_array",
    "PlayedDeal",
    "PlayedHand",
]


def lineup_array(bidder: str | Sequence[str] = "ev", policy: str | Sequence[str] = "standard") -> np.ndarray:
    """The kernels' lineup (int64[2, 4]: bidder ids, then policy ids, seat by seat) from names,
    one for all seats or four."""
    return make_lineup(per_seat(bidder, bidder_id, "bidder"), per_seat(policy, policy_id, "policy"))


@dataclass(frozen=True)
class PlayedDeal:
    """A deal played out: tricks per seat and the cards in play order."""

    tricks: tuple[int, int, int, int]
    cards: tuple[Card, ...]


def play_deal(
    deal: Deal | str,
    bids: Sequence[int] = (3, 3, 3, 3),
    policy: str | Sequence[str] = "standard",
    leader: int = 1,
) -> PlayedDeal:
    """Play a deal (or an ending) out with a policy per seat; seat ``leader`` leads first."""
    d = as_deal(deal)
    if len(bids) != 4 or any(not isinstance(b, (int, np.integer)) or not 0 <= b <= 13 for b in bids):
        raise T400Error(f"bids {list(bids)}: expected four numbers 0..13")
    if leader not in (1, 2, 3, 4):
        raise T400Error(f"leader {leader!r}: expected a seat 1..4")
    policies = per_seat(policy, policy_id, "policy")
    tricks = np.zeros(4, dtype=np.int64)
    record = np.zeros(52, dtype=np.int64)
    n = kp.play_hand(d.bits, np.array(bids, dtype=np.int64), leader - 1, policies, policies_kit(policies), int(TRUMP),
                     tricks, record)  # fmt: skip
    return PlayedDeal(tuple(int(t) for t in tricks), tuple(Card.from_index(int(c)) for c in record[:n]))


@dataclass(frozen=True)
class PlayedHand:
    """One hand of 400 bid and played out: what ``t400 play`` shows.

    ``tricks`` and ``points`` are per seat in seat order (zeros when the hand is dead, which is
    not played); ``cards`` in play order, four per trick; ``winners[k]`` is the seat (1..4) that
    won trick ``k + 1``; ``leaders[k]`` the seat that led it.
    """

    deal: Deal
    bids: tuple[int, int, int, int]
    bids_by: str  # "ev bots", "counting bots" or "given"
    policy: tuple[str, str, str, str]
    dead: bool
    tricks: tuple[int, int, int, int]
    made: tuple[bool, bool, bool, bool]
    points: tuple[int, int, int, int]
    cards: tuple[Card, ...]
    leaders: tuple[int, ...]
    winners: tuple[int, ...]

    def to_dict(self) -> dict:
        return {
            "deal": str(self.deal), "bids": list(self.bids), "bids_by": self.bids_by,
            "policy": list(self.policy), "dead": self.dead, "tricks": list(self.tricks),
            "made": list(self.made), "points": list(self.points), "cards": [str(c) for c in self.cards],
            "leaders": list(self.leaders), "winners": list(self.winners),
        }  # fmt: skip


def play_hand(
    deal: Deal | str,
    bids: Sequence[int] | None = None,
    policy: str | Sequence[str] = "standard",
    variant: Variant | str | None = None,
    scores: Sequence[int] = (0, 0, 0, 0),
    bidder: str = "ev",
    bidder_model: str | Path | None = None,
) -> PlayedHand:
    """Bid (``bids``, or the ``bidder`` bots in seat order) and play out a full deal of 400:
    seat 1 leads, hearts are trump; a hand whose bids miss the table minimum is dead (not played).

    >>> h = play_hand("-.AKQJT98765432.-.- AKQJT98765432.-.-.- -.-.AKQJT98765432.- -.-.-.AKQJT98765432",
    ...               bids=[13, 2, 2, 2])
    >>> h.tricks, h.made, h.points, h.winners[:2]
    ((13, 0, 0, 0), (True, False, False, False), (40, -2, -2, -2), (1, 1))
    """
    d = as_deal(deal)
    if d.size != 13:
        raise T400Error(f"deal {d}: a hand of 400 is 13 cards a player (got {d.size})")
    v = as_variant(variant)
    if len(scores) != 4:
        raise T400Error(f"scores: expected four (seat 1 first), got {len(scores)}")
    names = tuple(str(n).strip().lower() for n in ((policy,) * 4 if isinstance(policy, str) else policy))
    policies = per_seat(list(names), policy_id, "policy")
    if bids is None:
        made_bids: list[int] = []
        for seat in range(1, 5):
            made_bids.append(bot_bid(d.hands[seat - 1], seat, scores, made_bids, v, bidder, bidder_model))
        bids_by = f"{bidder} bots"
    else:
        made_bids = list(bids)
        if len(made_bids) != 4:
            raise T400Error(f"bids: expected four (seat 1 first), got {len(made_bids)}")
        for seat, b in enumerate(made_bids, start=1):
            if isinstance(b, bool) or not isinstance(b, (int, np.integer)) or not 2 <= b <= 13:
                raise T400Error(f"bid {b!r} of seat {seat}: expected a whole number 2..13")
        bids_by = "given"
    b4 = tuple(int(b) for b in made_bids)
    if v.is_dead(b4, scores):
        zero = (0, 0, 0, 0)
        return PlayedHand(d, b4, bids_by, names, True, zero, (False,) * 4, zero, (), (), ())
    tricks = np.zeros(4, dtype=np.int64)
    record = np.zeros(52, dtype=np.int64)
    n = kp.play_hand(d.bits, np.array(b4, dtype=np.int64), FIRST_LEADER - 1, policies, policies_kit(policies),
                     int(TRUMP), tricks, record)  # fmt: skip
    cards = tuple(Card.from_index(int(c)) for c in record[:n])
    leaders, winners = trick_winners(cards, FIRST_LEADER, int(TRUMP))
    t4 = tuple(int(t) for t in tricks)
    return PlayedHand(
        d, b4, bids_by, names, False, t4, tuple(t >= b for t, b in zip(t4, b4)),
        tuple(v.score_change(b, t, sc) for b, t, sc in zip(b4, t4, scores)), cards, leaders, winners,
    )  # fmt: skip


def trick_winners(cards: Sequence[Card], leader: int, trump: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(leaders, winners): the seat (1..4) leading and winning each trick of ``cards`` in play order."""
    leaders, winners = [], []
    for k in range(0, len(cards) - 3, 4):
        trick = cards[k : k + 4]
        best = 0
        for i in range(1, 4):
            c, b = trick[i], trick[best]
            if (c.suit == b.suit and c.rank > b.rank) or (c.suit == trump and b.suit != trump):
                best = i
        leaders.append(leader)
        leader = (leader - 1 + best) % 4 + 1
        winners.append(leader)
    return tuple(leaders), tuple(winners)


@dataclass(frozen=True)
class FullHandsSummary:
    """Totals over random full deals bid by bots and played out."""

    deals: int
    played: int
    dead: int
    tricks: np.ndarray  # [4 seats, 14]: hands where the seat took k tricks
    made: np.ndarray  # [4]
    bids: np.ndarray  # [4 seats, 14]
    points: np.ndarray  # [4]

    @property
    def dead_rate(self) -> float:
        return self.dead / self.deals


def simulate_full_hands(
    deals: int,
    seed: int = 0,
    policy: str | Sequence[str] = "standard",
    bidder: str | Sequence[str] = "ev",
    variant: Variant | str | None = None,
    scores: Sequence[int] = (0, 0, 0, 0),
    threads: int | None = None,
    chunk_size: int | None = None,
    bidder_model: str | Path | None = None,
) -> FullHandsSummary:
    """Random full deals: bots bid (per-seat ``bidder``), dead hands are counted, the rest played.
    ``bidder_model``: a model file of ``t400 fit-bidder`` for the EV bidder (default: shipped)."""
    check_seed(seed)
    if not isinstance(deals, int) or deals < 1:
        raise T400Error(f"deals {deals!r}: expected a positive whole number")
    v = as_variant(variant)
    lineup = lineup_array(bidder, policy)
    chunk_size = chunk_size or config.get().sim_chunk
    n_chunks = chunks_for(deals, chunk_size)
    with threads_used(threads):
        out = kr.full_hands(
            seed,
            0,
            n_chunks,
            chunk_size,
            v.kernel_rules(),
            lineup,
            lineup_kit(lineup),
            bot_array(v, bidder_model),
            np.array(scores, dtype=np.int64),
        )
    return summarize_full_hands(out)


def duplicate_edge(
    policy: str,
    against: str,
    chunks: int,
    seed: int = 0,
    variant: Variant | str | None = None,
    chunk_size: int | None = None,
    threads: int | None = None,
) -> tuple[int, float, float]:
    """(live deals, mean, standard error) of ``policy``'s edge over ``against`` in points per hand
    for its partnership: random deals bid once by EV bots, each live deal played twice with the
    partnerships' policies swapped (``kernels.t400.rollout.duplicate_hands``), scores 0."""
    check_seed(seed)
    v = as_variant(variant)
    lineup = lineup_array("ev", [policy, against] * 2)
    with threads_used(threads):
        out = kr.duplicate_hands(seed, 0, chunks, chunk_size or config.get().sim_chunk, v.kernel_rules(),
                                 lineup, lineup_kit(lineup), bot_array(v))  # fmt: skip
    n, total, total2 = out.sum(axis=0)
    mean = total / n
    return int(n), float(mean), math.sqrt(max(total2 / n - mean * mean, 0.0) / n)


def summarize_full_hands(out: np.ndarray) -> FullHandsSummary:
    total = out.sum(axis=0)
    played = int(total[kr.F_PLAYED])
    dead = int(total[kr.F_DEAD])
    return FullHandsSummary(
        deals=played + dead,
        played=played,
        dead=dead,
        tricks=total[kr.F_TRICKS : kr.F_TRICKS + 56].reshape(4, 14),
        made=total[kr.F_MADE : kr.F_MADE + 4],
        bids=total[kr.F_BIDS : kr.F_BIDS + 56].reshape(4, 14),
        points=total[kr.F_POINTS : kr.F_POINTS + 4],
    )


def bot_bid(
    hand: Hand | str,
    seat: int = 1,
    scores: Sequence[int] = (0, 0, 0, 0),
    bids: Sequence[int] = (),
    variant: Variant | str | None = None,
    bidder: str = "ev",
    bidder_model: str | Path | None = None,
) -> int:
    """What a bot bids with ``hand`` in ``seat`` after the earlier ``bids``."""
    h = as_hand(hand)
    v = as_variant(variant)
    if seat not in (1, 2, 3, 4) or len(bids) != seat - 1:
        raise T400Error(f"seat {seat} with {len(bids)} earlier bids: a seat bids after seat-1 others")
    require_table(v, [bidder])
    return int(
        kb.bid_of(
            v.kernel_rules(),
            Kit(bidder=bidder_id(bidder)),
            bidder_id(bidder),
            bot_array(v, bidder_model),
            np.uint64(h.bits),
            seat - 1,
            np.array(scores, dtype=np.int64),
            int(sum(bids)),
        )  # fmt: skip
    )
