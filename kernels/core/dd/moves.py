"""Move ordering: the candidate cards of a node (one of each run of equivalent cards) ordered by
double-dummy rules of thumb, the table's best lead and the cut-off cache's card first."""

import numpy as np

from kernels.core.cards import above as above_card
from kernels.core.cards import beats as beats_card
from kernels.core.cards import highest_bit, lowest_bit, popcount
from kernels.core.cards import lane as lane_of
from kernels.core.dd.layout import (
    _ONE,
    BEST_CARD,
    BEST_SEAT,
    CUT_BASE,
    CUT_BITS,
    CUTKEY,
    LEADER,
    LED,
    MOVES,
    MS_MASK,
    NTRICK,
    TRICK_SET,
    TRUMP,
    U64,
    all_cards,
    get_hand,
    hot,
    in_ms,
)
from kernels.core.dd.table import mix

# Moves


@hot
def push(W, base, n, c):
    W[U64(base + n)] = c
    return n + 1


@hot
def push_ascending(W, base, n, cards, moves):
    """Append the cards of ``cards & moves`` lowest first; returns (n, moves without them)."""
    rest = cards & moves
    while rest:
        c = lowest_bit(rest)
        n = push(W, base, n, c)
        rest &= rest - _ONE
    return n, moves & ~cards


@hot
def push_descending(W, base, n, cards, moves):
    rest = cards & moves
    while rest:
        c = highest_bit(rest)
        n = push(W, base, n, c)
        rest &= ~(_ONE << U64(c))
    return n, moves & ~cards


@hot
def nth_top(rem, k):
    """The ``k``-th highest card (0 = top) of ``rem`` as a one-bit set, or 0."""
    for _ in range(k):
        if rem == 0:
            return U64(0)
        rem &= ~(_ONE << U64(highest_bit(rem)))
    if rem == 0:
        return U64(0)
    return _ONE << U64(highest_bit(rem))


@hot
def top_and_bottom(cards):
    if cards == 0:
        return U64(0)
    return (_ONE << U64(highest_bit(cards))) | (_ONE << U64(lowest_bit(cards)))


@hot
def order_lead(W, base, seat, moves):
    """Lead ordering: give partner a ruff, finesse through the left-hand opponent, cash or set up
    strong suits, then ordinary leads; leads that give a free finesse, trump leads, and suits the
    opponents can ruff come last."""
    trump = W[TRUMP]
    side = in_ms(W, seat)
    partner = (seat + 2) & 3
    lho = (seat + 1) & 3
    rho = (seat + 3) & 3
    ally = in_ms(W, partner) == side
    everyone = all_cards(W)
    me = get_hand(W, seat)
    pd = get_hand(W, partner) if ally else U64(0)
    lh = get_hand(W, lho)
    rh = get_hand(W, rho)
    tr_lane = lane_of(trump)
    ruff_leads = U64(0)
    good = U64(0)
    high = U64(0)
    plain = U64(0)
    bad = U64(0)
    trump_leads = U64(0)
    for s in range(4):
        lane = lane_of(s)
        mine = moves & lane
        if mine == 0:
            continue
        if trump < 4:
            if s == trump:
                trump_leads |= top_and_bottom(mine)
                continue
            opp_ruff = False
            for q in range(4):
                hq = get_hand(W, q)
                if in_ms(W, q) != side and (hq & lane) == 0 and (hq & tr_lane) != 0:
                    opp_ruff = True
            if opp_ruff:
                continue
        rem = everyone & lane
        pds = pd & lane
        lhs = lh & lane
        rhs = rh & lane
        ours = (me | pd) & lane
        a = nth_top(rem, 0)
        k = nth_top(rem, 1)
        q_ = nth_top(rem, 2)
        j = nth_top(rem, 3)
        t = nth_top(rem, 4)
        if ally and popcount(pds) >= 2 and popcount(lhs) >= 2 and in_ms(W, lho) != side:
            if (
                ((pds & k) and (lhs & a))
                or ((pds & a) and (lhs & k) and ((pds & q_) or (ours & (q_ | j)) == (q_ | j)))
                or ((pds & k) and (lhs & q_) and ((pds & j) or (ours & (j | t)) == (j | t)))
            ):
                good |= top_and_bottom(mine)
                continue
        if trump < 4 and popcount(me & lane) >= 2 and popcount(rhs) >= 2 and in_ms(W, rho) != side:
            if ((me & a) and (rhs & k)) or ((me & k) and (rhs & a) and not (ours & q_)):
                bad |= _ONE << U64(highest_bit(mine))
                continue
        if lhs and rhs and popcount(ours & (a | k | q_)) >= 2:
            high |= top_and_bottom(mine)
            continue
        if (
            trump < 4
            and ally
            and pds == 0
            and lhs
            and rhs
            and (pd & tr_lane)
            and popcount(pd & tr_lane) <= popcount(me & tr_lane)
            and (_ONE << U64(lowest_bit(mine))) != a
        ):
            ruff_leads |= _ONE << U64(lowest_bit(mine))
            continue
        plain |= top_and_bottom(mine)
    n = 0
    rest = moves
    n, rest = push_descending(W, base, n, ruff_leads, rest)
    n, rest = push_descending(W, base, n, good, rest)
    n, rest = push_descending(W, base, n, high, rest)
    n, rest = push_descending(W, base, n, plain, rest)
    n, rest = push_descending(W, base, n, bad, rest)
    n, rest = push_descending(W, base, n, trump_leads, rest)
    n, rest = push_descending(W, base, n, rest, rest)
    return n


