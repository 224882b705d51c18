"""pimc (analyzer.core.pimc and each game's reader): the layouts fit what the table has shown
(the voids, and the bids or the auction), every card's value is the double dummy's, equal cards
are worth the same, and ``t400 card`` reads only what the player can see."""

import json
import random
from copy import deepcopy

import numpy as np
import pytest
from conftest import run

from analyzer.core.layouts import Position, deal_batch, replay
from analyzer.core.notation import Card, Suit
from analyzer.core.pimc import card_classes, score_at, team_tricks, values_with_bids
from analyzer.core.policies import policy_id
from analyzer.core.solve import targets_score_at, team_tricks_at
from analyzer.games.t400 import simulate
from analyzer.games.t400.lead import live_deals
from analyzer.games.t400.pimc import BidReader
from analyzer.games.t400.rules import Variant
from kernels.core.cards import lane

VARIANT = Variant.preset("dananeer")
BOT = simulate.bot_array(VARIANT)


def positions(n_deals: int, seed: int, every: int = 5):
    """Positions along live deals played by ``standard``: every ``every``-th card of each deal."""
    hands, bids = live_deals(n_deals, seed, VARIANT, BOT)
    pid = policy_id("standard")
    for h, b in zip(hands, bids):
        pos = Position(h, b)
        for k in range(52):
            if k % every == 0:
                yield pos
            pos.play(pos.kernel_card(pid))


def hcp(hand: int) -> int:
    return sum(max(0, r - 8) for r in range(13) for s in range(4) if hand >> (16 * s + r) & 1)


def test_a_batch_deals_each_unseen_card_once_to_a_seat_that_can_hold_it():
    gen = np.random.default_rng(3)
    for pos in positions(4, 21):
        me = pos.mover
        batch = deal_batch(pos, 200, gen)
        assert len(batch) > 0
        for row in batch[:40]:
            row = [int(x) for x in row]
            assert row[me] == pos.hands[me]
            assert sum(row) == sum(pos.hands)  # each card once: no overlaps, none lost
            for q in range(4):
                assert row[q].bit_count() == pos.hands[q].bit_count()
                for s in range(4):
                    if q != me and pos.voids >> (4 * q + s) & 1:
                        assert row[q] & int(lane(s)) == 0, "a seat that showed out got the suit"


def test_layouts_fit_the_bids_and_the_real_deal_fits():
    """Every layout fits where the reader says all fitted; where too few fitted (rare bids), the
    layouts taken contradict one seat at most, and the reader counts that decision."""
    reader = BidReader(VARIANT, BOT)
    rng = random.Random(4)
    short = 0
    for pos in positions(4, 22):
        misfits = reader.misfits(pos)
        assert misfits(np.array([pos.hands], dtype=np.uint64))[0] == 0, "the real hands bid as bid"
        before = reader.all_fit
        layouts = reader.layouts(pos, 6, rng)
        assert len(layouts) == 6
        counts = misfits(np.array(layouts, dtype=np.uint64))
        if reader.all_fit > before:
            assert (counts == 0).all()
        else:
            short += 1
            assert counts.max() <= 1
    assert reader.decisions > 0 and reader.all_fit == reader.decisions - short
    assert short <= reader.decisions // 4, (short, reader.decisions)  # rare: the bids are the bidder's own


def test_reading_the_bids_places_the_high_cards_with_the_high_bidder():
    """A seat that bid 6 or more holds more high-card points in the fitted layouts than in
    layouts that ignore the bids."""
    hands, bids = live_deals(300, 23, VARIANT, BOT)
    picks = [i for i in range(len(bids)) if bids[i, 1] >= 6][:5]
    assert picks
    reader = BidReader(VARIANT, BOT)
    gen = np.random.default_rng(5)
    for i in picks:
        pos = Position(hands[i], bids[i])  # seat 1 on lead: seat 2's cards are unseen
        fitted = np.array(reader.layouts(pos, 40, random.Random(i)), dtype=np.uint64)
        blind = deal_batch(pos, 40, gen)
        fit_hcp = np.mean([hcp(int(x)) for x in fitted[:, 1]])
        blind_hcp = np.mean([hcp(int(x)) for x in blind[:, 1]])
        assert fit_hcp > blind_hcp + 2, (bids[i], fit_hcp, blind_hcp)


