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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analyzer import config
from analyzer.core.errors import T400Error
from analyzer.core.policies import compile_play_aside, policy_id
from analyzer.core.runs import (
    CompareStats,
    DuelStats,
    MatchLengths,
    MatchRun,
    MetricSums,
    block_fits,
    check_matches,
    mean_se,
    per_player,
    run_matches,
    summarize_run,
)
from analyzer.core.runtime import check_seed, threads_used
from analyzer.core.seats import TEAM_LABELS
from analyzer.core.stats import RatioSums, wilson
from analyzer.games.t400.bidder import bidder_id, bot_array, load_model
from analyzer.games.t400.equity import require_table
from analyzer.games.t400.rules import MAX_BID, MIN_BID, MatchState, Variant, as_variant
from analyzer.games.t400.simulate import lineup_array
from kernels.t400 import match as km
from kernels.t400 import rules as kt
from kernels.t400.lineup import lineup_kit

#: Rounds (dead hands included) after which an unfinished match is stopped.
DEFAULT_CAP = 200
MAX_CAP = 10_000

TEAMS = TEAM_LABELS


# ---------------------------------------------------------------------------------------------
# Settings


@dataclass(frozen=True)
class Lineup:
    """Who plays: the variant, each player's bidder and play policy (players 1..4), the cap and
    the EV bidder's model file (``None``: the shipped model). ``kit_bidders``: more bidders the
    kernels are compiled for beside the players' own, so that one run of several lineups (a
    report's duels) compiles one kernel for them all; it changes no result."""

    variant: Variant = field(default_factory=lambda: as_variant("dananeer"))
    bidders: tuple[str, str, str, str] = ("ev",) * 4
    policies: tuple[str, str, str, str] = ("standard",) * 4
    cap: int = DEFAULT_CAP
    bidder_model: str | None = None
    kit_bidders: tuple[str, ...] = ()

    @classmethod
    def make(cls, variant=None, bidder="ev", policy="standard", cap=DEFAULT_CAP, bidder_model=None,
             kit_bidders=()) -> Lineup:  # fmt: skip
        v = as_variant(variant)
        bidders = tuple(per_player(bidder, bidder_id, "bidder"))
        policies = tuple(per_player(policy, policy_id, "policy"))
        if isinstance(cap, bool) or not isinstance(cap, (int, np.integer)) or not 1 <= cap <= MAX_CAP:
            raise T400Error(f"hand cap {cap!r}: expected a whole number from 1 to {MAX_CAP}")
        if bidder_model is not None:
            bidder_model = str(bidder_model)
            load_model(bidder_model)  # check it now, not on a worker
        require_table(v, bidders)
        kit_bidders = tuple(kit_bidders)
        for b in kit_bidders:
            bidder_id(b)
        return cls(v, bidders, policies, int(cap), bidder_model, kit_bidders)

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

    def play_block(
        self, seed: int, first: int, count: int, record: bool = False, threads: int | None = None
    ) -> dict:
        """Matches ``first .. first + count - 1`` of the run seeded ``seed`` (see :func:`run_block`)."""
        return run_block(seed, first, count, self, record, threads)

    def check_block(self, result: dict, count: int, record: bool) -> bool:
        """Whether a kept ``result`` is a block of ``count`` matches as :meth:`play_block` makes it."""
        return block_fits(result, count, record, km.M_SIZE, km.H_SIZE, deals_of)

    def kernel_args(self) -> tuple:
        """(rules, lineup, kit, bot): what the match kernels take besides the run and the cap."""
        lineup = lineup_array(list(self.bidders), list(self.policies))
        return (
            self.variant.kernel_rules(),
            lineup,
            lineup_kit(lineup, [bidder_id(b) for b in self.kit_bidders]),
            bot_array(self.variant, self.bidder_model),
        )


def deals_of(rows: np.ndarray) -> np.ndarray:
    """The deals each match of ``rows`` dealt (hands played and dead hands)."""
    return rows[:, km.M_HANDS].astype(np.int64) + rows[:, km.M_DEAD]


