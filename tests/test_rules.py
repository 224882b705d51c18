"""The rules of 400, one test per rule of ../shared/RULES.md and the seed texts.

Seats are bidding order: seat 1 bids first and leads, seat 4 deals; partners 1+3 and 2+4.
"""

import random
import zlib

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyzer.core.errors import T400Error
from analyzer.core.notation import Suit
from analyzer.games.t400.rules import (
    FIRST_LEADER,
    OPEN_POINTS,
    PRESETS,
    REDEALS,
    SCORE_TABLES,
    TIE_BREAKS,
    TRUMP,
    MatchState,
    as_variant,
    describe,
    is_made,
    match_winner,
    settle_round,
    value_row,
)
from kernels.t400 import rules as kr

DANANEER = PRESETS["dananeer"]
QAHWA = PRESETS["qahwa"]
SYRIAN = PRESETS["syrian41"]
COMMON_PRESETS = [DANANEER, QAHWA]


def values(variant, score):
    return [variant.bid_value(b, score) for b in range(2, 14)]


# -- the value table ------------------------------------------------------------------------
@pytest.mark.parametrize("variant", COMMON_PRESETS)
def test_value_table_on_29_or_less(variant):
    """| own score <=29 | 2 | 3 | 4 | 10 | 12 | 14 | 16 | 27 | 40 |"""
    assert values(variant, 29) == [2, 3, 4, 10, 12, 14, 16, 27, 40, 40, 40, 40]
    assert values(variant, 0) == values(variant, -20) == values(variant, 29)


@pytest.mark.parametrize("variant", COMMON_PRESETS)
def test_value_table_on_30_or_more(variant):
    """| own score >=30 | 2 | 3 | 4 | 5 | 6 | 14 | 16 | 27 | 40 |"""
    assert values(variant, 30) == [2, 3, 4, 5, 6, 14, 16, 27, 40, 40, 40, 40]
    assert values(variant, 55) == values(variant, 30)


def test_on_29_or_less_bids_from_5_are_doubled_on_30_or_more_doubling_starts_at_7():
    for bid in range(5, 9):
        assert DANANEER.bid_value(bid, 29) == 2 * bid
    for bid in (5, 6):
        assert DANANEER.bid_value(bid, 30) == bid
    for bid in (7, 8):
        assert DANANEER.bid_value(bid, 30) == 2 * bid


def test_a_bid_of_9_is_always_27_and_10_or_more_a_flat_40():
    for score in (-10, 0, 29, 30, 45, 60):
        assert DANANEER.bid_value(9, score) == 27
        assert {DANANEER.bid_value(b, score) for b in (10, 11, 12, 13)} == {40}


def test_qahwa_classic_score_table_10_is_30_11_is_33_12_is_36_and_13_is_outright():
    classic = QAHWA.with_(score_table="classic")
    assert [classic.bid_value(b, 0) for b in (10, 11, 12)] == [30, 33, 36]
    assert classic.is_outright(13) and not classic.is_outright(12)
    assert not QAHWA.is_outright(13)
    # below 10 the classic table is the common one
    assert values(classic, 0)[:8] == values(QAHWA, 0)[:8]
    assert values(classic, 30)[:8] == values(QAHWA, 30)[:8]


def test_syrian_41_below_5_worth_its_number_5_or_more_double():
    assert values(SYRIAN, 0) == [2, 3, 4, 10, 12, 14, 16, 18, 20, 22, 24, 26]
    assert values(SYRIAN, 40) == values(SYRIAN, 0)


@pytest.mark.parametrize("bid", [0, 1, 14, 2.5])
def test_a_bid_is_2_to_13_tricks(bid):
    with pytest.raises(T400Error, match="from 2 to 13"):
        DANANEER.bid_value(bid, 0)


# -- minimums -----------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", COMMON_PRESETS)
def test_personal_minimum_rises_with_own_score(variant):
    """<=29: 2; 30-39: 3; 40-49: 4; >=50: 5."""
    assert [variant.min_bid(s) for s in (-7, 0, 29)] == [2, 2, 2]
    assert [variant.min_bid(s) for s in (30, 39)] == [3, 3]
    assert [variant.min_bid(s) for s in (40, 49)] == [4, 4]
    assert [variant.min_bid(s) for s in (50, 80)] == [5, 5]


