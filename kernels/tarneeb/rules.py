"""The rules of classic and Egyptian Tarneeb as the kernels read them: one packed ``int64`` array
and the Numba twins of the rule functions in :mod:`analyzer.games.tarneeb.rules`.

The array is made by ``TarneebVariant.kernel_rules()``, never by hand; its layout is the offsets
below, and ``tests/test_tarneeb_kernels.py`` checks every twin against its Python original on
every preset and switch.

* ``AUCTION`` (0 number, 1 strain); ``TARGET``; ``ALL_PASS`` (0 the dealer must bid, 1 re-deal);
  ``PASSED_OUT``, ``ONE_BID_EACH``, ``NO_TRUMP``, ``TRUMP_LEAD``, ``WORTHLESS_REDEAL`` (0/1);
  ``FAILED_13`` (defenders against a failed 13: 0 their tricks, 1 double); ``MATCH_END`` (0 a
  tie over the target is a draw, 1 play on);
* ``KABOOT``, ``MADE_13``, ``FAILED_13_POINTS``: the special scores (16, 26, 16).

Calls are int64 codes: :data:`PASS`, :data:`DOUBLE`, and a bid ``8 * level + strain`` with the
strain's Egyptian rank (0 clubs .. 3 spades, 4 no-trump) or :data:`NO_STRAIN` in the number
auction, so a higher code is a higher Egyptian bid. The auction's state is an int64[``ST_SIZE``]
array. Seats are indices 0..3 (seat 1 speaks first); team 0 is seats 1+3.
"""

import numpy as np

from kernels.config import jit
from kernels.core.cards import LANE, SUIT_BITS, popcount

hot = jit(forceinline=True)

MIN_BID, MAX_BID, TRICKS = 7, 13, 13

AUCTION = 0
TARGET = 1
ALL_PASS = 2
PASSED_OUT = 3
ONE_BID_EACH = 4
NO_TRUMP = 5
TRUMP_LEAD = 6
WORTHLESS_REDEAL = 7
FAILED_13 = 8
MATCH_END = 9
KABOOT = 10
MADE_13 = 11
FAILED_13_POINTS = 12
SIZE = 13

AUCTION_NUMBER, AUCTION_STRAIN = 0, 1
ALL_PASS_FORCED, ALL_PASS_REDEAL = 0, 1
FAILED_13_TRICKS, FAILED_13_DOUBLE = 0, 1
MATCH_DRAW, MATCH_PLAY_ON = 0, 1

PASS = 0
DOUBLE = 1
NO_STRAIN = 5
N_STRAIN_RANKS = 5

# match_result codes
NO_RESULT = -1
TEAM_ODD = 0  # seats 1+3
TEAM_EVEN = 1  # seats 2+4
DRAW = 2

# the auction's state
ST_CALLS = 0  # calls made
ST_LAST = 1  # seat index of the last call (-1 before the first)
ST_PASSED = 2  # bit s: seat s has passed
ST_HIGH = 3  # the standing bid's code (PASS: none yet)
ST_HIGH_SEAT = 4
ST_DOUBLED = 5
ST_PASSES_SINCE = 6  # passes since the last bid or double
ST_OVER = 7
ST_REDEAL = 8
ST_SIZE = 9


def empty_rules():
    return np.zeros(SIZE, dtype=np.int64)


@hot
def bid_code(level, strain_rank):
    return 8 * level + strain_rank


@hot
def level_of(code):
    return code >> 3


@hot
def strain_of(code):
    return code & 7


# -- scoring ---------------------------------------------------------------------------------


@hot
def declarer_points(rules, bid, tricks, doubled):
    """Twin of ``declarer_points``: the declaring team's points for ``bid`` and its ``tricks``."""
    if tricks >= bid:
        if tricks == TRICKS:
            points = rules[MADE_13] if bid == MAX_BID else rules[KABOOT]
        else:
            points = tricks
    else:
        points = -rules[FAILED_13_POINTS] if bid == MAX_BID else -bid
    return 2 * points if doubled else points


