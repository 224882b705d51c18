"""`t400 score --game tarneeb` and `t400 rules --game tarneeb` through click's CliRunner."""

import json

import pytest
from click.testing import CliRunner

from cli import cli


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_score_json_has_the_documented_fields():
    r = run("score", "--game", "tarneeb", "--variant", "tarneeb", "--scores", "0,0", "--declarer", "2",
            "--bid", "9", "--tricks", "10", "--json")  # fmt: skip
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["scores"] == [0, 10] and data["deltas"] == [0, 10]
    assert data["made"] is True and data["kaboot"] is False
    assert data["winner"] is None and data["draw"] is False and data["variant"] == "tarneeb"


def test_score_table_and_winner():
    r = run("score", "--variant", "tarneeb-dananeer", "--scores", "25,3", "--declarer", "3", "--bid", "7",
            "--tricks", "13")  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "Kaboot" in r.stdout and "Winner: seats 1 and 3" in r.stdout
    r = run("score", "--variant", "egyptian", "--declarer", "1", "--bid", "8", "--tricks", "9", "--trump", "NT",
            "--doubled", "--json")  # fmt: skip
    assert json.loads(r.stdout)["deltas"] == [18, 0]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--declarer", "1", "--bid", "8", "--tricks", "14"], "tricks 14: the declaring team takes 0 to 13"),
        (["--declarer", "1", "--bid", "6", "--tricks", "6"], "bid 6: a Tarneeb bid is 7 to 13"),
        (["--declarer", "1", "--bid", "8", "--tricks", "8", "--doubled"], "there is no doubling in tarneeb"),
        (["--declarer", "5", "--bid", "8", "--tricks", "8"], "declarer 5: expected a seat 1..4"),
        (["--bid", "8", "--tricks", "8"], "--declarer required"),
        (["--declarer", "1", "--bid", "8", "--tricks", "8", "--trump", "NT", "--variant", "tarneeb-dananeer"],
         "no-trump is not allowed"),
        (["--declarer", "1", "--bid", "8", "--tricks", "8", "--scores", "1,2,3"], "--scores: expected 2 values"),
        (["--declarer", "1", "--bid", "8", "--tricks", "8", "--table-min", "12"], "--table-min is a switch of 400"),
        (["--declarer", "1", "--bid", "8", "--tricks", "8", "--variant", "qahwa"], "a 400 variant"),
        (["--declarer", "1", "--bid", "8", "--tricks", "8", "--variant", "egyptian"], "name their strain"),
    ],
)  # fmt: skip
def test_bad_tarneeb_input_is_one_error_line(args, message):
    r = run("score", "--game", "tarneeb", *args)
    assert r.exit_code == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], r.stderr


def test_tarneeb_switches_are_refused_in_400_and_400_needs_bids():
    r = run("score", "--bids", "3,4,3,2", "--tricks", "3,4,3,3", "--trump-lead")
    assert r.exit_code == 2 and "--trump-lead is a switch of classic Tarneeb" in r.stderr
    r = run("score", "--tricks", "3,4,3,3")
    assert r.exit_code == 2 and "--bids is required" in r.stderr
    r = run("score", "--bids", "3,4,3,2", "--tricks", "3,4,3,3", "--declarer", "2")
    assert r.exit_code == 2 and "--declarer is for a Tarneeb hand" in r.stderr


def test_rules_json_prints_every_decided_point():
    r = run("rules", "--game", "tarneeb", "--json")
    data = json.loads(r.stdout)
    assert data["variant"] == "tarneeb" and data["game"] == "tarneeb"
    assert data["open_points"] and "forced-bid" in data["open_points"]
    r = run(
        "rules",
        "tarneeb",
        "--one-bid-each",
        "--forced-dealer-bid",
        "--trump-lead",
        "--target",
        "41",
        "--json",
    )
    switches = json.loads(r.stdout)["switches"]
    assert switches["one_bid_each"] and switches["all_pass"] == "forced" and switches["trump_lead"]
    assert switches["target"] == 41
    assert "must lead a trump" in json.loads(r.stdout)["play"]


def test_rules_table_for_each_preset():
    for preset in ("tarneeb-dananeer", "tarneeb", "egyptian"):
        r = run("rules", preset)
        assert r.exit_code == 0 and f"Variant: {preset}" in r.stdout and "Scoring:" in r.stdout
