"""Bounds on a position, each returned with its rank winners: quick tricks, no-trump sure tricks and
sure trump tricks."""


from kernels.core.cards import highest_bit, popcount
from kernels.core.cards import lane as lane_of
from kernels.core.dd.bits import top_cards, top_run
from kernels.core.dd.layout import _ONE, TRUMP, U64, all_cards, get_hand, hot, in_ms, owner_of

# Bounds: each returns (tricks, rank winners)


@hot
def cashable(W, seat):
    """Tricks ``seat`` can cash at once with its own top cards, and those cards.

    Top trumps first (if they draw every opposing trump, side suits are then safe); side-suit
    top cards count only for as many rounds as every opponent holding trumps can follow.
    """
    trump = W[TRUMP]
    me = get_hand(W, seat)
    everyone = all_cards(W)
    side = in_ms(W, seat)
    tr_lane = lane_of(trump)
    opp_trumps_max = 0
    opps_with_trumps = 0
    for q in range(4):
        if in_ms(W, q) != side:
            n = popcount(get_hand(W, q) & tr_lane)
            if n > 0:
                opps_with_trumps |= 1 << q
            opp_trumps_max = max(opp_trumps_max, n)
    tricks = 0
    winners = U64(0)
    partner = (seat + 2) & 3
    pd_tr = get_hand(W, partner) & tr_lane if in_ms(W, partner) == side else U64(0)
    if trump < 4:
        all_tr = everyone & tr_lane
        my_tr = me & tr_lane
        if my_tr == all_tr:
            tricks += popcount(my_tr)
            opps_with_trumps = 0
        elif pd_tr and (my_tr | pd_tr) != all_tr and (all_tr & ~(my_tr | pd_tr)) != 0:
            # top trumps held between us: as many tricks as the run, up to the longer holding
            run = top_run(my_tr | pd_tr, all_tr)
            winners |= top_cards(all_tr, run)
            run = min(run, max(popcount(my_tr), popcount(pd_tr)))
            own = top_run(my_tr, all_tr)
            tricks += max(run, own)
            if own >= opp_trumps_max:  # only trumps actually led draw the opponents'
                opps_with_trumps = 0
        else:
            others = 0
            for q in range(4):
                if q != seat:
                    others = max(others, popcount(get_hand(W, q) & tr_lane))
            run = top_run(my_tr, all_tr)
            winners |= top_cards(all_tr, min(run, others))
            tricks += run
            if run >= opp_trumps_max:
                opps_with_trumps = 0
    for s in range(4):
        if s == trump:
            continue
        lane = lane_of(s)
        mine = me & lane
        if mine == 0:
            continue
        cap = 13
        for q in range(4):
            if (opps_with_trumps >> q) & 1:
                cap = min(cap, popcount(get_hand(W, q) & lane))
        rem = everyone & lane
        others = 0  # beyond the longest other holding, the cards win by length, not rank
        for q in range(4):
            if q != seat:
                others = max(others, popcount(get_hand(W, q) & lane))
        run = min(top_run(mine, rem), cap)
        winners |= top_cards(rem, min(run, others))
        tricks += run
    return min(tricks, popcount(me)), winners


@hot
def quick_tricks(W, leader):
    """Tricks the leader's side can take at once: the leader's own top cards, or an ally's
    (the partner, or in solo mode any of the three) when the leader can reach them: a card in a
    suit whose top card the ally holds, which no opponent can ruff. With the cards that count."""
    tricks, winners = cashable(W, leader)
    side = in_ms(W, leader)
    trump = W[TRUMP]
    everyone = all_cards(W)
    me = get_hand(W, leader)
    for ally in range(4):
        if ally == leader or in_ms(W, ally) != side:
            continue
        hand = get_hand(W, ally)
        for s in range(4):
            lane = lane_of(s)
            if (me & lane) == 0 or (hand & lane) == 0:
                continue
            top = _ONE << U64(highest_bit(everyone & lane))
            if not (hand & top):
                continue
            if s != trump and trump < 4:
                ruff = False
                for q in range(4):
                    hq = get_hand(W, q)
                    if in_ms(W, q) != side and (hq & lane) == 0 and (hq & lane_of(trump)) != 0:
                        ruff = True
                if ruff:
                    continue
            ally_tricks, ally_winners = cashable(W, ally)
            if ally_tricks > tricks:
                tricks = ally_tricks
                winners = ally_winners | top
            break
    return tricks, winners


@hot
def no_trump_sure_tricks(W, leader):
    """In no trump: if the leader's side holds the top card of no suit the leader holds, the
    other side wins the first trick at least; if one opponent holds all those top cards, it wins
    that many. Returns (tricks for the other side, the top cards)."""
    me = get_hand(W, leader)
    everyone = all_cards(W)
    side = in_ms(W, leader)
    tops = U64(0)
    for s in range(4):
        lane = lane_of(s)
        if me & lane:
            b = _ONE << U64(highest_bit(everyone & lane))
            if in_ms(W, owner_of(W, b)) == side:
                return 0, U64(0)
            tops |= b
    if tops == 0:
        return 0, U64(0)
    for q in range(4):
        if in_ms(W, q) != side and (get_hand(W, q) & tops) == tops:
            return popcount(tops), tops
    return 1, tops


@hot
def sure_trump_tricks(W, side):
    """Tricks side ``side`` (True: the max side) surely takes with trumps, and the cards that
    count.

    Every trump a player holds is played in a different trick and wins it unless an opponent
    plays a higher trump to that trick, and each opposing trump can beat at most one. So a
    player wins at least (trumps held) - (the most of them the opponents' higher trumps can be
    matched against); the side, at least the best of its players.
    """
    trump = W[TRUMP]
    if trump > 3:
        return 0, U64(0)
    tr_lane = lane_of(trump)
    all_tr = all_cards(W) & tr_lane
    theirs = U64(0)
    for q in range(4):
        if in_ms(W, q) != side:
            theirs |= get_hand(W, q)
    best = 0
    for q in range(4):
        if in_ms(W, q) != side:
            continue
        mine = get_hand(W, q) & tr_lane
        if mine == 0:
            continue
        available = 0
        wins = 0
        rest = all_tr
        while rest:
            top = highest_bit(rest)
            b = _ONE << U64(top)
            if mine & b:
                if available > 0:
                    available -= 1
                else:
                    wins += 1
            elif theirs & b:
                available += 1
            rest &= ~b
        best = max(best, wins)
    return best, (all_tr if best > 0 else U64(0))


# ---------------------------------------------------------------------------------------------
