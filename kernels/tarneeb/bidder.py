"""Tarneeb bot bidders in the kernels: twins of :mod:`analyzer.games.tarneeb.bidders`
(``tests/test_tarneeb_kernels.py`` checks them call by call).

Hands are uint64 in the layout of :mod:`kernels.core.cards`; calls and the auction state are
those of :mod:`kernels.tarneeb.rules`.
"""

import numpy as np

from kernels.config import jit
from kernels.core.cards import LANE, popcount
from kernels.tarneeb import rules as kr

hot = jit(forceinline=True)
U64 = np.uint64

#: Tricks expected from partner, in halves (2.5).
PARTNER_HALVES = 5


@hot
def _suit(hand, suit):
    return (hand >> U64(LANE * suit)) & U64(0x1FFF)


@hot
def trump_suit(hand):
    """Twin of ``trump_suit``: the longest suit, then the most high-card points, then the higher."""
    best = 0
    best_key = -1
    for suit in range(4):
        cards = _suit(hand, suit)
        hcp = 0
        for k in range(4):  # ace 4, king 3, queen 2, jack 1
            if (cards >> U64(12 - k)) & U64(1):
                hcp += 4 - k
        key = popcount(cards) * 64 + hcp
        if key > best_key:  # ties keep the earlier, higher suit
            best_key = key
            best = suit
    return best


@hot
def sure_tricks(hand, trump):
    """Twin of ``sure_tricks``: aces, protected kings, and the trumps beyond the third."""
    tricks = 0
    for suit in range(4):
        cards = _suit(hand, suit)
        if (cards >> U64(12)) & U64(1):
            tricks += 1
        if (cards >> U64(11)) & U64(1) and popcount(cards) >= 2:
            tricks += 1
    return tricks + max(0, popcount(_suit(hand, trump)) - 3)


@hot
def team_estimate(hand):
    """Twin of ``team_estimate``: the whole part of sure tricks plus partner's 2.5."""
    return (2 * sure_tricks(hand, trump_suit(hand)) + PARTNER_HALVES) // 2


@jit
def counting_call(rules, state, hand):
    """Twin of ``counting_call``: the counting bot's call (a code of kernels.tarneeb.rules) for
    the seat to speak in the auction ``state``."""
    seat = kr.next_seat(rules, state)
    strain = kr.NO_STRAIN
    if rules[kr.AUCTION] == kr.AUCTION_STRAIN:
        strain = 3 - trump_suit(hand)  # the Egyptian rank of the suit: clubs 0 .. spades 3
    if not kr.call_legal(rules, state, kr.PASS):
        for level in range(kr.MIN_BID, kr.MAX_BID + 1):
            code = kr.bid_code(level, strain)
            if kr.call_legal(rules, state, code):
                return code
    if state[kr.ST_HIGH_SEAT] >= 0 and (state[kr.ST_HIGH_SEAT] & 1) == (seat & 1):
        return kr.PASS
    estimate = min(team_estimate(hand), kr.MAX_BID)
    for level in range(kr.MIN_BID, estimate + 1):
        code = kr.bid_code(level, strain)
        if kr.call_legal(rules, state, code):
            return code
    return kr.PASS


@jit
def counting_calls(rules, states, hands, out):
    """counting_call for each row of ``states`` (int64[n, ST_SIZE]) and ``hands`` (uint64[n])."""
    for i in range(hands.shape[0]):
        out[i] = counting_call(rules, states[i], hands[i])


@jit
def counting_trump(hand):
    """trump_suit for one hand (for tests and Python callers)."""
    return trump_suit(hand)


@jit
def counting_sure(hand, trump):
    return sure_tricks(hand, trump)


@jit
def counting_team(hand):
    return team_estimate(hand)
