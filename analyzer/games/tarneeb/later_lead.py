"""The data of Tarneeb's later-lead model (``t400 fit-later-lead --game tarneeb``): classic
Tarneeb's contracts as the benchmark plays them (random deals, four EV bots bid with the shipped
Tarneeb bidder model, passed-out deals skipped; the declarer leads), each valued by the
contract's points (the declaring side's minus the defenders' by its tricks). The fit is
:mod:`analyzer.core.later_lead`."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from analyzer.core import later_lead as fit
from kernels.core.kit import Kit
from kernels.policies import play as kp
from kernels.tarneeb import hand as kh
from kernels.tarneeb import rules as kr


def fit_model(deals: int, seed: int, progress: Callable[[int, int], None] | None = None,
              iterations: int = 1) -> dict:  # fmt: skip
    """Deal until ``deals`` contracts are played from ``seed``, value their later leads and fit
    (``iterations`` steps of policy iteration), the continuation's second and third hands choosing
    by ``team``'s shipped take-or-leave model (recorded as ``follow_model``)."""
    fit.check_deals(deals)
    fit.check_iterations(iterations)
    data, meta = deals_data(deals, seed)
    return fit.fit_model(data, True, fit.with_iterations(meta, iterations), progress, iterations)


def deals_data(deals: int, seed: int) -> tuple[dict, dict]:
    """The contracts' arrays for :func:`kernels.policies.lead_rollouts.lead_values` by name, and
    what the weights record of them."""
    from analyzer.core.dealing import deal_hands
    from analyzer.core.policies import numbers_fingerprint
    from analyzer.games.tarneeb.bidders import load_model
    from analyzer.games.tarneeb.rules import TarneebVariant

    rules = TarneebVariant.preset("tarneeb").kernel_rules()
    model = load_model().array
    hands, outcomes, batch = [], [], 0
    while sum(len(h) for h in hands) < deals:
        dealt = deal_hands(max(deals, 1000), seed=seed * 1000 + batch)
        out = np.zeros((len(dealt), kh.R_SIZE), dtype=np.int64)
        kh.hands_outcomes(rules, dealt, np.full(4, kh.EV), np.full(4, kp.TEAM), Kit(kp.TEAM), out, model)
        played = out[:, kh.R_REDEAL] == kh.PLAYED
        hands.append(dealt[played])
        outcomes.append(out[played])
        batch += 1
    hands, res = np.concatenate(hands)[:deals], np.concatenate(outcomes)[:deals]
    levels = [kr.level_of(int(c)) for c in res[:, kh.R_CONTRACT]]
    data = {
        "hands": hands,
        "bids": np.array([kh.team_bids(rules, int(r[kh.R_CONTRACT]), int(r[kh.R_DECLARER])) for r in res],
                         dtype=np.int64),  # fmt: skip
        "leaders": res[:, kh.R_DECLARER].astype(np.int64),
        "trumps": res[:, kh.R_TRUMP].astype(np.int64),
        "values": np.zeros((deals, 4), dtype=np.int64),
        "net": np.array([[kr.net_points(rules, lv, t, bool(r[kh.R_DOUBLED])) for t in range(14)]
                         for lv, r in zip(levels, res)], dtype=np.int64),  # fmt: skip
    }
    meta = {"command": f"t400 fit-later-lead --game tarneeb --deals {deals} --seed {seed}", "game": "tarneeb",
            "deals": deals, "seed": seed, "tarneeb_bidder_model": numbers_fingerprint(model)}  # fmt: skip
    return data, meta
