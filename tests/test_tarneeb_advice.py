"""What to call in Tarneeb (`recommend_call`, `t400 bid --game tarneeb`): the sanity a player
would check, reproducibility, and the command's output and errors. The rollout kernel takes
about a minute to compile, so every test that samples is marked slow (run with -m slow); the
bad-input tests stop before sampling and run by default."""

import json

import numpy as np
import pytest
from conftest import run

from analyzer.core.notation import parse_hand
from analyzer.core.policies import policy_id
from analyzer.games.tarneeb.advice import recommend_call
from analyzer.games.tarneeb.auction import Call


def test_thirteen_spades_bid_thirteen_in_spades_and_make_it():
    a = recommend_call("AKQJT98765432.-.-.-", seat=2, auction=["pass"], samples=512)
    assert a.recommended == "13" and a.trump == "S"
    assert a.row("13").p_make == 1.0 and a.row("13").p_ends == 1.0
    assert a.strains["S"][13] == pytest.approx(1.0)


def test_a_hand_without_ace_king_or_queen_passes():
    a = recommend_call("JT9.J987.T876.52", seat=1, samples=2048)
    assert a.recommended == "pass" and a.trump is None


@pytest.mark.slow
def test_a_hand_without_ace_king_or_queen_passes_under_double_dummy():
    a = recommend_call("JT9.J987.T876.52", seat=1, model="dd")
    assert a.recommended == "pass" and a.trump is None


def test_a_long_strong_suit_is_the_trump():
    a = recommend_call("A5.AKQJ9843.K3.2", seat=1, samples=2048)
    assert a.recommended != "pass" and a.trump == "H"
    r = recommend_call("A5.AKQJ9843.K3.2", seat=1, samples=2048, variant="egyptian")
    suits = {k: v[0] for k, v in r.strain_means.items() if k != "NT"}
    assert max(suits, key=suits.get) == "H"  # the most tricks among the suits; 7NT shuts out overcalls


def test_no_trump_is_considered_with_a_balanced_strong_hand():
    a = recommend_call("AKQ2.AK3.KQJ.A32", seat=1, samples=2048)
    assert "NT" in a.strains and a.strain_means["NT"][0] > 8
    assert any(r.trump == "NT" for r in a.rows) or a.strain_means["NT"][0] >= a.strain_means["S"][0] - 1
    b = recommend_call("AKQ2.AK3.KQJ.A32", seat=1, samples=256, variant="tarneeb-dananeer")
    assert "NT" not in b.strains  # no-trump is not allowed there


def test_partners_and_opponents_bids_are_taken_into_account():
    """The deals are weighed by every earlier call: partner's bid raises the team's tricks, an
    opponent's lowers them; after partner's 8 and an opponent's 9 both weigh."""
    hand = "K84.Q73.J652.K94"
    blind = recommend_call(hand, seat=3, auction=["7", "pass"], samples=4096, seed=2, infer=False)
    partner = recommend_call(hand, seat=3, auction=["7", "pass"], samples=4096, seed=2)
    opponent = recommend_call(hand, seat=3, auction=["pass", "7"], samples=4096, seed=2)
    for s in ("S", "H", "D", "C", "NT"):
        assert partner.strain_means[s][0] > blind.strain_means[s][0] + 0.3
        assert opponent.strain_means[s][0] < blind.strain_means[s][0] - 0.3
    both = recommend_call(hand, seat=4, auction=["7", "8", "9"], samples=4096, seed=2)
    assert both.effective_samples < 0.5 * both.samples
    assert [r.call for r in both.rows][:2] == ["pass", "10"]


def test_same_seed_same_answer_on_one_and_two_threads():
    a = recommend_call("AK5.KQ73.Q84.J82", seat=2, auction=["7"], samples=1024, seed=9, threads=1).to_dict()
    b = recommend_call("AK5.KQ73.Q84.J82", seat=2, auction=["7"], samples=1024, seed=9, threads=2).to_dict()
    for d in (a, b):
        d.pop("elapsed_s"), d.pop("compile_s")
    assert a == b


