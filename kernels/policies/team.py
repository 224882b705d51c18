"""The ``team`` policy: partnership contracts (classic and Egyptian Tarneeb), where the two
partners' tricks are pooled against one target per side.

The trick loop hands every policy each seat's "bid" and tricks taken (8 bits a seat, see
:mod:`kernels.policies.play`). For a team contract the bid byte of a seat holds

* bits 0..3: the tricks its side is playing for: the contract for the declarer and partner,
  ``14 - contract`` (the tricks that set it) for the defenders;
* bit 4 (:data:`TRUMP_LEAD_BIT`, the declarer's byte only): the opening lead must be a trump;
* bit 5 (:data:`DECLARING_BIT`): the seat's side declares.

The policy pools each side's tricks and then plays the ``standard`` plan with the side's target
as each partner's bid (13 once reached: every further trick still scores in Tarneeb) and the
side's tricks as each partner's count: partners both need tricks
or are both done, so ``standard``'s partnership rules (second hand leaves partner's trick to
partner, a safe winner of partner's is never overtaken) apply as written, and its count (sure
tricks against tricks still needed) plans for the side's target.

The defenders play as defenders (``standard``'s ``defending``): the declaring side chose the trump
and holds most of them, so a defender keeps its trumps as stoppers and ruffs (it draws trumps only
to draw them all, keeps its master trump on a trump lead, and second hand leaves a trick it could
ruff to partner). Measured in duplicate against the first round's player, which played the
declarers' plan on both sides and is kept as ``team1`` (benchmarks/tarneeb_play_vs_dd.py
``--against team1``); the same rules for the declarers lost points there, so they keep the plan.

The declarer opens by the table of lead kinds (``standard``'s opening lead for a contract without
the fitted model) and not, as 400's big bids do, with a trump whenever it holds five: it scores
more in duplicate against the trump opening, and its opening leads cost fewer double-dummy tricks
(measured in docs/tarneeb.md). ``team1`` keeps the trump opening.

Both sides' leads after the first are the plan's corrected by the model fitted on rollouts of
Tarneeb's contracts (:mod:`kernels.policies.later_lead`, ``t400 fit-later-lead --game tarneeb``);
``team1`` keeps the plan's leads.

Both sides' second and third hands, where they can take the trick or leave it (ruff or discard,
win or duck), choose by a model fitted on rollouts (:mod:`kernels.policies.team_follow`, ``t400
fit-follow --game tarneeb``); ``team1`` keeps the plan's choice.
"""

import numpy as np

from kernels.config import FLAT, jit
from kernels.core.cards import highest_bit, lane, lowest_bit
from kernels.policies import team_follow_weights
from kernels.policies.standard import standard_card
from kernels.policies.team_follow import follow_kind, take_or_leave

U64 = np.uint64
hot = jit(forceinline=True)

TARGET_MASK = 15
TRUMP_LEAD_BIT = 16
DECLARING_BIT = 32
#: The shipped take-or-leave weights (:mod:`kernels.policies.team_follow`), ``team``'s.
FOLLOW_WEIGHTS = np.ascontiguousarray(team_follow_weights.WEIGHTS, dtype=np.int64)


@hot
def side_targets(bids, pooled):
    """Each seat's side target, 8 bits a seat: the target from its bid byte until the side has
    reached it, then 13 (in Tarneeb every further trick still scores: the declarer's tricks
    once made, the defenders' once the contract is set)."""
    out = 0
    for s in range(4):
        target = (bids >> (8 * s)) & TARGET_MASK
        if ((pooled >> (8 * s)) & 255) >= target:
            target = 13
        out |= target << (8 * s)
    return out


@hot
def side_taken(taken):
    """Each seat's side's tricks, 8 bits a seat (seats 0 and 2 pooled, 1 and 3 pooled)."""
    odd = (taken & 255) + ((taken >> 16) & 255)
    even = ((taken >> 8) & 255) + ((taken >> 24) & 255)
    return odd | (even << 8) | (odd << 16) | (even << 24)


@FLAT
def team_card(
    seat, hand, played, voids, bids, taken, leader, n_played, led, best, best_pos, trump, defence=True,
    leads=True, follows=None,
):
    """The card ``seat`` plays in a team contract, from what that seat can know. ``defence``:
    the defenders play as defenders (False: ``team1``, the declarers' plan on both sides);
    ``leads``: the leads after the first are corrected by the model fitted on Tarneeb's contracts
    (:mod:`kernels.policies.later_lead`; False: the plan's leads, ``team1`` and the model's data).
    With ``defence`` the declarer also opens by the table of lead kinds, not with a trump.
    With ``defence`` the second and third hands choose between taking the trick and leaving it by
    the model of :mod:`kernels.policies.team_follow` with ``follows``: None, the shipped
    :data:`FOLLOW_WEIGHTS`, except with ``leads`` False (the plan, which the later-lead model's
    data plays), the plan's choice; empty, the plan's choice; other weights, the model's data's."""
    if n_played == 0 and played == 0 and trump < 4 and (bids >> (8 * seat)) & TRUMP_LEAD_BIT:
        trumps = hand & lane(trump)
        if trumps:
            top = highest_bit(trumps)
            # the ace is the one trump sure to hold the trick at trick 1
            return top if (top & 15) == 12 else lowest_bit(trumps)
    defending = defence and not (bids >> (8 * seat)) & DECLARING_BIT
    pooled = side_taken(taken)
    targets = side_targets(bids, pooled)
    card = standard_card(
        seat, hand, played, voids, targets, pooled, leader, n_played, led, best, best_pos, trump, False,
        defending, False, leads, not defence,
    )  # fmt: skip
    if not defence or (follows is None and not leads):  # team1, and the plan without its models
        return card
    kind = follow_kind(hand, n_played, led, best, trump)
    if kind < 0:
        return card
    declaring = (bids >> (8 * seat)) & DECLARING_BIT != 0
    if follows is None:  # pruned while compiling: one of the two calls is typed
        return take_or_leave(kind, seat, hand, played, voids, bids, pooled, targets, leader, n_played, led, best,
                             best_pos, trump, card, FOLLOW_WEIGHTS, declaring)  # fmt: skip
    if len(follows) == 0:
        return card
    return take_or_leave(kind, seat, hand, played, voids, bids, pooled, targets, leader, n_played, led, best,
                         best_pos, trump, card, follows, declaring)  # fmt: skip
