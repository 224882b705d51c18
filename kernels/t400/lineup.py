"""Who plays: the bot configuration the 400 kernels take beside the rules.

``lineup`` is int64[2, 4]: row :data:`BIDDERS` holds each seat's (or, in matches, each
player's) bidder id (:mod:`kernels.t400.bidder`), row :data:`POLICIES` its card-play policy id
(:mod:`kernels.policies.play`). Every kernel that takes a lineup takes its kit too
(:func:`lineup_kit`: the bidder and the policy when all four share one, else the ones the seats
use, decided while compiling, see :mod:`kernels.core.kit`) and checks both first (:func:`check_lineup`), so an unknown id is an
error, never a silent default.
"""

import numpy as np

from kernels.config import JIT
from kernels.core.kit import Kit, kit_of
from kernels.policies.play import check_policies
from kernels.t400.bidder import check_bidders

BIDDERS = 0
POLICIES = 1


def make_lineup(bidders, policies):
    """int64[2, 4] from four bidder ids and four policy ids."""
    return np.array([list(bidders), list(policies)], dtype=np.int64)


def lineup_kit(lineup, more_bidders=()) -> Kit:
    """The kit of ``lineup`` (int64[2, 4]): its shared bidder and policy, or ``MIXED`` and the
    ids its seats use (and the bidder ids ``more_bidders``: a kernel shared by several lineups)."""
    lineup = np.asarray(lineup)
    return kit_of(policies=lineup[POLICIES], bidders=[*lineup[BIDDERS], *more_bidders])


@JIT
def check_lineup(lineup, kit):
    """Raise ``ValueError`` for a lineup of the wrong shape, with an unknown id, or whose kit
    is not its own."""
    if lineup.shape[0] != 2 or lineup.shape[1] != 4:
        raise ValueError("a lineup is int64[2, 4]: bidders, then policies")
    check_bidders(lineup[BIDDERS], kit)
    check_policies(lineup[POLICIES], kit)
