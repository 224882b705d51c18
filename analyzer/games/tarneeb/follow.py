"""Tarneeb's take-or-leave model (``t400 fit-follow --game tarneeb``): ``team``'s second and
third hands in classic Tarneeb's contracts (:mod:`kernels.policies.team_follow`), fitted by
:mod:`analyzer.core.follow` on the later-lead fit's contracts."""

from __future__ import annotations

from analyzer.core.follow import FollowModel, fit_game
from kernels.policies import team_follow

MODEL = FollowModel(
    game="tarneeb", team=True, kernel=team_follow, file_name="team_follow_weights.py",
    sides=("declaring", "defending"), side_labels=("declaring side", "defenders"),
    about="Tarneeb team contracts", lead_weights="kernels.policies.team_lead_weights",
)  # fmt: skip


def fit_model(deals, seed, progress=None, iterations=1):
    """(model, default path, weights module's text) of ``t400 fit-follow --game tarneeb``."""
    from analyzer.games.tarneeb.later_lead import deals_data

    return fit_game(MODEL, deals_data, deals, seed, progress, iterations)
