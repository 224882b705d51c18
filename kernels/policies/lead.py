"""The opening lead of 400: each card the leader holds is scored by a model fitted on
double-dummy scores of every opening lead (``t400 fit-lead``), and the best score is led.

A card's score is a sum of integer weights (:mod:`kernels.policies.lead_weights`, generated):
six tables indexed by the card's *kind* (:func:`lead_kind`: the ace with the king, a singleton,
the top of a sequence, low away from a king ..., for a side suit and for trumps, 24 kinds) and
one context each, plus six whole-number features times their weights:

===================  ================================================================
table                context
===================  ================================================================
length               the suit's length (1, 2, ..., 6 or more)
own bid              the leader's bid (2, 3, 4, 5, 6 or more)
partner's bid        the same buckets
opponents' bid       the larger of the two opponents' bids, the same buckets
trumps               the leader's trumps (0, 1, ..., 5 or more)
strength             the hand's high-card points (A 4, K 3, Q 2, J 1: <8, <11, <14, <17, more)
===================  ================================================================

The features: the card's rank (0 for a two .. 12 for an ace), the cards of its suit above it that
the leader does not hold, the suit's high-card points, the trumps held when the suit is a side
doubleton or singleton, partner's bid when it is a side singleton, partner's bid when it is a trump.
Everything here is public to the leader: its hand and the four bids.
"""

import numpy as np

from kernels.config import jit
from kernels.core.cards import highest_bit, lane, lowest_bit, popcount
from kernels.policies.lead_weights import FEATURE_WEIGHTS, TABLE_WEIGHTS

U64 = np.uint64
_ONE = U64(1)
hot = jit(forceinline=True)

# Lead kinds of a suit (by absolute ranks); a trump lead's kind is the same plus N_SIDE_KINDS.
A_WITH_K, SINGLETON, DOUBLETON_TOP, TOP_OF_SEQUENCE, LOW_FROM_NOTHING, TOP_OF_NOTHING = 0, 1, 2, 3, 4, 5
LOW_AWAY_FROM_QJ, A_WITHOUT_K, LOW_AWAY_FROM_K, MIDDLE, HONOUR_TOP, LOW_UNDER_A = 6, 7, 8, 9, 10, 11
N_SIDE_KINDS = 12
N_KINDS = 2 * N_SIDE_KINDS
# The contexts' bucket counts, in table order (length, own bid, partner's bid, opponents' bid,
# trumps, strength), and where each table starts in TABLE_WEIGHTS.
CONTEXT_SIZES = (6, 5, 5, 5, 6, 5)
N_FEATURES = 6


def table_offsets():
    out, at = [], 0
    for size in CONTEXT_SIZES:
        out.append(at)
        at += N_KINDS * size
    return tuple(out), at


TABLE_OFFSETS, N_TABLE_WEIGHTS = table_offsets()


@hot
def lead_kind(cs, card):
    """The kind of lead ``card`` is from ``cs`` (its suit in the hand), by absolute ranks."""
    r = card & 15
    base = U64((card >> 4) << 4)
    if popcount(cs) == 1:
        return SINGLETON
    ranks = cs >> base
    top = highest_bit(cs) & 15
    if r == top:
        if r == 12:
            return A_WITH_K if (ranks >> U64(11)) & _ONE else A_WITHOUT_K
        if r >= 8 and (ranks >> U64(r - 1)) & _ONE:
            return TOP_OF_SEQUENCE
        if r >= 9:
            return HONOUR_TOP
        return DOUBLETON_TOP if popcount(cs) == 2 else TOP_OF_NOTHING
    if r == (lowest_bit(cs) & 15):
        if (ranks >> U64(12)) & _ONE:
            return LOW_UNDER_A
        if (ranks >> U64(11)) & _ONE:
            return LOW_AWAY_FROM_K
        if (ranks >> U64(9)) & U64(3):
            return LOW_AWAY_FROM_QJ
        return LOW_FROM_NOTHING
    return MIDDLE


@hot
def bid_bucket(bid):
    """2 -> 0, 3 -> 1, 4 -> 2, 5 -> 3, 6 or more -> 4."""
    return min(max(bid, 2), 6) - 2


@hot
def suit_points(cs):
    """High-card points of ``cs`` (one suit's cards): A 4, K 3, Q 2, J 1."""
    ranks = cs >> U64((lowest_bit(cs) >> 4) << 4) if cs else U64(0)
    return (
        4 * int((ranks >> U64(12)) & _ONE)
        + 3 * int((ranks >> U64(11)) & _ONE)
        + 2 * int((ranks >> U64(10)) & _ONE)
        + int((ranks >> U64(9)) & _ONE)
    )


