"""Whole matches of classic or Egyptian Tarneeb: four bots deal, bid, play and settle hands until
a team wins (or the match is drawn, or the cap stops it).

Players 0..3 are fixed for a match (teams: players 0+2, shown as "1+3", and 1+3, shown as
"2+4"); player 3 deals the first hand, so player 0 is seat 1 (speaks first) of the first hand.
Seat ``s`` (0..3) of a round is player ``(dealer + 1 + s) % 4``. The deal passes to the next
player after a played hand; a re-deal (every player passed, or a worthless hand) keeps the dealer
(see ``OPEN_POINTS['dealer']`` in :mod:`analyzer.games.tarneeb.rules`). Match ``i`` of a run draws
every deal from ``stream(seed, i)`` (common random numbers across variants and lineups).

``lineup`` is int64[2, 4]: Tarneeb bidder ids (:mod:`kernels.tarneeb.hand`) and play policy ids
(:mod:`kernels.policies.play`) by player; ``model`` the EV bidder's array.
"""

import numpy as np
from numba import prange

from kernels.config import JIT, PJIT
from kernels.core.deal import deal_full, scratch
from kernels.core.rng import stream
from kernels.policies.play import check_policies
from kernels.tarneeb import rules as kr
from kernels.tarneeb.hand import (
    R_CALLS,
    R_CONTRACT,
    R_DECLARER,
    R_DELTA,
    R_DOUBLED,
    R_FORCED,
    R_REDEAL,
    R_SIZE,
    R_TAKEN,
    R_TRICKS,
    R_TRUMP,
    REDEAL_PASSED,
    REDEAL_WORTHLESS,
    check_bidders,
    play_one_hand,
)

BIDDERS = 0
POLICIES = 1

# Columns of a match row (int32). Teams: 0 = players 1+3, 1 = players 2+4.
M_WINNER = 0  # 0 or 1; 2 a draw; -1 stopped at the cap
M_HANDS = 1  # hands played
M_PASSED = 2  # re-deals after four passes
M_WORTHLESS = 3  # re-deals asked for with a worthless hand
M_SCORE = 4  # [2] final team scores
M_CONTRACTS = 6  # [7] played contracts of each level 7..13
M_MADE = M_CONTRACTS + 7  # [7] of those, made
M_KABOOT = M_MADE + 7  # declarers who took all 13 tricks
M_SET_KABOOT = M_KABOOT + 1  # defenders who took all 13 tricks
M_DOUBLED = M_SET_KABOOT + 1
M_NO_TRUMP = M_DOUBLED + 1  # contracts played in no trump
M_FORCED = M_NO_TRUMP + 1  # dealers forced to bid after three passes
M_DECLARER_TRICKS = M_FORCED + 1  # the declaring teams' tricks, summed over hands
M_TEAM_CONTRACTS = M_DECLARER_TRICKS + 1  # [2] contracts declared by each team
M_SIZE = M_TEAM_CONTRACTS + 2

# Columns of a per-round record (int32); rounds include re-deals.
H_MATCH = 0
H_ROUND = 1
H_DEALER = 2  # the dealing player, 0..3
H_REDEAL = 3  # kernels.tarneeb.hand: PLAYED, REDEAL_PASSED, REDEAL_WORTHLESS
H_CONTRACT = 4  # the contract's call code (0 when not played)
H_DECLARER = 5  # seat index (-1 when not played)
H_TRUMP = 6  # trump index (-1 when not played)
H_DOUBLED = 7
H_TRICKS = 8  # [4] tricks by seat (-1 when not played)
H_BEFORE = 12  # [2] team scores before the round, seats 1+3 first
H_CALLS = 14
H_SIZE = 15


@JIT
def check_lineup(lineup, kit):
    """Raise ``ValueError`` on an unknown bidder or policy id of ``lineup`` (int64[2, 4]), or a
    kit (:mod:`kernels.core.kit`) that is not its own."""
    check_bidders(lineup[BIDDERS])
    check_policies(lineup[POLICIES], kit)


