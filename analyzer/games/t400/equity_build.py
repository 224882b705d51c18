"""Match equity by simulation: P(a partnership wins) on demand from any state
(:func:`simulate_equity`, with its standard error), and the builder of the precomputed tables
of :mod:`analyzer.games.t400.equity` (value iteration over one hand, see that module) with its checks
(:func:`table_accuracy`, :func:`bid_differences`). It plays matches with the bots, so it sits
above the bidders and the match simulator that read the tables."""

from __future__ import annotations

import datetime
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from analyzer import config
from analyzer.core.errors import Interrupted, T400Error
from analyzer.core.policies import numbers_fingerprint, play_fingerprint
from analyzer.core.runtime import check_seed, deferred_interrupt, interruptible, threads_used
from analyzer.games.t400.bidder import bidder_id, bot_array, load_model
from analyzer.games.t400.equity import EquityTable, _regime, axis_tables, equity_grid, table_for
from analyzer.games.t400.matches import DEFAULT_CAP, simulate_rounds
from analyzer.games.t400.rules import Variant, as_variant, check_scores
from analyzer.games.t400.simulate import lineup_array
from analyzer.version import __version__
from kernels.core.kit import Kit
from kernels.t400 import bidder as kb
from kernels.t400 import equity as ke
from kernels.t400 import match as km
from kernels.t400 import rollout as kr
from kernels.t400.lineup import lineup_kit

#: Hands sampled per regime combination, and the value-iteration stopping rule.
BUILD_HANDS = 40_000
BUILD_TOLERANCE = 1e-5
BUILD_MAX_SWEEPS = 400
#: The bots the table assumes for every player.
TABLE_BIDDER = "ev"
TABLE_POLICY = "standard"


