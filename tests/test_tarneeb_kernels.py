"""The Tarneeb rules twins (kernels/tarneeb/rules.py) agree with the Python rules on every preset
and switch: scoring, the match end, worthless hands, and the auction call by call."""

import random
import zlib

import numpy as np
import pytest

from analyzer.core.errors import T400Error
from analyzer.core.notation import Hand
from analyzer.games.tarneeb.auction import Auction, Call
from analyzer.games.tarneeb.bidders import counting_call, sure_tricks, team_estimate, trump_suit
from analyzer.games.tarneeb.rules import (
    PRESETS,
    TarneebVariant,
    declarer_points,
    defender_points,
    is_worthless,
    match_result,
    net_points,
)
from kernels.tarneeb import bidder as kb
from kernels.tarneeb import rules as kr


def variants():
    out = []
    for base in PRESETS.values():
        out.append(base)
        out.append(base.with_(target=51, trump_lead=True, worthless_redeal=True))
        if base.auction == "number":
            out += [base.with_(one_bid_each=True), base.with_(all_pass="forced"), base.with_(no_trump=False),
                    base.with_(failed_13_defenders="tricks", match_end="draw")]  # fmt: skip
        else:
            out.append(base.with_(all_pass="forced", passed_out=True))
    return out


VARIANTS = variants()


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.label)
def test_scoring_and_match_twins_agree(variant: TarneebVariant):
    rules = variant.kernel_rules()
    grid = np.zeros((7, 14, 2, 2), dtype=np.int64)
    kr.score_grid(rules, grid)
    for bid in range(7, 14):
        for tricks in range(14):
            for doubled in (False, True):
                assert grid[bid - 7, tricks, int(doubled), 0] == declarer_points(bid, tricks, doubled)
                assert grid[bid - 7, tricks, int(doubled), 1] == defender_points(variant, bid, tricks)
                assert kr.net_points(rules, bid, tricks, doubled) == net_points(variant, bid, tricks, doubled)
    rng = random.Random(7)
    scores = np.array([[rng.randint(-30, 70), rng.randint(-30, 70)] for _ in range(500)]
                      + [[variant.target + k, variant.target + k] for k in range(3)], dtype=np.int64)  # fmt: skip
    out = np.zeros(len(scores), dtype=np.int64)
    kr.match_results(rules, scores, out)
    for (a, b), got in zip(scores.tolist(), out):
        winner, draw, _ = match_result(variant, [a, b])
        expected = (
            kr.DRAW if draw else {(1, 3): kr.TEAM_ODD, (2, 4): kr.TEAM_EVEN, None: kr.NO_RESULT}[winner]
        )
        assert got == expected, (a, b)


