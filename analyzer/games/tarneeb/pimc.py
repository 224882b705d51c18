"""pimc for the Tarneeb family (:mod:`analyzer.core.pimc`): "what should I play now?" with the
auction read.

The layouts fit the auction: each other seat's whole hand (its cards in the layout and those it
has played) makes the calls that seat made in the same auction states as the EV bot would, and
the declarer's hand chooses the trump it chose (:class:`AuctionReader`; when too few of the
layouts drawn fit, the rest are those that contradict the fewest seats). Each card is valued by
the partnership double dummy: the tricks the mover's side takes from here, so the declaring
team's total, the contract made or set, and the points of the hand for the mover's side (the
declarers' points minus the defenders', signed for the side).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from analyzer.core.errors import T400Error
from analyzer.core.fmt import pct
from analyzer.core.layouts import FittingSampler, Position, replay, sample_layouts
from analyzer.core.notation import Card, as_hand
from analyzer.core.pimc import (
    DEFAULT_LAYOUTS,
    Advice,
    best_card,
    check_play,
    check_player,
    decide,
    first_reason,
    ranked,
    team_tricks,
)
from analyzer.core.reasons import reason
from analyzer.core.runtime import check_seed
from analyzer.core.strains import Strain
from analyzer.games.tarneeb.auction import Auction, Contract
from analyzer.games.tarneeb.rules import as_tarneeb_variant, net_points
from kernels.tarneeb import bidder as kb
from kernels.tarneeb import hand as kh
from kernels.tarneeb import rules as kr


class AuctionReader(FittingSampler):
    """What the auction tells the pimc player: a layout fits when each other seat's whole hand
    (its cards in the layout and those it has played) makes the calls that seat made, in the
    same auction states, as the EV bot would, and the declarer's chooses the trump it chose."""

    def __init__(self, rules, model):
        super().__init__()
        self.rules, self.model = rules, model
        self.calls, self.declarer, self.trump, self.contract = [], -1, -1, 0

    def read(self, codes, declarer: int, trump: int) -> AuctionReader:
        """Read the auction of a hand: its calls (kernel codes, from seat 1), the declarer (0..3)
        and the trump (a kernel strain index); returns the reader."""
        self.declarer, self.trump = declarer, trump
        state = np.empty(kr.ST_SIZE, dtype=np.int64)
        kr.auction_start(state)
        self.calls = []
        for code in codes:
            seat = kr.next_seat(self.rules, state)
            self.calls.append((seat, state.copy(), code))
            kr.auction_call(self.rules, state, code)
        self.contract = int(state[kr.ST_HIGH])
        return self

    def misfits(self, pos: Position):
        me = pos.mover
        played = np.array(pos.played_by, dtype=np.uint64)

        def count(layouts: np.ndarray) -> np.ndarray:
            hands = layouts | played
            wrong = np.zeros(layouts.shape, dtype=bool)
            made = np.empty(len(layouts), dtype=np.int64)
            for seat, state, call in self.calls:
                if seat != me:  # the mover's own hand is not sampled
                    kb.ev_calls(self.rules, np.tile(state, (len(layouts), 1)), hands[:, seat], self.model, made)
                    wrong[:, seat] |= made != call
            if self.declarer != me:  # the trump, on the layouts whose calls fit (one hand at a time)
                for i in np.flatnonzero(~wrong.any(axis=1)):
                    chosen = kh.bot_trump(kh.EV, self.rules, hands[i, self.declarer], self.contract, self.model)
                    wrong[i, self.declarer] = chosen != self.trump
            return wrong.sum(axis=1)

        return count

    def layouts(self, pos: Position, n: int, rng: random.Random) -> list[list[int]]:
        return self.fit(pos, n, rng, self.misfits(pos))


def bot_contracts(n: int, seed: int, rules, model) -> tuple[np.ndarray, np.ndarray]:
    """Deals and the EV bots' contracts with ``team`` play: (hands uint64[m, 4], outcomes
    int64[m, R_SIZE]) of the played ones among ``n`` deals of ``seed``."""
    from analyzer.core.dealing import deal_hands
    from kernels.core.kit import Kit
    from kernels.policies import play as kp

    deals = deal_hands(n, seed=seed)
    out = np.zeros((n, kh.R_SIZE), dtype=np.int64)
    kh.hands_outcomes(rules, deals, np.full(4, kh.EV), np.full(4, kp.TEAM), Kit(kp.TEAM), out, model)
    played = out[:, kh.R_REDEAL] == kh.PLAYED
    return deals[played], out[played]


def bot_auction(rules, model, hands, res) -> list[int]:
    """The EV bots' auction of a deal replayed (kernel codes, from seat 1); it ends in ``res``'s
    contract."""
    state = np.empty(kr.ST_SIZE, dtype=np.int64)
    kr.auction_start(state)
    calls = []
    while (seat := kr.next_seat(rules, state)) >= 0:
        call = kh.bot_call(kh.EV, rules, state, hands[seat], model)
        calls.append(int(call))
        kr.auction_call(rules, state, call)
    assert (state[kr.ST_HIGH], state[kr.ST_HIGH_SEAT]) == (res[kh.R_CONTRACT], res[kh.R_DECLARER])
    return calls


