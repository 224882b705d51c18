"""Fitting the take-or-leave model of Tarneeb's ``team`` (``t400 fit-follow --game tarneeb``):
steps of policy iteration on rollouts, as the later-lead model's (:mod:`analyzer.core.later_lead`).

The deals are classic Tarneeb's contracts as the later-lead fit deals them
(:func:`analyzer.games.tarneeb.later_lead.deals_data`: random deals bid by four EV bots, the
declarer leads). ``team`` plays them; at each decision of the second and third hands
(:mod:`kernels.policies.team_follow`: ruff or discard, win or duck) both options are played out
by ``team`` (:func:`kernels.policies.follow_rollouts.follow_values`), and the difference of the
contract's points for the mover's side is the value of taking on that deal. For each kind, side
(declaring, defending) and hand, least squares fits that difference on the model's terms (a
constant, the features and their pairwise products); taking where the fit is positive is the
policy-improvement step.

Every fifth deal is held out to measure a step: the points a deal that the model's choices gain
over the player's on those deals, one decision at a time against the same continuation, for each
side (and each kind and hand); the weights are then refitted on all deals. With ``iterations`` above one the next step's
deals are played, and its options valued, by ``team`` with the last step's weights.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import math
from collections.abc import Callable
from pathlib import Path

import numpy as np

from analyzer.core import later_lead
from kernels.policies import follow_rollouts as kv
from kernels.policies import team_follow as kr

SCALE = 1000  # weights are kept in thousandths of a point
BATCH = 20_000  # deals per kernel call
SIDES = ("declaring", "defending")


def weights_file() -> Path:
    """The shipped weights module, beside the model's kernel."""
    return Path(kr.__file__).with_name("team_follow_weights.py")


def features_fingerprint() -> str:
    """A hash of what the model reads and what its data plays: the features, the options and
    their names, and the kernel that values the options (the shipped weights record it; a test
    flags them as stale when it changes)."""
    parts = [inspect.getsource(kr.follow_features), inspect.getsource(kr.take_leave),
             inspect.getsource(kr.follow_kind), repr(kr.FOLLOW_FEATURES), inspect.getsource(kv)]  # fmt: skip
    return hashlib.sha256("".join(parts).encode()).hexdigest()[:16]


def lead_model_fingerprint() -> str:
    """A hash of the shipped later-lead weights of ``team`` (``kernels/policies/team_lead_weights.py``),
    with which ``team`` plays the data's deals: the take-or-leave weights record it, and a test flags
    them as stale when the later leads are refitted."""
    from analyzer.core.policies import numbers_fingerprint
    from kernels.policies.team_lead_weights import WEIGHTS

    return numbers_fingerprint(WEIGHTS)


def terms(features: np.ndarray) -> np.ndarray:
    """The model's terms of each row of ``features`` (int[n, N_FEATURES]): float[n, N_WEIGHTS],
    in :func:`kernels.policies.team_follow.follow_score`'s order (1, f_i, then f_i * f_j for i < j)."""
    f = features.astype(float)
    i, j = np.triu_indices(kr.N_FEATURES, k=1)
    return np.hstack([np.ones((len(f), 1)), f, f[:, i] * f[:, j]])


