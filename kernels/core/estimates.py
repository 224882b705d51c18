"""Trick estimates binned in quarter tricks: the look-up rows of the bidders' fitted trick
distributions (400's EV bidder and Tarneeb's), P(tricks >= k) for each bin."""

import numpy as np

from kernels.config import jit

hot = jit(forceinline=True)

#: Bins of the estimate: 0, 0.25, .. 13 tricks.
N_BINS = 53
BINS_PER_TRICK = 4


@hot
def estimate_bin(est):
    b = np.int64(est * BINS_PER_TRICK + 0.5)
    if b < 0:
        return 0
    if b >= N_BINS:
        return N_BINS - 1
    return b
