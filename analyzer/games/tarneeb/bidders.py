"""Tarneeb bot bidders (Python originals; the kernels' twins are in ``kernels/tarneeb/bidder.py``):
``counting`` (the seed's beginner rule) and ``ev`` (a fitted trick model, calls by expected score).

``counting``: seed 004's advice for beginners, as a bot. "Count your sure tricks before bidding:
Aces, protected Kings and a long, strong suit you could make trump. Your partner will usually
add two or three more." "Choose your longest suit as trumps." Choices where the text is silent
(listed in :data:`COUNTING_CHOICES`) are made here, once.
"""

from __future__ import annotations

import datetime
import json
import math
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from analyzer.core import output
from analyzer.core.datafile import ShippedKind, read_shipped
from analyzer.core.errors import T400Error
from analyzer.core.notation import Hand, Rank, Suit
from analyzer.core.seats import Seat
from analyzer.core.strains import Strain
from analyzer.games.tarneeb.auction import Auction, Call
from analyzer.games.tarneeb.rules import MAX_BID, MIN_BID, TRICKS, TarneebVariant, net_points
from kernels.core.estimates import BINS_PER_TRICK, N_BINS
from kernels.tarneeb import bidder as kb

#: Tricks expected from partner ("usually two or three").
PARTNER_TRICKS = 2.5
#: High-card points that break a tie between equally long suits for the trump choice.
_HCP = {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1}

COUNTING_CHOICES = {
    "sure-tricks": "an ace is a trick, a king with at least one more card of its suit is a trick, "
    "and every trump beyond the third is a trick (the long suit made trump)",
    "partner": "partner adds 2.5 tricks; the team's estimate is the whole part of the sum (sure tricks + 2)",
    "trump": "the longest suit; equal lengths: more high-card points (A 4, K 3, Q 2, J 1), then the "
    "higher suit (spades, hearts, diamonds, clubs); never no-trump",
    "bid": "the lowest bid that overcalls, if the estimate reaches it (Egyptian: in the chosen "
    "trump); the dealer under one-bid-each equals the highest bid if the estimate reaches it",
    "partner-holds": "never overcall partner's standing bid; never double",
    "forced": "when it may not pass, the lowest bid it may make",
}


def trump_suit(hand: Hand) -> Suit:
    """The counting bot's trump: the longest suit, then the most high-card points, then the higher suit."""

    def key(suit: Suit):
        ranks = hand.ranks(suit)
        return (len(ranks), sum(_HCP.get(r, 0) for r in ranks), -int(suit))

    return max(Suit, key=key)


def sure_tricks(hand: Hand, trump: Suit) -> int:
    """Aces, protected kings, and the trumps beyond the third.

    >>> from analyzer.core.notation import parse_hand
    >>> h = parse_hand("AK5.AQJ9876.K3.2")
    >>> trump_suit(h), sure_tricks(h, trump_suit(h))
    (<Suit.HEARTS: 1>, 8)
    """
    tricks = 0
    for suit in Suit:
        ranks = hand.ranks(suit)
        tricks += Rank.ACE in ranks
        tricks += Rank.KING in ranks and len(ranks) >= 2
    return tricks + max(0, len(hand.ranks(trump)) - 3)


def team_estimate(hand: Hand) -> int:
    """The tricks the counting bot expects its team to take with its trump."""
    return int(sure_tricks(hand, trump_suit(hand)) + PARTNER_TRICKS)


def counting_call(auction: Auction, hand: Hand) -> Call:
    """The counting bot's call for the seat to speak in ``auction``."""
    seat = auction.seat
    legal = auction.legal_calls()
    bids = [c for c in legal if c.kind == "bid"]
    if not any(c.kind == "pass" for c in legal):
        return _in_trump(bids, hand, auction)[0]  # forced: the lowest bid it may make
    if auction.high_seat is not None and Seat(auction.high_seat).team == Seat(seat).team:
        return Call("pass")
    estimate = min(team_estimate(hand), MAX_BID)
    candidates = [c for c in _in_trump(bids, hand, auction) if c.level <= estimate]
    if estimate < MIN_BID or not candidates:
        return Call("pass")
    return candidates[0]


