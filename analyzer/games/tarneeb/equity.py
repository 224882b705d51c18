"""Tarneeb match equity: P(win the match) from the team totals, for ``t400 bid --game tarneeb
--scores A,B`` (``--objective win``).

The EV bots' calls and play ignore the scores, so a hand's outcome (each team's points) has one
distribution whatever the totals. That distribution is estimated from random deals the bots bid
and play (:data:`DEFAULT_HANDS` of them, seed :data:`DEFAULT_SEED`), and the equity of every pair
of totals is the exact solution of the resulting Markov chain: the deal passes on after a played
hand (the team that spoke first deals next), a re-deal keeps the state, and the match ends as
``match_result`` says (a draw counts half). Totals below :data:`LOW` count as :data:`LOW` (no
sampled match came near it).

A table is built on first use (7 s for 262,144 hands on 2 threads) and kept in memory and in the
user cache folder (``~/.cache/tarneeb400``), under a key of everything it depends on: the kernel
sources (the bots' play), this module, the bidder model's numbers, the variant, the hands and the
seed. So it is always in step with them, and a stale file is never read.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from analyzer.core import output
from analyzer.core.datafile import NPZ_ERRORS
from analyzer.core.errors import T400Error, WriteError
from analyzer.core.policies import policy_id
from analyzer.core.runtime import chunks_for
from analyzer.games.tarneeb.bidders import load_model
from analyzer.games.tarneeb.rules import TarneebVariant, as_tarneeb_variant, match_result
from kernels.tarneeb import equity as ke
from kernels.tarneeb import hand as kh
from kernels.tarneeb import rules as kr

#: Totals below this count as this (the table's lower edge).
LOW = -80
DEFAULT_HANDS = 1 << 18
DEFAULT_SEED = 0
_CHUNK = 1024
_TOLERANCE = 1e-12
_MAX_SWEEPS = 100_000
_VALUE = {kr.TEAM_ODD: 1.0, kr.TEAM_EVEN: 0.0, kr.DRAW: 0.5}


@dataclass(frozen=True)
class TarneebEquity:
    """P(win) (a draw half) of the team speaking first in the next hand, by the totals."""

    variant: TarneebVariant
    values: np.ndarray  # float64[S, S]: [first team's total - LOW, dealing team's total - LOW]
    tie: float  # the first team's equity when the totals are tied at or over the target (play on)
    p_redeal: float  # share of deals re-dealt
    points: np.ndarray  # int64[J, 2]: the points (seats 1+3, seats 2+4) of a played hand ...
    p_points: np.ndarray  # float64[J]: ... and their probabilities
    hands: int
    seed: int
    sweeps: int

    @property
    def target(self) -> int:
        return self.variant.target

    def before_hand(self, first: int, dealer: int) -> float:
        """Equity of the team speaking first (seats 1+3) when the totals are ``first`` and
        ``dealer`` (the dealing team's) before a hand; the match must not be over."""
        if first >= self.target or dealer >= self.target:
            return self.tie
        return float(self.values[max(first, LOW) - LOW, max(dealer, LOW) - LOW])

    def after_hand(self, odd: np.ndarray, even: np.ndarray, played: np.ndarray) -> np.ndarray:
        """Equity of seats 1+3 of a hand after it, their total ``odd`` and seats 2+4's ``even``
        (int arrays); ``played`` False for a re-deal (the same dealer deals again)."""
        odd, even = np.asarray(odd, dtype=np.int64), np.asarray(even, dtype=np.int64)
        const, index = _continuation(self.variant, odd, even, self.tie)
        flat = self.values.ravel()
        after_play = np.where(index >= 0, 1.0 - flat[np.maximum(index, 0)], const)
        size = self.values.shape[0]
        same = flat[
            (np.clip(odd, LOW, LOW + size - 1) - LOW) * size + np.clip(even, LOW, LOW + size - 1) - LOW
        ]
        return np.where(np.asarray(played, dtype=bool), after_play, same)


def _continuation(
    variant: TarneebVariant, odd: np.ndarray, even: np.ndarray, tie: float
) -> tuple[np.ndarray, np.ndarray]:
    """For totals after a played hand (seats 1+3: ``odd``): (the value for seats 1+3 where the
    match is decided, or tied at the target with play on (``tie``: the equity of the team that
    speaks first then); the flat index of the next hand's state (seats 2+4 speak first) where it
    goes on within the table, else -1)."""
    t = variant.target
    results = np.empty(odd.size, dtype=np.int64)
    kr.match_results(
        variant.kernel_rules(), np.ascontiguousarray(np.stack([odd.ravel(), even.ravel()], 1)), results
    )
    results = results.reshape(odd.shape)
    const = np.zeros(odd.shape)
    for code, value in _VALUE.items():
        const[results == code] = value
    going = results == kr.NO_RESULT
    tied_over = going & ((odd >= t) | (even >= t))
    const[tied_over] = 1.0 - tie
    size = t - LOW
    index = (np.maximum(even, LOW) - LOW) * size + np.maximum(odd, LOW) - LOW
    index = np.where(going & ~tied_over, index, -1)
    return const, index


def check_scores(variant: TarneebVariant, scores) -> tuple[int, int]:
    """Two team totals (seats 1+3 first) of a match still being played."""
    a, b = scores
    for name, x in (("seats 1+3", a), ("seats 2+4", b)):
        if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or not -999 <= x <= 999:
            raise T400Error(f"--scores: {name}' total {x!r} is not a whole number from -999 to 999")
    winner, draw, reason = match_result(variant, [a, b])
    if winner is not None or draw:
        raise T400Error(f"--scores {a},{b}: the match is already over ({reason})")
    return int(a), int(b)


def _cache_folder() -> Path | None:
    """Where tables are kept between runs (``$T400_CACHE_DIR``, else the user cache folder);
    ``None`` when it cannot be written (tables are then rebuilt in every process)."""
    folder = Path(os.environ.get("T400_CACHE_DIR") or Path.home() / ".cache" / "tarneeb400")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        return folder if os.access(folder, os.W_OK) else None
    except OSError:
        return None


def _cache_key(variant: TarneebVariant, hands: int, seed: int, model_key: str) -> str:
    from kernels.config import kernels_source_hash

    digest = hashlib.sha256(kernels_source_hash())
    digest.update(Path(__file__).read_bytes())
    digest.update(model_key.encode())
    digest.update(variant.kernel_rules().tobytes())
    digest.update(f"{hands},{seed}".encode())
    return digest.hexdigest()[:24]


_FIELDS = ("values", "tie", "p_redeal", "points", "p_points", "hands", "seed", "sweeps")


@functools.lru_cache(maxsize=16)
def _build(variant: TarneebVariant, hands: int, seed: int, model_key: str) -> TarneebEquity:
    model = load_model().array
    folder = _cache_folder()
    path = folder / f"tarneeb-equity-{_cache_key(variant, hands, seed, model_key)}.npz" if folder else None
    if path is not None and path.exists():
        try:
            with np.load(path) as f:
                return TarneebEquity(
                    variant=variant, **{k: f[k] if f[k].ndim else f[k].item() for k in _FIELDS}
                )
        except NPZ_ERRORS:
            pass  # an unreadable file is rebuilt
    table = _solve(variant, hands, seed, model)
    if path is not None:
        with contextlib.suppress(WriteError):  # a cache that cannot be written is rebuilt next time
            output.save_npz(path, **{k: getattr(table, k) for k in _FIELDS})
    return table


def _solve(variant: TarneebVariant, hands: int, seed: int, model: np.ndarray) -> TarneebEquity:
    bidders = np.full(4, kh.EV, dtype=np.int64)
    policies = np.full(4, policy_id("team"), dtype=np.int64)
    out = ke.hand_points(seed, 0, chunks_for(hands, _CHUNK), _CHUNK, variant.kernel_rules(), bidders, policies,
                         kh.TEAM_KIT, model)  # fmt: skip
    played = out[:, 0] == kh.PLAYED
    points, counts = np.unique(out[played][:, 1:], axis=0, return_counts=True)
    p = counts / played.sum()
    values, tie, sweeps = solve_equity(variant, points, p)
    return TarneebEquity(
        variant=variant, values=values, tie=tie, p_redeal=float(1 - played.mean()), points=points, p_points=p,
        hands=len(out), seed=seed, sweeps=sweeps,
    )  # fmt: skip


def solve_equity(variant: TarneebVariant, points: np.ndarray, p: np.ndarray) -> tuple[np.ndarray, float, int]:
    """The equity table for a distribution of a played hand's points: ``points`` int64[J, 2]
    (seats 1+3, seats 2+4), ``p`` float64[J] (re-deals left out: they keep the state). Returns
    (values float64[S, S] as :attr:`TarneebEquity.values`, the tie value, the sweeps made)."""
    points = np.asarray(points, dtype=np.int64)
    # tied at the target with play on: the first team wins with more points in the hand; equal
    # points keep the tie and pass the deal: tie = P(more) + P(equal) * (1 - tie)
    more, equal = p[points[:, 0] > points[:, 1]].sum(), p[points[:, 0] == points[:, 1]].sum()
    tie = float((more + equal) / (1.0 + equal))
    size = variant.target - LOW
    first, dealer = np.meshgrid(np.arange(LOW, variant.target), np.arange(LOW, variant.target), indexing="ij")
    first, dealer = first.ravel(), dealer.ravel()
    terminal = np.zeros(size * size)
    index = np.full((size * size, len(points)), -1, dtype=np.int64)
    weight = np.zeros((size * size, len(points)))
    for j, (d_first, d_dealer) in enumerate(points):
        const, nxt = _continuation(variant, first + d_first, dealer + d_dealer, tie)
        terminal += p[j] * np.where(nxt >= 0, 0.0, const)
        index[:, j] = nxt
        weight[:, j] = np.where(nxt >= 0, p[j], 0.0)
    values = np.full(size * size, 0.5)
    sweeps = ke.iterate_equity(values, terminal, index, weight, _TOLERANCE, _MAX_SWEEPS)
    if sweeps > _MAX_SWEEPS:
        raise T400Error(f"the match-equity table of {variant.label} did not converge")
    return values.reshape(size, size), tie, sweeps


def equity_table(variant=None, hands: int = DEFAULT_HANDS, seed: int = DEFAULT_SEED) -> TarneebEquity:
    """The match-equity table of ``variant`` (built on first use in the process, then kept)."""
    from analyzer.core.policies import numbers_fingerprint

    v = as_tarneeb_variant(variant)
    return _build(v, hands, seed, numbers_fingerprint(load_model().array))


__all__ = ["TarneebEquity", "equity_table", "solve_equity", "check_scores", "LOW"]
