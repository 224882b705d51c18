"""Tarneeb bot bidders in the kernels: twins of :mod:`analyzer.games.tarneeb.bidders`
(``tests/test_tarneeb_kernels.py`` checks them call by call).

Hands are uint64 in the layout of :mod:`kernels.core.cards`; calls and the auction state are
those of :mod:`kernels.tarneeb.rules`.
"""

import numpy as np

from kernels.config import jit
from kernels.core.cards import LANE, SUIT_BITS, popcount
from kernels.core.estimates import N_BINS, estimate_bin
from kernels.tarneeb import rules as kr

hot = jit(forceinline=True)
U64 = np.uint64

#: Tricks expected from partner, in halves (2.5).
PARTNER_HALVES = 5


@hot
def _suit(hand, suit):
    return (hand >> U64(LANE * suit)) & SUIT_BITS


@hot
def trump_suit(hand):
    """Twin of ``trump_suit``: the longest suit, then the most high-card points, then the higher."""
    best = 0
    best_key = -1
    for suit in range(4):
        cards = _suit(hand, suit)
        hcp = 0
        for k in range(4):  # ace 4, king 3, queen 2, jack 1
            if (cards >> U64(12 - k)) & U64(1):
                hcp += 4 - k
        key = popcount(cards) * 64 + hcp
        if key > best_key:  # ties keep the earlier, higher suit
            best_key = key
            best = suit
    return best


@hot
def sure_tricks(hand, trump):
    """Twin of ``sure_tricks``: aces, protected kings, and the trumps beyond the third."""
    tricks = 0
    for suit in range(4):
        cards = _suit(hand, suit)
        if (cards >> U64(12)) & U64(1):
            tricks += 1
        if (cards >> U64(11)) & U64(1) and popcount(cards) >= 2:
            tricks += 1
    return tricks + max(0, popcount(_suit(hand, trump)) - 3)


@hot
def team_estimate(hand):
    """Twin of ``team_estimate``: the whole part of sure tricks plus partner's 2.5."""
    return (2 * sure_tricks(hand, trump_suit(hand)) + PARTNER_HALVES) // 2


@jit
def counting_call(rules, state, hand):
    """Twin of ``counting_call``: the counting bot's call (a code of kernels.tarneeb.rules) for
    the seat to speak in the auction ``state``."""
    seat = kr.next_seat(rules, state)
    strain = kr.NO_STRAIN
    if rules[kr.AUCTION] == kr.AUCTION_STRAIN:
        strain = 3 - trump_suit(hand)  # the Egyptian rank of the suit: clubs 0 .. spades 3
    if not kr.call_legal(rules, state, kr.PASS):
        for level in range(kr.MIN_BID, kr.MAX_BID + 1):
            code = kr.bid_code(level, strain)
            if kr.call_legal(rules, state, code):
                return code
    if state[kr.ST_HIGH_SEAT] >= 0 and (state[kr.ST_HIGH_SEAT] & 1) == (seat & 1):
        return kr.PASS
    estimate = min(team_estimate(hand), kr.MAX_BID)
    for level in range(kr.MIN_BID, estimate + 1):
        code = kr.bid_code(level, strain)
        if kr.call_legal(rules, state, code):
            return code
    return kr.PASS


@jit
def counting_calls(rules, states, hands, out):
    """counting_call for each row of ``states`` (int64[n, ST_SIZE]) and ``hands`` (uint64[n])."""
    for i in range(hands.shape[0]):
        out[i] = counting_call(rules, states[i], hands[i])


@jit
def counting_trump(hand):
    """trump_suit for one hand (for tests and Python callers)."""
    return trump_suit(hand)


@jit
def counting_sure(hand, trump):
    return sure_tricks(hand, trump)


@jit
def counting_team(hand):
    return team_estimate(hand)


# -- the EV bidder -------------------------------------------------------------------------------
#
# The model (a float64 array, made by ``t400 fit-bidder --game tarneeb``):
# * ``SUIT_COEF`` / ``NT_COEF``: N_FEATURES coefficients each, the expected tricks of the
#   bidder's team declaring in a suit / in no trump, linear in :func:`features`;
# * ``CUM``: [N_BINS x 15] P(team tricks >= k) around each estimate (quarter-trick bins);
# * ``LEVEL_CUM``: [7 x 15] P(declaring team tricks >= k) for the bots' contracts of each level
#   7..13 (what a contract standing in the auction is worth to its side);
# * ``DEF_COEF`` / ``DEF_CUM``: the defenders' side of the same: the expected tricks of the
#   bidder's team defending a contract in a known strain (:func:`features` with the trump as the
#   key suit and the contract as an opponent's standing bid), and the distribution around it;
# * ``DEFN_COEF`` / ``DEFN_CUM``: the same when the strain is not yet known (an opponent's
#   standing bid in the number auction): the key suit is the bidder's own longest suit, as in
#   no trump.

