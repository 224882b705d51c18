"""The data of ``t400 fit-follow``: every take-or-leave decision of played deals
(:func:`kernels.policies.team_follow.follow_kind`), each option played out.

The deals are Tarneeb's team contracts played by ``team``, or 400's live deals played by
``standard``, with given take-or-leave weights (none: the plan's choice; a previous fit's: the
next step of policy iteration). At each decision both options
(:func:`kernels.policies.team_follow.take_leave`) are played and the deal finished by the same
player at all four seats; a row records the points for the mover's side after each, minus the
other side's (a team contract: the declaring side scores ``net[its tricks]``, the defenders the
opposite; 400: each seat its bid's value if it makes its bid, minus it if not, ``values``),
whether the player took, and the model's inputs (:mod:`kernels.policies.team_follow`'s features,
or :mod:`kernels.policies.standard_follow`'s). See :mod:`analyzer.core.follow` for the fit.
"""

import numpy as np
from numba import prange

from kernels.config import PJIT, jit
from kernels.core.cards import popcount
from kernels.core.tricks import power
from kernels.policies.lead_rollouts import _side_points as side_points  # the later leads' points, shared
from kernels.policies.standard import short_of
from kernels.policies.standard_follow import HANDS as HANDS_400
from kernels.policies.standard_follow import N_FEATURES
from kernels.policies.standard_follow import follow_features as features_400
from kernels.policies.standard_follow import standard_follow_card
from kernels.policies.team import DECLARING_BIT, side_taken, side_targets, team_card
from kernels.policies.team_follow import HANDS as TEAM_HANDS
from kernels.policies.team_follow import follow_features, follow_kind, take_leave

U64 = np.uint64
_ONE = U64(1)
hot = jit(forceinline=True)

#: Rows a deal can give (three decisions a trick at most), and the columns: the decision
#: (``16 * deal + trick``), its kind, the cards played to the trick before it (1 to 3), the
#: mover's side declares (team) or the mover is short of its bid (400) (0/1), the player took
#: (0/1), the side's points after taking, after leaving, then the features (room for 400's, the
#: longer).
ROWS_PER_DEAL = 39
C_DECISION, C_KIND, C_POSITION, C_DECLARING, C_TOOK, C_TAKE, C_LEAVE, C_FEATURES = 0, 1, 2, 3, 4, 5, 6, 7
N_COLUMNS = C_FEATURES + N_FEATURES


@hot
def _place(card, k, seat, led, best, best_pos, voids, trump):
    """The trick after ``card`` is played at position ``k`` by ``seat``: (led, best, best_pos,
    voids)."""
    if k == 0:
        return card >> 4, card, 0, voids
    voids |= np.int64((card >> 4) != led) << (4 * seat + led)
    if power(card, led, trump) > power(best, led, trump):
        return led, card, k, voids
    return led, best, best_pos, voids


@jit
def _card(team, seat, hand, played, voids, bids, taken, leader, k, led, best, best_pos, trump, weights):
    """The player's card: ``team`` (a team contract) or 400's ``standard``, with the take-or-leave
    ``weights``."""
    if team:
        return team_card(seat, hand, played, voids, bids, taken, leader, k, led, best, best_pos, trump, True, True,
                         weights)  # fmt: skip
    return standard_follow_card(seat, hand, played, voids, bids, taken, leader, k, led, best, best_pos, trump, False,
                                weights)  # fmt: skip


@jit
def _trick(team, hands, played, voids, bids, taken, leader, trump, weights, forced, n_forced):
    """Play one trick from ``leader`` by the player with the take-or-leave ``weights``, the first
    ``n_forced`` cards being ``forced``'s; ``hands`` (uint64[4]) lose the cards. Returns
    (played, voids, taken, next leader)."""
    best = 0
    best_pos = 0
    led = 0
    for k in range(4):
        seat = (leader + k) & 3
        if k < n_forced:
            card = forced[k]
        else:
            card = _card(team, seat, hands[seat], played, voids, bids, taken, leader, k, led, best, best_pos, trump,
                         weights)  # fmt: skip
        played |= _ONE << U64(card)
        hands[seat] &= ~(_ONE << U64(card))
        led, best, best_pos, voids = _place(card, k, seat, led, best, best_pos, voids, trump)
    leader = (leader + best_pos) & 3
    return played, voids, taken + (np.int64(1) << (8 * leader)), leader


