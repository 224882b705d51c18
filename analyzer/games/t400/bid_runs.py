"""How the bid analysis samples: the query as the kernels take it, the rollout and the double-dummy
runs (in fixed blocks of chunks, so that the answer for a seed does not depend on the threads), their
merged sums and what those sums say about precision."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numba
import numpy as np

from analyzer import config
from analyzer.core.errors import Interrupted
from analyzer.core.messages import Said
from analyzer.core.notation import Hand
from analyzer.core.policies import compile_play_aside
from analyzer.core.runtime import (
    KERNEL_STOP,
    deferred_interrupt,
    interruptible,
    kernel_stopped,
    over_chunks,
    threads_used,
)
from analyzer.core.stats import ratio_se
from analyzer.games.t400.bidder import INFER_TAU
from analyzer.games.t400.rules import Variant
from kernels.t400 import rollout as kr
from kernels.t400.lineup import lineup_kit

#: The models whose answer carries a note (its catalogue key): what the figures mean.
DD_NOTES = {"dd": "note.dd", "solo-dd": "note.solo_dd"}


@dataclass
class Totals:
    acc: np.ndarray  # [m, R_SIZE]
    cross: np.ndarray  # [2, m, m]: score changes, match equities
    hearts: np.ndarray  # [4]
    later: np.ndarray  # [m, 4, 14]
    deals: int

    @classmethod
    def empty(cls, m: int) -> Totals:
        return cls(np.zeros((m, kr.R_SIZE)), np.zeros((2, m, m)), np.zeros(4), np.zeros((m, 4, 14)), 0)

    def add(self, acc, cross, hearts, later, deals):
        """Merge chunk results, chunk by chunk in order (float sums depend on the order)."""
        for c in range(acc.shape[0]):
            self.acc += acc[c]
            self.cross += cross[c]
            self.hearts += hearts[c]
            self.later += later[c]
        self.deals += deals


#: Below these, figures are shown with a warning instead of a confident recommendation (the
#: double-dummy models solve each deal exactly, about a thousand times slower than a rollout).
MIN_DEALS = {"rollout": 200, "dd": 32, "solo-dd": 200}
MIN_EFFECTIVE = 50


def precision_warning(t: Totals, w_total: float, w2_total: float, model: str, said: Said) -> str | None:
    ess = w_total * w_total / w2_total if w2_total > 0 else 0.0
    least = MIN_DEALS[model]
    if t.deals < least:
        return said("warning", "warn.few_deals", deals=f"{t.deals:,}", more=f"{least * 10:,}")
    # only when the earlier bids weighed the deals unevenly (with even weights the effective
    # sample is the sample, which MIN_DEALS judges): the warning names the earlier bids
    if ess < MIN_EFFECTIVE and ess < t.deals * (1 - 1e-9):
        return said("warning", "warn.low_ess", ess=f"{ess:.0f}")
    return None


def pooled_tricks(t: Totals) -> list[float]:
    hist = t.acc[:, kr.R_TRICKS : kr.R_TRICKS + 14].sum(axis=0)
    return list(hist / hist.sum()) if hist.sum() > 0 else [float("nan")] * 14


def max_p_make_se(t: Totals) -> float:
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


def compile_query(q: Query, model: str) -> float:
    """Compile (or load) the query's kernels on a throw-away deal; seconds taken. Results are
    not affected: every chunk has its own random stream."""
    start = time.perf_counter()
    args = q.kernel_args()
    if model in DD_NOTES:
        helper = None
        if model == "dd":
            from analyzer.core.solve import compile_search_aside
            from kernels.core import bids_dd

            # the sampling kernels compile here; the other core compiles the search's parts
            helper = compile_search_aside(bids_dd.solve_bids_made, "bids")
        rules, _, _, _, _, seat, scores, _, candidates, _, _ = args
        hands, weights, later = kr.deal_and_bid(q.seed, 0, 1, 1, *args)
        m = len(candidates)
        kr.score_solved(rules, hands, weights, later, np.zeros(1, dtype=np.int64), np.zeros((1, m), dtype=np.bool_),
                        seat, scores, candidates, 1, 1)  # fmt: skip
        if model == "dd":
            from analyzer.core.bids_made import warm_made_on_best_lines

            kr.hands_to_solve(rules, weights, later, scores)
            if helper is not None:
                helper.wait()  # the search's parts are on disk: its loop compiles here
            warm_made_on_best_lines()
        else:
            from analyzer.core.solve import solve

            solve("AKQ.-.-.- 432.-.-.- JT9.-.-.- 876.-.-.-", trump="none", mode="solo")
    else:
        helper = compile_play_aside(args[2])
        if helper is not None:
            _compile_bidding(q, args)
            helper.wait()  # the card play is on disk: the rollout loads it, compiling only itself
        kr.rollout(q.seed, 0, 1, 1, *args, q.continuations or None, np.zeros(1, dtype=np.uint8))
    return time.perf_counter() - start


#: The argument types the rollout gives :func:`kernels.t400.rollout.side_equity` (a test holds
#: them to the rollout's).
SIDE_EQUITY_TYPES = (numba.types.int64[::1], numba.types.float64[::1], numba.types.int64, numba.types.boolean,
                     *[numba.types.int64[::1]] * 4)  # fmt: skip


def _compile_bidding(q: Query, args) -> None:
    """Compile the rollout's dealing and bidding (the functions it calls before the card play,
    with the rollout's own argument types) and the match equity it calls after the play, while
    the helper compiles the play."""
    from kernels.core.cards import FULL_DECK
    from kernels.core.deal import deal_around, pool_of
    from kernels.core.rng import stream
    from kernels.t400.hand import bids_by_bots
    from kernels.t400.lineup import BIDDERS

    rules, lineup, kit, bot, hand, seat, scores, earlier, candidates, infer, tau = args
    hands, bids = np.empty(4, dtype=np.uint64), np.empty(4, dtype=np.int64)
    counts = np.full(4, 13, dtype=np.int64)
    counts[seat] = 0
    deal_around(stream(q.seed, 0), pool_of(~hand & FULL_DECK), counts, hand, seat, hands)
    kr.weigh_earlier(rules, bot, hands, bids, seat, earlier, scores, infer, tau)
    bids_by_bots(rules, lineup[BIDDERS], kit.bid_part(), bot, hands, scores, bids, seat + 1,
                 int(earlier[:seat].sum()) + int(candidates[0]))  # fmt: skip
    # the match equity after a hand, which the rollout calls after the play: by its types, not a
    # call (the table may be empty)
    kr.side_equity.compile(SIDE_EQUITY_TYPES)


@dataclass(frozen=True)
class Query:
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


def run_rollout(q: Query, samples, threads, target_se, progress):
    cfg = config.get()
    args = q.kernel_args()
    totals = Totals.empty(len(q.candidates))

    def run(first, n_chunks, chunk):
        if stop() or kernel_stopped():
            raise Interrupted("interrupted")
        # no continuations: None, a specialisation without the match simulator (compiled on its own)
        out = interruptible(
            over_chunks, kr.rollout, q.seed, first, n_chunks, chunk, *args, q.continuations or None, KERNEL_STOP
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
            return totals, max_p_make_se(totals) <= target_se
        cap = cfg.advice_max_deals // cfg.advice_chunk
        done = 0
        while done < cap:
            run(done, cfg.advice_batch_chunks, cfg.advice_chunk)
            done += cfg.advice_batch_chunks
            worst = max_p_make_se(totals)
            if progress:
                # progress towards the precision target (the SE falls as 1/sqrt(deals))
                needed = done * (worst / target_se) ** 2 if worst > 0 else done
                progress(done, int(min(cap, max(done, needed))))
            if worst <= target_se:
                return totals, True
        return totals, False


def run_dd(q: Query, model: str, samples, threads, target_se, progress):
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
    totals = Totals.empty(len(q.candidates))
    results = _bids_dd_results if model == "dd" else _solo_dd_results
    with threads_used(threads), deferred_interrupt() as stop:
        for first in range(0, n_chunks, cfg.advice_batch_chunks):
            count = min(cfg.advice_batch_chunks, n_chunks - first)
            hands, weights, later = over_chunks(kr.deal_and_bid, q.seed, first, count, chunk, *args)

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
    return totals, max_p_make_se(totals) <= target_se


def _solo_dd_results(q: Query, rules, hands, weights, later, scores, threads, done):
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


def _bids_dd_results(q: Query, rules, hands, weights, later, scores, threads, done):
    """(tricks int64[n], made bool[n, m]): whether the player makes each candidate bid on a line
    of best play of 400 double dummy with the bids (the later seats' bids are the bots', for that
    candidate; dead hands are not solved); the "tricks" of a deal are the highest bid the player
    makes on it (one below the lowest candidate if none)."""
    from analyzer.core.bids_made import made_on_best_lines

    deals, cands, values = kr.hands_to_solve(rules, weights, later, scores)
    made = np.zeros((len(weights), len(q.candidates)), dtype=np.bool_)
    made[deals, cands] = made_on_best_lines(
        np.ascontiguousarray(hands[deals]), np.ascontiguousarray(later[deals, cands]), values, q.seat,
        "hearts", 1, threads, lambda finished, total: done(finished / max(total, 1)),
    )  # fmt: skip
    candidates = np.asarray(q.candidates)
    tricks = np.where(made, candidates[None, :], candidates[0] - 1).max(axis=1)
    return tricks.astype(np.int64), made