N_FEATURES = 16
SUIT_COEF = 0
NT_COEF = N_FEATURES
CUM = 2 * N_FEATURES
LEVEL_CUM = CUM + N_BINS * 15
DEF_COEF = LEVEL_CUM + 7 * 15
DEF_CUM = DEF_COEF + N_FEATURES
DEFN_COEF = DEF_CUM + N_BINS * 15
DEFN_CUM = DEFN_COEF + N_FEATURES
MODEL_SIZE = DEFN_CUM + N_BINS * 15
NO_TRUMP = 4


@hot
def features(hand, strain, partner_level, opponent_level):
    """The trick model's inputs (a 16-tuple of float64) for declaring in ``strain`` (0..3 a suit,
    4 no trump) with ``hand``: the key suit (the trump, or in no trump the counting bot's longest
    suit) by length and its ace, king and queen; side aces, kings with a second card, queens with
    two more; side voids and singletons; the longest side suit; high-card points; and the auction
    so far: the standing bid partner's at 7 or at 8+, or an opponent's at 7 or at 8+."""
    key = trump_suit(hand) if strain == NO_TRUMP else strain
    cards = _suit(hand, key)
    side_aces = side_kings = side_queens = voids = singles = longest = hcp = 0
    for suit in range(4):
        cs = _suit(hand, suit)
        n = popcount(cs)
        for k in range(4):
            if _has(cs, 12 - k):
                hcp += 4 - k
        if suit == key:
            continue
        side_aces += _has(cs, 12)
        side_kings += _has(cs, 11) and n >= 2
        side_queens += _has(cs, 10) and n >= 3
        voids += n == 0
        singles += n == 1
        longest = max(longest, n)
    return (
        1.0, float(popcount(cards)), _one(_has(cards, 12)), _one(_has(cards, 11)), _one(_has(cards, 10)),
        float(side_aces), float(side_kings), float(side_queens), float(voids), float(singles), float(longest),
        float(hcp), _one(partner_level == kr.MIN_BID), _one(partner_level > kr.MIN_BID),
        _one(opponent_level == kr.MIN_BID), _one(opponent_level > kr.MIN_BID),
    )  # fmt: skip


@hot
def _has(cards, rank):
    """Whether ``cards`` (one suit's 13 bits) hold ``rank`` (0 the two .. 12 the ace): 1 or 0."""
    return np.int64((cards >> U64(rank)) & U64(1))


@hot
def _one(flag):
    return 1.0 if flag else 0.0


@hot
def team_estimate_ev(model, hand, strain, partner_level, opponent_level):
    """Expected tricks of the bidder's team declaring in ``strain``."""
    f = features(hand, strain, partner_level, opponent_level)
    base = NT_COEF if strain == NO_TRUMP else SUIT_COEF
    est = 0.0
    for i in range(N_FEATURES):
        est += model[base + i] * f[i]
    return est


@hot
def contract_value(rules, model, at, level, doubled):
    """Expected net points of ``level`` for the declarers under the distribution P(declarers'
    tricks >= k) at ``model[at:]``."""
    value = 0.0
    for k in range(kr.TRICKS + 1):
        p = model[at + k] - model[at + k + 1] if k < kr.TRICKS else model[at + k]
        value += p * kr.net_points(rules, level, k, doubled)
    return value


@jit
def defence_value(rules, model, hand, contract, doubled):
    """Expected net points of the opponents' ``contract`` for them, from the distribution of the
    bidder's team's tricks defending it: in the strain auction with that strain as the key suit
    (``DEF_COEF``), in the number auction, the trump still unknown, with ``DEFN_COEF``."""
    level = kr.level_of(contract)
    strain = kr.strain_of(contract)
    coef, cum = DEF_COEF, DEF_CUM
    if strain == kr.NO_STRAIN:
        coef, cum = DEFN_COEF, DEFN_CUM
    f = features(hand, NO_TRUMP if strain == kr.NO_STRAIN else trump_index(strain), 0, level)
    est = 0.0
    for i in range(N_FEATURES):
        est += model[coef + i] * f[i]
    at = cum + estimate_bin(est) * 15
    value = 0.0
    for k in range(kr.TRICKS + 1):  # k: the defenders' tricks
        p = model[at + k] - model[at + k + 1] if k < kr.TRICKS else model[at + k]
        value += p * kr.net_points(rules, level, kr.TRICKS - k, doubled)
    return value