def side_bids(rules, res) -> list[int]:
    """The trick loop's side targets of a contract (see :func:`kernels.tarneeb.hand.team_bids`)."""
    packed = kh.team_bids(rules, int(res[kh.R_CONTRACT]), int(res[kh.R_DECLARER]))
    return [(packed >> (8 * s)) & 255 for s in range(4)]


class DuelTable:
    """Tarneeb's side of a duel of hands (:mod:`analyzer.core.hand_duel`): ``n`` deals with the
    EV bots' contracts (re-deals skipped), the declarer leading, pimc reading the auction on
    ``layouts`` layouts a decision, and the declarers' points minus the defenders'."""

    #: What pimc's layouts fit, and what the bots made: the duel's words.
    reads = "auction"

    def __init__(self, v, n: int, seed: int, layouts: int = DEFAULT_LAYOUTS, threads: int | None = None,
                 objective: str = "points"):  # fmt: skip
        from analyzer.games.tarneeb.bidders import load_model

        if objective not in OBJECTIVES:
            raise T400Error(f"objective {objective!r}: expected one of {', '.join(OBJECTIVES)}")
        self.objective = objective

        self.v, self.rules, self.model = v, v.kernel_rules(), load_model().array
        hands, outcomes = bot_contracts(max(2 * n, 16), seed, self.rules, self.model)
        while len(hands) < n:  # a variant that re-deals often: more deals of the next seeds
            more = bot_contracts(2 * n, seed + len(hands) + 1, self.rules, self.model)
            hands, outcomes = np.concatenate([hands, more[0]]), np.concatenate([outcomes, more[1]])
        self._deals = list(zip(hands[:n], outcomes[:n]))
        self.reader, self.layouts, self.threads = AuctionReader(self.rules, self.model), layouts, threads
        self._read = None

    def deals(self) -> list:
        return self._deals

    def start(self, deal) -> Position:
        h, res = deal
        pos = Position(h, side_bids(self.rules, res), leader=int(res[kh.R_DECLARER]), trump=int(res[kh.R_TRUMP]))
        pos.first_lead_trump = self.v.trump_lead
        return pos

    def pimc_card(self, deal, pos: Position, rng: random.Random) -> tuple[int, int]:
        h, res = deal
        if self._read is not h:  # the auction is read once a deal
            self.reader.read(bot_auction(self.rules, self.model, h, res), int(res[kh.R_DECLARER]), int(res[kh.R_TRUMP]))
            self._read = h
        contract = Contract(int(res[kh.R_DECLARER]) + 1, kr.level_of(int(res[kh.R_CONTRACT])), doubled=bool(res[kh.R_DOUBLED]))
        d = decide(pos, self.reader.layouts(pos, self.layouts, rng), solver(self.v, contract, self.threads, self.objective))
        return best_card(d), d.layouts

    def points(self, deal, pos: Position) -> int:
        res = deal[1]
        decl = int(res[kh.R_DECLARER])
        net = net_points(self.v, kr.level_of(int(res[kh.R_CONTRACT])), pos.taken[decl] + pos.taken[decl ^ 2],
                         bool(res[kh.R_DOUBLED]))  # fmt: skip
        return net if decl % 2 == 0 else -net


@dataclass
class CardRow:
    """One legal card (and the cards ``equal`` to it): the mover's side's points of the hand
    (mean and SE over the layouts), P(the contract is made), P(it is the best card)."""

    card: str
    equal: list[str]
    points: float
    points_se: float
    p_contract_made: float
    p_best: float


@dataclass(kw_only=True)
class CardAdvice(Advice):
    """``t400 card --game tarneeb``'s answer: the common fields, the auction and the contract."""

    auction: list[str]
    contract: dict

    def to_dict(self) -> dict:
        return {"game": "tarneeb", **self.common(), "auction": self.auction, "contract": self.contract,
                "layouts_fit_auction": self.fitted}  # fmt: skip


def check_card_inputs(hand, seat: int, calls, trump, play, variant, layouts: int):
    """The checked inputs of :func:`recommend_card`: (hand bits, seat index, variant, auction,
    the trump strain, cards)."""
    v = as_tarneeb_variant(variant)
    h = check_player(hand, seat)
    a = Auction(v)
    for n, call in enumerate(calls or [], start=1):
        if a.over:
            raise T400Error(f"--auction call {n} ({call}): the auction was already over")
        try:
            a.call(call)
        except T400Error as exc:
            raise T400Error(f"--auction call {n} ({call}): {exc}") from None
    if not a.over or a.contract is None:
        raise T400Error("--auction: the auction is not over (or everyone passed): no hand is played yet")
    strain = a.contract.strain
    if trump is not None:
        named = Strain.parse(trump)
        if strain is not None and named != strain:
            raise T400Error(f"--trump {named.letter}: the contract's strain is {strain.letter}")
        if named not in v.strains():
            raise T400Error(f"--trump {named.letter}: no-trump is not played in {v.label}")
        strain = named
    if strain is None:
        raise T400Error("--trump: the declarer's trump is needed (S, H, D, C or NT)")
    cards = check_play(play, layouts)
    return h.bits, seat - 1, v, a, strain, cards


