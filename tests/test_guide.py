"""The bidding guide's kernel against a plain-Python reference, and its grouping arithmetic."""

import numpy as np
import pandas as pd
import pytest

from analyzer.core.notation import Hand
from analyzer.games.t400 import guide as gd
from analyzer.games.t400.rules import as_variant
from kernels.t400 import guide as kg
from naive import seat_outcomes_reference


@pytest.mark.parametrize("seat,bracket", [(1, "<=29"), (3, "<=29"), (4, ">=30")])
def test_kernel_agrees_with_the_reference(seat, bracket):
    variant = as_variant("dananeer")
    _, own, others = next(b for b in gd.BRACKETS if b[0] == bracket)
    scores = [others] * 4
    scores[seat - 1] = own
    task = gd._SeatTask(7, seat - 1, np.array(scores, dtype=np.int64), variant)
    hands, prior, tricks = task((0, 1))
    for k in range(0, len(prior), 16):  # 64 of the chunk's 1,024 deals
        deal = [Hand(int(h)) for h in hands[k]]
        total, outcomes = seat_outcomes_reference(variant, deal, seat, scores, list(gd.CANDIDATES))
        assert total == prior[k]
        assert outcomes == tricks[k].tolist(), k


def test_cell_table_matches_a_direct_computation():
    data = gd.simulate_seat(2, "<=29", 3000, seed=4)
    table = gd.cell_table(data, ["hearts"], min_cell=1)
    for row in table.itertuples():
        rows = (data.features["hearts"] == row.hearts).to_numpy()
        means = data.points[rows].mean(axis=0)
        assert row.deals == rows.sum()
        assert row.best_bid == gd.CANDIDATES[np.nanargmax(means)]
        assert row.best_ev == pytest.approx(np.nanmax(means))
        assert row.ev_2 == pytest.approx(means[0])
    assert table["deals"].sum() == data.deals == 3072
    assert (data.tricks[:, 0] == kg.ILLEGAL).sum() == 0  # every bid is legal at score 0


def test_policy_value_is_cross_fitted_and_paired():
    """Best bids chosen on one half of the deals are scored on the other half. Candidate 0 pays
    on the even deals and candidate 1 on the odd ones: chosen on the same deals either would
    score 5 a hand; cross-fitted, each is scored where it pays nothing."""
    n = 1000
    points = np.zeros((n, 2))
    points[0::2, 0] = 10.0
    points[1::2, 1] = 10.0
    features = pd.DataFrame({"hearts": np.zeros(n, dtype=np.int64)})
    data = gd.SeatData(1, "<=29", 0, features, np.zeros((n, 2), dtype=np.int8), points, np.array([2, 3]))
    value, se, per_deal, chosen = gd.policy_value(data, ["hearts"])
    assert value == 0.0 and se == 0.0
    assert (chosen[1::2] == 0).all() and (chosen[0::2] == 1).all()
    real = gd.simulate_seat(4, "<=29", 4000, seed=2)
    value, se, per_deal, chosen = gd.policy_value(real, ["hearts"])
    assert value == pytest.approx(per_deal.mean()) and se > 0
    assert np.allclose(per_deal, real.points[np.arange(real.deals), chosen])
