"""Tarneeb in the kernels, against plain-Python references: the ``team`` policy card by card,
one hand (worthless check, the bots' auction, trump, play, settlement) deal by deal, and whole
matches round by round (dealer, re-deals, scores, the end)."""

import random
import zlib

import numpy as np
import pytest
from test_tarneeb_kernels import VARIANTS

import naive
from analyzer.core.notation import Hand
from analyzer.core.strains import Strain
from analyzer.games.tarneeb.auction import Auction
from analyzer.games.tarneeb.bidders import best_strain, counting_call, ev_call, load_model, trump_suit
from analyzer.games.tarneeb.rules import TarneebVariant, is_worthless, match_result, settle_hand
from kernels.core.cards import SUIT_MASK
from kernels.core.kit import Kit
from kernels.policies import play as kp
from kernels.policies.team import DECLARING_BIT, TRUMP_LEAD_BIT
from kernels.tarneeb import hand as kh
from kernels.tarneeb import match as km


def random_deal(rng: random.Random, size: int = 13) -> list[int]:
    deck = [16 * s + r for s in range(4) for r in range(13)]
    rng.shuffle(deck)
    return [sum(1 << c for c in deck[k * size : (k + 1) * size]) for k in range(4)]


def side_bytes(level: int, declarer: int, trump_lead: bool) -> list[int]:
    """The trick loop's bid bytes of a team contract, built from the rule (not from the kernel)."""
    out = [(level | DECLARING_BIT) if (s - declarer) % 2 == 0 else 14 - level for s in range(4)]
    if trump_lead:
        out[declarer] |= TRUMP_LEAD_BIT
    return out


def test_the_declarer_opens_as_the_table_says_and_team1_with_a_trump_from_five():
    """team's declarer holding five trumps without the top two opens by the table of lead kinds
    (here the ace of its ace-king), where team1, like a 400 bid of 6+, opens with a trump."""
    trump = 0
    mine = [(0, 10), (0, 9), (0, 7), (0, 3), (0, 1), (1, 12), (1, 11), (1, 2), (2, 6), (2, 4), (2, 0), (3, 5), (3, 0)]
    rest = sorted({(s, r) for s in range(4) for r in range(13)} - set(mine))
    hands = [mine, rest[0::3], rest[1::3], rest[2::3]]
    bits = [sum(1 << naive.index_of(c) for c in h) for h in hands]
    bids = side_bytes(8, 0, False)
    first = {}
    for policy in (kp.TEAM, kp.TEAM1):
        record = np.zeros(52, dtype=np.int64)
        kp.play_hand(np.array(bits, dtype=np.uint64), np.array(bids), 0, np.full(4, policy, dtype=np.int64),
                     Kit(policy), trump, np.zeros(4, dtype=np.int64), record)  # fmt: skip
        first[policy] = naive.card_at(int(record[0]))
    assert first[kp.TEAM] == (1, 12)
    assert first[kp.TEAM1][0] == trump


@pytest.mark.parametrize("policy", [kp.TEAM, kp.TEAM1], ids=["team", "team1"])
@pytest.mark.parametrize("trump", [0, 1, 3, 4])
def test_team_policy_agrees_with_its_plain_python_twin_card_by_card(trump, policy):
    r = random.Random(31 + trump)
    checked = 0
    for _ in range(120):
        size = r.choice([13, 13, 13, 7, 3])
        bits = random_deal(r, size)
        level, declarer, lead_trump = r.randint(7, 13), r.randrange(4), r.random() < 0.3
        bids = side_bytes(level, declarer, lead_trump)
        record = np.zeros(52, dtype=np.int64)
        n = kp.play_hand(np.array(bits, dtype=np.uint64), np.array(bids), declarer,
                         np.full(4, policy, dtype=np.int64), Kit(policy), trump, np.zeros(4, dtype=np.int64),
                         record)  # fmt: skip
        hands = [naive.cards_of(b) for b in bits]
        targets = [b & 15 for b in bids]
        played, voids, taken, trick, leader = set(), set(), [0, 0, 0, 0], [], declarer
        for index in record[:n]:
            seat = (leader + len(trick)) % 4
            expected = naive.team_choice(seat, hands[seat], played, voids, targets, taken, leader, trick, trump,
                                         trump_lead=lead_trump and seat == declarer,
                                         declarer=declarer if policy == kp.TEAM else None)  # fmt: skip
            assert naive.index_of(expected) == index, (bits, level, declarer, trump, len(played))
            card = naive.card_at(int(index))
            hands[seat].remove(card)
            played.add(card)
            if trick and card[0] != trick[0][0]:
                voids.add((seat, trick[0][0]))
            trick.append(card)
            if len(trick) == 4:
                leader = (leader + naive.trick_winner(trick, trump)) % 4
                taken[leader] += 1
                trick = []
            checked += 1
    assert checked > 3500