def _in_trump(bids: list[Call], hand: Hand, auction: Auction) -> list[Call]:
    """The bids in the bot's trump (all of them in the number auction), lowest first."""
    if auction.variant.auction != "strain":
        return bids
    strain = Strain(int(trump_suit(hand)))
    return [c for c in bids if c.strain is strain]


# ---------------------------------------------------------------------------------------------
# The EV bidder: a fitted trick model and calls by expected score

MODEL_FILE = "tarneeb_bidder.npz"
#: Card play the model is fitted on (and whose fingerprint it records).
MODEL_POLICIES = ("team",)
EV_CHOICES = {
    "tricks": "the team's tricks declaring in each strain: a least-squares fit on the declarer's "
    "hand (the key suit's length, ace, king, queen; side aces, guarded kings and queens; side "
    "voids, singletons and longest suit; high-card points) and the auction so far (the standing "
    "bid partner's or an opponent's, at 7 or at 8+), with the trick distribution around each "
    "estimate; fitted on simulated deals played out with the team policy",
    "call": "the legal call with the most expected points for the team (declarer's points minus "
    "the defenders') if the auction ended with it; a pass is worth the standing contract to its "
    "side: partner's from the bots' contracts of that level in the same simulations, an "
    "opponent's from a defence model (the team's tricks defending it, fitted on the bots' "
    "contracts: with that strain as the key suit for a strain bid, with the bidder's own longest "
    "suit for a number bid, whose trump is not named yet)",
    "double": "Egyptian: double an opponent's standing bid when the defence model expects the "
    "doubled contract to be worth more to the team than passing (never redoubles: there is none)",
    "trump": "after a number auction, the strain worth most at the contract's level",
}


@dataclass(frozen=True, eq=False)
class TarneebModel:
    """The EV bidder's fitted array (layout in :mod:`kernels.tarneeb.bidder`) and how it was made."""

    array: np.ndarray
    meta: dict

    def estimate(self, hand: Hand, strain: Strain, partner_level: int = 0, opponent_level: int = 0) -> float:
        """The team's expected tricks with ``hand`` declaring in ``strain``."""
        coef = self.array[kb.NT_COEF if strain is Strain.NO_TRUMP else kb.SUIT_COEF :][: kb.N_FEATURES]
        return float(np.dot(coef, features(hand, strain, partner_level, opponent_level)))

    def save(self, path: str | Path) -> None:
        output.save_npz(path, compressed=True, model=self.array, meta=json.dumps(self.meta))


#: The model file as :func:`analyzer.core.datafile.read_shipped` reads it.
MODEL_KIND = ShippedKind("Tarneeb bidder model", "model", "t400 fit-bidder --game tarneeb",
                         lambda a: a.shape == (kb.MODEL_SIZE,), TarneebModel)  # fmt: skip


def model_path(path: str | Path | None = None) -> str:
    return str(resources.files("analyzer.data") / MODEL_FILE) if path is None else str(path)


def load_model(path: str | Path | None = None) -> TarneebModel:
    """The shipped Tarneeb bidder model, or the one at ``path`` (read once; a file changed on
    disk is read again)."""
    return read_shipped(model_path(path), MODEL_KIND)


