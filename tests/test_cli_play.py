"""`t400 play`: a deal bid and played out card by card, through click's CliRunner."""

import json

import pytest
from conftest import run

import naive
from analyzer.core.notation import Card, parse_deal
from analyzer.games.t400.rules import Variant

DEAL = "A.AKQJT98.KQ3.72 QT9.52.J82.AK863 K8432.643.T4.Q95 J765.7.A9765.JT4"
DEAL2 = "AKQ5.KJ4.T93.862 JT98.AQ.AK7.QJ95 7643.T9875.Q5.A4 2.632.J8642.KT73"


def test_play_json_is_a_legal_hand_with_its_scores():
    r = run("play", DEAL, "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["bids_by"] == "ev bots" and len(data["bids"]) == 4 and not data["dead"]
    assert len(data["cards"]) == 52 and all(len(c) == 2 and c[0] in "SHDC" for c in data["cards"])
    deal = parse_deal(DEAL)
    hands = [naive.cards_of(h.bits) for h in deal.hands]
    sequence = [Card.parse(c).index for c in data["cards"]]
    tricks, movers = naive.replay(hands, sequence, leader=0)
    assert data["tricks"] == tricks and sum(tricks) == 13
    assert data["winners"].count(1) == tricks[0] and data["leaders"][0] == 1
    v = Variant.preset("dananeer")
    for seat in range(4):
        b, t = data["bids"][seat], data["tricks"][seat]
        assert data["made"][seat] == (t >= b)
        assert data["points"][seat] == v.score_change(b, t, 0)


def test_play_table_shows_every_trick_and_who_won_it():
    r = run("play", DEAL, "--bids", "9,2,2,2", "--policy", "basic")
    assert r.exit_code == 0, r.output
    assert "Bids: 9, 2, 2, 2 (given); play: basic" in r.stdout
    assert r.stdout.count("\n13 ") == 1 and "won by" in r.stdout and "*♥A" in r.stdout


def test_a_dead_hand_is_not_played():
    r = run("play", DEAL, "--bids", "2,2,2,2", "--json")
    data = json.loads(r.stdout)
    assert data["dead"] and data["cards"] == [] and data["tricks"] == [0, 0, 0, 0]
    assert "Dead hand" in run("play", DEAL, "--bids", "2,2,2,2").stdout


def test_play_batch_from_stdin_is_a_list_naming_lines():
    r = run("play", "--file", "-", "--json", "--policy", "standard,greedy,standard,greedy",
            input=f"# two deals\n{DEAL}\n\n{DEAL2}\n")  # fmt: skip
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert [d["line"] for d in data] == [2, 4]
    assert data[1]["policy"] == ["standard", "greedy", "standard", "greedy"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["play", "AKQ.KJ4.T93.862 JT98.AQ.AK7.QJ95 7643.T9875.Q5.A4 2.632.J8642.KT73"], "Error: "),
        (["play", "AKQ5.KJ4.T93.862 JT98.AQ.AK7.QJ95 7643.T9875.Q5.A4"], "4 hands"),
        (["play", "AKQ5.KJ4.T93.86X JT98.AQ.AK7.QJ95 7643.T9875.Q5.A4 2.632.J8642.KT73"], "Error: "),
        (["play", DEAL, "--bids", "1,2,2,2"], "bid 1 of seat 1"),
        (["play", DEAL, "--bids", "14,2,2,2"], "expected a whole number 2..13"),
        (["play", DEAL, "--bids", "3,3,3"], "expected 4 values"),
        (["play", DEAL, "--policy", "psychic"], "unknown play policy"),
        (["play"], "give one DEAL"),
        (["play", "A.-.-.- -.A.-.- -.-.A.- -.-.-.A"], "13 cards a player"),
    ],
)
def test_play_bad_input_is_one_line_and_exit_2(args, message):
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert message in r.output and r.output.count("\n") == 1 and r.output.startswith("Error: ")
