"""The kernels behind ``t400 bid`` (400's rollout, Tarneeb's call analysis) against their
plain-Python twins (tests/naive.py), deal by deal.

The twin shares no kernel code: the EV bidder's cells and estimate are read from the fitted
weights by the layout its docstring states, the later bids and the inference weight are
computed from the value table by the rules engine, and the play is naive.standard_choice (in
Tarneeb: the Python bidders, the rules engine's auction and naive.team_choice). The
deals are the kernel's own (``deal_and_bid`` draws them as ``rollout`` does, from the same
streams): run with one deal a chunk, each chunk's sums are one deal's outcome.
"""

import random

import numpy as np
import pytest
from conftest import random_deal

import naive
from analyzer.core.policies import policies_kit, policy_id
from analyzer.games.t400 import simulate
from analyzer.games.t400.bidder import INFER_TAU
from analyzer.games.t400.rules import Variant
from analyzer.games.tarneeb.auction import Auction, Call
from analyzer.games.tarneeb.bidders import load_model
from analyzer.games.tarneeb.rules import TarneebVariant
from kernels.core.cards import HEARTS
from kernels.t400 import bidder as kb
from kernels.t400 import rollout as kr
from kernels.t400.lineup import lineup_kit
from kernels.tarneeb import advice as ka
from kernels.tarneeb import hand as kh

VARIANTS = ("dananeer", "qahwa", "syrian41")


@pytest.mark.parametrize("name", VARIANTS)
def test_ev_estimate_and_cells_agree_with_the_twin_exactly(name):
    """The trick estimate from the model's cells, on random hands, seats, earlier totals and trumps."""
    bot = simulate.bot_array(Variant.preset(name))
    r = random.Random(61)
    for _ in range(4000):
        bits = random_deal(r)[0]
        trump, seat, prior = r.randrange(4), r.randrange(4), r.randint(0, 30)
        hand = naive.cards_of(bits)
        cells = kb.hand_features(np.uint64(bits), trump)
        assert tuple(int(c) for c in cells) == naive.ev_cells(hand, trump)
        got = kb.estimate(bot, np.uint64(bits), trump, seat, prior)
        assert got == naive.ev_estimate(bot, hand, seat, prior, trump)
        assert kb.estimate_bin(got) == naive.estimate_row(got)


@pytest.mark.parametrize("name", VARIANTS)
def test_ev_bid_and_its_likelihood_agree_with_the_twin(name):
    """The bid (from the bot's precomputed best-bid tables) and the softmax likelihood behind the
    inference (exact up to the last bits of exp), at random scores, seats and earlier totals."""
    v = Variant.preset(name)
    rules, bot = v.kernel_rules(), simulate.bot_array(v)
    r = random.Random(62)
    for _ in range(3000):
        bits = random_deal(r)[0]
        hand = naive.cards_of(bits)
        seat = r.randrange(4)
        scores = [r.randint(-15, 60) for _ in range(4)]
        prior = sum(r.randint(2, 6) for _ in range(seat))
        expected = naive.ev_bid_reference(v, bot, hand, seat, scores, prior)
        assert kb.ev_bid(rules, bot, np.uint64(bits), seat, np.array(scores), prior) == expected
        bid = r.randint(2, 13)
        want = naive.bid_likelihood_reference(v, bot, hand, seat, scores, prior, bid, INFER_TAU)
        got = kb.bid_likelihood(rules, bot, np.uint64(bits), seat, np.array(scores), prior, bid, INFER_TAU)
        assert got == pytest.approx(want, rel=1e-12, abs=1e-300)


