"""The data of 400's later-lead model (``t400 fit-later-lead``): live deals as the benchmarks play
them (four EV bots bid under the default rules, dananeer, dead hands skipped; seat 1 leads,
hearts are trumps), each bid valued at a score of 0. The fit is :mod:`analyzer.core.later_lead`."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from analyzer.core import later_lead as fit
from kernels.t400 import rules as kt


def fit_model(deals: int, seed: int, progress: Callable[[int, int], None] | None = None,
              iterations: int = 1) -> dict:  # fmt: skip
    """Deal ``deals`` live deals from ``seed``, value their later leads and fit the weights
    (``iterations`` steps of policy iteration), the continuation's second, third and fourth hands
    choosing by ``standard``'s shipped take-or-leave model (recorded as ``follow_model``)."""
    fit.check_deals(deals)
    fit.check_iterations(iterations)
    data, meta = deals_data(deals, seed)
    return fit.fit_model(data, False, fit.with_iterations(meta, iterations), progress, iterations)


def deals_data(deals: int, seed: int) -> tuple[dict, dict]:
    """The deals' arrays for :func:`kernels.policies.lead_rollouts.lead_values` by name, and what
    the weights record of them."""
    from analyzer.core.policies import numbers_fingerprint
    from analyzer.games.t400 import simulate
    from analyzer.games.t400.bidder import load_model
    from analyzer.games.t400.lead import live_deals
    from analyzer.games.t400.rules import Variant

    variant = Variant.preset("dananeer")
    rules = variant.kernel_rules()
    hands, bids = live_deals(deals, seed, variant, simulate.bot_array(variant))
    n = len(hands)
    data = {
        "hands": hands,
        "bids": (bids.astype(np.int64) << (8 * np.arange(4))).sum(axis=1),
        "leaders": np.full(n, int(rules[kt.LEADER]), dtype=np.int64),
        "trumps": np.full(n, int(rules[kt.TRUMP]), dtype=np.int64),
        "values": np.array([[variant.bid_value(int(b), 0) for b in row] for row in bids], dtype=np.int64),
        "net": np.zeros((n, 14), dtype=np.int64),
    }
    meta = {"command": f"t400 fit-later-lead --deals {deals} --seed {seed}", "game": "400", "deals": deals,
            "seed": seed, "bidder_model": numbers_fingerprint(load_model().array)}  # fmt: skip
    return data, meta
