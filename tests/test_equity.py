"""Match equity: the table's look-ups against plain-Python twins, the table against simulated
rests of the match, the ``win`` and ``counting-ev`` bidders, and ``--objective win``."""

import json
import random

import numpy as np
import pytest
from click.testing import CliRunner

import naive
from analyzer.games.t400 import equity as me
from analyzer.games.t400 import equity_build as eb
from analyzer.games.t400.bidder import bot_array
from analyzer.games.t400.rules import Variant
from cli import cli
from kernels.core.cards import DECK_MASK, HEARTS
from kernels.t400 import bidder as kb
from kernels.t400 import equity as ke

DANANEER = Variant.preset("dananeer")


@pytest.fixture(scope="module")
def table():
    return me.table_for(DANANEER)


def test_every_preset_ships_a_table_for_its_own_rules():
    for name in ("dananeer", "qahwa", "syrian41"):
        t = me.table_for(name)
        assert t.meta["variant"] == Variant.preset(name).switches
        assert list(t.grid) == list(me.equity_grid(Variant.preset(name)))
        assert np.all((t.values >= -1e-12) & (t.values <= 1 + 1e-12))  # probabilities, up to rounding


def test_the_grid_holds_every_score_where_a_rule_changes():
    grid = set(me.equity_grid(DANANEER))
    assert {0, 1, 29, 30, 39, 40, 41, 49, 50} <= grid


def test_look_ups_interpolate_like_the_plain_python_twin(table):
    r = random.Random(3)
    for _ in range(2000):
        scores = [r.randint(-45, 75) for _ in range(4)]
        got = ke.equity_at(table.array, *scores)
        assert got == pytest.approx(naive.interpolate_reference(table.grid, table.values, scores), abs=1e-12)


def test_on_the_grid_a_look_up_is_the_stored_value(table):
    g = table.grid
    for idx in [(0, 0, 0, 0), (4, 15, 3, 19), (len(g) - 1,) * 4]:
        assert ke.equity_at(table.array, *(g[i] for i in idx)) == table.values[idx]


def test_after_a_hand_a_decided_match_is_won_or_lost_and_the_rest_rotates(table):
    rules = DANANEER.kernel_rules()
    r = random.Random(4)
    for _ in range(2000):
        scores = [r.randint(-20, 60) for _ in range(4)]
        got = ke.equity_after(rules, table.array, *scores)
        assert got == pytest.approx(
            naive.equity_after_reference(DANANEER, table.grid, table.values, scores), abs=1e-12
        )
    assert ke.equity_after(rules, table.array, 41, 0, 1, 0) == 1.0  # one partner 41, the other above 0
    assert ke.equity_after(rules, table.array, 0, 45, 10, 3) == 0.0


def test_the_table_reads_sensibly(table):
    assert table.equity([0, 0, 0, 0]) == pytest.approx(0.5, abs=0.03)
    assert table.equity([38, 0, 35, 0]) > 0.9  # one good hand from winning
    assert table.equity([0, 38, 0, 35]) < 0.1
    # the same state from the other side: dealer rotation and partnership symmetry
    assert table.equity([10, 20, 30, 5], dealer=4) == pytest.approx(
        1 - table.equity([20, 30, 5, 10], dealer=3)
    )


def test_the_table_agrees_with_simulated_rests_of_the_match(table):
    for i, scores in enumerate(([0, 0, 0, 0], [25, 10, 31, 18], [38, 35, 20, 20], [-5, 22, 12, 36])):
        sim = eb.simulate_equity(scores, 4, DANANEER, continuations=20_000, seed=50 + i)
        assert abs(table.equity(scores) - sim.p) < 3 * sim.se + 0.01, (scores, table.equity(scores), sim)


def test_simulated_equity_is_reproducible_and_honest_about_its_precision():
    a = eb.simulate_equity([30, 30, 10, 10], 4, DANANEER, continuations=400, seed=9)
    b = eb.simulate_equity([30, 30, 10, 10], 4, DANANEER, continuations=400, seed=9, threads=1)
    assert a == b
    assert 0 < a.se < 0.05 and a.matches == 400


