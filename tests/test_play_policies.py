"""The card-play policies against the plain-Python twins in tests/naive.py: legal cards, the same
card as the twin, the rules of `standard` as the texts of docs/card-play.md state them, and
hidden cards that change no decision."""

import random

import numpy as np
import pytest
from conftest import POLICY_IDS, random_deal, swap_one_card

import naive
from analyzer.games.t400 import simulate
from kernels.core import tricks as kt
from kernels.core.cards import FULL_DECK, HEARTS
from kernels.core.kit import Kit
from kernels.policies import common
from kernels.policies import play as kp


# -- trick play against the reference -------------------------------------------------------------
@pytest.mark.parametrize("policy", ["greedy", "standard", "basic"])
def test_kernel_play_is_legal_and_agrees_with_reference(policy):
    r = random.Random(1)
    for _ in range(1500):
        size = r.choice([13, 13, 13, 5, 2, 1])
        bits = random_deal(r, size)
        bids = [r.randint(0, min(size, 13)) for _ in range(4)]
        leader = r.randrange(4)
        tricks = np.zeros(4, dtype=np.int64)
        record = np.zeros(52, dtype=np.int64)
        pol = np.full(4, simulate.policy_id(policy), dtype=np.int64)
        n = kp.play_hand(
            np.array(bits, dtype=np.uint64), np.array(bids), leader, pol, Kit(pol[0]), HEARTS, tricks, record
        )
        assert n == 4 * size
        hands = [naive.cards_of(b) for b in bits]
        ref_tricks, movers = naive.replay(hands, list(record[:n]), leader)
        assert list(tricks) == ref_tricks
        assert sum(ref_tricks) == size
        if policy == "greedy":
            # move by move: the greedy kernel makes the reference greedy choice
            live = [set(h) for h in hands]
            trick = []
            for index, seat in zip(record[:n], movers):
                assert naive.index_of(naive.greedy_choice(live[seat], trick, HEARTS)) == index
                live[seat].discard(naive.card_at(int(index)))
                trick = [*trick, naive.card_at(int(index))] if len(trick) < 3 else []


@pytest.mark.parametrize("policy", ["standard", "standard1"])
@pytest.mark.parametrize("trump", [HEARTS, 0, 4])
def test_standard_policy_agrees_with_its_plain_python_twin_card_by_card(trump, policy):
    """Every card the ``standard`` kernel plays (and ``standard1``, the plan without the later-lead
    model) is the card naive.standard_choice picks from the same public state (full deals and
    endings, any leader, bids from 0 to 13)."""
    pid = kp.POLICY_NAMES.index(policy)
    r = random.Random(11 + trump)
    cards_checked = 0
    for _ in range(400):
        size = r.choice([13, 13, 13, 8, 4])
        bits = random_deal(r, size)
        bids = [r.choice([0, 2, 2, 3, 3, 4, 5, 6, 8, 13]) for _ in range(4)]
        leader = r.randrange(4)
        record = np.zeros(52, dtype=np.int64)
        n = kp.play_hand(np.array(bits, dtype=np.uint64), np.array(bids), leader,
                         np.full(4, pid, dtype=np.int64), Kit(pid), trump, np.zeros(4, dtype=np.int64),
                         record)  # fmt: skip
        hands = [naive.cards_of(b) for b in bits]
        played, voids, taken, trick, lead_seat = set(), set(), [0, 0, 0, 0], [], leader
        for index in record[:n]:
            seat = (lead_seat + len(trick)) % 4
            expected = naive.standard_choice(
                seat, hands[seat], played, voids, bids, taken, lead_seat, trick, trump, plan_only=policy == "standard1"
            )
            assert naive.index_of(expected) == index, (bits, bids, leader, trump, len(played))
            card = naive.card_at(int(index))
            hands[seat].remove(card)
            played.add(card)
            if trick and card[0] != trick[0][0]:
                voids.add((seat, trick[0][0]))
            trick.append(card)
            if len(trick) == 4:
                lead_seat = (lead_seat + naive.trick_winner(trick, trump)) % 4
                taken[lead_seat] += 1
                trick = []
            cards_checked += 1
    assert cards_checked > 12_000


