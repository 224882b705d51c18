"""One hand of 400 as every bulk kernel runs it: the bots' bids and the play of a live hand.

Shared by the rollout, match, guide and equity kernels (so that none of them restates it).
"""

from kernels.config import jit
from kernels.policies.play import play_deal, play_deal_fast
from kernels.t400.bidder import bot_bid
from kernels.t400.rules import LEADER, TRUMP

hot = jit(forceinline=True)


@hot
def bot_bids(rules, bidders, bot, hands, scores, bids, first_seat, prior):
    """Bids for seats ``first_seat``..3 by their bots, written into ``bids``; returns the total."""
    for s in range(first_seat, 4):
        b = bot_bid(rules, bidders[s], bot, hands[s], s, scores, prior)
        bids[s] = b
        prior += b
    return prior


@hot
def play_400(rules, hands, bids, policies, tricks):
    """Play a live 400 hand out: seat 1 leads, the variant's trump; tricks per seat into ``tricks``
    (bulk simulation: all-greedy tables take the greedy-compiled loop)."""
    play_deal_fast(hands, bids, policies, rules[LEADER], rules[TRUMP], tricks)


@hot
def play_400_query(rules, hands, bids, policies, tricks):
    """:func:`play_400` for the bid query's rollout, which compiles one trick loop only (the
    first ``t400 bid`` waits for that compile)."""
    play_deal(hands, bids, policies, rules[LEADER], rules[TRUMP], tricks)
