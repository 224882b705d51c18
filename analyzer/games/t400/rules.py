"""The rules of Tarneeb 400 and its variants: values, minimums, dead hands, settling, match end.

Length: one rule engine, each rule one function with the rule text's example as its doctest.

Seats are numbered by bidding order in the round: seat 1 bids first and leads the first trick,
seat 4 is the dealer and bids last; partners are seats 1+3 and 2+4. Functions here take and
return per-seat lists in that order (index 0 is seat 1).

A :class:`Variant` holds every switch the seed rule texts name. Where the texts leave a point
open, the choice is made here, once, and listed in :data:`OPEN_POINTS`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from analyzer.core.errors import T400Error, keyed
from analyzer.core.messages import Said
from analyzer.core.notation import Suit
from analyzer.core.seats import Seat, Team
from analyzer.core.variants import PresetSwitches
from kernels.t400 import rules as kr

#: Own- or highest-score thresholds at which minimums rise and the value table changes.
SCORE_STEPS = (30, 40, 50)
MIN_BID, MAX_BID = 2, 13
TRICKS = 13
#: Bounds that keep every figure meaningful (and within the kernels' 64-bit integers).
MAX_TARGET = 1000
MAX_SCORE = 10_000
#: Hearts is trump in every hand (see OPEN_POINTS); seat 1 leads the first trick.
TRUMP = Suit.HEARTS
FIRST_LEADER = 1

SCORE_TABLES = ("common", "classic", "syrian")
TIE_BREAKS = ("leader-then-total", "total")
REDEALS = ("same", "next")

#: Value of bids 2..13, by the bidder's own score before the round: (<= 29, >= 30).
_VALUE_ROWS = {
    "common": (
        (2, 3, 4, 10, 12, 14, 16, 27, 40, 40, 40, 40),
        (2, 3, 4, 5, 6, 14, 16, 27, 40, 40, 40, 40),
    ),
    # Qahwa's classic table: 10 = 30, 11 = 33, 12 = 36; 13 wins or loses the game outright.
    # The 13 is also booked at 39 points (the 3-per-trick pattern) so that the score sheet stays
    # meaningful; see OPEN_POINTS.
    "classic": (
        (2, 3, 4, 10, 12, 14, 16, 27, 30, 33, 36, 39),
        (2, 3, 4, 5, 6, 14, 16, 27, 30, 33, 36, 39),
    ),
    # Syrian 41: a bid below 5 is worth its number, 5 or more is worth double.
    "syrian": (
        (2, 3, 4, 10, 12, 14, 16, 18, 20, 22, 24, 26),
        (2, 3, 4, 10, 12, 14, 16, 18, 20, 22, 24, 26),
    ),
}

#: Points the seed texts leave open, and the choice this project makes.
OPEN_POINTS = {
    "trump": "Hearts is trump in every variant (Qahwa names hearts; Dananeer says only 'one suit').",
    "value-brackets": f"The value table's '{SCORE_STEPS[0] - 1} or less' row applies to every score below "
    f"{SCORE_STEPS[0]}, negative ones included.",
    "table-min-rises": f"A chosen table-minimum base rises by one at {SCORE_STEPS[0]}, {SCORE_STEPS[1]} and "
    f"{SCORE_STEPS[2]} (highest score) unless "
    "--fixed-table-min; Qahwa's text is silent, both are supported.",
    "leader-tie": "Dananeer: both partnerships qualify with equal leading scores and equal totals: "
    "no winner, another hand is played (the text is silent).",
    "classic-13": "Classic table: a made 13 wins the match outright and a failed 13 loses it; the 13 "
    "is also booked at +/-39 on the score sheet. If outright results point both ways in one round "
    "(players of both sides fail a 13), they cancel and the round is settled on points.",
    "syrian41": "Syrian 41 (preset syrian41): no rising minimums in the seeds, so personal minimum 2 "
    "and table minimum 11 stay fixed; being Qahwa's mode, it uses Qahwa's tie-break (total) "
    "and re-deal (next dealer).",
    "dead-hand-deal": "A dead hand is not a round: nothing is scored; with redeal=same the dealer "
    "stays (Dananeer), with redeal=next the deal passes on (Qahwa).",
}


@dataclass(frozen=True)
class Variant(PresetSwitches):
    """One rule set. Presets are in :data:`PRESETS`; any switch can be changed with :meth:`with_`.

    >>> v = Variant.preset("qahwa").with_(target=31)
    >>> v.target, v.tie_break, v.redeal
    (31, 'total', 'next')
    """

    name: str = "dananeer"
    target: int = 41
    table_min: int = 11
    table_min_rises: bool = True
    min_bid_rises: bool = True
    score_table: str = "common"
    tie_break: str = "leader-then-total"
    redeal: str = "same"
    #: The game ("400"; classic Tarneeb's rule sets are :class:`analyzer.games.tarneeb.rules.TarneebVariant`).
    game: str = field(default="400")

    _SPEC_INTS = frozenset({"target", "table_min"})
    _SPEC_BOOLS = frozenset({"table_min_rises", "min_bid_rises"})
    _SPEC_WORDS = {"score_table": SCORE_TABLES, "tie_break": TIE_BREAKS, "redeal": REDEALS}

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name:
            raise T400Error(f"variant name {self.name!r}: expected a word")
        if not _whole(self.target) or not (1 <= self.target <= MAX_TARGET):
            raise T400Error(
                f"target {self.target!r}: expected a whole number from 1 to {MAX_TARGET} (31, 41, 61, ...)"
            )
        if not _whole(self.table_min) or not (1 <= self.table_min <= 52):
            raise T400Error(
                f"table minimum {self.table_min!r}: expected a number of tricks 1..52 (11, 12, 13)"
            )
        for name in ("table_min_rises", "min_bid_rises"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise T400Error(f"{name.replace('_', '-')} {getattr(self, name)!r}: expected True or False")
        if self.score_table not in SCORE_TABLES:
            raise T400Error(f"score table {self.score_table!r}: expected one of {', '.join(SCORE_TABLES)}")
        if self.tie_break not in TIE_BREAKS:
            raise T400Error(f"tie-break {self.tie_break!r}: expected one of {', '.join(TIE_BREAKS)}")
        if self.redeal not in REDEALS:
            raise T400Error(f"redeal {self.redeal!r}: expected one of {', '.join(REDEALS)}")
        if self.game != "400":
            raise T400Error(f"game {self.game!r}: only '400' is implemented")

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def _presets(cls) -> dict:
        return PRESETS

    # -- per-bid and per-score rules -----------------------------------------------------------
    def bid_value(self, bid: int, score: int) -> int:
        """Points won for making ``bid`` (and lost for failing it) at own score ``score``.

        >>> v = Variant.preset("dananeer")
        >>> [v.bid_value(b, 0) for b in (4, 5, 9, 10, 13)], v.bid_value(5, 30)
        ([4, 10, 27, 40, 40], 5)
        """
        _check_bid(bid)
        return _VALUE_ROWS[self.score_table][value_row(score)][bid - MIN_BID]

    def is_outright(self, bid: int) -> bool:
        """Whether making or failing ``bid`` ends the match (the classic table's 13)."""
        return self.score_table == "classic" and bid == MAX_BID

    def min_bid(self, score: int) -> int:
        """A player's minimum bid at their own score: 2, then 3/4/5 at 30/40/50 if it rises.

        >>> v = Variant.preset("dananeer")
        >>> [v.min_bid(s) for s in (-5, 29, 30, 39, 40, 50, 70)]
        [2, 2, 3, 3, 4, 5, 5]
        """
        if not self.min_bid_rises:
            return MIN_BID
        return MIN_BID + _steps(score)

    def table_minimum(self, scores: Sequence[int]) -> int:
        """The least total of the four bids that keeps the hand alive, by the highest score.

        >>> Variant.preset("dananeer").table_minimum([29, 0, 35, 12])
        12
        """
        base = self.table_min
        return base + _steps(max(scores)) if self.table_min_rises else base

    def is_dead(self, bids: Sequence[int], scores: Sequence[int]) -> bool:
        """Whether four bids fall short of the table minimum (the hand is thrown in)."""
        return sum(bids) < self.table_minimum(scores)

    def score_change(self, bid: int, tricks: int, score: int) -> int:
        """A player's score change: the bid's value at own score ``score`` if made, minus it if not.

        >>> v = Variant.preset("dananeer")
        >>> v.score_change(5, 6, 0), v.score_change(5, 4, 0), v.score_change(5, 4, 30)
        (10, -10, -5)
        """
        value = self.bid_value(bid, score)
        return value if is_made(bid, tricks) else -value

    @property
    def redeal_advances(self) -> bool:
        """Whether the deal passes to the next dealer after a dead hand."""
        return self.redeal == "next"

    def kernel_rules(self) -> np.ndarray:
        """The same rules as one packed array for the Numba kernels (see :func:`pack_rules`)."""
        return pack_rules(self)


def _whole(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _steps(score: int) -> int:
    """How many of the 30/40/50 thresholds ``score`` has reached."""
    return sum(score >= s for s in SCORE_STEPS)


def value_row(score: int) -> int:
    """Row of the value table at own score ``score``: 0 for 29 or less, 1 for 30 or more."""
    return 1 if score >= SCORE_STEPS[0] else 0


def is_made(bid: int, tricks: int) -> bool:
    """Whether a player who bid ``bid`` and took ``tricks`` tricks made the bid."""
    return tricks >= bid


def _check_bid(bid: int) -> None:
    if not isinstance(bid, (int, np.integer)) or not (MIN_BID <= bid <= MAX_BID):
        raise T400Error(f"bid {bid!r}: a bid is a number of tricks from 2 to 13")


PRESETS: dict[str, Variant] = {
    "dananeer": Variant(name="dananeer"),
    "qahwa": Variant(name="qahwa", tie_break="total", redeal="next"),
    "syrian41": Variant(
        name="syrian41",
        score_table="syrian",
        table_min_rises=False,
        min_bid_rises=False,
        tie_break="total",
        redeal="next",
    ),
}
PRESET_DESCRIPTIONS = {
    "dananeer": "Tarneeb 400 as the Dananeer app plays it (rule text 000): the default",
    "qahwa": "400 as the Qahwa app plays it (rule text 001), its house rules at their defaults",
    "syrian41": "Syrian 41 (rule texts 001 and 004): bids of 5 or more worth double, no rising minimums",
}


def as_variant(value: Variant | str | None = None, **switches) -> Variant:
    """A variant from a preset name or a :class:`Variant`, with optional switches applied."""
    if value is None:
        value = "dananeer"
    variant = value if isinstance(value, Variant) else Variant.preset(value)
    return variant.with_(**switches) if switches else variant


def parse_variant_spec(text: str) -> Variant:
    """A variant from ``NAME[:switch=value,...]``, e.g. ``qahwa:target=31,score-table=classic``.

    Switches: target, table-min, table-min-rises (yes/no), min-bid-rises (yes/no), score-table,
    tie-break, redeal.

    >>> parse_variant_spec("qahwa:target=31,min-bid-rises=no").label
    'qahwa target=31 min-bid-rises=False'
    """
    return Variant.parse_spec(text)


# ---------------------------------------------------------------------------------------------
# Settling


def _qualifies(scores: Sequence[int], team: tuple[int, int], target: int) -> bool:
    a, b = scores[team[0] - 1], scores[team[1] - 1]
    return max(a, b) >= target and min(a, b) > 0


def match_winner(variant: Variant, scores: Sequence[int]) -> tuple[tuple[int, int] | None, str | None]:
    """Winner of the match on points after a round, and why; ``(None, None)`` if play goes on.

    A partnership qualifies when one partner has reached the target and the other is above 0.

    >>> match_winner(Variant.preset("dananeer"), [41, 12, 0, 30])
    (None, None)
    >>> match_winner(Variant.preset("dananeer"), [41, 12, 1, 30])
    ((1, 3), 'target')
    """
    teams = [team.seats for team in Team]
    qualified = [t for t in teams if _qualifies(scores, t, variant.target)]
    if not qualified:
        return None, None
    if len(qualified) == 1:
        return qualified[0], "target"
    lead = [max(scores[a - 1], scores[b - 1]) for a, b in teams]
    total = [scores[a - 1] + scores[b - 1] for a, b in teams]
    if variant.tie_break == "leader-then-total" and lead[0] != lead[1]:
        return teams[0 if lead[0] > lead[1] else 1], "tie-break: higher leading score"
    if total[0] != total[1]:
        return teams[0 if total[0] > total[1] else 1], "tie-break: higher combined score"
    return None, "tie: both partnerships qualify and are level, another hand is played"


@dataclass(frozen=True)
class RoundResult:
    """The outcome of settling one round, per seat in bidding order."""

    scores_before: tuple[int, ...]
    bids: tuple[int, ...]
    tricks: tuple[int, ...] | None
    dead: bool
    table_minimum: int
    min_bids: tuple[int, ...]
    values: tuple[int, ...]
    made: tuple[bool, ...] | None
    deltas: tuple[int, ...]
    scores: tuple[int, ...]
    dealer_advances: bool
    winner: tuple[int, int] | None
    reason: str | None

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        for key, value in d.items():
            if isinstance(value, tuple):
                d[key] = list(value)
        return d


def _check_four(values: Sequence[int], what: str) -> tuple[int, ...]:
    values = tuple(values)
    if len(values) != 4:
        raise T400Error(f"{what}: expected 4 values (one per seat), got {len(values)}")
    for v in values:
        if not _whole(v):
            raise T400Error(f"{what}: {v!r} is not a whole number")
        if what == "scores" and not -MAX_SCORE <= v <= MAX_SCORE:
            raise T400Error(f"{what}: {v} is not a score (expected -{MAX_SCORE:,} to {MAX_SCORE:,})")
    return tuple(int(v) for v in values)


def check_scores(scores: Sequence[int]) -> tuple[int, ...]:
    """Four scores in seat order, each a whole number within +/- :data:`MAX_SCORE`."""
    return _check_four(scores, "scores")


def check_bids(variant: Variant, scores: Sequence[int], bids: Sequence[int], first_seat: int = 1) -> None:
    """Check bids made in order from ``first_seat``: each 2..13 and at least its bidder's minimum."""
    for seat, bid in enumerate(bids, start=first_seat):
        if not isinstance(bid, (int, np.integer)) or not (MIN_BID <= bid <= MAX_BID):
            shown = int(bid) if isinstance(bid, (int, np.integer)) else repr(bid)
            raise keyed("err.bid_range", seat=seat, bid=shown)
        low = variant.min_bid(scores[seat - 1])
        if bid < low:
            raise keyed("err.bid_below_min", seat=seat, bid=int(bid), low=low, score=int(scores[seat - 1]))


def settle_round(
    variant: Variant,
    scores: Sequence[int],
    bids: Sequence[int],
    tricks: Sequence[int] | None = None,
) -> RoundResult:
    """Settle one round from the scores before it, the four bids and (if played) the tricks.

    Each player alone: tricks >= bid gains the bid's value at their own score, fewer loses it.
    A dead hand (bids short of the table minimum) scores nothing and needs no tricks.

    >>> r = settle_round(Variant.preset("dananeer"), [38, 38, 5, 5], [3, 4, 3, 2], [3, 4, 3, 3])
    >>> r.scores, r.winner, r.reason
    ((41, 42, 8, 7), (2, 4), 'tie-break: higher leading score')
    """
    scores = _check_four(scores, "scores")
    bids = _check_four(bids, "bids")
    done, _ = match_winner(variant, scores)
    if done is not None:
        raise T400Error(
            f"scores {list(scores)}: seats {done[0]} and {done[1]} have already won the match "
            f"(one partner at {variant.target} or more, the other above 0); no round follows"
        )
    check_bids(variant, scores, bids)
    table_min = variant.table_minimum(scores)
    min_bids = tuple(variant.min_bid(s) for s in scores)
    values = tuple(variant.bid_value(b, s) for b, s in zip(bids, scores))
    dead = sum(bids) < table_min
    if tricks is not None:
        tricks = _check_four(tricks, "tricks")
        if any(t < 0 or t > TRICKS for t in tricks):
            raise T400Error(f"tricks {list(tricks)}: each player takes 0 to 13 tricks")
        if sum(tricks) != TRICKS:
            raise keyed("err.tricks_sum", tricks=str([int(t) for t in tricks]), total=int(sum(tricks)))
    if dead:
        return RoundResult(
            scores, bids, tricks, True, table_min, min_bids, values, None, (0, 0, 0, 0), scores,
            variant.redeal_advances, None, None,
        )  # fmt: skip
    if tricks is None:
        raise T400Error(f"bids {list(bids)} reach the table minimum of {table_min}: the tricks are needed")
    made = tuple(is_made(b, t) for t, b in zip(tricks, bids))
    deltas = tuple(variant.score_change(b, t, s) for b, t, s in zip(bids, tricks, scores))
    after = tuple(s + d for s, d in zip(scores, deltas))
    winner, reason = _outright(variant, bids, made)
    if winner is None:
        winner, reason = match_winner(variant, after)
    return RoundResult(
        scores, bids, tricks, False, table_min, min_bids, values, made, deltas, after, True, winner, reason
    )


def _outright(
    variant: Variant, bids: Sequence[int], made: Sequence[bool]
) -> tuple[tuple[int, int] | None, str | None]:
    """The classic table's 13: made wins the match, failed loses it (conflicting results cancel)."""
    winners = set()
    reasons = []
    for seat, (bid, ok) in enumerate(zip(bids, made), start=1):
        if variant.is_outright(bid):
            team = Seat(seat).team
            winners.add(team.seats if ok else team.other.seats)
            reasons.append(f"outright: seat {seat} {'made' if ok else 'failed'} 13")
    if len(winners) == 1:
        return winners.pop(), "; ".join(reasons)
    return None, None


# ---------------------------------------------------------------------------------------------
# The match across rounds


@dataclass(frozen=True)
class MatchState:
    """A match between fixed players 1..4 (partners 1+3 and 2+4), round after round.

    Player ``k`` sits in seat ``k`` of the first hand (player 4 deals first). When the deal
    passes on, every seat number moves one player along: with dealer ``d``, seat 1 is the player
    after ``d``.

    >>> m = MatchState(Variant.preset("dananeer"))
    >>> m = m.play_round([3, 3, 3, 3], [4, 3, 3, 3])
    >>> m.scores, m.dealer, m.seat_players()
    ((3, 3, 3, 3), 1, (2, 3, 4, 1))
    """

    variant: Variant
    scores: tuple[int, int, int, int] = (0, 0, 0, 0)
    dealer: int = 4
    hands_played: int = 0
    dead_hands: int = 0
    winner: tuple[int, int] | None = None
    reason: str | None = None
    history: tuple[RoundResult, ...] = ()

    def seat_players(self) -> tuple[int, int, int, int]:
        """The player in each seat of the coming round (seat 1 first)."""
        return tuple((self.dealer + s - 1) % 4 + 1 for s in range(1, 5))

    def seat_scores(self) -> tuple[int, ...]:
        """Scores in the coming round's seat order."""
        return tuple(self.scores[p - 1] for p in self.seat_players())

    @property
    def over(self) -> bool:
        return self.winner is not None

    def play_round(self, bids: Sequence[int], tricks: Sequence[int] | None = None) -> MatchState:
        """The state after a round with these bids and tricks, both in seat order."""
        if self.over:
            raise T400Error(f"the match is over: players {self.winner[0]} and {self.winner[1]} won")
        result = settle_round(self.variant, self.seat_scores(), bids, tricks)
        players = self.seat_players()
        scores = list(self.scores)
        for seat, player in enumerate(players):
            scores[player - 1] = result.scores[seat]
        winner = None
        if result.winner is not None:
            winner = tuple(sorted(players[s - 1] for s in result.winner))
        dealer = self.dealer % 4 + 1 if result.dealer_advances else self.dealer
        return dataclasses.replace(
            self,
            scores=tuple(scores),
            dealer=dealer,
            hands_played=self.hands_played + (0 if result.dead else 1),
            dead_hands=self.dead_hands + (1 if result.dead else 0),
            winner=winner,
            reason=result.reason if winner else None,
            history=self.history + (result,),
        )


# ---------------------------------------------------------------------------------------------
# The same rules as one packed array for the kernels (layout: kernels.t400.rules)


def pack_rules(variant: Variant) -> np.ndarray:
    """The rules array the kernels read (int64[``kernels.t400.rules.SIZE``]), generated from
    ``variant``'s own rule functions; never written by hand."""
    packed = kr.empty_rules()
    for row, score in enumerate((0, SCORE_STEPS[0])):
        for bid in range(MIN_BID, MAX_BID + 1):
            packed[kr.VALUES + 14 * row + bid] = variant.bid_value(bid, score)
    marks = (0, *SCORE_STEPS)
    for step, score in enumerate(marks):
        packed[kr.MIN_BIDS + step] = variant.min_bid(score)
        packed[kr.TABLE_MINS + step] = variant.table_minimum([score])
    packed[kr.STEPS : kr.STEPS + len(SCORE_STEPS)] = SCORE_STEPS
    packed[kr.VALUE_STEP] = SCORE_STEPS[0]
    packed[kr.TARGET] = variant.target
    packed[kr.OUTRIGHT] = 1 if variant.is_outright(MAX_BID) else 0
    packed[kr.TIE_BREAK] = TIE_BREAKS.index(variant.tie_break)
    packed[kr.REDEAL] = REDEALS.index(variant.redeal)
    packed[kr.TRUMP] = TRUMP
    packed[kr.LEADER] = FIRST_LEADER - 1
    return packed


def describe(variant: Variant) -> dict:
    """Everything ``t400 rules`` shows: switches, value table, minimums and match rules."""
    rows = {}
    labels = (f"own score <= {SCORE_STEPS[0] - 1}", f"own score >= {SCORE_STEPS[0]}")
    for label, score in zip(labels, (0, SCORE_STEPS[0])):
        rows[label] = {str(b): variant.bid_value(b, score) for b in range(MIN_BID, MAX_BID + 1)}
    brackets = [f"<= {SCORE_STEPS[0] - 1}"] + [
        f"{lo}-{hi - 1}" for lo, hi in zip(SCORE_STEPS, SCORE_STEPS[1:])
    ]
    brackets.append(f">= {SCORE_STEPS[-1]}")
    marks = (0, *SCORE_STEPS)
    said = Said()
    match = {
        "target": variant.target,
        "win": said("match.win", "rules.4.win", target=variant.target),
        "both_qualify": said("match.both_qualify", "rules.4.both_leader" if variant.tie_break == "leader-then-total"
                             else "rules.4.both_total"),
        "dead_hand_redeal": said("match.dead_hand_redeal", f"rules.4.{variant.redeal}_dealer"),
    }  # fmt: skip
    if variant.score_table == "classic":
        match["outright"] = said("match.outright", "rules.4.outright")
    return {
        "variant": variant.name,
        "label": variant.label,
        "switches": variant.switches,
        "value_table": rows,
        "min_bid": {b: variant.min_bid(m) for b, m in zip(brackets, marks)},
        "table_min": {b: variant.table_minimum([m]) for b, m in zip(brackets, marks)},
        "match": match,
        "trump": "hearts",
        "open_points": OPEN_POINTS,
        "said": said.keys,
    }
