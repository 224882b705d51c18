"""Runs of whole matches for any game: seeded blocks, locally or on Dask, with checkpoints.

A run is ``(seed, matches)`` under one or more lineups. A lineup is a game's frozen settings
object with ``settings()`` (a dict, for checkpoints) and ``play_block(seed, first, count,
record, threads)`` (its match kernel on matches ``first .. first + count - 1``, returning
``{"rows": ...}`` and with ``record`` also ``"rounds"`` and ``"hands"``). Match ``i`` draws its
deals from the random stream ``(seed, i)``, so a result depends only on the seed and the
settings (never on threads, blocks or workers), and lineups run with the same seed see the same
deals (common random numbers). Work is cut into blocks of ``config.match_block`` matches: the
unit of progress, of a Dask task and of a checkpoint.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from analyzer import config
from analyzer.core.errors import T400Error
from analyzer.core.jobs import Checkpoint, Job, run_jobs
from analyzer.core.runtime import check_seed
from analyzer.core.stats import Z95, RatioSums, cross_sums, percentiles_of_counts

#: Matches in one run: about a day at ~1e5 matches/s, and the most whose rows fit in memory.
MAX_MATCHES = 10**9


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


def block_fits(result: dict, count: int, record: bool, m_size: int, h_size: int, rounds_of) -> bool:
    """Whether ``result`` is a block of ``count`` matches as a game's ``play_block`` makes it
    (``rows`` int32[count, m_size]; with ``record`` also ``rounds`` int32[n, h_size] and ``hands``
    uint64[n, 4], n the deals the rows count by ``rounds_of(rows)``): a kept block is used only
    then, so a tampered or foreign one is computed again instead of being counted."""
    keys = {"rows", "rounds", "hands"} if record else {"rows"}
    if set(result) != keys:
        return False
    rows = result["rows"]
    if rows.dtype != np.int32 or rows.shape != (count, m_size):
        return False
    if not record:
        return True
    per_match = np.asarray(rounds_of(rows), dtype=np.int64)
    if (per_match < 0).any():
        return False
    n = int(per_match.sum())
    rounds, hands = result["rounds"], result["hands"]
    return rounds.dtype == np.int32 and rounds.shape == (n, h_size) and hands.dtype == np.uint64 and (
        hands.shape == (n, 4)
    )


@dataclass(frozen=True)
class MatchBlock:
    """A block of matches of one lineup, as a job's task (picklable for Dask); the lineup's
    ``play_block`` runs its game's match kernel."""

    seed: int
    first: int
    count: int
    lineup: Any
    record: bool = False

    def __call__(self, threads: int | None = None) -> dict:
        return self.lineup.play_block(self.seed, self.first, self.count, self.record, threads)


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
    lineups: Sequence[Any],
    matches: int,
    seed: int = 0,
    record: bool = False,
    threads: int | None = None,
    scheduler=None,
    keep: str | None = None,
    resume: bool = False,
    command: str = "matches",
    progress: Callable[[int, int], None] | None = None,
    on_block: Callable[[int, list[dict]], None] | None = None,
) -> MatchRun:
    """The same ``matches`` (seed ``seed``) under each lineup, locally or on Dask.

    With ``on_block``, each block of matches is handed over as soon as it is finished for every
    lineup, in match order, as ``on_block(first match, [result per lineup])`` (a result is
    ``{"rows": ...}``, with ``record`` also ``"rounds"`` and ``"hands"``), and nothing is kept:
    memory stays flat however many matches. Without it the results are collected in
    ``MatchRun.results`` (one dict per lineup). With ``keep`` (a path), finished blocks are kept
    in ``keep + ".parts"`` as they finish, so that Ctrl-C (:class:`analyzer.Interrupted`) loses
    nothing and ``resume=True`` with the same settings picks up where the run stopped.
    """
    check_seed(seed)
    n = check_matches(matches)
    k = len(lineups)
    settings = {"command": command, "seed": seed, "matches": n, "record": record,
                "lineups": [lu.settings() for lu in lineups]}  # fmt: skip
    if resume and not keep:
        raise T400Error("resume needs a place to keep finished work (an output file)")
    sizes = {f"{i}-{first}": (lineup, count) for first, count in blocks_of(n) for i, lineup in enumerate(lineups)}

    def check(key: str, result: dict) -> bool:
        lineup, count = sizes.get(key, (None, 0))
        return lineup is not None and lineup.check_block(result, count, record)

    checkpoint = Checkpoint(keep + ".parts", settings, resume, kind=command, check=check) if keep else None
    # block by block, every lineup's part of a block next to the others (a block is complete
    # as soon as its k jobs are)
    jobs = [
        Job(f"{i}-{first}", MatchBlock(seed, first, count, lineup, record), count)
        for first, count in blocks_of(n)
        for i, lineup in enumerate(lineups)
    ]
    collected: list[list[dict]] = [[] for _ in lineups]
    pending: list[dict] = []

    def consume(job: Job, result: dict) -> None:
        pending.append(result)
        if len(pending) == k:
            block = list(pending)
            pending.clear()
            if on_block is None:
                for i, part in enumerate(block):
                    collected[i].append(part)
            else:
                on_block(job.task.first, block)

    run_jobs(jobs, threads, scheduler, checkpoint, progress, consume=consume)
    results = []
    if on_block is None:
        for parts in collected:
            merged = {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
            results.append(merged)
    return MatchRun(results, checkpoint)


# ---------------------------------------------------------------------------------------------
# What every game's match figures share


def per_player(value, convert, what: str) -> tuple[str, str, str, str]:
    """One setting for all four players, or four (players 1..4), each checked by ``convert``
    (which raises on an unknown name); returned as lower-case names."""
    if isinstance(value, str) or not isinstance(value, Sequence):
        value = [value] * 4
    if len(value) != 4:
        raise T400Error(f"{what}: expected one value or four (one per player), got {len(value)}")
    for v in value:
        convert(v)
    return tuple(str(v).strip().lower() for v in value)


def mean_se(n: int, total: float, squares: float) -> tuple[float, float]:
    """Mean and its standard error from ``n`` values' sum and sum of squares."""
    mean = total / n
    if n < 2:
        return float(mean), math.nan
    var = max(squares - n * mean * mean, 0.0) / (n - 1)
    return float(mean), float(math.sqrt(var / n))


class MetricSums:
    """Named per-match ratio metrics (``{name: (numerator, denominator, kind)}`` per block, as a
    game's ``metric_parts`` gives them) as mergeable sums; :meth:`estimates` gives each with its SE."""

    def __init__(self):
        self.names: list[str] = []
        self.kinds: list[str] = []
        self.sums: RatioSums | None = None

    def add(self, parts: dict) -> None:
        if self.sums is None:
            self.names = list(parts)
            self.kinds = [kind for _, _, kind in parts.values()]
            self.sums = RatioSums(len(parts))
        self.sums.add(np.stack([p[0] for p in parts.values()]), np.stack([p[1] for p in parts.values()]))

    def estimates(self) -> dict:
        out = {}
        for j, (name, kind) in enumerate(zip(self.names, self.kinds)):
            value, se = self.sums.estimate(j)
            out[name] = {"value": value, "se": se, "kind": kind}
        return out


class MatchLengths:
    """Hands played per match as mergeable sums: mean ± SE, percentiles, longest, distribution."""

    def __init__(self):
        self.n = 0
        self.counts = np.zeros(1, dtype=np.int64)
        self.sums = np.zeros(2)  # sum, sum of squares

    def add(self, hands: np.ndarray) -> None:
        hands = np.asarray(hands).astype(np.int64)
        counts = np.bincount(hands)
        if len(counts) > len(self.counts):
            self.counts = np.concatenate([self.counts, np.zeros(len(counts) - len(self.counts), np.int64)])
        self.counts[: len(counts)] += counts
        h = hands.astype(np.float64)
        self.sums += [h.sum(), (h * h).sum()]
        self.n += len(hands)

    def summary(self) -> dict:
        mean, se = mean_se(self.n, *self.sums)
        pct = percentiles_of_counts(self.counts, [5, 25, 50, 75, 95])
        return {
            "mean": mean,
            "se": se,
            "percentiles": dict(zip(["p5", "p25", "p50", "p75", "p95"], pct)),
            "max": int(np.flatnonzero(self.counts)[-1]),
            "distribution": {str(k): int(c) for k, c in enumerate(self.counts) if c},
        }


def summarize_run(lineup, matches: int, seed: int, stats, match_frame, rounds_frame, threads=None, scheduler=None,
                  keep=None, resume=False, per_match=None, hands=None, progress=None):  # fmt: skip
    """``t400 simulate``'s run for any game, block by block so that memory stays flat: ``stats``
    (the game's mergeable figures) gets every block's match rows; ``per_match`` and ``hands``
    (table writers), when given, receive the game's ``match_frame`` of the rows and its
    ``rounds_frame`` of every deal (hands in dot notation). Returns (stats.summary(), the run)."""
    from analyzer.core.notation import dot_strings

    def on_block(first: int, parts: list[dict]) -> None:
        part = parts[0]
        stats.add(part["rows"])
        if per_match is not None:
            per_match.write(match_frame(part["rows"], first))
        if hands is not None:
            frame = rounds_frame(part["rounds"], part["hands"])
            for s in range(1, 5):  # hands in dot notation in files (the API's frames keep bitboards)
                frame[f"cards{s}"] = dot_strings(frame[f"cards{s}"].to_numpy())
            hands.write(frame)

    run = run_matches([lineup], matches, seed, record=hands is not None, threads=threads, scheduler=scheduler,
                      keep=keep, resume=resume, command="simulate", progress=progress, on_block=on_block)  # fmt: skip
    return stats.summary(), run


class CompareStats:
    """Side-by-side metrics of runs on the same matches, as mergeable sums (see :func:`compare`)."""

    def __init__(self, labels: Sequence[str], metric_parts: Callable):
        """``metric_parts(rows) -> {name: (numerators, denominators, kind)}``: the game's metrics
        of a block of match rows."""
        self.labels = list(labels)
        self.metric_parts = metric_parts
        self.runs: dict[str, RatioSums] = {}
        self.cross: dict[str, np.ndarray] = {}
        self.names: list[str] = []
        self.kinds: list[str] = []

    def add(self, rows_by_label: dict[str, np.ndarray]) -> CompareStats:
        """Add the same block of matches of every run."""
        stacked = {}
        for label in self.labels:
            parts = self.metric_parts(np.asarray(rows_by_label[label]))
            if not self.names:
                self.names = list(parts)
                self.kinds = [kind for _, _, kind in parts.values()]
            stacked[label] = (
                np.stack([p[0] for p in parts.values()]),
                np.stack([p[1] for p in parts.values()]),
            )
        base_num, base_den = stacked[self.labels[0]]
        for label, (num, den) in stacked.items():
            self.runs.setdefault(label, RatioSums(len(self.names))).add(num, den)
            block = cross_sums(num, den, base_num, base_den)
            self.cross[label] = self.cross.get(label, 0) + block
        return self

    def table(self) -> pd.DataFrame:
        base = self.labels[0]
        records = []
        for j, (metric, kind) in enumerate(zip(self.names, self.kinds)):
            base_value, _ = self.runs[base].estimate(j)
            for label in self.labels:
                value, se = self.runs[label].estimate(j)
                if label == base:
                    diff, diff_se = 0.0, 0.0
                else:
                    diff = value - base_value
                    diff_se = self.runs[label].paired_se(j, self.runs[base], self.cross[label][j])
                records.append(
                    {"metric": metric, "variant": label, "kind": kind, "value": value, "se": se,
                     "diff": diff, "diff_se": diff_se}
                )  # fmt: skip
        return pd.DataFrame.from_records(records)


class DuelStats:
    """Duplicate-match figures for configuration A as mergeable sums, for any game: each game adds its
    blocks of match pairs through :meth:`add_teams` (``add_duel_block`` in its ``matches`` module)."""

    def __init__(self):
        self.n = 0
        self.score = np.zeros(2)
        self.points = RatioSums(3)
        self.both = self.neither = self.caps = self.draws = 0

    def add_teams(self, w1, w2, odd1, even1, odd2, even2, hands) -> DuelStats:
        """Add pairs of matches of any game: the winning team of each (0 players 1+3, 1 players
        2+4, anything else a draw or a match stopped at the cap, counted half), each team's
        points in both matches, and the hands the pair played."""
        score = (
            np.where(w1 == 0, 1.0, np.where(w1 == 1, 0.0, 0.5))
            + np.where(w2 == 1, 1.0, np.where(w2 == 0, 0.0, 0.5))
        ) / 2
        self.score += [score.sum(), (score * score).sum()]
        a_points = np.asarray(odd1, np.float64) + np.asarray(even2, np.float64)
        b_points = np.asarray(even1, np.float64) + np.asarray(odd2, np.float64)
        hands = np.asarray(hands, np.float64)
        self.points.add(np.stack([a_points, b_points, a_points - b_points]), np.stack([hands] * 3))
        self.both += int(((w1 == 0) & (w2 == 1)).sum())
        self.neither += int(((w1 == 1) & (w2 == 0)).sum())
        self.caps += int((w1 < 0).sum() + (w2 < 0).sum())
        self.draws += int((w1 > 1).sum() + (w2 > 1).sum())
        self.n += len(score)
        return self

    def result(self) -> dict:
        n = self.n
        rate = float(self.score[0] / n)
        se = float(math.sqrt(max(self.score[1] - n * rate * rate, 0.0) / (n - 1) / n)) if n > 1 else math.nan
        (a_pph, a_se), (b_pph, b_se), (margin, margin_se) = (self.points.estimate(j) for j in range(3))
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
            "pairs_won_both": self.both,
            "pairs_lost_both": self.neither,
            "cap_hits": self.caps,
            "draws": self.draws,
        }