def _card(text: str) -> tuple[int, int]:
    return "SHDC".index(text[0]), "23456789TJQKA".index(text[1])


def _standard(seat, hand, played, voids, bids, taken, leader=0, trick=()):
    """The plan's card (as text, e.g. "HK") from a public state given in card text: ``standard1``,
    whose rules these tests state (``standard`` plays the same but for leads after the first,
    which its later-lead model may change; the twin test above covers those)."""

    def bits(text):
        return np.uint64(sum(1 << naive.index_of(_card(c)) for c in text.split()))

    def pack(values):
        return sum(int(x) << (8 * s) for s, x in enumerate(values))

    cards = [_card(c) for c in trick]
    best_pos = naive.trick_winner(cards, HEARTS) if cards else 0
    best = naive.index_of(cards[best_pos]) if cards else 0
    led = cards[0][0] if cards else 0
    card = kp.pick_card(Kit(kp.STANDARD1), kp.STANDARD1, seat, bits(hand), bits(played), voids, pack(bids), pack(taken), leader,
                          len(cards), led, best, best_pos, HEARTS)  # fmt: skip
    return "SHDC"[card >> 4] + "23456789TJQKA"[card & 15]


def test_a_bid_of_six_with_five_trumps_opens_with_a_trump():
    hand = "SA SK S3 HK HQ HJ H7 H4 D5 C9 C8 C6 C4"
    assert _standard(0, hand, "", 0, [5, 2, 2, 2], [0] * 4) == "SA"  # a 5 leads by the table: ace-king
    assert _standard(0, hand, "", 0, [6, 2, 2, 2], [0] * 4) == "HK"  # knocks out the trump ace
    assert _standard(0, hand.replace("HK", "HA"), "", 0, [6, 2, 2, 2], [0] * 4) == "HA"


def test_trumps_are_not_drawn_once_both_opponents_have_shown_out():
    hand, played = "HA H9 SA S4 D3 D2 C5", "HK HQ HJ HT H8 H7 H6 S2 S3 C2 C3 D4"
    assert _standard(0, hand, played, 0, [5, 2, 2, 2], [2, 1, 1, 0]) == "HA"
    both_out = (1 << (4 * 1 + HEARTS)) | (1 << (4 * 3 + HEARTS))  # the four trumps out are partner's
    assert _standard(0, hand, played, both_out, [5, 2, 2, 2], [2, 1, 1, 0])[0] != "H"


def test_a_big_bidder_last_to_play_ruffs_partners_winner_when_it_is_further_from_its_bid():
    hand, trick = "H5 H2 S4 D6", ("C5", "CA", "C7")  # seat 2 (partner) wins with the club ace
    assert _standard(0, hand, "C5 CA C7", 1 << 3, [7, 2, 2, 2], [3, 2, 0, 2], leader=1, trick=trick) == "H2"
    assert _standard(0, hand, "C5 CA C7", 1 << 3, [5, 2, 2, 2], [1, 2, 0, 2], leader=1, trick=trick) != "H2"
    assert _standard(0, hand, "C5 CA C7", 1 << 3, [7, 2, 3, 2], [5, 2, 0, 2], leader=1, trick=trick) != "H2"


def test_third_hand_ruffs_partners_safe_winner_when_partner_is_done_or_its_bigger_bid_needs_more():
    hand, trick = "H9 H2 S4 D6", ("CA", "C7")  # partner leads the club ace, an opponent follows

    def card(bids):
        return _standard(0, hand, "CA C7", 0, bids, [3, 2, 2, 2], leader=2, trick=trick)

    assert card([7, 2, 3, 2]) == "H2"  # 7 is bigger than partner's 3 and further from made
    assert card([5, 2, 3, 2]) == "S4"  # a 5 leaves partner's trick to partner, who needs it
    assert card([5, 2, 2, 2]) == "H2"  # partner has made 2: the trick is mine to take
    assert card([3, 2, 3, 2]) == "S4"  # I have made 3: the trick is partner's


