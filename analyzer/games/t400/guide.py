"""The bidding guide: what hands of a kind are worth, seat by seat and score bracket by bracket.

For each seat and score bracket, random full deals are dealt; the seats before bid with the EV
bot, and the focal seat's every candidate bid is played out on the same deal (common random
numbers; later seats bid by bot, a dead hand scores 0, all four play ``standard``). Grouping
the deals by features of the focal hand gives, per group, the expected points of every bid
(with standard errors), the EV-best bid, and the trick distribution at that bid.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyzer import config
from analyzer.core.runtime import check_interrupt, check_seed, threads_used
from analyzer.games.t400.bidder import bot_array
from analyzer.games.t400.rules import MAX_BID, MIN_BID, SCORE_STEPS, Variant, as_variant
from analyzer.games.t400.simulate import lineup_array
from kernels.core.cards import LANE, SUIT_BITS
from kernels.t400 import guide as kg
from kernels.t400.lineup import lineup_kit

#: The score brackets of the value table (it changes at the first score step), and the scores
#: each is simulated at: (label, the player's score, the others' scores).
LOW, HIGH = f"<={SCORE_STEPS[0] - 1}", f">={SCORE_STEPS[0]}"
BRACKETS = ((LOW, 0, 0), (HIGH, SCORE_STEPS[0], 15))
CANDIDATES = np.arange(MIN_BID, MAX_BID + 1)
HEARTS_CAP = 8  # hearts lengths of 8 or more are one group

_POP13 = np.array([bin(i).count("1") for i in range(1 << 13)], dtype=np.int8)


def lanes(hands: np.ndarray) -> np.ndarray:
    """int64[n, 4]: each suit's 13 rank bits (spades, hearts, diamonds, clubs)."""
    h = hands.astype(np.uint64)
    return np.stack([((h >> np.uint64(LANE * s)) & SUIT_BITS).astype(np.int64) for s in range(4)], axis=1)


def hand_features(hands: np.ndarray) -> pd.DataFrame:
    """Features of hands (uint64[n]): hearts length, top hearts (A K Q held), side aces and
    kings, the shape pattern (longest suit first) and short side suits."""
    ln = lanes(hands)
    lengths = _POP13[ln].astype(np.int64)
    hearts = lengths[:, 1].astype(np.int64)
    top = ((ln[:, 1] >> 12) & 1) + ((ln[:, 1] >> 11) & 1) + ((ln[:, 1] >> 10) & 1)
    side = ln[:, [0, 2, 3]]
    aces = ((side >> 12) & 1).sum(axis=1)
    kings = ((side >> 11) & 1).sum(axis=1)
    shape = -np.sort(-lengths, axis=1)
    code = shape[:, 0] * 1000 + shape[:, 1] * 100 + shape[:, 2] * 10 + shape[:, 3]
    side_len = lengths[:, [0, 2, 3]]
    return pd.DataFrame(
        {
            "hearts": np.minimum(hearts, HEARTS_CAP),
            "top_hearts": top,
            "side_aces": aces,
            "side_kings": kings,
            "shape": code,
            "short_suits": (side_len <= 1).sum(axis=1),
        }
    )


def shape_label(code: int) -> str:
    return "-".join(str(int(d)) for d in f"{int(code):04d}") if code < 10000 else str(code)


@dataclass
class SeatData:
    """One seat and bracket: the focal hands, earlier bids and points of every candidate bid."""

    seat: int
    bracket: str
    own_score: int
    features: pd.DataFrame  # per deal: the focal hand's features and ``prior``, the earlier bids' total
    tricks: np.ndarray  # int8[n, m]
    points: np.ndarray  # float64[n, m], NaN for an illegal bid
    values: np.ndarray  # int64[m], the candidates' values at the player's score

    @property
    def prior(self) -> np.ndarray:
        """int64[n]: the sum of the bids made before the focal seat."""
        return self.features["prior"].to_numpy()

    @property
    def deals(self) -> int:
        return len(self.features)