def fit_model(deals: int, seed: int, progress: Callable[[int, int], None] | None = None,
              iterations: int = 1) -> dict:  # fmt: skip
    """Deal until ``deals`` contracts are played from ``seed``, value their take-or-leave
    decisions and fit, ``iterations`` steps; returns what :func:`weights_source` writes (each
    step's held-out gains in the meta's ``steps``). ``progress(done, total)`` counts the deals
    valued in all steps."""
    from analyzer.games.tarneeb.later_lead import deals_data

    later_lead.check_deals(deals)
    later_lead.check_iterations(iterations)
    data, meta = deals_data(deals, seed)
    command = f"t400 fit-follow --game tarneeb --deals {deals} --seed {seed}"
    if iterations > 1:
        command += f" --iterations {iterations}"
    meta = {**meta, "command": command, "team_lead_model": lead_model_fingerprint(),
            "features": features_fingerprint()}  # fmt: skip
    weights = np.zeros(0, dtype=np.int64)
    steps = []
    for step in range(iterations):
        def step_progress(done, total, step=step):
            if progress:
                progress(step * total + done, iterations * total)

        rows = _rows(data, weights, step_progress)
        held = (rows[:, kv.C_DECISION] // 16) % 5 == 4
        fitted = _fit(rows[~held])
        steps.append(_held_out(rows[held], fitted, len(range(4, deals, 5))))
        weights = _fit(rows)
    return {"meta": {**meta, **steps[-1], "iterations": iterations, "steps": steps}, "weights": weights}


def _rows(data: dict, weights: np.ndarray, progress: Callable[[int, int], None]) -> np.ndarray:
    """Every decision's row of ``data``'s deals played by ``team`` with ``weights``, decisions
    numbered ``16 * deal + trick``."""
    n = len(data["hands"])
    out = []
    for start in range(0, n, BATCH):
        part = {k: np.ascontiguousarray(v[start : start + BATCH]) for k, v in data.items()}
        m = len(part["hands"])
        rows = np.zeros((m * kv.ROWS_PER_DEAL, kv.N_COLUMNS), dtype=np.int64)
        counts = np.zeros(m, dtype=np.int64)
        kv.follow_values(part["hands"], part["bids"], part["leaders"], part["trumps"], part["net"],
                       np.ascontiguousarray(weights, dtype=np.int64), rows, counts)  # fmt: skip
        rows = rows[(np.arange(kv.ROWS_PER_DEAL)[None, :] < counts[:, None]).ravel()]
        rows[:, kv.C_DECISION] += 16 * start
        out.append(rows)
        progress(start + m, n)
    return np.concatenate(out)


def _row_of(rows: np.ndarray) -> np.ndarray:
    """Each data row's weights row (:func:`kernels.policies.team_follow.row`)."""
    return 4 * rows[:, kv.C_KIND] + np.where(rows[:, kv.C_DECLARING] == 1, 0, 2) + rows[:, kv.C_POSITION] - 1


def _fit(rows: np.ndarray) -> np.ndarray:
    """The least-squares weights of each weights row (int64[N_ROWS * N_WEIGHTS], thousandths of
    a point) of the points after taking minus after leaving on the terms."""
    out = np.zeros(kr.N_ROWS * kr.N_WEIGHTS, dtype=np.int64)
    which = _row_of(rows)
    for r in range(kr.N_ROWS):
        mine = rows[which == r]
        if len(mine) < kr.N_WEIGHTS:
            continue  # too few decisions to fit: the plan's choice (all weights 0)
        x = terms(mine[:, kv.C_FEATURES :])
        w, *_ = np.linalg.lstsq(x, (mine[:, kv.C_TAKE] - mine[:, kv.C_LEAVE]).astype(float), rcond=None)
        out[r * kr.N_WEIGHTS : (r + 1) * kr.N_WEIGHTS] = np.rint(w * SCALE)
    return out


def scores(rows: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The model's score of each row (int64; exactly the kernel's sums of integers)."""
    x = terms(rows[:, kv.C_FEATURES :]).astype(np.int64)
    return (x * weights.reshape(kr.N_ROWS, kr.N_WEIGHTS)[_row_of(rows)]).sum(axis=1)


def _held_out(rows: np.ndarray, weights: np.ndarray, n_deals: int) -> dict:
    """Per side: the points a held-out deal that the model's choices gain over the player's (the
    mean over the ``n_deals`` held-out deals, its SE); per side and hand, the decisions and the
    share the model changes."""
    score = scores(rows, weights)
    took = rows[:, kv.C_TOOK] == 1
    model = (score > 0) | ((score == 0) & took)
    value = rows[:, kv.C_TAKE] - rows[:, kv.C_LEAVE]
    gain = np.where(model == took, 0, np.where(model, value, -value)).astype(float)
    deal = rows[:, kv.C_DECISION] // 16
    out: dict = {"held_out_deals": n_deals}
    for name, flag in zip(SIDES, (1, 0)):
        mine = rows[:, kv.C_DECLARING] == flag
        per_deal = np.zeros(n_deals)
        if mine.any():
            _, per = np.unique(deal[mine], return_inverse=True)
            per_deal[: per.max() + 1] = np.bincount(per, gain[mine])
        se = float(per_deal.std(ddof=1) / math.sqrt(n_deals)) if n_deals > 1 else float("nan")
        out[f"held_out_{name}_gain_per_deal"] = round(float(per_deal.mean()), 4)
        out[f"held_out_{name}_gain_se"] = round(se, 4)
        for kind, what in ((kr.RUFF, "ruff"), (kr.FOLLOW, "follow")):
            for position, hand in ((1, "second"), (2, "third")):
                here = mine & (rows[:, kv.C_KIND] == kind) & (rows[:, kv.C_POSITION] == position)
                out[f"held_out_{name}_{what}_{hand}_hand"] = {
                    "decisions": int(here.sum()),
                    "gain_per_deal": round(float(gain[here].sum() / n_deals), 4),
                    "changed": round(float((model != took)[here].mean()) if here.any() else 0.0, 4),
                    "model_takes": round(float(model[here].mean()) if here.any() else 0.0, 4),
                }
    return out


def weights_source(model: dict) -> str:
    """The text of the weights module (:func:`weights_file`) for ``model``."""
    from analyzer.version import __version__

    meta = {**model["meta"], "version": __version__}
    w = model["weights"]
    names = ["one", *kr.FOLLOW_FEATURES]
    labels = names + [f"{names[1 + i]} x {names[1 + j]}" for i, j in zip(*np.triu_indices(kr.N_FEATURES, k=1))]
    whose = [f"{kind}, {side}, {hand} hand" for kind in ("ruff or discard", "win or duck")
             for side in ("declaring side", "defenders") for hand in ("second", "third")]  # fmt: skip
    rows = "\n".join(
        f"    {int(w[r * kr.N_WEIGHTS + k])},  # {whose[r]}: {labels[k]}"
        for r in range(kr.N_ROWS)
        for k in range(kr.N_WEIGHTS)
    )
    return (
        f'"""Generated by ``{meta["command"].split(" --deals")[0]}``: do not edit. The take-or-leave model of\n'
        "Tarneeb team contracts (kernels/policies/team_follow.py): weights in thousandths of a point, a\n"
        'row for each kind, side and hand (kernels.policies.team_follow.row)."""\n\n'
        "import numpy as np\n\n"
        f"META = {json.dumps(meta, indent=4)}\n"
        f"WEIGHTS = np.array([\n{rows}\n], dtype=np.int64)\n"
    )