def _tarneeb_contracts(n, seed):
    from analyzer.core.dealing import deal_hands
    from analyzer.games.tarneeb.bidders import load_model
    from analyzer.games.tarneeb.rules import TarneebVariant
    from kernels.core.kit import Kit
    from kernels.policies import play as kp
    from kernels.tarneeb import hand as kh

    rules, model = TarneebVariant.preset("tarneeb").kernel_rules(), load_model().array
    deals = deal_hands(n, seed=seed)
    out = np.zeros((n, kh.R_SIZE), dtype=np.int64)
    kh.hands_outcomes(rules, deals, np.full(4, kh.EV), np.full(4, kp.TEAM), Kit(kp.TEAM), out, model)
    played = out[:, kh.R_REDEAL] == kh.PLAYED
    return rules, model, deals[played], out[played]


def test_tarneeb_layouts_fit_the_auction_and_give_the_declarer_its_trumps():
    """Every layout makes the calls the EV bots made and the declarer's trump choice; the real deal
    does; and, seen from the declarer's left, the fitted layouts give the declarer more trumps
    than layouts that ignore the auction."""
    from analyzer.games.tarneeb.pimc import AuctionReader
    from kernels.tarneeb import hand as kh
    from kernels.tarneeb import rules as kr

    rules, model, hands, outcomes = _tarneeb_contracts(24, 24)
    reader = AuctionReader(rules, model)
    gen = np.random.default_rng(6)
    fitted_trumps, blind_trumps = [], []
    for h, res in zip(hands, outcomes):
        decl, trump = int(res[kh.R_DECLARER]), int(res[kh.R_TRUMP])
        state = np.empty(kr.ST_SIZE, dtype=np.int64)
        kr.auction_start(state)
        codes = []
        while (seat := kr.next_seat(rules, state)) >= 0:
            codes.append(int(kh.bot_call(kh.EV, rules, state, h[seat], model)))
            kr.auction_call(rules, state, codes[-1])
        reader.read(codes, decl, trump)
        pos = Position(h, leader=decl, trump=trump)
        pos.play(int(h[decl]).bit_length() - 1)  # the declarer's top card: the next seat decides
        misfits = reader.misfits(pos)
        assert misfits(np.array([pos.hands], dtype=np.uint64))[0] == 0, "the real hands call as they called"
        layouts = np.array(reader.layouts(pos, 20, random.Random(7)), dtype=np.uint64)
        assert (misfits(layouts) == 0).all()
        whole = layouts[:, decl] | np.uint64(pos.played_by[decl])
        fitted_trumps += [(int(x) & int(lane(trump))).bit_count() for x in whole]
        blind = deal_batch(pos, 20, gen)[:, decl] | np.uint64(pos.played_by[decl])
        blind_trumps += [(int(x) & int(lane(trump))).bit_count() for x in blind]
    assert reader.all_fit == reader.decisions == len(hands)
    assert np.mean(fitted_trumps) > np.mean(blind_trumps) + 1, (np.mean(fitted_trumps), np.mean(blind_trumps))


def _after(pos, card):
    nxt = deepcopy(pos)
    nxt.play(card)
    return nxt, [Card.from_index(c) for c in nxt.trick]