def build_table(
    variant=None,
    hands: int | None = None,
    seed: int = 0,
    threads: int | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> EquityTable:
    """Build ``variant``'s table with ``ev``/``standard`` bots on every seat (see the module
    docstring); ``hands`` per regime combination (default :data:`BUILD_HANDS`)."""
    check_seed(seed)
    v = as_variant(variant)
    n = BUILD_HANDS if hands is None else int(hands)
    if n < 1:
        raise T400Error(f"hands {hands!r}: expected a positive whole number")
    start = time.perf_counter()
    rules = v.kernel_rules()
    grid = equity_grid(v)
    g = len(grid)
    regimes = sorted({_regime(rules, int(s)) for s in grid})
    rep = {r: int(next(s for s in grid if _regime(rules, int(s)) == r)) for r in regimes}
    combos = [(a, b, c, d) for a in regimes for b in regimes for c in regimes for d in regimes]
    n_reg = len(regimes)
    of_grid = np.array([regimes.index(_regime(rules, int(s))) for s in grid], dtype=np.int64)
    lineup = lineup_array(TABLE_BIDDER, TABLE_POLICY)
    bot = bot_array(v)
    chunk = config.get().sim_chunk
    n_chunks = math.ceil(n / chunk)
    offsets = [0]
    deltas, probs = [], []
    win13 = np.zeros(len(combos))
    live = np.zeros(len(combos))
    with threads_used(threads), deferred_interrupt() as stop:
        for i, combo in enumerate(combos):
            scores = np.array([rep[r] for r in combo], dtype=np.int64)
            kind, d = kr.hand_outcomes(seed, i * n_chunks, n_chunks, chunk, rules, lineup, lineup_kit(lineup), bot,
                                       scores)  # fmt: skip
            total = len(kind)
            played = kind == ke.O_LIVE
            rows, counts = np.unique(d[played], axis=0, return_counts=True)
            deltas.append(rows)
            probs.append(counts / total)
            offsets.append(offsets[-1] + len(rows))
            win13[i] = np.count_nonzero(kind == ke.O_WIN13) / total
            live[i] = np.count_nonzero(kind != ke.O_DEAD) / total
            if progress:
                progress("hands", i + 1, len(combos))
            if stop():
                raise KeyboardInterrupt
        states = np.stack(np.meshgrid(grid, grid, grid, grid, indexing="ij"), axis=-1).reshape(-1, 4)
        r = of_grid[np.stack(np.meshgrid(*[np.arange(g)] * 4, indexing="ij"), axis=-1).reshape(-1, 4)]
        regime = ((r[:, 0] * n_reg + r[:, 1]) * n_reg + r[:, 2]) * n_reg + r[:, 3]
        args = (states, regime, np.array(offsets, dtype=np.int64), np.concatenate(deltas).astype(np.int64),
                np.concatenate(probs), win13, live)  # fmt: skip
        cell, weight = axis_tables(grid)
        table = np.concatenate([[g], grid, np.full(g**4, 0.5), cell, weight]).astype(np.float64)
        values = table[1 + g : 1 + g + g**4]  # a view: sweeps update the table in place
        out = np.empty(g**4)
        change = 1.0
        sweeps = 0
        while change > BUILD_TOLERANCE and sweeps < BUILD_MAX_SWEEPS:
            ke.sweep(rules, table, *args, out)
            change = float(np.max(np.abs(out - values)))
            values[:] = out
            sweeps += 1
            if progress:
                progress("sweeps", sweeps, BUILD_MAX_SWEEPS)
            if stop():
                raise KeyboardInterrupt
    if change > BUILD_TOLERANCE:
        raise T400Error(
            f"the match-equity iteration did not settle in {sweeps} sweeps (last change {change:.2e})"
        )
    meta = {
        "command": f"t400 equity --build --variant {v.name} --hands {n} --seed {seed}",
        "version": __version__,
        "made": datetime.date.today().isoformat(),
        "variant": v.switches,
        "label": v.label,
        "bots": f"{TABLE_BIDDER}/{TABLE_POLICY}",
        "hands_per_regime": n,
        "regime_combinations": len(combos),
        "outcomes": int(offsets[-1]),
        "seed": seed,
        "sweeps": sweeps,
        "last_change": change,
        "grid": [int(x) for x in grid],
        "seconds": round(time.perf_counter() - start, 1),
        **data_fingerprints(),
    }
    return EquityTable(table, meta)


def data_fingerprints() -> dict:
    """What a table depends on besides its command: the card play and the bidder model's numbers."""
    return {
        "play_fingerprint": play_fingerprint(),
        "bidder_model_sha256": numbers_fingerprint(load_model().array),
    }


# ---------------------------------------------------------------------------------------------
# On demand


@dataclass(frozen=True)
class Equity:
    """P(seats 1+3 win) from a state, simulated: the estimate, its SE and the matches run."""

    p: float
    se: float
    matches: int
    unfinished: int

    def to_dict(self) -> dict:
        return {"p_win": round(self.p, 6), "p_win_se": round(self.se, 6), "matches": self.matches,
                "unfinished": self.unfinished}  # fmt: skip


def simulate_equity(
    scores: Sequence[int],
    dealer: int = 4,
    variant=None,
    continuations: int = 20_000,
    seed: int = 0,
    threads: int | None = None,
    bidder: str = TABLE_BIDDER,
    policy: str = TABLE_POLICY,
) -> Equity:
    """P(seats 1+3 win) before a hand dealt by ``dealer`` (seat 1..4) with ``scores`` in seat
    order, from ``continuations`` simulated rests of the match (a match stopped at the hand cap
    counts half)."""
    check_seed(seed)
    scores = check_scores(scores)
    if dealer not in (1, 2, 3, 4):
        raise T400Error(f"dealer {dealer!r}: expected a seat 1..4")
    if isinstance(continuations, bool) or not isinstance(continuations, int) or continuations < 1:
        raise T400Error(f"continuations {continuations!r}: expected a positive whole number")
    v = as_variant(variant)
    # players = seats of this hand; the kernel's dealer is a player index 0..3
    won, drawn = _continue(v, np.array(scores, dtype=np.int64), dealer - 1, continuations, seed, threads,
                           bidder, policy)  # fmt: skip
    n = continuations
    p = (won + 0.5 * drawn) / n
    # the sample SD of x in {1, 0.5, 0} (a match stopped at the cap counts half), from its counts
    se = math.sqrt(max(won + 0.25 * drawn - n * p * p, 0.0) / (n - 1) / n) if n > 1 else float("nan")
    return Equity(float(p), se, n, int(drawn))


def _continue(v: Variant, scores, dealer_index, n, seed, threads, bidder, policy) -> tuple[int, int]:
    """(rests won by seats 1+3, rests stopped at the cap) of ``n`` simulated rests, run in blocks
    of chunks (memory stays flat; Ctrl-C is seen between blocks; match ``i`` draws from its own
    stream, so the counts do not depend on the blocks)."""

    lineup = lineup_array(bidder, policy)
    chunk = config.get().match_kernel_chunk
    block = 256 * chunk
    won = drawn = 0
    with threads_used(threads), deferred_interrupt() as stop:
        for first in range(0, n, block):
            rows = interruptible(km.continue_matches, seed, first, min(block, n - first), chunk, v.kernel_rules(),
                                 lineup, lineup_kit(lineup), bot_array(v), DEFAULT_CAP, scores, dealer_index)  # fmt: skip
            winner = rows[:, km.M_WINNER]
            won += int(np.count_nonzero(winner == 0))
            drawn += int(np.count_nonzero(winner < 0))
            if stop():
                raise Interrupted("interrupted")
    return won, drawn


# ---------------------------------------------------------------------------------------------
# Where the match score changes the bid


def bid_differences(variant=None, matches: int = 2000, seed: int = 0, threads: int | None = None):
    """Every bidding decision of ``matches`` simulated matches (four ``ev``/``standard`` bots),
    asked again of the ``win`` bidder with the same hand, scores and earlier bids.

    A DataFrame, one row per decision: ``match``, ``round``, ``seat`` (1..4), ``own``,
    ``partner`` (scores), ``opp_high`` (the opponents' higher score), ``earlier`` (sum of the
    earlier bids), ``hand`` (bitboard), ``ev_bid``, ``win_bid``, and the round's four scores
    (``score1``..``score4``) and earlier bids (``bids``, a tuple).
    """
    import pandas as pd

    v = as_variant(variant)
    table_for(v)
    rounds = simulate_rounds(v, matches=matches, seed=seed, threads=threads)
    hands = np.ascontiguousarray(rounds[[f"cards{s}" for s in range(1, 5)]].to_numpy(dtype=np.uint64))
    scores = np.ascontiguousarray(rounds[[f"score_before{s}" for s in range(1, 5)]].to_numpy(dtype=np.int64))
    bids = np.ascontiguousarray(rounds[[f"bid{s}" for s in range(1, 5)]].to_numpy(dtype=np.int64))
    bot = bot_array(v)
    rules = v.kernel_rules()
    ev = kb.bids_in_records(rules, bidder_id("ev"), Kit(bidder=bidder_id("ev")), bot, hands, scores, bids)
    win = kb.bids_in_records(rules, bidder_id("win"), Kit(bidder=bidder_id("win")), bot, hands, scores, bids)
    rows = []
    for s in range(4):
        rows.append(pd.DataFrame({
            "match": rounds["match"], "round": rounds["round"], "seat": s + 1,
            "own": scores[:, s], "partner": scores[:, (s + 2) % 4],
            "opp_high": np.maximum(scores[:, (s + 1) % 4], scores[:, (s + 3) % 4]),
            "earlier": bids[:, :s].sum(axis=1), "hand": hands[:, s], "ev_bid": ev[:, s], "win_bid": win[:, s],
            **{f"score{k + 1}": scores[:, k] for k in range(4)},
            "bids": [tuple(int(b) for b in row[:s]) for row in bids],
        }))  # fmt: skip
    return pd.concat(rows, ignore_index=True)


def table_accuracy(variant=None, states: int = 50, continuations: int = 20_000, seed: int = 7,
                   threads: int | None = None, progress=None, matches: int = 2000):  # fmt: skip
    """The table against fresh simulations: ``states`` score states drawn at random from the rounds
    of ``matches`` simulated matches (the states players meet, seat 4 dealing), each simulated
    ``continuations`` times. A DataFrame: ``score1..score4``, ``table``, ``simulated``, ``se``,
    ``diff`` (table - simulated)."""
    import pandas as pd

    v = as_variant(variant)
    table = table_for(v)
    rounds = simulate_rounds(v, matches=matches, seed=seed, threads=threads)
    picks = np.random.default_rng(seed).choice(len(rounds), size=states, replace=False)
    rows = []
    for i, k in enumerate(picks):
        scores = [int(rounds.iloc[int(k)][f"score_before{s}"]) for s in range(1, 5)]
        p = table.equity(scores, dealer=4)
        sim = simulate_equity(scores, 4, v, continuations, seed=seed * 1000 + i, threads=threads)
        rows.append({**{f"score{s + 1}": scores[s] for s in range(4)}, "table": p, "simulated": sim.p,
                     "se": sim.se, "diff": p - sim.p})  # fmt: skip
        if progress:
            progress(i + 1, states)
    return pd.DataFrame(rows)


def accuracy_summary(df) -> dict:
    """Mean and largest absolute difference (percentage points) of :func:`table_accuracy`, and the
    mean absolute difference the simulations' own noise alone would give."""
    return {
        "states": len(df),
        "mean_abs_diff_pp": 100 * float(df["diff"].abs().mean()),
        "mean_diff_pp": 100 * float(df["diff"].mean()),
        "max_abs_diff_pp": 100 * float(df["diff"].abs().max()),
        "noise_mean_abs_pp": 100 * float(df["se"].mean() * math.sqrt(2 / math.pi)),
    }
