"""The search: boolean zero-window searches on an explicit stack in the workspace (it compiles once
and caches), with table look-ups at trick boundaries and the last tricks searched directly."""

import numpy as np

from kernels.config import jit
from kernels.core.cards import above as above_card
from kernels.core.cards import beats as beats_card
from kernels.core.cards import lane as lane_of
from kernels.core.cards import lowest_bit, popcount
from kernels.core.dd.bits import _prefetch, representatives, unmanaged
from kernels.core.dd.bounds import no_trump_sure_tricks, quick_tricks, sure_trump_tricks
from kernels.core.dd.layout import (
    _ONE,
    BEST_CARD,
    BEST_SEAT,
    CARD_AT,
    CUT_BASE,
    CUT_BITS,
    CUTKEY,
    DEPTHS,
    EXTRA_AT,
    IDX,
    KEYS_AT,
    LEADER,
    LED,
    MINREL,
    MOVES,
    MS_MASK,
    MS_WON,
    NMOVES,
    NODES,
    NTRICK,
    REM_AT,
    RES,
    RW,
    SHAPE_AT,
    ST_WORDS,
    STOP_EVERY,
    SV_BEST,
    SV_BEST_SEAT,
    SV_LED,
    SV_SET,
    TRICK_SET,
    TRUMP,
    TT_MIN_TRICKS,
    U64,
    all_cards,
    get_hand,
    hot,
    in_ms,
    stop_requested,
)
from kernels.core.dd.moves import order_moves
from kernels.core.dd.table import keys_of, pattern_masks, shape_of, st_home, tt_lookup, tt_store

# The search


@hot
def last_trick(W):
    """(max side's tricks from the last trick, its rank winner) at a trick boundary."""
    leader = W[LEADER]
    trump = W[TRUMP]
    best = lowest_bit(get_hand(W, leader))
    best_seat = leader
    for k in range(1, 4):
        q = (leader + k) & 3
        c = lowest_bit(get_hand(W, q))
        if beats_card(c, best, trump):
            best = c
            best_seat = q
    # the winner's rank matters if another card of its suit is in the trick
    same = 0
    for q in range(4):
        if (lowest_bit(get_hand(W, q)) >> 4) == (best >> 4):
            same += 1
    rw = (_ONE << U64(best)) if same > 1 else U64(0)
    return (1 if in_ms(W, best_seat) else 0), rw


@hot
def trick_rank_winner(W, depth):
    """The rank winner of the trick completed by the card at ``depth`` (before undoing it)."""
    best = W[BEST_CARD]
    same = 0
    for d in range(depth + 1, depth + 5):
        if (W[U64(CARD_AT + d)] >> 4) == (best >> 4):
            same += 1
    return (_ONE << U64(best)) if same > 1 else U64(0)


@hot
def enter(W, T, beta, depth, look):
    """Evaluate a node on entry: (resolved, value, rank winners). ``value`` is a fail-soft bound
    on the max side's final tricks: >= beta proves the target, < beta refutes it. If unresolved,
    the move list of ``depth`` is ready."""
    n_in = W[NTRICK]
    leader = W[LEADER]
    ms = W[MS_WON]
    hint_suit = -1
    hint_index = -1
    if n_in == 0:
        remaining = popcount(get_hand(W, leader))
        if ms >= beta:
            return True, ms, U64(0)
        if ms + remaining < beta:
            return True, ms + remaining, U64(0)
        if remaining == 1:
            won, rw = last_trick(W)
            return True, ms + won, rw
        shape = shape_of(W)
        extra = leader | (W[TRUMP] << 2) | (W[MS_MASK] << 5)
        if remaining > TT_MIN_TRICKS:  # the entry's line is fetched while the key words are made
            _prefetch(T.ctypes.data + 8 * ST_WORDS * st_home(shape, extra))
        k0, k1 = keys_of(W)
        W[U64(SHAPE_AT + depth)] = np.int64(shape)
        W[U64(KEYS_AT + 2 * depth)] = np.int64(k0)
        W[U64(KEYS_AT + 2 * depth + 1)] = np.int64(k1)
        W[U64(EXTRA_AT + depth)] = extra
        W[U64(REM_AT + depth)] = remaining
        if remaining > TT_MIN_TRICKS:
            rw = tt_lookup(W, T, shape, k0, k1, extra, beta, ms, look)
            if look[4] == 1:
                return True, ms + look[0], rw
            if look[4] == 2:
                return True, ms + look[1], rw
            hint_suit = look[2]
            hint_index = look[3]
        # bounds in order of cost, each computed only when the ones before did not decide: the
        # leader's quick tricks, sure trump tricks, and in no trump the other side's sure first
        # trick(s); after the table, whose look-up now costs less than they do (bounds first
        # would make more general patterns, 4% fewer nodes, but take 6% more time)
        no_trump = W[TRUMP] > 3
        if in_ms(W, leader):
            qt, qrw = quick_tricks(W, leader)
            if ms + qt >= beta:
                return True, ms + qt, qrw
            st_max, srw_max = sure_trump_tricks(W, True)
            if ms + st_max >= beta:
                return True, ms + st_max, srw_max
            st_min, srw_min = no_trump_sure_tricks(W, leader) if no_trump else sure_trump_tricks(W, False)
            if ms + remaining - st_min < beta:
                return True, ms + remaining - st_min, srw_min
        else:
            st_max, srw_max = no_trump_sure_tricks(W, leader) if no_trump else sure_trump_tricks(W, True)
            if ms + st_max >= beta:
                return True, ms + st_max, srw_max
            qt, qrw = quick_tricks(W, leader)
            if ms + remaining - qt < beta:
                return True, ms + remaining - qt, qrw
            st_min, srw_min = sure_trump_tricks(W, False)
            if ms + remaining - st_min < beta:
                return True, ms + remaining - st_min, srw_min
    seat = (leader + n_in) & 3
    hand = get_hand(W, seat)
    if n_in == 0:
        legal = hand
    else:
        follow = hand & lane_of(W[LED])
        legal = follow if follow else hand
    moves = representatives(legal, all_cards(W) | U64(W[TRICK_SET]))
    W[U64(NMOVES + depth)] = order_moves(W, T, depth, seat, moves, hint_suit, hint_index)
    W[U64(IDX + depth)] = 0
    W[U64(RES + depth)] = -1 if in_ms(W, seat) else 99
    W[U64(RW + depth)] = 0
    for s in range(4):
        W[U64(MINREL + 4 * depth + s)] = 0
    return False, 0, U64(0)


