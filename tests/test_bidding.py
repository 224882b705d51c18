"""`t400 bid` and `recommend_bid`: the sanity checks a player would make, and the CLI."""

import json

import numba
import numpy as np
import pytest
from conftest import run

from analyzer.games.t400.advice import recommend_bid

EXAMPLE = "AKQ5.KJ4.T93.862"


def test_thirteen_hearts_make_thirteen_and_recommend_a_bid_worth_40():
    a = recommend_bid("-.AKQJT98765432.-.-", samples=2048)
    assert a.row(13).p_make == 1.0
    assert a.row(a.recommended).value == 40
    assert a.tricks[13] == 1.0


@pytest.mark.parametrize("model", ["dd", "solo-dd"])
def test_thirteen_hearts_make_thirteen_under_double_dummy_too(model):
    a = recommend_bid("-.AKQJT98765432.-.-", model=model, samples=16)
    assert a.row(13).p_make == 1.0 and a.tricks[13] == 1.0
    assert a.recommended == 10 and a.tied == [10, 11, 12, 13]
    assert a.note.startswith(f"{model}: ")


def test_twos_and_threes_without_hearts_recommend_the_minimum():
    a = recommend_bid("5432.-.5432.65432", samples=4096)
    assert a.recommended == 2


def test_making_gets_harder_as_the_bid_rises():
    a = recommend_bid(EXAMPLE, samples=8192)
    made = [r.p_make for r in a.rows]
    ses = [r.p_make_se for r in a.rows]
    for lower, higher, se in zip(made, made[1:], ses):
        assert higher <= lower + 2 * se + 1e-12


def test_where_no_hand_dies_ev_is_value_times_two_p_make_minus_one():
    a = recommend_bid(EXAMPLE, seat=4, bids=[4, 4, 4], samples=4096)  # 12 already bid: nothing dies
    for r in a.rows:
        assert r.p_dead == 0.0
        assert r.ev == pytest.approx(r.value * (2 * r.p_make - 1), abs=1e-9)


def test_the_dealer_sees_which_bids_kill_the_hand():
    a = recommend_bid(EXAMPLE, seat=4, bids=[2, 2, 2], samples=2048)  # table minimum 11
    for r in a.rows:
        if r.bid < 5:
            assert r.p_dead == 1.0 and r.ev == 0.0 and r.p_make is None
        else:
            assert r.p_dead == 0.0


def test_inference_from_a_bid_of_nine():
    uniform = recommend_bid(EXAMPLE, seat=2, bids=[9], samples=8192, infer=False)
    inferred = recommend_bid(EXAMPLE, seat=2, bids=[9], samples=8192, infer=True)
    expected_uniform = (13 - 3) * 13 / 39  # hearts left for seat 1 out of the 39 unseen cards
    assert uniform.earlier_hearts[0] == pytest.approx(expected_uniform, abs=0.1)
    assert inferred.earlier_hearts[0] > expected_uniform + 1.5, "a 9 bidder holds clearly more hearts"
    assert inferred.effective_samples < inferred.samples
    assert inferred.tricks_mean < uniform.tricks_mean - 0.1, "a strong seat 1 costs the player tricks"


def test_same_seed_same_answer_whatever_the_threads():
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("one thread only")
    one = recommend_bid(EXAMPLE, seat=3, bids=[3, 4], seed=7, threads=1, samples=6000).to_dict()
    two = recommend_bid(EXAMPLE, seat=3, bids=[3, 4], seed=7, threads=2, samples=6000).to_dict()
    for timing in ("elapsed_s", "compile_s"):
        one.pop(timing)
        two.pop(timing)
    assert one == two


def test_default_precision_meets_the_target():
    a = recommend_bid("KQ3.AKQJ7.A4.K52", seat=2, bids=[3])
    assert a.target_met
    assert all(r.p_make_se is None or r.p_make_se <= 0.003 for r in a.rows)
    assert 0.0 <= a.p_best <= 1.0 and a.rows  # the recommendation comes with a confidence


def test_double_dummy_is_not_above_the_rollout_for_a_strong_trump_hand():
    hand = "K.AKQJT98.A4.K52"
    dd = recommend_bid(hand, model="solo-dd", samples=64)
    rollout = recommend_bid(hand, samples=4096)
    assert dd.note and "lower bound" in dd.note
    noise = 3 * (dd.tricks_mean_se + rollout.tricks_mean_se)
    assert dd.tricks_mean <= rollout.tricks_mean + noise


