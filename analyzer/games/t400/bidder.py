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

from analyzer import config
from analyzer.core import output
from analyzer.core.datafile import ShippedKind, read_shipped
from analyzer.core.errors import T400Error
from analyzer.core.policies import id_of, play_fingerprint
from analyzer.core.runtime import check_seed, chunks_for, threads_used
from analyzer.core.stats import trick_table
from analyzer.games.t400 import equity as me
from analyzer.games.t400.rules import MAX_BID, MIN_BID, SCORE_STEPS, TRUMP, Variant
from kernels.policies.play import STANDARD
from kernels.t400 import bidder as kb
from kernels.t400 import rollout as kr
from kernels.t400.lineup import lineup_kit, make_lineup

MODEL_FILE = "bidder_model.npz"
BIDDERS = kb.BIDDER_NAMES
#: Softmax temperature (points) of the bid-likelihood model used to infer hands from bids.
INFER_TAU = 2.0


@dataclass(frozen=True, eq=False)
class BidderModel:
    """The fitted model array (layout in :mod:`kernels.t400.bidder`) and how it was made."""

    array: np.ndarray
    meta: dict

    def estimate(self, hand_bits: int, seat: int, prior_sum: int = 0) -> float:
        """Expected own tricks (the bidder's estimate) for a hand in seat index 0..3."""
        cells, weights = kb.design_rows(
            np.array([hand_bits], dtype=np.uint64), int(TRUMP), np.array([seat]), np.array([prior_sum])
        )
        return float((self.array[cells[0]] * weights[0]).sum())

    def save(self, path: str | Path) -> None:
        output.save_npz(path, compressed=True, model=self.array, meta=json.dumps(self.meta))


#: The model file as :func:`analyzer.core.datafile.read_shipped` reads it.
MODEL_KIND = ShippedKind(
    "bidder model", "model", "t400 fit-bidder", lambda a: a.shape == (kb.MODEL_SIZE,), BidderModel
)


def model_path(path: str | Path | None = None) -> str:
    """The path of the model file: ``path``, or the shipped one."""
    return str(resources.files("analyzer.data") / MODEL_FILE) if path is None else str(path)


def load_model(path: str | Path | None = None) -> BidderModel:
    """The shipped bidder model, or the one at ``path`` (a file changed on disk is read again)."""
    return read_shipped(model_path(path), MODEL_KIND)


#: Bidder name -> kernel id.
BIDDERS = {name: i for i, name in enumerate(kb.BIDDER_NAMES)}


def bidder_id(name: str) -> int:
    """The kernel id of bot bidder ``name`` (an error naming the choices if unknown)."""
    return id_of(name, BIDDERS, "bidder")


def make_bot(model: np.ndarray, variant: Variant, equity: np.ndarray | None = None) -> np.ndarray:
    """A bot array (layout in :mod:`kernels.t400.bidder`): ``model`` followed by, for each value
    row, lowest allowed bid and estimate bin, the best bid among those from the lowest allowed one
    to 13 (ties to the lower bid) and its expected value, ``value * (2 P(make) - 1)`` (for the EV
    model's distribution, then for the counting estimate's); then the match-equity table
    ``equity`` (``[0]``: none)."""
    equity = np.zeros(1) if equity is None else equity
    bot = np.empty(kb.BOT_SIZE + len(equity))
    bot[kb.BOT_SIZE :] = equity
    bot[: kb.MODEL_SIZE] = model
    for cum_at, tables in ((kb.CUM, 0), (kb.COUNTING_CUM, kb.COUNTING_BEST)):
        cum = model[cum_at : cum_at + kb.N_BINS * 15].reshape(kb.N_BINS, 15)
        bins = np.arange(kb.N_BINS)
        for vrow, score in enumerate((SCORE_STEPS[0] - 1, SCORE_STEPS[0])):
            best = np.full(kb.N_BINS, -1.0)
            best_ev = np.full(kb.N_BINS, -1e300)
            for low in range(MAX_BID + 1, -1, -1):  # the best bid among low..13, from the top down
                if MIN_BID <= low <= MAX_BID:
                    ev = variant.bid_value(low, score) * (2.0 * cum[:, low] - 1.0)
                    best = np.where(ev >= best_ev - 1e-12, float(low), best)
                    best_ev = np.maximum(ev, best_ev)
                cells = tables + (vrow * 15 + low) * kb.N_BINS + bins
                bot[kb.BEST_BID + cells] = best
                bot[kb.BEST_EV + cells] = best_ev
    return bot


@functools.lru_cache(maxsize=16)
def _bot_for(variant: Variant, model: BidderModel, equity) -> np.ndarray:
    return make_bot(model.array, variant, None if equity is None else equity.array)


def bot_array(
    variant: Variant, model: str | Path | None = None, equity_table: str | Path | None = None
) -> np.ndarray:
    """The bots' array (model, bid tables, match-equity table) for a variant, from the shipped
    model or the model file at ``model``, and the variant's shipped match-equity table or the
    one at ``equity_table`` (none for a variant without a shipped table: the ``win`` bidder
    needs one, see :func:`analyzer.games.t400.equity.require_table`)."""
    table = me.table_for(variant, equity_table) if equity_table is not None else me.shipped_table(variant)
    return _bot_for(variant, load_model(model), table)


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
    rules = variant.kernel_rules()
    chunk = config.get().sim_chunk
    n_chunks = chunks_for(deals, chunk)
    model = np.zeros(kb.MODEL_SIZE)
    history = []
    with threads_used(threads):
        for it in range(iterations):
            bidder = kb.COUNTING_BIDDER if it == 0 else kb.EV_BIDDER
            lineup = make_lineup([bidder] * 4, [STANDARD] * 4)
            bot = make_bot(model, variant)
            hands, bids, tricks, focal = kr.training_hands(
                seed, it * n_chunks, n_chunks, chunk, rules, lineup, lineup_kit(lineup), bot, 2, -10, 45
            )
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
                np.ascontiguousarray(h), int(TRUMP), np.ascontiguousarray(s), np.ascontiguousarray(p)
            )
            xtx, xty = kb.normal_equations(cells, weights, y, kb.N_LINEAR)
            beta = np.linalg.solve(xtx + ridge * np.eye(kb.N_LINEAR), xty)
            est = (beta[cells] * weights).sum(axis=1)
            resid = y - est
            model = np.zeros(kb.MODEL_SIZE)
            model[: kb.N_LINEAR] = beta
            neighbours = max(2000, len(y) // 400)
            model[kb.CUM : kb.COUNTING_CUM] = trick_table(est, y, neighbours).ravel()
            counted = kb.counting_estimates(np.ascontiguousarray(h), int(TRUMP))
            model[kb.COUNTING_CUM :] = trick_table(counted, y, neighbours).ravel()
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
        "play_fingerprint": play_fingerprint(),
        "variant": variant.label,
        "ridge": ridge,
        "fitted": datetime.date.today().isoformat(),
        "history": history,
        "command": f"t400 fit-bidder --deals {deals} --seed {seed} --iterations {iterations}",
    }
    return BidderModel(model, meta)
