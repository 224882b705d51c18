"""Cards, hands and deals as small value types, and their text forms.

Length: one notation, every form a player types read and written in one place with its examples.

The bit layout is :mod:`kernels.core.cards`' (``bit = 16 * suit + rank``); :class:`Hand` and
:class:`Deal` carry exactly those ``uint64`` values, so handing them to a kernel is free.

Text forms, read case-insensitively:

* dot form in suit order spades.hearts.diamonds.clubs: ``AKQ5.KJ4.T93.862``; ``-`` or nothing
  for a void; ``10`` for ``T``;
* suit-tagged form, letters or symbols, any suit order: ``S:AKQ5 H:KJ4 D:T93 C:862`` or
  ``♠AKQ5 ♥KJ4 ♦T93 ♣862`` (the colon is optional);
* a deal: four hands in seat order (seat 1 first) separated by spaces, or by ``|``, ``/``,
  ``,`` or ``;``. Suit-tagged hands separated by spaces are split where a suit repeats, so name
  every suit of each hand (``H:-`` for a void) or use ``|`` between hands.

>>> h = Hand.parse("S:AKQ5 H:KJ4 D:T93 C:862")
>>> str(h)
'AKQ5.KJ4.T93.862'
>>> h.to_symbols()
'♠AKQ5 ♥KJ4 ♦T93 ♣862'
>>> Hand.parse("akq5.kj4.10 9 3.862")
Traceback (most recent call last):
...
analyzer.core.errors.T400Error: unknown rank ' ' in '10 9 3' (expected A K Q J T 9 8 7 6 5 4 3 2, or 10)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from analyzer.core.errors import T400Error, keyed
from kernels.core import cards as layout

__all__ = ["Suit", "Rank", "Card", "Hand", "Deal", "parse_hand", "parse_deal"]


class Suit(IntEnum):
    """A suit; the value is the suit's lane in the bit layout.

    >>> Suit.HEARTS.letter, Suit.HEARTS.symbol, int(Suit.HEARTS)
    ('H', '♥', 1)
    >>> Suit.parse("♣"), Suit.parse("spades"), Suit.parse("d")
    (<Suit.CLUBS: 3>, <Suit.SPADES: 0>, <Suit.DIAMONDS: 2>)
    """

    SPADES = layout.SPADES
    HEARTS = layout.HEARTS
    DIAMONDS = layout.DIAMONDS
    CLUBS = layout.CLUBS

    @property
    def letter(self) -> str:
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @property
    def mask(self) -> int:
        """The suit's lane as an int bit mask."""
        return layout.SUIT_MASK << (layout.LANE * self)

    @classmethod
    def parse(cls, text: str) -> Suit:
        key = text.strip().lower()
        suit = _SUIT_NAMES.get(key)
        if suit is None:
            raise T400Error(
                f"unknown suit {text!r} (expected spades, hearts, diamonds, clubs, S H D C or ♠ ♥ ♦ ♣)"
            )
        return suit


_SUIT_TAGS = {
    "s": Suit.SPADES,
    "h": Suit.HEARTS,
    "d": Suit.DIAMONDS,
    "c": Suit.CLUBS,
    "♠": Suit.SPADES,
    "♤": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "♧": Suit.CLUBS,
}
_SUIT_SYMBOLS = "♠♤♥♡♦♢♣♧"
_SUIT_NAMES = {**_SUIT_TAGS, **{s.name.lower(): s for s in Suit}}
_SUIT_NAMES.update({s.name.lower()[:-1]: s for s in Suit})  # "spade", "heart", ...


class Rank(IntEnum):
    """A rank; the value is the bit within a suit lane (the two is 0, the ace 12).

    >>> Rank.parse("10"), Rank.parse("t"), Rank.ACE.char
    (<Rank.TEN: 8>, <Rank.TEN: 8>, 'A')
    """

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def char(self) -> str:
        return _RANK_CHARS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        key = text.strip().upper()
        if key == "10":
            return cls.TEN
        if len(key) == 1 and key in _RANK_CHARS:
            return cls(_RANK_CHARS.index(key))
        raise T400Error(f"unknown rank {text!r} (expected A K Q J T 9 8 7 6 5 4 3 2, or 10)")