def simulate_seat(
    seat: int, bracket: str, deals: int, seed: int, variant: Variant | str | None = None,
    threads: int | None = None, map_chunks: Callable | None = None, bidder_model: str | None = None,
) -> SeatData:  # fmt: skip
    """Deals from ``seat`` (1..4) in ``bracket`` (:data:`LOW` or :data:`HIGH`): see the module text.

    ``map_chunks(fn, [(first_chunk, n_chunks), ...])`` may run the chunk ranges elsewhere (Dask);
    the result is the same.
    """
    check_seed(seed)
    v = as_variant(variant)
    label, own, others = next(b for b in BRACKETS if b[0] == bracket)
    scores = np.full(4, others, dtype=np.int64)
    scores[seat - 1] = own
    cfg = config.get()
    n_chunks = max(1, math.ceil(deals / cfg.guide_chunk))
    # Each (seat, bracket) draws from its own part of the seed's stream space.
    base = (seat * 2 + [b[0] for b in BRACKETS].index(bracket)) << 40
    per_task = cfg.guide_task_chunks
    ranges = [(base + first, min(per_task, n_chunks - first)) for first in range(0, n_chunks, per_task)]
    task = _SeatTask(seed, seat - 1, scores, v, cfg.guide_chunk, bidder_model)
    if map_chunks is None:
        parts = []
        with threads_used(threads):
            for r in ranges:
                check_interrupt()
                parts.append(task(r))
    else:
        parts = map_chunks(task, ranges)
    hands = np.concatenate([p[0] for p in parts])
    prior = np.concatenate([p[1] for p in parts])
    tricks = np.concatenate([p[2] for p in parts])
    values = np.array([v.bid_value(int(b), own) for b in CANDIDATES], dtype=np.int64)
    points = kg.points_of(v.kernel_rules(), CANDIDATES, tricks, own)
    features = hand_features(hands[:, seat - 1])
    features["prior"] = prior
    return SeatData(seat, label, own, features, tricks, points, values)


class _SeatTask:
    """A picklable chunk-range job for :func:`simulate_seat` (runs on a Dask worker too)."""

    def __init__(self, seed, seat, scores, variant, chunk=None, bidder_model=None):
        self.seed, self.seat, self.scores, self.variant = seed, seat, scores, variant
        self.chunk = chunk or config.get().guide_chunk
        self.bidder_model = bidder_model

    def __call__(self, chunk_range):
        first, n = chunk_range
        v = self.variant
        lineup = lineup_array("ev", "standard")
        return kg.seat_outcomes(
            self.seed, first, n, self.chunk, v.kernel_rules(), lineup, lineup_kit(lineup),
            bot_array(v, self.bidder_model), self.seat, self.scores, CANDIDATES,
        )  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Grouping