def test_a_forced_trump_lead_is_a_trump():
    rules = TarneebVariant.preset("tarneeb").with_(trump_lead=True).kernel_rules()
    r = random.Random(5)
    deals = np.array([random_deal(r) for _ in range(300)], dtype=np.uint64)
    out = np.zeros((300, kh.R_SIZE), dtype=np.int64)
    kh.hands_outcomes(
        rules, deals, np.zeros(4, np.int64), np.full(4, kp.TEAM, np.int64), Kit(kp.TEAM), out, MODEL.array
    )
    for deal, res in zip(deals, out):
        if res[kh.R_REDEAL]:
            continue
        declarer, trump = int(res[kh.R_DECLARER]), int(res[kh.R_TRUMP])
        record = np.zeros(52, dtype=np.int64)
        bids = side_bytes(int(res[kh.R_CONTRACT]) >> 3, declarer, True)
        kp.play_hand(deal, np.array(bids), declarer, np.full(4, kp.TEAM, np.int64), Kit(kp.TEAM), trump,
                     np.zeros(4, dtype=np.int64), record)  # fmt: skip
        holds_trump = (int(deal[declarer]) >> (16 * trump)) & SUIT_MASK
        assert (record[0] >> 4 == trump) == bool(holds_trump)


MODEL = load_model()


def reference_hand(variant: TarneebVariant, bits: list[int], bidder: str = "counting") -> dict:
    """One hand by the Python rules and the Python bots; the play by the kernel's trick loop
    with the bytes of :func:`side_bytes` (the play itself is checked card by card above)."""
    hands = [Hand(b) for b in bits]
    call = counting_call if bidder == "counting" else (lambda auction, hand: ev_call(auction, hand, MODEL))
    if variant.worthless_redeal and any(is_worthless(h) for h in hands):
        return {"redeal": kh.REDEAL_WORTHLESS}
    auction = Auction(variant)
    forced = False
    while not auction.over:
        seat = auction.seat
        forced = forced or auction.must_bid(seat)
        auction.call(call(auction, hands[seat - 1]))
    if auction.redeal:
        return {"redeal": kh.REDEAL_PASSED, "forced": forced, "calls": len(auction.calls)}
    contract = auction.contract
    declarer = contract.declarer - 1
    if contract.strain is not None:
        strain = contract.strain
    elif bidder == "counting":
        strain = Strain(int(trump_suit(hands[declarer])))
    else:
        strain = best_strain(MODEL, variant, hands[declarer], contract.bid)[0]
    bids = side_bytes(contract.bid, declarer, variant.trump_lead)
    tricks = np.zeros(4, dtype=np.int64)
    kp.play_hand(np.array(bits, dtype=np.uint64), np.array(bids), declarer, np.full(4, kp.TEAM, np.int64),
                 Kit(kp.TEAM), int(strain), tricks, np.zeros(0, dtype=np.int64))  # fmt: skip
    team_tricks = int(tricks[declarer] + tricks[declarer ^ 2])
    result = settle_hand(variant, [0, 0], contract.declarer, contract.bid, team_tricks,
                         strain if variant.auction == "strain" else None, contract.doubled)  # fmt: skip
    return {"redeal": kh.PLAYED, "forced": forced, "calls": len(auction.calls), "contract": contract.bid,
            "declarer": declarer, "trump": int(strain), "doubled": contract.doubled, "tricks": team_tricks,
            "deltas": list(result.deltas), "taken": tricks.tolist()}  # fmt: skip