_RANK_CHARS = "23456789TJQKA"


@dataclass(frozen=True, order=True)
class Card:
    """One card. ``str`` gives suit then rank, ``"HK"``; :attr:`symbol` gives ``"♥K"``.

    >>> c = Card.parse("10h")
    >>> c, c.index, Card.from_index(c.index) == c
    (Card('HT'), 24, True)
    >>> Card.parse("♠A").symbol, Card.parse("a♠") == Card.parse("sa")
    ('♠A', True)
    """

    suit: Suit
    rank: Rank

    @property
    def index(self) -> int:
        """The card's bit number in the layout."""
        return layout.card_index(self.suit, self.rank)

    @property
    def bit(self) -> int:
        return 1 << self.index

    @property
    def symbol(self) -> str:
        return self.suit.symbol + self.rank.char

    def __str__(self) -> str:
        return self.suit.letter + self.rank.char

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    @classmethod
    def from_index(cls, index: int) -> Card:
        suit, rank = divmod(int(index), layout.LANE)
        if not (0 <= suit < 4 and 0 <= rank < 13):
            raise T400Error(f"{index} is not a card index")
        return cls(Suit(suit), Rank(rank))

    @classmethod
    def parse(cls, text: str) -> Card:
        raw = text.strip()
        token = raw.replace(":", "")
        for suit_part, rank_part in ((token[:1], token[1:]), (token[-1:], token[:-1])):
            suit = _SUIT_TAGS.get(suit_part.lower())
            if suit is not None and rank_part:
                try:
                    return cls(suit, Rank.parse(rank_part))
                except T400Error:
                    continue
        raise T400Error(f"{raw!r} is not a card (expected a suit and a rank, such as HK or ♥K)")


def _cards_of(bits: int) -> Iterator[Card]:
    """Cards of a bit set, suit by suit in S H D C order, high cards first."""
    for suit in Suit:
        lane = (bits >> (layout.LANE * suit)) & layout.SUIT_MASK
        for rank in range(12, -1, -1):
            if lane >> rank & 1:
                yield Card(suit, Rank(rank))


@dataclass(frozen=True)
class Hand:
    """A set of cards as one ``uint64`` in the project's bit layout.

    >>> h = Hand.parse("AKQ5.KJ4.T93.862")
    >>> len(h), h.length(Suit.HEARTS), Card.parse("HK") in h
    (13, 3, True)
    >>> Hand.parse(h.to_symbols()) == h and Hand.parse(str(h)) == h
    True
    """

    bits: int

    def __post_init__(self):
        if self.bits & ~int(layout.FULL_DECK):
            raise T400Error(f"{self.bits:#x} has bits outside the card layout")

    @classmethod
    def parse(cls, text: str, size: int | None = 13) -> Hand:
        """Read a hand in dot or suit-tagged form; ``size=None`` accepts any number of cards."""
        return parse_hand(text, size=size)

    @classmethod
    def from_cards(cls, cards: Iterable[Card]) -> Hand:
        bits = 0
        for card in cards:
            if bits & card.bit:
                raise T400Error(f"card {card} given twice")
            bits |= card.bit
        return cls(bits)

    def __len__(self) -> int:
        return self.bits.bit_count()

    def __iter__(self) -> Iterator[Card]:
        return _cards_of(self.bits)

    def __contains__(self, card: Card) -> bool:
        return bool(self.bits & card.bit)

    def __or__(self, other: Hand) -> Hand:
        return Hand(self.bits | other.bits)

    def ranks(self, suit: Suit) -> list[Rank]:
        """Ranks held in ``suit``, highest first."""
        lane = (self.bits >> (layout.LANE * suit)) & layout.SUIT_MASK
        return [Rank(r) for r in range(12, -1, -1) if lane >> r & 1]

    def length(self, suit: Suit) -> int:
        return ((self.bits >> (layout.LANE * suit)) & layout.SUIT_MASK).bit_count()

    def _suit_text(self, suit: Suit) -> str:
        return "".join(r.char for r in self.ranks(suit)) or "-"

    def to_dot(self) -> str:
        """Dot form, voids as ``-``: ``AKQ5.KJ4.T93.862``."""
        return ".".join(self._suit_text(s) for s in Suit)

    def to_symbols(self) -> str:
        """Symbol form: ``♠AKQ5 ♥KJ4 ♦T93 ♣862``."""
        return " ".join(s.symbol + self._suit_text(s) for s in Suit)

    def __str__(self) -> str:
        return self.to_dot()

    def __repr__(self) -> str:
        return f"Hand({self.to_dot()!r})"

    @property
    def uint64(self) -> np.uint64:
        return np.uint64(self.bits)