def test_masters_from_top_counts_the_cards_the_twin_cashes_from_the_top():
    """The masters of a suit (counted at once: the held cards above its highest unseen card)
    against the twin's walk down from the top, on random splits of a suit into held, played and
    unseen cards."""
    r = random.Random(5)
    for _ in range(3000):
        s = r.randrange(4)
        weights = [r.random() for _ in range(3)]
        held = played = 0
        for rank in range(13):
            where = r.choices(range(3), weights)[0]
            held |= (where == 0) << (16 * s + rank)
            played |= (where == 1) << (16 * s + rank)
        unseen = int(FULL_DECK) & ~(held | played)
        got = common.masters_from_top(np.uint64(held), np.uint64(unseen))
        assert got == naive._masters_from_top(naive.cards_of(held), naive.cards_of(unseen)), (held, played)


def test_kernel_legal_moves_and_winners_match_reference():
    r = random.Random(2)
    for _ in range(3000):
        bits = random_deal(r)
        hand = naive.cards_of(bits[0])
        n_played = r.randrange(4)
        others = [c for h in bits[1:] for c in naive.cards_of(h)]
        trick = r.sample(others, n_played)
        led = trick[0][0] if trick else 0
        legal = kt.legal_moves(np.uint64(bits[0]), n_played, led)
        assert naive.cards_of(int(legal)) == naive.legal_moves(hand, trick)
        if trick:
            best_pos = naive.trick_winner(trick, HEARTS)
            best = naive.index_of(trick[best_pos])
            wins = kt.winning_cards(legal, best, led, HEARTS)
            expected = {
                c
                for c in naive.legal_moves(hand, trick)
                if naive.trick_winner([*trick, c], HEARTS) == n_played
            }
            assert naive.cards_of(int(wins)) == expected


@pytest.mark.parametrize("policy", POLICY_IDS)
def test_policy_sees_only_public_information(policy):
    """Every move of the play loop equals the policy evaluated on what the mover may know."""
    r = random.Random(3)
    for _ in range(300):
        bits = random_deal(r)
        bids = [r.randint(2, 6) for _ in range(4)]
        tricks = np.zeros(4, dtype=np.int64)
        record = np.zeros(52, dtype=np.int64)
        kp.play_hand(
            np.array(bits, dtype=np.uint64),
            np.array(bids),
            0,
            np.full(4, policy),
            Kit(policy),
            HEARTS,
            tricks,
            record,
        )
        states = naive.public_states([naive.cards_of(b) for b in bits], list(record), bids, 0)
        for index, (seat, own, played, voids, bids_, taken, leader, n_played, led, best, best_pos) in zip(
            record, states
        ):
            card = kp.pick_card(
                Kit(policy),
                policy,
                seat,
                np.uint64(own),
                np.uint64(played),
                voids,
                bids_,
                taken,
                leader,
                n_played,
                led,
                best,
                best_pos,
                HEARTS,
            )
            assert card == index


@pytest.mark.parametrize("policy", POLICY_IDS)
def test_swapping_hidden_cards_changes_no_decision_of_a_player_who_cannot_see_them(policy):
    """Swap one card between two players' hands and replay: the first move that differs is
    always made by one of those two players (nobody else's choice can depend on the swap)."""
    r = random.Random(4)
    checked = 0
    for _ in range(600):
        bits = random_deal(r)
        a, b, swapped = swap_one_card(r, bits)
        bids = [r.randint(2, 6) for _ in range(4)]
        seqs = []
        for deal in (bits, swapped):
            rec = np.zeros(52, dtype=np.int64)
            kp.play_hand(np.array(deal, dtype=np.uint64), np.array(bids), 0, np.full(4, policy), Kit(policy),
                         HEARTS, np.zeros(4, dtype=np.int64), rec)  # fmt: skip
            seqs.append(list(rec))
        if seqs[0] == seqs[1]:
            continue
        first = next(i for i in range(52) if seqs[0][i] != seqs[1][i])
        _, movers = naive.replay([naive.cards_of(x) for x in bits], seqs[0], 0)
        assert movers[first] in (a, b)
        checked += 1
    assert checked > 100
