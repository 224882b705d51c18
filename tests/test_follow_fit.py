"""``t400 fit-follow``, the same for both games' take-or-leave models: the weights module it writes
records how it was made, and the shipped weights gained on their held-out deals (the models
themselves: tests/test_standard_follow.py for 400, tests/test_team_follow.py for Tarneeb)."""

import importlib
import runpy

import pytest
from click.testing import CliRunner

from analyzer.games.t400.follow import MODEL as MODEL_400
from analyzer.games.tarneeb.follow import MODEL as MODEL_TARNEEB
from cli import cli
from kernels.policies import standard_follow, team_follow

#: game -> (its model, its kernel module, the weights module shipped, the side of a row's held-out record)
GAMES = {
    "400": (MODEL_400, standard_follow, "kernels.policies.standard_follow_weights", "short"),
    "tarneeb": (MODEL_TARNEEB, team_follow, "kernels.policies.team_follow_weights", "declaring"),
}


@pytest.mark.parametrize("game", GAMES)
def test_fit_follow_writes_a_weights_module_that_records_how_it_was_made(game, tmp_path):
    model, kernel, _, side = GAMES[game]
    out = tmp_path / "weights.py"
    args = ["fit-follow", "--game", game, "--deals", "300", "--seed", "3", "--out", str(out), "--json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    module = runpy.run_path(str(out))
    meta = module["META"]
    assert meta["command"] == f"t400 fit-follow --game {game} --deals 300 --seed 3"
    assert meta["features"] == model.features_fingerprint() and meta["lead_model"] == model.lead_model_fingerprint()
    assert meta["held_out_deals"] == 60  # every fifth deal
    assert module["WEIGHTS"].shape == (kernel.N_ROWS * kernel.N_WEIGHTS,)
    assert set(meta[f"held_out_{side}_ruff_second_hand"]) == {"decisions", "gain_per_deal", "changed", "model_takes"}


@pytest.mark.parametrize("game", GAMES)
def test_the_shipped_model_gained_on_held_out_deals(game):
    """The shipped weights record their last step's held-out gain for each side of a row (400: a
    mover still short of its bid and one whose bid is made; Tarneeb: declarers and defenders),
    above zero by more than three standard errors: the fit's own check that the model improves on
    the plan."""
    model, _, weights, _ = GAMES[game]
    meta = importlib.import_module(weights).META
    assert meta["held_out_deals"] >= 100_000
    for side in model.sides:
        assert meta[f"held_out_{side}_gain_per_deal"] > 3 * meta[f"held_out_{side}_gain_se"]