@hot
def lead_context(hand, bids, seat, trump, card):
    """The model's inputs for leading ``card`` from ``hand`` (uint64) with ``bids`` (8 bits a
    seat) as ``seat``: a tuple of 12 ints, six indices into TABLE_WEIGHTS then six features."""
    suit = card >> 4
    cs = hand & lane(suit)
    is_trump = suit == trump
    kind = lead_kind(cs, card) + (N_SIDE_KINDS if is_trump else 0)
    length = popcount(cs)
    trumps = popcount(hand & lane(trump))
    points = 0
    for s in range(4):
        points += suit_points(hand & lane(s))
    own = (bids >> (8 * seat)) & 255
    partner = (bids >> (8 * (seat ^ 2))) & 255
    opponents = max((bids >> (8 * (seat ^ 1))) & 255, (bids >> (8 * (seat ^ 3))) & 255)
    strength = 0 if points < 8 else 1 if points < 11 else 2 if points < 14 else 3 if points < 17 else 4
    buckets = (min(length, 6) - 1, bid_bucket(own), bid_bucket(partner), bid_bucket(opponents),
               min(trumps, 5), strength)  # fmt: skip
    rank = card & 15
    above = 0
    for q in range(rank + 1, 13):
        if not (cs >> U64(16 * suit + q)) & _ONE:
            above += 1
    short_side = not is_trump and length <= 2
    return (
        TABLE_OFFSETS[0] + kind * CONTEXT_SIZES[0] + buckets[0],
        TABLE_OFFSETS[1] + kind * CONTEXT_SIZES[1] + buckets[1],
        TABLE_OFFSETS[2] + kind * CONTEXT_SIZES[2] + buckets[2],
        TABLE_OFFSETS[3] + kind * CONTEXT_SIZES[3] + buckets[3],
        TABLE_OFFSETS[4] + kind * CONTEXT_SIZES[4] + buckets[4],
        TABLE_OFFSETS[5] + kind * CONTEXT_SIZES[5] + buckets[5],
        rank,
        above,
        suit_points(cs),
        trumps if short_side else 0,
        partner if (short_side and length == 1) else 0,
        partner if is_trump else 0,
    )


@hot
def lead_score(hand, bids, seat, trump, card):
    """The model's score of leading ``card`` (higher is better), an int."""
    x = lead_context(hand, bids, seat, trump, card)
    w, f = TABLE_WEIGHTS, FEATURE_WEIGHTS
    tables = w[x[0]] + w[x[1]] + w[x[2]] + w[x[3]] + w[x[4]] + w[x[5]]
    return tables + f[0] * x[6] + f[1] * x[7] + f[2] * x[8] + f[3] * x[9] + f[4] * x[10] + f[5] * x[11]


@hot
def fitted_lead(hand, bids, seat, trump):
    """The opening lead with the best score; on equal scores the lowest card index."""
    best = -1
    best_score = 0
    rest = hand
    while rest:
        c = lowest_bit(rest)
        rest &= rest - _ONE
        score = lead_score(hand, bids, seat, trump, c)
        if best < 0 or score > best_score:
            best = c
            best_score = score
    return best


@jit
def lead_rows(hands, bids, seat, trump, cards, contexts, features):
    """The model's inputs for every card of seat ``seat``'s hand on each deal: ``hands``
    uint64[n, 4], ``bids`` int64[n, 4] -> ``cards`` int64[n, 13] (card indices, -1 past the
    hand), ``contexts`` int64[n, 13, 6], ``features`` int64[n, 13, 6]."""
    for i in range(hands.shape[0]):
        packed = 0
        for s in range(4):
            packed |= bids[i, s] << (8 * s)
        hand = hands[i, seat]
        rest = hand
        k = 0
        while rest:
            c = lowest_bit(rest)
            rest &= rest - _ONE
            cards[i, k] = c
            x = lead_context(hand, packed, seat, trump, c)
            contexts[i, k, 0], contexts[i, k, 1], contexts[i, k, 2] = x[0], x[1], x[2]
            contexts[i, k, 3], contexts[i, k, 4], contexts[i, k, 5] = x[3], x[4], x[5]
            features[i, k, 0], features[i, k, 1], features[i, k, 2] = x[6], x[7], x[8]
            features[i, k, 3], features[i, k, 4], features[i, k, 5] = x[9], x[10], x[11]
            k += 1
        while k < 13:
            cards[i, k] = -1
            k += 1
