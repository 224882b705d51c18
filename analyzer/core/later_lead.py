"""Fitting the later-lead model (``t400 fit-later-lead``): one step of policy iteration on
rollouts of the plan, for either game.

A game gives played deals (:mod:`analyzer.games.t400.later_lead`: 400's live deals bid by the
EV bots; :mod:`analyzer.games.tarneeb.later_lead`: classic Tarneeb's contracts of the EV bots),
and the plan plays them. At every lead of tricks 2 to 12 each card the leader holds
is led in turn and the deal played out by the plan (with the take-or-leave model, below)
(:func:`kernels.policies.lead_rollouts.lead_values`): the points of the leader's side are the
value of that card on that deal. The model (:mod:`kernels.policies.later_lead`) scores a card as
``sum_i b_i * sum_j W[i, j] * x_j`` (card features ``b``, contexts ``x``); ``W`` is the least-squares
fit of the points on the products ``b_i x_j`` *within each decision* (every column centred on the
decision's mean, so that only differences between the cards of one lead are fitted; a ridge of
1e-7 of the mean diagonal keeps the equations solvable). Leading the highest score is the
policy-improvement step: it chooses, from what the leader can know, the card whose rollouts
under the plan score best on average.

A fifth of the deals (every fifth) is held out to measure the fit: the points a deal that the
model's leads gain over the plan's on those deals, one lead at a time against the same
continuation (the one-step gain); the weights are then refitted on all deals. The model is
regenerated when its inputs change (the features, the data's rollouts) and records the bidder
model its deals were bid with.

The continuation's second and third hands (in 400 also the fourth) take the trick or leave it by
the game's shipped take-or-leave model (the weights record which, ``follow_model``), so that the leads are valued as
the shipped player goes on after them; the take-or-leave model is then refitted on deals led by
the new weights (``t400 fit-follow``), the two fitted in turn as steps of one policy iteration.

With ``iterations`` above one the step is repeated (policy iteration): the next fit's deals are
played, and its leads valued, by the plan corrected by the previous fit's weights, so that each
step improves the player the last one made rather than the plan. The first step's weights are
those of a single step with the same deals.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import math
from collections.abc import Callable
from pathlib import Path

import numpy as np

from analyzer.core.errors import T400Error
from kernels.policies import later_lead as kll
from kernels.policies import lead_rollouts as kv


def weights_file(name: str) -> Path:
    """The path of the weights module ``name`` beside the later-lead kernel (each game names its own)."""
    return Path(kll.__file__).with_name(name)

SCALE = 1000  # weights are kept in thousandths of a point
BATCH = 1000  # deals per kernel call (the centred design of a batch takes about 300 MB)
RIDGE = 1e-7  # of the mean diagonal of the normal equations


def features_fingerprint() -> str:
    """A hash of what the model reads and what its data plays: the features
    (:func:`kernels.policies.later_lead.card_features`, :func:`~kernels.policies.later_lead.lead_contexts`
    and their names) and the kernel that values the leads (the shipped weights record it; a test
    flags them as stale when it changes). How the kernel adds the scores up is not part of it."""
    parts = [inspect.getsource(kll.card_features), inspect.getsource(kll.lead_contexts),
             repr(kll.CARD_FEATURES), repr(kll.CONTEXTS), inspect.getsource(kv)]  # fmt: skip
    return hashlib.sha256("".join(parts).encode()).hexdigest()[:16]


def _design(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(products b_i * x_j float[n, N_CARD * N_CONTEXT], points float[n], decision ids int[n])."""
    b = rows[:, kll.C_FEATURES : kll.C_FEATURES + kll.N_CARD].astype(float)
    x = rows[:, kll.C_CONTEXTS : kll.C_CONTEXTS + kll.N_CONTEXT].astype(float)
    design = (b[:, :, None] * x[:, None, :]).reshape(len(rows), -1)
    return design, rows[:, kll.C_POINTS].astype(float), rows[:, kll.C_DECISION]


