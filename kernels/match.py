"""Whole matches: four bots deal, bid, play and settle rounds until a partnership wins.

Players 0..3 are fixed for a match (partners 0+2 and 1+3); player 3 deals the first hand, so
player 0 is seat 1 (bids first and leads) of the first hand. Seat ``s`` (0..3) of a round is
player ``(dealer + 1 + s) % 4``. Match ``i`` of a run draws every deal from
``stream(seed, i)``: deal ``k`` of match ``i`` is the same cards in the same seats whatever the
variant, the bidders or the policies (common random numbers), and whatever the chunking.

Rules arrays come from :class:`analyzer.rules.KernelRules`; ``flags`` is
[target, outright 13, tie-break (0 leader-then-total, 1 total), redeal (0 same, 1 next)].
"""

import numpy as np
from numba import prange

from kernels.bidder import table_minimum, value_row
from kernels.config import JIT, PJIT, jit
from kernels.deal import deal_full
from kernels.rng import stream
from kernels.rollout import bot_bids, play_deal, scratch

hot = jit(forceinline=True)

# How a match ended (column M_REASON).
END_TARGET = 0  # one partnership qualified
END_LEADER = 1  # both qualified: higher leading score
END_TOTAL = 2  # both qualified: higher combined score
END_OUTRIGHT = 3  # classic table: a 13 made or failed
END_CAP = 4  # the hand cap was hit first
END_NAMES = ("target", "tie-break: leading score", "tie-break: combined score", "outright 13", "cap")

# Columns of a match row (int32).
M_WINNER = 0  # winning partnership: 0 (players 1+3), 1 (players 2+4), -1 at the cap
M_REASON = 1
M_HANDS = 2  # hands played (dead ones excluded)
M_DEAD = 3  # dead hands (thrown in, not played)
M_SCORE = 4  # [4] final score of players 1..4
M_BIDS = 8  # [14] played hands' bids of each size 0..13 (0 and 1 never occur)
M_MADE = M_BIDS + 14  # [14] of those, the bids made
M_SIZE = M_MADE + 14

# Columns of a per-round record (int32); rounds include dead hands.
H_MATCH = 0  # match index within the run
H_ROUND = 1  # 0, 1, ... within the match, dead hands included
H_DEALER = 2  # the dealing player, 0..3
H_DEAD = 3
H_BIDS = 4  # [4] in seat order
H_TRICKS = 8  # [4] in seat order, -1 for a dead hand
H_BEFORE = 12  # [4] scores before the round, in seat order
H_SIZE = 16


@hot
def _qualifies(a, b, target):
    return max(a, b) >= target and min(a, b) > 0


@hot
def match_winner(scores, target, tie_break):
    """(winning partnership or -1, reason) on points; ``scores`` by player."""
    q0 = _qualifies(scores[0], scores[2], target)
    q1 = _qualifies(scores[1], scores[3], target)
    if q0 and not q1:
        return 0, END_TARGET
    if q1 and not q0:
        return 1, END_TARGET
    if not q0:
        return -1, -1
    if tie_break == 0:
        lead0 = max(scores[0], scores[2])
        lead1 = max(scores[1], scores[3])
        if lead0 != lead1:
            return (0 if lead0 > lead1 else 1), END_LEADER
    total0 = scores[0] + scores[2]
    total1 = scores[1] + scores[3]
    if total0 != total1:
        return (0 if total0 > total1 else 1), END_TOTAL
    return -1, -1