def kernel_hand(res: np.ndarray) -> dict:
    if res[kh.R_REDEAL] == kh.REDEAL_WORTHLESS:
        return {"redeal": kh.REDEAL_WORTHLESS}
    out = {"redeal": int(res[kh.R_REDEAL]), "forced": bool(res[kh.R_FORCED]), "calls": int(res[kh.R_CALLS])}
    if out["redeal"]:
        return out
    return out | {"contract": int(res[kh.R_CONTRACT]) >> 3, "declarer": int(res[kh.R_DECLARER]),
                  "trump": int(res[kh.R_TRUMP]), "doubled": bool(res[kh.R_DOUBLED]), "tricks": int(res[kh.R_TRICKS]),
                  "deltas": [int(res[kh.R_DELTA]), int(res[kh.R_DELTA + 1])],
                  "taken": res[kh.R_TAKEN : kh.R_TAKEN + 4].tolist()}  # fmt: skip


EV_VARIANTS = [
    v
    for v in VARIANTS
    if v.label in ("tarneeb", "egyptian", "tarneeb target=51 trump-lead=True worthless-redeal=True")
]


@pytest.mark.parametrize(
    "variant, bidder",
    [(v, "counting") for v in VARIANTS] + [(v, "ev") for v in EV_VARIANTS],
    ids=lambda x: getattr(x, "label", x),
)
def test_hand_kernel_agrees_with_the_python_rules_deal_by_deal(variant, bidder):
    r = random.Random(zlib.crc32(variant.label.encode()))
    deals = [random_deal(r) for _ in range(150 if bidder == "counting" else 60)]
    out = np.zeros((len(deals), kh.R_SIZE), dtype=np.int64)
    kh.hands_outcomes(variant.kernel_rules(), np.array(deals, dtype=np.uint64), np.full(4, kh.BIDDER_NAMES.index(bidder)),
                      np.full(4, kp.TEAM, np.int64), Kit(kp.TEAM), out, MODEL.array)  # fmt: skip
    kinds = set()
    for bits, res in zip(deals, out):
        expected = reference_hand(variant, bits, bidder)
        assert kernel_hand(res) == expected, (variant.label, bits)
        kinds.add(expected["redeal"])
    assert kh.PLAYED in kinds


def lineup(bidder=kh.COUNTING, policy=kp.TEAM) -> np.ndarray:
    return np.array([[bidder] * 4, [policy] * 4], dtype=np.int64)


