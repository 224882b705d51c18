"""Classic and Egyptian Tarneeb rules, read against the seed texts 003 (Dananeer) and 004 (generic).

Seats: seat 1 speaks first, seat 4 deals; partners 1+3 and 2+4; team totals seats 1+3 first.
"""

import pytest

from analyzer.core.errors import T400Error
from analyzer.core.notation import parse_hand
from analyzer.core.strains import Strain
from analyzer.games.tarneeb.auction import Auction, Call, Contract, auction_result
from analyzer.games.tarneeb.rules import (
    OPEN_POINTS,
    PRESETS,
    TarneebVariant,
    declarer_points,
    defender_points,
    describe,
    is_worthless,
    match_result,
    settle_hand,
)

DANANEER = TarneebVariant.preset("tarneeb-dananeer")
GENERIC = TarneebVariant.preset("tarneeb")
EGYPTIAN = TarneebVariant.preset("egyptian")


# -- seed 003's score table: "| Bid | Buyers' tricks | Defenders' tricks | Buying team | Defending team |"
@pytest.mark.parametrize(
    "bid, tricks, buyers, defenders",
    [
        (7, 7, +7, 0),
        (7, 9, +9, 0),
        (7, 13, +16, 0),  # Kaboot
        (7, 6, -7, +7),
        (11, 4, -11, +9),
        (11, 0, -11, +16),
        (13, 13, +26, 0),
        (13, 12, -16, +1),
    ],
)
def test_dananeer_score_table_rows(bid, tricks, buyers, defenders):
    assert declarer_points(bid, tricks) == buyers
    assert defender_points(DANANEER, bid, tricks) == defenders
    r = settle_hand(DANANEER, [0, 0], declarer=1, bid=bid, tricks=tricks)
    assert r.deltas == (buyers, defenders) and r.made == (tricks >= bid)


def test_generic_examples():
    # "East-West bid 9 and win 10 tricks: they score 10, North-South nothing."
    first = settle_hand(GENERIC, [0, 0], declarer=2, bid=9, tricks=10)
    assert first.deltas == (0, 10)
    # "Next hand North-South bid 8 but only win 6: they score -8, and East-West score 7."
    second = settle_hand(GENERIC, first.scores, declarer=1, bid=8, tricks=6)
    assert second.deltas == (-8, 7) and second.scores == (-8, 17)


def test_generic_bid_of_13():
    # "If a team bids 13 and wins every trick it scores 26. If it loses even one trick it scores
    # -16, and the other team scores double its tricks."
    assert settle_hand(GENERIC, [0, 0], 3, 13, 13).deltas == (26, 0)
    assert settle_hand(GENERIC, [0, 0], 3, 13, 11).deltas == (-16, 4)
    # "Kaboot: winning all 13 tricks without having bid 13 scores 16 instead of 13."
    r = settle_hand(GENERIC, [0, 0], 4, 8, 13)
    assert r.deltas == (0, 16) and r.kaboot


def test_made_contract_scores_the_tricks_taken_not_the_bid():
    # "winning the auction at 7 and taking 9 still earns 9"
    assert settle_hand(DANANEER, [0, 0], 1, 7, 9).deltas == (9, 0)


def test_totals_can_go_negative():
    assert settle_hand(GENERIC, [3, 0], 1, 10, 5).scores == (-7, 8)


# -- the match


def test_dananeer_match_to_31_higher_total_wins_equal_is_a_draw():
    r = settle_hand(DANANEER, [25, 20], 1, 7, 8)
    assert r.scores == (33, 20) and r.winner == (1, 3) and not r.draw
    r = settle_hand(DANANEER, [20, 28], 1, 11, 2)  # defenders reach 39, declarers fall to 9
    assert r.winner == (2, 4)
    r = settle_hand(DANANEER, [24, 31 - 7], 1, 7, 7)  # 31 against 24: the team that reached 31 wins
    assert r.winner == (1, 3)
    r = settle_hand(DANANEER, [27, 27], 2, 7, 4)  # seats 2+4 fail 7: the defenders' 9 tricks take them to 36
    assert r.scores == (36, 20) and r.winner == (1, 3)


def test_match_end_when_totals_tie_over_the_target():
    # Only one team scores in a hand, so a hand cannot bring both teams over the target; the
    # seeds' tie rules still apply to totals given directly.
    assert match_result(DANANEER, [32, 32])[1]  # seed 003: "exactly equal totals are a draw"
    winner, draw, reason = match_result(GENERIC, [32, 32])  # seed 004: "on a tie, play another hand"
    assert winner is None and not draw and "another hand" in reason
    assert match_result(GENERIC, [35, 32])[0] == (1, 3)  # "the higher total wins"


