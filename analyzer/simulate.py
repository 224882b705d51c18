"""Checked Python entry points to the simulation kernels: dealing, playing, bot bids, full hands.

Every function here validates its input, converts it to plain arrays and calls a kernel; the
kernels themselves assume checked input.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from analyzer.bidder import load_model
from analyzer.errors import T400Error
from analyzer.notation import Card, Deal, Hand, as_deal, as_hand
from analyzer.parallel import DEFAULT_CHUNK, check_seed, chunks_for, threads_used
from analyzer.rules import Variant, as_variant
from kernels import bidder as kb
from kernels import deal as kd
from kernels import play as kp
from kernels import rollout as kr
from kernels.cards import HEARTS

POLICIES = {name: i for i, name in enumerate(kp.POLICY_NAMES)}
BIDDERS = {name: i for i, name in enumerate(kb.BIDDER_NAMES)}


def policy_id(name: str) -> int:
    key = str(name).strip().lower()
    if key not in POLICIES:
        raise T400Error(f"unknown play policy {name!r} (expected one of {', '.join(POLICIES)})")
    return POLICIES[key]


def bidder_id(name: str) -> int:
    key = str(name).strip().lower()
    if key not in BIDDERS:
        raise T400Error(f"unknown bidder {name!r} (expected one of {', '.join(BIDDERS)})")
    return BIDDERS[key]


def per_seat(value, convert, what: str) -> np.ndarray:
    """One value for all seats, or four values in seat order, as an int64[4] array of ids."""
    if isinstance(value, str) or not isinstance(value, Sequence):
        value = [value] * 4
    if len(value) != 4:
        raise T400Error(f"{what}: expected one value or four (one per seat), got {len(value)}")
    return np.array([convert(v) for v in value], dtype=np.int64)


@functools.lru_cache(maxsize=16)
def _bot_for(values_key: bytes, model_id: int) -> np.ndarray:
    values = np.frombuffer(values_key, dtype=np.int64).reshape(2, 14)
    return kb.make_bot(load_model().array, values)


def bot_array(variant: Variant) -> np.ndarray:
    """The EV bidder's bot array (model plus bid tables) for a variant's value table."""
    rules = variant.kernel_tables()
    return _bot_for(np.ascontiguousarray(rules.values).tobytes(), id(load_model()))


def deal_hands(
    n: int,
    seed: int = 0,
    known: Sequence[Hand | str | None] | None = None,
    unseen: Hand | str | None = None,
    threads: int | None = None,
) -> np.ndarray:
    """``n`` uniform deals as ``uint64[n, 4]`` hands in seat order, given the known hands.

    ``known`` lists a hand or ``None`` per seat (all known hands the same size); ``unseen`` is
    the set of cards to share evenly among the other seats (default: the rest of the deck). For
    an ending, give the known hand(s) and the unseen cards still in play.
    """
    check_seed(seed)
    if not isinstance(n, int) or n < 1:
        raise T400Error(f"number of deals {n!r}: expected a positive whole number")
    known = list(known) if known is not None else [None] * 4
    if len(known) != 4:
        raise T400Error(f"known hands: expected 4 entries (one per seat), got {len(known)}")
    known_bits = np.zeros(4, dtype=np.uint64)
    seen = 0
    sizes = set()
    for seat, hand in enumerate(known):
        if hand is None:
            continue
        h = as_hand(hand, size=None)
        if seen & h.bits:
            raise T400Error(f"known hands share cards: {Hand(seen & h.bits)}")
        seen |= h.bits
        sizes.add(len(h))
        known_bits[seat] = h.bits
    if len(sizes) > 1:
        raise T400Error(f"known hands have different sizes {sorted(sizes)}; they need the same")
    open_seats = [s for s in range(4) if known[s] is None]
    if not open_seats:
        raise T400Error("every hand is known: nothing to deal")
    pool = as_hand(unseen, size=None).bits if unseen is not None else (2**64 - 1) & ~seen & 0x1FFF1FFF1FFF1FFF
    if pool & seen:
        raise T400Error(f"unseen cards {Hand(pool & seen)} are also in a known hand")
    size = sizes.pop() if sizes else len(Hand(pool)) // len(open_seats)
    if len(Hand(pool)) != size * len(open_seats):
        raise T400Error(f"{len(Hand(pool))} unseen cards cannot give {len(open_seats)} hands of {size} cards")
    counts = np.array([size if known[s] is None else 0 for s in range(4)], dtype=np.int64)
    chunk = DEFAULT_CHUNK
    n_chunks = chunks_for(n, chunk)
    with threads_used(threads):
        out = kd.deal_many(seed, 0, n_chunks, chunk, known_bits, np.uint64(pool), counts)
    return out[:n]


@dataclass(frozen=True)
class PlayedDeal:
    """A deal played out: tricks per seat and the cards in play order."""

    tricks: tuple[int, int, int, int]
    cards: tuple[Card, ...]

    def tricks_of(self, seat: int) -> int:
        return self.tricks[seat - 1]


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
    n = kp.play_hand(d.bits, np.array(bids, dtype=np.int64), leader - 1, policies, HEARTS, tricks, record)
    return PlayedDeal(tuple(int(t) for t in tricks), tuple(Card.from_index(int(c)) for c in record[:n]))


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

    def mean_bid(self) -> np.ndarray:
        return (self.bids * np.arange(14)).sum(axis=1) / self.bids.sum(axis=1)

    def make_rate(self) -> np.ndarray:
        return self.made / max(self.played, 1)


def simulate_full_hands(
    deals: int,
    seed: int = 0,
    policy: str | Sequence[str] = "standard",
    bidder: str | Sequence[str] = "ev",
    variant: Variant | str | None = None,
    scores: Sequence[int] = (0, 0, 0, 0),
    threads: int | None = None,
    chunk_size: int = DEFAULT_CHUNK,
) -> FullHandsSummary:
    """Random full deals: bots bid (per-seat ``bidder``), dead hands are counted, the rest played."""
    check_seed(seed)
    if not isinstance(deals, int) or deals < 1:
        raise T400Error(f"deals {deals!r}: expected a positive whole number")
    v = as_variant(variant)
    rules = v.kernel_tables()
    policies = per_seat(policy, policy_id, "policy")
    bidders = per_seat(bidder, bidder_id, "bidder")
    n_chunks = chunks_for(deals, chunk_size)
    with threads_used(threads):
        out = kr.full_hands(
            seed, 0, n_chunks, chunk_size, bidders, policies, bot_array(v),
            rules.values, rules.min_bids, rules.table_mins, np.array(scores, dtype=np.int64),
        )  # fmt: skip
    return summarize_full_hands(out)


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
) -> int:
    """What a bot bids with ``hand`` in ``seat`` after the earlier ``bids``."""
    h = as_hand(hand)
    v = as_variant(variant)
    if seat not in (1, 2, 3, 4) or len(bids) != seat - 1:
        raise T400Error(f"seat {seat} with {len(bids)} earlier bids: a seat bids after seat-1 others")
    rules = v.kernel_tables()
    return int(
        kb.bot_bid(
            bidder_id(bidder),
            bot_array(v),
            rules.min_bids,
            rules.table_mins,
            np.uint64(h.bits),
            seat - 1,
            np.array(scores, dtype=np.int64),
            int(sum(bids)),
        )  # fmt: skip
    )
