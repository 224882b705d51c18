"""The bidding guide's kernel: one seat's outcome for every candidate bid on random full deals.

Each deal is dealt whole; the seats before the focal seat bid with their bots; then, for each
candidate bid of the focal seat (common random numbers), the later seats bid, a dead hand is
thrown in, and otherwise all four play the hand out. Chunk ``c`` uses ``stream(seed, c)``.
"""

import numpy as np
from numba import prange

from kernels.bidder import bot_bid, table_minimum
from kernels.config import PJIT
from kernels.deal import deal_full
from kernels.rng import stream
from kernels.rollout import bot_bids, play_deal, scratch

#: Codes in the tricks output besides 0..13.
DEAD = -1
ILLEGAL = -2


@PJIT
def seat_outcomes(
    seed, first_chunk, n_chunks, chunk_size, seat, scores, candidates, bidders, policies, bot, min_bids,
    table_mins, low,
):  # fmt: skip
    """Random deals seen from ``seat`` (0..3) with ``scores`` (int64[4], seat order).

    candidates: int64[m] bids to try; ``low``: the focal seat's minimum bid (lower candidates
    are marked :data:`ILLEGAL`). Returns (hands uint64[n, 4] in seat order, prior int64[n]: the
    sum of the earlier bids, tricks int8[n, m]: the focal seat's tricks for each candidate, or
    :data:`DEAD`), with n = n_chunks * chunk_size.
    """
    m = candidates.shape[0]
    n = n_chunks * chunk_size
    hands_out = np.empty((n, 4), dtype=np.uint64)
    prior_out = np.empty(n, dtype=np.int64)
    tricks_out = np.empty((n, m), dtype=np.int8)
    tmin = table_minimum(table_mins, scores[0], scores[1], scores[2], scores[3])
    for c in prange(n_chunks):
        state = stream(seed, first_chunk + c)
        deck, hands, bids, tricks = scratch()
        for i in range(chunk_size):
            k = c * chunk_size + i
            deal_full(state, deck, hands)
            prior = 0
            for s in range(seat):
                bids[s] = bot_bid(bidders[s], bot, min_bids, table_mins, hands[s], s, scores, prior)
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
                total = bot_bids(
                    bidders, bot, min_bids, table_mins, hands, scores, bids, seat + 1, prior + bid
                )
                if total < tmin:
                    tricks_out[k, j] = DEAD
                    continue
                play_deal(hands, bids, policies, tricks)
                tricks_out[k, j] = tricks[seat]
    return hands_out, prior_out, tricks_out
