"""Later leads: the plan's lead (:mod:`kernels.policies.standard`) corrected by a model fitted on
rollouts (``t400 fit-later-lead``), one set of weights a game: 400's players
(:mod:`kernels.policies.later_lead_weights`) and classic Tarneeb's partnerships in a contract
(:mod:`kernels.policies.team_lead_weights`, where "bids" and "tricks" are the sides' targets and
tricks, see :mod:`kernels.policies.team`).

At every lead after the opening one, each card the leader holds gets a score: a sum over its
*card features* (whether it is the plan's own card, a trump, a master, the top of a sequence that
knocks out the one honour above it, the lowest of its suit, a suit an opponent is known to ruff,
a suit partner ruffs, ...; :data:`CARD_FEATURES`) of the feature times a weight that depends on
the *context* (who still needs tricks, how many the leader, partner, the opponents and all four are
short, whose bid is big, the trumps held and still out, the sure tricks, the trick number;
:data:`CONTEXTS`): ``score = sum_i b_i * sum_j W[i, j] * x_j``. The contexts of what partner and
the opponents still need and whose bid is big are there because in 400 each player scores its
own bid (they gained in duplicate, docs/card-play.md). The highest score is led; the plan's card
wins ties. The weights are integers (generated) so that the kernel and its twin in the tests add
the same numbers.

The weights are fitted by one step of policy iteration (fitted Q evaluation): on live deals played
by the plan, every lead after the first is replayed with each card the leader holds, the rest of
the deal played by the plan, and the points the leader's side scores recorded (its bids made
minus failed, the other side's failed minus made, in 400; the contract's points in Tarneeb). A
least-squares fit of those points on the
features, within each decision, estimates what a card is worth from what the leader can know;
leading the best estimate is then a better policy than the plan against the same opponents (the
policy-improvement theorem, up to the fit's error). The shipped weights are a second step: the
deals played on by the plan corrected by the first step's model, so that the step improves that
player rather than the plan (``t400 fit-later-lead --iterations 2``). Everything read here is
public to the leader: its hand, the cards played, the voids shown, the bids and the tricks taken.
"""

import numpy as np

from kernels.config import jit
from kernels.core.cards import FULL_DECK, above, highest_bit, lane, lowest_bit, popcount
from kernels.policies.common import masters_from_top, void_known

U64 = np.uint64
_ONE = U64(1)
hot = jit(forceinline=True)

#: What a card is, as a lead (each an int, most 0 or 1; "side": not a trump).
CARD_FEATURES = (
    "the plan's card", "trump", "side master", "trump master", "knock-out top of a sequence",
    "lowest of a side suit", "lowest trump", "top of its suit, not a master", "side suit's length",
    "side suit's unseen cards", "an opponent ruffs the suit", "partner ruffs the suit",
    "a side suit with a master", "rank (2 = 0 .. ace = 12)", "unseen cards above it",
    "side singleton", "side doubleton", "low from a suit without a master under an honour",
)  # fmt: skip
#: The situation of the lead (each an int).
CONTEXTS = (
    "one", "leader needs tricks", "partner needs tricks", "an opponent needs tricks",
    "tricks the leader is short (at most 6)", "tricks partner is short (at most 6)",
    "trumps held", "trumps unseen", "sure tricks cover the bid", "trick number (0 .. 12)",
    "leader bid 6 or more", "tricks the opponents are short (at most 6 each)", "partner bid 6 or more",
    "an opponent short of a bid of 6 or more", "tricks the four are short (at most 6 each)",
    "sure tricks (at most 6)",
)  # fmt: skip
N_CARD = len(CARD_FEATURES)
N_CONTEXT = len(CONTEXTS)
#: The fit's data (the games' ``lead_values`` kernels), a row per card that may be led: rows a
#: deal can give (leads of tricks 2..12, a row per card held), and the columns: the decision
#: (``16 * deal + trick``), the card, whether it is the plan's (0/1), the points of the
#: leader's side, then the card features and the contexts.
ROWS_PER_DEAL = 11 * 13
C_DECISION, C_CARD, C_PLAN, C_POINTS, C_FEATURES = 0, 1, 2, 3, 4
C_CONTEXTS = C_FEATURES + N_CARD
N_COLUMNS = C_CONTEXTS + N_CONTEXT


