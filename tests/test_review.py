"""``t400 review``: hand records read and written without loss, bad records refused in one line,
the bidding part equal to ``t400 bid --json``, the card part equal to ``t400 solve`` on the
positions before and after, zero loss for a hand bid and played as the analyzer and double dummy
would, and a costly discard and a costly bid marked with what they cost."""

import dataclasses
import json

import pytest
from conftest import run

from analyzer.core.notation import Deal, Hand, parse_deal
from analyzer.core.records import HandRecord, play_tricks
from analyzer.core.solve import solve_targets
from analyzer.games.registry import get as game_of
from analyzer.games.registry import read_records
from analyzer.games.t400.advice import recommend_bid
from analyzer.games.t400.rules import TRUMP, Variant

DEAL = "AKQ5.KJ4.T93.862 JT9.AQ7.KQ5.AKQ3 8743.T986.A76.T9 62.532.J842.J754"
SAMPLES = 4000
#: A deal whose line of best play (with the EV bots' bids 3,3,2,3) lets seat 3, void in clubs
#: at card 19, keep the diamond jack, the master; throwing it sets seat 3's bid of 2.
DISCARD_DEAL = "J93.KT9.A.AJ8753 KQ87.AJ.T965.KQT 654.7652.QJ842.2 AT2.Q843.K73.964"
DISCARD_LINE = "DA D6 D2 D3 CA CT C2 C4 CJ CK H2 C6 DQ DK HT D5 C8 CQ"


def record_400(bids, cards, deal=DEAL, scores=(0, 0, 0, 0)) -> str:
    return (f"game 400; variant dananeer; scores {','.join(map(str, scores))}; deal {deal}; "
            f"bids {','.join(map(str, bids))}; play {cards}")  # fmt: skip


def review_json(*args, layouts="0"):
    """``t400 review ARGS --json``; without the decision costs unless ``layouts`` is given (the
    tests of the decisions ask for them)."""
    r = run("review", *args, "--json", "--layouts", layouts)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


@pytest.fixture(scope="module")
def best_hand():
    """The hand bid as the analyzer recommends (same seed and samples) and played on a line of
    400 double dummy with the bids: every figure of its review is zero loss."""
    v = Variant.preset("dananeer")
    deal = parse_deal(DEAL)
    bids = []
    for seat in range(1, 5):
        bids.append(
            recommend_bid(deal.hands[seat - 1], seat=seat, bids=bids, samples=SAMPLES, seed=3).recommended
        )
    assert not v.is_dead(bids, [0, 0, 0, 0])
    _, _, line = solve_targets(deal, bids, [v.bid_value(b, 0) for b in bids])
    return bids, " ".join(map(str, line))


def test_a_record_reads_back_as_written_in_both_spellings():
    rec = read_records(record_400([3, 5, 2, 2], "SA S9 S3 S2 SK"))[0]
    assert rec.bids == (3, 5, 2, 2) and [str(c) for c in rec.cards] == ["SA", "S9", "S3", "S2", "SK"]
    assert read_records(rec.to_text())[0] == rec
    assert read_records(json.dumps(rec.to_dict()))[0] == rec
    batch = "\n".join([json.dumps(rec.to_dict()), "# a comment", rec.to_text()])
    assert [r.line for r in read_records(batch)] == [1, 3]


def test_a_hand_bid_and_played_best_loses_nothing(best_hand):
    bids, line = best_hand
    rev = review_json(record_400(bids, line), "--samples", SAMPLES, "--seed", 3)
    assert [b["verdict"] for b in rev["bidding"]] == ["best"] * 4
    assert all(b["loss"] == 0 for b in rev["bidding"])
    assert len(rev["cards"]) == 52 and all(c["cost"] == 0 for c in rev["cards"])
    assert all(p["play_loss"] == 0 and p["first_costly"] is None for p in rev["summary"]["players"])
    assert rev["result"]["scores"] == list(rev["result"]["deltas"])


def test_the_bid_part_is_t400_bid_json_for_each_seat(best_hand):
    bids, line = best_hand
    rev = review_json(record_400(bids, line), "--samples", SAMPLES, "--seed", 3)
    for b in rev["bidding"][1:3]:
        args = ["bid", b["hand"], "--seat", b["seat"], "--samples", SAMPLES, "--seed", 3, "--json"]
        if b["bids_before"]:
            args += ["--bids", ",".join(map(str, b["bids_before"]))]
        direct = json.loads(run(*args).stdout)
        for key in ("elapsed_s", "compile_s"):
            direct.pop(key), b["analysis"].pop(key)
        assert b["analysis"] == direct


