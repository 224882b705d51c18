"""The rules of classic Tarneeb and Egyptian Tarneeb: variants, scoring, the match (the auction is
:mod:`analyzer.games.tarneeb.auction`).

Seats are the project's: seat 1 speaks first (the dealer's neighbour in the direction of play),
seat 4 deals and speaks last; partners are seats 1+3 and 2+4, and per-team values are in that
order (index 0 is seats 1+3). A :class:`TarneebVariant` holds every switch of seeds 003 and 004;
where the texts leave a point open the choice is made here, once, and listed in
:data:`OPEN_POINTS` (``t400 rules --game tarneeb --json`` prints them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from analyzer.core.errors import T400Error
from analyzer.core.messages import Said
from analyzer.core.notation import Hand, Rank, Suit
from analyzer.core.seats import Seat, Team
from analyzer.core.strains import Strain
from analyzer.core.variants import PresetSwitches
from kernels.tarneeb import rules as kr

GAME = "tarneeb"
MIN_BID, MAX_BID = 7, 13
TRICKS = 13
#: All 13 tricks on a bid below 13 (Kaboot), a made 13, a failed 13.
KABOOT, MADE_13, FAILED_13 = 16, 26, 16
MAX_TARGET = 1000
MAX_SCORE = 10_000

AUCTIONS = ("number", "strain")
ALL_PASS = ("forced", "redeal")
FAILED_13_DEFENDERS = ("tricks", "double")
MATCH_ENDS = ("draw", "play-on")

OPEN_POINTS = {
    "seats": "Seat 1 speaks first and seat 4 deals, whichever way the table turns (seed 003 plays "
    "clockwise, seed 004 anticlockwise); only who sits where changes.",
    "forced-bid": "When the first three pass, the fourth player (the dealer) must bid; any level "
    "7..13 is allowed (seed 003: 'at least 7'; seed 004's variant says 'must bid 7').",
    "defenders-kaboot": "Defenders who take all 13 tricks against a failed bid below 13 score 16 "
    "in every variant (seed 003 says so; seed 004's Kaboot rule is read as applying to either team).",
    "failed-13-defenders": "A failed 13: seed 003 gives the defenders their tricks (16 if all 13), "
    "seed 004 double their tricks (failed_13_defenders = tricks | double).",
    "trump-on-number-auctions": "In the number auction the declarer names the trump after the "
    "auction; the score does not depend on it. No-trump is allowed only where the variant says so.",
    "one-bid-each": "One bid each (Lebanon): seats 1-3 must bid higher than the highest bid so far "
    "or pass; the dealer (seat 4) may equal the highest bid and then declares. If all four pass, "
    "the variant's all-pass rule applies (forced: the dealer must bid).",
    "egyptian-end": "Egyptian: the auction ends when the three players after the last bid or "
    "double pass ('a whole round passes without a new bid'); four passes at the start re-deal.",
    "egyptian-double": "Egyptian doubling: a player may double the standing bid of the other "
    "team once; a new bid cancels the double; there is no redouble. The double multiplies the "
    "declaring team's result (made or failed) by 2; the defenders' score is not doubled (the text "
    "names only the declarer's team).",
    "egyptian-levels": "Egyptian bids run 7..13 like the classic game (the seed gives no other range).",
    "dealer": "The deal passes to the next player after every played hand; a re-deal (four passes, "
    "or a worthless hand) keeps the dealer (seed 004: 're-deal with the same dealer').",
    "worthless-bots": "With worthless-redeal on, a bot holding a worthless hand always asks for the "
    "new deal (the simulations count these re-deals apart from the all-pass ones).",
    "match-draw": "Seed 003: once a team reaches the target after a hand, the higher total wins and "
    "equal totals are a draw. Seed 004: the first team to reach it wins; both in one hand: the "
    "higher total, a tie plays another hand (match_end = draw | play-on).",
}


@dataclass(frozen=True)
class TarneebVariant(PresetSwitches):
    """One rule set of the Tarneeb family. Presets: :data:`PRESETS`; switches: :meth:`with_`.

    >>> v = TarneebVariant.preset("tarneeb").with_(target=41, one_bid_each=True)
    >>> v.target, v.one_bid_each, v.label
    (41, True, 'tarneeb target=41 one-bid-each=True')
    """

    name: str = "tarneeb"
    #: ``number``: bids are a number of tricks, trump named after the auction; ``strain``
    #: (Egyptian): every bid names its strain, and a bid can be doubled.
    auction: str = "number"
    target: int = 31
    #: ``redeal``: four passes at the start re-deal (same dealer); ``forced``: when the first
    #: three pass, the dealer must bid.
    all_pass: str = "redeal"
    #: Whether a player who passed is out of the auction for the hand (Egyptian: no).
    passed_out: bool = True
    one_bid_each: bool = False
    no_trump: bool = True
    trump_lead: bool = False
    worthless_redeal: bool = False
    failed_13_defenders: str = "double"
    match_end: str = "play-on"
    game: str = GAME

    _KIND = "Tarneeb variant"
    _SWITCH = "Tarneeb switch"
    _SPEC_INTS = frozenset({"target"})
    _SPEC_BOOLS = frozenset({"passed_out", "one_bid_each", "no_trump", "trump_lead", "worthless_redeal"})
    _SPEC_WORDS = {"auction": AUCTIONS, "all_pass": ALL_PASS, "failed_13_defenders": FAILED_13_DEFENDERS,
                   "match_end": MATCH_ENDS}  # fmt: skip

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name:
            raise T400Error(f"variant name {self.name!r}: expected a word")
        if self.auction not in AUCTIONS:
            raise T400Error(f"auction {self.auction!r}: expected one of {', '.join(AUCTIONS)}")
        if not _whole(self.target) or not (1 <= self.target <= MAX_TARGET):
            raise T400Error(
                f"target {self.target!r}: expected a whole number from 1 to {MAX_TARGET} (31, 41, ...)"
            )
        if self.all_pass not in ALL_PASS:
            raise T400Error(f"all-pass rule {self.all_pass!r}: expected one of {', '.join(ALL_PASS)}")
        if self.failed_13_defenders not in FAILED_13_DEFENDERS:
            raise T400Error(f"failed-13 rule {self.failed_13_defenders!r}: expected tricks or double")
        if self.match_end not in MATCH_ENDS:
            raise T400Error(f"match end {self.match_end!r}: expected one of {', '.join(MATCH_ENDS)}")
        for name in ("passed_out", "one_bid_each", "no_trump", "trump_lead", "worthless_redeal"):
            if not isinstance(getattr(self, name), bool):
                raise T400Error(f"{name.replace('_', '-')} {getattr(self, name)!r}: expected True or False")
        if self.game != GAME:
            raise T400Error(f"game {self.game!r}: a Tarneeb variant's game is {GAME!r}")
        if self.auction == "strain" and self.one_bid_each:
            raise T400Error("one-bid-each is a rule of the number auction, not of Egyptian Tarneeb")
        if self.auction == "strain" and not self.no_trump:
            raise T400Error(
                "Egyptian Tarneeb's bids include no-trump (NT ranks highest): --no-no-trump does not apply"
            )

    @classmethod
    def _presets(cls) -> dict:
        return PRESETS

    @property
    def doubling(self) -> bool:
        """Whether a bid can be doubled (Egyptian Tarneeb)."""
        return self.auction == "strain"

    def kernel_rules(self) -> np.ndarray:
        """The same rules as one packed array for the Numba kernels (see :func:`pack_rules`)."""
        return pack_rules(self)

    def strains(self) -> tuple[Strain, ...]:
        """The strains a declarer may name: the four suits, and no-trump where allowed."""
        suits = (Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
        return (*suits, Strain.NO_TRUMP) if self.no_trump else suits


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


PRESETS: dict[str, TarneebVariant] = {
    "tarneeb-dananeer": TarneebVariant(
        name="tarneeb-dananeer",
        all_pass="forced",
        no_trump=False,
        failed_13_defenders="tricks",
        match_end="draw",
    ),
    "tarneeb": TarneebVariant(name="tarneeb"),
    "egyptian": TarneebVariant(name="egyptian", auction="strain", target=41, passed_out=False),
}
PRESET_DESCRIPTIONS = {
    "tarneeb-dananeer": "classic Tarneeb as the Dananeer app plays it (rule text 003)",
    "tarneeb": "classic Tarneeb, the generic rules (rule text 004); its variants are switches",
    "egyptian": "Egyptian Tarneeb (rule text 004's variant): bids name a strain, doubling, to 41",
}


def as_tarneeb_variant(value: TarneebVariant | str | None = None, **switches) -> TarneebVariant:
    """A Tarneeb variant from a preset name or a :class:`TarneebVariant`, switches applied."""
    if value is None:
        value = "tarneeb"
    variant = value if isinstance(value, TarneebVariant) else TarneebVariant.preset(value)
    return variant.with_(**switches)


# ---------------------------------------------------------------------------------------------
# The auction


#: Egyptian strain order, low to high: clubs, diamonds, hearts, spades, no-trump.
# ---------------------------------------------------------------------------------------------
# Scoring and the match


def is_worthless(hand: Hand) -> bool:
    """Seed 004's worthless hand: no ace, no king with another card of its suit, no queen with
    two others, no jack with three others (such a player may ask for a new deal).

    >>> from analyzer.core.notation import parse_hand
    >>> is_worthless(parse_hand("K.QJ.J32.T987654")), is_worthless(parse_hand("K2.QJ.J3.T987654"))
    (True, False)
    """
    # the least length of the suit at which each honour could win a trick led from the top
    needs = {Rank.ACE: 1, Rank.KING: 2, Rank.QUEEN: 3, Rank.JACK: 4}
    for suit in Suit:
        ranks = hand.ranks(suit)
        if any(len(ranks) >= needs[r] for r in ranks if r in needs):
            return False
    return True


@dataclass(frozen=True)
class HandResult:
    """One settled hand: team scores (seats 1+3 first) before and after, the contract and result."""

    scores_before: tuple[int, int]
    declarer: int
    bid: int
    trump: str | None
    doubled: bool
    tricks: int
    made: bool
    kaboot: bool
    deltas: tuple[int, int]
    scores: tuple[int, int]
    winner: tuple[int, int] | None
    draw: bool
    reason: str | None

    def to_dict(self) -> dict:
        return {
            "scores_before": list(self.scores_before),
            "declarer": self.declarer,
            "declaring_team": list(Seat(self.declarer).team.seats),
            "bid": self.bid,
            "trump": self.trump,
            "doubled": self.doubled,
            "tricks": self.tricks,
            "defenders_tricks": TRICKS - self.tricks,
            "made": self.made,
            "kaboot": self.kaboot,
            "deltas": list(self.deltas),
            "scores": list(self.scores),
            "winner": None if self.winner is None else list(self.winner),
            "draw": self.draw,
            "reason": self.reason,
        }


def declarer_points(bid: int, tricks: int, doubled: bool = False) -> int:
    """The declaring team's points: its tricks if made (16 for all 13 on a lower bid, 26 for a
    made 13), minus the bid if failed (-16 for a failed 13); doubled (Egyptian): times 2.

    >>> [declarer_points(b, t) for b, t in [(7, 7), (7, 9), (7, 13), (7, 6), (11, 4), (13, 13), (13, 12)]]
    [7, 9, 16, -7, -11, 26, -16]
    """
    _check_bid(bid)
    _check_tricks(tricks)
    if tricks >= bid:
        points = (MADE_13 if bid == MAX_BID else KABOOT) if tricks == TRICKS else tricks
    else:
        points = -(FAILED_13 if bid == MAX_BID else bid)
    return 2 * points if doubled else points


def net_points(variant: TarneebVariant, bid: int, tricks: int, doubled: bool = False) -> int:
    """The declaring team's points minus the defenders' (what the bots and the call analyzer
    weigh a contract by).

    >>> net_points(TarneebVariant.preset("tarneeb-dananeer"), 11, 4)
    -20
    """
    return declarer_points(bid, tricks, doubled) - defender_points(variant, bid, tricks)


def defender_points(variant: TarneebVariant, bid: int, tricks: int) -> int:
    """The defenders' points: 0 when the contract is made; else their tricks (16 if all 13), and
    for a failed 13 double their tricks where the variant says so (seed 004).

    >>> [defender_points(TarneebVariant.preset("tarneeb-dananeer"), b, t) for b, t in [(7, 7), (7, 6), (11, 4), (11, 0), (13, 12)]]
    [0, 7, 9, 16, 1]
    >>> defender_points(TarneebVariant.preset("tarneeb"), 13, 12)
    2
    """
    _check_bid(bid)
    _check_tricks(tricks)
    if tricks >= bid:
        return 0
    theirs = TRICKS - tricks
    if bid == MAX_BID and variant.failed_13_defenders == "double":
        return 2 * theirs
    return KABOOT if theirs == TRICKS else theirs


def match_result(
    variant: TarneebVariant, scores: Sequence[int]
) -> tuple[tuple[int, int] | None, bool, str | None]:
    """``(winner seats or None, draw, reason)`` for team totals (seats 1+3 first) after a hand.

    >>> match_result(TarneebVariant.preset("tarneeb"), [33, 31])
    ((1, 3), False, 'seats 1+3 reach 31 with the higher total')
    >>> match_result(TarneebVariant.preset("tarneeb"), [32, 32])[2]
    'both teams reach 31 with equal totals: another hand is played'
    >>> match_result(TarneebVariant.preset("tarneeb-dananeer"), [32, 32])
    (None, True, 'a team reached 31 and the totals are equal: a draw')
    """
    a, b = scores
    t = variant.target
    if a < t and b < t:
        return None, False, None
    if a != b:
        team = Team.ODD if a > b else Team.EVEN
        return (
            team.seats,
            False,
            f"seats {team.label} reach {t} with the higher total" if max(a, b) >= t else None,
        )
    if variant.match_end == "draw":
        return None, True, f"a team reached {t} and the totals are equal: a draw"
    return None, False, f"both teams reach {t} with equal totals: another hand is played"


def settle_hand(
    variant: TarneebVariant,
    scores: Sequence[int],
    declarer: int,
    bid: int,
    tricks: int,
    trump: str | Strain | None = None,
    doubled: bool = False,
) -> HandResult:
    """Settle one hand from the team totals before it (seats 1+3 first), the declarer's seat, the
    contract and the declaring team's tricks.

    >>> r = settle_hand(TarneebVariant.preset("tarneeb"), [0, 0], declarer=2, bid=9, tricks=10)
    >>> r.scores, r.made, r.kaboot
    ((0, 10), True, False)
    """
    scores = check_team_scores(scores)
    winner, draw, _ = match_result(variant, scores)
    if winner is not None or draw:
        raise T400Error(
            f"scores {list(scores)}: the match is already over (target {variant.target}); no hand follows"
        )
    seat = Seat.check(declarer, "declarer")
    _check_bid(bid)
    _check_tricks(tricks)
    strain = None
    if trump is not None:
        strain = Strain.parse(trump)
        if strain not in variant.strains():
            raise T400Error(f"trump {strain.letter}: no-trump is not allowed in {variant.label}")
    if variant.auction == "strain" and strain is None:
        raise T400Error("Egyptian contracts name their strain: give the trump (S, H, D, C or NT)")
    if not isinstance(doubled, bool):
        raise T400Error(f"doubled {doubled!r}: expected True or False")
    if doubled and not variant.doubling:
        raise T400Error(
            f"a doubled contract: there is no doubling in {variant.label} (only Egyptian Tarneeb doubles)"
        )
    ours = declarer_points(bid, tricks, doubled)
    theirs = defender_points(variant, bid, tricks)
    team = seat.team
    deltas = [0, 0]
    deltas[team] = ours
    deltas[team.other] = theirs
    after = (scores[0] + deltas[0], scores[1] + deltas[1])
    winner, draw, reason = match_result(variant, after)
    made = tricks >= bid
    kaboot = tricks == TRICKS or (not made and tricks == 0)
    return HandResult(
        scores, int(seat), bid, None if strain is None else strain.letter, doubled, tricks, made, kaboot,
        tuple(deltas), after, winner, draw, reason,
    )  # fmt: skip


def check_team_scores(scores: Sequence[int]) -> tuple[int, int]:
    try:
        values = tuple(scores)
    except TypeError:
        raise T400Error(f"scores {scores!r}: expected two team totals, seats 1+3 first") from None
    if len(values) != 2:
        raise T400Error(f"scores {list(values)}: expected two team totals (seats 1+3, seats 2+4)")
    for v in values:
        if not _whole(v) or abs(v) > MAX_SCORE:
            raise T400Error(f"score {v!r}: expected a whole number within +/-{MAX_SCORE}")
    return values


def _check_bid(bid) -> None:
    if not _whole(bid) or not (MIN_BID <= bid <= MAX_BID):
        raise T400Error(f"bid {bid!r}: a Tarneeb bid is 7 to 13 tricks")


def _check_tricks(tricks) -> None:
    if not _whole(tricks) or not (0 <= tricks <= TRICKS):
        raise T400Error(f"tricks {tricks!r}: the declaring team takes 0 to 13 tricks")


def pack_rules(variant: TarneebVariant) -> np.ndarray:
    """The rules array the kernels read (int64[``kernels.tarneeb.rules.SIZE``]), from ``variant``."""
    packed = kr.empty_rules()
    packed[kr.AUCTION] = AUCTIONS.index(variant.auction)
    packed[kr.TARGET] = variant.target
    packed[kr.ALL_PASS] = ALL_PASS.index(variant.all_pass)
    packed[kr.PASSED_OUT] = int(variant.passed_out)
    packed[kr.ONE_BID_EACH] = int(variant.one_bid_each)
    packed[kr.NO_TRUMP] = int(variant.no_trump)
    packed[kr.TRUMP_LEAD] = int(variant.trump_lead)
    packed[kr.WORTHLESS_REDEAL] = int(variant.worthless_redeal)
    packed[kr.FAILED_13] = FAILED_13_DEFENDERS.index(variant.failed_13_defenders)
    packed[kr.MATCH_END] = MATCH_ENDS.index(variant.match_end)
    packed[kr.KABOOT], packed[kr.MADE_13], packed[kr.FAILED_13_POINTS] = KABOOT, MADE_13, FAILED_13
    return packed


def describe(variant: TarneebVariant) -> dict:
    """Everything ``t400 rules --game tarneeb`` shows; ``said`` keeps the catalogue keys of its
    sentences (:class:`analyzer.core.messages.Said`)."""
    v = variant
    said = Said()
    order = "once" if v.one_bid_each else v.auction
    made_rows = [
        {"bid": b, "tricks": t, "declarers": declarer_points(b, t), "defenders": defender_points(v, b, t)}
        for b, t in [(7, 7), (7, 9), (7, 13), (7, 6), (11, 4), (11, 0), (13, 13), (13, 12)]
    ]
    return {
        "game": GAME,
        "variant": v.name,
        "label": v.label,
        "switches": v.switches,
        "auction": {
            "bids": said("auction.bids", "rules.t.bids_strain" if v.auction == "strain" else "rules.t.bids"),
            "order": said("auction.order", f"rules.t.order_{order}"),
            "passed_players": said("auction.passed_players", "rules.t.passed_out" if v.passed_out and not v.one_bid_each
                                   else "rules.t.passed_again"),
            "ends": said("auction.ends", f"rules.t.ends_{order}"),
            "all_pass": said("auction.all_pass", "rules.t.all_pass_forced" if v.all_pass == "forced"
                             else "rules.t.all_pass_redeal"),
            "doubling": said("auction.doubling", "rules.t.doubling" if v.doubling else "rules.t.no_doubling"),
            "worthless_redeal": said("auction.worthless_redeal", "rules.t.worthless" if v.worthless_redeal
                                     else "rules.t.no_worthless"),
        },  # fmt: skip
        "trump": said("trump", "rules.t.trump_with_bid" if v.auction == "strain" else "rules.t.trump_after"),
        "strains": [s.letter for s in v.strains()],
        "play": said("play", "rules.t.play_trump_lead" if v.trump_lead else "rules.t.play"),
        "scoring": {
            "made": said("scoring.made", "rules.t.made"),
            "failed": said("scoring.failed", "rules.t.failed_double" if v.failed_13_defenders == "double"
                           else "rules.t.failed"),
            "examples": made_rows,
        },  # fmt: skip
        "match": {
            "target": v.target,
            "end": said("match.end", "rules.t.end_draw" if v.match_end == "draw" else "rules.t.end_play_on",
                        target=v.target),
        },  # fmt: skip
        "said": said.keys,
        "open_points": OPEN_POINTS,
    }