@hot
def beatable_after(W, card, seat, n_in):
    """Whether an opponent of ``seat`` still to play to this trick can beat ``card``."""
    trump = W[TRUMP]
    led = W[LED]
    side = in_ms(W, seat)
    cs = card >> 4
    for k in range(n_in + 1, 4):
        q = (W[LEADER] + k) & 3
        if in_ms(W, q) == side:
            continue
        h = get_hand(W, q)
        follow = h & lane_of(led)
        if follow:
            if cs == led and (follow & above_card(card)):
                return True
        else:
            tr = h & lane_of(trump)
            if cs == trump:
                if tr & above_card(card):
                    return True
            elif tr:
                return True
    return False


@hot
def order_follow(W, base, seat, moves):
    """Following ordering: play low when an ally has the trick safely or the partner can win it,
    win as cheaply as is safe, overruff or ruff low, else discard from the longest suit."""
    n_in = W[NTRICK]
    trump = W[TRUMP]
    led = W[LED]
    side = in_ms(W, seat)
    partner = (seat + 2) & 3
    lho = (seat + 1) & 3
    last = n_in == 3
    best = W[BEST_CARD]
    ally_safe = in_ms(W, W[BEST_SEAT]) == side and not beatable_after(W, best, seat, n_in)
    led_lane = lane_of(led)
    pd_suit = get_hand(W, partner) & led_lane if in_ms(W, partner) == side else U64(0)
    lho_suit = get_hand(W, lho) & led_lane if not last else U64(0)
    mine = moves & led_lane
    n = 0
    rest = moves
    if mine:
        top = highest_bit(mine)
        if ally_safe or not beats_card(top, best, trump):
            n, rest = push_ascending(W, base, n, mine, rest)
            return n
        if n_in == 1 and pd_suit and (best >> 4) == led and highest_bit(pd_suit) > best:
            pd_top = highest_bit(pd_suit)
            if (
                lho_suit
                and highest_bit(lho_suit) > max(pd_top, top)
                and (lho_suit & above_card(pd_top)) == (lho_suit & above_card(top))
            ):
                n, rest = push_ascending(W, base, n, mine, rest)
                return n
            if lho_suit == 0 or pd_top > highest_bit(lho_suit):
                n, rest = push_ascending(W, base, n, mine, rest)
                return n
        higher = mine & above_card(best) if (best >> 4) == led else mine
        if last or not beatable_after(W, lowest_bit(higher), seat, n_in):
            n, rest = push_ascending(W, base, n, higher, rest)
        else:
            n, rest = push_descending(W, base, n, higher, rest)
        n, rest = push_ascending(W, base, n, rest, rest)
        return n
    my_trumps = moves & lane_of(trump)
    if trump < 4 and my_trumps and not ally_safe:
        if (best >> 4) == trump:
            if highest_bit(my_trumps) > best:
                n, rest = push_ascending(W, base, n, my_trumps & above_card(best), rest)
        elif not beatable_after(W, lowest_bit(my_trumps), seat, n_in):
            n, rest = push_ascending(W, base, n, _ONE << U64(lowest_bit(my_trumps)), rest)
        else:
            n, rest = push_ascending(W, base, n, my_trumps, rest)
    # discards: the lowest card of each side suit, longest suit first; a player who still holds
    # trumps discards from its shortest suit first (a void to ruff in later)
    start = n
    for s in range(4):
        if s == trump:
            continue
        cs = rest & lane_of(s)
        if cs:
            n = push(W, base, n, lowest_bit(cs))
            rest &= ~(_ONE << U64(lowest_bit(cs)))
    me = get_hand(W, seat)
    ruffer = trump < 4 and (me & lane_of(trump)) != 0
    for i in range(start + 1, n):  # insertion sort, the first discard first
        c = W[U64(base + i)]
        key = discard_key(me, c, ruffer)
        j = i - 1
        while j >= start and discard_key(me, W[U64(base + j)], ruffer) < key:
            W[U64(base + j + 1)] = W[U64(base + j)]
            j -= 1
        W[U64(base + j + 1)] = c
    n, rest = push_descending(W, base, n, rest, rest)
    return n


