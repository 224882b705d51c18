"""Fitting the take-or-leave model of the later hands (``t400 fit-follow``): steps of
policy iteration on rollouts, as the later-lead model's (:mod:`analyzer.core.later_lead`), for
either game.

A game gives played deals (:func:`analyzer.games.tarneeb.later_lead.deals_data`: classic
Tarneeb's contracts bid by four EV bots, the declarer leads; :func:`analyzer.games.t400.later_lead.deals_data`:
400's live deals bid by the EV bots) and its player plays them (``team``; 400's ``standard``). At
each decision of the second and third hands, and in 400 the fourth
(:mod:`kernels.policies.team_follow`: ruff or discard, win or duck) both options are played out
by the player (:func:`kernels.policies.follow_rollouts.follow_values`), and the difference of the
points for the mover's side, minus the other side's, is the value of taking on that deal. For each kind, side
(Tarneeb: declaring, defending; 400: the mover still short of its bid or not) and hand, least
squares fits that difference on the model's terms (a constant, the features and their pairwise
products); taking where the fit is positive is the policy-improvement step.

Every fifth deal is held out to measure a step: the points a deal that the model's choices gain
over the player's on those deals, one decision at a time against the same continuation, for each
side (and each kind and hand); the weights are then refitted on all deals. With ``iterations``
above one the next step's deals are played, and its options valued, by the player with the last
step's weights.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np

from analyzer.core import later_lead
from kernels.policies import follow_rollouts as kv


@dataclass(frozen=True)
class FollowModel:
    """A game's take-or-leave model: ``game`` (``--game``'s name), ``team`` (Tarneeb's contracts,
    else 400's deals), ``kernel`` (the module with ``FOLLOW_FEATURES``, ``N_FEATURES``,
    ``N_WEIGHTS``, ``N_ROWS`` and ``follow_features``), the weights module's file name beside it,
    the sides' names (the rows' ``declaring`` flag 1, then 0), what the weights module says it is,
    and the game's later-lead weights the player leads with (a module with ``WEIGHTS``)."""

    game: str
    team: bool
    kernel: ModuleType
    file_name: str
    sides: tuple[str, str]
    side_labels: tuple[str, str]
    about: str
    lead_weights: str

    def weights_file(self) -> Path:
        """The shipped weights module, beside the model's kernel."""
        return Path(self.kernel.__file__).with_name(self.file_name)

    def features_fingerprint(self) -> str:
        """A hash of what the model reads and what its data plays: the features, the options and
        their names, and the kernel that values the options (the shipped weights record it; a
        test flags them as stale when it changes)."""
        from kernels.policies import team_follow as kr

        parts = [inspect.getsource(self.kernel.follow_features), inspect.getsource(kr.take_leave),
                 inspect.getsource(kr.follow_kind), repr(self.kernel.FOLLOW_FEATURES), inspect.getsource(kv)]  # fmt: skip
        if self.kernel is not kr:  # 400's features extend Tarneeb's
            parts.append(inspect.getsource(kr.follow_features))
        return hashlib.sha256("".join(parts).encode()).hexdigest()[:16]

    def lead_model_fingerprint(self) -> str:
        """A hash of the shipped later-lead weights the player leads with: the take-or-leave
        weights record it, and a test flags them as stale when the later leads are refitted."""
        import importlib

        from analyzer.core.policies import numbers_fingerprint

        return numbers_fingerprint(importlib.import_module(self.lead_weights).WEIGHTS)


HAND_NAMES = ("second", "third", "fourth")
SCALE = 1000  # weights are kept in thousandths of a point
BATCH = 20_000  # deals per kernel call
# The rows are kept as int32 (features, points and decision numbers all fit), half the memory.
ROW_TYPE = np.int32
FIT_BLOCK = 100_000  # decisions whose terms are made at once


def terms(features: np.ndarray) -> np.ndarray:
    """The model's terms of each row of ``features`` (int[n, k]): float[n, 1 + k + k(k-1)/2], in
    :func:`kernels.policies.team_follow.follow_score`'s order (1, f_i, then f_i * f_j for i < j)."""
    f = features.astype(float)
    i, j = np.triu_indices(f.shape[1], k=1)
    return np.hstack([np.ones((len(f), 1)), f, f[:, i] * f[:, j]])


