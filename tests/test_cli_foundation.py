"""`t400 --version`, `-h`, `t400 rules` and `t400 score` through click's CliRunner."""

import json

import pytest
from click.testing import CliRunner

import analyzer
from cli import cli


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(cli, list(args))

    return invoke


def assert_one_line_error(result, *fragments):
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    assert "Traceback" not in result.output
    assert result.stdout == ""
    for fragment in fragments:
        assert fragment in lines[0]


def test_version_and_help(run):
    r = run("--version")
    assert r.exit_code == 0 and analyzer.__version__ in r.stdout
    r = run("-h")
    assert r.exit_code == 0 and "rules" in r.stdout and "score" in r.stdout
    r = run("score", "-h")
    assert r.exit_code == 0 and "--tricks" in r.stdout and "--tie-break" in r.stdout


def test_rules_human_table(run):
    r = run("rules")
    assert r.exit_code == 0
    assert "own score <= 29  2  3  4  10  12  14  16  27  40  40  40  40" in r.stdout
    assert "table minimum (highest score)     11     12     13     14" in r.stdout


@pytest.mark.parametrize("preset", ["dananeer", "qahwa", "syrian41"])
def test_rules_json_for_every_preset(run, preset):
    r = run("rules", preset, "--json")
    assert r.exit_code == 0
    info = json.loads(r.stdout)
    assert info["variant"] == preset
    assert set(info["value_table"]) == {"own score <= 29", "own score >= 30"}


def test_rules_switches(run):
    r = run("rules", "qahwa", "--target", "31", "--table-min", "13", "--fixed-table-min",
            "--score-table", "classic", "--json")  # fmt: skip
    info = json.loads(r.stdout)
    assert info["match"]["target"] == 31
    assert info["table_min"] == {"<= 29": 13, "30-39": 13, "40-49": 13, ">= 50": 13}
    assert info["value_table"]["own score <= 29"]["11"] == 33
    assert "outright" in info["match"]
    r = run("rules", "--variant", "syrian41", "--rising-min-bid", "--json")
    assert json.loads(r.stdout)["min_bid"][">= 50"] == 5


def test_score_json_of_the_round_that_ends_a_match_on_the_leading_score(run):
    r = run("score", "--variant", "dananeer", "--scores", "38,38,5,5", "--bids", "3,4,3,2",
            "--tricks", "3,4,3,3", "--json")  # fmt: skip
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["scores"] == [41, 42, 8, 7]
    assert data["dead"] is False
    assert data["winner"] == [2, 4]


def test_score_human_and_dead_hand(run):
    r = run("score", "--bids", "2,2,3,3")
    assert r.exit_code == 0
    assert "Dead hand: bids total 10, under the table minimum of 11; the same dealer re-deals." in r.stdout
    r = run("score", "--variant", "qahwa", "--bids", "2,2,3,3", "--json")
    data = json.loads(r.stdout)
    assert data["dead"] is True and data["winner"] is None and data["dealer_advances"] is True


def test_score_no_winner_is_null(run):
    r = run("score", "--bids", "3,3,3,3", "--tricks", "4,3,3,3", "--json")
    assert json.loads(r.stdout)["winner"] is None


@pytest.mark.parametrize(
    "args, fragments",
    [
        (
            ["--scores", "0,35,0,0", "--bids", "3,2,3,3", "--tricks", "4,3,3,3"],
            ["seat 2 bid 2 is below its minimum of 3"],
        ),
        (["--bids", "14,3,3,3", "--tricks", "4,3,3,3"], ["seat 1 bid 14", "from 2 to 13"]),
        (["--bids", "1,3,3,3", "--tricks", "4,3,3,3"], ["seat 1 bid 1"]),
        (["--bids", "3,3,3,3", "--tricks", "4,3,3,2"], ["add up to 12, not 13"]),
        (["--bids", "3,3,3", "--tricks", "4,3,3,3"], ["--bids: expected 4 values", "got 3"]),
        (["--scores", "1,2,3", "--bids", "3,3,3,3", "--tricks", "4,3,3,3"], ["--scores: expected 4 values"]),
        (["--bids", "3,3,3,3", "--tricks", "4,3,3,3,0"], ["--tricks: expected 4 values"]),
        (["--bids", "3,x,3,3", "--tricks", "4,3,3,3"], ["'x' is not a whole number"]),
        (["--variant", "poker", "--bids", "3,3,3,3", "--tricks", "4,3,3,3"], ["unknown variant 'poker'"]),
        (["--bids", "3,3,3,3"], ["the tricks are needed"]),
        (["--bids", "3,3,3,3", "--tricks", "4,3,3,3", "--score-table", "x"], ["--score-table"]),
        (["--bids", "3,3,3,3", "--tricks", "4,3,3,3", "--target", "0"], ["target 0"]),
    ],
)
def test_score_bad_input_is_one_line_and_exit_2(run, args, fragments):
    assert_one_line_error(run("score", *args), *fragments)


def test_rules_bad_input(run):
    assert_one_line_error(run("rules", "nonesuch"), "unknown variant 'nonesuch'")
    assert_one_line_error(run("rules", "qahwa", "--variant", "dananeer"), "two variants given")
    assert_one_line_error(run("rules", "--nope"), "No such option")
