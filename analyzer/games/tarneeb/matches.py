"""Whole Tarneeb matches by four bots: simulate, compare variants, duel, with the run machinery
(blocks, Dask, checkpoints, common random numbers) of :mod:`analyzer.core.runs`.

Players 1+3 and 2+4 are the teams; player 4 deals the first hand (the kernel's conventions are
in :mod:`kernels.tarneeb.match`). Every figure comes with its standard error or interval; rates
are ratios over matches (each match a cluster of its hands).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analyzer import config
from analyzer.core.errors import T400Error
from analyzer.core.policies import compile_play_aside, policies_kit, policy_id
from analyzer.core.runs import (
    CompareStats,
    DuelStats,
    MatchLengths,
    MetricSums,
    block_fits,
    check_matches,
    mean_se,
    per_player,
    run_matches,
    summarize_run,
)
from analyzer.core.runtime import check_seed, threads_used
from analyzer.core.stats import RatioSums, wilson
from analyzer.games.tarneeb.bidders import load_model
from analyzer.games.tarneeb.rules import MAX_BID, MIN_BID, TarneebVariant, as_tarneeb_variant
from kernels.core.kit import Kit
from kernels.tarneeb import bidder as kb
from kernels.tarneeb import hand as kh
from kernels.tarneeb import match as km

#: Rounds (re-deals included) after which an unfinished match is stopped.
DEFAULT_CAP = 200
MAX_CAP = 10_000
BIDDERS = {name: i for i, name in enumerate(kh.BIDDER_NAMES)}
DEFAULT_BIDDER = "counting"
DEFAULT_POLICY = "team"
#: The trumps as the kernels number them, for the round records.
TRUMP_LETTERS = ("S", "H", "D", "C", "NT")
LEVELS = range(MIN_BID, MAX_BID + 1)


def bidder_id(name: str) -> int:
    key = str(name).strip().lower()
    if key not in BIDDERS:
        raise T400Error(f"unknown Tarneeb bidder {name!r} (expected one of {', '.join(BIDDERS)})")
    return BIDDERS[key]


def bidder_array(bidders: Sequence[str]) -> np.ndarray:
    """The EV bidder's model array when a player uses it (the shipped model), else a placeholder."""
    if "ev" in bidders:
        return load_model().array
    return np.zeros(kb.MODEL_SIZE)


@dataclass(frozen=True)
class TarneebLineup:
    """Who plays a Tarneeb match: the variant, each player's bidder and play policy (players
    1..4) and the cap. Policies: ``team`` (the default), or any 400 policy reading its side's
    target as its bid."""

    variant: TarneebVariant = field(default_factory=lambda: as_tarneeb_variant("tarneeb"))
    bidders: tuple[str, str, str, str] = (DEFAULT_BIDDER,) * 4
    policies: tuple[str, str, str, str] = (DEFAULT_POLICY,) * 4
    cap: int = DEFAULT_CAP

    @classmethod
    def make(
        cls, variant=None, bidder=DEFAULT_BIDDER, policy=DEFAULT_POLICY, cap=DEFAULT_CAP
    ) -> TarneebLineup:
        v = as_tarneeb_variant(variant)
        bidders = per_player(bidder, bidder_id, "bidder")
        if "ev" in bidders:
            load_model()  # check it now, not on a worker
        if isinstance(cap, bool) or not isinstance(cap, (int, np.integer)) or not 1 <= cap <= MAX_CAP:
            raise T400Error(f"hand cap {cap!r}: expected a whole number from 1 to {MAX_CAP}")
        return cls(
            v, per_player(bidder, bidder_id, "bidder"), per_player(policy, policy_id, "policy"), int(cap)
        )

    def settings(self) -> dict:
        return {"variant": self.variant.switches, "bidders": list(self.bidders), "policies": list(self.policies),
                "cap": self.cap}  # fmt: skip

    def lineup_array(self) -> np.ndarray:
        return np.array(
            [[bidder_id(b) for b in self.bidders], [policy_id(p) for p in self.policies]], dtype=np.int64
        )

    def kit(self) -> Kit:
        """The kernels' kit (:mod:`kernels.core.kit`): the policy all four players share."""
        return policies_kit([policy_id(p) for p in self.policies])

    def play_block(
        self, seed: int, first: int, count: int, record: bool = False, threads: int | None = None
    ) -> dict:
        """Matches ``first .. first + count - 1``: ``{"rows": int32[count, M_SIZE]}`` and, with
        ``record``, ``"rounds"`` (int32[n, H_SIZE]) and ``"hands"`` (uint64[n, 4])."""
        rules, lineup, model = self.variant.kernel_rules(), self.lineup_array(), bidder_array(self.bidders)
        chunk = config.get().match_kernel_chunk
        compile_play_aside(self.kit())  # a first run: the card play compiles on the other core meanwhile
        with threads_used(threads):
            rows = km.play_matches(seed, first, count, chunk, rules, lineup, self.kit(), model, self.cap)
            out = {"rows": rows}
            if record:
                rounds = deals_of(rows)
                offsets = np.concatenate([[0], np.cumsum(rounds)]).astype(np.int64)
                out["rounds"], out["hands"] = km.record_matches(
                    seed, first, offsets, chunk, rules, lineup, self.kit(), model, self.cap
                )
        return out


    def check_block(self, result: dict, count: int, record: bool) -> bool:
        """Whether a kept ``result`` is a block of ``count`` matches as :meth:`play_block` makes it."""
        return block_fits(result, count, record, km.M_SIZE, km.H_SIZE, deals_of)