@hot
def lead_contexts(seat, hand, played, bids, taken, trump):
    """The context of a lead by ``seat`` (bids/taken: 8 bits a seat): a tuple of N_CONTEXT ints."""
    unseen = FULL_DECK & ~(hand | played)
    mine = max(0, ((bids >> (8 * seat)) & 255) - ((taken >> (8 * seat)) & 255))
    partner = max(0, ((bids >> (8 * (seat ^ 2))) & 255) - ((taken >> (8 * (seat ^ 2))) & 255))
    opponent = 0
    opponents_short = 0
    big_opponent = 0
    for q in (seat ^ 1, seat ^ 3):
        short = max(0, ((bids >> (8 * q)) & 255) - ((taken >> (8 * q)) & 255))
        if short > 0:
            opponent = 1
            if ((bids >> (8 * q)) & 255) >= 6:
                big_opponent = 1
        opponents_short += min(short, 6)
    sure = 0
    for s in range(4):
        cs = hand & lane(s)
        if cs:
            sure += masters_from_top(cs, unseen)
    return (
        1,
        1 if mine > 0 else 0,
        1 if partner > 0 else 0,
        opponent,
        min(mine, 6),
        min(partner, 6),
        popcount(hand & lane(trump)),
        popcount(unseen & lane(trump)),
        1 if sure >= mine else 0,
        popcount(played) // 4,
        1 if ((bids >> (8 * seat)) & 255) >= 6 else 0,
        opponents_short,
        1 if ((bids >> (8 * (seat ^ 2))) & 255) >= 6 else 0,
        big_opponent,
        min(mine, 6) + min(partner, 6) + opponents_short,
        min(sure, 6),
    )


@hot
def card_features(seat, hand, played, voids, trump, card, plan):
    """What leading ``card`` is (see :data:`CARD_FEATURES`): a tuple of N_CARD ints."""
    unseen = FULL_DECK & ~(hand | played)
    s = card >> 4
    cs = hand & lane(s)
    tr = 1 if s == trump else 0
    side = 1 - tr
    master = 0 if unseen & above(card) else 1
    top = highest_bit(cs)
    length = popcount(cs)
    knock = 0
    if side and length >= 2 and card == top and popcount(unseen & above(top)) == 1:
        nxt = highest_bit(cs & ~(_ONE << U64(top)))
        knock = 0 if unseen & above(nxt) & ~above(top) else 1
    lowest = 1 if card == lowest_bit(cs) else 0
    unseen_trumps = unseen & lane(trump)
    ruff = 0
    partner_ruffs = 0
    if side and unseen_trumps:
        for q in (seat ^ 1, seat ^ 3):
            if void_known(voids, q, s, unseen) and not void_known(voids, q, trump, unseen):
                ruff = 1
        q = seat ^ 2
        if void_known(voids, q, s, unseen) and not void_known(voids, q, trump, unseen):
            partner_ruffs = 1
    masters = masters_from_top(cs, unseen)
    rank = card & 15
    n_above = popcount(unseen & above(card))
    return (
        1 if card == plan else 0,
        tr,
        master * side,
        master * tr,
        knock,
        lowest * side,
        lowest * tr,
        (1 if card == top else 0) * (1 - master),
        length * side,
        popcount(unseen & lane(s)) * side,
        ruff,
        partner_ruffs,
        (1 if masters > 0 else 0) * side,
        rank,
        n_above,
        (1 if length == 1 else 0) * side,
        (1 if length == 2 else 0) * side,
        1 if (rank < 9 and n_above > 0 and masters == 0 and length >= 2) else 0,
    )


@hot
def same_as_higher(hand, played, card):
    """Whether ``hand`` holds a higher card of ``card``'s suit with no unseen card between: the two
    win the same tricks (the fit's data values only the higher, so that each lead counts once)."""
    higher = hand & above(card) & lane(card >> 4)
    if not higher:
        return False
    nxt = lowest_bit(higher)
    return (above(card) & ~above(nxt) & ~(_ONE << U64(nxt)) & ~(hand | played)) == 0


@hot
def lead_score(b, x, weights):
    """``sum_i b[i] * sum_j weights[i * N_CONTEXT + j] * x[j]``: the model's score (an int)."""
    total = 0
    for i in range(N_CARD):
        if b[i] != 0:
            row = 0
            for j in range(N_CONTEXT):
                row += weights[i * N_CONTEXT + j] * x[j]
            total += b[i] * row
    return total


