"""Trick play: legal moves, trick winners, card-play policies and the trick loop.

A policy decides from what its player could know at the table: its own hand, which players still
need tricks to make their bids (from all bids and the tricks taken so far), the cards played so
far (``played``, including the current trick) and who has shown out of which suit (``voids``).
:func:`choose_card` never receives another player's hidden cards. Policies are numbered
(:data:`GREEDY`, :data:`STANDARD`); a stronger policy is a new function plus one branch in
:func:`choose_card`, without touching the others.

The state a policy sees is packed into scalars (no arrays, so no reference counting on the hot
path):

* ``voids``: int64, bit ``4 * seat + suit`` set once ``seat`` has shown out of ``suit``;
* ``need``: int64, bit ``seat`` set while ``seat`` has fewer tricks than its bid;
* the current trick as ``n_played`` (cards so far), ``led`` (the suit led), ``best`` (the card
  winning so far) and ``best_pos`` (its position; position 0 is the leader's).

Seats are 0..3 (seat index 0 is seat 1); partners are ``seat ^ 2``.
"""

import numpy as np
from numba import types
from numba.extending import overload

from kernels.cards import FULL_DECK, above, highest_bit, lane, lowest_bit, popcount
from kernels.config import JIT, jit

U64 = np.uint64
GREEDY = 0
STANDARD = 1
POLICY_NAMES = ("greedy", "standard")

_LANE = U64(0x1FFF)
_ONE = U64(1)
hot = jit(forceinline=True)


@hot
def power(card, led, trump):
    """A card's strength in a trick led ``led``: the highest wins; below 16 it cannot win."""
    suit = card >> 4
    return (card & 15) + (16 if suit == led else 0) + (32 if suit == trump else 0)


@hot
def legal_moves(hand, n_played, led):
    """Cards of ``hand`` that may be played: any when leading, else the led suit if held."""
    if n_played == 0:
        return hand
    follow = hand & lane(led)
    return follow if follow else hand


@hot
def winning_cards(legal, best, led, trump):
    """The cards of ``legal`` that would beat ``best`` in a trick led in suit ``led``."""
    follow = legal & lane(led)
    best_suit = best >> 4
    if follow:
        if best_suit != led:  # already trumped: following cannot win
            return U64(0)
        return follow & above(best)
    trumps = legal & lane(trump)
    if best_suit == trump:
        return trumps & above(best)
    return trumps


@hot
def needs(need, seat):
    return (need >> seat) & 1 == 1


@hot
def shown_void(voids, seat, suit):
    return (voids >> (4 * seat + suit)) & 1 == 1


# ---------------------------------------------------------------------------------------------
# greedy: win as cheaply as possible when possible, otherwise play low


_SUIT_BASES = U64(0x0001000100010001)


@hot
def fold(cards):
    """The ranks present in any suit of ``cards``, as one 13-bit lane."""
    return (cards | (cards >> U64(16)) | (cards >> U64(32)) | (cards >> U64(48))) & _LANE


@hot
def card_of_rank(cards, rank):
    """A card of ``rank`` in ``cards`` (the first suit in S H D C order holding it)."""
    return lowest_bit((cards >> U64(rank)) & _SUIT_BASES) + rank


@hot
def _lowest_discard(cards, trump):
    """Lowest-ranked card, keeping trumps while there is anything else."""
    side = cards & ~lane(trump)
    pool = side if side else cards
    return card_of_rank(pool, lowest_bit(fold(pool)))


@hot
def _highest_side(cards, trump):
    """Highest-ranked card, preferring non-trumps."""
    side = cards & ~lane(trump)
    pool = side if side else cards
    return card_of_rank(pool, highest_bit(fold(pool)))


@hot
def greedy_card(hand, n_played, led, best, trump):
    """Lead the highest side card; follow with the cheapest winner, else the lowest card."""
    if n_played == 0:
        return _highest_side(hand, trump)
    legal = legal_moves(hand, n_played, led)
    wins = winning_cards(legal, best, led, trump)
    low = _lowest_discard(legal, trump)
    return lowest_bit(wins) if wins else low


# ---------------------------------------------------------------------------------------------
# standard: bid-aware play


@hot
def void_known(voids, seat, suit, unseen):
    """Whether ``seat`` surely holds no card of ``suit``: shown out, or none left unseen."""
    if suit > 3:
        return True
    return shown_void(voids, seat, suit) or (unseen & lane(suit)) == 0


