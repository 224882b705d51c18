"""Trick mechanics every game shares: which cards may be played, how strong a card is in a
trick, and which cards would win it. Seats are indices 0..3; ``trump`` is a suit index, or
:data:`kernels.core.cards.NO_TRUMP` (4), whose empty lane makes every trump test false.
"""

import numpy as np

from kernels.config import jit
from kernels.core.cards import above, lane

U64 = np.uint64
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