def features(hand: Hand, strain: Strain, partner_level: int = 0, opponent_level: int = 0) -> list[float]:
    """The trick model's inputs (twin of ``kernels.tarneeb.bidder.features``)."""
    key = trump_suit(hand) if strain is Strain.NO_TRUMP else Suit(int(strain))
    ranks = hand.ranks(key)
    side = [hand.ranks(s) for s in Suit if s != key]
    hcp = sum(_HCP.get(r, 0) for s in Suit for r in hand.ranks(s))
    return [
        1.0, float(len(ranks)), float(Rank.ACE in ranks), float(Rank.KING in ranks), float(Rank.QUEEN in ranks),
        float(sum(Rank.ACE in r for r in side)), float(sum(Rank.KING in r and len(r) >= 2 for r in side)),
        float(sum(Rank.QUEEN in r and len(r) >= 3 for r in side)), float(sum(len(r) == 0 for r in side)),
        float(sum(len(r) == 1 for r in side)), float(max(len(r) for r in side)), float(hcp),
        float(partner_level == MIN_BID), float(partner_level > MIN_BID),
        float(opponent_level == MIN_BID), float(opponent_level > MIN_BID),
    ]  # fmt: skip


def _value(
    variant: TarneebVariant, cum: np.ndarray, level: int, doubled: bool = False, defending=False
) -> float:
    """Expected net points of ``level`` for the declarers when P(tricks >= k) is ``cum[k]``
    (the declarers' tricks, or with ``defending`` the defenders')."""
    p = np.append(cum[:TRICKS] - cum[1 : TRICKS + 1], cum[TRICKS])
    return sum(
        p[k] * net_points(variant, level, TRICKS - k if defending else k, doubled) for k in range(TRICKS + 1)
    )


def _row(est: float) -> int:
    return min(max(int(np.int64(est * BINS_PER_TRICK + 0.5)), 0), N_BINS - 1)


def defence_value(
    model: TarneebModel, variant: TarneebVariant, hand: Hand, contract: Call, doubled: bool
) -> float:
    """Expected net points of the opponents' ``contract`` for them, from ``hand``'s view (a
    number bid: the trump unknown, the defence model of the number auction)."""
    number = contract.strain is None
    coef_at, cum_at = (kb.DEFN_COEF, kb.DEFN_CUM) if number else (kb.DEF_COEF, kb.DEF_CUM)
    coef = model.array[coef_at : coef_at + kb.N_FEATURES]
    strain = Strain.NO_TRUMP if number else contract.strain
    est = float(np.dot(coef, features(hand, strain, 0, contract.level)))
    cum = model.array[cum_at + _row(est) * 15 :][:15]
    return _value(variant, cum, contract.level, doubled, defending=True)


def bid_value(model: TarneebModel, variant: TarneebVariant, hand: Hand, level: int, strain: Strain,
              partner_level: int = 0, opponent_level: int = 0) -> float:  # fmt: skip
    """Expected net points for the team if ``hand`` declared ``level`` in ``strain``."""
    est = model.estimate(hand, strain, partner_level, opponent_level)
    return _value(variant, model.array[kb.CUM + _row(est) * 15 :][:15], level)


def best_strain(model: TarneebModel, variant: TarneebVariant, hand: Hand, level: int,
                partner_level: int = 0, opponent_level: int = 0) -> tuple[Strain, float]:  # fmt: skip
    """The strain ``hand`` would declare ``level`` in, and its value (ties: the first of S H D C NT)."""
    best, best_value = None, -math.inf
    for strain in variant.strains():
        v = bid_value(model, variant, hand, level, strain, partner_level, opponent_level)
        if v > best_value + 1e-12:
            best, best_value = strain, v
    return best, best_value


