"""The trick loop and the policy dispatch: who plays which card, trick after trick.

A policy decides from what its player could know at the table: its own hand, which players still
need tricks to make their bids (from all bids and the tricks taken so far), the cards played so
far (``played``, including the current trick) and who has shown out of which suit (``voids``).
:func:`choose_card` never receives another player's hidden cards. Policies are numbered
(:data:`GREEDY`, :data:`STANDARD`, :data:`BASIC`, and :data:`TEAM` for the partnership contracts of
classic Tarneeb, whose "bids" are the sides' targets, see :mod:`kernels.policies.team`; :data:`TEAM1`
and :data:`STANDARD1` are the first rounds of ``team`` and ``standard``, kept as the yardsticks of
duplicate comparisons); each lives in its own module of this folder, and a new one
is a module, an id here and its branch in :func:`_policy_card`. An unknown id is an error
(:func:`check_policies`, called by every kernel that takes policies). Every kernel that plays
takes the policies' :class:`~kernels.core.kit.Kit` beside them, so that a question played by one
policy compiles that policy only.

The state a policy sees is packed into scalars (no arrays, so no reference counting on the hot
path):

* ``voids``: int64, bit ``4 * seat + suit`` set once ``seat`` has shown out of ``suit``;
* ``bids`` and ``taken``: int64, each seat's bid and tricks taken so far, 8 bits per seat (seat
  ``s`` at bits ``8s``); :func:`need_bits` turns them into one bit per seat still short of its bid;
* the current trick as ``n_played`` (cards so far), ``led`` (the suit led), ``best`` (the card
  winning so far) and ``best_pos`` (its position; position 0 is the leader's).

Seats are 0..3 (seat index 0 is seat 1); partners are ``seat ^ 2``.
"""

import numpy as np
from numba import types
from numba.extending import overload

from kernels.config import JIT, JIT_OPTIONS, jit
from kernels.core.cards import popcount
from kernels.core.deal import deal_full, new_deck
from kernels.core.kit import check_kit, kit_policies, play_kit
from kernels.core.rng import below, stream
from kernels.core.tricks import power
from kernels.policies.basic import basic_card
from kernels.policies.greedy import greedy_card
from kernels.policies.standard import need_bits
from kernels.policies.standard_follow import standard_follow_card
from kernels.policies.team import team_card

U64 = np.uint64
GREEDY = 0
STANDARD = 1
BASIC = 2
TEAM = 3
TEAM1 = 4
STANDARD1 = 5
POLICY_NAMES = ("greedy", "standard", "basic", "team", "team1", "standard1")
N_POLICIES = len(POLICY_NAMES)

_ONE = U64(1)
hot = jit(forceinline=True)


@JIT
def check_policies(policies, kit):
    """Raise ``ValueError`` if any id of ``policies`` (int64 array) is not a known policy, or
    if the kit's policy is not theirs."""
    for p in policies:
        if p < 0 or p >= N_POLICIES:
            raise ValueError("unknown play policy id")
    check_kit(policies, kit_policies(kit))


def choose_card(
    kit, policy, seat, hand, played, voids, bids, taken, leader, n_played, led, best, best_pos, trump
):
    """The card ``seat`` plays under ``policy``, from what that seat can know. ``kit`` (a
    :class:`~kernels.core.kit.Kit`) decides the dispatch while compiling: a uniform kit plays its
    policy (and compiles only that one), a mixed kit dispatches on ``policy`` among its own."""