@hot
def discard_key(me, c, ruffer):
    """Order of discards (higher first): the suit's length in ``me``, or its shortness for a
    player who can still ruff."""
    length = popcount(me & lane_of(c >> 4))
    return 13 - length if ruffer else length


@hot
def order_moves(W, T, depth, seat, moves, hint_suit, hint_index):
    """Write the cards of ``moves`` into the move list of ``depth``, best first; their number.

    The table's best lead for this pattern, if it is among the moves, goes first."""
    base = MOVES + 16 * depth
    if popcount(moves) == 1:
        W[U64(base)] = lowest_bit(moves)
        return 1
    if W[NTRICK] == 0:
        n = order_lead(W, base, seat, moves)
        if hint_suit >= 0:
            rem = all_cards(W) & lane_of(hint_suit)
            for i in range(n):
                c = W[U64(base + i)]
                if (c >> 4) == hint_suit and popcount(rem & above_card(c)) == hint_index:
                    to_front(W, base, i)
                    break
    else:
        n = order_follow(W, base, seat, moves)
    cut = cut_card(W, T, depth, seat)
    if cut >= 0 and (moves >> U64(cut)) & _ONE:
        for i in range(n):
            if W[U64(base + i)] == cut:
                to_front(W, base, i)
                break
    return n


@hot
def to_front(W, base, i):
    c = W[U64(base + i)]
    for k in range(i, 0, -1):
        W[U64(base + k)] = W[U64(base + k - 1)]
    W[U64(base)] = c


@hot
def cut_key(W, seat):
    """Cut-off cache key: the position in the trick and what the mover sees that matters most
    (own hand when leading or discarding, the led suit and the winning card when following)."""
    n_in = W[NTRICK]
    hand = get_hand(W, seat)
    if n_in == 0:
        return mix(hand, U64(seat), U64(0), U64(W[TRUMP] | (W[MS_MASK] << 3)))
    led_lane = lane_of(W[LED])
    if hand & led_lane:
        suit_cards = (all_cards(W) | U64(W[TRICK_SET])) & led_lane
        return mix(suit_cards, U64(seat + 4 * n_in), U64(W[BEST_CARD] + 1), U64(W[TRUMP] | (W[MS_MASK] << 3)))
    winner = W[BEST_SEAT] if W[TRUMP] > 3 else W[BEST_CARD]
    return mix(hand, U64(seat + 4 * n_in + 64), U64(winner + 1), U64(W[TRUMP] | (W[MS_MASK] << 3)))


@hot
def cut_card(W, T, depth, seat):
    if W[NTRICK] == 3:  # the last hand's rules of thumb order better than the cache (1% fewer nodes)
        W[U64(CUTKEY + depth)] = 0
        return -1
    key = cut_key(W, seat)
    W[U64(CUTKEY + depth)] = np.int64(key)
    e = T[U64(CUT_BASE + np.int64(key >> U64(64 - CUT_BITS)))]
    if (U64(e) >> U64(8)) != (key >> U64(8)):
        return -1
    return e & 63


# ---------------------------------------------------------------------------------------------