@dataclass(frozen=True)
class Deal:
    """Four hands in seat order (seat 1 first), all with the same number of cards.

    >>> d = Deal.parse("AKQ5.KJ4.T93.862 JT98.AQ.AK7.QJ95 7643.T9875.Q5.A4 2.632.J8642.KT73")
    >>> d.size, str(d.hands[1])
    (13, 'JT98.AQ.AK7.QJ95')
    >>> Deal.parse(str(d)) == d
    True
    """

    hands: tuple[Hand, Hand, Hand, Hand]

    def __post_init__(self):
        _check_deal(tuple(self.hands), [str(h) for h in self.hands])

    @classmethod
    def parse(cls, text: str, full: bool = False) -> Deal:
        """Read a deal; ``full=True`` insists on 13 cards a hand."""
        return parse_deal(text, full=full)

    @property
    def size(self) -> int:
        """Cards per hand."""
        return len(self.hands[0])

    def to_dot(self) -> str:
        return " ".join(h.to_dot() for h in self.hands)

    def to_symbols(self) -> str:
        return " | ".join(h.to_symbols() for h in self.hands)

    def __str__(self) -> str:
        return self.to_dot()

    def __repr__(self) -> str:
        return f"Deal({self.to_dot()!r})"

    def __getitem__(self, seat_index: int) -> Hand:
        return self.hands[seat_index]

    @property
    def bits(self) -> np.ndarray:
        """The four hands as a ``uint64[4]`` array, seat 1 first."""
        return np.array([h.bits for h in self.hands], dtype=np.uint64)


# ---------------------------------------------------------------------------------------------
# Parsing

_RANKS_HELP = "A K Q J T 9 8 7 6 5 4 3 2, or 10"
_HAND_SEPARATORS = re.compile(r"[|/,;\n]")


def _parse_ranks(text: str, suit: Suit, where: str) -> int:
    """Bits of one suit's rank string (``"AKQ5"``, ``"-"`` or ``""``), in the suit's lane."""
    lane = 0
    if text in ("", "-"):
        return 0
    i = 0
    while i < len(text):
        char = text[i].upper()  # one character at a time: some grow when upper-cased
        if text.startswith("10", i):
            rank, i = Rank.TEN, i + 2
        elif len(char) == 1 and char in _RANK_CHARS:
            rank, i = Rank(_RANK_CHARS.index(char)), i + 1
        else:
            raise keyed("err.unknown_rank", rank=text[i], where=where)
        if lane >> rank & 1:
            raise keyed("err.card_twice", card=str(Card(suit, rank)), where=where)
        lane |= 1 << rank
    return lane << (layout.LANE * suit)


