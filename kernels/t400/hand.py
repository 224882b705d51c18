"""One hand of 400 as every bulk kernel runs it: the bots' bids and the play of a live hand.

Shared by the rollout, match, guide and equity kernels (so that none of them restates it).
``kit`` is the lineup's :class:`~kernels.core.kit.Kit` (which bidder and policy, when every seat
uses the same one).
"""

from kernels.config import jit
from kernels.core.kit import bid_kit
from kernels.policies.play import play_deal
from kernels.t400.bidder import bot_bid
from kernels.t400.rules import LEADER, TRUMP

hot = jit(forceinline=True)


@jit(inline="always")  # a wrapper: inlined before typing, so it is not one more unit to compile
def bot_bids(rules, bidders, kit, bot, hands, scores, bids, first_seat, prior):
    """Bids for seats ``first_seat``..3 by their bots, written into ``bids``; returns the total."""
    return bids_by_bots(rules, bidders, bid_kit(kit), bot, hands, scores, bids, first_seat, prior)


@hot
def bids_by_bots(rules, bidders, kit, bot, hands, scores, bids, first_seat, prior):
    """:func:`bot_bids` for the kit's bidding part (:meth:`~kernels.core.kit.Kit.bid_part`):
    lineups that differ only in their players share its compile."""
    for s in range(first_seat, 4):
        b = bot_bid(rules, kit, bidders[s], bot, hands[s], s, scores, prior)
        bids[s] = b
        prior += b
    return prior


@jit(inline="always")  # a wrapper: inlined before typing, so it is not one more unit to compile
def play_400(rules, hands, bids, policies, kit, tricks):
    """Play a live 400 hand out: seat 1 leads, the variant's trump; tricks per seat into ``tricks``."""
    play_deal(hands, bids, policies, kit, rules[LEADER], rules[TRUMP], tricks)
