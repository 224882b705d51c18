"""One hand of classic or Egyptian Tarneeb as the bulk kernels run it: the worthless-hand check,
the bots' auction, the declarer's trump, the team play and the settlement.

Hands are uint64[4] in seat order (seat index 0 speaks first, index 3 deals); calls, codes and
the auction state are those of :mod:`kernels.tarneeb.rules`; ``model`` is the EV bidder's fitted
array (:mod:`kernels.tarneeb.bidder`; any array when no seat uses it). A hand's outcome goes to an int64
``res`` array (the ``R_`` offsets below). Bidders are numbered (:data:`BIDDER_NAMES`); an unknown
id is an error (:func:`check_bidders`).
"""

import numpy as np
from numba import prange

from kernels.config import JIT, PJIT, jit
from kernels.core.deal import deal_full, new_deck
from kernels.core.kit import Kit, play_kit
from kernels.core.rng import stream
from kernels.policies.play import TEAM, play_tricks
from kernels.policies.team import DECLARING_BIT, TRUMP_LEAD_BIT
from kernels.tarneeb import rules as kr
from kernels.tarneeb.bidder import (
    auction_context,
    best_strain,
    counting_call,
    ev_call,
    trump_index,
    trump_suit,
)

hot = jit(forceinline=True)

COUNTING = 0
EV = 1
BIDDER_NAMES = ("counting", "ev")
N_BIDDERS = len(BIDDER_NAMES)

#: More calls than any auction can take (217: three passes, then at most 7 * 5 bids, each
#: followed by at most two passes, a double and two passes, and the closing pass).
MAX_CALLS = 256

# why a deal is not played
PLAYED = 0
REDEAL_PASSED = 1  # every player passed (the variant re-deals)
REDEAL_WORTHLESS = 2  # a player with a worthless hand asked for a new deal

# a hand's outcome
R_REDEAL = 0  # PLAYED, REDEAL_PASSED or REDEAL_WORTHLESS
R_CONTRACT = 1  # the contract's call code
R_DECLARER = 2  # seat index
R_DOUBLED = 3
R_TRUMP = 4  # trump index (0..3 suits, 4 no trump)
R_TRICKS = 5  # the declaring team's tricks
R_CALLS = 6  # calls made in the auction
R_FORCED = 7  # 1 when the dealer had to bid after three passes
R_DELTA = 8  # [2] points of the seats 1+3 and 2+4 teams
R_TAKEN = 10  # [4] tricks by seat
R_SIZE = 14


@JIT
def check_bidders(bidders):
    """Raise ``ValueError`` if any id of ``bidders`` (int64 array) is not a known Tarneeb bidder."""
    for b in bidders:
        if b < 0 or b >= N_BIDDERS:
            raise ValueError("unknown Tarneeb bidder id")


@JIT  # not inlined: the auction code is linked once into each kernel, not copied per call site
def bot_call(bidder, rules, state, hand, model):
    """The call of the seat to speak, by its bidder."""
    if bidder == EV:
        return ev_call(rules, state, hand, model)
    return counting_call(rules, state, hand)


@hot
def bot_trump(bidder, rules, hand, contract, model):
    """The trump the declarer plays in: the contract's strain in the strain auction, else the
    bidder's choice after a number auction (EV: the strain worth most at the contract's level)."""
    if rules[kr.AUCTION] == kr.AUCTION_STRAIN:
        return trump_index(kr.strain_of(contract))
    if bidder == EV:
        return best_strain(rules, model, hand, kr.level_of(contract), 0, 0)[0]
    return trump_suit(hand)


@hot
def bots_auction(rules, hands, bidders, state, model, contexts):
    """The auction by the seats' bidders (int64[4]) into ``state``; returns whether the dealer was
    forced to bid. ``contexts`` (int64[4, 2]) receives each seat's auction context at its first
    call (partner's standing level, an opponent's; -1 for a seat that never called)."""
    kr.auction_start(state)
    for s in range(4):
        contexts[s, 0] = -1
        contexts[s, 1] = -1
    forced = False
    for _ in range(MAX_CALLS):
        seat = kr.next_seat(rules, state)
        if seat < 0:
            return forced
        if contexts[seat, 0] < 0:
            contexts[seat, 0], contexts[seat, 1] = auction_context(state, seat)
        call = bot_call(bidders[seat], rules, state, hands[seat], model)
        if not kr.call_legal(rules, state, call):
            raise ValueError("a Tarneeb bot made an illegal call")
        forced = forced or kr.must_bid(rules, state, seat)
        kr.auction_call(rules, state, call)
    raise ValueError("a Tarneeb auction did not end")


@hot
def any_worthless(hands):
    for s in range(4):
        if kr.is_worthless(hands[s]):
            return True
    return False


@hot
def team_bids(rules, contract, declarer):
    """The trick loop's "bids" for a team contract: each seat's side target (the contract, or
    the tricks that set it), the declarer's byte flagged when the opening lead must be a trump
    (see :mod:`kernels.policies.team`)."""
    level = kr.level_of(contract)
    packed = 0
    for s in range(4):
        target = (level | DECLARING_BIT) if (s & 1) == (declarer & 1) else kr.TRICKS + 1 - level
        if s == declarer and rules[kr.TRUMP_LEAD]:
            target |= TRUMP_LEAD_BIT
        packed |= target << (8 * s)
    return packed


