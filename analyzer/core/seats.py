"""Seats and partnerships, with one encoding for the whole project.

Seats are numbered 1..4 in bidding order of the hand (seat 1 bids first and leads the first
trick, seat 4 deals); the kernels use the index ``seat - 1`` (0..3). Partners are 1+3 and 2+4:
the partnership of a seat is ``(seat - 1) % 2`` (0 for 1+3, 1 for 2+4), which is the kernels'
``index & 1``, and a partner's index is ``index ^ 2``.

>>> Seat(3).partner, Seat(4).next, Seat(2).team, Seat(1).index
(<Seat.ONE: 1>, <Seat.ONE: 1>, <Team.EVEN: 1>, 0)
>>> Team.ODD.seats, Team.ODD.label, Team.ODD.other
((1, 3), '1+3', <Team.EVEN: 1>)
"""

from __future__ import annotations

from enum import IntEnum

from analyzer.core.errors import T400Error


class Team(IntEnum):
    """A partnership: ``ODD`` is seats 1+3, ``EVEN`` seats 2+4 (the value is the kernels' code)."""

    ODD = 0
    EVEN = 1

    @property
    def seats(self) -> tuple[int, int]:
        return (1, 3) if self is Team.ODD else (2, 4)

    @property
    def label(self) -> str:
        return "+".join(map(str, self.seats))

    @property
    def other(self) -> Team:
        return Team(1 - self)


class Seat(IntEnum):
    """A seat in bidding order, 1..4."""

    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4

    @property
    def index(self) -> int:
        """The kernels' seat index, 0..3."""
        return self - 1

    @property
    def partner(self) -> Seat:
        return Seat((self.index ^ 2) + 1)

    @property
    def next(self) -> Seat:
        """The seat after this one (seat 4 is followed by seat 1)."""
        return Seat(self % 4 + 1)

    @property
    def team(self) -> Team:
        return Team(self.index & 1)

    @classmethod
    def check(cls, value, what: str = "seat") -> Seat:
        """``value`` as a seat, or an error naming ``what``."""
        if isinstance(value, bool) or value not in (1, 2, 3, 4):
            raise T400Error(f"{what} {value!r}: expected a seat 1..4")
        return cls(int(value))


#: The partnerships' labels in team order: ("1+3", "2+4").
TEAM_LABELS = tuple(t.label for t in Team)
