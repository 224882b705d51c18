"""The simulation kernels against the slow references in tests/naive.py, and their invariants."""

import math
import random
from pathlib import Path

import numba
import numpy as np
import pytest

import naive
from analyzer.core.notation import Hand, parse_hand
from analyzer.core.runtime import threads_used
from analyzer.games.t400 import simulate
from analyzer.games.t400.rules import Variant
from kernels.core import rng
from kernels.core import tricks as kt
from kernels.core.cards import DECK_MASK, HEARTS
from kernels.core.kit import Kit
from kernels.policies import play as kp
from kernels.t400 import bidder as kb
from kernels.t400 import rollout as kr
from kernels.t400.lineup import lineup_kit

POLICY_IDS = [kp.GREEDY, kp.STANDARD, kp.BASIC, kp.TEAM]
TWO_THREADS = pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 kernel threads")


def chi2_critical(df: int, z: float = 3.29) -> float:
    """Upper critical value of chi-square (Wilson-Hilferty); z = 3.29 is p = 0.0005."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def random_deal(rng_: random.Random, size: int = 13) -> list[int]:
    deck = [16 * s + r for s in range(4) for r in range(13)]
    rng_.shuffle(deck)
    return [sum(1 << c for c in deck[k * size : (k + 1) * size]) for k in range(4)]


# -- random streams -----------------------------------------------------------------------------
def test_streams_depend_only_on_seed_and_chunk():
    a = rng.stream(7, 3)
    b = rng.stream(7, 3)
    assert np.array_equal(a, b)
    assert not np.array_equal(rng.stream(7, 3), rng.stream(7, 4))
    assert not np.array_equal(rng.stream(7, 3), rng.stream(8, 3))
    draws_a = [int(rng.next_u64(a)) for _ in range(5)]
    draws_b = [int(rng.next_u64(b)) for _ in range(5)]
    assert draws_a == draws_b and len(set(draws_a)) == 5


def test_below_is_uniform():
    state = rng.stream(1, 0)
    counts = np.zeros(7)
    for _ in range(70_000):
        counts[rng.below(state, 7)] += 1
    chi2 = ((counts - 10_000) ** 2 / 10_000).sum()
    assert chi2 < chi2_critical(6)


# -- dealing --------------------------------------------------------------------------------------
def test_dealing_is_uniform_and_never_deals_the_known_hand():
    known = parse_hand("AKQ5.KJ4.T93.862")
    deals = simulate.deal_hands(60_000, seed=11, known=[known, None, None, None])
    assert (deals[:, 0] == np.uint64(known.bits)).all()
    for seat in (1, 2, 3):
        assert not (deals[:, seat] & np.uint64(known.bits)).any(), "the known hand is never dealt"
    full = np.bitwise_or.reduce(deals, axis=1)
    assert (full == np.uint64(DECK_MASK)).all()
    sizes = [np.array([bin(int(x)).count("1") for x in deals[:2000, s]]) for s in range(4)]
    assert all((sz == 13).all() for sz in sizes)
    # chi-square on card-to-seat frequencies: each unseen card goes to seats 2-4 with prob 1/3
    unseen = [c for c in range(64) if (DECK_MASK >> c) & 1 and not (known.bits >> c) & 1]
    chi2 = 0.0
    expected = len(deals) / 3
    for c in unseen:
        for seat in (1, 2, 3):
            observed = int(((deals[:, seat] >> np.uint64(c)) & np.uint64(1)).sum())
            chi2 += (observed - expected) ** 2 / expected
    assert chi2 < chi2_critical(len(unseen) * 2)


def test_dealing_an_ending():
    known = Hand.parse("AK.-.-.-", size=None)
    deals = simulate.deal_hands(3000, seed=3, known=[None, known, None, None], unseen="S:QJ98 D:2 C:2")
    assert (deals[:, 1] == np.uint64(known.bits)).all()
    for seat in (0, 2, 3):
        assert all(bin(int(x)).count("1") == 2 for x in deals[:, seat])
    # the spade queen (bit 10) goes to each of the three open seats about a third of the time
    q = [int(((deals[:, s] >> np.uint64(10)) & np.uint64(1)).sum()) for s in (0, 2, 3)]
    assert sum(q) == 3000 and min(q) > 850


@TWO_THREADS
def test_dealing_reproducible_across_threads():
    one = simulate.deal_hands(10_000, seed=5, threads=1)
    two = simulate.deal_hands(10_000, seed=5, threads=2)
    assert np.array_equal(one, two)
    assert not np.array_equal(one, simulate.deal_hands(10_000, seed=6, threads=2)), "the seed matters"


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


@pytest.mark.parametrize("trump", [HEARTS, 0, 4])
def test_standard_policy_agrees_with_its_plain_python_twin_card_by_card(trump):
    """Every card the ``standard`` kernel plays is the card naive.standard_choice picks from the
    same public state (full deals and endings, any leader, bids from 0 to 13)."""
    r = random.Random(11 + trump)
    cards_checked = 0
    for _ in range(400):
        size = r.choice([13, 13, 13, 8, 4])
        bits = random_deal(r, size)
        bids = [r.choice([0, 2, 2, 3, 3, 4, 5, 6, 8, 13]) for _ in range(4)]
        leader = r.randrange(4)
        record = np.zeros(52, dtype=np.int64)
        n = kp.play_hand(np.array(bits, dtype=np.uint64), np.array(bids), leader,
                         np.full(4, kp.STANDARD, dtype=np.int64), Kit(kp.STANDARD), trump, np.zeros(4, dtype=np.int64),
                         record)  # fmt: skip
        hands = [naive.cards_of(b) for b in bits]
        played, voids, taken, trick, lead_seat = set(), set(), [0, 0, 0, 0], [], leader
        for index in record[:n]:
            seat = (lead_seat + len(trick)) % 4
            expected = naive.standard_choice(
                seat, hands[seat], played, voids, bids, taken, lead_seat, trick, trump
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
    """``standard``'s card (as text, e.g. "HK") from a public state given in card text."""

    def bits(text):
        return np.uint64(sum(1 << naive.index_of(_card(c)) for c in text.split()))

    def pack(values):
        return sum(int(x) << (8 * s) for s, x in enumerate(values))

    cards = [_card(c) for c in trick]
    best_pos = naive.trick_winner(cards, HEARTS) if cards else 0
    best = naive.index_of(cards[best_pos]) if cards else 0
    led = cards[0][0] if cards else 0
    card = kp.pick_card(Kit(kp.STANDARD), kp.STANDARD, seat, bits(hand), bits(played), voids, pack(bids), pack(taken), leader,
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
        a, b = r.sample(range(4), 2)
        ca = r.choice(sorted(naive.cards_of(bits[a])))
        cb = r.choice(sorted(naive.cards_of(bits[b])))
        swapped = list(bits)
        swapped[a] = bits[a] ^ (1 << naive.index_of(ca)) | (1 << naive.index_of(cb))
        swapped[b] = bits[b] ^ (1 << naive.index_of(cb)) | (1 << naive.index_of(ca))
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


# -- bot bidding ---------------------------------------------------------------------------------
def test_counting_bidder_matches_the_recipe():
    r = random.Random(5)
    v = Variant.preset("dananeer")
    rules = v.kernel_rules()
    for _ in range(3000):
        bits = random_deal(r)
        hand = naive.cards_of(bits[0])
        assert kb.counting_estimate(np.uint64(bits[0]), HEARTS) == pytest.approx(naive.counting_estimate(hand))
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


# -- full hands ----------------------------------------------------------------------------------
@TWO_THREADS
def test_full_hands_same_histograms_on_one_and_two_threads():
    a, b = (
        simulate.simulate_full_hands(20_000, seed=9, policy="standard", threads=threads, chunk_size=512)
        for threads in (1, 2)
    )
    assert a.played == b.played and a.dead == b.dead
    assert np.array_equal(a.tricks, b.tricks) and np.array_equal(a.bids, b.bids)


def test_full_hands_invariants():
    s = simulate.simulate_full_hands(20_000, seed=10, policy="greedy", bidder="counting")
    assert s.deals == 20_480  # whole chunks
    assert (s.tricks.sum(axis=1) == s.played).all()
    assert (s.tricks * np.arange(14)).sum() == 13 * s.played, "13 tricks in all"
    assert (s.bids.sum(axis=1) == s.deals).all()
    assert 0.01 < s.dead_rate < 0.15


@TWO_THREADS
def test_rollout_is_reproducible_across_threads_and_chunks():
    v = Variant.preset("dananeer")
    bot = simulate.bot_array(v)
    hand = np.uint64(parse_hand("AKQ5.KJ4.T93.862").bits)
    lineup = simulate.lineup_array()
    args = (v.kernel_rules(), lineup, lineup_kit(lineup), bot, hand, 1, np.zeros(4, dtype=np.int64), np.array([4]),
            np.arange(2, 8), True, 2.0, None, np.zeros(1, dtype=np.uint8))  # fmt: skip
    outs = []
    for threads in (1, 2):
        with threads_used(threads):
            outs.append(kr.rollout(12, 0, 6, 256, *args))
    for x, y in zip(outs[0], outs[1]):
        assert np.array_equal(x, y)
    # a chunk's result does not depend on which run computed it
    tail = kr.rollout(12, 3, 3, 256, *args)
    assert np.array_equal(outs[0][0][3:], tail[0])


@pytest.mark.slow  # standard_beats_basic below holds the policy to a stronger bar
def test_standard_beats_greedy_in_duplicate():
    _, mean, se = simulate.duplicate_edge("standard", "greedy", 10, seed=21, chunk_size=2048)
    assert mean - 1.96 * se > 0, f"standard's edge {mean:.3f} +/- {1.96 * se:.3f} points per hand"


@pytest.mark.slow  # a measurement (tens of seconds): run with -m slow
def test_standard_beats_basic_in_duplicate():
    """The policy that replaced ``basic`` as ``standard`` scores more with the same cards and bids."""
    _, mean, se = simulate.duplicate_edge("standard", "basic", 10, seed=22, chunk_size=2048)
    assert mean - 1.96 * se > 0.15, (
        f"standard's edge over basic {mean:.3f} +/- {1.96 * se:.3f} points per hand"
    )


# -- caching ------------------------------------------------------------------------------------
@pytest.mark.parametrize("home_writable", [True, False])
def test_kernels_work_from_a_read_only_install(tmp_path, home_writable):
    """Install the package where nobody can write: kernels still compile and cache (in the user's
    cache directory, or, when the home is read-only too, in the temporary folder, said in one
    line) and nothing is written into the package. Root can write anywhere, so as root the
    package (and the home) are mounted read-only in a private mount namespace."""
    import os
    import shlex
    import shutil
    import stat
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    install = tmp_path / "site"
    for package in ("kernels", "analyzer"):
        shutil.copytree(root / package, install / package, ignore=shutil.ignore_patterns("__pycache__"))
    home = tmp_path / "home"
    home.mkdir()
    temp = tmp_path / "temp"
    temp.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"), PYTHONPATH=str(install), TMPDIR=str(temp))
    read_only = [install] if home_writable else [install, home]
    code = (
        "import numpy as np; from kernels.core.cards import FULL_DECK; from kernels.core.deal import deal_many;"
        "out = deal_many(1, 0, 1, 8, np.zeros(4, np.uint64), FULL_DECK, np.full(4, 13));"
        "print(int(out[0, 0]))"
    )
    command = [sys.executable, "-c", code]
    if os.geteuid() == 0:
        if not shutil.which("unshare"):
            pytest.skip("running as root without unshare: cannot make a read-only install")
        mounts = " && ".join(
            f"mount --bind {shlex.quote(str(d))} {shlex.quote(str(d))} && "
            f"mount -o remount,bind,ro {shlex.quote(str(d))}"
            for d in read_only
        )
        target = shlex.quote(str(install))
        script = f"{mounts} && touch {target}/probe 2>/dev/null && exit 99; exec {shlex.join(command)}"
        command = ["unshare", "-m", "sh", "-c", script]
    else:
        for folder in read_only:
            for path in [folder, *folder.rglob("*")]:
                path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    try:
        runs = [
            subprocess.run(command, env=env, cwd=tmp_path, capture_output=True, text=True) for _ in range(2)
        ]
    finally:
        for folder in read_only:
            for path in [folder, *folder.rglob("*")]:
                path.chmod(path.stat().st_mode | stat.S_IWUSR)
    if runs[0].returncode != 0 and "mount" in runs[0].stderr:
        pytest.skip(f"cannot mount read-only here: {runs[0].stderr.strip()}")
    for run in runs:
        assert run.returncode == 0, run.stderr
    assert runs[0].stdout == runs[1].stdout
    assert not list(install.rglob("*.nbi")), "nothing is written into the read-only package"
    if home_writable:
        assert list((home / ".cache").rglob("*.nbi")), "the kernels were cached in the user cache"
        assert runs[0].stderr == ""
    else:
        assert not list(home.rglob("*.nbi"))
        assert list(temp.rglob("*.nbi")), "the kernels were cached in the temporary folder"
        assert runs[0].stderr.startswith("note: ") and len(runs[0].stderr.splitlines()) == 1
