"""The auction of classic and Egyptian Tarneeb: calls (``pass``, a bid of a number, or in Egyptian of
a number and a strain, ``double``), the auction in progress (:class:`Auction`: who speaks, which
calls are legal, when it ends) and its result (:class:`Contract`), as the variant's switches say.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from analyzer.core.errors import T400Error
from analyzer.core.seats import Seat, Team
from analyzer.core.strains import Strain
from analyzer.games.tarneeb.rules import MAX_BID, MIN_BID, TarneebVariant
from kernels.tarneeb import rules as kr

STRAIN_RANK = {Strain.CLUBS: 0, Strain.DIAMONDS: 1, Strain.HEARTS: 2, Strain.SPADES: 3, Strain.NO_TRUMP: 4}


@dataclass(frozen=True)
class Call:
    """One call of the auction: ``pass``, a bid (``8``, or in Egyptian ``8H``, ``9NT``) or ``double``.

    >>> Call.parse("8h"), Call.parse("Pass"), str(Call.parse("10nt")), str(Call.parse("x"))
    (Call(kind='bid', level=8, strain=<Strain.HEARTS: 1>), Call(kind='pass', level=None, strain=None), '10NT', 'double')
    """

    kind: str  # "pass" | "bid" | "double"
    level: int | None = None
    strain: Strain | None = None

    @classmethod
    def parse(cls, text: str | int | Call) -> Call:
        if isinstance(text, Call):
            return text
        token = str(text).strip()
        key = token.lower()
        if key in ("pass", "p", "-"):
            return cls("pass")
        if key in ("double", "dbl", "x"):
            return cls("double")
        digits = 2 if key[:2].isdigit() else 1
        if not key[:1].isdigit():
            raise T400Error(f"call {token!r}: expected pass, a bid such as 8 (or 8H in Egyptian) or double")
        level = int(key[:digits])
        if not MIN_BID <= level <= MAX_BID:
            raise T400Error(f"call {token!r}: a bid is 7 to 13 tricks")
        rest = key[digits:]
        strain = None
        if rest:
            try:
                strain = Strain.parse(rest)
            except T400Error:
                raise T400Error(f"call {token!r}: {rest!r} is not a strain (S, H, D, C or NT)") from None
        return cls("bid", level, strain)

    @property
    def code(self) -> int:
        """The kernels' code of this call (:mod:`kernels.tarneeb.rules`)."""
        if self.kind == "pass":
            return kr.PASS
        if self.kind == "double":
            return kr.DOUBLE
        return kr.bid_code(self.level, kr.NO_STRAIN if self.strain is None else STRAIN_RANK[self.strain])

    @classmethod
    def from_code(cls, code: int) -> Call:
        if code == kr.PASS:
            return cls("pass")
        if code == kr.DOUBLE:
            return cls("double")
        rank = kr.strain_of(code)
        strain = None if rank == kr.NO_STRAIN else next(s for s, r in STRAIN_RANK.items() if r == rank)
        return cls("bid", kr.level_of(code), strain)

    def __str__(self) -> str:
        if self.kind != "bid":
            return self.kind
        return f"{self.level}{'' if self.strain is None else self.strain.letter}"

    def beats(self, other: Call | None) -> bool:
        """Whether this bid is higher than ``other`` (more tricks, or in Egyptian as many in a
        higher strain)."""
        if other is None:
            return True
        if self.strain is None or other.strain is None:
            return self.level > other.level
        return (self.level, STRAIN_RANK[self.strain]) > (other.level, STRAIN_RANK[other.strain])


@dataclass(frozen=True)
class Contract:
    """The result of an auction: the declarer's seat, the bid, the strain (named with the bid in
    Egyptian; ``None`` in the number auction until the declarer names it) and whether doubled."""

    declarer: int
    bid: int
    strain: Strain | None = None
    doubled: bool = False

    @property
    def team(self) -> Team:
        return Seat(self.declarer).team

    def to_dict(self) -> dict:
        return {"declarer": self.declarer, "bid": self.bid,
                "trump": None if self.strain is None else self.strain.letter, "doubled": self.doubled}  # fmt: skip


