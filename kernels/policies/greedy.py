"""The ``greedy`` policy: lead the highest side card; follow with the cheapest winner, else
the lowest card. A baseline, and a fast opponent for tests."""

import numpy as np

from kernels.config import jit
from kernels.core.cards import SUIT_BITS, highest_bit, lane, lowest_bit
from kernels.core.tricks import legal_moves, winning_cards

U64 = np.uint64
_LANE = SUIT_BITS
hot = jit(forceinline=True)


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
