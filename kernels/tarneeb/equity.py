"""Tarneeb match equity: what the bots' hands score, and the chance to win the match from any
pair of team totals.

The bots' calls and play do not look at the scores, so every hand's outcome (each team's points)
has one distribution, whatever the totals; the equity of a state is then the solution of a
linear system over the totals, solved here by Gauss-Seidel sweeps (:func:`iterate_equity`).
"""

import numpy as np
from numba import prange

from kernels.config import JIT, PJIT
from kernels.core.deal import deal_full, new_deck
from kernels.core.rng import stream
from kernels.policies.play import check_policies
from kernels.tarneeb import rules as kr
from kernels.tarneeb.hand import R_DELTA, R_REDEAL, R_SIZE, check_bidders, play_one_hand


@PJIT
def hand_points(seed, first_chunk, n_chunks, chunk_size, rules, bidders, policies, kit, model):
    """``n_chunks * chunk_size`` random deals (chunk ``c`` from ``stream(seed, first_chunk +
    c)``) bid and played by the bots (bidders, policies: int64[4] by seat; kit: the policies'
    :class:`~kernels.core.kit.Kit`).

    Returns int64[n, 3]: the re-deal code (``kernels.tarneeb.hand.R_REDEAL``), the points of
    seats 1+3 and of seats 2+4 in the hand."""
    check_bidders(bidders)
    check_policies(policies, kit)
    n = n_chunks * chunk_size
    out = np.empty((n, 3), dtype=np.int64)
    for c in prange(n_chunks):
        state = stream(seed, first_chunk + c)
        deck = new_deck()
        hands = np.empty(4, dtype=np.uint64)
        auction = np.empty(kr.ST_SIZE, dtype=np.int64)
        res = np.empty(R_SIZE, dtype=np.int64)
        contexts = np.empty((4, 2), dtype=np.int64)
        for j in range(chunk_size):
            i = c * chunk_size + j
            deal_full(state, deck, hands)
            play_one_hand(rules, hands, bidders, policies, kit, auction, res, model, contexts)
            out[i, 0] = res[R_REDEAL]
            out[i, 1] = res[R_DELTA]
            out[i, 2] = res[R_DELTA + 1]
    return out


@JIT
def iterate_equity(values, terminal, index, weight, tol, max_sweeps):
    """Solve ``values[s] = terminal[s] + sum_j weight[s, j] * (1 - values[index[s, j]])`` in place
    (``index`` -1: no term) by Gauss-Seidel sweeps until no value moves by more than ``tol``.

    values, terminal: float64[S]; index: int64[S, J]; weight: float64[S, J]. Returns the sweeps
    made (``max_sweeps + 1`` when it did not converge)."""
    for sweep in range(max_sweeps):
        moved = 0.0
        for s in range(values.shape[0]):
            v = terminal[s]
            for j in range(index.shape[1]):
                k = index[s, j]
                if k >= 0:
                    v += weight[s, j] * (1.0 - values[k])
            moved = max(moved, abs(v - values[s]))
            values[s] = v
        if moved <= tol:
            return sweep + 1
    return max_sweeps + 1
