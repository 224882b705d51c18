"""Whole-match simulation: runs in seeded blocks, locally or on Dask, with checkpoints.

A run is ``(seed, matches)`` under one :class:`Lineup` (variant, bidder and play policy per
player, hand cap). Match ``i`` draws its deals from the random stream ``(seed, i)``, so:

* a result depends only on the seed and the settings, never on threads, blocks or workers;
* two lineups run with the same seed see the same deals in the same seats (common random
  numbers): that is how ``t400 variants`` and ``t400 duel`` compare like with like.

Work is cut into blocks of :data:`BLOCK` matches: the unit of progress, of a Dask task and of a
checkpoint. :func:`simulate_matches` returns one row per match; :func:`summarize_matches` turns
rows into the figures ``t400 simulate`` prints, each with its standard error or interval.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analyzer import config
from analyzer.core.errors import T400Error
from analyzer.core.jobs import Checkpoint, Job, collect, run_jobs
from analyzer.core.policies import policy_id
from analyzer.core.runtime import check_seed, threads_used
from analyzer.core.seats import TEAM_LABELS
from analyzer.core.stats import Z95, ratio, wilson
from analyzer.games.t400.bidder import bidder_id, bot_array, load_model
from analyzer.games.t400.rules import MAX_BID, MIN_BID, MatchState, Variant, as_variant
from analyzer.games.t400.simulate import lineup_array
from kernels.t400 import match as km
from kernels.t400 import rules as kt

#: Rounds (dead hands included) after which an unfinished match is stopped.
DEFAULT_CAP = 200
MAX_CAP = 10_000
#: Matches in one run: about a day at ~1e5 matches/s, and the most whose rows fit in memory.
MAX_MATCHES = 10**9

TEAMS = TEAM_LABELS


# ---------------------------------------------------------------------------------------------
# Settings


@dataclass(frozen=True)
class Lineup:
    """Who plays: the variant, each player's bidder and play policy (players 1..4), the cap and
    the EV bidder's model file (``None``: the shipped model)."""

    variant: Variant = field(default_factory=lambda: as_variant("dananeer"))
    bidders: tuple[str, str, str, str] = ("ev",) * 4
    policies: tuple[str, str, str, str] = ("standard",) * 4
    cap: int = DEFAULT_CAP
    bidder_model: str | None = None

    @classmethod
    def make(cls, variant=None, bidder="ev", policy="standard", cap=DEFAULT_CAP, bidder_model=None) -> Lineup:
        v = as_variant(variant)
        bidders = tuple(_per_player(bidder, bidder_id, "bidder"))
        policies = tuple(_per_player(policy, policy_id, "policy"))
        if isinstance(cap, bool) or not isinstance(cap, (int, np.integer)) or not 1 <= cap <= MAX_CAP:
            raise T400Error(f"hand cap {cap!r}: expected a whole number from 1 to {MAX_CAP}")
        if bidder_model is not None:
            bidder_model = str(bidder_model)
            load_model(bidder_model)  # check it now, not on a worker
        return cls(v, bidders, policies, int(cap), bidder_model)

    def settings(self) -> dict:
        out = {
            "variant": self.variant.switches,
            "bidders": list(self.bidders),
            "policies": list(self.policies),
            "cap": self.cap,
        }
        if self.bidder_model is not None:
            out["bidder_model"] = self.bidder_model
        return out

    def kernel_args(self) -> tuple:
        """(rules, lineup, bot): what the match kernels take besides the run and the cap."""
        return (
            self.variant.kernel_rules(),
            lineup_array(list(self.bidders), list(self.policies)),
            bot_array(self.variant, self.bidder_model),
        )


def _per_player(value, convert, what: str) -> list[str]:
    if isinstance(value, str) or not isinstance(value, Sequence):
        value = [value] * 4
    if len(value) != 4:
        raise T400Error(f"{what}: expected one value or four (one per player), got {len(value)}")
    out = []
    for v in value:
        convert(v)
        out.append(str(v).strip().lower())
    return out


def check_matches(matches) -> int:
    if isinstance(matches, bool) or not isinstance(matches, (int, np.integer)) or matches < 1:
        raise T400Error(f"matches {matches!r}: expected a positive whole number")
    if matches > MAX_MATCHES:
        raise T400Error(
            f"matches {matches:,}: more than a day's work on this kind of machine (at most {MAX_MATCHES:,} a run)"
        )
    return int(matches)