@hot
def trump_index(strain_rank):
    """The kernels' trump index (0 spades .. 3 clubs, 4 no trump) of an Egyptian strain rank."""
    return NO_TRUMP if strain_rank == kr.N_STRAIN_RANKS - 1 else 3 - strain_rank


@hot
def bid_value(rules, model, hand, level, strain, partner_level, opponent_level):
    """Expected net points for the team if the bidder declared ``level`` in ``strain``."""
    est = team_estimate_ev(model, hand, strain, partner_level, opponent_level)
    return contract_value(rules, model, CUM + estimate_bin(est) * 15, level, False)


@hot
def auction_context(state, seat):
    """(partner's standing level, an opponent's standing level): 0 when not theirs."""
    high = state[kr.ST_HIGH]
    if high == kr.PASS:
        return 0, 0
    level = kr.level_of(high)
    if (state[kr.ST_HIGH_SEAT] & 1) == (seat & 1):
        return level, 0
    return 0, level


@jit
def best_strain(rules, model, hand, level, partner_level, opponent_level):
    """(strain, value): the strain the bidder would declare ``level`` in (no trump where allowed)."""
    best = 0
    best_value = -1e300
    last = NO_TRUMP if rules[kr.NO_TRUMP] else NO_TRUMP - 1
    for strain in range(last + 1):
        v = bid_value(rules, model, hand, level, strain, partner_level, opponent_level)
        if v > best_value + 1e-12:
            best_value = v
            best = strain
    return best, best_value


@jit
def ev_call(rules, state, hand, model):
    """The EV bot's call: the legal call with the highest expected net points for its team if
    the auction ended with it. Passing is worth the standing contract's value to its side: for
    partner's, the bots' contracts of that level (``LEVEL_CUM``); for an opponent's, the defence
    model's view from this hand (:func:`defence_value`), which also values a double (the
    declarers' result doubled). No standing bid: 0. A bid is worth the trick model's distribution in the strain
    (Egyptian: the bid's; number auction: the best) scored by the variant."""
    seat = kr.next_seat(rules, state)
    partner_level, opponent_level = auction_context(state, seat)
    high = state[kr.ST_HIGH]
    doubled = state[kr.ST_DOUBLED] == 1
    best_call = kr.PASS
    best_value = -1e300
    if kr.call_legal(rules, state, kr.PASS):
        best_value = 0.0
        if partner_level:
            at = LEVEL_CUM + (partner_level - kr.MIN_BID) * 15
            best_value = contract_value(rules, model, at, partner_level, doubled)
        elif opponent_level:
            best_value = -defence_value(rules, model, hand, high, doubled)
    if kr.call_legal(rules, state, kr.DOUBLE):
        v = -defence_value(rules, model, hand, high, True)
        if v > best_value + 1e-12:
            best_value = v
            best_call = kr.DOUBLE
    strain_auction = rules[kr.AUCTION] == kr.AUCTION_STRAIN
    for level in range(kr.MIN_BID, kr.MAX_BID + 1):
        if strain_auction:
            for rank in range(kr.N_STRAIN_RANKS):  # clubs .. spades, no trump: the order of the codes
                strain = NO_TRUMP if rank == kr.N_STRAIN_RANKS - 1 else 3 - rank
                code = kr.bid_code(level, rank)
                if kr.call_legal(rules, state, code):
                    v = bid_value(rules, model, hand, level, strain, partner_level, opponent_level)
                    if v > best_value + 1e-12:
                        best_value = v
                        best_call = code
        else:
            code = kr.bid_code(level, kr.NO_STRAIN)
            if kr.call_legal(rules, state, code):
                v = best_strain(rules, model, hand, level, partner_level, opponent_level)[1]
                if v > best_value + 1e-12:
                    best_value = v
                    best_call = code
    return best_call


@jit
def ev_calls(rules, states, hands, model, out):
    """ev_call for each row of ``states`` (int64[n, ST_SIZE]) and ``hands`` (uint64[n])."""
    for i in range(hands.shape[0]):
        out[i] = ev_call(rules, states[i], hands[i], model)


@jit
def ev_values(rules, model, hands, strains, partner_levels, opponent_levels, out):
    """team_estimate_ev for each row (hands uint64[n], the rest int64[n]) into ``out`` (float64[n])."""
    for i in range(hands.shape[0]):
        out[i] = team_estimate_ev(model, hands[i], strains[i], partner_levels[i], opponent_levels[i])


@jit
def feature_rows(hands, strains, partner_levels, opponent_levels, out):
    """features for each row into ``out`` (float64[n, N_FEATURES]) (the fit's design matrix)."""
    for i in range(hands.shape[0]):
        f = features(hands[i], strains[i], partner_levels[i], opponent_levels[i])
        for j in range(N_FEATURES):
            out[i, j] = f[j]
