"""The ``basic`` policy (the first ``standard``, kept for comparison): bid-aware play from what
the player can know.

Players who need tricks try to win them; players who have made their bid help their partner
and try to set opponents who still need tricks; a partner's safe winner is not overtaken
(unless the partner is done and the trick is mine for the taking); sure winners are cashed,
master trumps draw trumps, partner's ruffs are given, ruffs are taken low, discards come from
the lowest side cards and keep masters; second hand plays low, third hand high.

The state it sees is packed into scalars (see :mod:`kernels.policies.play`).
"""

import numpy as np

from kernels.config import JIT, jit
from kernels.core.cards import FULL_DECK, above, highest_bit, lane, lowest_bit, popcount
from kernels.core.tricks import legal_moves, winning_cards
from kernels.policies import common as pc

U64 = np.uint64
hot = jit(forceinline=True)


@JIT
def discard(hand, trump, unseen):
    """The card to throw when neither following nor trumping: the lowest side card (from the
    shorter suit on ties), keeping masters and trumps while there is anything else."""
    best = -1
    best_key = 1 << 30
    for s in range(4):
        if s == trump:
            continue
        cs = hand & lane(s)
        if cs == 0:
            continue
        c = lowest_bit(cs)
        key = (c & 15) * 16 + popcount(cs)
        if (unseen & above(c)) == 0:
            key += 1024  # a master: keep it
        if key < best_key:
            best_key = key
            best = c
    if best < 0:
        best = lowest_bit(hand)
    return best


@hot
def _basic_follow(seat, hand, played, voids, need, leader, n_played, led, best, best_pos, trump):
    legal = legal_moves(hand, n_played, led)
    led_cards = hand & lane(led)
    unseen = FULL_DECK & ~(hand | played)
    best_seat = (leader + best_pos) & 3
    partner = seat ^ 2
    wins = winning_cards(legal, best, led, trump)
    me_need = pc.needs(need, seat)
    partner_need = pc.needs(need, partner)
    last = n_played == 3

    if best_seat == partner and not pc.beatable(best, led, trump, seat, leader, n_played, unseen, voids):
        # Partner has the trick: don't overtake, unless partner has made their bid, I still
        # need tricks, and as the last player I can take it for myself.
        if wins and last and me_need and not partner_need:
            return lowest_bit(wins)
        return lowest_bit(led_cards) if led_cards else discard(hand, trump, unseen)

    want = pc.wants_trick(need, seat, best_seat, leader, n_played)

    if wins and want:
        c = pc.winner_to_play(wins, led_cards, led, trump, seat, leader, n_played, unseen, voids)
        if c >= 0:
            return c
    if led_cards:
        return lowest_bit(led_cards)
    return discard(hand, trump, unseen)


@JIT
def _basic_lead(seat, hand, played, voids, need, trump):
    unseen = FULL_DECK & ~(hand | played)
    partner = seat ^ 2
    opp1 = seat ^ 1
    opp2 = seat ^ 3
    team_need = pc.needs(need, seat) or pc.needs(need, partner)
    if not (team_need or pc.needs(need, opp1) or pc.needs(need, opp2)):
        return discard(hand, trump, unseen)
    trump_lane = lane(trump)
    my_trumps = hand & trump_lane
    unseen_trumps = unseen & trump_lane

    # Draw trumps with a master trump while the others still hold some.
    if my_trumps and unseen_trumps:
        top = highest_bit(my_trumps)
        if (unseen & above(top)) == 0 and popcount(my_trumps) >= 2:
            return top

    # Cash the side-suit master that the opponents are least likely to ruff.
    cash = pc.safe_master(hand, trump, unseen, voids, seat)
    if cash >= 0:
        return cash

    # No trumps left out: every trump is a winner.
    if my_trumps and not unseen_trumps:
        return highest_bit(my_trumps)

    # Give partner a ruff: a suit partner has shown out of while maybe holding trumps.
    if team_need and unseen_trumps and not pc.void_known(voids, partner, trump, unseen):
        for s in range(4):
            if s != trump and (hand & lane(s)) and pc.shown_void(voids, partner, s):
                return lowest_bit(hand & lane(s))

    # Lead low from a side suit: short suits while holding trumps (to ruff later), never away
    # from a guarded honour that waits to be led through.
    return pc.passive_lead(hand, trump, unseen, my_trumps)


@hot
def basic_card(seat, hand, played, voids, need, leader, n_played, led, best, best_pos, trump):
    if n_played == 0:
        return _basic_lead(seat, hand, played, voids, need, trump)
    return _basic_follow(seat, hand, played, voids, need, leader, n_played, led, best, best_pos, trump)