def deals_of(rows: np.ndarray) -> np.ndarray:
    """The deals each match of ``rows`` dealt (hands played, passed out and worthless re-deals)."""
    return rows[:, km.M_HANDS].astype(np.int64) + rows[:, km.M_PASSED] + rows[:, km.M_WORTHLESS]


# ---------------------------------------------------------------------------------------------
# Figures


def metric_parts(rows: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray, str]]:
    """Each metric of a block of Tarneeb match rows as (numerator, denominator, kind) per match."""
    rows = np.asarray(rows)
    one = np.ones(len(rows))
    hands = rows[:, km.M_HANDS].astype(np.float64)
    deals = hands + rows[:, km.M_PASSED] + rows[:, km.M_WORTHLESS]
    contracts = rows[:, km.M_CONTRACTS : km.M_CONTRACTS + 7].astype(np.float64)
    made = rows[:, km.M_MADE : km.M_MADE + 7].astype(np.float64)
    winner = rows[:, km.M_WINNER]
    scores = rows[:, km.M_SCORE : km.M_SCORE + 2].astype(np.float64)
    column = lambda c: rows[:, c].astype(np.float64)  # noqa: E731
    return {
        "hands per match": (hands, one, "mean"),
        "deals per match": (deals, one, "mean"),
        "re-deal: all passed": (column(km.M_PASSED), deals, "rate"),
        "re-deal: worthless hand": (column(km.M_WORTHLESS), deals, "rate"),
        "dealer forced to bid": (column(km.M_FORCED), hands, "rate"),
        "mean contract": (contracts @ np.arange(MIN_BID, MAX_BID + 1), hands, "mean"),
        "contracts of 9+": (contracts[:, 2:].sum(axis=1), hands, "rate"),
        "make rate": (made.sum(axis=1), hands, "rate"),
        "declarers' tricks": (column(km.M_DECLARER_TRICKS), hands, "mean"),
        "Kaboot (declarers take 13)": (column(km.M_KABOOT), hands, "rate"),
        "defenders take 13": (column(km.M_SET_KABOOT), hands, "rate"),
        "no-trump contracts": (column(km.M_NO_TRUMP), hands, "rate"),
        "doubled contracts": (column(km.M_DOUBLED), hands, "rate"),
        "first team wins": ((winner == 0).astype(np.float64), one, "rate"),
        "draws": ((winner == 2).astype(np.float64), one, "rate"),
        "stopped at the cap": ((winner < 0).astype(np.float64), one, "rate"),
        "winners' score": (
            np.where(winner == 0, scores[:, 0], np.where(winner == 1, scores[:, 1], 0.0)),
            ((winner == 0) | (winner == 1)).astype(np.float64),
            "mean",
        ),  # fmt: skip
        "points per hand (both teams)": (scores.sum(axis=1), hands, "mean"),
    }


