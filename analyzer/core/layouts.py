"""The table as a player sees it, and the hidden cards dealt to fit it: what pimc
(:mod:`analyzer.core.pimc`) solves on.

* :class:`Position`: the state of a hand being played, kept card by card (the hands still held,
  the current trick, the tricks won, the cards each seat played, the voids shown);
* :func:`replay`: the public position after the cards played, as one seat sees it (its own
  hand; for the others a stand-in that fits the play), with the play checked;
* layouts of the cards the mover cannot see: :func:`sample_layouts` (one at a time, honouring
  the hand sizes and the voids shown), :func:`deal_batch` (thousands at once, as NumPy arrays)
  and :func:`sample_fitting` (those that also fit what a game's reader of the auction says: a
  game subclasses :class:`FittingSampler`).
"""

from __future__ import annotations

import random

import numpy as np

from kernels.core.cards import HEARTS
from kernels.core.tricks import power

#: Layouts drawn at most to find ones that fit the auction, a decision.
FIT_BUDGET = 1 << 16


class Position:
    """The state of a hand being played, kept card by card: the hands still held (the true
    ones, or a layout), the current trick from ``leader``, the tricks each seat won, the cards
    each seat played and the voids shown (bit ``4 * seat + suit``). Seats and suits are indices
    0..3; cards are indices of :mod:`kernels.core.cards`."""

    def __init__(self, hands, bids=(0, 0, 0, 0), leader: int = 0, trump: int = HEARTS):
        self.trump = trump
        self.hands = [int(h) for h in hands]
        self.bids = [int(b) for b in bids]
        self.taken = [0, 0, 0, 0]
        self.leader = leader
        self.trick: list[int] = []
        self.played = 0
        self.played_by = [0, 0, 0, 0]
        self.voids = 0
        self.first_lead_trump = False  # the first lead must be a trump when the leader holds one

    @property
    def mover(self) -> int:
        return (self.leader + len(self.trick)) % 4

    def best(self) -> tuple[int, int]:
        """(winning card, its position) of the current trick."""
        pos = 0
        for k in range(1, len(self.trick)):
            c, b = self.trick[k], self.trick[pos]
            led = self.trick[0] >> 4
            if power(c, led, self.trump) > power(b, led, self.trump):
                pos = k
        return self.trick[pos], pos

    def kernel_card(self, policy: int) -> int:
        """The card a kernel play policy (:mod:`kernels.policies.play`) plays here, from the
        mover's hand and what is public."""
        from kernels.core.kit import Kit
        from kernels.policies import play as kp

        seat = self.mover
        led = self.trick[0] >> 4 if self.trick else 0
        best, best_pos = self.best() if self.trick else (0, 0)
        bids = sum(b << (8 * s) for s, b in enumerate(self.bids))
        taken = sum(t << (8 * s) for s, t in enumerate(self.taken))
        return int(kp.pick_card(Kit(policy), policy, seat, np.uint64(self.hands[seat]), np.uint64(self.played),
                                self.voids, bids, taken, self.leader, len(self.trick), led, best, best_pos,
                                self.trump))  # fmt: skip

    def kind(self, card: int) -> str:
        """lead, follow, ruff or discard."""
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
        if self.first_lead_trump and self.played == 0 and self.trump < 4:
            trumps = [c for c in cards if c >> 4 == self.trump]  # a variant's first lead (Tarneeb)
            return trumps or cards
        return cards

    def play(self, card: int) -> None:
        seat = self.mover
        if card not in self.legal():
            raise ValueError(f"card {card} is not a legal card of seat {seat}")
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


# ---------------------------------------------------------------------------------------------
# Layouts


def sample_layouts(pos: Position, n: int, rng: random.Random) -> list[list[int]]:
    """``n`` layouts of the cards the mover cannot see among the other three seats, honouring
    their hand sizes and the voids they have shown (the mover's hand as it is)."""
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
    allowed = np.array([[not pos.voids >> (4 * q + (c >> 4)) & 1 for q in seats] for c in cards],
                       dtype=np.int64).reshape(len(cards), len(seats))  # no row at all at the last card
    room = np.tile(np.array([pos.hands[q].bit_count() for q in seats], dtype=np.int64), (k, 1))
    out = np.zeros((k, 4), dtype=np.uint64)
    out[:, me] = pos.hands[me]
    alive = np.ones(k, dtype=bool)
    rows = np.arange(k)
    seat_of = np.array(seats)
    for i in np.argsort(allowed.sum(axis=1).reshape(-1), kind="stable"):
        weight = room * allowed[i]
        total = weight.sum(axis=1)
        alive &= total > 0
        pick = np.minimum((gen.random(k)[:, None] * total[:, None] >= np.cumsum(weight, axis=1)).sum(axis=1), 2)
        room[rows, pick] -= 1
        out[rows, seat_of[pick]] |= np.uint64(1 << cards[i])
    return out[alive]