def _policy_card(fixed, mask):
    """The body of :func:`choose_card` for a kit whose policy is ``fixed`` (``MIXED``: by
    ``policy``, among the ids of ``mask``)."""
    if fixed == GREEDY:

        def card(
            kit, policy, seat, hand, played, voids, bids, taken, leader, n_played, led, best, best_pos, trump
        ):
            return greedy_card(hand, n_played, led, best, trump)

    elif fixed == BASIC:

        def card(
            kit, policy, seat, hand, played, voids, bids, taken, leader, n_played, led, best, best_pos, trump
        ):
            need = need_bits(bids, taken)
            return basic_card(seat, hand, played, voids, need, leader, n_played, led, best, best_pos, trump)

    elif fixed == TEAM or fixed == TEAM1:
        defence = fixed == TEAM  # team1: the first round, the declarers' plan on both sides, the plan's leads

        def card(
            kit, policy, seat, hand, played, voids, bids, taken, leader, n_played, led, best, best_pos, trump
        ):
            return team_card(
                seat, hand, played, voids, bids, taken, leader, n_played, led, best, best_pos, trump, defence,
                defence,
            )  # fmt: skip

    elif fixed == STANDARD or fixed == STANDARD1:
        plan_only = fixed == STANDARD1  # standard1: the first round, the plan alone

        def card(
            kit, policy, seat, hand, played, voids, bids, taken, leader, n_played, led, best, best_pos, trump
        ):
            return standard_follow_card(
                seat, hand, played, voids, bids, taken, leader, n_played, led, best, best_pos, trump, plan_only
            )

    else:
        # a branch on a constant is pruned before typing: the kit's other policies are not compiled
        greedy, basic = bool(mask >> GREEDY & 1), bool(mask >> BASIC & 1)
        team = bool(mask >> TEAM & 1) or bool(mask >> TEAM1 & 1)
        standard = bool(mask >> STANDARD & 1) or bool(mask >> STANDARD1 & 1)

        def card(
            kit, policy, seat, hand, played, voids, bids, taken, leader, n_played, led, best, best_pos, trump
        ):
            if greedy:
                if policy == GREEDY:
                    return greedy_card(hand, n_played, led, best, trump)
            if basic:
                if policy == BASIC:
                    need = need_bits(bids, taken)
                    return basic_card(
                        seat, hand, played, voids, need, leader, n_played, led, best, best_pos, trump
                    )
            if team:
                if policy == TEAM or policy == TEAM1:
                    defend = policy == TEAM
                    return team_card(
                        seat, hand, played, voids, bids, taken, leader, n_played, led, best, best_pos, trump,
                        defend, defend,
                    )  # fmt: skip
            if standard:
                return standard_follow_card(
                    seat, hand, played, voids, bids, taken, leader, n_played, led, best, best_pos, trump,
                    policy == STANDARD1,
                )  # fmt: skip
            return -1  # not reached: check_policies keeps a kernel's policies within its kit

    return card


# inlined into the trick loop before typing (Numba still compiles the chosen body once to check it)
@overload(choose_card, inline="always", jit_options={"cache": JIT_OPTIONS["cache"]})
def _choose_card(
    kit, policy, seat, hand, played, voids, bids, taken, leader, n_played, led, best, best_pos, trump
):
    return _policy_card(kit.policy, kit.policies)


@JIT
def pick_card(
    kit, policy, seat, hand, played, voids, bids, taken, leader, n_played, led, best, best_pos, trump
):
    """:func:`choose_card` as a kernel of its own, for callers outside Numba (tests, the
    per-card benchmarks)."""
    return choose_card(kit, policy, seat, hand, played, voids, bids, taken, leader, n_played, led, best, best_pos,
                       trump)  # fmt: skip


# ---------------------------------------------------------------------------------------------
# The trick loop


def store(record, n, card):
    """``record[n] = card``, or nothing when ``record`` is ``None`` (resolved at compile time)."""


@overload(store, jit_options={"cache": JIT_OPTIONS["cache"]})
def _store(record, n, card):
    if isinstance(record, types.NoneType):
        return lambda record, n, card: None

    def impl(record, n, card):
        record[n] = card

    return impl


@hot
def _rotate(a0, a1, a2, a3, by):
    """(a[by], a[by+1], a[by+2], a[by+3]) with indices mod 4."""
    if by == 0:
        return a0, a1, a2, a3
    if by == 1:
        return a1, a2, a3, a0
    if by == 2:
        return a2, a3, a0, a1
    return a3, a0, a1, a2


@jit(inline="always")  # inlined before typing: the trick loop is not one more unit to compile
def _play(h0, h1, h2, h3, b0, b1, b2, b3, p0, p1, p2, p3, kit, leader, trump, record):
    """The trick loop on scalars; returns tricks per seat packed 8 bits each (seat s at 8s).

    ``record`` is an int64 array receiving the cards in play order, or ``None``. Inside a trick
    the hands and policies are kept rotated so that position ``k`` is always the first variable.
    """
    tricks = 0
    voids = 0
    played = U64(0)
    n = 0
    a0, a1, a2, a3 = _rotate(h0, h1, h2, h3, leader)
    q0, q1, q2, q3 = _rotate(p0, p1, p2, p3, leader)
    bids = np.int64(b0) | (np.int64(b1) << 8) | (np.int64(b2) << 16) | (np.int64(b3) << 24)
    for _ in range(popcount(h0)):
        best = 0
        best_pos = 0
        best_power = 0
        led = 0
        for k in range(4):
            seat = (leader + k) & 3
            card = choose_card(
                kit, q0, seat, a0, played, voids, bids, tricks, leader, k, led, best, best_pos, trump
            )
            bit = _ONE << U64(card)
            played |= bit
            if k == 0:
                best = card
                led = card >> 4
                best_power = power(card, led, trump)
            else:
                voids |= np.int64((card >> 4) != led) << (4 * seat + led)
                p = power(card, led, trump)
                if p > best_power:
                    best_power = p
                    best = card
                    best_pos = k
            store(record, n, card)
            n += 1
            a0, a1, a2, a3 = a1, a2, a3, a0 & ~bit
            q0, q1, q2, q3 = q1, q2, q3, q0
        leader = (leader + best_pos) & 3
        tricks += 1 << (8 * leader)
        a0, a1, a2, a3 = _rotate(a0, a1, a2, a3, best_pos)
        q0, q1, q2, q3 = _rotate(q0, q1, q2, q3, best_pos)
    return tricks