def _centred(design: np.ndarray, y: np.ndarray, decisions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each column minus its mean over the rows of the same decision."""
    _, inv = np.unique(decisions, return_inverse=True)
    count = np.bincount(inv).astype(float)
    means = np.stack([np.bincount(inv, design[:, j]) for j in range(design.shape[1])], axis=1) / count[:, None]
    return design - means[inv], y - (np.bincount(inv, y) / count)[inv]


def _gains(rows: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, int]:
    """Per deal of ``rows``: the points the model's lead gains over the plan's, summed over the
    deal's decisions (float[deals]); and how many decisions the model changes."""
    design, y, decisions = _design(rows)
    score = design @ weights + 1e-9 * rows[:, kll.C_PLAN]  # the plan's card wins ties
    order = np.lexsort((-score, decisions))
    first = np.ones(len(order), dtype=bool)
    first[1:] = decisions[order][1:] != decisions[order][:-1]
    chosen = order[first]
    plan_rows = np.flatnonzero(rows[:, kll.C_PLAN] == 1)
    plan_points = dict(zip(decisions[plan_rows].tolist(), y[plan_rows].tolist()))
    gain = y[chosen] - np.array([plan_points[d] for d in decisions[chosen].tolist()])
    deals = decisions[chosen] // 16
    _, per_deal = np.unique(deals, return_inverse=True)
    return np.bincount(per_deal, gain), int((rows[chosen, kll.C_PLAN] == 0).sum())


def check_deals(deals: int) -> None:
    if deals < 100:
        raise T400Error(f"--deals {deals}: at least 100 deals are needed")


def fit_model(data: dict, team: bool, meta: dict, progress: Callable[[int, int], None] | None = None,
              iterations: int = 1) -> dict:
    """Value every later lead of ``data``'s deals and fit the weights, ``iterations`` steps of
    policy iteration (each continuing with the last step's model); returns what
    :func:`weights_source` writes, each step's held-out gain in the meta's ``steps``. ``data``:
    the arrays of :func:`kernels.policies.lead_rollouts.lead_values` by name (hands, bids,
    leaders, trumps, values, net); ``team``: a team contract's plan and points; ``meta``: what
    the weights record of how they were made (command, game, deals, seed, bidder model, the
    take-or-leave model the continuation plays).
    ``progress(done, total)`` counts the deals valued in all steps."""
    from analyzer.core.policies import numbers_fingerprint
    from kernels.policies.standard_follow import FOLLOW_WEIGHTS as STANDARD_FOLLOWS
    from kernels.policies.team import FOLLOW_WEIGHTS as TEAM_FOLLOWS

    check_iterations(iterations)
    meta = {**meta, "follow_model": numbers_fingerprint(TEAM_FOLLOWS if team else STANDARD_FOLLOWS)}
    steps: list[dict] = []
    weights = np.zeros(0)
    model: dict = {}
    n_deals = len(data["hands"])
    per_step = n_deals + len(range(4, n_deals, 5))  # the deals, then the held-out ones again
    for step in range(iterations):
        def step_progress(done, total, step=step):
            if progress:
                progress(step * per_step + done, iterations * per_step)

        model = _fit_step(data, team, meta, step_progress, weights)
        steps.append({k: model["meta"][k] for k in model["meta"] if k.startswith("held_out")})
        weights = kll.by_context(model["weights"])
    model["meta"] = {**model["meta"], "iterations": iterations, "steps": steps}
    return model


#: The most steps of policy iteration ``t400 fit-later-lead --iterations`` takes.
MAX_ITERATIONS = 5


def check_iterations(iterations: int) -> None:
    if not 1 <= iterations <= MAX_ITERATIONS:
        raise T400Error(f"--iterations {iterations}: expected 1 to {MAX_ITERATIONS}")


def with_iterations(meta: dict, iterations: int) -> dict:
    """``meta`` whose command says ``--iterations`` (when above one, the option's default)."""
    if iterations == 1:
        return meta
    return {**meta, "command": f"{meta['command']} --iterations {iterations}"}


def _fit_step(data: dict, team: bool, meta: dict, progress: Callable[[int, int], None] | None,
              weights: np.ndarray) -> dict:  # fmt: skip
    """One step of :func:`fit_model`, the deals played on by the plan corrected by ``weights``
    (float64, :func:`kernels.policies.later_lead.by_context`'s layout; empty: the plan).

    Memory stays flat in the number of deals: the rows are made and summed into the normal
    equations :data:`BATCH` deals at a time, and the held-out deals' rows are made again for
    the gain once the weights are known (a fifth more kernel time, none of the rows kept)."""
    n_weights = kll.N_CARD * kll.N_CONTEXT
    normal = {name: (np.zeros((n_weights, n_weights)), np.zeros(n_weights)) for name in ("fit", "all")}
    n_deals = len(data["hands"])
    held_deals = np.arange(4, n_deals, 5)  # every fifth deal
    total = n_deals + len(held_deals)
    for start in range(0, n_deals, BATCH):
        rows = _rows(data, team, np.arange(start, min(start + BATCH, n_deals)), weights)
        held = (rows[:, kll.C_DECISION] // 16) % 5 == 4
        for name, subset in (("fit", rows[~held]), ("all", rows)):
            design, y = _centred(*_design(subset))
            normal[name][0][...] += design.T @ design
            normal[name][1][...] += design.T @ y
        if progress:
            progress(min(start + BATCH, n_deals), total)

    def solve(name):
        xtx, xty = normal[name]
        ridge = RIDGE * np.trace(xtx) / len(xtx)
        return np.linalg.solve(xtx + ridge * np.eye(len(xtx)), xty)

    meta = {**meta, "features": features_fingerprint()}
    if len(held_deals):
        w = np.rint(solve("fit") * SCALE) / SCALE
        per_deal, changed, decisions = [], 0, 0
        for start in range(0, len(held_deals), BATCH):
            rows = _rows(data, team, held_deals[start : start + BATCH], weights)
            gains, n_changed = _gains(rows, w)
            per_deal.append(gains)
            changed += n_changed
            decisions += len(np.unique(rows[:, kll.C_DECISION]))
            if progress:
                progress(n_deals + min(start + BATCH, len(held_deals)), total)
        per_deal = np.concatenate(per_deal)
        n = len(per_deal)
        se = float(per_deal.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
        meta.update({
            "held_out_deals": n,
            "held_out_gain_per_deal": round(float(per_deal.mean()), 4),
            "held_out_gain_se": round(se, 4),
            "held_out_leads_changed": round(changed / decisions, 4),
        })  # fmt: skip
    return {"meta": meta, "weights": np.rint(solve("all") * SCALE).astype(np.int64)}


def _rows(data: dict, team: bool, deals: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The rows of the deals numbered ``deals`` (their decisions numbered ``16 * deal + trick``),
    played on by the plan's leads corrected by ``weights`` (empty: the plan's) and the game's
    take-or-leave model."""
    part = {k: np.ascontiguousarray(v[deals]) for k, v in data.items()}
    n = len(deals)
    rows = np.zeros((n * kll.ROWS_PER_DEAL, kll.N_COLUMNS), dtype=np.int64)
    counts = np.zeros(n, dtype=np.int64)
    kv.lead_values(team, True, part["hands"], part["bids"], part["leaders"], part["trumps"], part["values"],
                   part["net"], np.ascontiguousarray(weights, dtype=np.float64), rows, counts)  # fmt: skip
    keep = (np.arange(kll.ROWS_PER_DEAL)[None, :] < counts[:, None]).ravel()
    rows = rows[keep]
    # The kernel numbers a batch's deals from 0: renumber them as ``deals``.
    local = rows[:, kll.C_DECISION] // 16
    rows[:, kll.C_DECISION] += 16 * (deals[local] - local)
    return rows


def weights_source(model: dict, about: str) -> str:
    """The text of a game's weights module (:func:`weights_file`) for ``model``; ``about`` says
    whose leads they are (``400``, ``Tarneeb team contracts``)."""
    from analyzer.version import __version__

    meta = {**model["meta"], "version": __version__}
    w = model["weights"]
    n = kll.N_CONTEXT
    rows = "\n".join(
        "    " + ", ".join(str(int(v)) for v in w[i : i + n]) + ",  # " + kll.CARD_FEATURES[i // n]
        for i in range(0, len(w), n)
    )
    return (
        f'"""Generated by ``{meta["command"].split(" --deals")[0]}``: do not edit. The later-lead model of\n'
        f'{about} (kernels/policies/later_lead.py): weights in\n'
        'thousandths of a point, a row per card feature, a column per context."""\n\n'
        "import numpy as np\n\n"
        f"META = {json.dumps(meta, indent=4)}\n"
        f"WEIGHTS = np.array([\n{rows}\n], dtype=np.int64)\n"
    )