def blocks_of(matches: int) -> list[tuple[int, int]]:
    """``(first match, count)`` of each block of a run of ``matches``."""
    block = config.get().match_block
    return [(first, min(block, matches - first)) for first in range(0, matches, block)]


# ---------------------------------------------------------------------------------------------
# One block: what a local loop or a Dask worker runs


def run_block(
    seed: int, first: int, count: int, lineup: Lineup, record: bool = False, threads: int | None = None
) -> dict:
    """Matches ``first .. first + count - 1``: ``{"rows": int32[count, M_SIZE]}`` and, with
    ``record``, ``"rounds"`` (int32[n, H_SIZE]) and ``"hands"`` (uint64[n, 4])."""
    args = lineup.kernel_args()
    chunk = config.get().match_kernel_chunk
    with threads_used(threads):
        rows = km.play_matches(seed, first, count, chunk, *args, lineup.cap)
        out = {"rows": rows}
        if record:
            rounds = rows[:, km.M_HANDS].astype(np.int64) + rows[:, km.M_DEAD]
            offsets = np.concatenate([[0], np.cumsum(rounds)]).astype(np.int64)
            out["rounds"], out["hands"] = km.record_matches(seed, first, offsets, chunk, *args, lineup.cap)
    return out


@dataclass(frozen=True)
class MatchBlock:
    """A block of matches of one lineup, as a job's task (picklable for Dask)."""

    seed: int
    first: int
    count: int
    lineup: Lineup
    record: bool = False

    def __call__(self, threads: int | None = None) -> dict:
        return run_block(self.seed, self.first, self.count, self.lineup, self.record, threads)


def match_jobs(prefix: str, lineup: Lineup, seed: int, matches: int, record: bool = False) -> list[Job]:
    """The jobs of a run of ``matches`` under ``lineup``, keyed ``{prefix}-{first match}``."""
    return [
        Job(f"{prefix}-{first}", MatchBlock(seed, first, count, lineup, record), count)
        for first, count in blocks_of(matches)
    ]


def rows_of(results: dict[str, dict], jobs: list[Job], what: str = "rows") -> np.ndarray | None:
    """The ``what`` arrays of ``jobs``' results, in job order."""
    return collect(results, [j.key for j in jobs], what)


@dataclass
class MatchRun:
    """What :func:`run_matches` returns: per lineup, ``{"rows": ...}`` (with ``record`` also
    ``"rounds"`` and ``"hands"``), and the checkpoint that kept the finished blocks."""

    results: list[dict]
    checkpoint: Checkpoint | None

    def done(self) -> None:
        """Drop the checkpoint once the caller has written its outputs."""
        if self.checkpoint is not None:
            self.checkpoint.remove()


def run_matches(
    lineups: Sequence[Lineup],
    matches: int,
    seed: int = 0,
    record: bool = False,
    threads: int | None = None,
    scheduler=None,
    keep: str | None = None,
    resume: bool = False,
    command: str = "matches",
    progress: Callable[[int, int], None] | None = None,
) -> MatchRun:
    """The same ``matches`` (seed ``seed``) under each lineup, locally or on Dask.

    With ``keep`` (a path), finished blocks are kept in ``keep + ".parts"`` as they finish, so
    that Ctrl-C (:class:`analyzer.Interrupted`) loses nothing and ``resume=True`` with the same
    settings picks up where the run stopped.
    """
    check_seed(seed)
    n = check_matches(matches)
    jobs = [match_jobs(str(i), lu, seed, n, record) for i, lu in enumerate(lineups)]
    settings = {"command": command, "seed": seed, "matches": n, "record": record,
                "lineups": [lu.settings() for lu in lineups]}  # fmt: skip
    if resume and not keep:
        raise T400Error("resume needs a place to keep finished work (an output file)")
    checkpoint = Checkpoint(keep + ".parts", settings, resume) if keep else None
    results = run_jobs([j for js in jobs for j in js], threads, scheduler, checkpoint, progress)
    out = []
    for js in jobs:
        part = {"rows": rows_of(results, js)}
        if record:
            part["rounds"], part["hands"] = rows_of(results, js, "rounds"), rows_of(results, js, "hands")
        out.append(part)
    return MatchRun(out, checkpoint)


