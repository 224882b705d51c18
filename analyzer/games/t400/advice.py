"""What should I bid? Trick distributions and expected value per bid for one hand.

The 39 unseen cards are dealt at random, consistently with what the player knows. With the
``rollout`` model the players after the player bid with the bot bidder, a dead hand scores
nothing, and all four play the hand out with the chosen policy; with ``dd`` the player's tricks
are the ``solo`` double-dummy result of each deal (perfect defence by the other three: a
pessimistic figure). Every legal bid of the player is evaluated on the same deals (common
random numbers), so differences between bids are far more precise than the bids' own figures.

Earlier bids are evidence about the earlier bidders' hands: each deal is weighted by the
probability that the bot bidder would have made those bids with the dealt hands (a softmax of
its expected values; self-normalised importance sampling; the effective sample size is
reported). ``infer=False`` turns that off.

Every estimate comes with a standard error. With the rollout model and without ``samples``,
sampling goes on in batches of whole chunks until every P(make) has a standard error of at most
``target_se`` (or a cap is reached); the batches are fixed, so the answer for a seed does not
depend on the thread count. The ``dd`` model solves a fixed number of deals (512 by default).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numba
import numpy as np

from analyzer import config
from analyzer.core.errors import Interrupted, T400Error
from analyzer.core.messages import Said
from analyzer.core.notation import Hand, as_hand
from analyzer.core.runtime import (
    KERNEL_STOP,
    check_seed,
    deferred_interrupt,
    interruptible,
    kernel_stopped,
    threads_used,
)
from analyzer.core.stats import probability_best, ratio_se
from analyzer.games.t400.bidder import INFER_TAU, bot_array
from analyzer.games.t400.reasons import bid_points, bid_reasons
from analyzer.games.t400.rules import MAX_BID, Variant, as_variant, check_bids, check_scores
from analyzer.games.t400.simulate import lineup_array
from kernels.t400 import rollout as kr
from kernels.t400.lineup import lineup_kit

MODELS = ("rollout", "dd", "solo-dd")
#: --samples above these would run for more than a day (rollout ~1e5 deals/s, dd ~2 deals/s,
#: solo-dd ~10 deals/s).
MAX_SAMPLES = {"rollout": 10**10, "dd": 10**5, "solo-dd": 10**6}
#: The models whose answer carries a note (its catalogue key): what the figures mean.
DD_NOTES = {"dd": "note.dd", "solo-dd": "note.solo_dd"}


@dataclass
class BidRow:
    """One candidate bid."""

    bid: int
    value: int
    p_make: float | None
    p_make_se: float | None
    ev: float
    ev_se: float
    p_dead: float
    p_dead_se: float
    p_best: float
    tricks: list[float]
    later_bids_mean: list[float | None]
    #: P(the player's partnership wins the match) after the hand, by the match-equity table
    #: (``None`` when the objective is points).
    p_win: float | None = None
    p_win_se: float | None = None


@dataclass
class BidAnalysis:
    """The answer to "what should I bid with this hand?" (see :func:`recommend_bid`)."""

    hand: str
    seat: int
    scores: tuple[int, int, int, int]
    bids: tuple[int, ...]
    variant: str
    model: str
    policy: str
    objective: str
    samples: int
    seed: int
    infer: bool
    effective_samples: float
    rows: list[BidRow]
    recommended: int
    p_best: float
    margin: float
    margin_se: float
    runner_up: int | None
    tricks: list[float]
    tricks_se: list[float]
    tricks_mean: float
    tricks_mean_se: float
    target_met: bool
    elapsed_s: float
    #: Seconds spent compiling the kernels (or loading them from the disk cache) before sampling.
    compile_s: float = 0.0
    #: The bid whose trick distribution ``tricks`` is (the recommended one, unless it always
    #: kills the hand: then the least bid that plays most often).
    tricks_bid: int | None = None
    #: A warning about the answer's precision, for the reader (``None`` when there is none).
    warning: str | None = None

    @property
    def killing_bids(self) -> list[int]:
        """The bids that always kill the hand (a dealer's bids that leave the total short)."""
        return [r.bid for r in self.rows if r.p_dead >= 1.0 - 1e-12]

    @property
    def tied(self) -> list[int]:
        """The bids whose objective value (EV, or P(win)) equals the recommended one's exactly (for
        example 10-13 made surely, or two bids whose sampled EVs happen to be equal), whatever
        their standard errors."""
        best = self.row(self.recommended)
        if self.objective == "win":
            return [r.bid for r in self.rows if abs(r.p_win - best.p_win) <= 1e-9]
        return [r.bid for r in self.rows if abs(r.ev - best.ev) <= 1e-9]

    note: str | None = None
    #: The catalogue keys of ``note`` and ``warning`` (:class:`analyzer.core.messages.Said`).
    said: dict = field(default_factory=dict)
    earlier_hearts: list[float | None] = field(default_factory=list)
    #: Why the objective is what it is (the default depends on the scores).
    objective_note: str | None = None
    #: Covariance of the objective's estimates (bids in ``rows`` order): differences between
    #: bids are far more precise than each bid's own figure (common random numbers).
    covariance: np.ndarray | None = field(default=None, repr=False)

    def difference(self, a: int, b: int) -> tuple[float, float]:
        """(objective of bid ``a`` minus that of bid ``b``, its standard error): expected points,
        or P(win the match) under ``objective="win"``."""
        ia = next(i for i, r in enumerate(self.rows) if r.bid == a)
        ib = next(i for i, r in enumerate(self.rows) if r.bid == b)
        value = (lambda r: r.p_win) if self.objective == "win" else (lambda r: r.ev)
        c = self.covariance
        se = math.sqrt(max(c[ia, ia] + c[ib, ib] - 2 * c[ia, ib], 0.0))
        return float(value(self.rows[ia]) - value(self.rows[ib])), se

    @property
    def margin_name(self) -> str:
        """What ``margin`` measures: expected points (``ev_margin``) or P(win) (``p_win_margin``)."""
        return "p_win_margin" if self.objective == "win" else "ev_margin"

    def row(self, bid: int) -> BidRow:
        for r in self.rows:
            if r.bid == bid:
                return r
        raise KeyError(bid)

    def to_dict(self) -> dict:
        return {
            "hand": self.hand,
            "seat": self.seat,
            "scores": list(self.scores),
            "earlier_bids": list(self.bids),
            "variant": self.variant,
            "model": self.model,
            "policy": self.policy,
            "objective": self.objective,
            "objective_note": self.objective_note,
            "samples": self.samples,
            "effective_samples": round(self.effective_samples, 1),
            "seed": self.seed,
            "infer": self.infer,
            "tricks": [round(p, 6) for p in self.tricks],
            "tricks_se": [round(p, 6) for p in self.tricks_se],
            "tricks_mean": round(self.tricks_mean, 4),
            "tricks_mean_se": round(self.tricks_mean_se, 4),
            "tricks_for_bid": self.tricks_bid,
            "bids": [
                {
                    "bid": r.bid,
                    "value": r.value,
                    "p_make": None if r.p_make is None else round(r.p_make, 6),
                    "p_make_se": None if r.p_make_se is None else round(r.p_make_se, 6),
                    "ev": round(r.ev, 4),
                    "ev_se": round(r.ev_se, 4),
                    "p_dead": round(r.p_dead, 6),
                    "p_dead_se": round(r.p_dead_se, 6),
                    "p_win": None if r.p_win is None else round(r.p_win, 6),
                    "p_win_se": None if r.p_win_se is None else round(r.p_win_se, 6),
                    "p_best": round(r.p_best, 4),
                    "later_bids_mean": [None if m is None else round(m, 3) for m in r.later_bids_mean],
                }
                for r in self.rows
            ],
            "recommended": self.recommended,
            "p_best": round(self.p_best, 4),
            "runner_up": self.runner_up,
            f"{self.margin_name}": round(self.margin, 6),
            f"{self.margin_name}_se": round(self.margin_se, 6),
            "precision_target_met": self.target_met,
            "earlier_hearts_mean": [None if h is None else round(h, 3) for h in self.earlier_hearts],
            "note": self.note,
            "killing_bids": self.killing_bids,
            "tied_bids": self.tied if len(self.tied) > 1 else [],
            "bid_points": bid_points(self),
            "reasons": bid_reasons(self),
            "warning": self.warning,
            "said": self.said,
            "elapsed_s": round(self.elapsed_s, 3),
            "compile_s": round(self.compile_s, 3),
        }

    def dataframe(self):
        """The bid table as a pandas DataFrame (one row per legal bid)."""
        import pandas as pd

        frame = pd.DataFrame(
            [
                {
                    "bid": r.bid,
                    "value": r.value,
                    "p_make": r.p_make,
                    "p_make_se": r.p_make_se,
                    "ev": r.ev,
                    "ev_se": r.ev_se,
                    "p_dead": r.p_dead,
                    "p_win": r.p_win,
                    "p_win_se": r.p_win_se,
                    "p_best": r.p_best,
                }
                for r in self.rows
            ]
        )
        return frame.set_index("bid")


# ---------------------------------------------------------------------------------------------
# Input checks


def check_bid_inputs(hand, seat, scores, bids, variant, model="rollout", samples=None):
    """Check a bid query; returns (hand, scores, bids, variant), converted."""
    h = as_hand(hand)
    if isinstance(seat, bool) or seat not in (1, 2, 3, 4):
        raise T400Error(f"seat {seat!r}: expected 1..4 (1 bids first and leads, 4 deals)")
    scores = tuple(scores)
    if len(scores) != 4 or any(isinstance(s, bool) or not isinstance(s, (int, np.integer)) for s in scores):
        raise T400Error(f"scores {list(scores)}: expected 4 whole numbers, seat 1 first")
    check_scores(scores)
    bids = tuple(bids)
    if len(bids) != seat - 1:
        raise T400Error(
            f"{len(bids)} earlier bids given for seat {seat}: seat {seat} bids after {seat - 1} "
            f"other{'s' if seat != 2 else ''}"
        )
    v = as_variant(variant)
    check_bids(v, [int(s) for s in scores], list(bids))
    if model not in MODELS:
        raise T400Error(f"unknown model {model!r} (expected {', '.join(MODELS)})")
    if samples is not None and (isinstance(samples, bool) or not isinstance(samples, int) or samples < 1):
        raise T400Error(f"samples {samples!r}: expected a whole number of at least 1")
    if samples is not None and samples > MAX_SAMPLES[model]:
        raise T400Error(
            f"samples {samples:,}: more than a day's work for the {model} model on this kind of machine "
            f"(at most {MAX_SAMPLES[model]:,})"
        )
    return h, tuple(int(s) for s in scores), tuple(int(b) for b in bids), v


OBJECTIVES = ("win", "points")


#: Simulated rests of the match per sampled hand and bid, at most.
MAX_CONTINUATIONS = 10_000


def check_continuations(continuations) -> int:
    """``continuations`` checked: a whole number from 0 to :data:`MAX_CONTINUATIONS`."""
    ok = isinstance(continuations, (int, np.integer)) and not isinstance(continuations, bool)
    if not ok or not 0 <= continuations <= MAX_CONTINUATIONS:
        raise T400Error(
            f"continuations {continuations!r}: expected a whole number from 0 to {MAX_CONTINUATIONS:,}"
        )
    return int(continuations)


def choose_objective(
    objective, variant: Variant, scores, model: str, equity_table=None, continuations: int = 0
) -> tuple[str, str]:
    """(the objective, a note saying why): ``None`` means ``win`` when any score is non-zero and
    the variant has a match-equity table (or ``continuations`` are asked for), else ``points``."""
    from analyzer.games.t400.equity import shipped_path, table_for

    if objective is not None and objective not in OBJECTIVES:
        raise T400Error(f"unknown objective {objective!r} (expected win or points)")
    if continuations and objective == "points":
        raise T400Error("continuations give P(win the match): they need objective win, not points")
    has_table = equity_table is not None or shipped_path(variant) is not None
    if (
        objective == "win"
        or continuations
        or (objective is None and any(scores) and has_table and model == "rollout")
    ):
        if model != "rollout":
            raise T400Error(
                f"objective win needs the rollout model (the {model} model knows only the player's tricks)"
            )
        why = "asked for" if objective == "win" or continuations else "the default when any score is non-zero"
        if continuations:
            rests = f"{continuations:,} simulated rest{'s' if continuations > 1 else ''} of the match per deal and bid"
            return "win", f"win: P(the partnership wins the match) after this hand, from {rests} ({why})"
        table_for(variant, equity_table)  # an error now if there is none
        return (
            "win",
            f"win: P(the partnership wins the match) after this hand, by the match-equity table ({why})",
        )
    if objective == "points":
        return "points", "points: expected points in this hand (asked for)"
    if not any(scores):
        return (
            "points",
            "points: expected points in this hand (the default at 0-0-0-0; --objective win for P(win))",
        )
    if model != "rollout":
        return "points", f"points: expected points in this hand (the {model} model cannot give P(win))"
    return "points", f"points: expected points in this hand (no match-equity table for '{variant.label}')"


def candidate_bids(variant: Variant, seat: int, scores: Sequence[int]) -> list[int]:
    """Every legal bid of the player: from their minimum to 13 (a dealer's include the bids
    that leave the total short and kill the hand)."""
    return list(range(variant.min_bid(scores[seat - 1]), MAX_BID + 1))


# ---------------------------------------------------------------------------------------------
# Estimates from the merged weighted sums


@dataclass
class _Totals:
    acc: np.ndarray  # [m, R_SIZE]
    cross: np.ndarray  # [2, m, m]: score changes, match equities
    hearts: np.ndarray  # [4]
    later: np.ndarray  # [m, 4, 14]
    deals: int

    @classmethod
    def empty(cls, m: int) -> _Totals:
        return cls(np.zeros((m, kr.R_SIZE)), np.zeros((2, m, m)), np.zeros(4), np.zeros((m, 4, 14)), 0)

    def add(self, acc, cross, hearts, later, deals):
        """Merge chunk results, chunk by chunk in order (float sums depend on the order)."""
        for c in range(acc.shape[0]):
            self.acc += acc[c]
            self.cross += cross[c]
            self.hearts += hearts[c]
            self.later += later[c]
        self.deals += deals


def _estimates(t: _Totals, candidates, variant, own_score, seat, seed, objective):
    """The bid rows and the objective's values per bid (expected points, or P(win the match))
    with their covariance."""
    a = t.acc
    m = len(candidates)
    w = a[:, kr.R_W]
    w2 = a[:, kr.R_W2]
    rows = []
    evs = np.zeros(m)
    wins = np.zeros(m)
    for j, bid in enumerate(candidates):
        ev, ev_se = ratio_se(w[j], w2[j], a[j, kr.R_SCORE], a[j, kr.R_SCORE + 1], a[j, kr.R_SCORE + 2])
        if objective == "win":
            p_win, p_win_se = ratio_se(w[j], w2[j], a[j, kr.R_WIN], a[j, kr.R_WIN + 1], a[j, kr.R_WIN + 2])
            wins[j] = p_win
        else:
            p_win = p_win_se = None
        dead_w, dead_w2 = a[j, kr.R_DEAD], a[j, kr.R_DEAD + 1]
        p_dead, p_dead_se = ratio_se(w[j], w2[j], dead_w, dead_w2, dead_w2)
        alive_w = w[j] - dead_w
        alive_w2 = w2[j] - dead_w2
        if alive_w > 1e-12 * max(w[j], 1e-300):
            mk_w, mk_w2 = a[j, kr.R_MAKE], a[j, kr.R_MAKE + 1]
            p_make, p_make_se = ratio_se(alive_w, alive_w2, mk_w, mk_w2, mk_w2)
            hist = a[j, kr.R_TRICKS : kr.R_TRICKS + 14]
            tricks = [float(x) for x in hist / hist.sum()]
        else:
            p_make = p_make_se = None
            tricks = [float("nan")] * 14
        later_w = t.later[j]
        later = []
        for s in range(4):
            total = later_w[s].sum()
            later.append(
                float((later_w[s] * np.arange(14)).sum() / total) if total > 0 and s >= seat else None
            )
        evs[j] = ev
        rows.append(
            BidRow(
                bid=bid,
                value=variant.bid_value(bid, own_score),
                p_make=p_make,
                p_make_se=p_make_se,
                ev=ev,
                ev_se=ev_se,
                p_dead=p_dead,
                p_dead_se=p_dead_se,
                p_best=0.0,
                tricks=tricks,
                later_bids_mean=later,
                p_win=p_win,
                p_win_se=p_win_se,
            )
        )
    values = wins if objective == "win" else evs
    cov = _covariance(t, values, 1 if objective == "win" else 0)
    p_best = probability_best(values, cov, seed)
    for r, p in zip(rows, p_best):
        r.p_best = float(p)
    return rows, values, cov


def _covariance(t: _Totals, mu: np.ndarray, which: int) -> np.ndarray:
    """Covariance of the estimates of the score changes (``which`` 0) or the match equities (1):
    they share deals, so they are strongly correlated."""
    a = t.acc
    sw = a[0, kr.R_W]
    sw2 = a[0, kr.R_W2]
    swx = a[:, (kr.R_SCORE, kr.R_WIN)[which] + 1]  # sum w^2 x
    cross = t.cross[which] - np.outer(mu, swx) - np.outer(swx, mu) + np.outer(mu, mu) * sw2
    return cross / (sw * sw)


# ---------------------------------------------------------------------------------------------
# The analysis


def recommend_bid(
    hand: Hand | str,
    seat: int = 1,
    scores: Sequence[int] = (0, 0, 0, 0),
    bids: Sequence[int] = (),
    variant: Variant | str | None = "dananeer",
    model: str = "rollout",
    policy: str = "standard",
    samples: int | None = None,
    seed: int = 0,
    threads: int | None = None,
    infer: bool = True,
    target_se: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    bidder_model: str | None = None,
    objective: str | None = None,
    equity_table: str | None = None,
    continuations: int = 0,
) -> BidAnalysis:
    """Trick distribution, expected value and (with ``objective="win"``) P(win the match) of
    every legal bid for ``hand`` in ``seat``; the recommendation maximises the objective.

    ``objective``: ``"points"`` (expected points in this hand) or ``"win"`` (the partnership's
    P(win the match) after the hand, by the variant's match-equity table or the one at
    ``equity_table``); by default ``"win"`` when any score is non-zero and a table exists, else
    ``"points"`` (``objective_note`` says which and why). ``continuations`` > 0: P(win) from that
    many simulated rests of the match after each sampled hand (the same rests for every bid)
    instead of the table: no table needed, slower, and exact up to its standard error.

    Without ``samples``, the rollout samples until every P(make) has a standard error of at most
    ``target_se`` (default ``config.get().advice_target_se``); ``dd`` and ``solo-dd`` solve a fixed
    number of deals (``config.get().advice_dd_deals``, ``advice_solo_dd_deals``). ``bidder_model``: a model file of
    ``t400 fit-bidder`` for the EV bidder (default: the shipped model).

    >>> a = recommend_bid("-.AKQJT98765432.-.-", samples=512)
    >>> a.recommended, a.row(13).p_make, a.row(a.recommended).value
    (10, 1.0, 40)
    """
    check_seed(seed)
    h, scores, bids, v = check_bid_inputs(hand, seat, scores, bids, variant, model, samples)
    continuations = check_continuations(continuations)
    objective, objective_note = choose_objective(objective, v, scores, model, equity_table, continuations)
    lineup = lineup_array("ev", policy)
    bot = bot_array(v, bidder_model, equity_table)
    candidates = candidate_bids(v, seat, scores)
    infer = bool(infer) and seat > 1
    target_se = config.get().advice_target_se if target_se is None else target_se
    query = _Query(h, seat, scores, bids, v, lineup, bot, candidates, seed, infer, continuations)
    compile_s = _compile(query, model)
    start = time.perf_counter()
    said = Said()
    if model in DD_NOTES:
        totals, target_met = _run_dd(query, model, samples, threads, target_se, progress)
        note = said("note", DD_NOTES[model])
    else:
        totals, target_met = _run_rollout(query, samples, threads, target_se, progress)
        note = None
    own = scores[seat - 1]
    rows, evs, cov = _estimates(totals, candidates, v, own, seat, seed, objective)
    best = int(np.argmax(evs + 1e-9 * np.arange(len(evs))[::-1]))  # ties to the lower bid
    order = np.argsort(-evs, kind="stable")
    runner = (
        int(order[1]) if len(order) > 1 and order[0] == best else (int(order[0]) if len(order) > 1 else None)
    )
    if runner is not None:
        margin = float(evs[best] - evs[runner])
        margin_se = float(math.sqrt(max(cov[best, best] + cov[runner, runner] - 2 * cov[best, runner], 0.0)))
    else:
        margin = margin_se = 0.0
    rec = rows[best]
    # The trick distribution shown is the recommended bid's; when that bid always kills the hand,
    # it is the one of the least bid that plays most often (a real distribution with its own SE).
    shown = best
    if rec.p_make is None:
        alive = [j for j, r in enumerate(rows) if r.p_make is not None]
        shown = min(alive, key=lambda j: (rows[j].p_dead, rows[j].bid)) if alive else best
    tricks = rows[shown].tricks if rows[shown].p_make is not None else _pooled_tricks(totals)
    a = totals.acc[shown]
    alive_w = a[kr.R_W] - a[kr.R_DEAD]
    alive_w2 = a[kr.R_W2] - a[kr.R_DEAD + 1]
    ess_alive = alive_w * alive_w / alive_w2 if alive_w2 > 0 else 0.0
    t = np.array(tricks)
    mean = float(np.nansum(t * np.arange(14)))
    var = float(np.nansum(t * (np.arange(14) - mean) ** 2))
    tricks_se = [math.sqrt(max(p * (1 - p), 0.0) / ess_alive) if ess_alive > 0 else float("nan") for p in t]
    w_total = totals.acc[0, kr.R_W]
    w2_total = totals.acc[0, kr.R_W2]
    hearts = [float(totals.hearts[s] / w_total) if s < seat - 1 else None for s in range(4)]
    return BidAnalysis(
        hand=h.to_dot(),
        seat=seat,
        scores=scores,
        bids=bids,
        variant=v.label,
        model=model,
        policy=policy if isinstance(policy, str) else "/".join(policy),
        objective=objective,
        objective_note=objective_note,
        covariance=cov,
        samples=totals.deals,
        seed=seed,
        infer=infer,
        effective_samples=float(w_total * w_total / w2_total) if w2_total > 0 else 0.0,
        rows=rows,
        recommended=rec.bid,
        p_best=rec.p_best,
        margin=margin,
        margin_se=margin_se,
        runner_up=rows[runner].bid if runner is not None else None,
        tricks=[float(x) for x in tricks],
        tricks_se=tricks_se,
        tricks_mean=mean,
        tricks_mean_se=math.sqrt(var / ess_alive) if ess_alive > 0 else float("nan"),
        target_met=target_met,
        elapsed_s=time.perf_counter() - start,
        compile_s=compile_s,
        tricks_bid=rows[shown].bid,
        warning=_precision_warning(totals, w_total, w2_total, model, said),
        said=said.keys,
        note=note,
        earlier_hearts=hearts,
    )


#: Below these, figures are shown with a warning instead of a confident recommendation (the
#: double-dummy models solve each deal exactly, about a thousand times slower than a rollout).
MIN_DEALS = {"rollout": 200, "dd": 32, "solo-dd": 200}
MIN_EFFECTIVE = 50


def _precision_warning(t: _Totals, w_total: float, w2_total: float, model: str, said: Said) -> str | None:
    ess = w_total * w_total / w2_total if w2_total > 0 else 0.0
    least = MIN_DEALS[model]
    if t.deals < least:
        return said("warning", "warn.few_deals", deals=f"{t.deals:,}", more=f"{least * 10:,}")
    # only when the earlier bids weighed the deals unevenly (with even weights the effective
    # sample is the sample, which MIN_DEALS judges): the warning names the earlier bids
    if ess < MIN_EFFECTIVE and ess < t.deals * (1 - 1e-9):
        return said("warning", "warn.low_ess", ess=f"{ess:.0f}")
    return None


def _pooled_tricks(t: _Totals) -> list[float]:
    hist = t.acc[:, kr.R_TRICKS : kr.R_TRICKS + 14].sum(axis=0)
    return list(hist / hist.sum()) if hist.sum() > 0 else [float("nan")] * 14


def _max_p_make_se(t: _Totals) -> float:
    worst = 0.0
    a = t.acc
    for j in range(a.shape[0]):
        alive_w = a[j, kr.R_W] - a[j, kr.R_DEAD]
        alive_w2 = a[j, kr.R_W2] - a[j, kr.R_DEAD + 1]
        if alive_w <= 0:
            continue
        _, se = ratio_se(alive_w, alive_w2, a[j, kr.R_MAKE], a[j, kr.R_MAKE + 1], a[j, kr.R_MAKE + 1])
        worst = max(worst, se)
    return worst


def _compile(q: _Query, model: str) -> float:
    """Compile (or load) the query's kernels on a throw-away deal; seconds taken. Results are
    not affected: every chunk has its own random stream."""
    start = time.perf_counter()
    args = q.kernel_args()
    if model in DD_NOTES:
        helper = None
        if model == "dd":
            from analyzer.core.runtime import compile_aside
            from kernels.core import bids_dd

            # the sampling kernels compile here; the other core compiles the search meanwhile
            helper = compile_aside(bids_dd.solve_bids_made, "analyzer.core.solve:warm_made_on_best_lines")
        rules, _, _, _, _, seat, scores, _, candidates, _, _ = args
        hands, weights, later = kr.deal_and_bid(q.seed, 0, 1, 1, *args)
        m = len(candidates)
        kr.score_solved(rules, hands, weights, later, np.zeros(1, dtype=np.int64), np.zeros((1, m), dtype=np.bool_),
                        seat, scores, candidates, 1, 1)  # fmt: skip
        if model == "dd":
            from analyzer.core.solve import warm_made_on_best_lines

            kr.hands_to_solve(rules, weights, later, scores)
            if helper is not None:
                helper.wait()  # its search is on disk: loaded, not compiled a second time here
            warm_made_on_best_lines()
        else:
            from analyzer.core.solve import solve

            solve("AKQ.-.-.- 432.-.-.- JT9.-.-.- 876.-.-.-", trump="none", mode="solo")
    else:
        kr.rollout(q.seed, 0, 1, 1, *args, q.continuations or None, np.zeros(1, dtype=np.uint8))
    return time.perf_counter() - start


@dataclass(frozen=True)
class _Query:
    """A checked bid query, as the kernels take it."""

    hand: Hand
    seat: int
    scores: tuple[int, ...]
    bids: tuple[int, ...]
    variant: Variant
    lineup: np.ndarray
    bot: np.ndarray
    candidates: list[int]
    seed: int
    infer: bool
    continuations: int = 0

    def kernel_args(self) -> tuple:
        """(rules, lineup, kit, bot, hand, seat, scores, earlier bids, candidates, infer, tau)."""
        return (
            self.variant.kernel_rules(), self.lineup, lineup_kit(self.lineup), self.bot, np.uint64(self.hand.bits), self.seat - 1,
            np.array(self.scores, dtype=np.int64), np.array(self.bids if self.bids else [0], dtype=np.int64),
            np.array(self.candidates, dtype=np.int64), self.infer, INFER_TAU,
        )  # fmt: skip


def _run_rollout(q: _Query, samples, threads, target_se, progress):
    cfg = config.get()
    args = q.kernel_args()
    totals = _Totals.empty(len(q.candidates))

    def run(first, n_chunks, chunk):
        if stop() or kernel_stopped():
            raise Interrupted("interrupted")
        # no continuations: None, a specialisation without the match simulator (compiled on its own)
        out = interruptible(
            kr.rollout, q.seed, first, n_chunks, chunk, *args, q.continuations or None, KERNEL_STOP
        )
        if stop() or kernel_stopped():  # the kernel may have ended early: its sums are partial
            raise Interrupted("interrupted")
        totals.add(*out, deals=n_chunks * chunk)

    with threads_used(threads), deferred_interrupt() as stop:
        if samples is not None:
            chunk = min(cfg.advice_chunk, samples)
            n_chunks = math.ceil(samples / chunk)
            done = 0
            # with continuations a chunk takes long: a thread's worth of chunks a call, so that
            # progress shows (the sums are merged chunk by chunk: the same whatever the step)
            batch = cfg.advice_batch_chunks if not q.continuations else numba.get_num_threads()
            while done < n_chunks:
                step = min(batch, n_chunks - done)
                run(done, step, chunk)
                done += step
                if progress:
                    progress(done, n_chunks)
            return totals, _max_p_make_se(totals) <= target_se
        cap = cfg.advice_max_deals // cfg.advice_chunk
        done = 0
        while done < cap:
            run(done, cfg.advice_batch_chunks, cfg.advice_chunk)
            done += cfg.advice_batch_chunks
            worst = _max_p_make_se(totals)
            if progress:
                # progress towards the precision target (the SE falls as 1/sqrt(deals))
                needed = done * (worst / target_se) ** 2 if worst > 0 else done
                progress(done, int(min(cap, max(done, needed))))
            if worst <= target_se:
                return totals, True
        return totals, False


def _run_dd(q: _Query, model: str, samples, threads, target_se, progress):
    """Deal and bid as the rollout does, then solve: the player's result on each deal and
    candidate bid from ``model`` (:data:`DD_NOTES`). Batch by batch (memory stays flat in the
    number of deals), in small blocks of solves: Ctrl-C is seen within about a second."""
    cfg = config.get()
    n = (
        samples
        if samples is not None
        else (cfg.advice_dd_deals if model == "dd" else cfg.advice_solo_dd_deals)
    )
    chunk = min(cfg.advice_chunk, n)
    n_chunks = math.ceil(n / chunk)
    args = q.kernel_args()
    rules, _, _, _, _, seat, scores, _, candidates, _, _ = args
    totals = _Totals.empty(len(q.candidates))
    results = _bids_dd_results if model == "dd" else _solo_dd_results
    with threads_used(threads), deferred_interrupt() as stop:
        for first in range(0, n_chunks, cfg.advice_batch_chunks):
            count = min(cfg.advice_batch_chunks, n_chunks - first)
            hands, weights, later = kr.deal_and_bid(q.seed, first, count, chunk, *args)

            def done(fraction: float, first=first, count=count) -> None:
                if progress:
                    progress(first * chunk + int(fraction * count * chunk), n_chunks * chunk)
                if stop():
                    raise Interrupted("interrupted")

            tricks, made = results(q, rules, hands, weights, later, scores, threads, done)
            out = kr.score_solved(
                rules, hands, weights, later, tricks, made, seat, scores, candidates, count, chunk
            )
            totals.add(*out, deals=count * chunk)
    return totals, _max_p_make_se(totals) <= target_se


def _solo_dd_results(q: _Query, rules, hands, weights, later, scores, threads, done):
    """(tricks int64[n], made bool[n, m]): the player's solo double-dummy tricks, for every bid."""
    from analyzer.core.runtime import check_threads
    from analyzer.core.solve import solve_blocks

    live = np.flatnonzero(weights > 0)
    tricks = np.zeros(len(weights), dtype=np.int64)
    workers = min(check_threads(threads), max(1, len(live)))
    for start, block in solve_blocks(
        np.ascontiguousarray(hands[live]), "hearts", 1, "solo", q.seat, threads, 2 * workers
    ):
        tricks[live[start : start + len(block)]] = block
        done((start + len(block)) / max(len(live), 1))
    return tricks, tricks[:, None] >= np.asarray(q.candidates)[None, :]


def _bids_dd_results(q: _Query, rules, hands, weights, later, scores, threads, done):
    """(tricks int64[n], made bool[n, m]): whether the player makes each candidate bid on a line
    of best play of 400 double dummy with the bids (the later seats' bids are the bots', for that
    candidate; dead hands are not solved); the "tricks" of a deal are the highest bid the player
    makes on it (one below the lowest candidate if none)."""
    from analyzer.core.solve import made_on_best_lines

    deals, cands, values = kr.hands_to_solve(rules, weights, later, scores)
    made = np.zeros((len(weights), len(q.candidates)), dtype=np.bool_)
    made[deals, cands] = made_on_best_lines(
        np.ascontiguousarray(hands[deals]), np.ascontiguousarray(later[deals, cands]), values, q.seat,
        "hearts", 1, threads, lambda finished, total: done(finished / max(total, 1)),
    )  # fmt: skip
    candidates = np.asarray(q.candidates)
    tricks = np.where(made, candidates[None, :], candidates[0] - 1).max(axis=1)
    return tricks.astype(np.int64), made