@pytest.mark.parametrize("variant", COMMON_PRESETS)
def test_table_minimum_rises_with_the_highest_score(variant):
    """<=29: 11; 30-39: 12; 40-49: 13; >=50: 14, by the highest score at the table."""
    assert variant.table_minimum([29, 0, -5, 10]) == 11
    assert variant.table_minimum([0, 30, 0, 0]) == 12
    assert variant.table_minimum([0, 0, 49, 35]) == 13
    assert variant.table_minimum([50, 0, 0, 0]) == 14


def test_qahwa_table_minimum_switch_and_whether_it_rises():
    for base in (11, 12, 13):
        rising = QAHWA.with_(table_min=base)
        fixed = QAHWA.with_(table_min=base, table_min_rises=False)
        assert [rising.table_minimum([s]) for s in (0, 30, 40, 50)] == [base, base + 1, base + 2, base + 3]
        assert [fixed.table_minimum([s]) for s in (0, 30, 40, 50)] == [base] * 4


def test_syrian_41_keeps_minimum_2_and_table_minimum_11():
    assert [SYRIAN.min_bid(s) for s in (0, 30, 40, 50)] == [2, 2, 2, 2]
    assert [SYRIAN.table_minimum([s]) for s in (0, 30, 40, 50)] == [11] * 4


def test_fixed_personal_minimum_switch():
    v = DANANEER.with_(min_bid_rises=False)
    assert v.min_bid(55) == 2


# -- dead hands -------------------------------------------------------------------------------
def test_bids_short_of_the_table_minimum_kill_the_hand_and_nothing_is_scored():
    r = settle_round(DANANEER, [0, 0, 0, 0], [3, 2, 3, 2])
    assert r.dead and r.scores == (0, 0, 0, 0) and r.deltas == (0, 0, 0, 0)
    assert DANANEER.is_dead([3, 2, 3, 2], [0] * 4)
    assert not DANANEER.is_dead([3, 3, 3, 2], [0] * 4)


def test_the_table_minimum_depends_on_the_highest_score_not_the_bidders():
    scores = [40, 0, 0, 0]
    assert DANANEER.is_dead([4, 3, 3, 2], scores)  # 12 < 13
    assert not DANANEER.is_dead([4, 3, 3, 3], scores)


def test_dananeer_dead_hand_is_redealt_by_the_same_dealer():
    assert settle_round(DANANEER, [0] * 4, [2, 2, 2, 2]).dealer_advances is False


def test_qahwa_dead_hand_is_redealt_by_the_next_dealer():
    assert settle_round(QAHWA, [0] * 4, [2, 2, 2, 2]).dealer_advances is True


def test_after_each_completed_round_the_deal_passes():
    assert settle_round(DANANEER, [0] * 4, [3, 3, 3, 2], [3, 3, 3, 4]).dealer_advances is True


# -- scoring ------------------------------------------------------------------------------------
def test_qahwa_worked_example_bid_9_take_9_win_27_take_8_lose_27_whatever_partner_took():
    made = settle_round(QAHWA, [0] * 4, [9, 2, 2, 2], [9, 2, 0, 2])
    assert made.deltas[0] == 27
    failed = settle_round(QAHWA, [0] * 4, [9, 2, 2, 2], [8, 2, 1, 2])
    assert failed.deltas[0] == -27
    failed_partner_rich = settle_round(QAHWA, [0] * 4, [9, 2, 2, 2], [8, 0, 5, 0])
    assert failed_partner_rich.deltas[0] == -27


def test_overtricks_earn_nothing_and_scores_can_go_negative():
    r = settle_round(DANANEER, [0, 0, 0, 0], [2, 5, 2, 2], [8, 3, 1, 1])
    assert r.deltas == (2, -10, -2, -2)
    assert r.scores == (2, -10, -2, -2)


def test_value_is_taken_at_the_bidders_own_score_before_the_round():
    r = settle_round(DANANEER, [29, 30, 0, 0], [5, 5, 2, 2], [5, 5, 2, 1])
    assert r.deltas[:2] == (10, 5)


def test_a_bid_below_the_personal_minimum_is_rejected():
    with pytest.raises(T400Error, match="seat 2 bid 2 is below its minimum of 3 at score 31"):
        settle_round(DANANEER, [0, 31, 0, 0], [3, 2, 3, 3], [4, 3, 3, 3])