# ---------------------------------------------------------------------------------------------
# The Python API


def simulate_matches(
    variant: Variant | str | None = None,
    matches: int = 10_000,
    seed: int = 0,
    policy: str | Sequence[str] = "standard",
    bidder: str | Sequence[str] = "ev",
    cap: int = DEFAULT_CAP,
    threads: int | None = None,
    scheduler=None,
    progress: Callable[[int, int], None] | None = None,
    bidder_model: str | None = None,
) -> pd.DataFrame:
    """Complete matches played by four bots: one row per match.

    Columns: ``match``, ``winner`` ("1+3", "2+4", or "" when stopped at the cap),
    ``first_won`` (the partnership of players 1+3, who bid first in the first hand, won),
    ``end`` (how it ended), ``hands`` (played), ``dead``, ``score1..score4`` (final, by player),
    ``bids_k`` and ``made_k`` for k = 2..13 (bids of size k in played hands, and made).
    ``scheduler``: a Dask address, ``local:N`` or a ``dask.distributed.Client``;
    ``bidder_model``: a model file of ``t400 fit-bidder`` for the EV bidder (default: shipped).

    >>> df = simulate_matches("dananeer", matches=50, seed=1)
    >>> len(df), bool(df["winner"].isin(["1+3", "2+4", ""]).all())
    (50, True)
    """
    check_seed(seed)
    lineup = Lineup.make(variant, bidder, policy, cap, bidder_model)
    n = check_matches(matches)
    jobs = match_jobs("0", lineup, seed, n)
    results = run_jobs(jobs, threads, scheduler, None, progress)
    rows = rows_of(results, jobs)
    return match_frame(rows)


def match_frame(rows: np.ndarray, first: int = 0) -> pd.DataFrame:
    """Match rows from the kernel as a DataFrame (see :func:`simulate_matches`)."""
    winner = rows[:, km.M_WINNER]
    df = pd.DataFrame(
        {
            "match": np.arange(first, first + len(rows)),
            "winner": np.where(winner == 0, TEAMS[0], np.where(winner == 1, TEAMS[1], "")),
            "first_won": winner == 0,
            "end": pd.Categorical.from_codes(rows[:, km.M_REASON], kt.END_NAMES),
            "hands": rows[:, km.M_HANDS],
            "dead": rows[:, km.M_DEAD],
        }
    )
    for p in range(4):
        df[f"score{p + 1}"] = rows[:, km.M_SCORE + p]
    for k in range(MIN_BID, MAX_BID + 1):
        df[f"bids_{k}"] = rows[:, km.M_BIDS + k]
    for k in range(MIN_BID, MAX_BID + 1):
        df[f"made_{k}"] = rows[:, km.M_MADE + k]
    return df


def frame_rows(df: pd.DataFrame) -> np.ndarray:
    """The kernel's match rows back from a :func:`match_frame` DataFrame."""
    rows = np.zeros((len(df), km.M_SIZE), dtype=np.int64)
    rows[:, km.M_WINNER] = np.where(df["winner"] == TEAMS[0], 0, np.where(df["winner"] == TEAMS[1], 1, -1))
    rows[:, km.M_REASON] = pd.Categorical(df["end"], categories=kt.END_NAMES).codes
    rows[:, km.M_HANDS] = df["hands"]
    rows[:, km.M_DEAD] = df["dead"]
    for p in range(4):
        rows[:, km.M_SCORE + p] = df[f"score{p + 1}"]
    for k in range(MIN_BID, MAX_BID + 1):
        rows[:, km.M_BIDS + k] = df[f"bids_{k}"]
        rows[:, km.M_MADE + k] = df[f"made_{k}"]
    return rows