def test_every_cards_value_is_the_double_dummys_of_the_position_after_it():
    """On the true hands (a layout), the values of all legal cards from one call (one table kept
    across cards, two threads) equal one solve of each position after the card: 400's score with
    the bids (``targets_score_at``) and the partnership's tricks (``team_tricks_at`` plus the
    trick the card completes)."""
    checked = 0
    for pos in positions(3, 31, every=7):
        if pos.played.bit_count() > 44:
            continue
        values = [VARIANT.bid_value(b, 0) for b in pos.bids]
        legal = pos.legal()
        scores = values_with_bids(pos, [pos.hands], legal, values, threads=2)[0]
        tricks = team_tricks(pos, [pos.hands], legal, threads=2)[0]
        side = [pos.mover, pos.mover ^ 2]
        for j, c in enumerate(legal):
            nxt, trick = _after(pos, c)
            assert scores[j] == targets_score_at(nxt.hands, trick, nxt.leader + 1, nxt.bids, values, nxt.taken,
                                                 trump="hearts")  # fmt: skip
            won = sum(nxt.taken[s] - pos.taken[s] for s in side)
            assert tricks[j] == won + team_tricks_at(nxt.hands, trick, nxt.leader + 1, pos.mover + 1, trump="hearts")
            checked += 1
    assert checked > 30


def test_equal_cards_are_worth_the_same_on_every_layout():
    checked = 0
    for pos in positions(4, 33, every=3):
        values = [VARIANT.bid_value(b, 0) for b in pos.bids]
        classes = [cls for cls in card_classes(pos) if len(cls) > 1]
        if not classes or pos.played.bit_count() < 24:
            continue
        for cls in classes:
            got = values_with_bids(pos, [pos.hands], cls, values, threads=1)[0]
            assert (got == got[0]).all(), [Card.from_index(c) for c in cls]
            assert (team_tricks(pos, [pos.hands], cls, threads=1)[0] == team_tricks(pos, [pos.hands], cls[:1])[0, 0]).all()
            checked += 1
    assert checked >= 5


def test_the_replay_sees_the_voids_and_refuses_an_impossible_play():
    from analyzer.core.errors import T400Error
    from analyzer.core.notation import as_hand

    hand = as_hand("AKQ5.KJ4.T93.862").bits
    cards = [Card.parse(c).index for c in "SA H2 S3 S2".split()]  # seat 2 ruffs: out of spades
    pos = replay(hand, 0, 0, cards, 1)
    assert pos.voids >> (4 * 1 + 0) & 1 and pos.mover == 1 and pos.taken[1] == 1
    with pytest.raises(T400Error, match="after showing out of the suit"):
        replay(hand, 0, 0, cards + [Card.parse(c).index for c in "S4 S6 S7 SK".split()], 1)
    with pytest.raises(T400Error, match="seat 1 revoked"):  # seat 1 holds diamonds
        replay(hand, 0, 0, cards + [Card.parse(c).index for c in "DA D7 D4 C2".split()], 1)


RECORD = ("game 400; deal AKQ5.KJ4.T93.862 JT9.AQ7.KQ5.AKQ3 8743.T986.A76.T9 62.532.J842.J754; bids 3,5,2,2; "
          "play SA S9 S3 S2 SK ST S4 S6")  # fmt: skip
#: The same hand of seat 1 and the same play; the other seats' unplayed cards dealt otherwise.
SWAPPED = ("game 400; deal AKQ5.KJ4.T93.862 JT9.532.KQ5.AKQ3 8743.T986.A76.T9 62.AQ7.J842.J754; bids 3,5,2,2; "
           "play SA S9 S3 S2 SK ST S4 S6")  # fmt: skip


def _card(*args):
    r = run("card", *args, "--json", "--layouts", "8")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    out.pop("elapsed_s")
    out.pop("compile_s")
    return out


def test_t400_card_reads_only_what_the_player_can_see():
    """Two records that differ only in the cards seat 1 cannot see give the same answer."""
    from analyzer.games.registry import read_records

    real, swapped = read_records(RECORD)[0], read_records(SWAPPED)[0]
    assert real.deal.hands[0] == swapped.deal.hands[0] and real.deal.hands[1:] != swapped.deal.hands[1:]
    a = _card("--record", RECORD, "--at", "8")
    b = _card("--record", SWAPPED, "--at", "8")
    assert a == b and a["seat"] == 1 and a["recommended"]
    c = _card("AKQ5.KJ4.T93.862", "--seat", "1", "--bids", "3,5,2,2", "--play", "SA S9 S3 S2 SK ST S4 S6")
    assert c == a


