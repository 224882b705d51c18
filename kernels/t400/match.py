"""Whole matches: four bots deal, bid, play and settle rounds until a partnership wins.

Players 0..3 are fixed for a match (partners 0+2 and 1+3); player 3 deals the first hand, so
player 0 is seat 1 (bids first and leads) of the first hand. Seat ``s`` (0..3) of a round is
player ``(dealer + 1 + s) % 4``. Match ``i`` of a run draws every deal from
``stream(seed, i)``: deal ``k`` of match ``i`` is the same cards in the same seats whatever the
variant, the bidders or the policies (common random numbers), and whatever the chunking.

``rules`` is the packed rules array (:mod:`kernels.t400.rules`), ``lineup`` the bidders and
policies by player (:mod:`kernels.t400.lineup`); the match end, scoring, dead hands and the
classic outright 13 are the rules module's functions.
"""

import numpy as np
from numba import prange

from kernels.config import JIT, PJIT, jit
from kernels.core.deal import deal_full, scratch
from kernels.core.rng import stream
from kernels.t400.hand import bot_bids, play_400
from kernels.t400.lineup import BIDDERS, POLICIES, check_lineup
from kernels.t400.rules import (
    END_CAP,
    END_OUTRIGHT,
    is_dead,
    is_made,
    is_outright,
    match_winner,
    redeal_advances,
    score_change,
)

hot = jit(forceinline=True)

#: Seeds of the continuations' streams are the run's seed xor this: a family of streams apart
#: from the deals' (whose chunk indices would otherwise overlap).
CONTINUATION_KEY = 0x2545F4914F6CDD1D

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


@JIT
def play_match(
    state, match, rules, lineup, kit, bot, cap, row, rec, rec_at, hand_rec, start_scores, start_dealer
):
    """Play one match (or its rest) from ``state``; fill ``row`` (int32[M_SIZE]); with a
    non-empty ``rec``, write its rounds from ``rec[rec_at]`` on (and the hands to ``hand_rec``).
    Returns the number of rounds (dead hands included).

    lineup: bidders and policies by player; cap: the most rounds (dead ones included) before
    the match is stopped unfinished; start_scores: int64[4], the players' scores before the
    first round played here (zeros for a new match), start_dealer: who deals it (3 for a new
    match).
    """
    bidders = lineup[BIDDERS]
    policies = lineup[POLICIES]
    deck, hands, bids, tricks = scratch()
    seat_scores = np.empty(4, dtype=np.int64)
    seat_bidders = np.empty(4, dtype=np.int64)
    seat_policies = np.empty(4, dtype=np.int64)
    scores = start_scores.copy()
    record = rec.shape[0] > 0
    for j in range(M_SIZE):
        row[j] = 0
    dealer = start_dealer
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
        total = bot_bids(rules, seat_bidders, kit, bot, hands, seat_scores, bids, 0, 0)
        dead = is_dead(rules, total, seat_scores)
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
            if redeal_advances(rules):
                dealer = (dealer + 1) % 4
            continue
        play_400(rules, hands, bids, seat_policies, kit, tricks)
        row[M_HANDS] += 1
        # The classic 13: a made 13 wins for the bidder's side, a failed one for the other side;
        # results pointing both ways cancel (see analyzer.games.t400.rules.OPEN_POINTS).
        outright_side = -1
        conflict = False
        for s in range(4):
            p = (dealer + 1 + s) % 4
            made = is_made(bids[s], tricks[s])
            scores[p] += score_change(rules, bids[s], tricks[s], seat_scores[s])
            row[M_BIDS + bids[s]] += 1
            if made:
                row[M_MADE + bids[s]] += 1
            if record:
                rec[rec_at + rounds - 1, H_TRICKS + s] = tricks[s]
            if is_outright(rules, bids[s]):
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
        winner, why = match_winner(rules, scores)
        if winner >= 0:
            reason = why
            break
    row[M_WINNER] = winner
    row[M_REASON] = reason
    for p in range(4):
        row[M_SCORE + p] = scores[p]
    return rounds