def cell_ids(features: pd.DataFrame, by: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of ``features[by]`` (int64[k, len(by)]) and each deal's row index."""
    cols = [features[b].to_numpy().astype(np.int64) for b in by]
    if not cols:
        return np.zeros((1, 0), dtype=np.int64), np.zeros(len(features), dtype=np.int64)
    lows = [c.min() for c in cols]
    spans = [int(c.max() - lo + 1) for c, lo in zip(cols, lows)]
    key = np.zeros(len(features), dtype=np.int64)
    for c, lo, span in zip(cols, lows, spans):
        key = key * span + (c - lo)
    uniq, inverse = np.unique(key, return_inverse=True)
    cells = np.empty((len(uniq), len(cols)), dtype=np.int64)
    rest = uniq.copy()
    for i in range(len(cols) - 1, -1, -1):
        cells[:, i] = rest % spans[i] + lows[i]
        rest //= spans[i]
    return cells, inverse.ravel()


def cell_table(data: SeatData, by: list[str], min_cell: int | None = None) -> pd.DataFrame:
    """Per group of hands (the ``by`` features): deals, EV of every bid with its SE, the
    EV-best bid with its EV and the SE of its lead over the runner-up, P(make) and P(dead) at
    the best bid, and the mean and distribution of own tricks at it (live hands)."""
    min_cell = config.get().guide_min_cell if min_cell is None else min_cell
    cells, inverse = cell_ids(data.features, by)
    k = len(cells)
    count = np.bincount(inverse, minlength=k).astype(np.float64)
    pts = np.nan_to_num(data.points, nan=0.0)
    legal = ~np.isnan(data.points)
    m = pts.shape[1]
    sums = np.stack([np.bincount(inverse, pts[:, j], minlength=k) for j in range(m)], axis=1)
    sq = np.stack([np.bincount(inverse, pts[:, j] ** 2, minlength=k) for j in range(m)], axis=1)
    mean = sums / count[:, None]
    var = np.maximum(sq / count[:, None] - mean**2, 0.0)
    se = np.sqrt(var / np.maximum(count[:, None] - 1, 1))
    all_legal = (
        np.stack([np.bincount(inverse, legal[:, j], minlength=k) for j in range(m)], axis=1) == count[:, None]
    )
    masked = np.where(all_legal, mean, -np.inf)
    order = np.argsort(-masked, axis=1, kind="stable")
    best, second = order[:, 0], order[:, 1]
    row_best = best[inverse]
    diff = pts[np.arange(len(inverse)), row_best] - pts[np.arange(len(inverse)), second[inverse]]
    d_mean = np.bincount(inverse, diff, minlength=k) / count
    d_sq = np.bincount(inverse, diff**2, minlength=k) / count
    lead_se = np.sqrt(np.maximum(d_sq - d_mean**2, 0) / np.maximum(count - 1, 1))
    t_best = data.tricks[np.arange(len(inverse)), row_best].astype(np.int64)
    live = t_best >= 0
    live_n = np.bincount(inverse, live, minlength=k).astype(np.float64)
    t_sum = np.bincount(inverse, np.where(live, t_best, 0), minlength=k)
    t_sq = np.bincount(inverse, np.where(live, t_best, 0) ** 2, minlength=k)
    t_mean = t_sum / np.maximum(live_n, 1)
    t_se = np.sqrt(np.maximum(t_sq / np.maximum(live_n, 1) - t_mean**2, 0) / np.maximum(live_n - 1, 1))
    made = live & (t_best >= CANDIDATES[row_best])
    p_make = np.bincount(inverse, made, minlength=k) / np.maximum(live_n, 1)
    p_dead = 1.0 - live_n / count
    hist = np.zeros((k, 14))
    np.add.at(hist, (inverse[live], t_best[live]), 1.0)
    hist /= np.maximum(live_n, 1)[:, None]
    out = pd.DataFrame(cells, columns=by)
    out.insert(0, "bracket", data.bracket)
    out.insert(0, "seat", data.seat)
    out["deals"] = count.astype(np.int64)
    out["best_bid"] = CANDIDATES[best]
    out["best_ev"] = mean[np.arange(k), best]
    out["best_ev_se"] = se[np.arange(k), best]
    out["runner_up"] = CANDIDATES[second]
    out["lead"] = d_mean
    out["lead_se"] = lead_se
    out["tricks_mean"] = t_mean
    out["tricks_se"] = t_se
    out["p_make"] = p_make
    out["p_dead"] = p_dead
    for j, b in enumerate(CANDIDATES):
        out[f"ev_{b}"] = np.where(all_legal[:, j], mean[:, j], np.nan)
        out[f"ev_{b}_se"] = np.where(all_legal[:, j], se[:, j], np.nan)
    for t in range(14):
        out[f"p_tricks_{t}"] = hist[:, t]
    small = out["deals"] < min_cell
    out.loc[small, ["best_bid", "runner_up"]] = -1
    return out


def policy_value(
    data: SeatData, by: list[str], fallback: list[str] | None = None
) -> tuple[float, float, np.ndarray]:
    """Points per hand of bidding each group's EV-best bid, cross-fitted: the best bids are
    chosen on the even deals and scored on the odd ones, and the other way round, so the
    figure is not flattered by noise. Groups with fewer than 50 deals in the fitting half use
    the ``fallback`` grouping. Returns (mean, SE, per-deal points, per-deal chosen candidate
    index)."""
    n = data.deals
    half = np.arange(n) % 2
    chosen = np.empty(n, dtype=np.int64)
    for fit in (0, 1):
        use = half == fit
        choice = _best_by(data, by, use)
        if fallback:
            coarse = _best_by(data, fallback, use)
            choice = np.where(choice[1] >= 50, choice[0], coarse[0]), None
        chosen[~use] = choice[0][~use]
    x = np.nan_to_num(data.points[np.arange(n), chosen], nan=0.0)
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(n)), x, chosen


def _best_by(data: SeatData, by: list[str], use: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every deal: the best candidate index of its group fitted on ``use`` deals, and the
    number of fitting deals in the group."""
    _, inverse = cell_ids(data.features, by)
    k = inverse.max() + 1
    pts = np.nan_to_num(data.points, nan=-1e9)
    w = use.astype(np.float64)
    sums = np.stack([np.bincount(inverse, pts[:, j] * w, minlength=k) for j in range(pts.shape[1])], axis=1)
    count = np.bincount(inverse, w, minlength=k)
    best = np.argmax(sums, axis=1)
    first_legal = int(np.argmax(~np.isnan(data.points[0])))
    best[count == 0] = first_legal
    return best[inverse], count[inverse]
