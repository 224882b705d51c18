"""The data of ``t400 fit-later-lead``: every lead after the first of played deals, replayed with
each card the leader holds and valued in points by playing the deal out with the plan.

For each lead of tricks 2 to 12 and each distinct card (of two held cards with no unseen card
between them only the higher, each lead counting once): the points of the leader's side when the
card is led and the continuation plays the rest at all four seats, with the model's inputs
(:mod:`kernels.policies.later_lead`). The plan, which every decision's inputs name, is 400's
``standard1`` (``standard`` without the model), or for a team contract ``team`` with the plan's
leads; the continuation is the plan, or the plan with its later leads corrected by given weights
(a previous fit's: the next step of policy iteration), and with ``follows`` its second and third
hands taking the trick or leaving it by the game's shipped take-or-leave model (400's
:mod:`kernels.policies.standard_follow`, Tarneeb's :mod:`kernels.policies.team_follow`), as the
player whose leads the fit corrects plays them. Points: in 400 each seat scores
its bid's value if it takes at least its bid, minus it if not (``values``); in a team contract
the declaring side scores ``net[its tricks]`` and the other side the opposite. See
:mod:`analyzer.core.later_lead` for the fit.
"""

import numpy as np
from numba import prange

from kernels.config import PJIT, jit
from kernels.core.cards import lowest_bit, popcount
from kernels.core.tricks import power
from kernels.policies.later_lead import (
    C_CARD,
    C_CONTEXTS,
    C_DECISION,
    C_FEATURES,
    C_PLAN,
    C_POINTS,
    N_CARD,
    N_CONTEXT,
    ROWS_PER_DEAL,
    card_features,
    later_lead,
    lead_contexts,
    same_as_higher,
)
from kernels.policies.standard import OWN_PLAN_BID, short_of, standard_card
from kernels.policies.standard_follow import standard_follow_card
from kernels.policies.team import FOLLOW_WEIGHTS, side_taken, side_targets, team_card

U64 = np.uint64
_ONE = U64(1)


@jit
def _plan_card(team, seat, hand, played, voids, bids, taken, leader, k, led, best, best_pos, trump):
    if team:
        return team_card(seat, hand, played, voids, bids, taken, leader, k, led, best, best_pos, trump, True, False)
    return standard_card(seat, hand, played, voids, bids, taken, leader, k, led, best, best_pos, trump,
                         True, False, True)  # fmt: skip


@jit
def _continuation_card(team, follows, weights, seat, hand, played, voids, bids, taken, leader, k, led, best, best_pos,
                       trump):  # fmt: skip
    """The continuation's card: the plan's, its leads after the first trick corrected by the
    later-lead model with ``weights`` (in :func:`kernels.policies.later_lead.by_context`'s
    layout; none: the plan alone), as ``standard`` and ``team`` correct theirs; with ``follows``
    its second and third hands choose by the game's shipped take-or-leave model."""
    if k != 0 and follows:
        if team:
            return team_card(seat, hand, played, voids, bids, taken, leader, k, led, best, best_pos, trump, True,
                             False, FOLLOW_WEIGHTS)  # fmt: skip
        return standard_follow_card(seat, hand, played, voids, bids, taken, leader, k, led, best, best_pos, trump)
    plan = _plan_card(team, seat, hand, played, voids, bids, taken, leader, k, led, best, best_pos, trump)
    if k != 0 or played == 0 or len(weights) == 0:
        return plan
    if team:  # the model reads the sides' targets and tricks (kernels.policies.team)
        pooled = side_taken(taken)
        return later_lead(seat, hand, played, voids, side_targets(bids, pooled), pooled, trump, plan, weights)
    if ((bids >> (8 * seat)) & 255) >= OWN_PLAN_BID and short_of(bids, taken, seat):
        return plan
    return later_lead(seat, hand, played, voids, bids, taken, trump, plan, weights)


