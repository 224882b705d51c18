"""Generated data stays in step with the code that generates it: the shipped bidder model and
reports/ record what they were made from, and these tests fail when that has changed since."""

import json
from pathlib import Path

import pytest

from analyzer.core.policies import play_fingerprint
from analyzer.games.t400.bidder import load_model
from analyzer.reports.build import data_fingerprints
from analyzer.reports.folder import MARKER

ROOT = Path(__file__).resolve().parents[1]


def test_shipped_bidder_model_was_fitted_on_todays_card_play():
    meta = load_model().meta
    assert meta.get("play_fingerprint") == play_fingerprint(), (
        "card play changed since the shipped bidder model was fitted: regenerate it with "
        f"`{meta['command']} --out analyzer/data/bidder_model.npz`"
    )


def test_reports_were_made_with_todays_play_and_bidder_model():
    marker = json.loads((ROOT / "reports" / MARKER).read_text())
    now = data_fingerprints()
    stale = [k for k, v in now.items() if marker.get(k) != v]
    assert not stale, f"reports/ is stale ({', '.join(stale)} changed): regenerate with `{marker['command']}`"


def test_tarneeb_report_was_made_with_todays_team_play_and_bidder_model():
    from analyzer.reports.tarneeb import data_fingerprints as tarneeb_inputs

    marker = json.loads((ROOT / "reports" / "tarneeb" / MARKER).read_text())
    stale = [k for k, v in tarneeb_inputs().items() if marker.get(k) != v]
    assert not stale, (
        f"reports/tarneeb/ is stale ({', '.join(stale)} changed): regenerate with `{marker['command']}`"
    )


def test_shipped_match_equity_tables_were_built_with_todays_play_and_bidder_model():
    from analyzer.games.t400.equity import table_for
    from analyzer.games.t400.equity_build import data_fingerprints as equity_inputs

    now = equity_inputs()
    for name in ("dananeer", "qahwa", "syrian41"):
        meta = table_for(name).meta
        stale = [k for k, v in now.items() if meta.get(k) != v]
        assert not stale, (
            f"the {name} match-equity table is stale ({', '.join(stale)} changed): regenerate it with `{meta['command']}`"
        )


def test_play_fingerprint_hashes_what_each_policy_does():
    from analyzer.core.policies import FINGERPRINTED

    alone = {name: play_fingerprint((name,)) for name in ("greedy", "standard", "basic", "team")}
    assert len(set(alone.values())) == 4, "policies that play differently hash differently"
    assert (
        play_fingerprint()
        == play_fingerprint(FINGERPRINTED)
        != play_fingerprint(("standard", "greedy", "basic"))
    )
    assert "team" not in FINGERPRINTED  # Tarneeb's policy is not part of the 400 data's inputs


def test_shipped_tarneeb_bidder_model_was_fitted_on_todays_team_play():
    from analyzer.games.tarneeb.bidders import MODEL_POLICIES
    from analyzer.games.tarneeb.bidders import load_model as load_tarneeb_model

    meta = load_tarneeb_model().meta
    assert meta.get("play_fingerprint") == play_fingerprint(MODEL_POLICIES), (
        "team play changed since the shipped Tarneeb bidder model was fitted: regenerate it with "
        f"`{meta['command']}`"
    )


def test_shipped_lead_model_reads_todays_features():
    from analyzer.games.t400.lead import features_fingerprint
    from kernels.policies.lead_weights import META

    assert META.get("features") == features_fingerprint(), (
        "kernels/policies/lead.py changed since the opening-lead model was fitted: regenerate it with "
        f"`{META['command']}`"
    )


@pytest.mark.parametrize("module", ["later_lead_weights", "team_lead_weights"])
def test_shipped_later_lead_models_read_todays_features_and_plan(module):
    import importlib

    from analyzer.core.later_lead import features_fingerprint

    meta = importlib.import_module(f"kernels.policies.{module}").META
    assert meta.get("features") == features_fingerprint(), (
        "kernels/policies/later_lead.py or kernels/policies/lead_rollouts.py changed since the later-lead "
        f"model was fitted: regenerate it with `{meta['command']}`"
    )


def test_shipped_reports_hold_what_t400_report_wrote():
    """The index of each shipped report lists every file with the hash of what the report wrote,
    so a new run recognises them as its own (and a hand edit shows here)."""
    from analyzer.reports.folder import owned_files, user_files

    for folder in (ROOT / "reports", ROOT / "reports" / "tarneeb"):
        listed = set(json.loads((folder / MARKER).read_text())["files"])
        assert owned_files(folder) == listed, f"{folder}: files changed since t400 report wrote them"
        assert user_files(folder) == [], f"{folder}: files that t400 report did not write"


@pytest.mark.parametrize("game", ["tarneeb", "t400"])
def test_shipped_take_or_leave_models_read_todays_features_and_data(game):
    import importlib

    model = importlib.import_module(f"analyzer.games.{game}.follow").MODEL
    meta = importlib.import_module(f"kernels.policies.{model.file_name[:-3]}").META
    assert meta.get("features") == model.features_fingerprint(), (
        f"kernels/policies/{model.kernel.__name__.split('.')[-1]}.py or kernels/policies/follow_rollouts.py "
        f"changed since the take-or-leave model was fitted: regenerate it with `{meta['command']}`"
    )


@pytest.mark.parametrize("game", ["tarneeb", "t400"])
def test_take_or_leave_models_were_fitted_with_todays_later_leads(game):
    """The take-or-leave data is played by the game's player, whose later leads are the game's
    later-lead model: refitting that model makes the take-or-leave weights stale. (The later-lead
    data plays on with the take-or-leave model it records; the later leads are fitted first, then
    the take-or-leave model on them, docs/development.md.)"""
    import importlib

    model = importlib.import_module(f"analyzer.games.{game}.follow").MODEL
    meta = importlib.import_module(f"kernels.policies.{model.file_name[:-3]}").META
    assert meta.get("lead_model") == model.lead_model_fingerprint(), (
        f"{model.game}'s later-lead model changed since the take-or-leave model was fitted: regenerate it with "
        f"`{meta['command']}`"
    )