def rounds_frame(rounds: np.ndarray, hands: np.ndarray) -> pd.DataFrame:
    """Per-round records (dead hands included) as a DataFrame, one row per deal.

    Columns: ``match``, ``round``, ``dealer`` (player 1..4), ``dead``, then per seat 1..4 (bidding
    order of that round): ``player``, ``score_before``, ``bid``, ``tricks`` (-1 when dead) and
    ``cards`` (the hand as a ``uint64`` bitboard; ``analyzer.Hand(bits)`` reads it).
    """
    dealer = rounds[:, km.H_DEALER]
    df = pd.DataFrame(
        {
            "match": rounds[:, km.H_MATCH],
            "round": rounds[:, km.H_ROUND],
            "dealer": dealer + 1,
            "dead": rounds[:, km.H_DEAD].astype(bool),
        }
    )
    for s in range(4):
        df[f"player{s + 1}"] = (dealer + 1 + s) % 4 + 1
    for s in range(4):
        df[f"score_before{s + 1}"] = rounds[:, km.H_BEFORE + s]
    for s in range(4):
        df[f"bid{s + 1}"] = rounds[:, km.H_BIDS + s]
    for s in range(4):
        df[f"tricks{s + 1}"] = rounds[:, km.H_TRICKS + s]
    for s in range(4):
        df[f"cards{s + 1}"] = hands[:, s]
    return df


def simulate_rounds(
    variant: Variant | str | None = None,
    matches: int = 100,
    seed: int = 0,
    policy: str | Sequence[str] = "standard",
    bidder: str | Sequence[str] = "ev",
    cap: int = DEFAULT_CAP,
    threads: int | None = None,
    bidder_model: str | None = None,
) -> pd.DataFrame:
    """Every round of the matches of :func:`simulate_matches` (same seed, same matches)."""
    check_seed(seed)
    lineup = Lineup.make(variant, bidder, policy, cap, bidder_model)
    n = check_matches(matches)
    jobs = match_jobs("0", lineup, seed, n, record=True)
    results = run_jobs(jobs, threads)
    return rounds_frame(rows_of(results, jobs, "rounds"), rows_of(results, jobs, "hands"))


# ---------------------------------------------------------------------------------------------
# Statistics


#: The per-match metrics compared across variants: name -> (numerator, denominator, kind).
def _metric_parts(rows: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray, str]]:
    one = np.ones(len(rows))
    hands = rows[:, km.M_HANDS].astype(np.float64)
    dead = rows[:, km.M_DEAD].astype(np.float64)
    bids = rows[:, km.M_BIDS : km.M_BIDS + 14].astype(np.float64)
    made = rows[:, km.M_MADE : km.M_MADE + 14].astype(np.float64)
    n_bids = bids.sum(axis=1)
    reason = rows[:, km.M_REASON]
    scores = rows[:, km.M_SCORE : km.M_SCORE + 4].astype(np.float64)
    return {
        "hands per match": (hands, one, "mean"),
        "deals per match": (hands + dead, one, "mean"),
        "dead-hand rate": (dead, hands + dead, "rate"),
        "mean bid": (bids @ np.arange(14), n_bids, "mean"),
        "bids of 9+": (bids[:, 9:].sum(axis=1), n_bids, "rate"),
        "make rate": (made.sum(axis=1), n_bids, "rate"),
        "first partnership wins": ((rows[:, km.M_WINNER] == 0).astype(np.float64), one, "rate"),
        "ended by tie-break": (
            np.isin(reason, (kt.END_LEADER, kt.END_TOTAL)).astype(np.float64),
            one,
            "rate",
        ),
        "ended by outright 13": ((reason == kt.END_OUTRIGHT).astype(np.float64), one, "rate"),
        "stopped at the cap": ((reason == kt.END_CAP).astype(np.float64), one, "rate"),
        "winners' combined score": (
            _winner_total(rows, scores),
            (rows[:, km.M_WINNER] >= 0).astype(float),
            "mean",
        ),
        "points per hand (all players)": (scores.sum(axis=1), hands, "mean"),
    }


def _winner_total(rows: np.ndarray, scores: np.ndarray) -> np.ndarray:
    w = rows[:, km.M_WINNER]
    team0 = scores[:, 0] + scores[:, 2]
    team1 = scores[:, 1] + scores[:, 3]
    return np.where(w == 0, team0, np.where(w == 1, team1, 0.0))