def test_tricks_must_add_up_to_13():
    with pytest.raises(T400Error, match="add up to 12, not 13"):
        settle_round(DANANEER, [0] * 4, [3, 3, 3, 3], [3, 3, 3, 3])


def test_wrong_number_of_values():
    with pytest.raises(T400Error, match="bids: expected 4 values"):
        settle_round(DANANEER, [0] * 4, [3, 3, 3], [3, 3, 3, 4])


def test_both_partnerships_qualify_and_the_higher_leading_score_wins():
    r = settle_round(DANANEER, [38, 38, 5, 5], [3, 4, 3, 2], [3, 4, 3, 3])
    assert r.scores == (41, 42, 8, 7) and not r.dead and r.winner == (2, 4)


# -- winning ------------------------------------------------------------------------------------
def test_partnership_wins_with_one_partner_at_41_and_the_other_above_zero():
    assert match_winner(DANANEER, [41, 0, 1, 0]) == ((1, 3), "target")
    assert match_winner(DANANEER, [3, 45, 0, 1])[0] == (2, 4)


def test_reaching_41_with_partner_at_zero_or_below_does_not_win():
    assert match_winner(DANANEER, [41, 0, 0, 0]) == (None, None)
    assert match_winner(DANANEER, [60, 0, -4, 0]) == (None, None)


def test_dananeer_both_qualify_leading_partner_decides_then_total():
    assert match_winner(DANANEER, [45, 41, 1, 20])[0] == (1, 3)  # leader 45 > 41 though total 46 < 61
    assert match_winner(DANANEER, [45, 45, 1, 20])[0] == (2, 4)  # leaders equal: total 65 > 46
    winner, reason = match_winner(DANANEER, [45, 45, 5, 5])
    assert winner is None and "another hand" in reason


def test_qahwa_both_qualify_higher_total_wins_equal_plays_another_hand():
    assert match_winner(QAHWA, [45, 41, 1, 20])[0] == (2, 4)  # total 61 > 46
    winner, reason = match_winner(QAHWA, [45, 41, 16, 20])
    assert winner is None and "another hand" in reason


@pytest.mark.parametrize("target", [31, 41, 61])
def test_qahwa_target_switch_keeps_the_partner_above_zero_condition(target):
    v = QAHWA.with_(target=target)
    assert match_winner(v, [target, 0, 1, 0])[0] == (1, 3)
    assert match_winner(v, [target - 1, 0, 1, 0])[0] is None
    assert match_winner(v, [target, 0, 0, 0])[0] is None


def test_classic_13_made_wins_the_game_outright():
    classic = QAHWA.with_(score_table="classic")
    r = settle_round(classic, [0, 0, 0, 0], [13, 2, 2, 2], [13, 0, 0, 0])
    assert r.winner == (1, 3) and "outright" in r.reason
    assert r.deltas[0] == 39


def test_classic_13_failed_loses_the_game_outright():
    classic = QAHWA.with_(score_table="classic")
    r = settle_round(classic, [0, 0, 0, 0], [2, 13, 2, 2], [1, 12, 0, 0])
    assert r.winner == (1, 3) and "seat 2 failed 13" in r.reason


def test_classic_13_outcomes_pointing_both_ways_cancel():
    classic = QAHWA.with_(score_table="classic")
    r = settle_round(classic, [0, 0, 0, 0], [13, 13, 2, 2], [6, 6, 1, 0])
    assert r.winner is None


# -- the match across rounds -----------------------------------------------------------------------
def test_match_state_rotates_seats_and_keeps_player_scores():
    m = MatchState(DANANEER)
    assert m.seat_players() == (1, 2, 3, 4) and m.dealer == 4
    m = m.play_round([3, 3, 3, 3], [4, 3, 3, 3])
    assert m.dealer == 1 and m.seat_players() == (2, 3, 4, 1)
    assert m.seat_scores() == (3, 3, 3, 3)
    m = m.play_round([2, 2, 2, 2])  # dead: Dananeer keeps the dealer
    assert m.dealer == 1 and m.dead_hands == 1 and m.hands_played == 1


def test_match_state_qahwa_dead_hand_moves_the_deal():
    m = MatchState(QAHWA).play_round([2, 2, 2, 2])
    assert m.dealer == 1