class TarneebStats:
    """``t400 simulate --game tarneeb``'s figures as mergeable sums: add match rows block by block,
    then :meth:`summary`."""

    def __init__(self):
        self.n = 0
        self.metrics = MetricSums()
        self.made = RatioSums(len(LEVELS))
        self.contracts = np.zeros(len(LEVELS), dtype=np.int64)
        self.lengths = MatchLengths()
        self.wins = self.draws = self.caps = 0
        self.scores = np.zeros((2, 2))

    def add(self, rows: np.ndarray) -> TarneebStats:
        rows = np.asarray(rows)
        if len(rows) == 0:
            return self
        self.metrics.add(metric_parts(rows))
        contracts = rows[:, km.M_CONTRACTS : km.M_CONTRACTS + 7].astype(np.float64)
        self.made.add(rows[:, km.M_MADE : km.M_MADE + 7].astype(np.float64).T, contracts.T)
        self.contracts += contracts.sum(axis=0).astype(np.int64)
        self.lengths.add(rows[:, km.M_HANDS])
        w = rows[:, km.M_WINNER]
        self.wins += int((w == 0).sum())
        self.draws += int((w == 2).sum())
        self.caps += int((w < 0).sum())
        s = rows[:, km.M_SCORE : km.M_SCORE + 2].astype(np.float64)
        self.scores += np.stack([s.sum(0), (s * s).sum(0)], 1)
        self.n += len(rows)
        return self

    def summary(self) -> dict:
        n = self.n
        if n == 0:
            raise T400Error("no matches to summarize")
        metrics = self.metrics.estimates()
        made = {}
        for j, level in enumerate(LEVELS):
            if self.contracts[j]:
                r, se = self.made.estimate(j)
                made[str(level)] = {"contracts": int(self.contracts[j]), "rate": r, "se": se}
        total = max(int(self.contracts.sum()), 1)
        low, high = wilson(self.wins, n)
        return {
            "matches": n,
            "hands_per_match": self.lengths.summary(),
            "contract_distribution": {
                str(level): float(self.contracts[j] / total) for j, level in enumerate(LEVELS)
            },
            "make_rate_by_contract": made,
            "first_team_win": {"rate": self.wins / n, "ci95": [low, high], "wins": self.wins},
            "draws": self.draws,
            "cap_hits": self.caps,
            "mean_final_scores": {
                team: dict(zip(("mean", "se"), mean_se(n, *self.scores[i])))
                for i, team in enumerate(("team13", "team24"))
            },  # fmt: skip
            "metrics": metrics,
        }


def match_frame(rows: np.ndarray, first: int = 0) -> pd.DataFrame:
    """One row per match: ``match``, ``winner`` ("1+3", "2+4", "draw", or "" at the cap),
    ``hands``, ``redeals_passed``, ``redeals_worthless``, ``score13``, ``score24``, and
    ``contracts_k`` / ``made_k`` for k = 7..13."""
    rows = np.asarray(rows)
    w = rows[:, km.M_WINNER]
    out = {
        "match": np.arange(first, first + len(rows)),
        "winner": np.where(w == 0, "1+3", np.where(w == 1, "2+4", np.where(w == 2, "draw", ""))),
        "hands": rows[:, km.M_HANDS],
        "redeals_passed": rows[:, km.M_PASSED],
        "redeals_worthless": rows[:, km.M_WORTHLESS],
        "score13": rows[:, km.M_SCORE],
        "score24": rows[:, km.M_SCORE + 1],
    }
    for j, level in enumerate(LEVELS):
        out[f"contracts_{level}"] = rows[:, km.M_CONTRACTS + j]
        out[f"made_{level}"] = rows[:, km.M_MADE + j]
    return pd.DataFrame(out)


def rounds_frame(rounds: np.ndarray, hands: np.ndarray) -> pd.DataFrame:
    """One row per deal: match, round, dealer (player 1..4), ``redeal`` ("", "passed",
    "worthless"), ``declarer`` (seat 1..4, 0 if not played), ``contract``, ``trump``, ``doubled``,
    ``tricks1..4`` (by seat, -1 if not played), ``before13``/``before24`` (team scores before the
    deal, seats 1+3 first), ``calls`` and ``cards1..4`` (bitboards, seat order)."""
    r = np.asarray(rounds)
    played = r[:, km.H_REDEAL] == kh.PLAYED
    trump = r[:, km.H_TRUMP]
    out = {
        "match": r[:, km.H_MATCH],
        "round": r[:, km.H_ROUND],
        "dealer": r[:, km.H_DEALER] + 1,
        "redeal": np.array(["", "passed", "worthless"])[r[:, km.H_REDEAL]],
        "declarer": np.where(played, r[:, km.H_DECLARER] + 1, 0),
        "contract": np.where(played, r[:, km.H_CONTRACT] >> 3, 0),
        "trump": np.where(played, np.array(TRUMP_LETTERS)[np.clip(trump, 0, 4)], ""),
        "doubled": r[:, km.H_DOUBLED].astype(bool),
    }
    for s in range(4):
        out[f"tricks{s + 1}"] = r[:, km.H_TRICKS + s]
    out["before13"] = r[:, km.H_BEFORE]
    out["before24"] = r[:, km.H_BEFORE + 1]
    out["calls"] = r[:, km.H_CALLS]
    for s in range(4):
        out[f"cards{s + 1}"] = np.asarray(hands)[:, s]
    return pd.DataFrame(out)


# ---------------------------------------------------------------------------------------------
# Runs