def by_context(weights: np.ndarray) -> np.ndarray:
    """A game's weights (``WEIGHTS[i * N_CONTEXT + j]``, integers) in the layout
    :func:`later_lead` reads: a context's column contiguous, in floats, so that the products of a
    context vectorise. Integers this small add exactly in floats: the scores, their ties and the
    card led are those of the integers."""
    w = np.asarray(weights, dtype=np.int64).reshape(N_CARD, N_CONTEXT)
    if np.abs(w).max() >= 1 << 40:
        raise ValueError("later-lead weights too large to add exactly in floats")
    return np.ascontiguousarray(w.T, dtype=np.float64).ravel()


@hot
def later_lead(seat, hand, played, voids, bids, taken, trump, plan, weights):
    """The card to lead: the best-scoring card of ``hand`` by a game's weights (``weights``: in
    :func:`by_context`'s layout), ``plan`` (the plan's lead) on ties, and the first card in card
    order among the others.

    The same numbers as :func:`card_features` and :func:`lead_score`, added in another order:
    the context's weighted sums once for the decision, a suit's features (length, unseen cards,
    who ruffs it, its masters, its knock-out top) once for the suit, and only what differs
    between the cards of a suit (rank, the unseen cards above, master, top, lowest) per card."""
    x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15 = lead_contexts(
        seat, hand, played, bids, taken, trump
    )
    r = np.empty(N_CARD)  # each card feature's weight in this context
    for i in range(N_CARD):
        r[i] = (weights[i] * x0 + weights[N_CARD + i] * x1 + weights[2 * N_CARD + i] * x2
                + weights[3 * N_CARD + i] * x3 + weights[4 * N_CARD + i] * x4 + weights[5 * N_CARD + i] * x5
                + weights[6 * N_CARD + i] * x6 + weights[7 * N_CARD + i] * x7 + weights[8 * N_CARD + i] * x8
                + weights[9 * N_CARD + i] * x9 + weights[10 * N_CARD + i] * x10 + weights[11 * N_CARD + i] * x11
                + weights[12 * N_CARD + i] * x12 + weights[13 * N_CARD + i] * x13 + weights[14 * N_CARD + i] * x14
                + weights[15 * N_CARD + i] * x15)  # fmt: skip
    unseen = FULL_DECK & ~(hand | played)
    unseen_trumps = unseen & lane(trump)
    plan_score = 0.0
    best = -1
    best_score = 0.0
    for s in range(4):
        cs = hand & lane(s)
        if not cs:
            continue
        tr = 1 if s == trump else 0
        side = 1 - tr
        top = highest_bit(cs)
        low = lowest_bit(cs)
        length = popcount(cs)
        masters = masters_from_top(cs, unseen)
        knock = 0
        if side and length >= 2 and popcount(unseen & above(top)) == 1:
            nxt = highest_bit(cs & ~(_ONE << U64(top)))
            knock = 0 if unseen & above(nxt) & ~above(top) else 1
        ruff = 0
        partner_ruffs = 0
        if side and unseen_trumps:
            for q in (seat ^ 1, seat ^ 3):
                if void_known(voids, q, s, unseen) and not void_known(voids, q, trump, unseen):
                    ruff = 1
            q = seat ^ 2
            if void_known(voids, q, s, unseen) and not void_known(voids, q, trump, unseen):
                partner_ruffs = 1
        suit = tr * r[1] + ruff * r[10] + partner_ruffs * r[11]
        if side:
            suit += length * r[8] + popcount(unseen & lane(s)) * r[9]
            suit += (1 if masters > 0 else 0) * r[12]
            suit += (1 if length == 1 else 0) * r[15] + (1 if length == 2 else 0) * r[16]
        lowest = side * r[5] + tr * r[6]
        master_bonus = side * r[2] + tr * r[3]
        top_bonus = knock * r[4]
        under = r[17] if masters == 0 and length >= 2 else 0.0
        r13 = r[13]
        r14 = r[14]
        r7 = r[7]
        rest = cs
        while rest:
            c = lowest_bit(rest)
            rest &= rest - _ONE
            rank = c & 15
            n_above = popcount(unseen & above(c))
            score = suit + rank * r13 + n_above * r14
            score += master_bonus if n_above == 0 else (under if rank < 9 else 0.0)
            score += (top_bonus + (r7 if n_above else 0.0)) if c == top else 0.0
            score += lowest if c == low else 0.0
            if c == plan:
                plan_score = score + r[0]
            elif best < 0 or score > best_score:
                best = c
                best_score = score
    if best < 0 or plan_score >= best_score:
        return plan
    return best