def test_win_bidder_maximises_match_equity_like_its_twin(table):
    v = DANANEER
    rules = v.kernel_rules()
    bot = bot_array(v)
    r = random.Random(8)
    for _ in range(600):
        bits = np.uint64(r.getrandbits(64) & DECK_MASK)
        seat = r.randrange(4)
        scores = np.array([r.randint(-10, 45) for _ in range(4)])
        prior = sum(r.randint(2, 5) for _ in range(seat))
        row = kb.estimate_bin(kb.estimate(bot, bits, HEARTS, seat, prior))
        cum = bot[kb.CUM + row * 15 : kb.CUM + row * 15 + 15]
        expected = naive.win_bid_reference(
            v, table.grid, table.values, cum, seat, list(map(int, scores)), prior
        )
        assert kb.win_bid(rules, bot, bits, seat, scores, prior) == expected


def test_counting_ev_bidder_is_the_best_expected_value_bid_on_the_counting_estimate():
    v = DANANEER
    rules = v.kernel_rules()
    bot = bot_array(v)
    r = random.Random(11)
    for _ in range(1500):
        bits = np.uint64(r.getrandbits(64) & DECK_MASK)
        seat = r.randrange(4)
        scores = np.array([r.randint(-10, 55) for _ in range(4)])
        prior = sum(r.randint(2, 5) for _ in range(seat))
        row = kb.estimate_bin(kb.counting_estimate(bits, HEARTS))
        cum = bot[kb.COUNTING_CUM + row * 15 : kb.COUNTING_CUM + row * 15 + 15]
        best, best_ev = None, -1e300
        for b in range(v.min_bid(int(scores[seat])), 14):
            dead = seat == 3 and prior + b < v.table_minimum(scores)
            ev = 0.0 if dead else v.bid_value(b, int(scores[seat])) * (2 * cum[b] - 1)
            if ev > best_ev + 1e-9:
                best, best_ev = b, ev
        assert kb.counting_ev_bid(rules, bot, bits, seat, scores, prior) == best


def test_win_bidder_closes_the_match_with_the_safest_bid():
    # 38 with partner at 35: any made bid wins; the win bidder bids low where EV bids high
    v = DANANEER
    rules = v.kernel_rules()
    bot = bot_array(v)
    hand = np.uint64(__import__("analyzer").parse_hand("A5.AKQ73.KQ4.J82").bits)
    scores = np.array([38, 0, 35, 0])
    assert kb.win_bid(rules, bot, hand, 0, scores, 0) < kb.ev_bid(rules, bot, hand, 0, scores, 0)


def test_a_custom_variant_without_a_table_cannot_use_the_win_bidder():
    runner = CliRunner()
    res = runner.invoke(cli, ["simulate", "--target", "51", "--bidder", "win", "--matches", "10"])
    assert res.exit_code == 2 and res.output.startswith("Error: no shipped match-equity table")


