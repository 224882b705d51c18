"""The data of ``t400 fit-follow --game tarneeb``: every take-or-leave decision of played team
contracts (:func:`kernels.policies.team_follow.follow_kind`), each option played out.

The deals are played by ``team`` with given take-or-leave weights (none: the plan's choice; a
previous fit's: the next step of policy iteration). At each decision both options
(:func:`kernels.policies.team_follow.take_leave`) are played and the deal finished by the same
player at all four seats; a row records the contract's points for the mover's side after each
(the declaring side scores ``net[its tricks]``, the defenders the opposite), whether the player
took, and the model's inputs. See :mod:`analyzer.games.tarneeb.follow` for the fit.
"""

import numpy as np
from numba import prange

from kernels.config import PJIT, jit
from kernels.core.cards import popcount
from kernels.core.tricks import power
from kernels.policies.team import DECLARING_BIT, side_taken, side_targets, team_card
from kernels.policies.team_follow import N_FEATURES, follow_features, follow_kind, take_leave

U64 = np.uint64
_ONE = U64(1)
hot = jit(forceinline=True)

#: Rows a deal can give (two decisions a trick at most), and the columns: the decision
#: (``16 * deal + trick``), its kind, the cards played to the trick before it (1 or 2), the
#: mover's side declares (0/1), the player took (0/1), the side's points after taking, after
#: leaving, then the features.
ROWS_PER_DEAL = 26
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
def _trick(hands, played, voids, bids, taken, leader, trump, weights, forced, n_forced):
    """Play one trick from ``leader`` by ``team`` with the take-or-leave ``weights``, the first
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
            card = team_card(seat, hands[seat], played, voids, bids, taken, leader, k, led, best, best_pos, trump,
                             True, True, weights)  # fmt: skip
        played |= _ONE << U64(card)
        hands[seat] &= ~(_ONE << U64(card))
        led, best, best_pos, voids = _place(card, k, seat, led, best, best_pos, voids, trump)
    leader = (leader + best_pos) & 3
    return played, voids, taken + (np.int64(1) << (8 * leader)), leader


@jit
def _points(scratch, played, voids, bids, taken, leader, trump, weights, forced, n_forced, net, declarer, seat):
    """The points of ``seat``'s side when the trick starts with ``forced``'s ``n_forced`` cards
    and ``team`` finishes the deal (``played`` and ``voids``: before the trick)."""
    p, v, t, ld = _trick(scratch, played, voids, bids, taken, leader, trump, weights, forced, n_forced)
    while popcount(scratch[0]) + popcount(scratch[1]) + popcount(scratch[2]) + popcount(scratch[3]):
        p, v, t, ld = _trick(scratch, p, v, bids, t, ld, trump, weights, forced, 0)
    tricks = ((t >> (8 * declarer)) & 255) + ((t >> (8 * (declarer ^ 2))) & 255)
    return net[tricks] if (seat & 1) == (declarer & 1) else -net[tricks]


@PJIT
def follow_values(hands, bids, leaders, trumps, net, weights, rows, counts):
    """Fill ``rows`` (int64[n * ROWS_PER_DEAL, N_COLUMNS]; deal ``i`` from row
    ``i * ROWS_PER_DEAL``, ``counts[i]`` rows) for the contracts ``hands`` (uint64[n, 4]):
    ``bids`` int64[n] (:func:`kernels.tarneeb.hand.team_bids`), ``leaders`` int64[n] (the
    declarer, who leads), ``trumps`` int64[n], ``net`` int64[n, 14] (the declaring side's points
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
                card = team_card(seat, hand, played, voids, b, taken, leader, k, led, best, best_pos, trump, True,
                                 True, weights)  # fmt: skip
                kind = follow_kind(hand, k, led, best, trump)
                if kind >= 0:
                    pooled = side_taken(taken)
                    targets = side_targets(b, pooled)
                    plan = team_card(seat, hand, played, voids, b, taken, leader, k, led, best, best_pos, trump, True,
                                     True, weights[:0])  # fmt: skip
                    take, leave = take_leave(kind, seat, hand, played, voids, targets, pooled, leader, k, led, best,
                                             trump, plan)  # fmt: skip
                    row = rows[r]
                    row[C_DECISION] = 16 * i + t
                    row[C_KIND] = kind
                    row[C_POSITION] = k
                    row[C_DECLARING] = 1 if (b >> (8 * seat)) & DECLARING_BIT else 0
                    row[C_TOOK] = 1 if card == take else 0
                    for option in range(2):
                        forced[k] = take if option == 0 else leave
                        scratch[:] = hh
                        for q in range(k):
                            scratch[(leader + q) & 3] |= _ONE << U64(forced[q])  # the trick's cards back in hand
                        row[C_TAKE + option] = _points(scratch, before_played, before_voids, b, taken, leader, trump,
                                                       weights, forced, k + 1, net[i], declarer, seat)  # fmt: skip
                    f = follow_features(seat, hand, played, voids, b, pooled, trump, leader, k, led, best, best_pos,
                                        take)  # fmt: skip
                    for j in range(N_FEATURES):
                        row[C_FEATURES + j] = f[j]
                    r += 1
                forced[k] = card
                hh[seat] &= ~(_ONE << U64(card))
                played |= _ONE << U64(card)
                led, best, best_pos, voids = _place(card, k, seat, led, best, best_pos, voids, trump)
            leader = (leader + best_pos) & 3
            taken += np.int64(1) << (8 * leader)
        counts[i] = r - i * ROWS_PER_DEAL