@jit
def _trick(team, follows, weights, hands, played, voids, bids, taken, leader, trump, first):
    """Play one trick from ``leader`` by the continuation (see :func:`_continuation_card`), the
    lead being ``first`` if >= 0; ``hands`` (uint64[4]) lose the cards. Returns (played, voids,
    taken, next leader)."""
    best = 0
    best_pos = 0
    best_power = 0
    led = 0
    for k in range(4):
        seat = (leader + k) & 3
        if k == 0 and first >= 0:
            card = first
        else:
            card = _continuation_card(team, follows, weights, seat, hands[seat], played, voids, bids, taken, leader, k,
                                      led, best, best_pos, trump)  # fmt: skip
        bit = _ONE << U64(card)
        played |= bit
        hands[seat] &= ~bit
        if k == 0:
            best = card
            led = card >> 4
            best_power = power(card, led, trump)
        else:
            voids |= np.int64((card >> 4) != led) << (4 * seat + led)
            p = power(card, led, trump)
            if p > best_power:
                best_power = p
                best = card
                best_pos = k
    leader = (leader + best_pos) & 3
    return played, voids, taken + (np.int64(1) << (8 * leader)), leader


@jit
def _side_points(team, bids, taken, values, net, declarer, seat):
    """Points of ``seat``'s side minus the other side's."""
    if team:
        tricks = ((taken >> (8 * declarer)) & 255) + ((taken >> (8 * (declarer ^ 2))) & 255)
        return net[tricks] if (seat & 1) == (declarer & 1) else -net[tricks]
    d = 0
    for s in range(4):
        p = values[s] if ((taken >> (8 * s)) & 255) >= ((bids >> (8 * s)) & 255) else -values[s]
        d += p if (s & 1) == (seat & 1) else -p
    return d


@PJIT
def lead_values(team, follows, hands, bids, leaders, trumps, values, net, weights, rows, counts):
    """Fill ``rows`` (int64[n * ROWS_PER_DEAL, N_COLUMNS], the columns of
    :mod:`kernels.policies.later_lead`; deal ``i`` from row ``i * ROWS_PER_DEAL``, ``counts[i]``
    rows) for the deals ``hands`` (uint64[n, 4]): ``bids`` int64[n] (8 bits a seat: 400's bids,
    or :func:`kernels.tarneeb.hand.team_bids`), ``leaders`` and ``trumps`` int64[n] (the opening
    leader: the declarer of a team contract), ``values`` int64[n, 4] (400: each bid's value),
    ``net`` int64[n, 14] (team: the declaring side's points by its tricks), ``weights`` float64
    (the continuation's later-lead weights, :func:`kernels.policies.later_lead.by_context`'s
    layout; empty: the plan plays on), ``follows``: the continuation's second and third hands
    choose by the game's take-or-leave model. The decision column is ``16 * i + trick``."""
    for i in prange(hands.shape[0]):
        hh = hands[i].copy()
        scratch = np.empty(4, dtype=np.uint64)
        b = bids[i]
        trump = trumps[i]
        declarer = leaders[i]
        played = U64(0)
        voids = np.int64(0)
        taken = np.int64(0)
        leader = leaders[i]
        r = i * ROWS_PER_DEAL
        for t in range(13):
            if 1 <= t <= 11:
                hand = hh[leader]
                plan = _plan_card(team, leader, hand, played, voids, b, taken, leader, 0, 0, 0, 0, trump)
                if team:  # the model reads the sides' targets and tricks (kernels.policies.team)
                    pooled = side_taken(taken)
                    x = lead_contexts(leader, hand, played, side_targets(b, pooled), pooled, trump)
                else:
                    x = lead_contexts(leader, hand, played, b, taken, trump)
                rest = hand
                while rest:
                    c = lowest_bit(rest)
                    rest &= rest - _ONE
                    if c != plan and same_as_higher(hand, played, c):
                        continue
                    scratch[:] = hh
                    p2, v2, t2, l2 = _trick(team, follows, weights, scratch, played, voids, b, taken, leader, trump, c)
                    while popcount(scratch[0]):
                        p2, v2, t2, l2 = _trick(team, follows, weights, scratch, p2, v2, b, t2, l2, trump, -1)
                    row = rows[r]
                    row[C_DECISION] = 16 * i + t
                    row[C_CARD] = c
                    row[C_PLAN] = 1 if c == plan else 0
                    row[C_POINTS] = _side_points(team, b, t2, values[i], net[i], declarer, leader)
                    f = card_features(leader, hand, played, voids, trump, c, plan)
                    for k in range(N_CARD):
                        row[C_FEATURES + k] = f[k]
                    for k in range(N_CONTEXT):
                        row[C_CONTEXTS + k] = x[k]
                    r += 1
            played, voids, taken, leader = _trick(team, follows, weights, hh, played, voids, b, taken, leader, trump, -1)
        counts[i] = r - i * ROWS_PER_DEAL