CASES = [  # (variant, seat 0..3, scores, earlier bids, candidates, infer)
    ("dananeer", 0, [0, 0, 0, 0], [], [2, 3, 4, 5], False),
    ("dananeer", 1, [12, -4, 30, 7], [4], [3, 4, 6], True),
    ("dananeer", 2, [41, 20, 0, 35], [4, 5], [2, 4, 5, 7], True),
    ("dananeer", 3, [0, 0, 0, 0], [2, 2, 3], [2, 3, 4, 5, 6], True),
    ("syrian41", 3, [25, 9, 38, 50], [4, 3, 2], [3, 5, 13], False),
    ("qahwa", 1, [-10, 5, 0, 22], [6], [2, 4, 8], True),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_rollout_agrees_with_its_twin_deal_by_deal(case):
    """For every deal and candidate: the weight, the later seats' bids, dead or played, the own
    tricks and the score change, and the trumps each seat holds, as the twin computes them."""
    name, seat, scores, earlier, candidates, infer = CASES[case]
    v = Variant.preset(name)
    bot = simulate.bot_array(v)
    r = random.Random(70 + case)
    hand_bits = random_deal(r)[seat]
    lineup = simulate.lineup_array("ev", "standard")
    args = (v.kernel_rules(), lineup, lineup_kit(lineup), bot, np.uint64(hand_bits), seat,
            np.array(scores, dtype=np.int64), np.array(earlier or [0], dtype=np.int64),
            np.array(candidates, dtype=np.int64), infer, INFER_TAU)  # fmt: skip
    n, seed = 40, 900 + case
    hands, weights, later_bids = kr.deal_and_bid(seed, 0, n, 1, *args)
    acc, cross, hearts, later = kr.rollout(seed, 0, n, 1, *args, None, np.zeros(1, dtype=np.uint8))
    played = zero = 0
    for k in range(n):
        deal = [naive.cards_of(int(b)) for b in hands[k]]
        assert deal[seat] == naive.cards_of(hand_bits)
        w, outcomes = naive.rollout_deal_reference(
            v, bot, deal, seat, scores, earlier, candidates, infer, INFER_TAU
        )
        assert weights[k] == pytest.approx(w, rel=1e-12, abs=1e-300)
        assert acc[k, 0, kr.R_W] == pytest.approx(w, rel=1e-12, abs=1e-300)
        if w == 0.0:  # earlier bids the bot could not have made with this deal: skipped
            assert not acc[k].any() and not later[k].any() and not hearts[k].any()
            zero += 1
            continue
        for s in range(4):
            trumps = sum(1 for suit, _ in deal[s] if suit == HEARTS)
            assert hearts[k, s] == pytest.approx(w * trumps, rel=1e-12, abs=1e-300)
        for j, (bids, dead, own, change) in enumerate(outcomes):
            a = acc[k, j]
            assert list(later_bids[k, j]) == bids, (k, j)
            for s in range(seat + 1, 4):
                assert later[k, j, s, bids[s]] == pytest.approx(w, rel=1e-12, abs=1e-300)
            assert a[kr.R_DEAD] == pytest.approx(w if dead else 0.0, rel=1e-12, abs=1e-300)
            if dead:
                assert a[kr.R_SCORE] == 0.0 and a[kr.R_TRICKS : kr.R_TRICKS + 14].sum() == 0.0
                continue
            played += 1
            assert a[kr.R_TRICKS + own] == pytest.approx(w, rel=1e-12, abs=1e-300), (k, j, own)
            assert a[kr.R_MAKE] == pytest.approx(w if own >= candidates[j] else 0.0, rel=1e-12, abs=1e-300)
            assert a[kr.R_SCORE] == pytest.approx(w * change, rel=1e-12, abs=1e-300)
            assert a[kr.R_SCORE + 2] == pytest.approx(w * w * change * change, rel=1e-12, abs=1e-300)
    assert played >= n // 2 and zero < n // 2


TARNEEB_CASES = [  # (variant, the calls so far, infer)
    ("tarneeb", [], False),
    ("tarneeb", ["pass", "7"], True),
    ("tarneeb-dananeer", ["pass", "pass", "pass"], True),
    ("egyptian", ["7S"], True),
    ("egyptian", ["pass", "7H", "8C"], True),
]


@pytest.mark.parametrize("case", range(len(TARNEEB_CASES)))
def test_tarneeb_call_rollout_agrees_with_its_twin_deal_by_deal(case):
    """For every deal: the weight of the calls so far, the known team's tricks declaring in each
    strain, and for every legal call the final contract's outcome (played, declared by which team,
    each team's points, whether the call was the contract and was made)."""
    name, calls, infer = TARNEEB_CASES[case]
    v = TarneebVariant.preset(name)
    model = load_model()
    auction = Auction(v, calls)
    seat = auction.seat - 1
    candidates = auction.legal_calls()
    r = random.Random(80 + case)
    hand_bits = random_deal(r)[seat]
    policies = np.full(4, policy_id("team"), dtype=np.int64)
    n = 12 if v.auction == "number" else 7  # the strain auction has five times the candidate calls
    weights, strains, outcomes = ka.call_rollout(
        500 + case, 0, n, 1, v.kernel_rules(), np.uint64(hand_bits), seat,
        np.array([Call.parse(c).code for c in calls] or [0], dtype=np.int64)[: len(calls)],
        np.array([c.code for c in candidates], dtype=np.int64), np.full(4, kh.EV, dtype=np.int64), policies,
        policies_kit(policies), model.array, infer,
    )  # fmt: skip
    hands, _, _ = ka.call_contracts(
        500 + case, 0, n, 1, v.kernel_rules(), np.uint64(hand_bits), seat,
        np.array([Call.parse(c).code for c in calls] or [0], dtype=np.int64)[: len(calls)],
        np.array([c.code for c in candidates], dtype=np.int64), np.full(4, kh.EV, dtype=np.int64), model.array, infer,
    )  # fmt: skip
    played = 0
    for k in range(n):
        deal = [naive.cards_of(int(b)) for b in hands[k]]
        assert deal[seat] == naive.cards_of(hand_bits)
        w, strain_tricks, want = naive.tarneeb_call_deal_reference(
            v, model, deal, seat, [Call.parse(c) for c in calls], candidates, infer
        )
        assert weights[k] == pytest.approx(w, rel=1e-12)
        assert list(strains[k]) == strain_tricks
        for j, o in enumerate(want):
            got = outcomes[k, j]
            assert got[ka.C_PLAYED] == o["played"], (k, str(candidates[j]))
            if not o["played"]:
                assert not got.any()
                continue
            played += 1
            assert (got[ka.C_DECLARE], got[ka.C_OURS], got[ka.C_THEIRS], got[ka.C_SCORE], got[ka.C_ENDS],
                    got[ka.C_MADE]) == (o["declare"], o["ours"], o["theirs"], o["score"], o["ends"], o["made"]), (
                k, str(candidates[j]), o)  # fmt: skip
    assert played >= n
