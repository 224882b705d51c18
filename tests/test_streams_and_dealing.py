"""Random streams and dealing against their references: streams depend only on (seed, chunk),
deals are uniform, endings and known hands are respected, and threads change nothing."""

import numpy as np
from conftest import TWO_THREADS, chi2_critical

from analyzer.core.notation import Hand, parse_hand
from analyzer.games.t400 import simulate
from kernels.core import rng
from kernels.core.cards import DECK_MASK


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