def test_first_team_to_reach_the_target_wins():
    r = settle_hand(GENERIC, [30, 29], declarer=1, bid=7, tricks=6)  # failed: 1+3 lose 7, 2+4 score 7
    assert r.scores == (23, 36) and r.winner == (2, 4)


def test_no_hand_after_the_match_is_over():
    with pytest.raises(T400Error, match="already over"):
        settle_hand(GENERIC, [31, 0], 1, 7, 7)


@pytest.mark.parametrize("target", [31, 41, 51, 61])
def test_longer_games(target):
    v = GENERIC.with_(target=target)
    assert settle_hand(v, [target - 8, 0], 1, 8, 8).winner == (1, 3)
    assert settle_hand(v, [target - 9, 0], 1, 8, 8).winner is None


# -- the auction


def test_seed_004_example_auction():
    # "North deals. West passes, South bids 7, East 8, North 10. West is out; South passes;
    # East bids 11; North passes. East is declarer with a contract of 11 tricks."
    # Anticlockwise from North: West is seat 1, South 2, East 3, North (dealer) 4.
    a = Auction(GENERIC)
    for seat, call in [(1, "pass"), (2, "7"), (3, "8"), (4, "10"), (2, "pass"), (3, "11"), (4, "pass")]:
        assert a.seat == seat  # West is out, so South speaks after North
        a.call(call)
    assert a.over and a.contract == Contract(declarer=3, bid=11)


def test_a_bid_must_be_higher_and_a_passed_player_is_out():
    a = auction_result(GENERIC, ["8"])
    with pytest.raises(T400Error, match="higher than the standing bid of 8"):
        a.call("8")
    a = auction_result(GENERIC, ["pass", "7", "8", "pass"])
    assert a.seat == 2  # seat 1 passed: out for the hand, the turn goes to seat 2


def test_auction_ends_when_three_have_passed_and_one_bid_stands():
    a = auction_result(GENERIC, ["pass", "7", "pass", "pass"])
    assert a.over and a.contract == Contract(declarer=2, bid=7)


def test_an_overtaken_bidder_may_bid_again():
    a = auction_result(DANANEER, ["7", "8", "pass", "pass", "9", "pass"])
    assert a.over and a.contract == Contract(declarer=1, bid=9)


def test_13_closes_the_auction_at_once():
    a = auction_result(DANANEER, ["7", "13"])
    assert a.over and a.contract == Contract(declarer=2, bid=13)


def test_dananeer_the_fourth_must_bid_when_the_first_three_pass():
    a = auction_result(DANANEER, ["pass", "pass", "pass"])
    assert a.seat == 4 and [str(c) for c in a.legal_calls()] == [str(b) for b in range(7, 14)]
    with pytest.raises(T400Error, match="must bid at least 7"):
        a.call("pass")
    a.call("7")
    assert a.contract == Contract(declarer=4, bid=7)


def test_generic_all_four_passing_redeals():
    a = auction_result(GENERIC, ["pass"] * 4)
    assert a.over and a.redeal and a.contract is None
    forced = auction_result(GENERIC.with_(all_pass="forced"), ["pass"] * 3)
    assert not forced.over and forced.must_bid(4)


def test_one_bid_each_the_dealer_only_needs_to_equal():
    v = GENERIC.with_(one_bid_each=True)
    a = auction_result(v, ["8", "pass", "9", "9"])
    assert a.contract == Contract(declarer=4, bid=9)
    with pytest.raises(T400Error, match="higher"):
        auction_result(v, ["8", "8"])
    a = auction_result(v, ["8", "pass", "9", "pass"])
    assert a.contract == Contract(declarer=3, bid=9)


def test_egyptian_bids_name_a_strain_and_overcall_by_tricks_or_strain():
    a = auction_result(EGYPTIAN, ["8H", "8S", "8NT", "9C"])
    assert not a.over and str(a.high) == "9C"
    with pytest.raises(T400Error, match="more tricks, or as many in a higher strain"):
        a.call("8NT")
    with pytest.raises(T400Error, match="names its strain"):
        a.call("10")


