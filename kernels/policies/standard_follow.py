"""Take the trick or leave it, in 400: ``standard``'s second, third and fourth hands choose by a
model fitted on rollouts (``t400 fit-follow --game 400``, :mod:`analyzer.games.t400.follow`) where
the plan's rule can go either way: Tarneeb's model (:mod:`kernels.policies.team_follow`) on 400's
bids, each player's own, with the fourth hand too (it may ruff or overtake partner's trick, or
leave an opponent's: with separate bids either can be right).

The decisions and their two options are Tarneeb's (ruff or discard, win or duck:
:func:`~kernels.policies.team_follow.follow_kind` and
:func:`~kernels.policies.team_follow.take_leave` with each seat's bid and tricks). The features
are Tarneeb's with the mover's own bid and tricks for the side's (its tricks, what it still needs)
and seven more (:data:`FOLLOW_FEATURES`), since in 400 each player scores its own bid: what
partner, the opponents, the player winning the trick and the next hand still need, the mover's
bid and partner's (a bid of 6+ scores double), and the mover's sure tricks. Each added feature
scored more in duplicate against ``standard`` without the model (docs/card-play.md). A row of
weights for each kind, whether the mover still needs tricks for its bid, and hand (second, third,
fourth). ``standard1`` keeps the plan's choice. Everything read is public to the player.
"""

import numpy as np

from kernels.config import FLAT, jit
from kernels.core.cards import FULL_DECK
from kernels.policies import standard_follow_weights
from kernels.policies.standard import short_of, standard_card, sure_tricks
from kernels.policies.team_follow import FOLLOW_FEATURES as TEAM_FEATURES
from kernels.policies.team_follow import follow_features as team_features
from kernels.policies.team_follow import follow_kind, n_weights, row, score_for, take_leave

#: The hands that decide by the model: the second, third and fourth.
HANDS = 3

hot = jit(forceinline=True)

#: What the model reads of a decision: Tarneeb's (the side's figures being the mover's own), then
#: 400's.
FOLLOW_FEATURES = TEAM_FEATURES + (
    "tricks partner still needs for its bid", "tricks the opponents still need for their bids", "the mover's bid",
    "tricks the player winning the trick still needs", "tricks the next hand still needs",
    "sure tricks held (masters from the top of each suit)", "partner's bid",
)  # fmt: skip
N_FEATURES = len(FOLLOW_FEATURES)
#: Weights of one row: the constant, the features, then the products ``f_i * f_j`` for i < j.
N_WEIGHTS = n_weights(N_FEATURES)
#: For each kind, the rows of a mover still short of its bid (second, third, fourth hand), then
#: of one whose bid is made (:func:`kernels.policies.team_follow.row` with ``declaring`` = short).
N_ROWS = 4 * HANDS
_SCORE = score_for(N_FEATURES)  # the model's sum, written out term by term
#: The shipped weights (``t400 fit-follow --game 400``).
FOLLOW_WEIGHTS = np.ascontiguousarray(standard_follow_weights.WEIGHTS, dtype=np.int64)


@hot
def follow_features(seat, hand, played, voids, bids, taken, trump, leader, n_played, led, best, best_pos, take):
    """The decision's :data:`FOLLOW_FEATURES` (a tuple of ints); ``bids`` and ``taken``: 8 bits a
    seat."""
    f = team_features(seat, hand, played, voids, bids, taken, trump, leader, n_played, led, best, best_pos, take)
    opponents = short_of(bids, taken, seat ^ 1) + short_of(bids, taken, seat ^ 3)
    winner = short_of(bids, taken, (leader + best_pos) & 3)
    unseen = FULL_DECK & ~(hand | played)
    return f + (short_of(bids, taken, seat ^ 2), opponents, (bids >> (8 * seat)) & 255, winner,
                short_of(bids, taken, (seat + 1) & 3), sure_tricks(hand, unseen), (bids >> (8 * (seat ^ 2))) & 255)  # fmt: skip


@hot
def take_or_leave(kind, seat, hand, played, voids, bids, taken, leader, n_played, led, best, best_pos, trump, plan,
                  weights):  # fmt: skip
    """The card of a decision of ``kind`` by the model with ``weights`` (int64[N_ROWS *
    N_WEIGHTS])."""
    take, leave = take_leave(kind, seat, hand, played, voids, bids, taken, leader, n_played, led, best, trump, plan)
    f = follow_features(seat, hand, played, voids, bids, taken, trump, leader, n_played, led, best, best_pos, take)
    short = short_of(bids, taken, seat) > 0
    score = _SCORE(f, weights, row(kind, short, n_played, HANDS) * N_WEIGHTS)
    if score > 0:
        return take
    if score < 0:
        return leave
    return plan


@FLAT
def standard_follow_card(seat, hand, played, voids, bids, taken, leader, n_played, led, best, best_pos, trump,
                         plan_only=False, follows=None):  # fmt: skip
    """400's ``standard`` card (``plan_only``: ``standard1``'s, the plan's leads and choices):
    :func:`kernels.policies.standard.standard_card`, its second to fourth hands' take-or-leave
    decisions by the model with ``follows`` (None: the shipped :data:`FOLLOW_WEIGHTS`; empty: the
    plan's choice; other weights: the model's data's)."""
    card = standard_card(seat, hand, played, voids, bids, taken, leader, n_played, led, best, best_pos, trump,
                         True, False, plan_only)  # fmt: skip
    if plan_only:
        return card
    kind = follow_kind(hand, n_played, led, best, trump, HANDS)
    if kind < 0:
        return card
    if follows is None:  # pruned while compiling: one of the two calls is typed
        return take_or_leave(kind, seat, hand, played, voids, bids, taken, leader, n_played, led, best, best_pos,
                             trump, card, FOLLOW_WEIGHTS)  # fmt: skip
    if len(follows) == 0:
        return card
    return take_or_leave(kind, seat, hand, played, voids, bids, taken, leader, n_played, led, best, best_pos, trump,
                         card, follows)  # fmt: skip