@jit(inline="always")  # a wrapper: inlined before typing (the trick loop it calls is linked once)
def play_contract(rules, hands, policies, kit, contract, declarer, trump, taken):
    """Play the contract out (the declarer leads); tricks by seat into ``taken``; returns the
    declaring team's tricks."""
    b = team_bids(rules, contract, declarer)
    packed = play_tricks(
        hands[0], hands[1], hands[2], hands[3], b & 255, (b >> 8) & 255, (b >> 16) & 255, (b >> 24) & 255,
        policies[0], policies[1], policies[2], policies[3], play_kit(kit), declarer, trump,
    )  # fmt: skip
    for s in range(4):
        taken[s] = (packed >> (8 * s)) & 255
    return taken[declarer] + taken[declarer ^ 2]


@jit
def play_one_hand(rules, hands, bidders, policies, kit, state, res, model, contexts):
    """One deal from the worthless-hand check to the settlement (bidders and policies: int64[4]
    by seat); the outcome into ``res`` (int64[R_SIZE]), the auction contexts into ``contexts``
    (see :func:`bots_auction`)."""
    for i in range(R_SIZE):
        res[i] = 0
    if rules[kr.WORTHLESS_REDEAL] and any_worthless(hands):
        res[R_REDEAL] = REDEAL_WORTHLESS
        return
    res[R_FORCED] = 1 if bots_auction(rules, hands, bidders, state, model, contexts) else 0
    res[R_CALLS] = state[kr.ST_CALLS]
    if state[kr.ST_REDEAL]:
        res[R_REDEAL] = REDEAL_PASSED
        return
    contract = state[kr.ST_HIGH]
    declarer = state[kr.ST_HIGH_SEAT]
    doubled = state[kr.ST_DOUBLED] == 1
    trump = bot_trump(bidders[declarer], rules, hands[declarer], contract, model)
    taken = res[R_TAKEN : R_TAKEN + 4]
    tricks = play_contract(rules, hands, policies, kit, contract, declarer, trump, taken)
    level = kr.level_of(contract)
    res[R_CONTRACT] = contract
    res[R_DECLARER] = declarer
    res[R_DOUBLED] = 1 if doubled else 0
    res[R_TRUMP] = trump
    res[R_TRICKS] = tricks
    res[R_DELTA + (declarer & 1)] = kr.declarer_points(rules, level, tricks, doubled)
    res[R_DELTA + 1 - (declarer & 1)] = kr.defender_points(rules, level, tricks)


@JIT
def hands_outcomes(rules, deals, bidders, policies, kit, out, model):
    """:func:`play_one_hand` for each deal of ``deals`` (uint64[n, 4]) into ``out`` (int64[n, R_SIZE])."""
    check_bidders(bidders)
    state = np.empty(kr.ST_SIZE, dtype=np.int64)
    contexts = np.empty((4, 2), dtype=np.int64)
    for i in range(deals.shape[0]):
        play_one_hand(rules, deals[i], bidders, policies, kit, state, out[i], model, contexts)


#: The training plays' kit: every seat plays ``team``.
TEAM_KIT = Kit(policy=TEAM)

#: The contract level of the training plays (the team policy's target: 8 tricks, 6 to set).
TRAINING_LEVEL = 8


@PJIT
def training_deals(seed, first_chunk, n_chunks, chunk_size, rules, bidders, model):
    """What the EV bidder's fit learns from: ``n_chunks * chunk_size`` deals (chunk ``c`` from
    ``stream(seed, first_chunk + c)``), each played out 20 times, every seat declaring in every
    strain (team play, the declarer leads, a contract of :data:`TRAINING_LEVEL`), and once as the
    bots (``bidders``, int64[4] by seat) bid it.

    Returns (hands uint64[n, 4]; tricks int64[n, 4, 5]: the declaring team's tricks by declarer
    seat and strain; contexts int64[n, 4, 2]: each seat's auction context at its first call, -1
    if it never called; outcome int64[n, R_SIZE]: the bots' hand, :func:`play_one_hand`).
    """
    check_bidders(bidders)
    n = n_chunks * chunk_size
    hands_out = np.empty((n, 4), dtype=np.uint64)
    tricks_out = np.empty((n, 4, 5), dtype=np.int64)
    contexts_out = np.empty((n, 4, 2), dtype=np.int64)
    outcomes = np.empty((n, R_SIZE), dtype=np.int64)
    policies = np.full(4, TEAM, dtype=np.int64)
    for c in prange(n_chunks):
        state = stream(seed, first_chunk + c)
        deck = new_deck()
        hands = np.empty(4, dtype=np.uint64)
        auction = np.empty(kr.ST_SIZE, dtype=np.int64)
        taken = np.empty(4, dtype=np.int64)
        for j in range(chunk_size):
            i = c * chunk_size + j
            deal_full(state, deck, hands)
            for s in range(4):
                hands_out[i, s] = hands[s]
                for strain in range(5):
                    tricks_out[i, s, strain] = play_contract(
                        rules,
                        hands,
                        policies,
                        TEAM_KIT,
                        kr.bid_code(TRAINING_LEVEL, kr.NO_STRAIN),
                        s,
                        strain,
                        taken,
                    )
            play_one_hand(
                rules, hands, bidders, policies, TEAM_KIT, auction, outcomes[i], model, contexts_out[i]
            )
    return hands_out, tricks_out, contexts_out, outcomes
