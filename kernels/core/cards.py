"""The card bit layout: the one definition every other module mirrors.

A hand (or any set of cards) is one ``uint64``. Each suit owns a 16-bit lane, of which the
low 13 bits are used; within a lane, bit ``r`` is rank ``r`` counting from the two::

    bit = 16 * suit + rank

    suit:  0 spades, 1 hearts, 2 diamonds, 3 clubs   (the dot-notation order S.H.D.C)
    rank:  0 = 2, 1 = 3, ..., 8 = T (10), 9 = J, 10 = Q, 11 = K, 12 = A

So ``1 << 28`` is the ace of hearts (16 + 12) and ``0x1FFF << 16`` is the whole heart suit.
A *card index* is that bit number (0..63, of which 52 are cards). Within a lane a higher bit is
a higher card, so "highest card of a suit" is "highest set bit of the lane".

Trump is a suit index, or :data:`NO_TRUMP` (4) for no trump, whose empty lane makes every trump
test false; which suit is trump is a game's rule (400: hearts). Numba types ``uint64 op int64`` as float64, so kernels only mix ``uint64`` with the
``uint64`` constants below (or with the helpers here).
"""

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from kernels.config import JIT, jit

hot = jit(forceinline=True)

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
NO_TRUMP = 4
LANE = 16

U0 = np.uint64(0)
U1 = np.uint64(1)
#: The 13 rank bits of a suit's lane (a Python int; :data:`SUIT_BITS` for kernels).
SUIT_MASK = (1 << 13) - 1
#: Every card of the deck: the four lanes' rank bits (a Python int; :data:`FULL_DECK` for kernels).
DECK_MASK = sum(SUIT_MASK << (LANE * suit) for suit in range(4))
SUIT_BITS = np.uint64(SUIT_MASK)
FULL_DECK = np.uint64(DECK_MASK)


def card_index(suit: int, rank: int) -> int:
    """Bit number of a card.

    >>> card_index(HEARTS, 12)
    28
    """
    return LANE * suit + rank


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of a ``uint64``."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.zext(builder.ctpop(args[0]), ir.IntType(64))

    return sig, codegen


@intrinsic
def lowest_bit(typingctx, x):
    """Index of the lowest set bit of a non-zero ``uint64`` (64 for zero)."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@intrinsic
def leading_zeros(typingctx, x):
    """Number of leading zero bits of a ``uint64`` (64 for zero)."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@JIT
def highest_bit(x):
    """Index of the highest set bit of a non-zero ``uint64``."""
    return 63 - leading_zeros(x)


@hot
def beats(card, best, trump):
    """Whether ``card`` beats the card ``best`` currently winning a trick.

    ``best`` was played to the trick earlier; its suit is the led suit unless it is a trump.
    """
    cs = card >> 4
    bs = best >> 4
    if cs == bs:
        return card > best
    return cs == trump


@hot
def lane(suit):
    """The 13 bits of ``suit`` (0..3) in place; empty for no trump (4)."""
    if suit > 3:
        return U0
    return SUIT_BITS << np.uint64(suit << 4)


@hot
def above(card):
    """Cards of ``card``'s suit ranked above it."""
    return lane(card >> 4) & ~((U1 << np.uint64(card + 1)) - U1)


@hot
def below(card):
    """Cards of ``card``'s suit ranked below it."""
    return lane(card >> 4) & ((U1 << np.uint64(card)) - U1)