@JIT
def beatable(card, led, trump, seat, leader, n_played, unseen, voids):
    """Whether an opponent of ``seat`` still to play to this trick could beat ``card``.

    ``card`` would be winning after ``seat`` plays. Judged from what ``seat`` knows: the unseen
    cards and the voids shown (a void not yet shown is not assumed).
    """
    suit = card >> 4
    higher = unseen & above(card)
    unseen_trumps = unseen & lane(trump)
    for k in range(n_played + 1, 4):
        q = (leader + k) & 3
        if q == (seat ^ 2):
            continue
        q_void_led = void_known(voids, q, led, unseen)
        if suit == led:
            if higher and not q_void_led:
                return True
            if suit != trump and q_void_led and unseen_trumps and not void_known(voids, q, trump, unseen):
                return True
        elif higher and q_void_led and not void_known(voids, q, trump, unseen):
            return True  # an overruff
    return False


@JIT
def discard(hand, trump, unseen):
    """The card to throw when neither following nor trumping: the lowest side card (from the
    shorter suit on ties), keeping masters and trumps while there is anything else."""
    best = -1
    best_key = 1 << 30
    for s in range(4):
        if s == trump:
            continue
        cs = hand & lane(s)
        if cs == 0:
            continue
        c = lowest_bit(cs)
        key = (c & 15) * 16 + popcount(cs)
        if (unseen & above(c)) == 0:
            key += 1024  # a master: keep it
        if key < best_key:
            best_key = key
            best = c
    if best < 0:
        best = lowest_bit(hand)
    return best


@hot
def _standard_follow(seat, hand, played, voids, need, leader, n_played, led, best, best_pos, trump):
    legal = legal_moves(hand, n_played, led)
    led_cards = hand & lane(led)
    unseen = FULL_DECK & ~(hand | played)
    best_seat = (leader + best_pos) & 3
    partner = seat ^ 2
    wins = winning_cards(legal, best, led, trump)
    me_need = needs(need, seat)
    partner_need = needs(need, partner)
    last = n_played == 3

    if best_seat == partner and not beatable(best, led, trump, seat, leader, n_played, unseen, voids):
        # Partner has the trick: don't overtake, unless partner has made their bid, I still
        # need tricks, and as the last player I can take it for myself.
        if wins and last and me_need and not partner_need:
            return lowest_bit(wins)
        return lowest_bit(led_cards) if led_cards else discard(hand, trump, unseen)

    want = me_need or partner_need
    if not want:  # set an opponent who still needs tricks
        if best_seat != partner and needs(need, best_seat):
            want = True
        for k in range(n_played + 1, 4):
            q = (leader + k) & 3
            if q != partner and needs(need, q):
                want = True

    if wins and want:
        if last:
            return lowest_bit(wins)
        rest = wins
        while rest:  # the cheapest winner no opponent still to play can beat
            c = lowest_bit(rest)
            if not beatable(c, led, trump, seat, leader, n_played, unseen, voids):
                return c
            rest &= rest - _ONE
        if not led_cards:
            return lowest_bit(wins)  # ruff low and hope
        if n_played == 2:
            return highest_bit(wins)  # third hand high
        # second hand low
    if led_cards:
        return lowest_bit(led_cards)
    return discard(hand, trump, unseen)


@JIT
def _standard_lead(seat, hand, played, voids, need, trump):
    unseen = FULL_DECK & ~(hand | played)
    partner = seat ^ 2
    opp1 = seat ^ 1
    opp2 = seat ^ 3
    team_need = needs(need, seat) or needs(need, partner)
    if not (team_need or needs(need, opp1) or needs(need, opp2)):
        return discard(hand, trump, unseen)
    trump_lane = lane(trump)
    my_trumps = hand & trump_lane
    unseen_trumps = unseen & trump_lane

    # Draw trumps with a master trump while the others still hold some.
    if my_trumps and unseen_trumps:
        top = highest_bit(my_trumps)
        if (unseen & above(top)) == 0 and popcount(my_trumps) >= 2:
            return top

    # Cash the side-suit master that the opponents are least likely to ruff.
    cash = -1
    cash_key = -1
    for s in range(4):
        if s == trump:
            continue
        cs = hand & lane(s)
        if cs == 0:
            continue
        top = highest_bit(cs)
        if unseen & above(top):
            continue
        if unseen_trumps and (
            (void_known(voids, opp1, s, unseen) and not void_known(voids, opp1, trump, unseen))
            or (void_known(voids, opp2, s, unseen) and not void_known(voids, opp2, trump, unseen))
        ):
            continue
        key = popcount(unseen & lane(s))
        if key > cash_key:
            cash_key = key
            cash = top
    if cash >= 0:
        return cash

    # No trumps left out: every trump is a winner.
    if my_trumps and not unseen_trumps:
        return highest_bit(my_trumps)

    # Give partner a ruff: a suit partner has shown out of while maybe holding trumps.
    if team_need and unseen_trumps and not void_known(voids, partner, trump, unseen):
        for s in range(4):
            if s != trump and (hand & lane(s)) and shown_void(voids, partner, s):
                return lowest_bit(hand & lane(s))

    # Lead low from a side suit: short suits while holding trumps (to ruff later), never away
    # from a guarded honour that waits to be led through.
    best = -1
    best_key = 1 << 30
    for s in range(4):
        if s == trump:
            continue
        cs = hand & lane(s)
        if cs == 0:
            continue
        length = popcount(cs)
        top = highest_bit(cs)
        key = length
        if (top & 15) >= 9 and length >= 2 and (unseen & above(top)):
            key += 40
        if my_trumps and length <= 2:
            key -= 10 * (3 - length)
        if key < best_key:
            best_key = key
            best = lowest_bit(cs)
    if best >= 0:
        return best
    top = highest_bit(hand)  # only trumps left
    return top if (unseen & above(top)) == 0 else lowest_bit(hand)