def test_match_state_reports_the_winning_players():
    m = MatchState(DANANEER, scores=(38, 30, 5, 5), dealer=1)  # seats: players 2, 3, 4, 1
    m = m.play_round([3, 3, 3, 3], [1, 3, 5, 4])  # player 1 (seat 4) makes 3 -> 41, partner 3 at 8
    assert m.winner == (1, 3) and m.over
    with pytest.raises(T400Error, match="the match is over"):
        m.play_round([3, 3, 3, 3], [1, 3, 5, 4])


# -- variants -----------------------------------------------------------------------------------
def test_presets_and_switches():
    assert DANANEER.tie_break == "leader-then-total" and DANANEER.redeal == "same"
    assert QAHWA.tie_break == "total" and QAHWA.redeal == "next"
    assert as_variant("QAHWA", target=31).label == "qahwa target=31"
    with pytest.raises(T400Error, match="unknown variant 'foo'"):
        as_variant("foo")
    with pytest.raises(T400Error, match="score table 'x'"):
        DANANEER.with_(score_table="x")
    with pytest.raises(T400Error, match="target 0"):
        DANANEER.with_(target=0)


def test_every_open_point_is_decided_as_stated():
    assert describe(SYRIAN)["open_points"] is OPEN_POINTS
    assert set(OPEN_POINTS) == {"trump", "value-brackets", "table-min-rises", "leader-tie", "classic-13",
                                "syrian41", "dead-hand-deal"}  # fmt: skip
    # trump: hearts in every variant, and that is what the kernels are given
    assert TRUMP == Suit.HEARTS
    assert {int(v.kernel_rules()[kr.TRUMP]) for v in PRESETS.values()} == {Suit.HEARTS}
    # value-brackets: negative scores use the '29 or less' row
    assert values(DANANEER, -35) == values(DANANEER, 29)
    # table-min-rises: a chosen base still rises at 30, unless fixed
    assert QAHWA.with_(table_min=12).table_minimum([30, 0, 0, 0]) == 13
    assert QAHWA.with_(table_min=12, table_min_rises=False).table_minimum([30, 0, 0, 0]) == 12
    # leader-tie: equal leading scores and totals: no winner, another hand
    assert match_winner(DANANEER, [41, 41, 5, 5])[0] is None
    # classic-13: booked at 39, and outright results pointing both ways cancel
    classic = QAHWA.with_(score_table="classic")
    assert classic.bid_value(13, 0) == 39
    one = settle_round(classic, [0, 0, 0, 0], [13, 2, 2, 2], [0, 5, 4, 4])
    assert one.winner == (2, 4) and one.reason.startswith("outright")
    both = settle_round(classic, [0, 0, 0, 0], [13, 13, 2, 2], [0, 0, 6, 7])
    assert both.winner is None and both.scores == (-39, -39, 2, 2)
    # syrian41: fixed minimums 2 and 11, Qahwa's tie-break and re-deal
    assert (SYRIAN.min_bid(55), SYRIAN.table_minimum([55, 0, 0, 0])) == (2, 11)
    assert (SYRIAN.tie_break, SYRIAN.redeal) == ("total", "next")
    # dead-hand-deal: nothing scored; the same dealer (dananeer) or the next (qahwa) re-deals
    for variant, advances in ((DANANEER, False), (QAHWA, True)):
        r = settle_round(variant, [0, 0, 0, 0], [2, 2, 2, 2])
        assert r.dead and r.deltas == (0, 0, 0, 0) and r.dealer_advances is advances


