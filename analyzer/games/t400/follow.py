"""400's take-or-leave model (``t400 fit-follow --game 400``): ``standard``'s second, third and
fourth hands (:mod:`kernels.policies.standard_follow`), fitted by :mod:`analyzer.core.follow` on
the later-lead fit's live deals."""

from __future__ import annotations

from analyzer.core.follow import FollowModel, fit_game
from kernels.policies import standard_follow

MODEL = FollowModel(
    game="400", team=False, kernel=standard_follow, file_name="standard_follow_weights.py",
    sides=("short", "made"), side_labels=("short of its bid", "bid made"),
    about="400's standard", lead_weights="kernels.policies.later_lead_weights",
)  # fmt: skip


def fit_model(deals, seed, progress=None, iterations=1):
    """(model, default path, weights module's text) of ``t400 fit-follow --game 400``."""
    from analyzer.games.t400.later_lead import deals_data

    return fit_game(MODEL, deals_data, deals, seed, progress, iterations)