def test_cli_json_fields_and_table():
    r = run("bid", "--game", "tarneeb", "A5.AKQJ9843.K3.2", "--seat", "2", "--auction", "pass", "--samples", "1024",
            "--json")  # fmt: skip
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["game"] == "tarneeb" and d["seat"] == 2 and d["auction"] == ["pass"]
    assert set(d["strains"]) == {"S", "H", "D", "C", "NT"} and len(d["strains"]["H"]["tricks"]) == 14
    assert d["recommended"] in [c["call"] for c in d["calls"]] and d["trump"] == "H"
    for c in d["calls"]:
        assert {"call", "p_ends", "p_make", "ev", "ev_se", "p_declare", "trump"} <= set(c)
    assert not [n for n in d["notes"] if "deals sampled for the" in n]
    t = run("bid", "--variant", "egyptian", "A5.AKQJ9843.K3.2", "--auction", "", "--samples", "200")
    assert t.exit_code == 0, t.output
    assert "Your team's tricks if you declare" in t.stdout and "Recommended: " in t.stdout
    # whole blocks of deals: the count shown is the one sampled, and a note says why
    assert "256 sampled deals" in t.stdout and "note: 256 deals sampled for the 200 asked" in t.stdout


def test_double_dummy_model_solves_the_rollouts_deals_exactly():
    """``--model dd`` takes the rollout's deals, weights and auctions (same seed), and every
    contract's tricks are the team solver's (itself exact against DDS); with the trump-lead rule
    the declarer's best trump lead."""
    from analyzer.core.notation import as_deal
    from analyzer.core.solve import card_scores, solve, solve_team_tasks, solver_space
    from analyzer.games.tarneeb.advice import STRAINS
    from analyzer.games.tarneeb.bidders import load_model
    from analyzer.games.tarneeb.rules import as_tarneeb_variant
    from kernels.core.kit import Kit
    from kernels.tarneeb import advice as ka
    from kernels.tarneeb import hand as kh
    from kernels.tarneeb.rules import level_of

    hand = "AK5.KQ73.Q84.J82"
    bits = np.uint64(parse_hand(hand).bits)
    rules = as_tarneeb_variant("tarneeb").kernel_rules()
    calls = np.array([Call.parse("7").code], dtype=np.int64)
    candidates = np.array([Call.parse(c).code for c in ("pass", "8", "9")], dtype=np.int64)
    bidders = np.full(4, kh.EV, dtype=np.int64)
    policies = np.full(4, policy_id("team"), dtype=np.int64)
    model = load_model().array
    args = (rules, bits, 1, calls, candidates, bidders)
    w_roll, _, _ = ka.call_rollout(5, 0, 2, 4, *args, policies, Kit(policy_id("team")), model, True)
    hands, weights, contracts = ka.call_contracts(5, 0, 2, 4, *args, model, True)
    assert np.array_equal(weights, w_roll)
    assert all(int(h[1]) == int(bits) for h in hands)
    tasks = np.array([[i, s, ld] for i in range(3) for s in (0, 4) for ld in (1, 2)], dtype=np.int64)
    workspaces, tables = solver_space(1)
    got = solve_team_tasks(hands, tasks, False, workspaces, tables)
    for (i, s, ld), tricks in zip(tasks, got):
        deal = as_deal(list(hands[i]))
        assert tricks == solve(deal, trump=STRAINS[s], leader=ld + 1)
    led = solve_team_tasks(hands, tasks, True, workspaces, tables)
    for (i, s, ld), tricks in zip(tasks, led):
        deal = as_deal(list(hands[i]))
        leads = card_scores(deal, trump=STRAINS[s], leader=ld + 1)
        trumps = [v for c, v in leads.items() if s < 4 and c.suit == s]
        assert tricks == (max(trumps) if trumps else max(leads.values()))
    solved = np.full((8, 5, 4), 7, dtype=np.int64)
    outcomes = ka.score_contracts(rules, 1, candidates, contracts, solved)
    for i in range(8):
        for k in range(3):
            row, o = contracts[i, k], outcomes[i, k]
            assert o[ka.C_PLAYED] == row[ka.K_PLAYED]
            if row[ka.K_PLAYED] and row[ka.K_DECLARER] == 1 and row[ka.K_CONTRACT] == candidates[k]:
                assert o[ka.C_ENDS] == 1 and o[ka.C_MADE] == (level_of(row[ka.K_CONTRACT]) <= 7)