@JIT
def play_tricks(h0, h1, h2, h3, b0, b1, b2, b3, p0, p1, p2, p3, kit, leader, trump):
    """Play out a deal given as scalars (hands, bids, policies by seat, the kit: its play part,
    :func:`~kernels.core.kit.play_kit`); no arrays, for hot loops.

    Returns the tricks per seat packed 8 bits each: seat ``s`` took ``(result >> 8s) & 255``.
    """
    return _play(h0, h1, h2, h3, b0, b1, b2, b3, p0, p1, p2, p3, kit, leader, trump, None)


@jit(inline="always")  # a wrapper: inlined before typing, so it is not one more unit to compile
def play_deal(hands, bids, policies, kit, leader, trump, tricks):
    """Play out ``hands`` (uint64[4]) with ``policies`` (int64[4]) and their ``kit`` from
    ``leader`` (seat index) with ``trump`` (suit index, 4 for no trump); the tricks per seat go
    to ``tricks``."""
    packed = play_tricks(
        hands[0], hands[1], hands[2], hands[3], bids[0], bids[1], bids[2], bids[3],
        policies[0], policies[1], policies[2], policies[3], play_kit(kit), leader, trump,
    )  # fmt: skip
    for s in range(4):
        tricks[s] = (packed >> (8 * s)) & 255


@JIT
def play_hand(hands, bids, leader, policies, kit, trump, tricks, record):
    """Play out a deal; the tricks each seat takes go to ``tricks``.

    hands: uint64[4] (not modified, equal card counts); bids: int64[4]; leader: seat index
    leading the first trick; policies: int64[4], a policy per seat; kit: their
    :class:`~kernels.core.kit.Kit`; trump: 0..3, or 4 for no trump;
    tricks: int64[4], overwritten; record: int64 array that receives the cards in play order
    (at least 4 cards per trick long), or empty not to record.
    Returns the number of cards played.
    """
    check_policies(policies, kit)
    n = 4 * popcount(hands[0])
    if record.shape[0] > 0 and record.shape[0] < n:
        raise ValueError("record is shorter than the cards to play")
    # one recording trick loop (play_tricks is a second copy of it, not compiled for this kernel)
    cards = record if record.shape[0] > 0 else np.empty(max(n, 1), dtype=np.int64)
    packed = _play(
        hands[0], hands[1], hands[2], hands[3], bids[0], bids[1], bids[2], bids[3],
        policies[0], policies[1], policies[2], policies[3], kit, leader, trump, cards,
    )  # fmt: skip
    for s in range(4):
        tricks[s] = (packed >> (8 * s)) & 255
    return n


@JIT
def probe_play(seed, n_deals, policy, kit, out):
    """Card play's behaviour on a fixed probe, for the play fingerprint: ``n_deals`` deals of
    ``stream(seed, 0)`` played by four ``policy`` players (``kit``: ``Kit(policy)``) in each strain (trumps 0..3, then no
    trump), the leader and the four bids (0..13) drawn with the deal. Row ``5 * i + strain`` of
    ``out`` (int64[5 * n_deals, 56]) receives the 52 cards in play order, then the tricks by seat.
    """
    state = stream(seed, 0)
    deck = new_deck()
    hands = np.empty(4, dtype=np.uint64)
    bids = np.empty(4, dtype=np.int64)
    policies = np.full(4, policy, dtype=np.int64)
    tricks = np.empty(4, dtype=np.int64)
    for i in range(n_deals):
        deal_full(state, deck, hands)
        leader = below(state, 4)
        for s in range(4):
            bids[s] = below(state, 14)
        for strain in range(5):
            row = out[5 * i + strain]
            play_hand(hands, bids, leader, policies, kit, strain, tricks, row[:52])
            for s in range(4):
                row[52 + s] = tricks[s]