def test_t400_card_answers_each_legal_card_and_a_tarneeb_contract():
    a = _card("AKQ5.KJ4.T93.862", "--seat", "1", "--bids", "3,5,2,2")
    assert {r["card"] for r in a["cards"]} | {x for r in a["cards"] for x in r["equal"]} == {
        Card.parse(c).symbol for c in "SA SK SQ S5 HK HJ H4 DT D9 D3 C8 C6 C2".split()}  # fmt: skip
    assert abs(sum(r["p_best"] for r in a["cards"]) - 1) < 1e-9
    for r in a["cards"]:
        assert 0 <= r["p_made"] <= 1 and r["points_se"] >= 0
    t = _card("AKQ5.KJ4.T93.862", "--seat", "1", "--game", "tarneeb", "--auction", "7,pass,pass,pass", "--trump", "S")
    assert t["contract"] == {"declarer": 1, "bid": 7, "trump": "S", "doubled": False}
    assert all(0 <= r["p_contract_made"] <= 1 for r in t["cards"])


@pytest.mark.parametrize(
    "args, message",
    [
        (["AKQ5.KJ4.T93.862", "--seat", "2", "--bids", "3,5,2,2"], "it is seat 1's turn to play, not seat 2's"),
        (["AKQ5.KJ4.T93.862", "--seat", "1"], "--bids is needed"),
        (["AKQ5.KJ4.T93.862", "--seat", "1", "--bids", "3,5,2,2", "--play", "SA SA"], "played twice"),
        (["AKQ5.KJ4.T93.862", "--seat", "1", "--bids", "1,1,1,1"], "bid"),
        (["AKQ5.KJ4.T93.862", "--seat", "1", "--game", "tarneeb", "--auction", "7,pass"], "not over"),
        (["--record", RECORD], "--at"),
        (["--record", RECORD, "--at", "30"], "--at 30"),
    ],
)
def test_t400_card_bad_input_is_one_line(args, message):
    r = run("card", *args)
    assert r.exit_code == 2 and r.stderr.startswith("Error: ") and message in r.stderr, r.stderr
    assert r.stderr.count("\n") == 1


def test_a_guess_that_lost_is_bad_luck_not_a_mistake():
    """A 3-card ending at no trump, seat 1 on lead: over every layout of the nine cards it cannot
    see, leading ♠5, ♣5 or ♣2 keeps the same tricks on average (a pure guess), but on the real
    layout only ♠5 takes a trick. Leading ♣2 costs a trick double dummy; from seat 1's seat it
    cost nothing beyond the noise: the review's verdict is bad luck. A card that is worse on
    every layout is a mistake."""
    import itertools

    from analyzer.core.layouts import sample_layouts
    from analyzer.core.pimc import decision_cost
    from analyzer.core.review import card_verdict

    deal = [["C5", "S5", "C2"], ["D7", "HA", "HJ"], ["SJ", "C8", "H4"], ["CJ", "HK", "S4"]]
    hands = [sum(1 << Card.parse(c).index for c in cards) for cards in deal]
    pos = Position(hands, leader=0, trump=4)
    legal = pos.legal()
    unseen = [c for q in (1, 2, 3) for c in range(64) if hands[q] >> c & 1]
    every = []
    for a in itertools.combinations(unseen, 3):
        rest = [c for c in unseen if c not in a]
        for b in itertools.combinations(rest, 3):
            every.append([hands[0], sum(1 << x for x in a), sum(1 << x for x in b),
                          sum(1 << x for x in rest if x not in b)])  # fmt: skip
    means = team_tricks(pos, every, legal).mean(axis=0)
    assert np.allclose(means, means[0]), "a pure guess: every lead is worth the same over all layouts"
    real = dict(zip(legal, team_tricks(pos, [hands], legal)[0]))
    c2, s5 = Card.parse("C2").index, Card.parse("S5").index
    dd_cost = real[s5] - real[c2]
    assert dd_cost == 1

    def solve(p, dealt, cards):
        return team_tricks(p, dealt, cards), None

    got = decision_cost(pos, c2, lambda: sample_layouts(pos, 64, random.Random(3)), solve)
    assert got["layouts"] >= 16 and abs(got["decision_cost"]) <= 2 * got["decision_cost_se"] + 1e-9
    assert card_verdict(dd_cost, got["decision_cost"], got["decision_cost_se"]) == "bad luck"
    # against that: 0.9 trick worse on every layout solved, clear beyond its standard error
    assert card_verdict(1, 0.9, 0.1) == "mistake" and card_verdict(0, 0.9, 0.1) == "mistake"
    assert card_verdict(0, 0.0, 0.0) == "fine"