def fit_model(model: FollowModel, data: dict, meta: dict, progress: Callable[[int, int], None] | None = None,
              iterations: int = 1) -> dict:  # fmt: skip
    """Value the take-or-leave decisions of ``data``'s deals (the game's ``deals_data``, whose
    ``meta`` the weights record) and fit, ``iterations`` steps; returns what
    :func:`weights_source` writes (each step's held-out gains in the meta's ``steps``).
    ``progress(done, total)`` counts the deals valued in all steps."""
    deals = meta["deals"]
    command = f"t400 fit-follow --game {model.game} --deals {deals} --seed {meta['seed']}"
    if iterations > 1:
        command += f" --iterations {iterations}"
    meta = {**meta, "command": command, "lead_model": model.lead_model_fingerprint(),
            "features": model.features_fingerprint()}  # fmt: skip
    weights = np.zeros(0, dtype=np.int64)
    steps = []
    for step in range(iterations):
        def step_progress(done, total, step=step):
            if progress:
                progress(step * total + done, iterations * total)

        rows = _rows(model, data, weights, step_progress)
        held = (rows[:, kv.C_DECISION] // 16) % 5 == 4
        fitted = _fit(model, rows[~held])
        steps.append(_held_out(model, rows[held], fitted, len(range(4, len(data["hands"]), 5))))
        weights = _fit(model, rows)
    return {"meta": {**meta, **steps[-1], "iterations": iterations, "steps": steps}, "weights": weights}


def _rows(model: FollowModel, data: dict, weights: np.ndarray, progress: Callable[[int, int], None]) -> np.ndarray:
    """Every decision's row of ``data``'s deals played by the game's player with ``weights``,
    decisions numbered ``16 * deal + trick``; the model's features only."""
    n = len(data["hands"])
    width = kv.C_FEATURES + model.kernel.N_FEATURES
    out = []
    for start in range(0, n, BATCH):
        part = {k: np.ascontiguousarray(v[start : start + BATCH]) for k, v in data.items()}
        m = len(part["hands"])
        rows = np.zeros((m * kv.ROWS_PER_DEAL, kv.N_COLUMNS), dtype=np.int64)
        counts = np.zeros(m, dtype=np.int64)
        kv.follow_values(model.team, part["hands"], part["bids"], part["leaders"], part["trumps"], part["values"],
                         part["net"], np.ascontiguousarray(weights, dtype=np.int64), rows, counts)  # fmt: skip
        rows = rows[(np.arange(kv.ROWS_PER_DEAL)[None, :] < counts[:, None]).ravel(), :width]
        rows[:, kv.C_DECISION] += 16 * start
        out.append(rows.astype(ROW_TYPE))
        progress(start + m, n)
    return np.concatenate(out)


def _row_of(model: FollowModel, rows: np.ndarray) -> np.ndarray:
    """Each data row's weights row (:func:`kernels.policies.team_follow.row`)."""
    hands = model.kernel.HANDS
    return 2 * hands * rows[:, kv.C_KIND] + np.where(rows[:, kv.C_DECLARING] == 1, 0, hands) + rows[:, kv.C_POSITION] - 1


def _fit(model: FollowModel, rows: np.ndarray) -> np.ndarray:
    """The least-squares weights of each weights row (int64[N_ROWS * N_WEIGHTS], thousandths of
    a point) of the points after taking minus after leaving on the terms."""
    k = model.kernel
    out = np.zeros(k.N_ROWS * k.N_WEIGHTS, dtype=np.int64)
    which = _row_of(model, rows)
    for r in range(k.N_ROWS):
        mine = rows[which == r]
        if len(mine) < k.N_WEIGHTS:
            continue  # too few decisions to fit: the plan's choice (all weights 0)
        # The normal equations summed a block at a time: the terms of every decision at once
        # would take gigabytes.
        xtx = np.zeros((k.N_WEIGHTS, k.N_WEIGHTS))
        xty = np.zeros(k.N_WEIGHTS)
        for start in range(0, len(mine), FIT_BLOCK):
            block = mine[start : start + FIT_BLOCK]
            x = terms(block[:, kv.C_FEATURES :])
            xtx += x.T @ x
            xty += x.T @ (block[:, kv.C_TAKE].astype(float) - block[:, kv.C_LEAVE])
        w, *_ = np.linalg.lstsq(xtx, xty, rcond=None)  # least norm where a term never varies
        out[r * k.N_WEIGHTS : (r + 1) * k.N_WEIGHTS] = np.rint(w * SCALE)
    return out


def scores(model: FollowModel, rows: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The model's score of each row (int64; exactly the kernel's sums of integers)."""
    table = weights.reshape(model.kernel.N_ROWS, model.kernel.N_WEIGHTS)
    which = _row_of(model, rows)
    out = np.zeros(len(rows), dtype=np.int64)
    for start in range(0, len(rows), FIT_BLOCK):
        x = terms(rows[start : start + FIT_BLOCK, kv.C_FEATURES :]).astype(np.int64)
        out[start : start + FIT_BLOCK] = (x * table[which[start : start + FIT_BLOCK]]).sum(axis=1)
    return out


def _held_out(model: FollowModel, rows: np.ndarray, weights: np.ndarray, n_deals: int) -> dict:
    """Per side: the points a held-out deal that the model's choices gain over the player's (the
    mean over the ``n_deals`` held-out deals, its SE); per side and hand, the decisions and the
    share the model changes."""
    from kernels.policies.team_follow import FOLLOW, RUFF

    score = scores(model, rows, weights)
    took = rows[:, kv.C_TOOK] == 1
    choice = (score > 0) | ((score == 0) & took)
    value = rows[:, kv.C_TAKE].astype(np.int64) - rows[:, kv.C_LEAVE]
    gain = np.where(choice == took, 0, np.where(choice, value, -value)).astype(float)
    deal = rows[:, kv.C_DECISION] // 16
    out: dict = {"held_out_deals": n_deals}
    for name, flag in zip(model.sides, (1, 0)):
        mine = rows[:, kv.C_DECLARING] == flag
        per_deal = np.zeros(n_deals)
        if mine.any():
            _, per = np.unique(deal[mine], return_inverse=True)
            per_deal[: per.max() + 1] = np.bincount(per, gain[mine])
        se = float(per_deal.std(ddof=1) / math.sqrt(n_deals)) if n_deals > 1 else float("nan")
        out[f"held_out_{name}_gain_per_deal"] = round(float(per_deal.mean()), 4)
        out[f"held_out_{name}_gain_se"] = round(se, 4)
        for kind, what in ((RUFF, "ruff"), (FOLLOW, "follow")):
            for position, hand in enumerate(HAND_NAMES[: model.kernel.HANDS], 1):
                here = mine & (rows[:, kv.C_KIND] == kind) & (rows[:, kv.C_POSITION] == position)
                out[f"held_out_{name}_{what}_{hand}_hand"] = {
                    "decisions": int(here.sum()),
                    "gain_per_deal": round(float(gain[here].sum() / n_deals), 4),
                    "changed": round(float((choice != took)[here].mean()) if here.any() else 0.0, 4),
                    "model_takes": round(float(choice[here].mean()) if here.any() else 0.0, 4),
                }
    return out


def weights_source(model: FollowModel, fitted: dict) -> str:
    """The text of the weights module (:meth:`FollowModel.weights_file`) for ``fitted``."""
    from analyzer.version import __version__

    k = model.kernel
    meta = {**fitted["meta"], "version": __version__}
    w = fitted["weights"]
    names = ["one", *k.FOLLOW_FEATURES]
    labels = names + [f"{names[1 + i]} x {names[1 + j]}" for i, j in zip(*np.triu_indices(k.N_FEATURES, k=1))]
    whose = [f"{kind}, {side}, {hand} hand" for kind in ("ruff or discard", "win or duck")
             for side in model.side_labels for hand in HAND_NAMES[: k.HANDS]]  # fmt: skip
    rows = "\n".join(
        f"    {int(w[r * k.N_WEIGHTS + j])},  # {whose[r]}: {labels[j]}"
        for r in range(k.N_ROWS)
        for j in range(k.N_WEIGHTS)
    )
    module = k.__name__.split(".")[-1]
    return (
        f'"""Generated by ``{meta["command"].split(" --deals")[0]}``: do not edit. The take-or-leave model of\n'
        f"{model.about} (kernels/policies/{module}.py): weights in thousandths of a point, a\n"
        'row for each kind, side and hand (kernels.policies.team_follow.row)."""\n\n'
        "import numpy as np\n\n"
        f"META = {json.dumps(meta, indent=4)}\n"
        f"WEIGHTS = np.array([\n{rows}\n], dtype=np.int64)\n"
    )


def fit_game(model: FollowModel, deals_data: Callable[[int, int], tuple[dict, dict]], deals: int, seed: int,
             progress: Callable[[int, int], None] | None = None, iterations: int = 1) -> tuple[dict, str, str]:  # fmt: skip
    """``t400 fit-follow --game G``: deal ``deals`` of the game's deals from ``seed``
    (``deals_data``) and fit; returns (the model, the default path, the weights module's text)."""
    later_lead.check_deals(deals)
    later_lead.check_iterations(iterations)
    data, meta = deals_data(deals, seed)
    meta = {k: v for k, v in meta.items() if k != "command"}
    fitted = fit_model(model, data, meta, progress, iterations)
    return fitted, str(model.weights_file()), weights_source(model, fitted)