def ev_call(auction: Auction, hand: Hand, model: TarneebModel | None = None) -> Call:
    """The EV bot's call for the seat to speak in ``auction`` (see :data:`EV_CHOICES`)."""
    model = model or load_model()
    v = auction.variant
    seat = auction.seat
    partner_level = opponent_level = 0
    if auction.high is not None:
        if Seat(auction.high_seat).team == Seat(seat).team:
            partner_level = auction.high.level
        else:
            opponent_level = auction.high.level
    legal = auction.legal_calls()
    best, best_value = None, -math.inf
    if any(c.kind == "pass" for c in legal):
        best, best_value = Call("pass"), 0.0
        if partner_level:
            cum = model.array[kb.LEVEL_CUM + (partner_level - MIN_BID) * 15 :][:15]
            best_value = _value(v, cum, partner_level, auction.doubled)
        elif opponent_level:
            best_value = -defence_value(model, v, hand, auction.high, auction.doubled)
    if any(c.kind == "double" for c in legal):
        value = -defence_value(model, v, hand, auction.high, True)
        if value > best_value + 1e-12:
            best, best_value = Call("double"), value
    for call in (c for c in legal if c.kind == "bid"):
        if call.strain is None:
            value = best_strain(model, v, hand, call.level, partner_level, opponent_level)[1]
        else:
            value = bid_value(model, v, hand, call.level, call.strain, partner_level, opponent_level)
        if value > best_value + 1e-12:
            best, best_value = call, value
    return best


