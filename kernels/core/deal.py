"""Uniform dealing of the unseen cards.

A *pool* is an ``int64`` array of card indices still to be dealt; :func:`deal_pool` shuffles it
(Fisher-Yates, so any starting order gives a uniform deal) and hands out ``counts[seat]`` cards to
each seat, OR-ing them into ``hands``. Seats with a count of 0 keep what they hold (the known
hand). Endings are deals with fewer cards per seat.
"""

import numpy as np
from numba import prange

from kernels.config import JIT, PJIT, jit
from kernels.core.cards import FULL_DECK, U1, lowest_bit
from kernels.core.rng import below, below_from_bits, next_u64, stream

hot = jit(forceinline=True)

_S32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)

U64 = np.uint64


@JIT
def new_deck():
    """All 52 card indices (int64[52])."""
    deck = np.empty(52, dtype=np.int64)
    for i in range(52):
        deck[i] = (i // 13) * 16 + i % 13
    return deck


@JIT
def scratch():
    """Per-chunk work arrays: (deck int64[52], hands uint64[4], bids int64[4], tricks int64[4])."""
    return new_deck(), np.empty(4, dtype=np.uint64), np.empty(4, dtype=np.int64), np.empty(4, dtype=np.int64)


@JIT
def pool_of(cards):
    """Card indices of a ``uint64`` card set, lowest first, as an ``int64`` array."""
    out = np.empty(64, dtype=np.int64)
    n = 0
    rest = cards
    while rest:
        out[n] = lowest_bit(rest)
        rest &= rest - U1
        n += 1
    return out[:n].copy()


@hot
def _swap_in(deck, at, j):
    card = deck[j]
    deck[j] = deck[at]
    deck[at] = card
    return U1 << U64(card)


@hot
def draw_cards(state, deck, pos, n, count):
    """Move ``count`` random cards of ``deck[pos:n]`` to ``deck[pos:pos+count]``; their bits.

    Two draws come from each 64 random bits (Lemire's method on each half, redrawn in the rare
    biased case), a partial Fisher-Yates shuffle.
    """
    bits = U64(0)
    at = pos
    end = pos + count
    while at + 1 < end:
        r = next_u64(state)
        j, ok = below_from_bits(r >> _S32, n - at)
        if not ok:
            j = below(state, n - at)
        bits |= _swap_in(deck, at, at + j)
        j, ok = below_from_bits(r & _LOW32, n - at - 1)
        if not ok:
            j = below(state, n - at - 1)
        bits |= _swap_in(deck, at + 1, at + 1 + j)
        at += 2
    if at < end:
        bits |= _swap_in(deck, at, at + below(state, n - at))
    return bits


@JIT
def deal_pool(state, pool, counts, hands):
    """Shuffle ``pool`` in place and deal ``counts[s]`` of its cards to seat ``s``.

    pool: int64[n] card indices, n == counts.sum(); counts: int64[4]; hands: uint64[4], updated.
    """
    n = pool.shape[0]
    last = 3
    while last > 0 and counts[last] == 0:
        last -= 1
    pos = 0
    for seat in range(last):
        hands[seat] |= draw_cards(state, pool, pos, n, counts[seat])
        pos += counts[seat]
    bits = U64(0)
    for k in range(pos, n):  # the last seat takes what is left: no draws needed
        bits |= U1 << U64(pool[k])
    hands[last] |= bits


@hot
def deal_around(state, pool, counts, hand, seat, hands):
    """Deal the ``pool`` to the other seats (``counts`` cards each) around the known ``hand``."""
    for s in range(4):
        hands[s] = U64(0)
    hands[seat] = hand
    deal_pool(state, pool, counts, hands)


@JIT
def deal_full(state, deck, hands):
    """A uniformly random full deal of 52 cards into ``hands`` (uint64[4], overwritten).

    deck: int64[52], any order (it is shuffled in place and may be reused).
    """
    hands[0] = draw_cards(state, deck, 0, 52, 13)
    hands[1] = draw_cards(state, deck, 13, 52, 13)
    hands[2] = draw_cards(state, deck, 26, 52, 13)
    hands[3] = FULL_DECK & ~(hands[0] | hands[1] | hands[2])


@PJIT
def deal_many(seed, first_chunk, n_chunks, chunk_size, known, unseen, counts):
    """Deal ``n_chunks * chunk_size`` deals; chunk ``c`` uses ``stream(seed, first_chunk + c)``.

    known: uint64[4], the fixed cards of each seat; unseen: uint64, the cards to deal;
    counts: int64[4], how many of them each seat gets (summing to their number).
    Returns uint64[n_chunks * chunk_size, 4].
    """
    out = np.empty((n_chunks * chunk_size, 4), dtype=np.uint64)
    for c in prange(n_chunks):
        state = stream(seed, first_chunk + c)
        pool = pool_of(unseen)
        hands = np.empty(4, dtype=np.uint64)
        for i in range(chunk_size):
            for s in range(4):
                hands[s] = known[s]
            deal_pool(state, pool, counts, hands)
            for s in range(4):
                out[c * chunk_size + i, s] = hands[s]
    return out


@PJIT
def deal_checksum(seed, first_chunk, n_chunks, chunk_size, known, unseen, counts):
    """Deal like :func:`deal_many` without storing: returns per-chunk XOR checksums (uint64[n]).

    Used to measure dealing speed (the checksum keeps the work from being optimised away).
    """
    out = np.zeros(n_chunks, dtype=np.uint64)
    for c in prange(n_chunks):
        state = stream(seed, first_chunk + c)
        pool = pool_of(unseen)
        hands = np.empty(4, dtype=np.uint64)
        acc = U64(0)
        for _ in range(chunk_size):
            for s in range(4):
                hands[s] = known[s]
            deal_pool(state, pool, counts, hands)
            acc ^= hands[0] + hands[1] * U64(3) + hands[2] * U64(5) + hands[3] * U64(7)
        out[c] = acc
    return out


@JIT
def deal_stratified(state, deck, focal, n_hearts, hands):
    """A deal in which seat ``focal`` holds exactly ``n_hearts`` hearts (0..13), chosen uniformly,
    with its other cards and every other hand uniform given that.

    deck: int64[52] work space (overwritten); hands: uint64[4], overwritten.
    """
    n = 13
    for suit in range(4):  # the hearts first, then the other 39 cards
        for rank in range(13):
            if suit == 1:
                deck[rank] = 16 + rank
            else:
                deck[n] = 16 * suit + rank
                n += 1
    bits = U64(0)
    for i in range(n_hearts):  # choose the focal hearts among deck[0:13]
        j = i + below(state, 13 - i)
        card = deck[j]
        deck[j] = deck[i]
        deck[i] = card
        bits |= U1 << U64(card)
    for i in range(13 - n_hearts):  # and the rest among deck[13:52]
        j = 13 + i + below(state, 39 - i)
        card = deck[j]
        deck[j] = deck[13 + i]
        deck[13 + i] = card
        bits |= U1 << U64(card)
    hands[focal] = bits
    rest = FULL_DECK & ~bits
    pos = 0
    for k in range(52):  # the other 39 cards, shuffled among the other three seats
        c = deck[k]
        if (rest >> U64(c)) & U1:
            deck[pos], deck[k] = deck[k], deck[pos]
            pos += 1
    for seat in range(4):
        if seat == focal:
            continue
        hand = U64(0)
        for _ in range(13):
            j = pos - 1 - below(state, pos)
            pos -= 1
            card = deck[j]
            deck[j] = deck[pos]
            deck[pos] = card
            hand |= U1 << U64(card)
        hands[seat] = hand