@hot
def defender_points(rules, bid, tricks):
    """Twin of ``defender_points``: the defenders' points (0 when the contract is made)."""
    if tricks >= bid:
        return 0
    theirs = TRICKS - tricks
    if bid == MAX_BID and rules[FAILED_13] == FAILED_13_DOUBLE:
        return 2 * theirs
    return rules[KABOOT] if theirs == TRICKS else theirs


@hot
def net_points(rules, bid, tricks, doubled):
    """Twin of ``net_points``: the declaring team's points minus the defenders'."""
    return declarer_points(rules, bid, tricks, doubled) - defender_points(rules, bid, tricks)


@hot
def match_result(rules, score_odd, score_even):
    """Twin of ``match_result``: TEAM_ODD, TEAM_EVEN, DRAW or NO_RESULT for the team totals."""
    target = rules[TARGET]
    if score_odd < target and score_even < target:
        return NO_RESULT
    if score_odd > score_even:
        return TEAM_ODD
    if score_even > score_odd:
        return TEAM_EVEN
    return DRAW if rules[MATCH_END] == MATCH_DRAW else NO_RESULT


@hot
def is_worthless(hand):
    """Twin of ``is_worthless`` for a hand's bits (uint64, the layout of ``kernels.core.cards``)."""
    for suit in range(4):
        cards = (hand >> np.uint64(LANE * suit)) & SUIT_BITS
        length = popcount(cards)
        for need in range(1, 5):  # ace 1, king 2, queen 3, jack 4 cards in the suit
            if (cards >> np.uint64(13 - need)) & np.uint64(1) and length >= need:
                return False
    return True


# -- the auction -------------------------------------------------------------------------------


@hot
def auction_start(state):
    for i in range(ST_SIZE):
        state[i] = 0
    state[ST_LAST] = -1
    state[ST_HIGH_SEAT] = -1


@hot
def next_seat(rules, state):
    """Seat index to call next, or -1 once the auction is over."""
    if state[ST_OVER]:
        return -1
    if state[ST_CALLS] == 0:
        return 0
    seat = (state[ST_LAST] + 1) & 3
    if rules[PASSED_OUT] and not rules[ONE_BID_EACH]:
        for _ in range(4):
            if (state[ST_PASSED] >> seat) & 1 == 0:
                break
            seat = (seat + 1) & 3
    return seat


@hot
def must_bid(rules, state, seat):
    """The fourth player after three passes under the forced rule may not pass."""
    return (
        rules[ALL_PASS] == ALL_PASS_FORCED
        and state[ST_HIGH] == PASS
        and popcount(np.uint64(state[ST_PASSED])) == 3
        and (state[ST_PASSED] >> seat) & 1 == 0
    )


@hot
def call_legal(rules, state, call):
    """Twin of ``Auction.check``: whether the next seat may make ``call``."""
    seat = next_seat(rules, state)
    if seat < 0:
        return False
    if call == PASS:
        return not must_bid(rules, state, seat)
    high = state[ST_HIGH]
    if call == DOUBLE:
        if rules[AUCTION] != AUCTION_STRAIN or high == PASS or state[ST_DOUBLED]:
            return False
        return (state[ST_HIGH_SEAT] & 1) != (seat & 1)
    level, strain = level_of(call), strain_of(call)
    if level < MIN_BID or level > MAX_BID:
        return False
    if rules[AUCTION] == AUCTION_STRAIN:
        if strain >= N_STRAIN_RANKS:
            return False
        if strain == N_STRAIN_RANKS - 1 and not rules[NO_TRUMP]:
            return False
    elif strain != NO_STRAIN:
        return False
    if high == PASS or call > high:
        return True
    return rules[ONE_BID_EACH] == 1 and seat == 3 and level == level_of(high)