#: Every preset, and every switch moved away from each preset's value.
ALL_VARIANTS = [
    *PRESETS.values(),
    *(
        preset.with_(**{name: value})
        for preset in PRESETS.values()
        for name, choices in {
            "target": (31, 61), "table_min": (12, 13), "table_min_rises": (True, False),
            "min_bid_rises": (True, False), "score_table": SCORE_TABLES, "tie_break": TIE_BREAKS,
            "redeal": REDEALS,
        }.items()
        for value in choices
        if getattr(preset, name) != value
    ),
]  # fmt: skip
SCORES = [-40, -1, 0, 1, 29, 30, 31, 39, 40, 41, 49, 50, 51, 75]


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=lambda v: v.label)
def test_kernel_rules_twins_agree_with_the_python_rules(variant):
    """One Python function per rule, one Numba twin, the same answers on every preset and switch."""
    rules = variant.kernel_rules()
    rng = random.Random(zlib.crc32(variant.label.encode()))
    for score in SCORES:
        assert kr.value_row(rules, score) == value_row(score)
        assert kr.min_bid(rules, score) == variant.min_bid(score)
        for bid in range(2, 14):
            assert kr.bid_value(rules, bid, score) == variant.bid_value(bid, score)
            assert kr.is_outright(rules, bid) == variant.is_outright(bid)
            for tricks in range(14):
                assert kr.is_made(bid, tricks) == is_made(bid, tricks)
                assert kr.score_change(rules, bid, tricks, score) == variant.score_change(bid, tricks, score)
    for _ in range(400):
        scores = [rng.choice(SCORES) + rng.randint(-3, 3) for _ in range(4)]
        arr = np.array(scores, dtype=np.int64)
        assert kr.table_minimum(rules, arr) == variant.table_minimum(scores)
        total = rng.randint(8, 20)
        assert kr.is_dead(rules, total, arr) == variant.is_dead([total, 0, 0, 0], scores)
        winner, reason = kr.match_winner(rules, arr)
        expected, why = match_winner(variant, scores)
        assert winner == {(1, 3): 0, (2, 4): 1, None: -1}[expected]
        if expected is not None:
            assert kr.END_NAMES[reason] == {"target": "target",
                                            "tie-break: higher leading score": "tie-break: leading score",
                                            "tie-break: higher combined score": "tie-break: combined score"}[why]  # fmt: skip
    assert kr.redeal_advances(rules) == variant.redeal_advances
    assert rules[kr.LEADER] == FIRST_LEADER - 1 and rules[kr.TARGET] == variant.target


# -- property tests: settle-round invariants ------------------------------------------------------
scores_st = st.lists(st.integers(-80, 80), min_size=4, max_size=4)
tricks_st = st.lists(st.integers(0, 13), min_size=3, max_size=3).filter(lambda t: sum(t) <= 13)
variant_st = st.sampled_from(
    [DANANEER, QAHWA, SYRIAN, QAHWA.with_(score_table="classic"), QAHWA.with_(target=31, table_min=13)]
)


@st.composite
def rounds(draw):
    variant = draw(variant_st)
    scores = draw(scores_st.filter(lambda s: match_winner(variant, s)[0] is None))
    bids = [draw(st.integers(variant.min_bid(s), 13)) for s in scores]
    t = draw(tricks_st)
    return variant, scores, bids, [*t, 13 - sum(t)]


@given(rounds())
def test_settle_round_invariants(case):
    variant, scores, bids, tricks = case
    r = settle_round(variant, scores, bids, tricks)
    if r.dead:
        assert r.scores == tuple(scores), "a dead hand changes no score"
        assert sum(bids) < variant.table_minimum(scores)
        return
    for seat in range(4):
        value = variant.bid_value(bids[seat], scores[seat])
        change = r.scores[seat] - scores[seat]
        assert abs(change) == value, "scores change by exactly the value table"
        if tricks[seat] >= bids[seat]:
            assert change > 0, "a made bid never lowers a score"
        else:
            assert change < 0
    if r.winner is not None and "outright" not in (r.reason or ""):
        a, b = r.winner
        assert max(r.scores[a - 1], r.scores[b - 1]) >= variant.target
        assert min(r.scores[a - 1], r.scores[b - 1]) > 0


def test_a_round_after_the_match_is_won_is_refused():
    with pytest.raises(T400Error, match="seats 1 and 3 have already won"):
        settle_round(DANANEER, [41, 0, 5, 0], [2, 2, 2, 2])
    level = settle_round(DANANEER, [41, 41, 5, 5], [4, 4, 3, 3], [4, 4, 3, 2])  # level: another hand
    assert level.scores == (45, 45, 8, 2) and level.winner == (1, 3)


def test_the_rules_sentences_are_the_catalogues_and_say_where_they_stand():
    """``t400 rules --json`` gives, beside each sentence, its catalogue key and parameters
    (``said``), so the page can say the rules in Arabic: each key fills to the sentence shown."""
    from analyzer.core.messages import text
    from analyzer.games.t400 import rules as t400_rules
    from analyzer.games.tarneeb import rules as tarneeb_rules

    described = [t400_rules.describe(v) for v in t400_rules.PRESETS.values()]
    described += [tarneeb_rules.describe(v) for v in tarneeb_rules.PRESETS.values()]
    for d in described:
        assert d["said"]
        for path, said in d["said"].items():
            node = d
            for part in path.split("."):
                node = node[part]
            assert node == text(said["key"], **said["params"]), path