def simulate_summary(
    lineup: TarneebLineup,
    matches: int,
    seed: int = 0,
    threads: int | None = None,
    scheduler=None,
    keep: str | None = None,
    resume: bool = False,
    per_match=None,
    hands=None,
    progress: Callable[[int, int], None] | None = None,
):
    """``t400 simulate --game tarneeb``'s figures, block by block (flat memory; see
    :func:`analyzer.core.runs.summarize_run`). Returns (summary, run)."""
    return summarize_run(lineup, matches, seed, TarneebStats(), match_frame, rounds_frame, threads, scheduler, keep,
                         resume, per_match, hands, progress)  # fmt: skip


def simulate_matches(
    variant: TarneebVariant | str | None = None,
    matches: int = 10_000,
    seed: int = 0,
    policy: str | Sequence[str] = DEFAULT_POLICY,
    bidder: str | Sequence[str] = DEFAULT_BIDDER,
    cap: int = DEFAULT_CAP,
    threads: int | None = None,
    scheduler=None,
    progress: Callable[[int, int], None] | None = None,
) -> pd.DataFrame:
    """Complete Tarneeb matches by four bots: one row per match (see :func:`match_frame`).

    >>> df = simulate_matches("tarneeb", matches=50, seed=1)
    >>> len(df), bool(df["winner"].isin(["1+3", "2+4", "draw", ""]).all())
    (50, True)
    """
    check_seed(seed)
    lineup = TarneebLineup.make(variant, bidder, policy, cap)
    run = run_matches(
        [lineup], check_matches(matches), seed, threads=threads, scheduler=scheduler, progress=progress
    )
    return match_frame(run.results[0]["rows"])


def compare_stats(labels: Sequence[str]) -> CompareStats:
    """Side-by-side Tarneeb metrics of runs on the same matches (``t400 variants --game tarneeb``)."""
    return CompareStats(labels, metric_parts)


def parse_config(text: str) -> tuple[str, str]:
    """``"counting/team"`` -> ``("counting", "team")``; the policy defaults to team."""
    parts = [p.strip().lower() for p in str(text).split("/")]
    if len(parts) > 2 or not parts[0]:
        raise T400Error(f"configuration {text!r}: expected BIDDER/POLICY, e.g. counting/team")
    bidder = parts[0]
    policy = parts[1] if len(parts) == 2 and parts[1] else DEFAULT_POLICY
    bidder_id(bidder)
    policy_id(policy)
    return bidder, policy


def add_duel_block(stats: DuelStats, first: np.ndarray, swapped: np.ndarray) -> DuelStats:
    """Add pairs of Tarneeb matches (A on players 1+3 in ``first``, on 2+4 in ``swapped``)."""
    return stats.add_teams(
        first[:, km.M_WINNER], swapped[:, km.M_WINNER], first[:, km.M_SCORE], first[:, km.M_SCORE + 1],
        swapped[:, km.M_SCORE], swapped[:, km.M_SCORE + 1], first[:, km.M_HANDS] + swapped[:, km.M_HANDS],
    )  # fmt: skip


#: ``t400 duel --game tarneeb``'s configurations when none are given.
DUEL_A, DUEL_B = "counting/team", "counting/greedy"


def duel_lineups(a: str, b: str, variant=None, cap: int = DEFAULT_CAP) -> tuple[TarneebLineup, TarneebLineup]:
    """The two seatings of a duplicate duel: A on players 1+3, then A on players 2+4."""
    (ab, ap), (bb, bp) = parse_config(a), parse_config(b)
    first = TarneebLineup.make(variant, [ab, bb, ab, bb], [ap, bp, ap, bp], cap)
    swapped = TarneebLineup.make(variant, [bb, ab, bb, ab], [bp, ap, bp, ap], cap)
    return first, swapped


def duel(
    a: str = DUEL_A,
    b: str = DUEL_B,
    pairs: int = 10_000,
    seed: int = 0,
    variant=None,
    cap: int = DEFAULT_CAP,
    threads: int | None = None,
    scheduler=None,
    progress=None,
) -> dict:
    """Duplicate Tarneeb matches between configurations ``a`` and ``b`` (``BIDDER/POLICY``): every
    deal sequence is played twice with the teams' seats swapped; A's win rate (a draw or a match
    stopped at the cap counts half) and points per hand, with intervals."""
    check_seed(seed)
    n = check_matches(pairs)
    (ab, ap), (bb, bp) = parse_config(a), parse_config(b)
    first, swapped = duel_lineups(a, b, variant, cap)
    stats = DuelStats()
    run_matches([first, swapped], n, seed, threads=threads, scheduler=scheduler, progress=progress,
                on_block=lambda _, parts: add_duel_block(stats, parts[0]["rows"], parts[1]["rows"]))  # fmt: skip
    out = stats.result()
    out.update({"a": f"{ab}/{ap}", "b": f"{bb}/{bp}", "seed": seed, "variant": first.variant.label, "cap": cap,
                "game": "tarneeb"})  # fmt: skip
    return out