@pytest.mark.parametrize(
    "variant",
    [TarneebVariant.preset("tarneeb"), TarneebVariant.preset("tarneeb-dananeer"), TarneebVariant.preset("egyptian"),
     TarneebVariant.preset("tarneeb").with_(worthless_redeal=True, one_bid_each=True, target=41)],
    ids=lambda v: v.label,
)  # fmt: skip
def test_matches_replay_round_by_round_by_the_python_rules(variant):
    rules, cap = variant.kernel_rules(), 300
    rows = km.play_matches(3, 0, 60, 8, rules, lineup(), Kit(kp.TEAM), MODEL.array, cap)
    offsets = np.concatenate(
        [[0], np.cumsum(rows[:, km.M_HANDS] + rows[:, km.M_PASSED] + rows[:, km.M_WORTHLESS])]
    )
    rounds, deals = km.record_matches(3, 0, offsets.astype(np.int64), 8, rules, lineup(), Kit(kp.TEAM), MODEL.array,
                                      cap)  # fmt: skip
    for m, row in enumerate(rows):
        scores = [0, 0]  # by player team: players 1+3, players 2+4
        dealer, made, contracts = 3, 0, 0
        finished = None
        for k in range(offsets[m], offsets[m + 1]):
            rec = rounds[k]
            assert rec[km.H_DEALER] == dealer and rec[km.H_ROUND] == k - offsets[m]
            odd = (dealer + 1) % 2  # the player team in seats 1+3
            assert [rec[km.H_BEFORE], rec[km.H_BEFORE + 1]] == [scores[odd], scores[1 - odd]]
            expected = reference_hand(variant, [int(x) for x in deals[k]])
            assert rec[km.H_REDEAL] == expected["redeal"]
            if expected["redeal"]:
                continue  # a re-deal: same dealer
            assert rec[km.H_DECLARER] == expected["declarer"] and rec[km.H_TRUMP] == expected["trump"]
            assert list(rec[km.H_TRICKS : km.H_TRICKS + 4]) == expected["taken"]
            scores[odd] += expected["deltas"][0]
            scores[1 - odd] += expected["deltas"][1]
            contracts += 1
            made += expected["tricks"] >= expected["contract"]
            dealer = (dealer + 1) % 4
            winner, draw, _ = match_result(variant, scores)
            if winner is not None or draw:
                finished = 2 if draw else (0 if winner == (1, 3) else 1)
                assert k == offsets[m + 1] - 1, "the match ends with the hand that decides it"
        assert row[km.M_WINNER] == (-1 if finished is None else finished)
        assert [row[km.M_SCORE], row[km.M_SCORE + 1]] == scores
        assert row[km.M_HANDS] == contracts and row[km.M_MADE : km.M_MADE + 7].sum() == made
    assert (rows[:, km.M_WINNER] >= 0).all(), "every match finished within the cap"


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.label)
def test_ev_bidder_twin_agrees_call_by_call(variant):
    from analyzer.games.tarneeb.auction import Auction as PyAuction
    from kernels.tarneeb import bidder as kb
    from kernels.tarneeb import rules as kr

    rules = variant.kernel_rules()
    r = random.Random(zlib.crc32(variant.label.encode()))
    states, hands, expected = [], [], []
    for _ in range(600):
        auction = PyAuction(variant)
        state = np.zeros(kr.ST_SIZE, dtype=np.int64)
        kr.auction_start(state)
        for _ in range(r.randint(0, 5)):
            legal = auction.legal_calls()
            if auction.over or not legal:
                break
            c = r.choice(legal)
            auction.call(c)
            kr.auction_step(rules, state, c.code)
        if auction.over:
            continue
        hand = Hand(random_deal(r)[0])
        states.append(state)
        hands.append(hand.bits)
        expected.append(ev_call(auction, hand, MODEL).code)
    out = np.zeros(len(hands), dtype=np.int64)
    kb.ev_calls(rules, np.array(states), np.array(hands, dtype=np.uint64), MODEL.array, out)
    assert out.tolist() == expected
    assert kr.PASS in expected and any(c >= 8 * kr.MIN_BID for c in expected)  # passes and bids
    if variant.doubling:
        assert kr.DOUBLE in expected  # doubles were compared too


def test_ev_features_twin():
    from analyzer.games.tarneeb.bidders import features
    from kernels.tarneeb import bidder as kb

    r = random.Random(9)
    rows = [
        (Hand(random_deal(r)[0]), r.randrange(5), r.choice([0, 7, 8, 11]), r.choice([0, 7, 9]))
        for _ in range(400)
    ]
    out = np.zeros((len(rows), kb.N_FEATURES))
    kb.feature_rows(np.array([h.bits for h, *_ in rows], dtype=np.uint64), np.array([s for _, s, _, _ in rows]),
                    np.array([p for *_, p, _ in rows]), np.array([o for *_, o in rows]), out)  # fmt: skip
    for (hand, strain, p, o), got in zip(rows, out):
        assert got.tolist() == features(hand, Strain(strain), p, o)


