"""`t400 score --game tarneeb` and `t400 rules --game tarneeb` through click's CliRunner."""

import json

import pytest
from conftest import run


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


# -- whole matches: simulate, variants, duel ---------------------------------------------------


def test_simulate_tarneeb_json_and_files(tmp_path):
    per_match, hands = tmp_path / "m.csv", tmp_path / "h.csv"
    r = run("simulate", "--game", "tarneeb", "--matches", "300", "--seed", "2", "--json",
            "--per-match", str(per_match), "--hands", str(hands))  # fmt: skip
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["game"] == "tarneeb" and data["variant"] == "tarneeb" and data["matches"] == 300
    assert data["bidders"] == ["counting"] * 4 and data["policies"] == ["team"] * 4
    m = data["metrics"]
    assert 0.5 < m["make rate"]["value"] < 1 and m["make rate"]["se"] > 0
    assert 7 <= m["mean contract"]["value"] <= 13
    assert abs(sum(data["contract_distribution"].values()) - 1) < 1e-9
    assert (
        data["first_team_win"]["ci95"][0] < data["first_team_win"]["rate"] < data["first_team_win"]["ci95"][1]
    )
    import pandas as pd

    matches, deals = pd.read_csv(per_match), pd.read_csv(hands)
    assert len(matches) == 300 and set(matches["winner"]) <= {"1+3", "2+4", "draw"}
    assert len(deals) == (matches["hands"] + matches["redeals_passed"] + matches["redeals_worthless"]).sum()
    played = deals[deals["redeal"].isna()]
    assert (played[["tricks1", "tricks2", "tricks3", "tricks4"]].sum(axis=1) == 13).all()
    assert played["trump"].isin(["S", "H", "D", "C"]).all() and played["contract"].between(7, 13).all()
    # the same seed gives the same matches with one thread
    again = run(
        "simulate", "--game", "tarneeb", "--matches", "300", "--seed", "2", "--json", "--threads", "1"
    )
    timings = ("elapsed_s", "compile_s")
    assert {k: v for k, v in json.loads(again.stdout).items() if k not in timings} == {
        k: v for k, v in data.items() if k not in timings
    }


def test_simulate_tarneeb_table_names_the_game():
    r = run("simulate", "--variant", "egyptian", "--matches", "200", "--worthless-redeal")
    assert r.exit_code == 0, r.output
    assert "Tarneeb variant egyptian worthless-redeal=True: strain auction, target 41" in r.stdout
    assert "re-deal: worthless hand" in r.stdout and "contract" in r.stdout


def test_variants_tarneeb_compares_on_the_same_deals(tmp_path):
    csv = tmp_path / "v.csv"
    r = run("variants", "tarneeb", "tarneeb:all-pass=forced", "tarneeb:one-bid-each=yes,target=41", "--matches",
            "400", "--csv", str(csv), "--json")  # fmt: skip
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["game"] == "tarneeb"
    assert data["variants"] == ["tarneeb", "tarneeb all-pass=forced", "tarneeb target=41 one-bid-each=True"]
    rows = {(c["metric"], c["variant"]): c for c in data["comparison"]}
    assert rows[("re-deal: all passed", "tarneeb all-pass=forced")]["value"] == 0
    assert rows[("dealer forced to bid", "tarneeb all-pass=forced")]["value"] > 0
    assert rows[("hands per match", "tarneeb target=41 one-bid-each=True")]["diff"] > 0
    assert csv.exists()


def test_duel_tarneeb_ev_bidder_beats_the_counting_bidder():
    """A duel of bidders (one player at every seat: the kernel that `t400 compile` makes for
    Tarneeb's simulate); docs/tarneeb.md measures 67.2% on 50,000 pairs."""
    r = run("duel", "--game", "tarneeb", "--a", "ev/team", "--b", "counting/team", "--matches", "300", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["a"] == "ev/team" and data["b"] == "counting/team" and data["game"] == "tarneeb"
    assert data["ci95"][0] > 0.5 and data["margin_per_hand"] > 0


@pytest.mark.slow  # two players in one kernel compile every Tarneeb player (half a minute)
def test_duel_tarneeb_team_play_beats_greedy():
    r = run("duel", "--game", "tarneeb", "--matches", "1000", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["a"] == "counting/team" and data["b"] == "counting/greedy" and data["game"] == "tarneeb"
    assert data["ci95"][0] > 0.5 and data["margin_per_hand"] > 0


@pytest.mark.parametrize(
    "args, message",
    [
        (["variants", "tarneeb", "dananeer"], "must all be of one game"),
        (["variants", "--game", "tarneeb", "dananeer"], "not a Tarneeb preset"),
        (["variants", "tarneeb:kaboot=yes"], "unknown switch 'kaboot'"),
        (["variants", "--game", "400", "egyptian"], "not a 400 preset"),
        (["simulate", "--game", "tarneeb", "--bidder", "win"], "unknown Tarneeb bidder 'win'"),
        (["simulate", "--game", "tarneeb", "--policy", "clever"], "unknown play policy 'clever'"),
        (["simulate", "--game", "tarneeb", "--table-min", "12"], "--table-min is a switch of 400"),
        (["duel", "--game", "tarneeb", "--a", "counting/x"], "unknown play policy 'x'"),
        (
            ["simulate", "--variant", "dananeer", "--trump-lead"],
            "--trump-lead is a switch of classic Tarneeb",
        ),
    ],
)
def test_tarneeb_match_commands_bad_input(args, message):
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("Error: ") and message in r.stderr and len(r.stderr.strip().splitlines()) == 1
