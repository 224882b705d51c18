"""Tarneeb match equity (`analyzer.games.tarneeb.equity`): the table against a plain recursion
and a Monte Carlo walk of the same chain, against whole matches of the match kernel, and the
objective win of `t400 bid --game tarneeb --scores`."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.core.errors import T400Error
from analyzer.games.tarneeb.equity import check_scores, equity_table, solve_equity
from analyzer.games.tarneeb.rules import as_tarneeb_variant
from cli import cli
from tests.naive import tarneeb_equity_reference, tarneeb_equity_walk


@pytest.mark.parametrize("preset", ["tarneeb", "tarneeb-dananeer"])
def test_table_equals_the_plain_recursion_when_totals_only_rise(preset):
    v = as_tarneeb_variant(preset)
    points = np.array([[7, 0], [0, 8], [9, 0], [0, 6], [13, 0], [0, 16], [10, 10]])
    p = np.array([0.3, 0.25, 0.1, 0.2, 0.05, 0.05, 0.05])
    values, tie, _ = solve_equity(v, points, p)
    memo = {}
    for first, dealer in [(0, 0), (20, 5), (5, 30), (30, 30), (24, 17), (30, 0)]:
        want = tarneeb_equity_reference(v, points, p, first, dealer, memo)
        assert values[first + 80, dealer + 80] == pytest.approx(want, abs=1e-9)


def test_table_equals_a_walk_of_the_chain_with_failed_contracts():
    """Points that go down (failed contracts), re-deals and ties at the target (play on)."""
    v = as_tarneeb_variant("tarneeb")
    points = np.array([[8, 0], [-7, 7], [0, 9], [5, -8], [10, 0], [0, 7]])
    p = np.array([0.3, 0.15, 0.25, 0.1, 0.1, 0.1])
    values, tie, _ = solve_equity(v, points, p)
    rng = np.random.default_rng(7)
    for first, dealer in [(0, 0), (25, 10), (-20, 15)]:
        walked = tarneeb_equity_walk(v, points, p, 0.1, first, dealer, 4000, rng)
        assert abs(values[first + 80, dealer + 80] - walked) < 4 * 0.5 / np.sqrt(4000)


def test_scores_must_be_a_match_still_being_played():
    v = as_tarneeb_variant("tarneeb")
    assert check_scores(v, (30, -12)) == (30, -12)
    assert check_scores(v, (32, 32)) == (32, 32)  # tied over the target: play on
    with pytest.raises(T400Error, match="already over"):
        check_scores(v, (31, 20))
    with pytest.raises(T400Error, match="already over"):
        check_scores(as_tarneeb_variant("tarneeb-dananeer"), (32, 32))  # a draw there


@pytest.mark.slow
def test_table_agrees_with_whole_matches():
    """The table from 0-0 against the match kernel's matches (same bots), and the hands' points
    against the matches' rounds: what the table assumes is what matches do."""
    from analyzer.games.tarneeb.matches import simulate_matches

    table = equity_table("tarneeb", hands=1 << 16, seed=3)
    df = simulate_matches("tarneeb", matches=40_000, seed=11, bidder="ev")
    won = (df["winner"] == "1+3").mean() + 0.5 * (df["winner"] == "draw").mean()
    se = np.sqrt(0.25 / 40_000)
    assert abs(table.before_hand(0, 0) - won) < 4 * se + 0.003
    rising = table.values[80 + 20, 80 + 0] > table.values[80 + 10, 80 + 0] > table.values[80, 80 + 10]
    assert rising


def test_bid_objective_win_reads_the_table():
    r = CliRunner().invoke(cli, ["bid", "--game", "tarneeb", "A5.AKQJ9843.K3.2", "--seat", "2", "--auction",
                                 "pass", "--scores", "25,28", "--samples", "1024", "--json"])  # fmt: skip
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["objective"] == "win" and d["scores"] == [25, 28] and 0 < d["p_win_now"] < 1
    best = max(d["calls"], key=lambda c: c["p_win"])
    assert d["recommended"] == best["call"]
    assert all(0 <= c["p_win"] <= 1 and c["p_win_se"] >= 0 for c in d["calls"])
    r = CliRunner().invoke(cli, ["bid", "--game", "tarneeb", "A5.AKQJ9843.K3.2", "--seat", "2", "--auction",
                                 "pass", "--samples", "256", "--json"])  # fmt: skip
    d = json.loads(r.stdout)
    assert d["objective"] == "points" and all(c["p_win"] is None for c in d["calls"])