def test_the_card_advice_reports_its_progress_and_stops_early_when_one_card_is_clear():
    from analyzer.games.t400.pimc import recommend_card

    seen = []
    a = recommend_card("62.532.J842.J754", 4, [3, 5, 2, 2], "SA S9 S3 S2 SK ST S4 S6 SQ SJ S7 H2".split(),
                       layouts=64, progress=lambda done, total: seen.append((done, total)))  # fmt: skip
    assert seen and seen[-1][0] == a.layouts and all(t == 64 for _, t in seen)
    assert [d for d, _ in seen] == list(range(8, a.layouts + 1, 8))
    # one legal card (seat 2 must follow with one of its equal spades): one block only
    b = recommend_card("JT9.AQ7.KQ5.AKQ3", 2, [3, 5, 2, 2], ["SA"], layouts=64)
    assert b.layouts == 8 and len(b.rows) == 1 and b.rows[0].equal


def test_t400_card_answers_at_the_last_card_and_the_first():
    """The last card of a hand (nobody else holds a card: one layout, the mover's own card) and
    the opening lead of a Tarneeb hand, from a whole hand's record."""
    record = ("game tarneeb; variant tarneeb; scores 0,0; deal AKQ5.KJ4.T93.862 JT9.AQ7.KQ5.AKQ3 8743.T986.A76.T9 "
              "62.532.J842.J754; calls 7,pass,pass,pass; trump S; play SA S9 S3 S2 SK ST S4 S6 SQ SJ S7 H2 D3 D5 DA "
              "D2 S8 H3 S5 H7 D6 D4 DT DQ CA C9 C4 C2 HA H6 H5 H4 CK CT C5 C6 DK D7 D8 D9 CQ H8 C7 C8 HQ H9 DJ HK HJ "
              "C3 HT CJ")  # fmt: skip
    last = _card("--record", record, "--at", "51")
    assert [r["card"] for r in last["cards"]] == [Card.parse("CJ").symbol] and last["seat"] == 4
    first = _card("--record", record, "--at", "0")
    assert first["seat"] == 1 and len(first["cards"]) >= 2


def test_a_variant_whose_first_lead_is_a_trump_is_asked_only_about_trumps():
    args = ["AKQ5.KJ4.T93.862", "--seat", "1", "--game", "tarneeb", "--auction", "7,pass,pass,pass", "--trump", "H"]
    led = _card(*args, "--trump-lead")
    assert {r["card"][0] for r in led["cards"]} == {"\u2665"}
    free = _card(*args)
    assert {r["card"][0] for r in free["cards"]} > {"\u2665"}
    r = run("card", *args, "--trump-lead", "--play", "SA S9 S3 S2")
    assert r.exit_code == 2 and "must lead a trump" in r.stderr


