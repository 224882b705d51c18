"""The bidding guide's kernel: one seat's outcome for every candidate bid on random full deals.

Each deal is dealt whole; the seats before the focal seat bid with their bots; then, for each
candidate bid of the focal seat (common random numbers), the later seats bid, a dead hand is
thrown in, and otherwise all four play the hand out. Chunk ``c`` uses
``stream(seed, first_chunk + c)``.
"""

import numpy as np
from numba import prange

from kernels.config import JIT, PJIT
from kernels.core.deal import deal_full, scratch
from kernels.core.rng import stream
from kernels.t400.bidder import bot_bid
from kernels.t400.hand import bot_bids, play_400
from kernels.t400.lineup import BIDDERS, POLICIES, check_lineup
from kernels.t400.rules import is_dead, min_bid, score_change

#: Codes in the tricks output besides 0..13.
DEAD = -1
ILLEGAL = -2


@PJIT
def seat_outcomes(seed, first_chunk, n_chunks, chunk_size, rules, lineup, kit, bot, seat, scores, candidates):
    """Random deals seen from ``seat`` (0..3) with ``scores`` (int64[4], seat order).

    rules, lineup, bot: as :func:`kernels.t400.rollout.full_hands`; candidates: int64[m] bids to
    try (those below the focal seat's minimum are marked :data:`ILLEGAL`). Returns (hands
    uint64[n, 4] in seat order, prior int64[n]: the sum of the earlier bids, tricks int8[n, m]:
    the focal seat's tricks for each candidate, or :data:`DEAD`), with n = n_chunks * chunk_size.
    """
    check_lineup(lineup, kit)
    m = candidates.shape[0]
    n = n_chunks * chunk_size
    hands_out = np.empty((n, 4), dtype=np.uint64)
    prior_out = np.empty(n, dtype=np.int64)
    tricks_out = np.empty((n, m), dtype=np.int8)
    low = min_bid(rules, scores[seat])
    for c in prange(n_chunks):
        state = stream(seed, first_chunk + c)
        deck, hands, bids, tricks = scratch()
        bidders = lineup[BIDDERS]
        policies = lineup[POLICIES]
        for i in range(chunk_size):
            k = c * chunk_size + i
            deal_full(state, deck, hands)
            prior = 0
            for s in range(seat):
                bids[s] = bot_bid(rules, kit, bidders[s], bot, hands[s], s, scores, prior)
                prior += bids[s]
            for s in range(4):
                hands_out[k, s] = hands[s]
            prior_out[k] = prior
            for j in range(m):
                bid = candidates[j]
                if bid < low:
                    tricks_out[k, j] = ILLEGAL
                    continue
                bids[seat] = bid
                total = bot_bids(rules, bidders, kit, bot, hands, scores, bids, seat + 1, prior + bid)
                if is_dead(rules, total, scores):
                    tricks_out[k, j] = DEAD
                    continue
                play_400(rules, hands, bids, policies, kit, tricks)
                tricks_out[k, j] = tricks[seat]
    return hands_out, prior_out, tricks_out


@JIT
def points_of(rules, candidates, tricks, score):
    """The focal seat's score change for every candidate (float64[n, m]) from
    :func:`seat_outcomes`' ``tricks``: 0 for a dead hand, NaN for an illegal bid."""
    n, m = tricks.shape
    out = np.empty((n, m))
    for k in range(n):
        for j in range(m):
            t = tricks[k, j]
            if t == ILLEGAL:
                out[k, j] = np.nan
            elif t == DEAD:
                out[k, j] = 0.0
            else:
                out[k, j] = score_change(rules, candidates[j], t, score)
    return out