def summarize_matches(matches: pd.DataFrame | np.ndarray) -> dict:
    """The figures of ``t400 simulate`` from :func:`simulate_matches` rows, with uncertainty.

    Rates are ratios over all matches (standard errors treat each match as a cluster of its
    hands); the first partnership's win rate has a 95% Wilson interval.
    """
    rows = frame_rows(matches) if isinstance(matches, pd.DataFrame) else np.asarray(matches)
    n = len(rows)
    if n == 0:
        raise T400Error("no matches to summarize")
    hands = rows[:, km.M_HANDS]
    deals = hands + rows[:, km.M_DEAD]
    bids = rows[:, km.M_BIDS : km.M_BIDS + 14].sum(axis=0)
    made = rows[:, km.M_MADE : km.M_MADE + 14]
    metrics = {}
    for name, (num, den, kind) in _metric_parts(rows).items():
        value, se, _ = ratio(num, den)
        metrics[name] = {"value": value, "se": se, "kind": kind}
    wins = int((rows[:, km.M_WINNER] == 0).sum())
    low, high = wilson(wins, n)
    make_by_bid = {}
    for k in range(MIN_BID, MAX_BID + 1):
        if bids[k] == 0:
            continue
        r, se, _ = ratio(made[:, k], rows[:, km.M_BIDS + k])
        make_by_bid[str(k)] = {"bids": int(bids[k]), "rate": r, "se": se}
    ends = np.bincount(rows[:, km.M_REASON], minlength=len(kt.END_NAMES))
    scores = rows[:, km.M_SCORE : km.M_SCORE + 4].astype(np.float64)
    pct = np.percentile(hands, [5, 25, 50, 75, 95]) if n else []
    counts = np.bincount(hands)
    return {
        "matches": n,
        "hands_per_match": {
            "mean": float(hands.mean()),
            "se": float(hands.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan,
            "percentiles": dict(zip(["p5", "p25", "p50", "p75", "p95"], (float(x) for x in pct))),
            "max": int(hands.max()),
            "distribution": {str(k): int(c) for k, c in enumerate(counts) if c},
        },
        "deals_per_match": float(deals.mean()),
        "dead_rate": metrics["dead-hand rate"],
        "bid_distribution": {str(k): float(bids[k] / bids.sum()) for k in range(MIN_BID, MAX_BID + 1)},
        "mean_bid": metrics["mean bid"],
        "make_rate": metrics["make rate"],
        "make_rate_by_bid": make_by_bid,
        "first_partnership_win": {"rate": wins / n, "ci95": [low, high], "wins": wins},
        "endings": {name: {"matches": int(c), "share": float(c / n)} for name, c in zip(kt.END_NAMES, ends)},
        "cap_hits": int(ends[kt.END_CAP]),
        "mean_final_scores": {
            f"player{p + 1}": {
                "mean": float(scores[:, p].mean()),
                "se": float(scores[:, p].std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan,
            }
            for p in range(4)
        },
        "metrics": metrics,
    }


def compare(rows_by_label: dict[str, np.ndarray]) -> pd.DataFrame:
    """Side-by-side metrics of runs on the same matches (common random numbers).

    One row per metric and variant: ``value``, ``se``, and against the first variant ``diff``
    and ``diff_se`` (from the paired per-match differences, so shared luck cancels).
    """
    labels = list(rows_by_label)
    parts = {label: _metric_parts(rows) for label, rows in rows_by_label.items()}
    base = labels[0]
    records = []
    for metric in parts[base]:
        base_value, _, z_base = ratio(*parts[base][metric][:2])
        for label in labels:
            num, den, kind = parts[label][metric]
            value, se, z = ratio(num, den)
            if label == base:
                diff, diff_se = 0.0, 0.0
            else:
                diff = value - base_value
                d = z - z_base
                diff_se = float(d.std(ddof=1) / math.sqrt(len(d))) if len(d) > 1 else math.nan
            records.append(
                {"metric": metric, "variant": label, "kind": kind, "value": value, "se": se,
                 "diff": diff, "diff_se": diff_se}
            )  # fmt: skip
    return pd.DataFrame.from_records(records)


def duel_stats(first: np.ndarray, swapped: np.ndarray) -> dict:
    """Duplicate-match figures for configuration A: in ``first`` A holds players 1+3, in
    ``swapped`` players 2+4, on the same deals. A match stopped at the cap counts half."""
    w1 = first[:, km.M_WINNER]
    w2 = swapped[:, km.M_WINNER]
    score = (
        np.where(w1 == 0, 1.0, np.where(w1 < 0, 0.5, 0.0))
        + np.where(w2 == 1, 1.0, np.where(w2 < 0, 0.5, 0.0))
    ) / 2
    n = len(score)
    rate = float(score.mean())
    se = float(score.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    s1 = first[:, km.M_SCORE : km.M_SCORE + 4].astype(np.float64)
    s2 = swapped[:, km.M_SCORE : km.M_SCORE + 4].astype(np.float64)
    a_points = s1[:, 0] + s1[:, 2] + s2[:, 1] + s2[:, 3]
    b_points = s1[:, 1] + s1[:, 3] + s2[:, 0] + s2[:, 2]
    hands = (first[:, km.M_HANDS] + swapped[:, km.M_HANDS]).astype(np.float64)
    a_pph, a_se, _ = ratio(a_points, hands)
    b_pph, b_se, _ = ratio(b_points, hands)
    margin, margin_se, _ = ratio(a_points - b_points, hands)
    both = (w1 == 0) & (w2 == 1)
    neither = (w1 == 1) & (w2 == 0)
    return {
        "pairs": n,
        "matches": 2 * n,
        "win_rate": rate,
        "se": se,
        "ci95": [rate - Z95 * se, rate + Z95 * se],
        "points_per_hand": a_pph,
        "points_per_hand_se": a_se,
        "opponent_points_per_hand": b_pph,
        "opponent_points_per_hand_se": b_se,
        "margin_per_hand": margin,
        "margin_per_hand_se": margin_se,
        "pairs_won_both": int(both.sum()),
        "pairs_lost_both": int(neither.sum()),
        "cap_hits": int((w1 < 0).sum() + (w2 < 0).sum()),
    }


def parse_config(text: str) -> tuple[str, str]:
    """``"ev/standard"`` -> ``("ev", "standard")``; the policy defaults to standard."""
    parts = [p.strip().lower() for p in str(text).split("/")]
    if len(parts) > 2 or not parts[0]:
        raise T400Error(f"configuration {text!r}: expected BIDDER/POLICY, e.g. ev/standard")
    bidder = parts[0]
    policy = parts[1] if len(parts) == 2 and parts[1] else "standard"
    bidder_id(bidder)
    policy_id(policy)
    return bidder, policy


def duel_lineups(
    a: str, b: str, variant=None, cap: int = DEFAULT_CAP, bidder_model: str | None = None
) -> tuple[Lineup, Lineup]:
    """The two seatings of a duplicate duel: A on players 1+3, then A on players 2+4."""
    (ab, ap), (bb, bp) = parse_config(a), parse_config(b)
    first = Lineup.make(variant, [ab, bb, ab, bb], [ap, bp, ap, bp], cap, bidder_model)
    swapped = Lineup.make(variant, [bb, ab, bb, ab], [bp, ap, bp, ap], cap, bidder_model)
    return first, swapped


def duel(
    a: str = "ev/standard",
    b: str = "counting/standard",
    pairs: int = 10_000,
    seed: int = 0,
    variant=None,
    cap: int = DEFAULT_CAP,
    threads: int | None = None,
    scheduler=None,
    progress=None,
    bidder_model: str | None = None,
) -> dict:
    """Duplicate matches between configurations ``a`` and ``b`` (``BIDDER/POLICY``): every
    deal sequence is played twice with the partnerships' seats swapped; A's win rate etc."""
    check_seed(seed)
    n = check_matches(pairs)
    first, swapped = duel_lineups(a, b, variant, cap, bidder_model)
    jobs1 = match_jobs("a13", first, seed, n)
    jobs2 = match_jobs("a24", swapped, seed, n)
    results = run_jobs(jobs1 + jobs2, threads, scheduler, None, progress)
    rows1 = rows_of(results, jobs1)
    rows2 = rows_of(results, jobs2)
    out = duel_stats(rows1, rows2)
    out.update({"a": "/".join(parse_config(a)), "b": "/".join(parse_config(b)), "seed": seed,
                "variant": first.variant.label, "cap": cap})  # fmt: skip
    return out


def replay_match(variant: Variant, rounds: pd.DataFrame):
    """The :class:`analyzer.games.t400.rules.MatchState` after replaying one match's recorded
    rounds through the rules engine (used to check the kernel)."""
    state = MatchState(variant)
    for r in rounds.itertuples(index=False):
        bids = [getattr(r, f"bid{s}") for s in range(1, 5)]
        tricks = None if r.dead else [getattr(r, f"tricks{s}") for s in range(1, 5)]
        state = state.play_round(bids, tricks)
    return state
