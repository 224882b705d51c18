"""One Tarneeb hand bid and played out: the bots' auction (or the calls given), the trump (the
declarer bot's choice, or the one given), and the team play card by card (what ``t400 play
--game tarneeb`` shows, and the hand record it writes for ``t400 review``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from analyzer.core.errors import T400Error
from analyzer.core.notation import Card, Deal, as_deal
from analyzer.core.policies import per_seat, policies_kit, policy_id
from analyzer.core.records import HandRecord, play_tricks
from analyzer.core.strains import Strain
from analyzer.games.tarneeb.auction import Auction, Call, Contract, auction_result
from analyzer.games.tarneeb.bidders import load_model
from analyzer.games.tarneeb.rules import TarneebVariant, as_tarneeb_variant, settle_hand
from kernels.policies import play as kp
from kernels.tarneeb import hand as kh
from kernels.tarneeb import rules as kr

#: Bidder name -> the kernels' id.
BIDDERS = {name: i for i, name in enumerate(kh.BIDDER_NAMES)}


@dataclass(frozen=True)
class PlayedTarneebHand:
    """A Tarneeb hand as played; seats 1..4, teams seats 1+3 first. ``contract`` is ``None``
    when everyone passed (the hand is dealt again); ``cards`` in play order from the declarer's
    lead, ``leaders``/``winners`` per trick."""

    deal: Deal
    variant: TarneebVariant
    scores: tuple[int, int]
    calls: tuple[str, ...]
    calls_by: str
    contract: Contract | None
    trump: Strain | None
    cards: tuple[Card, ...]
    leaders: tuple[int, ...]
    winners: tuple[int, ...]
    declarer_tricks: int | None

    def record(self) -> HandRecord:
        """The hand as a record for ``t400 review``."""
        return HandRecord("tarneeb", self.variant.spec, self.deal, self.scores, calls=self.calls,
                          trump=None if self.trump is None else self.trump.letter, cards=self.cards)  # fmt: skip

    def to_dict(self) -> dict:
        result = None
        if self.contract is not None:
            result = settle_hand(self.variant, self.scores, self.contract.declarer, self.contract.bid,
                                 self.declarer_tricks, self.trump, self.contract.doubled).to_dict()  # fmt: skip
        return {
            "deal": str(self.deal), "variant": self.variant.label, "scores": list(self.scores),
            "calls": list(self.calls), "calls_by": self.calls_by,
            "contract": None if self.contract is None else self.contract.to_dict(),
            "trump": None if self.trump is None else self.trump.letter, "cards": [str(c) for c in self.cards],
            "leaders": list(self.leaders), "winners": list(self.winners), "declarer_tricks": self.declarer_tricks,
            "result": result, "record": self.record().to_dict(),
        }  # fmt: skip


def play_tarneeb_hand(
    deal: Deal | str,
    calls: Sequence[str] | None = None,
    trump: str | None = None,
    variant: TarneebVariant | str | None = None,
    scores: Sequence[int] = (0, 0),
    policy: str = "team",
    bidder: str = "ev",
) -> PlayedTarneebHand:
    """Bid (``calls`` from seat 1, or the ``bidder`` bots) and play a Tarneeb deal with ``policy``
    on every seat; the declarer names ``trump`` (or its bot chooses; Egyptian contracts carry
    their strain) and leads.

    >>> h = play_tarneeb_hand("AKQJT98765432.-.-.- -.AKQJT98765432.-.- -.-.AKQJT98765432.- -.-.-.AKQJT98765432")
    >>> h.calls, h.contract.declarer, h.trump.letter, h.declarer_tricks
    (('7', '8', '9', '10', '11', '13'), 2, 'H', 13)
    """
    d = as_deal(deal, full=True)
    v = as_tarneeb_variant(variant) if not isinstance(variant, str) else TarneebVariant.parse_spec(variant)
    totals = tuple(int(s) for s in scores)
    if len(totals) != 2:
        raise T400Error(f"scores: expected two team totals, seats 1+3 first (got {len(totals)})")
    if bidder not in BIDDERS:
        raise T400Error(f"unknown Tarneeb bidder {bidder!r} (expected {' or '.join(BIDDERS)})")
    rules = v.kernel_rules()
    model = load_model().array
    if calls is None:
        auction = _bots_auction(v, rules, d, BIDDERS[bidder], model)
        calls_by = f"{bidder} bots"
    else:
        auction = auction_result(v, calls)
        if not auction.over:
            raise T400Error(f"the calls {','.join(calls)} do not end the auction")
        calls_by = "given"
    called = tuple(str(c) for c in auction.calls)
    contract = auction.contract
    if contract is None:
        return PlayedTarneebHand(d, v, totals, called, calls_by, None, None, (), (), (), None)
    if contract.strain is not None:
        strain = contract.strain
        if trump is not None and Strain.parse(trump) != strain:
            raise T400Error(f"trump {trump}: the contract's strain is {strain.letter}")
    elif trump is not None:
        strain = Strain.parse(trump)
        if strain not in v.strains():
            raise T400Error(f"trump {strain.letter}: no-trump is not played in {v.label}")
    else:
        code = Call.parse(str(contract.bid)).code
        strain = Strain(int(kh.bot_trump(BIDDERS[bidder], rules, np.uint64(d.hands[contract.declarer - 1].bits),
                                         code, model)))  # fmt: skip
    policies = per_seat(policy, policy_id, "policy")
    packed = kh.team_bids(rules, Call.parse(str(contract.bid)).code, contract.declarer - 1)
    targets = np.array([(packed >> (8 * s)) & 255 for s in range(4)], dtype=np.int64)
    tricks = np.zeros(4, dtype=np.int64)
    line = np.zeros(52, dtype=np.int64)
    n = kp.play_hand(d.bits, targets, contract.declarer - 1, policies, policies_kit(policies), int(strain),
                     tricks, line)  # fmt: skip
    cards = tuple(Card.from_index(int(c)) for c in line[:n])
    record = HandRecord("tarneeb", v.spec, d, totals, calls=called, trump=strain.letter, cards=cards)
    played = play_tricks(record, strain.suit, contract.declarer, v.trump_lead)
    taken = sum(1 for t in played if t.winner % 2 == contract.declarer % 2)
    return PlayedTarneebHand(d, v, totals, called, calls_by, contract, strain, cards,
                             tuple(t.leader for t in played), tuple(t.winner for t in played), taken)  # fmt: skip


def _bots_auction(v: TarneebVariant, rules: np.ndarray, d: Deal, bidder: int, model: np.ndarray) -> Auction:
    """The bots' auction, call by call through the kernels' own auction state (as in a match)."""
    state = np.zeros(kr.ST_SIZE, dtype=np.int64)
    kr.auction_start(state)
    auction = Auction(v)
    while True:
        seat = kr.next_seat(rules, state)
        if seat < 0:
            return auction
        code = kh.bot_call(bidder, rules, state, np.uint64(d.hands[seat].bits), model)
        kr.auction_call(rules, state, code)
        auction.call(Call.from_code(int(code)))