def test_the_card_part_is_t400_solve_on_the_positions_before_and_after(best_hand):
    bids, line = best_hand
    record = read_records(record_400(bids, line))[0]
    cards = game_of(record.game).review(record, samples=SAMPLES, seed=3, layouts=0)["cards"]
    for k in (4, 8, 20):  # positions at a trick boundary: t400 solve --mode bids of the ending
        head = dataclasses.replace(record, cards=record.cards[:k])
        tricks = play_tricks(head, TRUMP, 1)
        won = [sum(t.winner == s for t in tricks) for s in range(1, 5)]
        left = [Hand(h.bits & ~sum(c.bit for c in head.cards)) for h in record.deal.hands]
        solved = json.loads(run("solve", str(Deal(left)), "--mode", "bids", "--bids", ",".join(map(str, bids)),
                                "--won", ",".join(map(str, won)), "--leader", tricks[-1].winner, "--json").stdout)  # fmt: skip
        assert cards[k - 1]["value_after"] == solved["value"] == cards[k]["value_before"]


def test_throwing_away_a_master_is_marked_with_the_points_it_cost():
    rev = review_json(record_400([3, 3, 2, 3], DISCARD_LINE + " DJ", deal=DISCARD_DEAL), "--samples", 2000)
    costly = [c for c in rev["cards"] if c["cost"] > 0]
    assert [(c["trick"], c["seat"], c["card"]) for c in costly] == [(5, 3, "DJ")]
    assert costly[0]["cost"] == 4  # seat 3's 2 made (+2) becomes set (-2)
    assert rev["summary"]["players"][2]["first_costly"] == {"trick": 5, "card": "DJ", "cost": 4}
    assert costly[0]["better"] and "DJ" not in costly[0]["better"]


def test_a_bid_of_9_on_a_hand_worth_3_is_costly_by_the_ev_difference_of_t400_bid():
    rev = review_json(record_400([9, 2, 2, 2], ""), "--samples", SAMPLES)
    first = rev["bidding"][0]
    assert first["recommended"] == 3 and first["verdict"] == "costly"
    direct = json.loads(run("bid", DEAL.split()[0], "--samples", SAMPLES, "--json").stdout)
    ev = {b["bid"]: b["ev"] for b in direct["bids"]}
    assert first["loss"] == pytest.approx(ev[3] - ev[9], abs=1e-4)  # the JSON rounds to 4 places
    assert 0 < first["loss_se"] < first["loss"] / 10


def test_tarneeb_play_writes_a_record_that_review_reads_without_loss(tmp_path):
    path = tmp_path / "hands.jsonl"
    r = run("play", DEAL, "--game", "tarneeb", "--record", path, "--json")
    assert r.exit_code == 0, r.output
    played = json.loads(r.stdout)
    record = read_records(path.read_text())[0]
    assert record.to_dict() == played["record"] and len(record.cards) == 52
    rev = review_json("--file", path, "--samples", 1024)
    assert rev[0]["result"] == played["result"]
    assert rev[0]["record"] == played["record"]
    assert {c["seat"] for c in rev[0]["calling"]} <= {1, 2, 3, 4}


def test_tarneeb_cards_are_valued_by_the_team_double_dummy():
    r = run("play", DEAL, "--game", "tarneeb", "--json")
    record = read_records(json.dumps(json.loads(r.stdout)["record"]))[0]
    rev = game_of(record.game).review(record, samples=1024, layouts=0)
    declarer = rev["contract"]["declarer"]
    first = rev["cards"][0]
    solved = json.loads(run("solve", DEAL, "--trump", {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs",
                                                       "NT": "none"}[rev["contract"]["trump"]],
                            "--leader", declarer, "--json").stdout)  # fmt: skip
    assert first["value_before"] == solved["tricks"]


def test_a_400_record_written_by_play_round_trips(tmp_path):
    path = tmp_path / "hands.txt"
    r = run("play", DEAL, "--record", path)
    assert r.exit_code == 0 and f"wrote {path}" in r.stderr
    record = read_records(path.read_text())[0]
    assert isinstance(record, HandRecord) and record.bids == (3, 5, 2, 2) and len(record.cards) == 52


