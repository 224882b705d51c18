"""What should I bid? Trick distributions and expected value per bid for one hand.

The 39 unseen cards are dealt at random, consistently with what the player knows. With the
``rollout`` model the players after the player bid with the bot bidder, a dead hand scores
nothing, and all four play the hand out with the chosen policy; with ``dd`` the same deals and
later bids are solved by the 400 double dummy with the bids (:mod:`analyzer.games.t400.bid_runs`),
and with ``solo-dd`` the player's tricks are the solo double-dummy result of each deal (perfect
defence by the other three: a pessimistic figure). Every legal bid of the player is evaluated on the same deals (common
random numbers), so differences between bids are far more precise than the bids' own figures.

Earlier bids are evidence about the earlier bidders' hands: each deal is weighted by the
probability that the bot bidder would have made those bids with the dealt hands (a softmax of
its expected values; self-normalised importance sampling; the effective sample size is
reported). ``infer=False`` turns that off.

Every estimate comes with a standard error. With the rollout model and without ``samples``,
sampling goes on in batches of whole chunks until every P(make) has a standard error of at most
``target_se`` (or a cap is reached); the batches are fixed, so the answer for a seed does not
depend on the thread count. The double-dummy models solve a fixed number of deals
(``advice_dd_deals`` and ``advice_solo_dd_deals`` of :mod:`analyzer.config` by default).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence

import numpy as np

from analyzer import config
from analyzer.core.errors import T400Error
from analyzer.core.messages import Said
from analyzer.core.notation import Hand, as_hand
from analyzer.core.runtime import (
    check_seed,
)
from analyzer.core.stats import probability_best, ratio_se
from analyzer.games.t400.analysis import BidAnalysis, BidRow
from analyzer.games.t400.bid_runs import (
    DD_NOTES,
    Query,
    Totals,
    compile_query,
    pooled_tricks,
    precision_warning,
    run_dd,
    run_rollout,
)
from analyzer.games.t400.bidder import bot_array
from analyzer.games.t400.rules import MAX_BID, Variant, as_variant, check_bids, check_scores
from analyzer.games.t400.simulate import lineup_array
from kernels.t400 import rollout as kr

MODELS = ("rollout", "dd", "solo-dd")
#: --samples above these would run for more than a day (rollout ~1e5 deals/s, dd ~2 deals/s,
#: solo-dd ~10 deals/s).
MAX_SAMPLES = {"rollout": 10**10, "dd": 10**5, "solo-dd": 10**6}




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




def _estimates(t: Totals, candidates, variant, own_score, seat, seed, objective):
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


def _covariance(t: Totals, mu: np.ndarray, which: int) -> np.ndarray:
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
    query = Query(h, seat, scores, bids, v, lineup, bot, candidates, seed, infer, continuations)
    compile_s = compile_query(query, model)
    start = time.perf_counter()
    said = Said()
    if model in DD_NOTES:
        totals, target_met = run_dd(query, model, samples, threads, target_se, progress)
        note = said("note", DD_NOTES[model])
    else:
        totals, target_met = run_rollout(query, samples, threads, target_se, progress)
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
    tricks = rows[shown].tricks if rows[shown].p_make is not None else pooled_tricks(totals)
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
        warning=precision_warning(totals, w_total, w2_total, model, said),
        said=said.keys,
        note=note,
        earlier_hearts=hearts,
    )