@PJIT
def play_matches(seed, first_match, n_matches, chunk_size, rules, lineup, kit, bot, cap):
    """Matches ``first_match .. first_match + n_matches - 1`` of a run seeded ``seed``.

    Chunks of ``chunk_size`` matches run in ``prange``; match ``i`` uses ``stream(seed, i)``.
    Returns int32[n_matches, M_SIZE] match rows (see the ``M_`` columns).
    """
    check_lineup(lineup, kit)
    out = np.zeros((n_matches, M_SIZE), dtype=np.int32)
    empty = np.zeros((0, H_SIZE), dtype=np.int32)
    no_hands = np.zeros((0, 4), dtype=np.uint64)
    zeros = np.zeros(4, dtype=np.int64)
    n_chunks = (n_matches + chunk_size - 1) // chunk_size
    for c in prange(n_chunks):
        stop = min(n_matches, (c + 1) * chunk_size)
        for i in range(c * chunk_size, stop):
            state = stream(seed, first_match + i)
            play_match(
                state, first_match + i, rules, lineup, kit, bot, cap, out[i], empty, 0, no_hands, zeros, 3
            )
    return out


@PJIT
def record_matches(seed, first_match, offsets, chunk_size, rules, lineup, kit, bot, cap):
    """The rounds of the matches of :func:`play_matches` (same arguments; replayed).

    offsets: int64[n_matches + 1], where each match's rounds start (a cumulative sum of its
    rounds from a :func:`play_matches` run). Returns (rounds int32[offsets[-1], H_SIZE],
    hands uint64[offsets[-1], 4] in seat order).
    """
    check_lineup(lineup, kit)
    n_matches = offsets.shape[0] - 1
    rec = np.zeros((offsets[n_matches], H_SIZE), dtype=np.int32)
    hand_rec = np.zeros((offsets[n_matches], 4), dtype=np.uint64)
    zeros = np.zeros(4, dtype=np.int64)
    n_chunks = (n_matches + chunk_size - 1) // chunk_size
    for c in prange(n_chunks):
        row = np.zeros(M_SIZE, dtype=np.int32)
        stop = min(n_matches, (c + 1) * chunk_size)
        for i in range(c * chunk_size, stop):
            state = stream(seed, first_match + i)
            play_match(
                state, first_match + i, rules, lineup, kit, bot, cap, row, rec, offsets[i], hand_rec, zeros, 3
            )
    return rec, hand_rec


@PJIT
def continue_matches(seed, first_match, n_matches, chunk_size, rules, lineup, kit, bot, cap, scores, dealer):
    """The rest of a match from a given state, ``n_matches`` times: match ``i`` draws from
    ``stream(seed, first_match + i)``, as :func:`play_matches`.

    scores: int64[4], the players' scores now; dealer: the player (0..3) who deals the next hand.
    Returns int32[n_matches, M_SIZE] match rows (``M_SCORE`` holds the final scores).
    """
    check_lineup(lineup, kit)
    out = np.zeros((n_matches, M_SIZE), dtype=np.int32)
    empty = np.zeros((0, H_SIZE), dtype=np.int32)
    no_hands = np.zeros((0, 4), dtype=np.uint64)
    n_chunks = (n_matches + chunk_size - 1) // chunk_size
    for c in prange(n_chunks):
        stop = min(n_matches, (c + 1) * chunk_size)
        for i in range(c * chunk_size, stop):
            state = stream(seed, first_match + i)
            play_match(
                state,
                first_match + i,
                rules,
                lineup,
                kit,
                bot,
                cap,
                out[i],
                empty,
                0,
                no_hands,
                scores,
                dealer,
            )
    return out


@JIT
def rests_won(rules, lineup, kit, bot, cap, scores, dealer, seed, first, k, row):
    """Mean over ``k`` simulated rests of a match of 1 if players 0+2 win (0.5 if stopped at the
    cap, else 0), from ``scores`` (int64[4] by player) with ``dealer`` dealing next; rest ``i``
    draws from ``stream(seed ^ CONTINUATION_KEY, first + i)``. ``row``: int32[M_SIZE] scratch."""
    empty = np.zeros((0, H_SIZE), dtype=np.int32)
    no_hands = np.zeros((0, 4), dtype=np.uint64)
    won = 0.0
    for i in range(k):
        state = stream(seed ^ CONTINUATION_KEY, first + i)
        play_match(state, first + i, rules, lineup, kit, bot, cap, row, empty, 0, no_hands, scores, dealer)
        w = row[M_WINNER]
        won += 1.0 if w == 0 else (0.5 if w < 0 else 0.0)
    return won / k