def fit_model(deals: int = 200_000, seed: int = 2026, iterations: int = 2, threads: int | None = None,
              ridge: float = 1.0, progress=None) -> TarneebModel:  # fmt: skip
    """Fit the EV bidder's model: simulate deals (each seat declaring each strain, team play) and
    the bots' auctions (the counting bot first, then the EV bot with the model so far), fit the
    trick model by ridge least squares, its distribution around the estimate, and the value of a
    standing contract of each level from the bots' contracts."""
    from analyzer import config
    from analyzer.core.policies import play_fingerprint
    from analyzer.core.runtime import check_seed, chunks_for, threads_used
    from analyzer.core.stats import trick_table
    from analyzer.games.tarneeb.rules import as_tarneeb_variant
    from kernels.tarneeb import hand as kh

    check_seed(seed)
    if isinstance(deals, bool) or not isinstance(deals, int) or not 10_000 <= deals <= 10_000_000:
        raise T400Error(f"deals {deals!r}: expected a whole number from 10,000 to 10,000,000")
    variant = as_tarneeb_variant("tarneeb")
    rules = variant.kernel_rules()
    chunk = config.get().sim_chunk
    n_chunks = chunks_for(deals, chunk)
    model = np.zeros(kb.MODEL_SIZE)
    history = []
    for it in range(iterations):
        bidders = np.full(4, kh.COUNTING if it == 0 else kh.EV, dtype=np.int64)
        with threads_used(threads):
            hands, tricks, contexts, outcomes = kh.training_deals(seed, it * n_chunks, n_chunks, chunk, rules,
                                                                  bidders, model)  # fmt: skip
        n = len(hands)
        ctx = np.maximum(contexts, 0)
        rows_h = np.repeat(hands.reshape(-1), 5)
        strains = np.tile(np.arange(5), 4 * n)
        pl = np.repeat(ctx[:, :, 0].reshape(-1), 5)
        ol = np.repeat(ctx[:, :, 1].reshape(-1), 5)
        y = tricks.reshape(-1).astype(np.float64)
        x = np.empty((len(y), kb.N_FEATURES))
        kb.feature_rows(rows_h, strains, pl, ol, x)
        new = np.zeros(kb.MODEL_SIZE)
        est = np.empty(len(y))
        for nt, base in ((False, kb.SUIT_COEF), (True, kb.NT_COEF)):
            m = (strains == 4) == nt
            xm = x[m]
            coef = np.linalg.solve(xm.T @ xm + ridge * np.eye(kb.N_FEATURES), xm.T @ y[m])
            new[base : base + kb.N_FEATURES] = coef
            est[m] = xm @ coef
        new[kb.CUM : kb.LEVEL_CUM] = trick_table(est, y, max(2000, len(y) // 400)).ravel()
        new[kb.LEVEL_CUM : kb.DEF_COEF] = _level_table(outcomes).ravel()
        for known, coef_at, cum_at, end in ((True, kb.DEF_COEF, kb.DEF_CUM, kb.DEFN_COEF),
                                            (False, kb.DEFN_COEF, kb.DEFN_CUM, kb.MODEL_SIZE)):  # fmt: skip
            dx, dy = _defence_rows(hands, outcomes, known)
            coef = np.linalg.solve(dx.T @ dx + ridge * np.eye(kb.N_FEATURES), dx.T @ dy)
            new[coef_at:cum_at] = coef
            new[cum_at:end] = trick_table(dx @ coef, dy, max(2000, len(dy) // 400)).ravel()
        resid = y - est
        history.append({"iteration": it, "bidder": kh.BIDDER_NAMES[bidders[0]], "deals": n, "samples": len(y),
                        "rmse": float(np.sqrt(np.mean(resid**2))), "r2": float(1 - resid.var() / y.var()),
                        "contracts": int((outcomes[:, kh.R_REDEAL] == kh.PLAYED).sum())})  # fmt: skip
        model = new
        if progress:
            progress(it + 1, iterations)
    meta = {
        "deals_per_iteration": n_chunks * chunk,
        "seed": seed,
        "iterations": iterations,
        "ridge": ridge,
        "policy": "team",
        "play_fingerprint": play_fingerprint(MODEL_POLICIES),
        "variant": variant.label,
        "fitted": datetime.date.today().isoformat(),
        "history": history,
        "command": f"t400 fit-bidder --game tarneeb --deals {deals} --seed {seed} --iterations {iterations}",
    }
    return TarneebModel(model, meta)


def _defence_rows(hands: np.ndarray, outcomes: np.ndarray, known: bool) -> tuple[np.ndarray, np.ndarray]:
    """The defence model's design matrix and targets: for each defender of each played contract,
    its hand's features (the contract as an opponent's standing bid; the key suit the trump when
    it is ``known``, else the defender's own longest suit, as the number auction sees it) and its
    team's tricks."""
    from kernels.tarneeb import hand as kh

    played = np.flatnonzero(outcomes[:, kh.R_REDEAL] == kh.PLAYED)
    res = outcomes[played]
    declarer = res[:, kh.R_DECLARER]
    rows_h = np.concatenate([hands[played, (declarer + 1) % 4], hands[played, (declarer + 3) % 4]])
    trump = np.tile(res[:, kh.R_TRUMP], 2) if known else np.full(2 * len(res), kb.NO_TRUMP, dtype=np.int64)
    level = np.tile(res[:, kh.R_CONTRACT] >> 3, 2)
    x = np.empty((len(rows_h), kb.N_FEATURES))
    kb.feature_rows(np.ascontiguousarray(rows_h), trump, np.zeros_like(level), level, x)
    return x, np.tile(TRICKS - res[:, kh.R_TRICKS], 2).astype(np.float64)


def _level_table(outcomes: np.ndarray) -> np.ndarray:
    """P(declaring team tricks >= k) for the bots' contracts of each level 7..13 ([7 x 15]); a
    level with fewer than 200 contracts borrows the nearest well-filled level's distribution,
    shifted by the difference in level (a bot that bids one more expects about one more trick)."""
    from kernels.tarneeb import hand as kh

    played = outcomes[outcomes[:, kh.R_REDEAL] == kh.PLAYED]
    levels = played[:, kh.R_CONTRACT] >> 3
    tricks = played[:, kh.R_TRICKS]
    counts = np.bincount(levels - MIN_BID, minlength=7)
    filled = [j for j in range(7) if counts[j] >= 200]
    if not filled:
        raise T400Error("too few contracts to fit the value of a standing bid: fit on more deals")
    table = np.zeros((7, 15))
    for j in range(7):
        src = j if counts[j] >= 200 else min(filled, key=lambda f: abs(f - j))
        t = np.clip(tricks[levels == src + MIN_BID] + (j - src), 0, TRICKS)
        p = np.bincount(t, minlength=TRICKS + 1) / len(t)
        table[j, :14] = p[::-1].cumsum()[::-1]
    return table
