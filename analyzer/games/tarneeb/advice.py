"""What should I call in a Tarneeb auction? ``recommend_call``.

For a hand in a seat after the calls so far, sampled deals of the other three hands (weighed by
how likely the bots were to make the calls they made) give the team's trick distribution in every
strain the variant allows (the hand's seat declaring and leading), and, for every legal call now,
the auction finished by the bots and the final contract's result: the probability that the call
ends as the contract, P(make) if it does, and the expected points for the team (its points minus
the other team's), each with its standard error.

Two models of the tricks: ``rollout`` plays every contract out with a card policy (``team`` by
default); ``dd`` solves it double dummy (all four see all cards; the declarer's team against the
defenders, the solver exact against DDS), on the same deals, weights and auctions as the rollout
with the same seed.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from analyzer import config
from analyzer.core.errors import Interrupted, T400Error
from analyzer.core.messages import Said
from analyzer.core.notation import Hand, parse_hand
from analyzer.core.policies import compile_play_aside, policies_kit, policy_id
from analyzer.core.reasons import call_reasons
from analyzer.core.runtime import (
    COMPILE_CLOCK,
    check_seed,
    check_threads,
    chunks_for,
    deferred_interrupt,
    interruptible,
    over_chunks,
    threads_used,
)
from analyzer.core.solve import solve_team_tasks, solver_space
from analyzer.core.stats import RatioMoments, probability_best
from analyzer.core.strains import Strain
from analyzer.games.tarneeb.auction import Auction, Call
from analyzer.games.tarneeb.bidders import load_model
from analyzer.games.tarneeb.equity import check_scores, equity_table
from analyzer.games.tarneeb.rules import TRICKS, TarneebVariant, as_tarneeb_variant, net_points
from kernels.core.cards import FULL_DECK
from kernels.tarneeb import advice as ka
from kernels.tarneeb import hand as kh

#: The strains in the kernels' order (trump index 0..4).
STRAINS = (Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS, Strain.NO_TRUMP)
MODELS = ("rollout", "dd")
#: dd: 128 deals take about 25 s warm on 2 threads (about 5 deals a second: each deal needs
#: five or more full-deal solves) and give P(make) within about ±4 points (one SE).
DEFAULT_SAMPLES = {"rollout": 8192, "dd": 128}
MAX_SAMPLES = {"rollout": 10_000_000, "dd": 100_000}
OBJECTIVES = ("points", "win")
#: The note on what each model's tricks are (its catalogue key).
MODEL_NOTES = {"rollout": "note.tarneeb_rollout", "dd": "note.tarneeb_dd"}


@dataclass(frozen=True)
class CallRow:
    """One legal call and what it leads to, for the team of the seat making it."""

    call: str
    p_ends: float  # the auction ends with this call as the contract (a bid; 0 for pass/double)
    p_ends_se: float
    p_make: float  # made, when it ends as the contract
    p_make_se: float
    ev: float  # the team's points minus the other team's, expected
    ev_se: float
    p_declare: float  # the team declares the final contract
    trump: str | None  # the strain the team would name as declarer at this level (None: pass, double)
    p_win: float | None = None  # P(the team wins the match; a draw half), objective win only
    p_win_se: float | None = None


@dataclass
class CallAnalysis:
    """What :func:`recommend_call` returns."""

    hand: str
    seat: int
    auction: list[str]
    variant: str
    samples: int
    effective_samples: float
    model: str
    seed: int
    scores: tuple[int, int]  # team totals before the hand, seats 1+3 first
    objective: str  # points or win
    strains: dict[str, list[float]]  # strain letter -> P(team tricks = k), k = 0..13
    strain_means: dict[str, tuple[float, float]]  # strain letter -> (mean, SE)
    rows: list[CallRow]
    recommended: str
    trump: str | None
    p_best: float
    objective_note: str = ""
    p_win_now: float | None = None  # the team's match equity before the hand (objective win)
    elapsed_s: float = 0.0  # not counting compile_s
    notes: list[str] = field(default_factory=list)
    #: The catalogue keys of ``notes`` (``"notes.0"``...; :class:`analyzer.core.messages.Said`).
    said: dict = field(default_factory=dict)
    compile_s: float = 0.0  # compiling the kernels (a first run only)
    #: Covariance of the objective's estimates (calls in ``rows`` order): differences between
    #: calls are far more precise than each call's own figure (the same deals).
    covariance: np.ndarray | None = field(default=None, repr=False)

    def difference(self, a: str, b: str) -> tuple[float, float]:
        """(objective of call ``a`` minus that of call ``b``, its standard error): expected points,
        or P(win the match) under ``objective="win"``."""
        ia, ib = (self.rows.index(self.row(c)) for c in (a, b))
        value = (lambda r: r.p_win) if self.objective == "win" else (lambda r: r.ev)
        c = np.atleast_2d(self.covariance)
        se = math.sqrt(max(c[ia, ia] + c[ib, ib] - 2 * c[ia, ib], 0.0))
        return float(value(self.rows[ia]) - value(self.rows[ib])), se

    def row(self, call: str) -> CallRow:
        key = str(Call.parse(call))
        for r in self.rows:
            if r.call == key:
                return r
        raise T400Error(
            f"call {call!r} is not one of the legal calls ({', '.join(r.call for r in self.rows)})"
        )

    def to_dict(self) -> dict:
        return {
            "game": "tarneeb",
            "hand": self.hand,
            "seat": self.seat,
            "auction": self.auction,
            "variant": self.variant,
            "model": self.model,
            "scores": list(self.scores),
            "objective": self.objective,
            "objective_note": self.objective_note,
            "p_win_now": self.p_win_now,
            "samples": self.samples,
            "effective_samples": self.effective_samples,
            "seed": self.seed,
            "strains": {
                k: {"tricks": v, "mean": self.strain_means[k][0], "mean_se": self.strain_means[k][1]}
                for k, v in self.strains.items()
            },  # fmt: skip
            "calls": [r.__dict__ for r in self.rows],
            "recommended": self.recommended,
            "trump": self.trump,
            "p_best": self.p_best,
            "elapsed_s": self.elapsed_s,
            "compile_s": self.compile_s,
            "notes": self.notes,
            "said": self.said,
            "reasons": call_reasons(self),
        }


def check_call_inputs(
    hand, seat: int, auction: Sequence[str], variant
) -> tuple[Hand, TarneebVariant, Auction]:
    """Verify the question before sampling: a 13-card hand, a seat, an auction whose next call is
    ``seat``'s. Errors name the problem."""
    v = as_tarneeb_variant(variant)
    h = hand if isinstance(hand, Hand) else parse_hand(hand)
    if isinstance(seat, bool) or seat not in (1, 2, 3, 4):
        raise T400Error(f"seat {seat!r}: expected 1..4 (1 speaks first, 4 deals)")
    a = Auction(v)
    for n, call in enumerate(auction, start=1):
        try:
            a.call(call)
        except T400Error as exc:
            raise T400Error(f"--auction call {n} ({call}): {exc}") from None
    if a.over:
        raise T400Error(
            f"the auction {','.join(str(c) for c in a.calls)} is already over: no call is left to make"
        )
    if a.seat != seat:
        raise T400Error(f"after the calls given it is seat {a.seat}'s turn, not seat {seat}'s")
    return h, v, a