#: What pimc maximises: the contract's points for the mover's side (the game's score, the
#: product's), or the side's tricks of the hand (what the per-card benchmarks maximised).
OBJECTIVES = ("points", "tricks")


def solver(v, contract, threads: int | None = None, objective: str = "points"):
    """The values of :func:`analyzer.core.pimc.decide` for Tarneeb: the mover's side's points of
    the hand (``objective="tricks"``: its tricks of the hand) and whether the contract is made,
    per layout and card."""
    declarer = contract.declarer - 1

    def solve(pos: Position, layouts, cards):
        ours = team_tricks(pos, layouts, cards, threads=threads)
        mover_declares = (pos.mover & 1) == (declarer & 1)
        left = 13 - sum(pos.taken)
        declared = pos.taken[declarer] + pos.taken[declarer ^ 2]
        tricks = declared + (ours if mover_declares else left - ours)
        if objective == "tricks":
            return (tricks if mover_declares else 13 - tricks).astype(np.float64), tricks >= contract.bid
        net = np.vectorize(lambda t: net_points(v, contract.bid, int(t), contract.doubled))(tricks)
        return (net if mover_declares else -net), tricks >= contract.bid

    return solve


def recommend_card(hand, seat: int, auction, trump=None, play=(), variant="tarneeb", layouts: int = DEFAULT_LAYOUTS,
                   seed: int = 0, threads: int | None = None, stop_early: bool = True,
                   read_auction: bool = True, progress=None) -> CardAdvice:  # fmt: skip
    """What should seat ``seat`` (1..4, holding ``hand`` as dealt) play after ``play`` (the cards
    so far from the declarer's lead), the auction ``auction`` over and the trump ``trump`` named
    (for a contract without a strain)? Each legal card valued by pimc on ``layouts`` layouts that
    fit the auction (``read_auction=False``: any layout); ``progress(done, total)``: the layouts
    solved."""
    import time

    from analyzer.core.runtime import COMPILE_CLOCK
    from analyzer.games.tarneeb.bidders import load_model

    check_seed(seed)
    start, compiled = time.perf_counter(), COMPILE_CLOCK.seconds()
    bits, me, v, a, strain, cards = check_card_inputs(hand, seat, auction, trump, play, variant, layouts)
    if len(cards) >= 52:
        raise T400Error("the hand is over: all 52 cards are played")
    contract = a.contract
    declarer = contract.declarer - 1
    pos = replay(bits, me, declarer, cards, int(strain), first_lead_trump=v.trump_lead)
    if pos.mover != me:
        raise T400Error(f"it is seat {pos.mover + 1}'s turn to play, not seat {seat}'s")
    rng = random.Random(seed)
    reader = None
    if read_auction:
        reader = AuctionReader(v.kernel_rules(), load_model().array).read([c.code for c in a.calls], declarer, int(strain))
    dealt = reader.layouts(pos, layouts, rng) if reader else sample_layouts(pos, layouts, rng)
    decision = decide(pos, dealt, solver(v, contract, threads), stop_early=stop_early, progress=progress)
    found, recommended = ranked(decision, seed)
    rows = [CardRow(r["card"], r["equal"], r["mean"], r["se"], r["extra"], r["p_best"]) for r in found]
    advice = CardAdvice(
        hand=as_hand(hand).to_dot(), seat=seat, auction=[str(c) for c in a.calls],
        contract={**contract.to_dict(), "trump": strain.letter}, variant=v.label,
        played=[Card.from_index(c).symbol for c in cards], trick=[Card.from_index(c).symbol for c in pos.trick],
        taken=list(pos.taken), layouts=decision.layouts, layouts_asked=layouts,
        fitted=reader.stats()["all_layouts_fit"] if reader else 0.0, seed=seed, rows=rows, recommended=recommended,
    )  # fmt: skip
    advice.reasons = _reasons(advice, (me & 1) == (declarer & 1))
    advice.compile_s = COMPILE_CLOCK.seconds() - compiled
    advice.elapsed_s = time.perf_counter() - start - advice.compile_s
    return advice


def _reasons(a: CardAdvice, declaring: bool) -> list[dict]:
    """The recommendation in words, from the figures of the table (catalogue keys ``card.why.*``)."""
    rows = [{"card": r.card, "mean": r.points, "p_best": r.p_best} for r in a.rows]
    out = [first_reason(rows, a.recommended, a.layouts, "card.why.best_auction")]
    if len(rows) == 1:
        return out
    made = a.row(a.recommended).p_contract_made
    if declaring:
        out.append(reason("card.why.contract_made", p=pct(made, digits=0)))
    else:
        out.append(reason("card.why.contract_set", p=pct(1 - made, digits=0)))
    return out