@hot
def play(W, depth, card):
    """Play ``card`` for the seat to move, saving what :func:`unplay` needs at ``depth``."""
    n_in = W[NTRICK]
    leader = W[LEADER]
    seat = (leader + n_in) & 3
    trump = W[TRUMP]
    W[U64(SV_BEST + depth)] = W[BEST_CARD]
    W[U64(SV_BEST_SEAT + depth)] = W[BEST_SEAT]
    W[U64(SV_LED + depth)] = W[LED]
    W[U64(SV_SET + depth)] = W[TRICK_SET]
    W[U64(CARD_AT + depth + 4)] = card
    W[U64(seat)] = np.int64(get_hand(W, seat) & ~(_ONE << U64(card)))
    if n_in == 0:
        W[LED] = card >> 4
        W[BEST_CARD] = card
        W[BEST_SEAT] = seat
    elif beats_card(card, W[BEST_CARD], trump):
        W[BEST_CARD] = card
        W[BEST_SEAT] = seat
    if n_in == 3:
        winner = W[BEST_SEAT]
        W[MS_WON] += 1 if in_ms(W, winner) else 0
        W[LEADER] = winner
        W[NTRICK] = 0
        W[TRICK_SET] = 0
    else:
        W[NTRICK] = n_in + 1
        W[TRICK_SET] |= np.int64(_ONE << U64(card))


@hot
def unplay(W, depth, leader_before, n_in_before, ms_before):
    card = W[U64(CARD_AT + depth + 4)]
    seat = (leader_before + n_in_before) & 3
    W[U64(seat)] = np.int64(get_hand(W, seat) | (_ONE << U64(card)))
    W[BEST_CARD] = W[U64(SV_BEST + depth)]
    W[BEST_SEAT] = W[U64(SV_BEST_SEAT + depth)]
    W[LED] = W[U64(SV_LED + depth)]
    W[TRICK_SET] = W[U64(SV_SET + depth)]
    W[LEADER] = leader_before
    W[NTRICK] = n_in_before
    W[MS_WON] = ms_before


@hot
def finish(W, T, depth, beta, value, rw, cut_card):
    """Store a trick-start node's result; returns the rank winners to pass up."""
    if W[NTRICK] != 0:
        return rw
    m0, m1, fixed = pattern_masks(W, rw)
    remaining = W[U64(REM_AT + depth)]
    if remaining <= TT_MIN_TRICKS:
        return fixed
    shape = U64(W[U64(SHAPE_AT + depth)])
    extra = W[U64(EXTRA_AT + depth)]
    v0 = U64(W[U64(KEYS_AT + 2 * depth)]) & m0
    v1 = U64(W[U64(KEYS_AT + 2 * depth + 1)]) & m1
    ms = W[MS_WON]
    hs = -1
    hi_ = -1
    if cut_card >= 0:
        hs = cut_card >> 4
        hi_ = popcount(all_cards(W) & above_card(cut_card))
    if value >= beta:
        tt_store(T, shape, extra, m0, v0, m1, v1, min(value - ms, remaining), remaining, hs, hi_)
    else:
        tt_store(T, shape, extra, m0, v0, m1, v1, 0, max(value - ms, 0), hs, hi_)
    return fixed


