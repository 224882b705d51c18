"""What the planning policies (``basic`` and ``standard``) share: what a player knows from the
public play (whether a seat still needs tricks, the voids it has shown, whether an opponent still
to play could beat a card, judged from the unseen cards and the voids shown, never from hidden
hands), and the plays both make alike (the safe master to cash, the passive lead, the masters
that win from the top)."""

import numpy as np

from kernels.config import JIT, jit
from kernels.core.cards import above, highest_bit, lane, lowest_bit, popcount

U64 = np.uint64
_ONE = U64(1)
hot = jit(forceinline=True)


@hot
def needs(need, seat):
    return (need >> seat) & 1 == 1


@hot
def shown_void(voids, seat, suit):
    return (voids >> (4 * seat + suit)) & 1 == 1


@hot
def void_known(voids, seat, suit, unseen):
    """Whether ``seat`` surely holds no card of ``suit``: shown out, or none left unseen."""
    if suit > 3:
        return True
    return shown_void(voids, seat, suit) or (unseen & lane(suit)) == 0


@JIT
def beatable(card, led, trump, seat, leader, n_played, unseen, voids):
    """Whether an opponent of ``seat`` still to play to this trick could beat ``card``.

    ``card`` would be winning after ``seat`` plays. Judged from what ``seat`` knows: the unseen
    cards and the voids shown (a void not yet shown is not assumed).
    """
    suit = card >> 4
    higher = unseen & above(card)
    unseen_trumps = unseen & lane(trump)
    for k in range(n_played + 1, 4):
        q = (leader + k) & 3
        if q == (seat ^ 2):
            continue
        q_void_led = void_known(voids, q, led, unseen)
        if suit == led:
            if higher and not q_void_led:
                return True
            if suit != trump and q_void_led and unseen_trumps and not void_known(voids, q, trump, unseen):
                return True
        elif higher and q_void_led and not void_known(voids, q, trump, unseen):
            return True  # an overruff
    return False


@hot
def safe_master(hand, trump, unseen, voids, seat):
    """The side-suit master to cash: of the suits no opponent is known to ruff, the one with the
    most unseen cards (the likeliest to be followed); -1 if none."""
    unseen_trumps = unseen & lane(trump)
    cash = -1
    cash_key = -1
    for s in range(4):
        if s == trump:
            continue
        cs = hand & lane(s)
        if cs == 0:
            continue
        top = highest_bit(cs)
        if unseen & above(top):
            continue
        if unseen_trumps and (
            (void_known(voids, seat ^ 1, s, unseen) and not void_known(voids, seat ^ 1, trump, unseen))
            or (void_known(voids, seat ^ 3, s, unseen) and not void_known(voids, seat ^ 3, trump, unseen))
        ):
            continue
        key = popcount(unseen & lane(s))
        if key > cash_key:
            cash_key = key
            cash = top
    return cash


@hot
def passive_lead(hand, trump, unseen, my_trumps):
    """Lead low from a side suit: short suits while holding trumps (to ruff later), never away
    from a guarded honour that waits to be led through."""
    best = -1
    best_key = 1 << 30
    for s in range(4):
        if s == trump:
            continue
        cs = hand & lane(s)
        if cs == 0:
            continue
        length = popcount(cs)
        top = highest_bit(cs)
        key = length
        if (top & 15) >= 9 and length >= 2 and (unseen & above(top)):
            key += 40
        if my_trumps and length <= 2:
            key -= 10 * (3 - length)
        if key < best_key:
            best_key = key
            best = lowest_bit(cs)
    if best >= 0:
        return best
    top = highest_bit(hand)  # only trumps left
    return top if (unseen & above(top)) == 0 else lowest_bit(hand)


@hot
def wants_trick(need, seat, best_seat, leader, n_played):
    """Whether ``seat``'s side wants this trick: it needs tricks, or it can set an opponent
    who still needs them (the one winning the trick so far, or one still to play)."""
    partner = seat ^ 2
    if needs(need, seat) or needs(need, partner):
        return True
    if best_seat != partner and needs(need, best_seat):
        return True
    for k in range(n_played + 1, 4):
        q = (leader + k) & 3
        if q != partner and needs(need, q):
            return True
    return False


@hot
def winner_to_play(wins, led_cards, led, trump, seat, leader, n_played, unseen, voids):
    """The winning card to play when the side wants the trick: last to play the cheapest; else
    the cheapest winner no opponent still to play can beat; a low ruff, or third hand high;
    -1 for second hand low."""
    if n_played == 3:
        return lowest_bit(wins)
    rest = wins
    while rest:
        c = lowest_bit(rest)
        if not beatable(c, led, trump, seat, leader, n_played, unseen, voids):
            return c
        rest &= rest - _ONE
    if not led_cards:
        return lowest_bit(wins)  # ruff low and hope
    if n_played == 2:
        return highest_bit(wins)  # third hand high
    return -1  # second hand low


@hot
def masters_from_top(cards, unseen):
    """How many of ``cards`` (one suit) win in turn from the top: held cards ranked above every
    unseen card of the suit, counted down while no unseen card sits between them."""
    if not cards:
        return 0
    higher = unseen & lane(highest_bit(cards) >> 4)
    if not higher:
        return popcount(cards)
    return popcount(cards & above(highest_bit(higher)))