def test_a_position_valued_by_pimcs_kernel_is_the_double_dummys_score():
    """``score_at`` (pimc's kernel with no card, a review's card costs) equals
    ``targets_score_at`` on positions part way through a trick, in hearts and no trump."""
    r = random.Random(3)
    for _ in range(40):
        size = r.choice([3, 4, 5, 6])
        cards = r.sample(range(52), 4 * size)
        hands = [sum(1 << (16 * (c // 13) + c % 13) for c in cards[i * size : (i + 1) * size]) for i in range(4)]
        leader = r.randrange(1, 5)
        trick = []
        for k in range(r.randrange(4)):  # each seat in turn plays its lowest card
            seat = (leader - 1 + k) % 4
            low = (hands[seat] & -hands[seat]).bit_length() - 1
            hands[seat] &= ~(1 << low)
            trick.append(Card.from_index(low))
        won = [0, 0, 0, 0]
        for _ in range(13 - size):
            won[r.randrange(4)] += 1
        targets = [r.randint(0, 5) for _ in range(4)]
        values = [r.randint(1, 6) for _ in range(4)]
        trump = r.choice([1, 4])
        expected = targets_score_at(hands, trick, leader, targets, values, won, trump=trump)
        assert score_at(hands, trick, leader, targets, values, won, trump) == expected


def test_one_table_kept_along_a_hand_gives_each_positions_double_dummy_score():
    """A review values every position of a hand on one table (``keep``: the same bids and
    values, so the same scores): along random lines of play each value equals the double
    dummy's own, solved afresh, and the kept table saves nodes."""
    from analyzer.core.records import legal_cards, trick_winner
    from analyzer.core.solve import _BIDS_SOLVERS
    from kernels.core import bids_dd

    def nodes():
        return int(_BIDS_SOLVERS.get(1)[1][0][bids_dd.CTX_NODES])

    r = random.Random(8)
    fresh_nodes = kept_nodes = 0
    for _ in range(4):
        size = 9
        cards = r.sample(range(52), 4 * size)
        held = [sorted(Card.from_index(16 * (c // 13) + c % 13) for c in cards[i * size : (i + 1) * size]) for i in range(4)]
        targets = [r.randint(1, 4) for _ in range(4)]
        values = [r.randint(1, 6) for _ in range(4)]
        trump = r.choice([1, 4])
        suit = None if trump == 4 else Suit(trump)
        leader, won, trick, line = r.randrange(1, 5), [0, 0, 0, 0], [], []
        for _ in range(4 * size - 1):
            seat = (leader - 1 + len(trick)) % 4
            card = r.choice(legal_cards(held[seat], trick))
            held[seat].remove(card)
            trick.append(card)
            if len(trick) == 4:
                leader = (leader - 1 + trick_winner(trick, suit)) % 4 + 1
                won[leader - 1] += 1
                trick = []
            line.append(([sum(c.bit for c in h) for h in held], list(trick), leader, list(won)))
        expected = []
        for hands, trick, leader, won in line:
            expected.append(targets_score_at(hands, trick, leader, targets, values, won, trump=trump))
            assert score_at(hands, trick, leader, targets, values, won, trump) == expected[-1]
            fresh_nodes += nodes()
        for k, (hands, trick, leader, won) in enumerate(line):
            assert score_at(hands, trick, leader, targets, values, won, trump, keep=k > 0) == expected[k]
            kept_nodes += nodes()
    assert kept_nodes < fresh_nodes


def test_a_card_of_the_current_trick_between_two_cards_splits_their_class():
    """The queen beats the jack that wins the trick and the ten does not: the two are equal only
    when no card still in play lies between them, and the jack on the table is in play."""
    from analyzer.core.notation import as_hand

    hand = as_hand("QT9876543.AK.AK.").bits
    pos = replay(hand, 3, 0, [Card.parse(c).index for c in ("SJ", "S2", "H2")], 4)
    spades = [[str(Card.from_index(c)) for c in cls] for cls in card_classes(pos) if cls[0] >> 4 == Suit.parse("S")]
    assert spades == [["SQ"], ["ST", "S9", "S8", "S7", "S6", "S5", "S4", "S3"]]