@hot
def standard_card(seat, hand, played, voids, need, leader, n_played, led, best, best_pos, trump):
    if n_played == 0:
        return _standard_lead(seat, hand, played, voids, need, trump)
    return _standard_follow(seat, hand, played, voids, need, leader, n_played, led, best, best_pos, trump)


@hot
def choose_card(policy, seat, hand, played, voids, need, leader, n_played, led, best, best_pos, trump):
    """The card ``seat`` plays under ``policy``, from what that seat can know."""
    if policy == GREEDY:
        return greedy_card(hand, n_played, led, best, trump)
    return standard_card(seat, hand, played, voids, need, leader, n_played, led, best, best_pos, trump)


# ---------------------------------------------------------------------------------------------
# The trick loop


def store(record, n, card):
    """``record[n] = card``, or nothing when ``record`` is ``None`` (resolved at compile time)."""


@overload(store, jit_options={"cache": True})
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


@hot
def _play(h0, h1, h2, h3, b0, b1, b2, b3, p0, p1, p2, p3, leader, trump, record):
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
    for _ in range(popcount(h0)):
        need = (
            np.int64((tricks & 255) < b0)
            | (np.int64(((tricks >> 8) & 255) < b1) << 1)
            | (np.int64(((tricks >> 16) & 255) < b2) << 2)
            | (np.int64(((tricks >> 24) & 255) < b3) << 3)
        )
        best = 0
        best_pos = 0
        best_power = 0
        led = 0
        for k in range(4):
            seat = (leader + k) & 3
            card = choose_card(q0, seat, a0, played, voids, need, leader, k, led, best, best_pos, trump)
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
def play_tricks(h0, h1, h2, h3, b0, b1, b2, b3, p0, p1, p2, p3, leader, trump):
    """Play out a deal given as scalars (hands, bids, policies by seat); no arrays, for hot loops.

    Returns the tricks per seat packed 8 bits each: seat ``s`` took ``(result >> 8s) & 255``.
    """
    return _play(h0, h1, h2, h3, b0, b1, b2, b3, p0, p1, p2, p3, leader, trump, None)


@JIT
def play_tricks_greedy(h0, h1, h2, h3, b0, b1, b2, b3, leader, trump):
    """:func:`play_tricks` with every seat on the greedy policy (compiled without the others)."""
    return _play(h0, h1, h2, h3, b0, b1, b2, b3, GREEDY, GREEDY, GREEDY, GREEDY, leader, trump, None)


@JIT
def play_hand(hands, bids, leader, policies, trump, tricks, record):
    """Play out a deal; the tricks each seat takes go to ``tricks``.

    hands: uint64[4] (not modified, equal card counts); bids: int64[4]; leader: seat index
    leading the first trick; policies: int64[4], a policy per seat; trump: 0..3;
    tricks: int64[4], overwritten; record: int64 array that receives the cards in play order
    (at least 4 cards per trick long), or empty not to record.
    Returns the number of cards played.
    """
    n = 4 * popcount(hands[0])
    if record.shape[0] == 0:
        packed = play_tricks(
            hands[0], hands[1], hands[2], hands[3], bids[0], bids[1], bids[2], bids[3],
            policies[0], policies[1], policies[2], policies[3], leader, trump,
        )  # fmt: skip
    else:
        if record.shape[0] < n:
            raise ValueError("record is shorter than the cards to play")
        packed = _play(
            hands[0], hands[1], hands[2], hands[3], bids[0], bids[1], bids[2], bids[3],
            policies[0], policies[1], policies[2], policies[3], leader, trump, record,
        )  # fmt: skip
    for s in range(4):
        tricks[s] = (packed >> (8 * s)) & 255
    return n
