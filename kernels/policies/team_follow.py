"""Take the trick or leave it: the second and third hands of a Tarneeb team contract choose by a
model fitted on rollouts (``t400 fit-follow --game tarneeb``, :mod:`analyzer.games.tarneeb.follow`)
where the plan's rule can go either way.

Two kinds of decision (:func:`follow_kind`), each with two options (:func:`take_leave`):

* **ruff or discard**: out of the suit led, holding a trump that wins the trick and a card of
  another suit. Take: the plan's ruff (the cheapest trump that no opponent still to play can be
  seen to overruff, else the lowest that wins); leave: the plan's discard.
* **win or duck**: holding the suit led, with a card that wins the trick and one that does not.
  Take: the plan's winner (the cheapest that no opponent still to play can beat, else the
  highest); leave: the lowest card of the suit.

The plan (:mod:`kernels.policies.standard`) ruffs whenever the side wants the trick, except that a
defender leaves it to partner, and plays second hand low, third hand high. Rollouts showed where
that is wrong: a ruff better kept (an overruff waits, partner would win the trick, the trump is
worth more later), a defender's discard that gives away a trick, a winner that should wait. No
fixed rule on a few public facts moved the wrong choices without moving more right ones (measured
in duplicate, docs/card-play.md), so the choice is a model: the value of taking minus leaving for
the mover's side, a quadratic in :data:`FOLLOW_FEATURES` (a constant, each feature, each product of
two), one set of weights for each kind, side (declaring, defending) and hand (second, third).
Positive: take; negative: leave; zero: the plan's card.

The weights are fitted by a step of policy iteration, as the later-lead model's: at each such
decision of live deals both options are played out by the player, and least squares fits the
difference of the two outcomes on the terms. Everything read here is public to the player: its
hand, the cards played, the voids shown, the contract and the tricks taken.
"""

import numpy as np

from kernels.config import jit
from kernels.core.cards import FULL_DECK, above, highest_bit, lane, lowest_bit, popcount
from kernels.core.tricks import winning_cards
from kernels.policies.common import beatable, needs, void_known, winner_to_play
from kernels.policies.standard import need_bits, plan_discard

U64 = np.uint64
hot = jit(forceinline=True)

#: What the model reads of a decision (each an int).
FOLLOW_FEATURES = (
    "trick number (0 .. 12)", "trumps held", "trumps unseen", "rank of the winning card (2 = 0 .. ace = 12)",
    "unseen cards above the winning card", "unseen cards of the suit led",
    "partner cannot follow (shown out, or none unseen)", "the next hand cannot follow",
    "the side's tricks", "tricks the side still needs for its target (0 once reached)",
    "rank of the card that takes", "partner's card is winning", "the trick is ruffed already",
    "cards held in the suit led", "unseen cards above the card that takes",
    "an opponent still to play may beat the winning card", "an opponent still to play may beat the card that takes",
)  # fmt: skip
N_FEATURES = len(FOLLOW_FEATURES)


def n_weights(n_features: int) -> int:
    """Weights of a row of the model on ``n_features`` features: the constant, the features,
    then the products ``f_i * f_j`` for i < j."""
    return 1 + n_features + n_features * (n_features - 1) // 2


#: Weights of one row: the constant, the features, then the products ``f_i * f_j`` for i < j.
N_WEIGHTS = n_weights(N_FEATURES)
#: The kinds of decision.
RUFF, FOLLOW = 0, 1
#: The hands that decide by the model: the second and third (the fourth plays by the plan).
HANDS = 2
#: The weights' rows (:func:`row`): for each kind, the declaring side's second and third hand,
#: then the defenders'.
N_ROWS = 4 * HANDS


@hot
def row(kind, declaring, n_played, hands=HANDS):
    """The weights row of a decision (``weights[row * N_WEIGHTS:]``) of a model of ``hands``
    hands (the second, third and perhaps fourth)."""
    return 2 * hands * kind + (0 if declaring else hands) + n_played - 1


@hot
def follow_kind(hand, n_played, led, best, trump, hands=HANDS):
    """:data:`RUFF` or :data:`FOLLOW` for a decision of a model of ``hands`` hands (the second,
    third and, with 3, fourth), -1 for none."""
    if n_played < 1 or n_played > hands:
        return -1
    led_cards = hand & lane(led)
    if led_cards:
        wins = winning_cards(led_cards, best, led, trump)
        return FOLLOW if wins != 0 and (led_cards & ~wins) != 0 else -1
    if trump > 3:
        return -1
    trumps = hand & lane(trump)
    return RUFF if (hand & ~trumps) != 0 and winning_cards(trumps, best, led, trump) != 0 else -1


