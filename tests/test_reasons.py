"""The reasons under a recommendation: the bid points agree with the bid table (computed here
again from its expected points, values and P(dead)), the recommended bid sits on the right side
of them, every message exists in both languages with the same parameters, and the CLI prints
the reasons under its table."""

import json
import re
import string

import pytest
from conftest import run

from analyzer.core.messages import messages

HAND = "AKQ5.KJ4.T93.862"


def bid_json(*args):
    r = run("bid", *args, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


@pytest.mark.parametrize("args", [(HAND, "--samples", "8000"), ("A5.AKQ73.KQ4.J82", "--samples", "8000"),
                                  (HAND, "--seat", "4", "--bids", "3,3,2", "--samples", "8000")])  # fmt: skip
def test_bid_points_are_where_neighbouring_bids_pay_the_same(args):
    a = bid_json(*args, "--objective", "points")
    rows = {b["bid"]: b for b in a["bids"]}
    assert [(p["lower"], p["higher"]) for p in a["bid_points"]] == list(zip(sorted(rows), sorted(rows)[1:]))
    for p in a["bid_points"]:
        lower, higher = rows[p["lower"]], rows[p["higher"]]
        if higher["p_dead"] >= 1:
            assert p["break_even"] is None
            continue
        # EV(higher) = (1 - P(dead)) * value * (2 P(make) - 1) equals EV(lower) at the bid point
        exact = (lower["ev"] / ((1 - higher["p_dead"]) * higher["value"]) + 1) / 2
        assert p["break_even"] == pytest.approx(min(max(exact, 0), 1), abs=1e-4)
        if 0 < exact < 1:
            at = (1 - higher["p_dead"]) * higher["value"] * (2 * p["break_even"] - 1)
            assert at == pytest.approx(lower["ev"], abs=1e-3)
    best = a["recommended"]
    for p in a["bid_points"]:
        if p["break_even"] is None or p["higher"] in a["killing_bids"] or p["lower"] in a["killing_bids"]:
            continue
        if p["higher"] == best:  # the recommended bid pays more than the one below it
            assert rows[best]["p_make"] >= p["break_even"] - 1e-4
        if p["lower"] == best:  # and the one above it pays less
            assert rows[p["higher"]]["p_make"] <= p["break_even"] + 1e-4


def test_the_reasons_say_the_bid_points_in_words_and_the_cli_prints_them():
    a = bid_json(HAND, "--samples", "8000")
    keys = [r["key"] for r in a["reasons"]]
    assert keys == ["reason.bid_over_lower", "reason.bid_over_higher"]
    low = next(p for p in a["bid_points"] if p["higher"] == a["recommended"])
    assert f"at least {100 * low['break_even']:.0f}%" in a["reasons"][0]["text"]
    r = run("bid", HAND, "--samples", "8000")
    assert [line[5:] for line in r.stdout.splitlines() if line.startswith("Why: ")] == [x["text"] for x in a["reasons"]]


def test_with_the_match_at_stake_the_reason_weighs_points_against_the_match():
    a = bid_json("A5.AKQ73.KQ4.J82", "--scores", "38,0,35,0", "--samples", "8000")
    assert a["objective"] == "win"
    assert a["reasons"][0]["key"] in ("reason.win_not_points", "reason.win_and_points")
    assert str(a["recommended"]) in a["reasons"][0]["text"]


def test_a_dealer_who_must_keep_the_hand_alive_is_told_so():
    a = bid_json("T98.65432.987.62", "--seat", "4", "--bids", "2,2,2", "--samples", "4000", "--objective", "points")
    keys = [r["key"] for r in a["reasons"]]
    assert "reason.keep_alive" in keys or "reason.kill" in keys


def test_tarneeb_calls_have_their_reason():
    r = run("bid", "--game", "tarneeb", HAND, "--samples", "2048", "--json")
    a = json.loads(r.stdout)
    assert len(a["reasons"]) == 1
    assert a["reasons"][0]["key"] == ("reason.call_pass" if a["recommended"] == "pass" else "reason.call_bid")


def test_every_message_exists_in_both_languages_with_the_same_parameters():
    catalogue = messages()
    assert set(catalogue) == {"en", "ar"}
    assert set(catalogue["en"]) == set(catalogue["ar"])
    fields = lambda text: sorted({f for _, f, _, _ in string.Formatter().parse(text) if f})  # noqa: E731
    for key, english in catalogue["en"].items():
        assert fields(english) == fields(catalogue["ar"][key]), key
        arabic = catalogue["ar"][key]
        if key != "ui.language" and re.search("[A-Za-z]{2}", re.sub(r"\{\w+\}", "", english)):  # words to translate
            words = re.sub(r"\{\w+\}", "", arabic)  # (the language button names the other language)
            assert arabic != english and (re.search("[\u0600-\u06ff]", words) or not re.search("[A-Za-z]", words)), key


def test_an_egyptian_double_is_weighed_against_passing():
    a = json.loads(run("bid", "--game", "tarneeb", "--variant", "egyptian", "A5.AKQ9.K3.JT982", "--seat", "2",
                       "--auction", "8S", "--samples", "2048", "--json").stdout)  # fmt: skip
    rows = {c["call"]: c for c in a["calls"]}
    assert a["recommended"] == "double"  # a strong defence against their 8S (about +15 points against +12 for pass)
    (why,) = a["reasons"]
    assert why["key"] == "reason.call_double" and why["params"]["contract"] == "8S"
    assert why["params"]["ev"] == f"{rows['double']['ev']:+.2f}" and why["params"]["pass_ev"] == f"{rows['pass']['ev']:+.2f}"