@jit(inline="always")  # a wrapper: inlined before typing, so it is not one more unit to compile
def reach(W, T, beta):
    """A fail-soft bound on the max side's tricks from the loaded position: at least ``beta``
    if the max side can reach ``beta`` (then it is a lower bound), else an upper bound."""
    return _reach(unmanaged(W), unmanaged(T), beta, np.empty(5 + 3 * DEPTHS, dtype=np.int64))


@jit(inline="always")  # the search: inlined once into each entry kernel, not a unit of its own
def _reach(W, T, beta, scratch):
    scratch = unmanaged(scratch)
    look = scratch[0:5]
    # per-depth state needed to undo: leader, cards in trick, max-side tricks before the move
    leaders = scratch[5 : 5 + DEPTHS]
    n_ins = scratch[5 + DEPTHS : 5 + 2 * DEPTHS]
    mss = scratch[5 + 2 * DEPTHS : 5 + 3 * DEPTHS]
    depth = 0
    if stop_requested(W):
        return beta
    # once the stop flag is seen, every node answers beta at once and its parent takes it as a
    # cut-off without storing anything: the search unwinds to the root in a few steps, leaves
    # the table as true as it was, and returns beta (so MTD(f) still closes its window)
    stopping = False
    W[NODES] += 1
    resolved, value, rw = enter(W, T, beta, depth, look)
    if resolved:
        return value
    while True:
        i = W[U64(IDX + depth)]
        # partition search: a card below every relevant rank of its suit (as a sibling already
        # searched showed) would give the same result; skip it
        while i < W[U64(NMOVES + depth)]:
            c = W[U64(MOVES + 16 * depth + i)]
            if (c & 15) >= W[U64(MINREL + 4 * depth + (c >> 4))]:
                break
            i += 1
        W[U64(IDX + depth)] = i
        if i < W[U64(NMOVES + depth)]:
            card = W[U64(MOVES + 16 * depth + i)]
            leaders[U64(depth)] = W[LEADER]
            n_ins[U64(depth)] = W[NTRICK]
            mss[U64(depth)] = W[MS_WON]
            play(W, depth, card)
            depth += 1
            W[NODES] += 1
            if (W[NODES] & STOP_EVERY) == 0 and stop_requested(W):
                stopping = True
            if stopping:
                resolved, value, rw = True, beta, U64(0)
            else:
                resolved, value, rw = enter(W, T, beta, depth, look)
            if not resolved:
                continue
        else:
            # every move searched without a cut-off
            value = W[U64(RES + depth)]
            if not stopping:
                rw = finish(W, T, depth, beta, value, U64(W[U64(RW + depth)]), -1)
            if depth == 0:
                return value
        # pass (value, rw) up until a node still has moves to try
        while True:
            depth -= 1
            if n_ins[U64(depth)] == 3:
                rw |= trick_rank_winner(W, depth)
            unplay(W, depth, leaders[U64(depth)], n_ins[U64(depth)], mss[U64(depth)])
            seat = (leaders[U64(depth)] + n_ins[U64(depth)]) & 3
            maximizing = in_ms(W, seat)
            card = W[U64(CARD_AT + depth + 4)]
            if stopping:
                if depth == 0:
                    return beta
                continue
            if (value >= beta) == maximizing:
                if W[U64(IDX + depth)] > 0 and W[U64(CUTKEY + depth)] != 0:
                    key = U64(W[U64(CUTKEY + depth)])
                    T[U64(CUT_BASE + np.int64(key >> U64(64 - CUT_BITS)))] = np.int64(
                        ((key >> U64(8)) << U64(8)) | U64(card)
                    )
                rw = finish(W, T, depth, beta, value, rw, card)
                if depth == 0:
                    return value
                continue
            W[U64(RES + depth)] = (
                max(W[U64(RES + depth)], value) if maximizing else min(W[U64(RES + depth)], value)
            )
            W[U64(RW + depth)] |= np.int64(rw)
            suit_rw = rw & lane_of(card >> 4)
            slot = MINREL + 4 * depth + (card >> 4)
            if suit_rw == 0:
                W[U64(slot)] = 16
            elif card < lowest_bit(suit_rw):
                W[U64(slot)] = max(W[U64(slot)], lowest_bit(suit_rw) & 15)
            W[U64(IDX + depth)] += 1
            break


# ---------------------------------------------------------------------------------------------