def _split_tagged(text: str) -> list[tuple[Suit, str, str]]:
    """Split suit-tagged text into ``(suit, ranks, token)`` groups, in order."""
    groups: list[tuple[Suit, str, str]] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        suit = _SUIT_TAGS.get(ch.lower())
        if suit is None:
            token = text[i:].split()[0]
            raise T400Error(
                f"{token!r}: expected a suit (S H D C or ♠ ♥ ♦ ♣) before the ranks"
                " (or dot form spades.hearts.diamonds.clubs)"
            )
        j = i + 1
        if j < n and text[j] == ":":
            j += 1
        while j < n and text[j] == " " and ch in _SUIT_SYMBOLS:  # "♠ AKQ5 ♥ KJ4 ..."
            j += 1
        k = j
        while k < n and not text[k].isspace() and text[k].lower() not in _SUIT_TAGS:
            k += 1
        groups.append((suit, text[j:k], text[i:k]))
        i = k
    return groups


def _hand_from_groups(groups: list[tuple[Suit, str, str]], where: str) -> int:
    bits = 0
    seen: set[Suit] = set()
    for suit, ranks, _token in groups:
        if suit in seen:
            raise keyed("err.suit_twice", suit=suit.letter, where=where)
        seen.add(suit)
        bits |= _parse_ranks(ranks, suit, where)
    return bits


def _parse_dot(text: str) -> int:
    parts = text.split(".")
    if len(parts) != 4:
        raise T400Error(
            f"{text!r}: {len(parts)} suits, a hand in dot form needs 4 (spades.hearts.diamonds.clubs)"
        )
    bits = 0
    for suit, part in zip(Suit, parts):
        bits |= _parse_ranks(part.strip(), suit, part.strip() or text)
    return bits


def _parse_hand_bits(text: str) -> int:
    if "." in text:
        return _parse_dot(text.strip())
    return _hand_from_groups(_split_tagged(text), text.strip())


def _check_count(bits: int, text: str, size: int | None) -> None:
    count = bits.bit_count()
    if size is not None and count != size:
        raise keyed("err.hand_size", hand=text, count=count, size=size)
    if count == 0:
        raise T400Error(f"{text!r}: a hand needs at least one card")


def parse_hand(text: str, size: int | None = 13) -> Hand:
    """Read one hand; ``size`` is the number of cards it must hold (``None``: any, at least 1).

    >>> parse_hand("♠AKQ5 ♥KJ4 ♦T93 ♣862") == parse_hand("c:862 d:t93 h:kj4 s:akq5")
    True
    >>> parse_hand("AKQ5.KJ4.T93.86")
    Traceback (most recent call last):
    ...
    analyzer.core.errors.T400Error: 'AKQ5.KJ4.T93.86': 12 cards, a hand needs 13
    """
    if not isinstance(text, str) or not text.strip():
        raise T400Error("empty hand: expected cards such as AKQ5.KJ4.T93.862")
    bits = _parse_hand_bits(text)
    _check_count(bits, text.strip(), size)
    return Hand(bits)


def _split_deal_text(text: str) -> list[str]:
    """Cut deal text into one text per hand."""
    if _HAND_SEPARATORS.search(text):
        return [part.strip() for part in _HAND_SEPARATORS.split(text) if part.strip()]
    hands: list[str] = []
    current: list[str] = []
    current_suits: set[Suit] = set()

    def close():
        if current:
            hands.append(" ".join(current))
            current.clear()
            current_suits.clear()

    for token in text.split():
        if "." in token:
            close()
            hands.append(token)
            continue
        groups = _split_tagged(token)
        suits = [g[0] for g in groups]
        if current_suits & set(suits) or len(current_suits) == 4:
            close()
        current.append(token)
        current_suits.update(suits)
    close()
    return hands