def test_worthless_twin_agrees_on_random_hands():
    rng = np.random.default_rng(3)
    hands = []
    for _ in range(3000):
        cards = rng.choice(52, size=13, replace=False)
        # the shape of a real hand sometimes, but mostly short honours so that both answers occur
        hands.append(sum(1 << int(16 * (c // 13) + c % 13) for c in cards))
    bits = np.array(hands, dtype=np.uint64)
    out = np.zeros(len(bits), dtype=np.bool_)
    kr.worthless_many(bits, out)
    expected = [is_worthless(Hand(int(b))) for b in bits]
    assert out.tolist() == expected
    assert any(expected)  # both kinds of hand were checked


def random_calls(rng, variant, count):
    codes = [kr.PASS, kr.DOUBLE]
    strains = range(5) if variant.auction == "strain" else [kr.NO_STRAIN]
    codes += [kr.bid_code(level, s) for level in range(6, 15) for s in strains]
    weights = [8, 1] + [1] * (len(codes) - 2)
    return rng.choices(codes, weights=weights, k=count)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.label)
def test_auction_twin_agrees_call_by_call(variant: TarneebVariant):
    rules = variant.kernel_rules()
    rng = random.Random(zlib.crc32(variant.label.encode()))
    legal_out = np.zeros(64, dtype=np.int64)
    ended = redealt = 0
    for _ in range(300):
        auction = Auction(variant)
        state = np.zeros(kr.ST_SIZE, dtype=np.int64)
        kr.auction_start(state)
        for code in random_calls(rng, variant, 30):
            n = kr.legal_calls(rules, state, legal_out)
            assert [Call.from_code(int(c)) for c in legal_out[:n]] == auction.legal_calls()
            assert kr.next_seat(rules, state) == (-1 if auction.seat is None else auction.seat - 1)
            call = (
                Call.from_code(code) if 7 <= kr.level_of(code) <= 13 or code in (kr.PASS, kr.DOUBLE) else None
            )
            try:
                if call is None:
                    raise T400Error("not a bid")
                auction.call(call)
                python_ok = True
            except T400Error:
                python_ok = False
            assert kr.auction_step(rules, state, code) == python_ok, (
                variant.label,
                [str(c) for c in auction.calls],
                code,
            )
            if auction.over:
                break
        assert bool(state[kr.ST_OVER]) == auction.over and bool(state[kr.ST_REDEAL]) == auction.redeal
        if auction.contract is not None:
            c = auction.contract
            assert state[kr.ST_HIGH_SEAT] == c.declarer - 1 and kr.level_of(state[kr.ST_HIGH]) == c.bid
            assert (
                bool(state[kr.ST_DOUBLED]) == c.doubled
                and Call.from_code(int(state[kr.ST_HIGH])).strain == c.strain
            )
        ended += auction.over
        redealt += auction.redeal
    assert ended > 100  # most random auctions reach their end within 30 calls


def test_example_auction_in_the_kernel():
    # seed 004: "West passes, South bids 7, East 8, North 10 ... East bids 11; North passes."
    rules = TarneebVariant.preset("tarneeb").kernel_rules()
    calls = np.array(
        [Call.parse(c).code for c in ["pass", "7", "8", "10", "pass", "11", "pass"]], dtype=np.int64
    )
    state = np.zeros(kr.ST_SIZE, dtype=np.int64)
    assert kr.run_auction(rules, calls, state) == 7
    assert state[kr.ST_OVER] == 1 and state[kr.ST_HIGH_SEAT] == 2 and kr.level_of(state[kr.ST_HIGH]) == 11


def random_hand(rng: random.Random) -> Hand:
    """A random hand; every other one strong (drawn from the top half of each suit) so that the
    bots bid as well as pass."""
    if rng.random() < 0.5:
        cards = rng.sample(range(52), 13)
    else:
        top = [s * 13 + r for s in range(4) for r in range(6, 13)]
        cards = rng.sample(top, 10) + rng.sample([c for c in range(52) if c not in top], 3)
    return Hand(sum(1 << (16 * (c // 13) + c % 13) for c in cards))


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.label)
def test_counting_bidder_twin_agrees_call_by_call(variant: TarneebVariant):
    rules = variant.kernel_rules()
    rng = random.Random(zlib.crc32(variant.label.encode()))
    states, hands, expected = [], [], []
    for _ in range(300):
        # a random auction so far, then the counting bot's call for the seat to speak
        auction = Auction(variant)
        state = np.zeros(kr.ST_SIZE, dtype=np.int64)
        kr.auction_start(state)
        for _ in range(rng.randint(0, 6)):
            legal = auction.legal_calls()
            if auction.over or not legal:
                break
            call = rng.choice(legal)
            auction.call(call)
            kr.auction_step(rules, state, call.code)
        if auction.over:
            continue
        hand = random_hand(rng)
        states.append(state)
        hands.append(hand.bits)
        expected.append(counting_call(auction, hand).code)
    out = np.zeros(len(hands), dtype=np.int64)
    kb.counting_calls(rules, np.array(states), np.array(hands, dtype=np.uint64), out)
    assert out.tolist() == expected
    assert kr.PASS in expected and any(c >= 8 * 7 for c in expected)  # passes and bids were compared


def test_counting_estimates_twin():
    rng = random.Random(9)
    for _ in range(500):
        hand = random_hand(rng)
        suit = trump_suit(hand)
        assert kb_trump(hand.bits) == int(suit)
        assert kb_sure(hand.bits, int(suit)) == sure_tricks(hand, suit)
        assert kb_team(hand.bits) == team_estimate(hand)


def kb_trump(bits):
    return int(kb.counting_trump(np.uint64(bits)))


def kb_sure(bits, suit):
    return int(kb.counting_sure(np.uint64(bits), suit))


def kb_team(bits):
    return int(kb.counting_team(np.uint64(bits)))