@pytest.mark.slow
def test_double_dummy_model_thirteen_spades_and_threads():
    a = recommend_call("AKQJT98765432.-.-.-", seat=2, auction=["pass"], samples=8, model="dd")
    assert a.model == "dd" and a.recommended == "13" and a.trump == "S"
    assert a.row("13").p_make == 1.0 and a.strains["S"][13] == pytest.approx(1.0)
    one = recommend_call("AK5.KQ73.Q84.J82", seat=2, auction=["7"], samples=12, seed=3, model="dd", threads=1)
    two = recommend_call("AK5.KQ73.Q84.J82", seat=2, auction=["7"], samples=12, seed=3, model="dd", threads=2)
    d1, d2 = one.to_dict(), two.to_dict()
    for d in (d1, d2):
        d.pop("elapsed_s"), d.pop("compile_s")
    assert d1 == d2
    r = run("bid", "--game", "tarneeb", "AK5.KQ73.Q84.J82", "--seat", "2", "--auction", "7", "--model", "dd",
            "--samples", "12", "--seed", "3", "--json")  # fmt: skip
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["model"] == "dd" and d["recommended"] == one.recommended and d["samples"] == 12


@pytest.mark.parametrize(
    "args, message",
    [
        (["--auction", "pass,7", "--seat", "2"], "it is seat 3's turn, not seat 2's"),
        (["--auction", "7,6"], "--auction call 2 (6): call '6': a bid is 7 to 13 tricks"),
        (["--auction", "7,pass,pass,pass"], "is already over"),
        (["--bids", "3"], "--bids is an option of 400's bid"),
        (["--scores", "0,0,0,0"], "--scores: expected 2 values separated by commas, got 4"),
        (["--scores", "31,2"], "--scores 31,2: the match is already over"),
        (["--model", "dd", "--policy", "team"], "--policy plays the rollout's cards"),
        (["--model", "dd", "--samples", "100001"], "--samples 100001: at most 100,000 with --model dd"),
    ],
)
def test_cli_bad_input(args, message):
    r = run("bid", "--game", "tarneeb", "A5.AKQJ9843.K3.2", *args)
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("Error: ") and message in r.stderr, r.stderr


def test_400_bid_refuses_tarneeb_options():
    r = run("bid", "AKQ5.KJ4.T93.862", "--auction", "7")
    assert r.exit_code == 2 and "--auction is for a Tarneeb auction" in r.stderr
    r = run("bid", "AKQ5.KJ4.T93.862", "--policy", "team")
    assert r.exit_code == 2 and "--policy team plays Tarneeb's" in r.stderr
    for model in ("dd", "solo-dd"):  # as Tarneeb refuses it: double dummy plays no policy's cards
        r = run("bid", "AKQ5.KJ4.T93.862", "--model", model, "--policy", "greedy")
        assert r.exit_code == 2 and f"--policy plays the rollout's cards; --model {model}" in r.stderr


@pytest.mark.parametrize("objective", ["points", "win"])
def test_call_plot_draws_the_objective(tmp_path, objective, monkeypatch):
    """The figure's right panel is EV per call, or P(win) per call under objective win (no
    sampling: an analysis made by hand)."""
    from analyzer.core.figures import plot_call
    from analyzer.games.tarneeb.advice import CallAnalysis, CallRow

    win = objective == "win"
    rows = [CallRow("pass", 0.0, 0.0, float("nan"), float("nan"), -1.0, 0.2, 0.3, None,
                    0.4 if win else None, 0.01 if win else None),
            CallRow("7", 0.5, 0.01, 0.9, 0.01, 3.0, 0.2, 0.8, "H", 0.6 if win else None, 0.01 if win else None)]  # fmt: skip
    p = [0.0] * 7 + [0.5, 0.5] + [0.0] * 5
    a = CallAnalysis(hand="A5.AKQJ9843.K3.2", seat=1, auction=[], variant="tarneeb", samples=10, effective_samples=10.0,
                     model="rollout", seed=0, scores=(20, 10) if win else (0, 0), objective=objective,
                     strains={"H": p}, strain_means={"H": (7.5, 0.1)}, rows=rows, recommended="7", trump="H",
                     p_best=0.9)  # fmt: skip
    import analyzer.core.figures as figures

    seen = {}
    save = figures._save

    def keep(fig, path):
        right = fig.axes[1]
        seen["ylabel"] = right.get_ylabel()
        seen["heights"] = [round(b.get_height(), 6) for b in right.patches]
        save(fig, path)

    out = tmp_path / "call.png"
    monkeypatch.setattr(figures, "_save", keep)
    plot_call(a, str(out))
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if win:
        assert seen["ylabel"].startswith("P(team wins") and seen["heights"] == [40.0, 60.0]
    else:
        assert seen["ylabel"] == "expected points for the team" and seen["heights"] == [-1.0, 3.0]