@jit
def _points(team, scratch, played, voids, bids, taken, leader, trump, weights, forced, n_forced, values, net,
            declarer, seat):  # fmt: skip
    """The points of ``seat``'s side minus the other's when the trick starts with ``forced``'s
    ``n_forced`` cards and the player finishes the deal (``played`` and ``voids``: before the
    trick)."""
    p, v, t, ld = _trick(team, scratch, played, voids, bids, taken, leader, trump, weights, forced, n_forced)
    while popcount(scratch[0]) + popcount(scratch[1]) + popcount(scratch[2]) + popcount(scratch[3]):
        p, v, t, ld = _trick(team, scratch, p, v, bids, t, ld, trump, weights, forced, 0)
    return side_points(team, bids, t, values, net, declarer, seat)


@PJIT
def follow_values(team, hands, bids, leaders, trumps, values, net, weights, rows, counts):
    """Fill ``rows`` (int64[n * ROWS_PER_DEAL, N_COLUMNS]; deal ``i`` from row
    ``i * ROWS_PER_DEAL``, ``counts[i]`` rows) for the deals ``hands`` (uint64[n, 4]): ``team``,
    Tarneeb's contracts played by ``team`` (else 400's deals played by ``standard``); ``bids``
    int64[n] (8 bits a seat: 400's bids, or :func:`kernels.tarneeb.hand.team_bids`), ``leaders``
    int64[n] (the opening leader: a contract's declarer), ``trumps`` int64[n], ``values``
    int64[n, 4] (400: each bid's value), ``net`` int64[n, 14] (team: the declaring side's points
    by its tricks), ``weights`` int64 (the take-or-leave weights the player uses; empty: the
    plan)."""
    for i in prange(hands.shape[0]):
        hh = hands[i].copy()
        scratch = np.empty(4, dtype=np.uint64)
        forced = np.empty(4, dtype=np.int64)
        b = bids[i]
        trump = trumps[i]
        declarer = leaders[i]
        played = U64(0)
        voids = np.int64(0)
        taken = np.int64(0)
        leader = leaders[i]
        r = i * ROWS_PER_DEAL
        for t in range(13):
            before_played, before_voids = played, voids  # the options replay the trick from its start
            best = 0
            best_pos = 0
            led = 0
            for k in range(4):
                seat = (leader + k) & 3
                hand = hh[seat]
                card = _card(team, seat, hand, played, voids, b, taken, leader, k, led, best, best_pos, trump, weights)
                kind = follow_kind(hand, k, led, best, trump, TEAM_HANDS if team else HANDS_400)
                if kind >= 0:
                    plan = _card(team, seat, hand, played, voids, b, taken, leader, k, led, best, best_pos, trump,
                                 weights[:0])  # fmt: skip
                    row = rows[r]
                    if team:  # the model reads the sides' targets and tricks (kernels.policies.team)
                        pooled = side_taken(taken)
                        take, leave = take_leave(kind, seat, hand, played, voids, side_targets(b, pooled), pooled,
                                                 leader, k, led, best, trump, plan)  # fmt: skip
                        row[C_DECLARING] = 1 if (b >> (8 * seat)) & DECLARING_BIT else 0
                        f = follow_features(seat, hand, played, voids, b, pooled, trump, leader, k, led, best,
                                            best_pos, take)  # fmt: skip
                        for j in range(len(f)):
                            row[C_FEATURES + j] = f[j]
                    else:
                        take, leave = take_leave(kind, seat, hand, played, voids, b, taken, leader, k, led, best,
                                                 trump, plan)  # fmt: skip
                        row[C_DECLARING] = 1 if short_of(b, taken, seat) > 0 else 0
                        g = features_400(seat, hand, played, voids, b, taken, trump, leader, k, led, best, best_pos,
                                         take)  # fmt: skip
                        for j in range(len(g)):
                            row[C_FEATURES + j] = g[j]
                    row[C_DECISION] = 16 * i + t
                    row[C_KIND] = kind
                    row[C_POSITION] = k
                    row[C_TOOK] = 1 if card == take else 0
                    for option in range(2):
                        forced[k] = take if option == 0 else leave
                        scratch[:] = hh
                        for q in range(k):
                            scratch[(leader + q) & 3] |= _ONE << U64(forced[q])  # the trick's cards back in hand
                        row[C_TAKE + option] = _points(team, scratch, before_played, before_voids, b, taken, leader,
                                                       trump, weights, forced, k + 1, values[i], net[i], declarer,
                                                       seat)  # fmt: skip
                    r += 1
                forced[k] = card
                hh[seat] &= ~(_ONE << U64(card))
                played |= _ONE << U64(card)
                led, best, best_pos, voids = _place(card, k, seat, led, best, best_pos, voids, trump)
            leader = (leader + best_pos) & 3
            taken += np.int64(1) << (8 * leader)
        counts[i] = r - i * ROWS_PER_DEAL