class Auction:
    """An auction in progress: verify a call with :meth:`check`, make it with :meth:`call`.

    >>> a = Auction(TarneebVariant.preset("tarneeb"))
    >>> for c in ["pass", "7", "8", "10", "pass", "11", "pass"]:
    ...     a.call(c)
    >>> a.over, a.contract
    (True, Contract(declarer=3, bid=11, strain=None, doubled=False))
    """

    def __init__(self, variant: TarneebVariant, calls: Sequence[str | Call] = ()):
        self.variant = variant
        self.calls: list[Call] = []
        self.passed: set[int] = set()
        self.high: Call | None = None
        self.high_seat: int | None = None
        self.doubled = False
        self.passes_since = 0  # consecutive passes since the last bid or double
        self.redeal = False
        self._over = False
        self._last = 0
        for c in calls:
            self.call(c)

    @property
    def over(self) -> bool:
        return self._over

    @property
    def seat(self) -> int | None:
        """The seat to call next (``None`` once the auction is over)."""
        if self._over:
            return None
        if not self.calls:
            return 1
        seat = self._last % 4 + 1
        if self.variant.passed_out and not self.variant.one_bid_each:
            while seat in self.passed:  # a passed player is out: the turn goes on to the next
                seat = seat % 4 + 1
        return seat

    @property
    def contract(self) -> Contract | None:
        if not self._over or self.redeal or self.high is None:
            return None
        return Contract(self.high_seat, self.high.level, self.high.strain, self.doubled)

    def must_bid(self, seat: int) -> bool:
        """Whether ``seat`` may not pass: the fourth player after three passes (``forced``)."""
        return (
            self.variant.all_pass == "forced"
            and self.high is None
            and len(self.passed) == 3
            and seat not in self.passed
        )

    def check(self, call: str | Call) -> Call:
        """The call, parsed, if the seat to speak (:attr:`seat`) may make it now; else an error
        saying why."""
        c = Call.parse(call)
        v = self.variant
        if self._over:
            raise T400Error(f"call {c}: the auction is over")
        seat = self.seat
        who = f"seat {seat}"
        if c.kind == "pass":
            if self.must_bid(seat):
                raise T400Error(
                    f"{who} cannot pass: the first three passed, so the dealer must bid at least 7"
                )
            return c
        if c.kind == "double":
            if not v.doubling:
                raise T400Error(
                    f"{who} double: there is no doubling in {v.name} (only Egyptian Tarneeb doubles)"
                )
            if self.high is None:
                raise T400Error(f"{who} double: there is no bid to double")
            if Seat(self.high_seat).team == Seat(seat).team:
                raise T400Error(f"{who} double: only the other team's bid can be doubled")
            if self.doubled:
                raise T400Error(f"{who} double: the bid is already doubled (there is no redouble)")
            return c
        if v.auction == "strain" and c.strain is None:
            raise T400Error(
                f"{who} bid {c}: an Egyptian bid names its strain, e.g. {c.level}H or {c.level}NT"
            )
        if v.auction == "number" and c.strain is not None:
            raise T400Error(
                f"{who} bid {c}: bids are numbers of tricks here; the trump is named after the auction"
            )
        if c.strain is Strain.NO_TRUMP and not v.no_trump:
            raise T400Error(f"{who} bid {c}: no-trump is not allowed in {v.label}")
        dealer_equals = v.one_bid_each and seat == 4 and self.high is not None and c.level == self.high.level
        if not (c.beats(self.high) or dealer_equals):
            rule = "more tricks, or as many in a higher strain" if v.auction == "strain" else "higher"
            raise T400Error(f"{who} bid {c}: a bid must be {rule} than the standing bid of {self.high}")
        return c

    def legal_calls(self) -> list[Call]:
        """Every call the next seat may make, in order: pass, the bids from low to high, double."""
        if self._over:
            return []
        options = [Call("pass")]
        strains = (
            [None]
            if self.variant.auction == "number"
            else sorted(self.variant.strains(), key=STRAIN_RANK.get)
        )
        options += [Call("bid", level, s) for level in range(MIN_BID, MAX_BID + 1) for s in strains]
        options.append(Call("double"))
        legal = []
        for c in options:
            try:
                legal.append(self.check(c))
            except T400Error:
                pass
        return legal

    def call(self, call: str | Call) -> None:
        """Make a call (checked first: an illegal call changes nothing)."""
        seat = self.seat
        c = self.check(call)
        self.calls.append(c)
        self._last = seat
        v = self.variant
        if c.kind == "pass":
            self.passed.add(seat)
            self.passes_since += 1
        else:
            if c.kind == "bid":
                self.high, self.high_seat, self.doubled = c, seat, False
            else:
                self.doubled = True
            self.passes_since = 0
        if v.one_bid_each:
            if len(self.calls) == 4:
                self._finish()
        elif c.kind == "bid" and c.level == MAX_BID and v.auction == "number":
            self._over = True  # 13 closes the auction at once
        elif v.passed_out:
            if self.high is not None and len(self.passed) >= 3:
                self._over = True
            elif self.high is None and len(self.passed) == 4:
                self._finish()
        elif self.high is not None and self.passes_since >= 3:
            self._over = True
        elif self.high is None and self.passes_since == 4:
            self._finish()

    def _finish(self) -> None:
        self._over = True
        self.redeal = self.high is None


def auction_result(variant: TarneebVariant, calls: Sequence[str | Call]) -> Auction:
    """Play ``calls`` from seat 1; errors name the call and the seat."""
    auction = Auction(variant)
    for n, c in enumerate(calls, start=1):
        try:
            auction.call(c)
        except T400Error as exc:
            raise T400Error(f"call {n} ({str(c).strip()!r}): {exc}") from None
    return auction
