"""The answer of the bid analysis: each bid's figures (:class:`BidRow`) and the whole answer
(:class:`BidAnalysis`) with its views: a dict for JSON, a data frame, a plot."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from analyzer.core.reasons import bid_points, bid_reasons


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