@JIT
def play_match(
    state, match, bidders, policies, bot, values, min_bids, table_mins, flags, cap, row, rec, rec_at,
    hand_rec,
):  # fmt: skip
    """Play one match from ``state``; fill ``row`` (int32[M_SIZE]); with a non-empty ``rec``,
    write its rounds from ``rec[rec_at]`` on (and the hands to ``hand_rec``). Returns the
    number of rounds (dead hands included).

    bidders, policies: int64[4] by player; cap: the most rounds (dead ones included) before the
    match is stopped unfinished.
    """
    target = flags[0]
    outright = flags[1] == 1
    tie_break = flags[2]
    redeal_next = flags[3] == 1
    deck, hands, bids, tricks = scratch()
    seat_scores = np.empty(4, dtype=np.int64)
    seat_bidders = np.empty(4, dtype=np.int64)
    seat_policies = np.empty(4, dtype=np.int64)
    scores = np.zeros(4, dtype=np.int64)
    record = rec.shape[0] > 0
    for j in range(M_SIZE):
        row[j] = 0
    dealer = 3
    winner = -1
    reason = END_CAP
    rounds = 0
    while rounds < cap:
        deal_full(state, deck, hands)
        for s in range(4):
            p = (dealer + 1 + s) % 4
            seat_scores[s] = scores[p]
            seat_bidders[s] = bidders[p]
            seat_policies[s] = policies[p]
        total = bot_bids(seat_bidders, bot, min_bids, table_mins, hands, seat_scores, bids, 0, 0)
        dead = total < table_minimum(
            table_mins, seat_scores[0], seat_scores[1], seat_scores[2], seat_scores[3]
        )
        if record:
            r = rec_at + rounds
            rec[r, H_MATCH] = match
            rec[r, H_ROUND] = rounds
            rec[r, H_DEALER] = dealer
            rec[r, H_DEAD] = 1 if dead else 0
            for s in range(4):
                rec[r, H_BIDS + s] = bids[s]
                rec[r, H_TRICKS + s] = -1
                rec[r, H_BEFORE + s] = seat_scores[s]
                hand_rec[r, s] = hands[s]
        rounds += 1
        if dead:
            row[M_DEAD] += 1
            if redeal_next:
                dealer = (dealer + 1) % 4
            continue
        play_deal(hands, bids, seat_policies, tricks)
        row[M_HANDS] += 1
        # The classic 13: a made 13 wins for the bidder's side, a failed one for the other side;
        # results pointing both ways cancel (see analyzer.rules.OPEN_POINTS).
        outright_side = -1
        conflict = False
        for s in range(4):
            p = (dealer + 1 + s) % 4
            made = tricks[s] >= bids[s]
            v = values[value_row(seat_scores[s]), bids[s]]
            scores[p] += v if made else -v
            row[M_BIDS + bids[s]] += 1
            if made:
                row[M_MADE + bids[s]] += 1
            if record:
                rec[rec_at + rounds - 1, H_TRICKS + s] = tricks[s]
            if outright and bids[s] == 13:
                side = p % 2 if made else (p + 1) % 2
                if outright_side == -1:
                    outright_side = side
                elif outright_side != side:
                    conflict = True
        dealer = (dealer + 1) % 4
        if outright_side >= 0 and not conflict:
            winner = outright_side
            reason = END_OUTRIGHT
            break
        winner, why = match_winner(scores, target, tie_break)
        if winner >= 0:
            reason = why
            break
    row[M_WINNER] = winner
    row[M_REASON] = reason
    for p in range(4):
        row[M_SCORE + p] = scores[p]
    return rounds


@PJIT
def play_matches(
    seed, first_match, n_matches, chunk_size, bidders, policies, bot, values, min_bids, table_mins,
    flags, cap,
):  # fmt: skip
    """Matches ``first_match .. first_match + n_matches - 1`` of a run seeded ``seed``.

    Chunks of ``chunk_size`` matches run in ``prange``; match ``i`` uses ``stream(seed, i)``.
    Returns int32[n_matches, M_SIZE] match rows (see the ``M_`` columns).
    """
    out = np.zeros((n_matches, M_SIZE), dtype=np.int32)
    empty = np.zeros((0, H_SIZE), dtype=np.int32)
    no_hands = np.zeros((0, 4), dtype=np.uint64)
    n_chunks = (n_matches + chunk_size - 1) // chunk_size
    for c in prange(n_chunks):
        stop = min(n_matches, (c + 1) * chunk_size)
        for i in range(c * chunk_size, stop):
            state = stream(seed, first_match + i)
            play_match(
                state, first_match + i, bidders, policies, bot, values, min_bids, table_mins, flags, cap,
                out[i], empty, 0, no_hands,
            )  # fmt: skip
    return out


@PJIT
def record_matches(
    seed, first_match, offsets, chunk_size, bidders, policies, bot, values, min_bids, table_mins, flags,
    cap,
):  # fmt: skip
    """The rounds of the matches of :func:`play_matches` (same arguments; replayed).

    offsets: int64[n_matches + 1], where each match's rounds start (a cumulative sum of its
    rounds from a :func:`play_matches` run). Returns (rounds int32[offsets[-1], H_SIZE],
    hands uint64[offsets[-1], 4] in seat order).
    """
    n_matches = offsets.shape[0] - 1
    rec = np.zeros((offsets[n_matches], H_SIZE), dtype=np.int32)
    hand_rec = np.zeros((offsets[n_matches], 4), dtype=np.uint64)
    n_chunks = (n_matches + chunk_size - 1) // chunk_size
    for c in prange(n_chunks):
        row = np.zeros(M_SIZE, dtype=np.int32)
        stop = min(n_matches, (c + 1) * chunk_size)
        for i in range(c * chunk_size, stop):
            state = stream(seed, first_match + i)
            play_match(
                state, first_match + i, bidders, policies, bot, values, min_bids, table_mins, flags, cap,
                row, rec, offsets[i], hand_rec,
            )  # fmt: skip
    return rec, hand_rec
