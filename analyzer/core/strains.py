"""Strains: the four suits and no trump, as the solver and every game name them.

>>> Strain.parse("nt"), Strain.parse("♥"), Strain.parse("Spades")
(<Strain.NO_TRUMP: 4>, <Strain.HEARTS: 1>, <Strain.SPADES: 0>)
>>> Strain.HEARTS.word, Strain.NO_TRUMP.word, Strain.NO_TRUMP.letter, Strain.CLUBS.suit
('hearts', 'none', 'NT', <Suit.CLUBS: 3>)
"""

from __future__ import annotations

from enum import IntEnum

from analyzer.core.errors import T400Error
from analyzer.core.notation import Suit
from kernels.core import cards as layout


class Strain(IntEnum):
    """A trump strain; the value is the kernels' trump index (4 is no trump)."""

    SPADES = layout.SPADES
    HEARTS = layout.HEARTS
    DIAMONDS = layout.DIAMONDS
    CLUBS = layout.CLUBS
    NO_TRUMP = layout.NO_TRUMP

    @property
    def word(self) -> str:
        """The command line's word: ``spades`` .. ``clubs``, ``none``."""
        return WORDS[self]

    @property
    def letter(self) -> str:
        """``S``, ``H``, ``D``, ``C`` or ``NT``."""
        return ("S", "H", "D", "C", "NT")[self]

    @property
    def suit(self) -> Suit | None:
        """The trump suit, or ``None`` for no trump."""
        return None if self is Strain.NO_TRUMP else Suit(int(self))

    @classmethod
    def parse(cls, value: str | int | Strain) -> Strain:
        """A strain from a word, a letter, a symbol or a kernel index (0..4)."""
        if isinstance(value, (int,)) and not isinstance(value, bool):
            if 0 <= int(value) <= 4:
                return cls(int(value))
            raise T400Error(f"strain {value!r}: expected 0..4 (spades, hearts, diamonds, clubs, no trump)")
        key = str(value).strip().lower()
        if key not in _NAMES:
            raise T400Error(f"unknown trump {value!r} (expected hearts, spades, diamonds, clubs or none)")
        return _NAMES[key]


WORDS = ("spades", "hearts", "diamonds", "clubs", "none")
_NAMES = {
    **{w: Strain(i) for i, w in enumerate(WORDS)},
    "s": Strain.SPADES, "♠": Strain.SPADES, "spade": Strain.SPADES,
    "h": Strain.HEARTS, "♥": Strain.HEARTS, "heart": Strain.HEARTS,
    "d": Strain.DIAMONDS, "♦": Strain.DIAMONDS, "diamond": Strain.DIAMONDS,
    "c": Strain.CLUBS, "♣": Strain.CLUBS, "club": Strain.CLUBS,
    "nt": Strain.NO_TRUMP, "n": Strain.NO_TRUMP, "notrump": Strain.NO_TRUMP,
    "no-trump": Strain.NO_TRUMP, "no trump": Strain.NO_TRUMP,
}  # fmt: skip