def test_the_dd_model_is_the_bids_solver_on_every_deal_and_candidate_bid():
    """Seat 2 after a bid of 4: each deal's weight, the bots' later bids for each candidate, dead
    hands not played, and whether the player makes the bid on a line of best play, deal by deal."""
    from analyzer.core.notation import as_hand
    from analyzer.games.t400.advice import candidate_bids
    from analyzer.games.t400.bid_runs import Query as _Query
    from analyzer.games.t400.bidder import bot_array
    from analyzer.games.t400.rules import as_variant
    from analyzer.games.t400.simulate import lineup_array
    from kernels.core import bids_dd
    from kernels.t400 import rollout as kr

    v = as_variant("dananeer")
    a = recommend_bid(EXAMPLE, seat=2, bids=[4], model="dd", samples=5, seed=3, threads=2)
    q = _Query(as_hand(EXAMPLE), 2, (0, 0, 0, 0), (4,), v, lineup_array("ev", "standard"), bot_array(v),
               candidate_bids(v, 2, (0, 0, 0, 0)), 3, True)  # fmt: skip
    hands, weights, later = kr.deal_and_bid(3, 0, 1, 5, *q.kernel_args())
    table, context = bids_dd.new_table()
    zeros = np.zeros(4, dtype=np.int64)
    searched = 0
    for j, bid in enumerate(q.candidates):
        alive = made = 0.0
        for k in range(5):
            bids = [int(b) for b in later[k, j]]
            if weights[k] == 0 or sum(bids) < v.table_minimum((0, 0, 0, 0)):
                continue
            values = np.array([v.bid_value(b, 0) for b in bids], dtype=np.int64)
            _, ok, _ = bids_dd.solve_bids_made(hands[k], 1, 0, np.array(bids), values, zeros, 1, -1, table, context,
                                               bids_dd.NO_GUESS, True)  # fmt: skip
            searched += 1
            alive += weights[k]
            made += weights[k] * ok
        row = a.row(bid)
        assert (row.p_make is None) == (alive == 0)
        if alive:
            assert row.p_make == pytest.approx(made / alive, abs=1e-12), bid
    assert searched > 30
    assert a.note.startswith("dd: 400 double dummy with the bids")


def test_dataframe_and_dict():
    a = recommend_bid(EXAMPLE, samples=1024)
    frame = a.dataframe()
    assert list(frame.index) == list(range(2, 14))
    d = a.to_dict()
    for key in ("tricks", "tricks_mean", "bids", "recommended", "samples", "seed", "variant", "model", "policy",
                "elapsed_s", "p_best"):  # fmt: skip
        assert key in d
    # each of the 14 probabilities is rounded to 6 decimals, so the sum is 1 within 14 half-units
    assert len(d["tricks"]) == 14 and abs(sum(d["tricks"]) - 1) <= 14 * 5e-7 + 1e-12
    for row in d["bids"]:
        assert set(row) >= {"bid", "value", "p_make", "ev", "ev_se", "p_dead"}


# -- the command ---------------------------------------------------------------------------------
def test_bid_json_and_table(tmp_path):
    r = run("bid", EXAMPLE, "--samples", "2048", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["samples"] == 2048 and data["seed"] == 0 and data["variant"] == "dananeer"
    plot = tmp_path / "bid.png"
    r = run(
        "bid",
        "S:AKQ5 H:KJ4 D:T93 C:862",
        "--seat",
        "2",
        "--bids",
        "4",
        "--samples",
        "1024",
        "--plot",
        str(plot),
    )
    assert r.exit_code == 0, r.output
    assert "Recommended: bid" in r.stdout and "P(make)" in r.stdout
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["AKQ5.KJ4.T93.86"], "12 cards, a hand needs 13"),
        (["AKQ5.KJX.T93.862"], "unknown rank 'X'"),
        ([EXAMPLE, "--seat", "5"], "--seat 5"),
        ([EXAMPLE, "--scores", "1,2,3"], "--scores: expected 4 values"),
        ([EXAMPLE, "--seat", "3", "--bids", "4"], "1 earlier bids given for seat 3"),
        ([EXAMPLE, "--seat", "2", "--bids", "14"], "seat 1 bid 14"),
        ([EXAMPLE, "--seat", "2", "--bids", "2", "--scores", "35,0,0,0"], "below its minimum of 3"),
        ([EXAMPLE, "--samples", "0"], "--samples 0"),
        ([EXAMPLE, "--variant", "chess"], "unknown variant"),
        ([EXAMPLE, "--plot", "/nonexistent/folder/x.png"], "does not exist"),
    ],
)
def test_bid_bad_input(args, fragment):
    r = run("bid", *args)
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("Error: ") and fragment in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_bids_of_exactly_equal_ev_are_tied_whatever_their_standard_errors():
    """Issue 54: `--model dd` on 73.AK542.A2.KQ93 gave EV(5) = EV(6) = +10.00 exactly (5 made
    surely, 6 on a sample of 48 deals) and no tied bids, though the docs say tied_bids lists the
    bids of exactly the recommended EV."""
    import dataclasses

    a = recommend_bid(EXAMPLE, samples=256)
    rows = [dataclasses.replace(r, ev=10.0 if r.bid in (5, 6) else -1.0, ev_se=0.0 if r.bid == 5 else 0.96)
            for r in a.rows]  # fmt: skip
    tied = dataclasses.replace(a, rows=rows, recommended=5)
    assert tied.tied == [5, 6] and tied.to_dict()["tied_bids"] == [5, 6]
    assert dataclasses.replace(tied, rows=[dataclasses.replace(r, ev=10.01) if r.bid == 6 else r for r in rows],
                               recommended=6).tied == [6]  # fmt: skip


def test_no_warning_about_earlier_bids_where_no_bid_weighs_the_deals():
    """Issue 54: at seat 1 with no earlier bids (or --no-infer) every deal weighs the same, so the
    effective sample is the sample: a sample of 48 deals is judged by the model's least size, not
    said to be 'left by the earlier bids'."""
    from types import SimpleNamespace

    from analyzer.core.messages import Said
    from analyzer.games.t400.bid_runs import precision_warning as _precision_warning

    even = SimpleNamespace(deals=48)
    assert _precision_warning(even, 48.0, 48.0, "dd", Said()) is None
    uneven = _precision_warning(even, 48.0, 200.0, "dd", Said())
    assert uneven is not None and "effective sample of only 12 deals" in uneven
    assert "--samples" in _precision_warning(SimpleNamespace(deals=16), 16.0, 16.0, "dd", Said())
