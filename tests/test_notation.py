"""Cards, hands and deals: the text forms, their round trips and their error messages."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyzer.core.errors import T400Error
from analyzer.core.notation import Card, Deal, Hand, Rank, Suit, as_deal, as_hand, parse_deal, parse_hand
from kernels.core import cards as layout
from kernels.core.cards import SUIT_MASK

EXAMPLE = "AKQ5.KJ4.T93.862"


# -- the bit layout ---------------------------------------------------------------------------
def test_bit_layout_is_sixteen_bit_lanes_ranks_from_the_two():
    assert Card(Suit.SPADES, Rank.TWO).index == 0
    assert Card(Suit.SPADES, Rank.ACE).index == 12
    assert Card(Suit.HEARTS, Rank.ACE).index == 28
    assert Card(Suit.CLUBS, Rank.ACE).index == 60
    assert Hand.parse("-.AKQJT98765432.-.-", size=None).bits == SUIT_MASK << 16
    assert int(layout.FULL_DECK) == sum(Suit(s).mask for s in range(4))


# -- accepted forms ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "AKQ5.KJ4.T93.862",
        "akq5.kj4.t93.862",
        "AKQ5.KJ4.1093.862",
        "S:AKQ5 H:KJ4 D:T93 C:862",
        "s:akq5 h:kj4 d:t93 c:862",
        "C:862 D:T93 H:KJ4 S:AKQ5",
        "♠AKQ5 ♥KJ4 ♦T93 ♣862",
        "♣862 ♥KJ4 ♠AKQ5 ♦T93",
        "♠AKQ5♥KJ4♦T93♣862",
        "SAKQ5 HKJ4 DT93 C862",
        "S:AKQ5 H:KJ4 D:10 9 3 C:862".replace("10 9 3", "1093"),
    ],
)
def test_every_documented_form_reads_the_same_hand(text):
    assert parse_hand(text) == parse_hand(EXAMPLE)


def test_voids_as_dash_or_empty_or_missing_tag():
    a = parse_hand("AKQJT98765432.-.-.-")
    assert a == parse_hand("AKQJT98765432...")
    assert a == parse_hand("S:AKQJT98765432")
    assert a == parse_hand("S:AKQJT98765432 H:- D:- C:-")
    assert a.to_dot() == "AKQJT98765432.-.-.-"


def test_formatting_dot_and_symbols():
    h = parse_hand(EXAMPLE)
    assert h.to_dot() == "AKQ5.KJ4.T93.862"
    assert h.to_symbols() == "♠AKQ5 ♥KJ4 ♦T93 ♣862"
    assert [str(c) for c in h][:4] == ["SA", "SK", "SQ", "S5"]


def test_cards_parse_both_ways_round():
    assert Card.parse("HK") == Card.parse("kh") == Card.parse("♥K") == Card.parse("K♥")
    assert Card.parse("10d") == Card(Suit.DIAMONDS, Rank.TEN)
    with pytest.raises(T400Error, match="'XZ' is not a card"):
        Card.parse("XZ")


# -- errors name the bad token ----------------------------------------------------------------
@pytest.mark.parametrize(
    "text, message",
    [
        ("AKQ5.KJ4.T93.86", "'AKQ5.KJ4.T93.86': 12 cards, a hand needs 13"),
        ("AKQ5.KJ4.T93.8642", "14 cards, a hand needs 13"),
        ("AKQ5.KJ4.TX3.862", "unknown rank 'X' in 'TX3'"),
        ("AKQ5.KJ4.T93", "3 suits, a hand in dot form needs 4"),
        ("AKQ5.KJK.T93.862", "card HK given twice in 'KJK'"),
        ("S:AKQ5 H:KJ4 S:T93 C:862", "suit S given twice"),
        ("X:AKQ5 H:KJ4 D:T93 C:862", "'X:AKQ5': expected a suit"),
        ("", "empty hand"),
    ],
)
def test_parse_errors_name_the_problem(text, message):
    with pytest.raises(T400Error, match=message.replace("(", r"\(")):
        parse_hand(text)


def test_deal_errors():
    good = "AKQ5.KJ4.T93.862 JT98.AQ.AK7.QJ95 7643.T9875.Q5.A4 2.632.J8642.KT73"
    assert parse_deal(good).size == 13
    with pytest.raises(T400Error, match="card SA is in hand 1 and in hand 2"):
        parse_deal("AKQ5.KJ4.T93.862 AT98.AQ.AK7.QJ95 7643.T9875.Q5.A4 2.632.J8642.KT73")
    with pytest.raises(T400Error, match="a deal needs 4 hands in seat order, got 3"):
        parse_deal("AKQ5.KJ4.T93.862 JT98.AQ.AK7.QJ95 7643.T9875.Q5.A4")
    with pytest.raises(T400Error, match="hand 2 .* 2 cards but hand 1 has 3"):
        parse_deal("AKQ.-.-.- JT.-.-.- 987.-.-.- 654.-.-.-")
    with pytest.raises(T400Error, match="12 cards, a hand needs 13"):
        parse_deal("AKQ5.KJ4.T93.86 JT98.AQ.AK7.QJ95 7643.T9875.Q5.A4 2.632.J8642.KT73", full=True)


def test_deal_forms_tagged_and_separated():
    a = parse_deal("AKQ5.KJ4.T93.862 JT98.AQ.AK7.QJ95 7643.T9875.Q5.A4 2.632.J8642.KT73")
    tagged = " ".join(h.to_symbols() for h in a.hands)
    assert parse_deal(tagged) == a
    assert parse_deal(a.to_symbols()) == a
    assert parse_deal(" | ".join(str(h) for h in a.hands)) == a
    assert parse_deal(str(a)) == a


def test_endings_with_fewer_cards():
    d = parse_deal("AK.-.-.- QJ.-.-.- T9.-.-.- 87.-.-.-")
    assert d.size == 2
    assert parse_deal("A.-.-.- -.A.-.- -.-.A.- -.-.-.A").size == 1


def test_as_helpers_accept_types_and_text():
    h = parse_hand(EXAMPLE)
    assert as_hand(EXAMPLE) == h == as_hand(h) == as_hand(h.bits)
    d = parse_deal("A.-.-.- -.A.-.- -.-.A.- -.-.-.A")
    assert as_deal(d) == d == as_deal(list(d.hands)) == as_deal(str(d))
    with pytest.raises(T400Error, match="a full deal needs 13"):
        as_deal(d, full=True)


# -- round trips (property tests) -------------------------------------------------------------
def _deal_from_seed(seed: int, size: int) -> Deal:
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    hands = []
    for seat in range(4):
        bits = 0
        for k in deck[seat * size : (seat + 1) * size]:
            bits |= 1 << (16 * (k // 13) + k % 13)
        hands.append(Hand(bits))
    return Deal(tuple(hands))


@given(st.integers(0, 2**32), st.integers(1, 13))
def test_deal_round_trips_through_every_form(seed, size):
    d = _deal_from_seed(seed, size)
    assert parse_deal(d.to_dot()) == d
    assert parse_deal(d.to_symbols()) == d
    assert parse_deal(d.to_dot().lower()) == d
    for hand in d.hands:
        assert parse_hand(hand.to_dot(), size=size) == hand
        assert parse_hand(hand.to_symbols(), size=size) == hand
        assert Hand.from_cards(list(hand)) == hand


@given(st.integers(0, 2**32), st.permutations(range(4)), st.sampled_from(["letter", "symbol"]))
def test_suit_tagged_form_in_any_order(seed, order, tags):
    hand = _deal_from_seed(seed, 13).hands[0]
    parts = []
    for s in order:
        suit = Suit(s)
        tag = suit.letter + ":" if tags == "letter" else suit.symbol
        parts.append(tag + ("".join(r.char for r in hand.ranks(suit)) or "-"))
    assert parse_hand(" ".join(parts)) == hand