def run_block(
    seed: int, first: int, count: int, lineup: Lineup, record: bool = False, threads: int | None = None
) -> dict:
    """Matches ``first .. first + count - 1``: ``{"rows": int32[count, M_SIZE]}`` and, with
    ``record``, ``"rounds"`` (int32[n, H_SIZE]) and ``"hands"`` (uint64[n, 4])."""
    args = lineup.kernel_args()
    chunk = config.get().match_kernel_chunk
    compile_play_aside(args[2])  # a first run: the card play compiles on the other core meanwhile
    with threads_used(threads):
        rows = km.play_matches(seed, first, count, chunk, *args, lineup.cap)
        out = {"rows": rows}
        if record:
            rounds = deals_of(rows)
            offsets = np.concatenate([[0], np.cumsum(rounds)]).astype(np.int64)
            out["rounds"], out["hands"] = km.record_matches(seed, first, offsets, chunk, *args, lineup.cap)
    return out


def simulate_summary(
    lineup: Lineup,
    matches: int,
    seed: int = 0,
    threads: int | None = None,
    scheduler=None,
    keep: str | None = None,
    resume: bool = False,
    per_match=None,
    hands=None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[dict, MatchRun]:
    """``t400 simulate``'s figures (:func:`summarize_matches`), computed block by block so that
    memory stays flat however many matches (:func:`analyzer.core.runs.summarize_run`): ``per_match``
    and ``hands``, when given, are :class:`analyzer.core.tables.TableWriter` objects that receive
    every match row and every deal (hands in dot notation) as the blocks finish. Returns
    (summary, the run)."""
    return summarize_run(lineup, matches, seed, MatchStats(), match_frame, rounds_frame, threads, scheduler, keep,
                         resume, per_match, hands, progress)  # fmt: skip


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
    run = run_matches([lineup], n, seed, threads=threads, scheduler=scheduler, progress=progress)
    return match_frame(run.results[0]["rows"])


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
    result = run_matches([lineup], n, seed, record=True, threads=threads).results[0]
    return rounds_frame(result["rounds"], result["hands"])


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


class MatchStats:
    """Every figure of :func:`summarize_matches` as mergeable sums: add match rows block by
    block (memory stays flat in the number of matches), then :meth:`summary`."""

    def __init__(self):
        self.n = 0
        self.metrics = MetricSums()
        self.made = RatioSums(MAX_BID + 1)
        self.lengths = MatchLengths()
        self.bids = np.zeros(MAX_BID + 1, dtype=np.int64)
        self.ends = np.zeros(len(kt.END_NAMES), dtype=np.int64)
        self.wins = 0
        self.deals = 0
        self.scores = np.zeros((4, 2))  # per player: sum, sum of squares

    def add(self, rows: np.ndarray) -> MatchStats:
        rows = np.asarray(rows)
        if len(rows) == 0:
            return self
        self.metrics.add(_metric_parts(rows))
        bids = rows[:, km.M_BIDS : km.M_BIDS + 14].astype(np.float64)
        made = rows[:, km.M_MADE : km.M_MADE + 14].astype(np.float64)
        self.made.add(made.T, bids.T)
        hands = rows[:, km.M_HANDS].astype(np.int64)
        self.lengths.add(hands)
        self.bids += bids.sum(axis=0).astype(np.int64)
        self.ends += np.bincount(rows[:, km.M_REASON], minlength=len(kt.END_NAMES))
        self.wins += int((rows[:, km.M_WINNER] == 0).sum())
        self.deals += int((hands + rows[:, km.M_DEAD]).sum())
        s = rows[:, km.M_SCORE : km.M_SCORE + 4].astype(np.float64)
        self.scores += np.stack([s.sum(0), (s * s).sum(0)], 1)
        self.n += len(rows)
        return self

    def summary(self) -> dict:
        n = self.n
        if n == 0:
            raise T400Error("no matches to summarize")
        metrics = self.metrics.estimates()
        low, high = wilson(self.wins, n)
        make_by_bid = {}
        for k in range(MIN_BID, MAX_BID + 1):
            if self.bids[k] == 0:
                continue
            r, se = self.made.estimate(k)
            make_by_bid[str(k)] = {"bids": int(self.bids[k]), "rate": r, "se": se}
        bids = self.bids
        return {
            "matches": n,
            "hands_per_match": self.lengths.summary(),
            "deals_per_match": float(self.deals / n),
            "dead_rate": metrics["dead-hand rate"],
            "bid_distribution": {str(k): float(bids[k] / bids.sum()) for k in range(MIN_BID, MAX_BID + 1)},
            "mean_bid": metrics["mean bid"],
            "make_rate": metrics["make rate"],
            "make_rate_by_bid": make_by_bid,
            "first_partnership_win": {"rate": self.wins / n, "ci95": [low, high], "wins": self.wins},
            "endings": {
                name: {"matches": int(c), "share": float(c / n)} for name, c in zip(kt.END_NAMES, self.ends)
            },
            "cap_hits": int(self.ends[kt.END_CAP]),
            "mean_final_scores": {
                f"player{p + 1}": dict(zip(("mean", "se"), mean_se(n, *self.scores[p]))) for p in range(4)
            },
            "metrics": metrics,
        }


def summarize_matches(matches: pd.DataFrame | np.ndarray) -> dict:
    """The figures of ``t400 simulate`` from :func:`simulate_matches` rows, with uncertainty.

    Rates are ratios over all matches (standard errors treat each match as a cluster of its
    hands); the first partnership's win rate has a 95% Wilson interval. (:class:`MatchStats`
    computes the same block by block.)
    """
    rows = frame_rows(matches) if isinstance(matches, pd.DataFrame) else np.asarray(matches)
    return MatchStats().add(rows).summary()


def compare_stats(labels: Sequence[str]) -> CompareStats:
    """Side-by-side 400 metrics of runs on the same matches (``t400 variants``)."""
    return CompareStats(labels, _metric_parts)


def compare(rows_by_label: dict[str, np.ndarray]) -> pd.DataFrame:
    """Side-by-side metrics of runs on the same matches (common random numbers).

    One row per metric and variant: ``value``, ``se``, and against the first variant ``diff``
    and ``diff_se`` (from the paired per-match differences, so shared luck cancels).
    """
    return compare_stats(list(rows_by_label)).add(rows_by_label).table()


def add_duel_block(stats: DuelStats, first: np.ndarray, swapped: np.ndarray) -> DuelStats:
    """Add 400 match rows to ``stats``: ``first`` with A on players 1+3, ``swapped`` with A on 2+4."""
    s1 = first[:, km.M_SCORE : km.M_SCORE + 4].astype(np.float64)
    s2 = swapped[:, km.M_SCORE : km.M_SCORE + 4].astype(np.float64)
    return stats.add_teams(
        first[:, km.M_WINNER], swapped[:, km.M_WINNER], s1[:, [0, 2]].sum(1), s1[:, [1, 3]].sum(1),
        s2[:, [0, 2]].sum(1), s2[:, [1, 3]].sum(1), first[:, km.M_HANDS] + swapped[:, km.M_HANDS],
    )  # fmt: skip


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
    a: str, b: str, variant=None, cap: int = DEFAULT_CAP, bidder_model: str | None = None, kit_bidders=()
) -> tuple[Lineup, Lineup]:
    """The two seatings of a duplicate duel: A on players 1+3, then A on players 2+4."""
    (ab, ap), (bb, bp) = parse_config(a), parse_config(b)
    first = Lineup.make(variant, [ab, bb, ab, bb], [ap, bp, ap, bp], cap, bidder_model, kit_bidders)
    swapped = Lineup.make(variant, [bb, ab, bb, ab], [bp, ap, bp, ap], cap, bidder_model, kit_bidders)
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
    kit_bidders=(),
) -> dict:
    """Duplicate matches between configurations ``a`` and ``b`` (``BIDDER/POLICY``): every
    deal sequence is played twice with the partnerships' seats swapped; A's win rate etc.
    (``kit_bidders``: see :class:`Lineup`)."""
    check_seed(seed)
    n = check_matches(pairs)
    first, swapped = duel_lineups(a, b, variant, cap, bidder_model, kit_bidders)
    stats = DuelStats()
    run_matches([first, swapped], n, seed, threads=threads, scheduler=scheduler, progress=progress,
                on_block=lambda _, parts: add_duel_block(stats, parts[0]["rows"], parts[1]["rows"]))  # fmt: skip
    out = stats.result()
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
