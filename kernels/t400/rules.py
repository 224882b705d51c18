"""The rules of 400 as the kernels read them: one packed ``int64`` array and the Numba twins of
the rule functions in :mod:`analyzer.games.t400.rules`.

The array is made by ``Variant.kernel_rules()`` from a variant, never by hand; its layout is
the offsets below. Every function here has exactly one Python original and a parity test
(``tests/test_rules.py``) checks the two agree on every preset and switch. Rollout, match,
guide and bidder kernels call these functions; none of them re-states a rule.

* ``VALUES`` [2 x 14]: the value of bid ``b`` (0 and 1 unused) at an own score below
  ``VALUE_STEP`` (row 0) and at or above it (row 1);
* ``MIN_BIDS`` [4] and ``TABLE_MINS`` [4]: the own and table minimum by how many of the
  ``STEPS`` thresholds the own (highest) score has reached;
* ``STEPS`` [3]: the score thresholds (30, 40, 50); ``VALUE_STEP``: the own score where the
  value table changes (30);
* ``TARGET``; ``OUTRIGHT`` (1: a 13 wins or loses the match outright); ``TIE_BREAK``
  (0 leader then total, 1 total); ``REDEAL`` (0 same dealer, 1 next dealer);
* ``TRUMP`` (suit index) and ``LEADER`` (seat index leading the first trick).

Seats are indices 0..3 in bidding order; ``scores`` arrays are int64[4].
"""

import numpy as np

from kernels.config import jit

hot = jit(forceinline=True)

MAX_BID = 13
N_STEPS = 3

VALUES = 0
MIN_BIDS = VALUES + 2 * 14
TABLE_MINS = MIN_BIDS + N_STEPS + 1
STEPS = TABLE_MINS + N_STEPS + 1
VALUE_STEP = STEPS + N_STEPS
TARGET = VALUE_STEP + 1
OUTRIGHT = TARGET + 1
TIE_BREAK = OUTRIGHT + 1
REDEAL = TIE_BREAK + 1
TRUMP = REDEAL + 1
LEADER = TRUMP + 1
SIZE = LEADER + 1

TIE_LEADER_THEN_TOTAL = 0
TIE_TOTAL = 1
REDEAL_SAME = 0
REDEAL_NEXT = 1

# How a match ended (the reason returned with a winner).
END_TARGET = 0  # one partnership qualified
END_LEADER = 1  # both qualified: higher leading score
END_TOTAL = 2  # both qualified: higher combined score
END_OUTRIGHT = 3  # classic table: a 13 made or failed
END_CAP = 4  # the hand cap was hit first
END_NAMES = ("target", "tie-break: leading score", "tie-break: combined score", "outright 13", "cap")


def empty_rules():
    """An all-zero rules array of the right size (filled by ``Variant.kernel_rules()``)."""
    return np.zeros(SIZE, dtype=np.int64)


@hot
def score_step(rules, score):
    """How many of the ``STEPS`` thresholds (30/40/50) ``score`` has reached."""
    n = 0
    for k in range(N_STEPS):
        if score >= rules[STEPS + k]:
            n += 1
    return n


@hot
def value_row(rules, score):
    """Row of the value table at own score ``score``: 0 below ``VALUE_STEP``, else 1."""
    return 1 if score >= rules[VALUE_STEP] else 0


@hot
def bid_value(rules, bid, score):
    """Points won for making ``bid`` (lost for failing it) at own score ``score``."""
    return rules[VALUES + 14 * value_row(rules, score) + bid]


@hot
def min_bid(rules, score):
    """A player's minimum bid at their own score."""
    return rules[MIN_BIDS + score_step(rules, score)]


@hot
def table_minimum(rules, scores):
    """The least total of the four bids that keeps the hand alive, by the highest score."""
    top = max(max(scores[0], scores[1]), max(scores[2], scores[3]))
    return rules[TABLE_MINS + score_step(rules, top)]


@hot
def is_dead(rules, bids_total, scores):
    """Whether bids totalling ``bids_total`` fall short of the table minimum (hand thrown in)."""
    return bids_total < table_minimum(rules, scores)


@hot
def is_made(bid, tricks):
    """Whether a player who bid ``bid`` and took ``tricks`` made the bid."""
    return tricks >= bid


@hot
def score_change(rules, bid, tricks, score):
    """A player's score change: +value of the bid if made, -value if failed."""
    return points_for(rules, bid, is_made(bid, tricks), score)


@hot
def points_for(rules, bid, made, score):
    """A player's score change for a bid ``made`` or failed: +value of the bid, or -value."""
    v = bid_value(rules, bid, score)
    return v if made else -v


@hot
def is_outright(rules, bid):
    """Whether making or failing ``bid`` ends the match (the classic table's 13)."""
    return rules[OUTRIGHT] == 1 and bid == MAX_BID


@hot
def _qualifies(a, b, target):
    return max(a, b) >= target and min(a, b) > 0


@hot
def match_winner(rules, scores):
    """(winning partnership 0 (indices 0+2) or 1 (1+3), or -1; the ``END_`` reason or -1) on
    points after a round; ``scores`` int64[4], partners at ``i`` and ``i + 2``."""
    return winner_of(rules, scores[0], scores[1], scores[2], scores[3])


@hot
def winner_of(rules, s0, s1, s2, s3):
    """:func:`match_winner` for four scores given one by one (no array: hot loops)."""
    target = rules[TARGET]
    q0 = _qualifies(s0, s2, target)
    q1 = _qualifies(s1, s3, target)
    if q0 and not q1:
        return 0, END_TARGET
    if q1 and not q0:
        return 1, END_TARGET
    if not q0:
        return -1, -1
    if rules[TIE_BREAK] == TIE_LEADER_THEN_TOTAL:
        lead0 = max(s0, s2)
        lead1 = max(s1, s3)
        if lead0 != lead1:
            return (0 if lead0 > lead1 else 1), END_LEADER
    total0 = s0 + s2
    total1 = s1 + s3
    if total0 != total1:
        return (0 if total0 > total1 else 1), END_TOTAL
    return -1, -1


@hot
def redeal_advances(rules):
    """Whether the deal passes to the next dealer after a dead hand."""
    return rules[REDEAL] == REDEAL_NEXT