def test_ev_bidder_sanity():
    """What a player would check: a long strong suit bids and names that suit (the regression's
    distribution is not sure of 13 tricks even with 13 trumps, so it opens low); a hand without
    honours passes; with partner's 8 standing and a weak hand, it does not overcall partner."""
    from analyzer.core.notation import parse_hand

    v = TarneebVariant.preset("tarneeb")
    for text, suit in (("AKQJT98765432.-.-.-", Strain.SPADES), ("A5.AKQJ9843.K3.2", Strain.HEARTS)):
        hand = parse_hand(text)
        call = ev_call(Auction(v), hand, MODEL)
        assert call.kind == "bid", text
        assert best_strain(MODEL, v, hand, call.level)[0] is suit
    eg = ev_call(Auction(TarneebVariant.preset("egyptian")), parse_hand("A5.AKQJ9843.K3.2"), MODEL)
    assert eg.kind == "bid" and eg.strain is Strain.HEARTS
    weak = parse_hand("T98.9876.8765.32")
    assert ev_call(Auction(v), weak, MODEL).kind == "pass"
    assert ev_call(Auction(v, ["8", "pass"]), parse_hand("T98.9876.8765.32"), MODEL).kind == "pass"


def test_ev_bidder_weighs_its_own_defence_against_an_opponents_number_bid():
    """An opponent's 7 in the number auction (trump not named yet) is worth more to them the
    weaker the hand that would defend it; a bust does not overcall it, nor does a balanced 16
    points that expects to beat it; a five-card suit headed by the top three honours, with
    values, bids 8."""
    from analyzer.core.notation import parse_hand
    from analyzer.games.tarneeb.bidders import defence_value

    v = TarneebVariant.preset("tarneeb")
    after = Auction(v, ["7"])
    worth = {t: defence_value(MODEL, v, parse_hand(t), after.high, False)
             for t in ("T98.9876.8765.32", "J32.Q54.J93.8762", "A43.K54.Q93.K862", "AQ3.KJ4.Q93.K862")}  # fmt: skip
    values = list(worth.values())
    assert values == sorted(values, reverse=True) and values[0] - values[-1] > 4, worth
    for text in ("T98.9876.8765.32", "AQ3.KJ4.Q93.K862"):
        assert ev_call(after, parse_hand(text), MODEL).kind == "pass", text
    assert ev_call(after, parse_hand("AKQ98.A5.A64.Q73"), MODEL).level == 8


@pytest.mark.slow
def test_fitting_the_ev_model_learns_what_a_player_knows():
    from analyzer.games.tarneeb.bidders import fit_model
    from kernels.tarneeb import bidder as kb

    model = fit_model(deals=20_000, seed=5, iterations=1)
    coef = model.array[kb.SUIT_COEF : kb.SUIT_COEF + kb.N_FEATURES]
    assert coef[1] > 0.3 and coef[2] > 0.1 and coef[5] > 0.1, coef  # trump length, trump ace, side aces
    assert coef[12] > 0 and coef[14] < 0, coef  # partner's standing bid helps, an opponent's hurts
    assert 0.2 < model.meta["history"][0]["r2"] < 0.6
    for at in (kb.DEF_COEF, kb.DEFN_COEF):  # defending: high cards help; against 8+ fewer tricks than 7
        defence = model.array[at : at + kb.N_FEATURES]
        assert defence[11] > 0 and defence[15] < defence[14], defence
    levels = model.array[kb.LEVEL_CUM : kb.DEF_COEF].reshape(7, 15)
    assert np.all(np.diff(levels, axis=1) <= 1e-12)  # P(tricks >= k) falls with k
    assert model.meta["command"] == "t400 fit-bidder --game tarneeb --deals 20000 --seed 5 --iterations 1"