def sample_fitting(pos: Position, n: int, rng: random.Random, misfits, budget: int = FIT_BUDGET
                   ) -> tuple[list[list[int]], bool]:  # fmt: skip
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


def replay(hand: int, me: int, leader: int, cards: list[int], trump: int, bids=(0, 0, 0, 0),
           first_lead_trump: bool = False) -> Position:  # fmt: skip
    """The public position after ``cards`` (in play order, the first led by ``leader``) as seat
    ``me`` (0..3) holding ``hand`` (its 13 cards, those it played included) sees it: its own
    hand, what the others played and the voids they showed. The other seats' hands in the
    position are a stand-in that fits the play (the cards they played, and cards of suits they
    have not shown out of); only their sizes and the cards they may hold matter to the layouts.
    Errors (a card played twice, a card of another seat in ``me``'s hand, a revoke by ``me``,
    a seat playing a suit it showed out of) name the trick."""
    from analyzer.core.errors import T400Error
    from analyzer.core.notation import Card

    def word(c):
        return Card.from_index(c).symbol

    # who played each card: the trick winners follow from the cards alone
    seats, lead, trick = [], leader, []
    seen, voids = 0, 0
    for k, c in enumerate(cards):
        seat = (lead + len(trick)) % 4
        t = k // 4 + 1
        if seen >> c & 1:
            raise T400Error(f"trick {t}: {word(c)} is played twice")
        if seat != me and hand >> c & 1:
            raise T400Error(f"trick {t}: seat {seat + 1} played {word(c)}, a card of seat {me + 1}'s hand")
        if seat == me and not hand >> c & 1:
            raise T400Error(f"trick {t}: seat {me + 1} played {word(c)}, not in the hand given")
        if trick and c >> 4 != trick[0] >> 4:
            voids |= 1 << (4 * seat + (trick[0] >> 4))
        elif voids >> (4 * seat + (c >> 4)) & 1:
            raise T400Error(f"trick {t}: seat {seat + 1} played {word(c)} after showing out of the suit")
        seen |= 1 << c
        seats.append(seat)
        trick.append(c)
        if len(trick) == 4:
            led, best = trick[0] >> 4, 0
            for i in range(1, 4):
                if power(trick[i], led, trump) > power(trick[best], led, trump):
                    best = i
            lead = (lead + best) % 4
            trick = []
    # a stand-in for the hidden hands: each other seat's played cards and, to 13, unseen cards
    # of suits it has not shown out of (a matching of the unseen cards to the places left)
    played = [0, 0, 0, 0]
    for c, s in zip(cards, seats):
        played[s] |= 1 << c
    others = [q for q in range(4) if q != me]
    room = {q: 13 - played[q].bit_count() for q in others}
    hands = [0, 0, 0, 0]
    hands[me] = hand
    for q in others:
        hands[q] = played[q]
    full = 0
    for suit in range(4):
        full |= 0x1FFF << (16 * suit)
    unseen = [c for c in range(64) if full >> c & 1 and not (hand | seen) >> c & 1]
    owner = _fill(unseen, others, room, voids)
    if owner is None:
        raise T400Error("no deal fits the play: the voids shown leave a card no seat can hold")
    for c, q in owner.items():
        hands[q] |= 1 << c
    pos = Position(hands, bids, leader=leader, trump=trump)
    pos.first_lead_trump = first_lead_trump
    for k, c in enumerate(cards):
        try:
            pos.play(c)
        except ValueError:
            if k == 0:
                raise T400Error(f"trick 1: seat {pos.mover + 1} must lead a trump (the variant's first lead) "
                                "and held one") from None  # fmt: skip
            raise T400Error(
                f"trick {k // 4 + 1}: seat {pos.mover + 1} revoked: played {word(c)} but held the suit led"
            ) from None
    return pos


def _fill(cards: list[int], seats: list[int], room: dict, voids: int) -> dict | None:
    """Each of ``cards`` to one of ``seats`` with room left (``room``: cards each seat still
    holds beyond those it played) and not shown out of the card's suit, or ``None`` when no such
    deal exists: a matching of cards to seats' places, grown one augmenting path at a time."""
    owner: dict[int, int] = {}
    held: dict[int, list[int]] = {q: [] for q in seats}

    def can(c, q):
        return not voids >> (4 * q + (c >> 4)) & 1

    def place(c, seen) -> bool:
        for q in seats:
            if not can(c, q) or q in seen:
                continue
            seen.add(q)
            if len(held[q]) < room[q]:
                owner[c] = q
                held[q].append(c)
                return True
            for other in list(held[q]):  # move a card of q elsewhere to make room
                held[q].remove(other)
                if place(other, seen):
                    owner[c] = q
                    held[q].append(c)
                    return True
                held[q].append(other)
        return False

    for c in cards:
        if not place(c, set()):
            return None
    return owner
