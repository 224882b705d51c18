"""Full hands (deal, bot bids, play, score) and the rollout: invariants, the same result on any
number of threads, and the policies compared in duplicate."""

import numpy as np
import pytest
from conftest import TWO_THREADS

from analyzer.core.notation import parse_hand
from analyzer.core.runtime import threads_used
from analyzer.games.t400 import simulate
from analyzer.games.t400.rules import Variant
from kernels.t400 import rollout as kr
from kernels.t400.lineup import lineup_kit


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


def test_standard_beats_greedy_in_a_small_duplicate():
    """The default play against the simplest one, the same cards and bids both ways: about three
    points a hand on 2,048 deals, which the check needs to hold by ten standard errors."""
    _, mean, se = simulate.duplicate_edge("standard", "greedy", 1, seed=21, chunk_size=2048)
    assert mean - 10 * se > 0, f"standard's edge {mean:.3f} +/- {se:.3f} (SE) points per hand"


@pytest.mark.slow  # the default run's check above on ten times the deals
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