@hot
def auction_call(rules, state, call):
    """Twin of ``Auction.call`` for a legal ``call``: updates ``state``."""
    seat = next_seat(rules, state)
    state[ST_CALLS] += 1
    state[ST_LAST] = seat
    if call == PASS:
        state[ST_PASSED] |= 1 << seat
        state[ST_PASSES_SINCE] += 1
    else:
        if call == DOUBLE:
            state[ST_DOUBLED] = 1
        else:
            state[ST_HIGH] = call
            state[ST_HIGH_SEAT] = seat
            state[ST_DOUBLED] = 0
        state[ST_PASSES_SINCE] = 0
    passed = popcount(np.uint64(state[ST_PASSED]))
    if rules[ONE_BID_EACH]:
        if state[ST_CALLS] == 4:
            _finish(state)
    elif call != PASS and call != DOUBLE and level_of(call) == MAX_BID and rules[AUCTION] == AUCTION_NUMBER:
        state[ST_OVER] = 1
    elif rules[PASSED_OUT]:
        if state[ST_HIGH] != PASS and passed >= 3:
            state[ST_OVER] = 1
        elif state[ST_HIGH] == PASS and passed == 4:
            _finish(state)
    elif state[ST_HIGH] != PASS and state[ST_PASSES_SINCE] >= 3:
        state[ST_OVER] = 1
    elif state[ST_HIGH] == PASS and state[ST_PASSES_SINCE] == 4:
        _finish(state)


@hot
def _finish(state):
    state[ST_OVER] = 1
    state[ST_REDEAL] = 1 if state[ST_HIGH] == PASS else 0


@jit
def auction_step(rules, state, call):
    """Make ``call`` if it is legal now; returns whether it was."""
    if not call_legal(rules, state, call):
        return False
    auction_call(rules, state, call)
    return True


@jit
def run_auction(rules, calls, state):
    """Make ``calls`` (int64 codes) from the start; returns the number accepted before the
    first illegal one (``len(calls)`` if all were legal). ``state`` receives the auction."""
    auction_start(state)
    for i in range(calls.shape[0]):
        if not call_legal(rules, state, calls[i]):
            return i
        auction_call(rules, state, calls[i])
    return calls.shape[0]


@jit
def legal_calls(rules, state, out):
    """The codes of every legal call now, in order (pass, bids low to high, double), into
    ``out`` (int64[at least 2 + 7 * 5]); returns how many."""
    n = 0
    if call_legal(rules, state, PASS):
        out[n] = PASS
        n += 1
    for level in range(MIN_BID, MAX_BID + 1):
        for strain in range(NO_STRAIN + 1):
            code = bid_code(level, strain)
            if call_legal(rules, state, code):
                out[n] = code
                n += 1
    if call_legal(rules, state, DOUBLE):
        out[n] = DOUBLE
        n += 1
    return n


@jit
def score_grid(rules, out):
    """Declarer and defender points for every bid 7..13, tricks 0..13 and doubled 0/1 into
    ``out`` (int64[7, 14, 2, 2]) (the parity test's view of the scoring twins)."""
    for b in range(MIN_BID, MAX_BID + 1):
        for t in range(TRICKS + 1):
            for d in range(2):
                out[b - MIN_BID, t, d, 0] = declarer_points(rules, b, t, d == 1)
                out[b - MIN_BID, t, d, 1] = defender_points(rules, b, t)


@jit
def match_results(rules, scores, out):
    """match_result for each row of ``scores`` (int64[n, 2]) into ``out`` (int64[n])."""
    for i in range(scores.shape[0]):
        out[i] = match_result(rules, scores[i, 0], scores[i, 1])


@jit
def worthless_many(hands, out):
    """is_worthless for each hand of ``hands`` (uint64[n]) into ``out`` (bool[n])."""
    for i in range(hands.shape[0]):
        out[i] = is_worthless(hands[i])