@JIT
def play_match(state, match, rules, lineup, kit, model, cap, row, rec, rec_at, hand_rec):
    """Play one match from the start; fill ``row`` (int32[M_SIZE]); with a non-empty ``rec``,
    write its rounds from ``rec[rec_at]`` on (and the deals to ``hand_rec``). Returns the number
    of rounds (re-deals included)."""
    deck, hands, _, _ = scratch()
    auction = np.empty(kr.ST_SIZE, dtype=np.int64)
    res = np.empty(R_SIZE, dtype=np.int64)
    contexts = np.empty((4, 2), dtype=np.int64)
    seat_bidders = np.empty(4, dtype=np.int64)
    seat_policies = np.empty(4, dtype=np.int64)
    scores = np.zeros(2, dtype=np.int64)  # by player team
    record = rec.shape[0] > 0
    for j in range(M_SIZE):
        row[j] = 0
    dealer = 3
    winner = -1
    rounds = 0
    while rounds < cap:
        deal_full(state, deck, hands)
        for s in range(4):
            p = (dealer + 1 + s) % 4
            seat_bidders[s] = lineup[BIDDERS, p]
            seat_policies[s] = lineup[POLICIES, p]
        play_one_hand(rules, hands, seat_bidders, seat_policies, kit, auction, res, model, contexts)
        odd_team = (dealer + 1) & 1  # the player team sitting in seats 1+3
        if record:
            r = rec_at + rounds
            rec[r, H_MATCH] = match
            rec[r, H_ROUND] = rounds
            rec[r, H_DEALER] = dealer
            rec[r, H_REDEAL] = res[R_REDEAL]
            played = res[R_REDEAL] == 0
            rec[r, H_CONTRACT] = res[R_CONTRACT]
            rec[r, H_DECLARER] = res[R_DECLARER] if played else -1
            rec[r, H_TRUMP] = res[R_TRUMP] if played else -1
            rec[r, H_DOUBLED] = res[R_DOUBLED]
            for s in range(4):
                rec[r, H_TRICKS + s] = res[R_TAKEN + s] if played else -1
                hand_rec[r, s] = hands[s]
            rec[r, H_BEFORE] = scores[odd_team]
            rec[r, H_BEFORE + 1] = scores[1 - odd_team]
            rec[r, H_CALLS] = res[R_CALLS]
        rounds += 1
        row[M_FORCED] += res[R_FORCED]
        if res[R_REDEAL] == REDEAL_PASSED:
            row[M_PASSED] += 1
            continue
        if res[R_REDEAL] == REDEAL_WORTHLESS:
            row[M_WORTHLESS] += 1
            continue
        row[M_HANDS] += 1
        level = kr.level_of(res[R_CONTRACT])
        tricks = res[R_TRICKS]
        row[M_CONTRACTS + level - kr.MIN_BID] += 1
        if tricks >= level:
            row[M_MADE + level - kr.MIN_BID] += 1
        if tricks == kr.TRICKS:
            row[M_KABOOT] += 1
        elif tricks == 0:
            row[M_SET_KABOOT] += 1
        row[M_DOUBLED] += res[R_DOUBLED]
        if res[R_TRUMP] == 4:
            row[M_NO_TRUMP] += 1
        row[M_DECLARER_TRICKS] += tricks
        declaring_team = odd_team if (res[R_DECLARER] & 1) == 0 else 1 - odd_team
        row[M_TEAM_CONTRACTS + declaring_team] += 1
        scores[odd_team] += res[R_DELTA]
        scores[1 - odd_team] += res[R_DELTA + 1]
        dealer = (dealer + 1) % 4
        result = kr.match_result(rules, scores[0], scores[1])
        if result != kr.NO_RESULT:
            winner = result
            break
    row[M_WINNER] = winner
    row[M_SCORE] = scores[0]
    row[M_SCORE + 1] = scores[1]
    return rounds


@PJIT
def play_matches(seed, first_match, n_matches, chunk_size, rules, lineup, kit, model, cap):
    """Matches ``first_match .. first_match + n_matches - 1`` of a run seeded ``seed``; match
    ``i`` uses ``stream(seed, i)``. Returns int32[n_matches, M_SIZE] match rows."""
    check_lineup(lineup, kit)
    out = np.zeros((n_matches, M_SIZE), dtype=np.int32)
    empty = np.zeros((0, H_SIZE), dtype=np.int32)
    no_hands = np.zeros((0, 4), dtype=np.uint64)
    n_chunks = (n_matches + chunk_size - 1) // chunk_size
    for c in prange(n_chunks):
        stop = min(n_matches, (c + 1) * chunk_size)
        for i in range(c * chunk_size, stop):
            state = stream(seed, first_match + i)
            play_match(state, first_match + i, rules, lineup, kit, model, cap, out[i], empty, 0, no_hands)
    return out


@PJIT
def record_matches(seed, first_match, offsets, chunk_size, rules, lineup, kit, model, cap):
    """The rounds of the matches of :func:`play_matches` (same arguments; replayed).

    offsets: int64[n_matches + 1], where each match's rounds start. Returns (rounds
    int32[offsets[-1], H_SIZE], deals uint64[offsets[-1], 4] in seat order).
    """
    check_lineup(lineup, kit)
    n_matches = offsets.shape[0] - 1
    rec = np.zeros((offsets[n_matches], H_SIZE), dtype=np.int32)
    hand_rec = np.zeros((offsets[n_matches], 4), dtype=np.uint64)
    n_chunks = (n_matches + chunk_size - 1) // chunk_size
    for c in prange(n_chunks):
        row = np.zeros(M_SIZE, dtype=np.int32)
        stop = min(n_matches, (c + 1) * chunk_size)
        for i in range(c * chunk_size, stop):
            state = stream(seed, first_match + i)
            play_match(state, first_match + i, rules, lineup, kit, model, cap, row, rec, offsets[i], hand_rec)
    return rec, hand_rec