def _check_deal(hands: tuple[Hand, ...], texts: list[str]) -> None:
    if len(hands) != 4:
        raise T400Error(f"a deal needs 4 hands in seat order, got {len(hands)}: {' | '.join(texts)!r}")
    sizes = [len(h) for h in hands]
    for seat, (size, text) in enumerate(zip(sizes, texts), start=1):
        if size == 0 or size > 13:
            raise T400Error(f"hand {seat} {text!r}: {size} cards, a hand holds 1 to 13")
        if size != sizes[0]:
            raise T400Error(
                f"hand {seat} {text!r}: {size} cards but hand 1 has {sizes[0]};"
                " the hands of a deal need the same number of cards"
            )
    seen = 0
    for seat, hand in enumerate(hands, start=1):
        clash = seen & hand.bits
        if clash:
            card = Card.from_index((clash & -clash).bit_length() - 1)
            first = next(s for s, h in enumerate(hands, start=1) if card in h)
            raise T400Error(f"card {card} is in hand {first} and in hand {seat}")
        seen |= hand.bits


def parse_deal(text: str, full: bool = False) -> Deal:
    """Read four hands in seat order; ``full=True`` insists on 13 cards each.

    >>> parse_deal("AK.-.-.- QJ.-.-.- T9.-.-.- 87.-.-.-").size
    2
    >>> parse_deal("AK.-.-.- QJ.-.-.- T9.-.-.- 8.-.-.-")
    Traceback (most recent call last):
    ...
    analyzer.core.errors.T400Error: hand 4 '8.-.-.-': 1 cards but hand 1 has 2; the hands of a deal need the same number of cards
    """
    if not isinstance(text, str) or not text.strip():
        raise T400Error("empty deal: expected four hands in seat order")
    texts = _split_deal_text(text)
    if len(texts) != 4:
        raise T400Error(f"a deal needs 4 hands in seat order, got {len(texts)}: {text.strip()!r}")
    hands = []
    for text_one in texts:
        bits = _parse_hand_bits(text_one)
        if full:
            _check_count(bits, text_one, 13)
        hands.append(Hand(bits))
    _check_deal(tuple(hands), texts)
    return Deal(tuple(hands))


def as_hand(value: Hand | str | int, size: int | None = 13) -> Hand:
    """A :class:`Hand` from a hand, its text, or its bits."""
    if isinstance(value, Hand):
        hand = value
    elif isinstance(value, str):
        return parse_hand(value, size=size)
    elif isinstance(value, (int, np.integer)):
        hand = Hand(int(value))
    else:
        raise T400Error(f"{value!r} is not a hand")
    if size is not None and len(hand) != size:
        raise T400Error(f"{hand}: {len(hand)} cards, a hand needs {size}")
    return hand


def as_deal(value: Deal | str | Iterable, full: bool = False) -> Deal:
    """A :class:`Deal` from a deal, its text, or four hands."""
    if isinstance(value, Deal):
        deal = value
    elif isinstance(value, str):
        return parse_deal(value, full=full)
    else:
        deal = Deal(tuple(as_hand(h, size=None) for h in value))
    if full and deal.size != 13:
        raise T400Error(f"{deal}: {deal.size} cards a hand, a full deal needs 13")
    return deal


_LANE_TEXT = None


def dot_strings(bits) -> np.ndarray:
    """Hands as dot-form strings (``AKQ5.KJ4.T93.862``, ``-`` for a void) for an array of
    ``uint64`` bitboards, vectorised: one table look-up per suit.

    >>> dot_strings(np.array([Hand.parse("AKQ5.KJ4.T93.862").bits, layout.SUIT_MASK << 16], dtype=np.uint64)).tolist()
    ['AKQ5.KJ4.T93.862', '-.AKQJT98765432.-.-']
    """
    global _LANE_TEXT
    if _LANE_TEXT is None:
        table = [
            "".join(_RANK_CHARS[r] for r in range(12, -1, -1) if lane >> r & 1) or "-" for lane in range(8192)
        ]
        _LANE_TEXT = np.array(table, dtype=object)
    h = np.asarray(bits, dtype=np.uint64)
    parts = [
        _LANE_TEXT[((h >> np.uint64(layout.LANE * s)) & layout.SUIT_BITS).astype(np.int64)] for s in range(4)
    ]
    out = parts[0] + "." + parts[1] + "." + parts[2] + "." + parts[3]
    return np.asarray(out, dtype=object)
