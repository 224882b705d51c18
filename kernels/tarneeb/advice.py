"""What to call in a Tarneeb auction: the rollout behind ``t400 bid --game tarneeb``.

For one known hand in one seat after the calls so far, each sample deals the other three hands
(stream ``(seed, chunk)``), weighs the deal by how likely the bots were to make the calls they
made with it, plays the hand's team declaring in every strain, and, for every candidate call,
finishes the auction with the bots (the known seat's later calls by the EV bot too), plays the
final contract with the team policy and scores it for the known seat's team.
"""

import numpy as np
from numba import prange

from kernels.config import JIT, PJIT
from kernels.core.deal import deal_around, pool_of
from kernels.core.rng import stream
from kernels.tarneeb import rules as kr
from kernels.tarneeb.bidder import net_points
from kernels.tarneeb.hand import MAX_CALLS, TRAINING_LEVEL, bot_call, bot_trump, check_bidders, play_contract

#: Weight of a sampled deal per earlier call the bots would not have made with it: a soft
#: rejection (the bots are deterministic; a floor keeps every deal possible, as a player should).
MISMATCH_WEIGHT = 0.05

# per-sample outcome of a candidate call
C_SCORE = 0  # points of the known seat's team minus the other team's
C_ENDS = 1  # 1 when the auction ended with this call as the contract
C_MADE = 2  # 1 when it ended so and was made
C_DECLARE = 3  # 1 when the known seat's team declared the final contract
C_PLAYED = 4  # 0 when the deal was passed out (re-dealt)
C_SIZE = 5


@JIT
def _sample(rules, hand, seat, calls, candidates, bidders, policies, model, infer, hands, auction, trial, taken,
            strain_row, outcome_rows):  # fmt: skip
    """One dealt sample (``hands``): its weight (returned), the strain tricks into ``strain_row``
    (int64[5]) and each candidate's outcome into ``outcome_rows`` (float64[m, C_SIZE])."""
    w = 1.0
    kr.auction_start(auction)
    for call in calls:
        who = kr.next_seat(rules, auction)
        if infer and who != seat and bot_call(bidders[who], rules, auction, hands[who], model) != call:
            w *= MISMATCH_WEIGHT
        kr.auction_call(rules, auction, call)
    code = kr.bid_code(TRAINING_LEVEL, kr.NO_STRAIN)
    for strain in range(5):
        strain_row[strain] = play_contract(rules, hands, policies, code, seat, strain, taken)
    for k in range(candidates.shape[0]):
        for q in range(kr.ST_SIZE):
            trial[q] = auction[q]
        kr.auction_call(rules, trial, candidates[k])
        for _ in range(MAX_CALLS):
            who = kr.next_seat(rules, trial)
            if who < 0:
                break
            kr.auction_call(rules, trial, bot_call(bidders[who], rules, trial, hands[who], model))
        o = outcome_rows[k]
        for q in range(C_SIZE):
            o[q] = 0.0
        if trial[kr.ST_REDEAL]:
            continue
        contract = trial[kr.ST_HIGH]
        declarer = trial[kr.ST_HIGH_SEAT]
        doubled = trial[kr.ST_DOUBLED] == 1
        trump = bot_trump(bidders[declarer], rules, hands[declarer], contract, model)
        tricks = play_contract(rules, hands, policies, contract, declarer, trump, taken)
        level = kr.level_of(contract)
        net = net_points(rules, level, tricks, doubled)
        ours = (declarer & 1) == (seat & 1)
        o[C_PLAYED] = 1.0
        o[C_DECLARE] = 1.0 if ours else 0.0
        o[C_SCORE] = net if ours else -net
        if declarer == seat and contract == candidates[k]:
            o[C_ENDS] = 1.0
            o[C_MADE] = 1.0 if tricks >= level else 0.0
    return w


@PJIT
def call_rollout(seed, first_chunk, n_chunks, chunk_size, rules, hand, seat, calls, candidates, bidders, policies,
                 model, infer):  # fmt: skip
    """Samples ``n_chunks * chunk_size`` of the rollout (chunk ``c`` from ``stream(seed,
    first_chunk + c)``).

    hand: uint64, the known hand; seat: its seat index; calls: int64[k], the calls so far from
    seat index 0 (legal, ending at ``seat``'s turn); candidates: int64[m], the calls to value;
    bidders, policies: int64[4] by seat (the bots of the other seats, and the known seat's later
    calls); infer: weigh deals by the earlier calls.
    Returns (weights float64[n]; strain tricks int64[n, 5]: the known seat's team's tricks
    declaring in each strain, the known seat leading; outcomes float64[n, m, C_SIZE]).
    """
    check_bidders(bidders)
    n = n_chunks * chunk_size
    m = candidates.shape[0]
    weights = np.empty(n)
    strain_tricks = np.empty((n, 5), dtype=np.int64)
    outcomes = np.zeros((n, m, C_SIZE))
    unseen = np.uint64(0x1FFF1FFF1FFF1FFF) & ~hand
    counts = np.full(4, 13, dtype=np.int64)
    counts[seat] = 0
    for c in prange(n_chunks):
        state = stream(seed, first_chunk + c)
        pool = pool_of(unseen)
        hands = np.empty(4, dtype=np.uint64)
        auction = np.empty(kr.ST_SIZE, dtype=np.int64)
        trial = np.empty(kr.ST_SIZE, dtype=np.int64)
        taken = np.empty(4, dtype=np.int64)
        for j in range(chunk_size):
            i = c * chunk_size + j
            deal_around(state, pool, counts, hand, seat, hands)
            weights[i] = _sample(rules, hand, seat, calls, candidates, bidders, policies, model, infer, hands,
                                 auction, trial, taken, strain_tricks[i], outcomes[i])  # fmt: skip
    return weights, strain_tricks, outcomes