def test_equity_command_reads_the_table_and_rejects_bad_input():
    runner = CliRunner()
    res = runner.invoke(cli, ["equity", "--scores", "38,0,35,0", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["p_win_13"] > 0.9 and out["p_win_13"] + out["p_win_24"] == pytest.approx(1)
    for bad in (["--scores", "1,2,3"], ["--scores", "1,2,3,4", "--dealer", "5"], []):
        res = runner.invoke(cli, ["equity", *bad])
        assert res.exit_code == 2 and res.output.startswith("Error:") and res.output.count("\n") == 1, (
            res.output
        )


def test_bid_objective_win_gives_p_win_per_bid_and_the_safest_closing_bid():
    runner = CliRunner()
    res = runner.invoke(
        cli, ["bid", "A5.AKQ73.KQ4.J82", "--scores", "38,0,35,0", "--samples", "3000", "--json"]
    )
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["objective"] == "win" and "default" in out["objective_note"]
    rows = {r["bid"]: r for r in out["bids"]}
    assert all(r["p_win"] is not None and r["p_win_se"] is not None for r in rows.values())
    best_points = max(rows.values(), key=lambda r: r["ev"])["bid"]
    assert out["recommended"] < best_points
    assert rows[out["recommended"]]["p_win"] > rows[best_points]["p_win"] + 3 * out["p_win_margin_se"]


def test_bid_objective_defaults_and_bad_input():
    runner = CliRunner()
    res = runner.invoke(cli, ["bid", "AKQ5.KJ4.T93.862", "--samples", "600", "--json"])
    out = json.loads(res.stdout)
    assert out["objective"] == "points" and all(r["p_win"] is None for r in out["bids"])
    for bad, message in (
        (["--objective", "win", "--model", "dd"], "objective win needs the rollout model"),
        (["--continuations", "-1"], "continuations -1"),
        (["--continuations", "2", "--objective", "points"], "continuations give P(win the match)"),
        (["--objective", "win", "--target", "51"], "no shipped match-equity table"),
    ):
        res = runner.invoke(cli, ["bid", "AKQ5.KJ4.T93.862", "--scores", "10,0,0,0", *bad])
        assert res.exit_code == 2 and res.output.startswith(f"Error: {message}"), res.output


@pytest.mark.slow
def test_continuations_agree_with_the_table_on_the_closing_example():
    from analyzer.games.t400.advice import recommend_bid

    kw = dict(seat=1, scores=(38, 0, 35, 0), samples=2000, seed=3)
    by_table = recommend_bid("A5.AKQ73.KQ4.J82", objective="win", **kw)
    by_rests = recommend_bid("A5.AKQ73.KQ4.J82", continuations=8, **kw)
    assert by_rests.objective == "win" and by_rests.recommended == by_table.recommended
    for a, b in zip(by_table.rows, by_rests.rows):
        assert abs(a.p_win - b.p_win) < 4 * b.p_win_se + 0.01


@pytest.mark.parametrize("name", ["dananeer", "qahwa"])
def test_one_sweep_of_the_builder_agrees_with_its_twin_on_a_tiny_grid(name):
    """``t400 equity --build``'s step (kernels/t400/equity.sweep) against naive.sweep_reference: a
    grid of five scores (a match won at 41 inside it), random values and random outcome sets,
    both re-deal rules (dananeer: the same dealer; qahwa: the next)."""
    v = Variant.preset(name)
    grid = np.array([-10, 0, 30, 41, 50], dtype=np.int64)
    g = len(grid)
    r = np.random.default_rng(5)
    cell, weight = me.axis_tables(grid)
    values = r.uniform(0, 1, g**4)
    table = np.concatenate([[g], grid, values, cell, weight]).astype(np.float64)
    n_regimes = 3
    offsets, deltas, probs = [0], [], []
    win13, live = r.uniform(0, 0.05, n_regimes), r.uniform(0.6, 0.95, n_regimes)
    for k in range(n_regimes):
        n = int(r.integers(3, 9))
        deltas.append(r.choice([-40, -10, -5, -3, 2, 4, 9, 16, 27], size=(n, 4)))
        probs.append(r.dirichlet(np.ones(n)) * (live[k] - win13[k]))
        offsets.append(offsets[-1] + n)
    states = np.stack(np.meshgrid(grid, grid, grid, grid, indexing="ij"), axis=-1).reshape(-1, 4)
    regime = r.integers(0, n_regimes, len(states))
    out = np.empty(len(states))
    ke.sweep(v.kernel_rules(), table, states, regime, np.array(offsets), np.concatenate(deltas).astype(np.int64),
             np.concatenate(probs), win13, live, out)  # fmt: skip
    cube = values.reshape(g, g, g, g)
    for k in range(len(states)):
        rk = regime[k]
        outcomes = [(deltas[rk][i], probs[rk][i]) for i in range(offsets[rk + 1] - offsets[rk])]
        want = naive.sweep_reference(
            v, list(grid), cube, [int(x) for x in states[k]], outcomes, win13[rk], live[rk]
        )
        assert out[k] == pytest.approx(want, abs=1e-12), (k, states[k])