def recommend_call(
    hand: Hand | str,
    seat: int = 1,
    auction: Sequence[str] = (),
    variant: TarneebVariant | str | None = None,
    samples: int | None = None,
    seed: int = 0,
    threads: int | None = None,
    infer: bool = True,
    policy: str = "team",
    model: str = "rollout",
    scores: Sequence[int] = (0, 0),
    objective: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> CallAnalysis:
    """Every legal call for ``hand`` in ``seat`` after ``auction`` (calls from seat 1, as
    ``t400 bid --game tarneeb --auction`` writes them), valued with the EV bots finishing the
    auction and the tricks by ``model`` (``rollout`` or ``dd``; samples default
    :data:`DEFAULT_SAMPLES`). ``scores``: the team totals before the hand (seats 1+3 first);
    ``objective`` ``win`` ranks the calls by P(win the match) from the match-equity table
    (:mod:`analyzer.games.tarneeb.equity`), ``points`` by expected points; default win when a
    score is not zero. ``tests/test_tarneeb_advice.py``: 13 spades bid 13 and name spades,
    P(make) 1.
    """
    start = time.perf_counter()
    compiled = COMPILE_CLOCK.seconds()
    check_seed(seed)
    h, v, a = check_call_inputs(hand, seat, auction, variant)
    if model not in MODELS:
        raise T400Error(f"unknown model {model!r} (expected {' or '.join(MODELS)})")
    if len(scores) != 2:
        raise T400Error(f"scores: expected two team totals, seats 1+3 first (got {len(scores)})")
    totals = check_scores(v, tuple(scores))
    objective, objective_note = _choose_objective(objective, totals)
    samples = DEFAULT_SAMPLES[model] if samples is None else samples
    top = MAX_SAMPLES[model]
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= top:
        raise T400Error(f"samples {samples!r}: expected a whole number from 1 to {top:,} (model {model})")
    check_threads(threads)
    legal = a.legal_calls()
    allowed = [s for s in STRAINS if s in v.strains()]
    chunk = min(config.get().advice_chunk, samples) if model == "dd" else config.get().advice_chunk
    n_chunks = chunks_for(samples, chunk)
    args = (
        v.kernel_rules(), np.uint64(h.bits), seat - 1, np.array([c.code for c in a.calls], dtype=np.int64),
        np.array([c.code for c in legal], dtype=np.int64), np.full(4, kh.EV, dtype=np.int64),
    )  # fmt: skip
    table = equity_table(v) if objective == "win" else None
    odd = seat in (1, 3)
    sums = _CallSums(len(legal), allowed, table, totals, odd)
    with threads_used(threads), deferred_interrupt() as stop:
        if model == "dd":
            sums.add(*_double_dummy(seed, n_chunks, chunk, args, bool(infer), v.trump_lead, allowed, threads,
                                    progress, stop))  # fmt: skip
        else:
            policies = np.full(4, policy_id(policy), dtype=np.int64)
            bidders = load_model().array
            helper = compile_play_aside(policies_kit(policies))
            if helper is not None:  # a first run: the play on the other core, the bidding here
                _compile_bidding(args, bidders, bool(infer))
                helper.wait()
            # blocks of a fixed number of chunks: memory stays flat, progress shows, Ctrl-C and the
            # server's cap are seen between blocks, and the sums do not depend on the threads
            for first in range(0, n_chunks, BLOCK_CHUNKS):
                count = min(BLOCK_CHUNKS, n_chunks - first)
                # beside a main thread that handles Ctrl-C (the first call compiles for a minute)
                sums.add(*interruptible(over_chunks, ka.call_rollout, seed, first, count, chunk, *args, policies,
                                        policies_kit(policies), bidders, bool(infer)))  # fmt: skip
                if progress:
                    progress(first + count, n_chunks)
                if stop():
                    raise Interrupted("interrupted")
    n = sums.n
    strains, means = {}, {}
    dist = {}
    for i, s in enumerate(allowed):
        p = sums.dist[i] / sums.w
        dist[s] = p
        strains[s.letter] = [float(x) for x in p]
        means[s.letter] = sums.strain.estimate(i)
    rows, evs = [], []
    for k, call in enumerate(legal):
        ev, ev_se = sums.ev.estimate(k)
        p_win = p_win_se = None
        if table is not None:
            p_win, p_win_se = sums.win.estimate(k)
        p_ends, p_ends_se = sums.ends.estimate(k)
        p_make, p_make_se = sums.made.estimate(k)
        p_declare = float(sums.declare[k] / sums.w)
        trump = None
        if call.kind == "bid":
            trump = call.strain.letter if call.strain is not None else _best_trump(v, dist, call.level).letter
        rows.append(
            CallRow(
                str(call), p_ends, p_ends_se, p_make, p_make_se, ev, ev_se, p_declare, trump, p_win, p_win_se
            )
        )
        evs.append(ev if table is None else p_win)
    best = int(np.argmax(evs))
    cov = (sums.ev if table is None else sums.win).covariance()
    p_best = float(probability_best(np.array(evs), np.atleast_2d(cov), seed)[best]) if n > 1 else math.nan
    said = Said()
    notes = [said("notes.0", MODEL_NOTES[model], **({"policy": policy} if model == "rollout" else {}))]
    if n != samples:
        notes.append(said(f"notes.{len(notes)}", "note.blocks", n=f"{n:,}", asked=f"{samples:,}", chunk=chunk))
    ess = float(sums.w**2 / sums.w2)
    if infer and a.calls and ess < 0.2 * n:
        notes.append(said(f"notes.{len(notes)}", "note.unlikely_calls", ess=f"{ess:,.0f}", n=f"{n:,}"))
    compile_s = COMPILE_CLOCK.seconds() - compiled
    return CallAnalysis(
        hand=h.to_dot(), seat=seat, auction=[str(c) for c in a.calls], variant=v.label, samples=n,
        effective_samples=ess, model=model, seed=seed, scores=totals, objective=objective,
        objective_note=objective_note, strains=strains, strain_means=means, rows=rows,
        recommended=rows[best].call, trump=rows[best].trump, p_best=p_best,
        p_win_now=None if table is None else _team_equity(table, totals, odd), notes=notes, said=said.keys,
        elapsed_s=time.perf_counter() - start - compile_s, compile_s=compile_s, covariance=np.atleast_2d(cov),
    )  # fmt: skip


#: Chunks of the rollout sampled by one kernel call (see :func:`recommend_call`).
BLOCK_CHUNKS = 16


class _CallSums:
    """What :func:`recommend_call` keeps of its samples, block by block: weighted trick counts per
    strain and, per legal call, the ratio sums of its points, P(win), P(ends), P(make) (with the
    covariance the probability of being best needs) and how often the team declares."""

    def __init__(self, calls: int, allowed, table, totals, odd: bool):
        self.strain_index = [int(s) for s in allowed]
        self.table, self.totals, self.odd = table, totals, odd
        self.n, self.w, self.w2 = 0, 0.0, 0.0
        self.dist = np.zeros((len(allowed), TRICKS + 1))
        self.strain = RatioMoments(len(allowed))
        self.ev, self.win, self.ends, self.made = (RatioMoments(calls) for _ in range(4))
        self.declare = np.zeros(calls)

    def add(self, w: np.ndarray, strain_tricks: np.ndarray, outcomes: np.ndarray) -> None:
        self.n += len(w)
        self.w += float(w.sum())
        self.w2 += float((w * w).sum())
        t = strain_tricks[:, self.strain_index].T
        for i in range(len(t)):
            self.dist[i] += np.bincount(t[i], weights=w, minlength=TRICKS + 1)
        self.strain.add(w * t, w)
        o = outcomes.transpose(1, 2, 0)  # [call, column, sample]
        self.ev.add(w * o[:, ka.C_SCORE], w)
        ends = w * o[:, ka.C_ENDS]
        self.ends.add(ends, w)
        self.made.add(w * o[:, ka.C_MADE], ends)
        self.declare += (w * o[:, ka.C_DECLARE]).sum(1)
        if self.table is not None:
            ours, theirs = o[:, ka.C_OURS].astype(np.int64), o[:, ka.C_THEIRS].astype(np.int64)
            eq = self.table.after_hand(
                self.totals[0] + (ours if self.odd else theirs),
                self.totals[1] + (theirs if self.odd else ours),
                o[:, ka.C_PLAYED] == 1,
            )
            self.win.add(w * (eq if self.odd else 1.0 - eq), w)


def _choose_objective(objective: str | None, totals: tuple[int, int]) -> tuple[str, str]:
    """(the objective, a note saying what it is and why)."""
    if objective is not None and objective not in OBJECTIVES:
        raise T400Error(f"unknown objective {objective!r} (expected win or points)")
    if objective is None:
        objective = "win" if any(totals) else "points"
        why = "the default when a score is not zero" if objective == "win" else "the default at 0-0"
    else:
        why = "as asked"
    if objective == "win":
        return objective, (
            f"P(win the match) from {totals[0]}-{totals[1]} ({why}): the match-equity table of the bots' "
            "hands (a draw counts half)"
        )
    return objective, f"expected points: the team's points minus the other team's in this hand ({why})"


def _team_equity(table, totals: tuple[int, int], odd: bool) -> float:
    first = table.before_hand(*totals)
    return first if odd else 1.0 - first


def _compile_bidding(args, model, infer: bool) -> None:
    """Compile what :func:`kernels.tarneeb.advice.call_rollout` links in besides the card play
    (the dealing, the bots' calls and trump), with its argument types, while a helper compiles
    the play; its own sampling helpers are inlined in it."""
    from kernels.core.deal import deal_around, pool_of
    from kernels.core.rng import stream
    from kernels.tarneeb import hand as kh
    from kernels.tarneeb import rules as kr

    rules, hand, seat, calls, candidates, bidders = args
    hands = np.empty(4, dtype=np.uint64)
    counts = np.full(4, 13, dtype=np.int64)
    counts[seat] = 0
    deal_around(stream(0, 0), pool_of(FULL_DECK & ~hand), counts, hand, seat, hands)
    auction = np.empty(kr.ST_SIZE, dtype=np.int64)
    kr.auction_start(auction)
    kh.bot_call(bidders[0], rules, auction, hands[0], model)
    kh.bot_trump(bidders[0], rules, hands[0], np.int64(kr.bid_code(7, 0)), model)  # a contract of 7


def _double_dummy(seed, n_chunks, chunk, args, infer, trump_lead, allowed, threads, progress, stop):
    """The ``dd`` model: the rollout's deals, weights and auctions; every contract that matters
    (the known seat declaring each allowed strain, and each candidate's final contract) solved
    once per deal, in small blocks so that progress shows and Ctrl-C is seen within a second or
    two. Returns what :func:`kernels.tarneeb.advice.call_rollout` returns."""
    rules, _, seat, _, candidates, _ = args
    hands, weights, contracts = interruptible(ka.call_contracts, seed, 0, n_chunks, chunk, *args,
                                              load_model().array, infer)  # fmt: skip
    n = len(weights)
    need = np.zeros((n, 5, 4), dtype=bool)
    need[:, [int(s) for s in allowed], seat] = True
    played = contracts[:, :, ka.K_PLAYED] == 1
    rows, cols = np.nonzero(played)
    need[rows, contracts[rows, cols, ka.K_TRUMP], contracts[rows, cols, ka.K_DECLARER]] = True
    tasks = np.ascontiguousarray(np.argwhere(need).astype(np.int64))
    workers = min(check_threads(threads), max(1, len(tasks)))
    workspaces, tables = solver_space(workers)
    solved = np.full((n, 5, 4), -1, dtype=np.int64)
    block = 4 * workers
    for first in range(0, len(tasks), block):
        part = tasks[first : first + block]
        solved[part[:, 0], part[:, 1], part[:, 2]] = interruptible(
            solve_team_tasks, hands, part, bool(trump_lead), workspaces, tables
        )
        if progress:
            progress(first + len(part), len(tasks))
        if stop():
            raise Interrupted("interrupted")
    outcomes = ka.score_contracts(rules, seat, candidates, contracts, solved)
    return weights, solved[:, :, seat], outcomes


def _best_trump(v: TarneebVariant, dist: dict, level: int) -> Strain:
    """The strain whose trick distribution is worth most declaring ``level`` (ties: S H D C NT)."""

    def value(s: Strain) -> float:
        p = dist[s]
        return sum(p[k] * net_points(v, level, k) for k in range(TRICKS + 1))

    return max(dist, key=lambda s: (value(s), -STRAINS.index(s)))


__all__ = ["recommend_call", "CallAnalysis", "CallRow", "check_call_inputs"]