@hot
def take_leave(kind, seat, hand, played, voids, targets, pooled, leader, n_played, led, best, trump, plan):
    """(take, leave) of a decision of ``kind``: the plan's own card for the option it chose, and
    the other as the module's docstring says. ``targets`` and ``pooled``: the sides' targets and
    tricks (:mod:`kernels.policies.team`)."""
    unseen = FULL_DECK & ~(hand | played)
    if kind == RUFF:
        if plan >> 4 == trump:
            return plan, plan_discard(hand, trump, unseen, needs(need_bits(targets, pooled), seat))
        wins = winning_cards(hand & lane(trump), best, led, trump)
        return winner_to_play(wins, U64(0), led, trump, seat, leader, n_played, unseen, voids), plan
    led_cards = hand & lane(led)
    wins = winning_cards(led_cards, best, led, trump)
    if (wins >> U64(plan)) & U64(1):
        return plan, lowest_bit(led_cards)
    take = winner_to_play(wins, led_cards, led, trump, seat, leader, n_played, unseen, voids)
    return (take if take >= 0 else highest_bit(wins)), plan


@hot
def follow_features(seat, hand, played, voids, bids, pooled, trump, leader, n_played, led, best, best_pos, take):
    """The decision's :data:`FOLLOW_FEATURES`: a tuple of ints. ``bids``: the team bid bytes
    (the side's target in bits 0..3), ``pooled``: the sides' tricks, 8 bits a seat."""
    unseen = FULL_DECK & ~(hand | played)
    tricks = (pooled >> (8 * seat)) & 255
    target = (bids >> (8 * seat)) & 15
    return (
        popcount(played) // 4,
        popcount(hand & lane(trump)),
        popcount(unseen & lane(trump)),
        best & 15,
        popcount(unseen & above(best)),
        popcount(unseen & lane(led)),
        1 if void_known(voids, seat ^ 2, led, unseen) else 0,
        1 if void_known(voids, (seat + 1) & 3, led, unseen) else 0,
        tricks,
        max(0, target - tricks),
        take & 15,
        1 if ((leader + best_pos) & 3) == (seat ^ 2) else 0,
        1 if (best >> 4) == trump and led != trump else 0,
        popcount(hand & lane(led)),
        popcount(unseen & above(take)),
        1 if beatable(best, led, trump, seat, leader, n_played, unseen, voids) else 0,
        1 if beatable(take, led, trump, seat, leader, n_played, unseen, voids) else 0,
    )


@hot
def follow_score(f, weights, offset):
    """The model's value of taking minus leaving (thousandths of a point): ``weights[offset]``
    plus each feature times its weight plus each product ``f_i * f_j`` (i < j) times its weight
    (any number of features: 400's model reads more, :mod:`kernels.policies.standard_follow`),
    summed as ``f_i * (w_i + sum_j w_ij f_j)`` so that a feature at 0 skips its products."""
    n = len(f)
    total = weights[offset]
    k = offset + 1 + n
    for i in range(n):
        fi = f[i]
        if fi == 0:
            k += n - 1 - i
            continue
        acc = weights[offset + 1 + i]
        for j in range(i + 1, n):
            acc += weights[k] * f[j]
            k += 1
        total += fi * acc
    return total


def _written_out(n: int) -> str:
    """The source of :func:`follow_score` for ``n`` features with every index a constant: each
    term written out, the same integers summed."""
    lines = ["def score(f, w, o):", "    total = w[o]"]
    k = 1 + n
    for i in range(n):
        parts = [f"w[o + {1 + i}]"]
        for j in range(i + 1, n):
            parts.append(f"w[o + {k}] * f[{j}]")
            k += 1
        lines.append(f"    total += f[{i}] * ({' + '.join(parts)})")
    lines.append("    return total")
    return "\n".join(lines)


def score_for(n: int):
    """:func:`follow_score` for a tuple of ``n`` features, written out term by term: numba reads a
    tuple at an index known only at run time through a branch for each element, which made the
    loop most of the policy's time. Inlined where it is called, so never cached on its own (its
    source is generated, not a file's)."""
    space: dict = {}
    exec(_written_out(n), space)  # noqa: S102 - our own generated text
    return jit(forceinline=True, cache=False)(space["score"])


_SCORE = score_for(N_FEATURES)


@hot
def take_or_leave(kind, seat, hand, played, voids, bids, pooled, targets, leader, n_played, led, best, best_pos,
                  trump, plan, weights, declaring):  # fmt: skip
    """The card of a decision of ``kind`` (:func:`follow_kind`) by the model with ``weights``
    (int64[N_ROWS * N_WEIGHTS])."""
    take, leave = take_leave(kind, seat, hand, played, voids, targets, pooled, leader, n_played, led, best, trump,
                             plan)  # fmt: skip
    f = follow_features(seat, hand, played, voids, bids, pooled, trump, leader, n_played, led, best, best_pos, take)
    score = _SCORE(f, weights, row(kind, declaring, n_played) * N_WEIGHTS)
    if score > 0:
        return take
    if score < 0:
        return leave
    return plan
