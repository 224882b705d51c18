"""Match equity: P(a partnership wins the match) from the four scores and who deals.

Two forms, each with its precision:

* :func:`simulate_equity`, on demand: the rest of the match played out many times from the
  given state by the bots (the match kernel), with a standard error.
* :class:`EquityTable`, precomputed for fast use (the ``win`` bidder, ``t400 bid --objective
  win``): P(seats 1+3 win) before a hand dealt by seat 4, for scores in seat order on a grid,
  interpolated multilinearly between grid scores (layout in :mod:`kernels.t400.equity`). Any
  state is rotated so that its dealer is seat 4; P(seats 2+4 win) is one minus the table (a
  match stopped by no one is not modelled: it needs thousands of hands). It is built by value
  iteration over one hand: the hands are sampled once for every combination of the players'
  rule regimes (what their scores change: own minimum bid, value row, table minimum), since
  the bots' bids and so the hands' outcomes depend on the scores only through those; each
  state's value is the mean value after its regime's sampled hands. Shipped for the presets
  in ``analyzer/data/equity_<preset>.npz``; ``t400 equity --build`` regenerates them.
"""

from __future__ import annotations

import datetime
import functools
import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

import analyzer
from analyzer import config
from analyzer.core.datafile import NPZ_ERRORS
from analyzer.core.errors import Interrupted, T400Error
from analyzer.core.policies import numbers_fingerprint, play_fingerprint
from analyzer.core.runtime import check_seed, deferred_interrupt, interruptible, threads_used
from analyzer.games.t400.bidder import bot_array, load_model
from analyzer.games.t400.rules import PRESETS, SCORE_STEPS, Variant, as_variant, check_scores
from analyzer.games.t400.simulate import lineup_array
from kernels.core.kit import Kit
from kernels.t400 import equity as ke
from kernels.t400 import match as km
from kernels.t400 import rollout as kr
from kernels.t400 import rules as krules
from kernels.t400.lineup import lineup_kit

#: Scores below this are treated as this score (rare: a player this far down rarely matters).
LOW_CLAMP = -30
#: Grid step away from the rule thresholds.
GRID_STEP = 5
#: Hands sampled per regime combination, and the value-iteration stopping rule.
BUILD_HANDS = 40_000
BUILD_TOLERANCE = 1e-5
BUILD_MAX_SWEEPS = 400
#: The bots the table assumes for every player.
TABLE_BIDDER = "ev"
TABLE_POLICY = "standard"


def equity_grid(variant: Variant) -> np.ndarray:
    """The grid scores of ``variant``'s table (int64, increasing).

    Every score where a rule changes (0 and 1 for "the partner is above 0", each minimum/value
    threshold and one below it, the target and one below it); where the equity jumps, measured
    against simulations (-3 and -1: a small made bid lifts a partner above 0; 14, 8 and 6 to 2
    below the target: the least bid that reaches it changes there; 4 above it: a failed bid of
    4 keeps the player above the target); every :data:`GRID_STEP` points from -5 up to the
    target; and -10, :data:`LOW_CLAMP` and 19 above the target as ends (above the target a
    score only matters through the tie-break and the minimums)."""
    v = as_variant(variant)
    t = v.target
    high = t + 19
    points = {LOW_CLAMP, -10, -3, -1, high, t - 14, t - 8, t + 4}
    points.update(range(-5, t, GRID_STEP))
    points.update(range(t - 6, t - 1))
    for step in (*SCORE_STEPS, t, 1):
        points.update((step - 1, step))
    return np.array(sorted(p for p in points if LOW_CLAMP <= p <= high), dtype=np.int64)


