"""Match equity for 400: P(a partnership wins the match) from the four scores, as the kernels
read it, and the kernels that build the table.

A *table* is one float64 array: ``[G, g_0 .. g_{G-1}, values, cell, weight]`` where ``g`` are
the grid scores (increasing whole numbers, the same on every axis), ``values`` are ``G**4``
probabilities ``E[i1, i2, i3, i4]`` (C order) that the partnership of seats 1+3 wins the match
when the next hand is dealt with scores ``g[i1] .. g[i4]`` in seat order (seat 4 deals), and
``cell``/``weight`` give, for each whole score ``g_0 .. g_{G-1}``, its grid cell (the lower
index) and the weight of the cell's upper end (:func:`axis_tables`, so that a look-up does not
search). Between grid scores the table is interpolated multilinearly; scores outside the grid
are clamped to its ends. The grid (``analyzer.games.t400.equity.equity_grid``) holds every score
where a rule changes, so a cell never straddles a rule, and the scores where the equity jumps.
An empty table is ``[0]`` (bots that need one check for it).

The table is the fixed point of one hand's step (value iteration, as backgammon's match equity
tables are built from rollouts): the value of a state is the mean, over the sampled outcomes of
a hand bid and played by the bots, of the value after it (1 or 0 when the match is decided, else
one minus the table at the rotated scores: the next hand's seat 1 is this hand's seat 2).
"""

import numpy as np
from numba import prange

from kernels.config import PJIT, jit
from kernels.t400.rules import is_made, is_outright, redeal_advances, score_change, winner_of

hot = jit(forceinline=True)

# Outcome kinds of a hand (``kernels.t400.rollout.hand_outcomes``, :func:`settle_hand`).
O_LIVE = 0  # played, settled on points
O_DEAD = 1  # thrown in
O_WIN13 = 2  # a classic 13 decided the match for seats 1+3
O_WIN24 = 3  # ... for seats 2+4


@hot
def has_table(eq):
    return eq.shape[0] > 1 and eq[0] > 0


@hot
def _axis(eq, score):
    """(lower grid index, weight of the upper one) for ``score`` on the table's axis."""
    g = np.int64(eq[0])
    low = np.int64(eq[1])
    high = np.int64(eq[g])
    span = high - low + 1
    j = min(max(score, low), high) - low
    at = 1 + g + g * g * g * g + j
    return np.int64(eq[at]), eq[at + span]


@hot
def equity_at(eq, s1, s2, s3, s4):
    """P(seats 1+3 win) before a hand dealt by seat 4 with scores ``s1..s4`` (interpolated)."""
    g = np.int64(eq[0])
    base = 1 + g
    i1, w1 = _axis(eq, s1)
    i2, w2 = _axis(eq, s2)
    i3, w3 = _axis(eq, s3)
    i4, w4 = _axis(eq, s4)
    total = 0.0
    for a in range(2):
        fa = w1 if a else 1.0 - w1
        if fa == 0.0:
            continue
        for b in range(2):
            fb = fa * (w2 if b else 1.0 - w2)
            if fb == 0.0:
                continue
            for c in range(2):
                fc = fb * (w3 if c else 1.0 - w3)
                if fc == 0.0:
                    continue
                row = (((i1 + a) * g + i2 + b) * g + i3 + c) * g + i4
                total += fc * ((1.0 - w4) * eq[base + row] + w4 * eq[base + row + 1])
    return total


@hot
def equity_after(rules, eq, s1, s2, s3, s4):
    """P(seats 1+3 of this hand win) once the hand is settled at scores ``s1..s4`` (seat
    order): 1 or 0 if the match is decided, else from the table for the next hand (dealt by
    this hand's seat 1, so its seats are this hand's 2, 3, 4, 1)."""
    winner, _ = winner_of(rules, s1, s2, s3, s4)
    if winner == 0:
        return 1.0
    if winner == 1:
        return 0.0
    return 1.0 - equity_at(eq, s2, s3, s4, s1)


@hot
def equity_dead(rules, eq, s1, s2, s3, s4):
    """P(seats 1+3 win) after this hand is thrown in (nothing scored): the same dealer deals
    again, or the next one (by the variant)."""
    if redeal_advances(rules):
        return 1.0 - equity_at(eq, s2, s3, s4, s1)
    return equity_at(eq, s1, s2, s3, s4)


@hot
def settle_hand(rules, bids, tricks, scores, deltas):
    """Score changes of a played hand into ``deltas`` (seat order); returns the outcome kind
    (:data:`O_LIVE`, or a classic 13 deciding the match: :data:`O_WIN13` / :data:`O_WIN24`;
    results pointing both ways cancel, as in the match kernel)."""
    side = -1
    conflict = False
    for s in range(4):
        deltas[s] = score_change(rules, bids[s], tricks[s], scores[s])
        if is_outright(rules, bids[s]):
            sd = s % 2 if is_made(bids[s], tricks[s]) else (s + 1) % 2
            if side == -1:
                side = sd
            elif side != sd:
                conflict = True
    if side >= 0 and not conflict:
        return O_WIN13 if side == 0 else O_WIN24
    return O_LIVE


@PJIT
def sweep(rules, eq, states, regime, offsets, deltas, probs, win13, live, out):
    """One step of value iteration: ``out[k]`` = the value of state ``k`` after one hand, with
    the table ``eq`` (the previous step) for the states after it.

    states: int64[K, 4] grid scores in seat order; regime: int64[K], the outcome set of each
    state; the played hands settled on points of regime ``r`` are rows
    ``offsets[r]..offsets[r+1]-1`` of ``deltas`` (int64[., 4], score changes in seat order) with
    their probabilities ``probs`` (float64[.]); win13[r]: P(a classic 13 decides the match for
    seats 1+3); live[r]: P(the hand is played). All probabilities are over all deals, dead ones
    included.
    """
    for k in prange(states.shape[0]):
        s1 = states[k, 0]
        s2 = states[k, 1]
        s3 = states[k, 2]
        s4 = states[k, 3]
        r = regime[k]
        v = win13[r]
        for o in range(offsets[r], offsets[r + 1]):
            v += probs[o] * equity_after(
                rules, eq, s1 + deltas[o, 0], s2 + deltas[o, 1], s3 + deltas[o, 2], s4 + deltas[o, 3]
            )
        if redeal_advances(rules):
            v += (1.0 - live[r]) * (1.0 - equity_at(eq, s2, s3, s4, s1))
        elif live[r] > 0.0:
            v /= live[r]  # the same dealer deals again until a hand is played
        out[k] = v