BAD = [
    (
        "game 400; deal AKQ5.KJ4.T93.86 JT9.AQ7.KQ5.AKQ3 8743.T986.A76.T9 62.532.J842.J754; bids 3,3,3,3",
        "line 2: deal:",
    ),  # a hand of 12 cards
    (
        "game 400; deal AKQ5.KJ4.T93.862 AKQ5.AQ7.KQ5.AKQ3 8743.T986.A76.T9 62.532.J842.J754; bids 3,3,3,3",
        "line 2: deal:",
    ),  # a card in two hands
    (
        record_400([3, 5, 2, 2], "SA S9 S3 S2 SK H5"),
        "trick 2: seat 2 played the 5 of hearts but holds no such card",
    ),
    (
        record_400([3, 5, 2, 2], "SA S9 S3 S2 SK ST H6"),
        "trick 2: seat 3 revoked: played the 6 of hearts but held a spade",
    ),
    (record_400([3, 5, 2, 2], "SA S9 S3 S2 SA"), "trick 2: seat 1 played the ace of spades twice"),
    (record_400([3, 5, 2, 1], ""), "line 2: bids: seat 4 bid 1: a bid is a number of tricks from 2 to 13"),
    (record_400([3, 5, 2, 14], ""), "line 2: bids: seat 4 bid 14: a bid is a number of tricks from 2 to 13"),
    (record_400([3, 5, 2], ""), "line 2: bids: expected four bids"),
    (record_400([3, 5, 2, 2], "", scores=(41, 0, 5, 0)), "have already won the match"),
    (record_400([2, 2, 2, 2], "SA"), "the hand is thrown in and no card is played"),
    (
        "game tarneeb; deal " + DEAL + "; calls 7,8,pass,9,10,pass,pass,pass",
        "call 8 (pass): the auction was already over",
    ),
    ("game tarneeb; deal " + DEAL + "; calls 7,7", "call 2 (7) by seat 2:"),
    (
        "game tarneeb; deal " + DEAL + "; calls 7,pass,pass,pass; play SA",
        "trump: the declarer's trump is missing",
    ),
    ("game tarneeb; scores 0,0,0,0; deal " + DEAL + "; calls 7", "scores: expected two team scores"),
    ("game 400; deal " + DEAL + "; bids 3,3,3,3; colour red", "unknown field 'colour'"),
    ("game 401; deal " + DEAL, "game '401': expected 400 or tarneeb"),
]


@pytest.mark.parametrize("text,message", BAD, ids=[m[:30] for _, m in BAD])
def test_a_bad_record_is_one_error_line_and_exit_2(text, message, tmp_path):
    path = tmp_path / "one.txt"
    path.write_text("# a record with a mistake\n" + text + "\n")
    r = run("review", "--file", path, "--layouts", "0")
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], r.stderr
    assert "Traceback" not in r.output


def test_a_bad_record_in_a_batch_names_its_line_before_any_work(tmp_path):
    good = record_400([3, 5, 2, 2], "")
    path = tmp_path / "batch.txt"
    path.write_text(f"{good}\n{good}\n{record_400([3, 5, 2, 2], 'SA S9 S3 H2')}\n")
    r = run("review", "--file", path, "--layouts", "0")
    assert r.exit_code == 2 and r.stderr.startswith("Error: line 3: trick 1: seat 4 revoked")


def test_each_card_gets_a_decision_cost_and_a_verdict_from_its_players_seat():
    """README's record: the spade ace led at trick 1 cost 4 points double dummy, but from seat 1's
    seat it was within its standard error of pimc's best card: bad luck, not a mistake.
    Every card has its decision cost, with a standard error, and the verdicts add up per player."""
    record = ("game 400; variant dananeer; scores 0,0,0,0; deal AKQ5.KJ4.T93.862 JT9.AQ7.KQ5.AKQ3 "
              "8743.T986.A76.T9 62.532.J842.J754; bids 3,5,2,2; play SA S9 S3 S2 SK ST S4 S6 SQ SJ S7 H2")  # fmt: skip
    rev = review_json(record, "--samples", "500", layouts="16")
    lead = rev["cards"][0]
    assert lead["card"] == "SA" and lead["cost"] == 4 and lead["verdict"] == "bad luck"
    assert lead["decision_cost"] <= 2 * lead["decision_cost_se"] and lead["layouts"] >= 16 and lead["pimc_best"]
    for c in rev["cards"]:
        assert c["verdict"] in ("mistake", "bad luck", "fine") and c["decision_cost_se"] >= 0
        assert (c["layouts"] == 0) == (c["decision_cost"] == 0 and c["pimc_best"] == [])
    for p in rev["summary"]["players"]:
        mine = [c for c in rev["cards"] if c["seat"] == p["seat"]]
        assert p["mistakes"] == sum(c["verdict"] == "mistake" for c in mine)
        assert p["bad_luck"] == sum(c["verdict"] == "bad luck" for c in mine)
    assert rev["decision_note"] and rev["said"]["decision_note"]["key"] == "note.review_decision"
    plain = review_json(record, "--samples", "500")
    assert "verdict" not in plain["cards"][0] and "decision_note" not in plain
