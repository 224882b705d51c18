"""The 400 bot bidders against their recipes: the counting baseline, the EV bidder's best
expected value, and the bid likelihood behind the inference from earlier bids."""

import random

import numpy as np
import pytest
from conftest import random_deal

import naive
from analyzer.core.notation import parse_hand
from analyzer.games.t400 import simulate
from analyzer.games.t400.rules import Variant
from kernels.core.cards import HEARTS
from kernels.t400 import bidder as kb


# -- bot bidding ---------------------------------------------------------------------------------
def test_counting_bidder_matches_the_recipe():
    r = random.Random(5)
    v = Variant.preset("dananeer")
    rules = v.kernel_rules()
    for _ in range(3000):
        bits = random_deal(r)
        hand = naive.cards_of(bits[0])
        assert kb.counting_estimate(np.uint64(bits[0]), HEARTS) == pytest.approx(
            naive.counting_estimate(hand)
        )
        seat = r.randrange(4)
        scores = [r.randint(-10, 55) for _ in range(4)]
        earlier = [r.randint(2, 5) for _ in range(seat)]
        expected = naive.counting_bid(hand, seat, v.min_bid(scores[seat]), v.table_minimum(scores), earlier)
        got = kb.counting_bid(rules, np.uint64(bits[0]), seat, np.array(scores), sum(earlier))
        assert got == expected


def test_ev_bidder_is_the_best_expected_value_bid():
    r = random.Random(6)
    v = Variant.preset("dananeer")
    rules = v.kernel_rules()
    bot = simulate.bot_array(v)
    for _ in range(2000):
        bits = random_deal(r)[0]
        seat = r.randrange(4)
        scores = np.array([r.randint(-10, 55) for _ in range(4)])
        prior = sum(r.randint(2, 5) for _ in range(seat))
        est = kb.estimate(bot, np.uint64(bits), HEARTS, seat, prior)
        row = kb.estimate_bin(est)
        cum = bot[kb.CUM + row * 15 : kb.CUM + row * 15 + 15]
        low = v.min_bid(int(scores[seat]))
        best, best_ev = None, -1e300
        for b in range(low, 14):
            dead = seat == 3 and prior + b < v.table_minimum(scores)
            ev = 0.0 if dead else v.bid_value(b, int(scores[seat])) * (2 * cum[b] - 1)
            if ev > best_ev + 1e-9:
                best, best_ev = b, ev
        got = kb.ev_bid(rules, bot, np.uint64(bits), seat, scores, prior)
        assert got == best


def test_bid_likelihood_is_a_distribution_over_legal_bids():
    v = Variant.preset("dananeer")
    rules = v.kernel_rules()
    bot = simulate.bot_array(v)
    hand = np.uint64(parse_hand("AKQ5.KJ4.T93.862").bits)
    scores = np.array([35, 0, 0, 0])
    probs = [kb.bid_likelihood(rules, bot, hand, 0, scores, 0, b, 2.0) for b in range(2, 14)]
    assert probs[0] == 0.0  # below the minimum of 3 at 35
    assert sum(probs) == pytest.approx(1.0)
    best = kb.ev_bid(rules, bot, hand, 0, scores, 0)
    assert max(range(2, 14), key=lambda b: probs[b - 2]) == best
