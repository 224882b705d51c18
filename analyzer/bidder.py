"""The bot bidders' trick model: loading it, and fitting it from rollouts.

The EV bidder's trick estimate is an additive table over hand features (heart length and
honours; each side suit's length and top cards by heart length; seat; earlier bids), fitted by
least squares to the tricks that players actually took in simulated hands, plus a table of the
trick distribution around each estimate. Fitting alternates: simulate hands bid by the current
bidder (the counting baseline at first) and played with the ``standard`` policy, refit, repeat.
``t400 fit-bidder`` regenerates ``analyzer/data/bidder_model.npz``.
"""

from __future__ import annotations

import datetime
import functools
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from analyzer.errors import T400Error
from analyzer.parallel import check_seed, chunks_for, threads_used
from analyzer.rules import Variant
from kernels import bidder as kb
from kernels import rollout as kr
from kernels.play import STANDARD

MODEL_FILE = "bidder_model.npz"
BIDDERS = kb.BIDDER_NAMES
#: Softmax temperature (points) of the bid-likelihood model used to infer hands from bids.
INFER_TAU = 2.0


@dataclass(frozen=True)
class BidderModel:
    """The fitted model array (layout in :mod:`kernels.bidder`) and how it was made."""

    array: np.ndarray
    meta: dict

    def estimate(self, hand_bits: int, seat: int, prior_sum: int = 0) -> float:
        """Expected own tricks (the bidder's estimate) for a hand in seat index 0..3."""
        cells, weights = kb.design_rows(
            np.array([hand_bits], dtype=np.uint64), np.array([seat]), np.array([prior_sum])
        )
        return float((self.array[cells[0]] * weights[0]).sum())

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, model=self.array, meta=json.dumps(self.meta))


@functools.lru_cache(maxsize=4)
def _load(path: str) -> BidderModel:
    with np.load(path) as data:
        array = np.ascontiguousarray(data["model"], dtype=np.float64)
        meta = json.loads(str(data["meta"]))
    if array.shape != (kb.MODEL_SIZE,):
        raise T400Error(f"{path}: not a bidder model of this version (run t400 fit-bidder)")
    return BidderModel(array, meta)


def load_model(path: str | Path | None = None) -> BidderModel:
    """The shipped bidder model, or the one at ``path``."""
    if path is None:
        ref = resources.files("analyzer.data") / MODEL_FILE
        path = str(ref)
    if not Path(path).exists():
        raise T400Error(f"no bidder model at {path}: run `t400 fit-bidder` to make it")
    return _load(str(path))


def _trick_table(est: np.ndarray, tricks: np.ndarray, neighbours: int) -> np.ndarray:
    """P(tricks >= k) for each quarter-trick estimate bin, from the ``neighbours`` samples whose
    estimates are nearest the bin (their residuals, shifted to the bin's centre)."""
    order = np.argsort(est, kind="stable")
    est_sorted = est[order]
    resid = tricks[order] - est_sorted
    n = len(est_sorted)
    k = min(neighbours, n)
    cum = np.zeros((kb.N_BINS, 15))
    for b in range(kb.N_BINS):
        centre = b / kb.BINS_PER_TRICK
        i = int(np.searchsorted(est_sorted, centre))
        lo = max(0, min(i - k // 2, n - k))
        t = np.clip(np.rint(centre + resid[lo : lo + k]), 0, 13).astype(np.int64)
        p = np.bincount(t, minlength=14) / len(t)
        cum[b, :14] = p[::-1].cumsum()[::-1]
    return cum


def fit_model(
    deals: int = 400_000,
    seed: int = 2026,
    iterations: int = 3,
    variant: Variant | None = None,
    threads: int | None = None,
    ridge: float = 1.0,
    progress=None,
) -> BidderModel:
    """Fit the EV bidder's trick model from simulated hands (see the module docstring)."""
    check_seed(seed)
    if deals < 10_000:
        raise T400Error(f"deals {deals}: fitting needs at least 10,000")
    variant = variant or Variant.preset("dananeer")
    rules = variant.kernel_tables()
    chunk = 2048
    n_chunks = chunks_for(deals, chunk)
    model = np.zeros(kb.MODEL_SIZE)
    history = []
    with threads_used(threads):
        for it in range(iterations):
            bidder = kb.COUNTING_BIDDER if it == 0 else kb.EV_BIDDER
            bidders = np.full(4, bidder, dtype=np.int64)
            bot = kb.make_bot(model, rules.values)
            hands, bids, tricks, focal = kr.training_hands(
                seed, it * n_chunks, n_chunks, chunk, bidders, STANDARD, bot,
                rules.values, rules.min_bids, rules.table_mins, 2, -10, 45,
            )  # fmt: skip
            prior = np.cumsum(bids, axis=1) - bids
            seat_ids = np.broadcast_to(np.arange(4), bids.shape)
            plain = focal == -1
            keep = np.zeros(bids.shape, dtype=bool)
            keep[plain] = True
            strat = np.flatnonzero(focal >= 0)
            keep[strat, focal[strat]] = True
            h = hands[keep]
            s = seat_ids[keep].astype(np.int64)
            p = prior[keep].astype(np.int64)
            y = tricks[keep].astype(np.float64)
            cells, weights = kb.design_rows(
                np.ascontiguousarray(h), np.ascontiguousarray(s), np.ascontiguousarray(p)
            )
            xtx, xty = kb.normal_equations(cells, weights, y, kb.N_LINEAR)
            beta = np.linalg.solve(xtx + ridge * np.eye(kb.N_LINEAR), xty)
            est = (beta[cells] * weights).sum(axis=1)
            resid = y - est
            model = np.zeros(kb.MODEL_SIZE)
            model[: kb.N_LINEAR] = beta
            model[kb.CUM :] = _trick_table(est, y, neighbours=max(2000, len(y) // 400)).ravel()
            history.append(
                {
                    "iteration": it,
                    "bidder": kb.BIDDER_NAMES[bidder],
                    "samples": int(len(y)),
                    "dead_deals": int((focal == -2).sum()),
                    "rmse": float(np.sqrt(np.mean(resid**2))),
                    "r2": float(1 - resid.var() / y.var()),
                }
            )
            if progress:
                progress(it + 1, iterations)
    meta = {
        "deals_per_iteration": n_chunks * chunk,
        "seed": seed,
        "iterations": iterations,
        "policy": "standard",
        "variant": variant.label,
        "ridge": ridge,
        "fitted": datetime.date.today().isoformat(),
        "history": history,
        "command": f"t400 fit-bidder --deals {deals} --seed {seed} --iterations {iterations}",
    }
    return BidderModel(model, meta)