def axis_tables(grid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(cell float64[span], weight float64[span]) for the whole scores ``grid[0]..grid[-1]``:
    the grid index below each score and the weight of the one above (part of the table)."""
    scores = np.arange(grid[0], grid[-1] + 1)
    cell = np.minimum(np.searchsorted(grid, scores, side="right") - 1, len(grid) - 2)
    weight = (scores - grid[cell]) / (grid[cell + 1] - grid[cell])
    return cell.astype(np.float64), weight.astype(np.float64)


def table_size(g: int, span: int) -> int:
    """Length of a table array with ``g`` grid scores spanning ``span`` whole scores."""
    return 1 + g + g**4 + 2 * span


def _regime(rules: np.ndarray, score: int) -> tuple[int, int]:
    return int(krules.score_step(rules, score)), int(krules.value_row(rules, score))


@dataclass(frozen=True, eq=False)
class EquityTable:
    """A match-equity table (kernel layout in :mod:`kernels.t400.equity`) and how it was made."""

    array: np.ndarray
    meta: dict

    @property
    def grid(self) -> np.ndarray:
        g = int(self.array[0])
        return self.array[1 : 1 + g].astype(np.int64)

    @property
    def values(self) -> np.ndarray:
        g = int(self.array[0])
        return self.array[1 + g : 1 + g + g**4].reshape(g, g, g, g)

    def equity(self, scores: Sequence[int], dealer: int = 4) -> float:
        """P(the partnership of seats 1+3 wins) before a hand dealt by ``dealer`` (seat 1..4)
        with ``scores`` in seat order (interpolated between grid scores)."""
        s = [int(x) for x in scores]
        shift = dealer % 4  # rotate so that the dealer is seat 4
        rotated = s[shift:] + s[:shift]
        p = float(ke.equity_at(self.array, *rotated))
        return p if shift % 2 == 0 else 1.0 - p

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, table=self.array, meta=json.dumps(self.meta))


def table_file(variant: Variant) -> str:
    return f"equity_{variant.name}.npz"


@functools.lru_cache(maxsize=8)
def _load(path: str, stamp: tuple[int, int]) -> EquityTable:
    try:
        with np.load(path) as data:
            array = np.ascontiguousarray(data["table"], dtype=np.float64)
            meta = json.loads(str(data["meta"]))
    except NPZ_ERRORS as exc:
        raise T400Error(f"{path}: not a match-equity table made by t400 equity --build ({exc})") from None
    g = int(array[0]) if array.size else 0
    if g < 2 or array.size < 1 + g or array.shape != (table_size(g, int(array[g] - array[1]) + 1),):
        raise T400Error(f"{path}: not a match-equity table of this version (run t400 equity --build)")
    if not np.isfinite(array).all():
        raise T400Error(f"{path}: the match-equity table holds numbers that are not finite (NaN or infinity)")
    return EquityTable(array, meta)


def load_table(path: str | Path) -> EquityTable:
    """The table in the file at ``path``."""
    path = str(path)
    try:
        st = Path(path).stat()
    except OSError:
        raise T400Error(f"no match-equity table at {path}") from None
    return _load(path, (st.st_mtime_ns, st.st_size))


def shipped_path(variant: Variant) -> str | None:
    """The shipped table's path for a preset (its switches unchanged), else ``None``."""
    v = as_variant(variant)
    if PRESETS.get(v.name) != v:
        return None
    return str(resources.files("analyzer.data") / table_file(v))


def table_for(variant, path: str | Path | None = None) -> EquityTable:
    """The table at ``path``, or the shipped one of ``variant``; an error if there is none or it
    was made for other rules."""
    v = as_variant(variant)
    if path is None:
        path = shipped_path(v)
        if path is None or not Path(path).is_file():
            raise T400Error(
                f"no shipped match-equity table for variant '{v.label}': make one with "
                f"`t400 equity --build --variant {v.name} [switches] --out FILE` and pass it with --equity-table FILE"
            )
    table = load_table(path)
    if table.meta.get("variant") != v.switches:
        raise T400Error(
            f"{path}: a match-equity table for other rules ({table.meta.get('label')}), not '{v.label}'"
        )
    return table


def shipped_table(variant) -> EquityTable | None:
    """The shipped table of a preset variant, or ``None`` (another variant, or not made yet)."""
    path = shipped_path(variant)
    if path is None or not Path(path).is_file():
        return None
    return load_table(path)


def require_table(variant, bidders: Sequence[str] = ("win",), path: str | Path | None = None) -> None:
    """An error when ``bidders`` include ``win`` and there is no match-equity table for it."""
    if "win" in [str(b).strip().lower() for b in bidders]:
        table_for(variant, path)


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
        "version": analyzer.__version__,
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
    from analyzer.games.t400.matches import DEFAULT_CAP

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

    from analyzer.games.t400.bidder import bidder_id
    from analyzer.games.t400.matches import simulate_rounds
    from kernels.t400 import bidder as kb

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

    from analyzer.games.t400.matches import simulate_rounds

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