def test_egyptian_passed_players_bid_again_and_a_whole_round_of_passes_ends():
    a = auction_result(EGYPTIAN, ["8H", "pass", "pass", "pass"])
    assert a.over and a.contract == Contract(1, 8, Strain.HEARTS)
    a = auction_result(EGYPTIAN, ["pass", "8H", "pass", "pass", "9D"])  # seat 1 passed, then bids
    assert not a.over and a.high_seat == 1


def test_egyptian_double():
    # "a player may double an opponent's bid, which doubles what the declarer's team wins or loses"
    a = auction_result(EGYPTIAN, ["8H", "double", "pass", "pass", "pass"])
    assert a.contract == Contract(1, 8, Strain.HEARTS, doubled=True)
    with pytest.raises(T400Error, match="other team's bid"):
        auction_result(EGYPTIAN, ["8H", "pass", "double"])
    with pytest.raises(T400Error, match="no doubling"):
        auction_result(GENERIC, ["8", "double"])
    made = settle_hand(EGYPTIAN, [0, 0], 1, 8, 9, trump="H", doubled=True)
    failed = settle_hand(EGYPTIAN, [0, 0], 1, 8, 6, trump="H", doubled=True)
    assert made.deltas == (18, 0) and failed.deltas == (-16, 7)
    # a new bid cancels the double
    a = auction_result(EGYPTIAN, ["8H", "double", "9H", "pass", "pass", "pass"])
    assert a.contract == Contract(3, 9, Strain.HEARTS, doubled=False)


def test_no_trump_where_allowed():
    assert Strain.NO_TRUMP not in DANANEER.strains()  # "There is no no-trump option in base Tarneeb."
    assert Strain.NO_TRUMP in GENERIC.strains()  # "They may also announce ... without trumps."
    with pytest.raises(T400Error, match="no-trump is not allowed"):
        settle_hand(DANANEER, [0, 0], 1, 8, 8, trump="NT")
    assert settle_hand(GENERIC, [0, 0], 1, 8, 8, trump="NT").trump == "NT"


def test_calls_are_parsed_and_named():
    assert [str(Call.parse(t)) for t in ("p", "PASS", "10", "10nt", "7♠", "x")] == [
        "pass",
        "pass",
        "10",
        "10NT",
        "7S",
        "double",
    ]
    for bad, message in [
        ("6", "7 to 13"),
        ("14H", "7 to 13"),
        ("8Z", "not a strain"),
        ("hello", "expected pass"),
    ]:
        with pytest.raises(T400Error, match=message):
            Call.parse(bad)


def test_illegal_call_changes_nothing():
    a = auction_result(GENERIC, ["8"])
    with pytest.raises(T400Error):
        a.call("7")
    assert len(a.calls) == 1 and a.seat == 2


def test_worthless_hand():
    # "no Ace, no King with a second card, no Queen with two others, no Jack with three others"
    assert is_worthless(parse_hand("K.QJ.J32.T987654"))
    assert not is_worthless(parse_hand("K2.QJ.J3.T987654"))  # a king with a second card
    assert not is_worthless(parse_hand("A.QJ.J32.T987654"))  # an ace
    assert not is_worthless(parse_hand("Q32.J.J.T9876542"))  # a queen with two others
    assert not is_worthless(parse_hand("J432.Q2.K.T98765"))  # a jack with three others


def test_presets_and_open_points():
    assert set(PRESETS) == {"tarneeb-dananeer", "tarneeb", "egyptian"}
    assert EGYPTIAN.target == 41 and DANANEER.target == 31 and GENERIC.target == 31
    info = describe(EGYPTIAN)
    assert info["game"] == "tarneeb" and info["open_points"] == OPEN_POINTS
    assert info["strains"] == ["S", "H", "D", "C", "NT"]
    rows = {
        (r["bid"], r["tricks"]): (r["declarers"], r["defenders"])
        for r in describe(DANANEER)["scoring"]["examples"]
    }
    assert rows[(11, 0)] == (-11, 16)


def test_switch_conflicts_are_named():
    with pytest.raises(T400Error, match="one-bid-each is a rule of the number auction"):
        EGYPTIAN.with_(one_bid_each=True)
    with pytest.raises(T400Error, match="unknown Tarneeb variant"):
        TarneebVariant.preset("belote")
    with pytest.raises(T400Error, match="doubled contract"):
        settle_hand(GENERIC, [0, 0], 1, 8, 8, doubled=True)
    for bad in (dict(tricks=14), dict(bid=6), dict(declarer=5)):
        args = dict(declarer=1, bid=8, tricks=8) | bad
        with pytest.raises(T400Error):
            settle_hand(GENERIC, [0, 0], **args)
