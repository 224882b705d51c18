"""Entry points: load a position, drive the zero-window searches MTD(f)-style from a guess, and the
batches (one deal, a worker's share of a batch, the table of every strain and leader, each card's score)."""

import numpy as np
from numba import prange

from kernels.config import JIT, PJIT, jit
from kernels.core.cards import beats as beats_card
from kernels.core.cards import lowest_bit, popcount
from kernels.core.dd.layout import (
    _LANE,
    _ONE,
    BEST_CARD,
    BEST_SEAT,
    CARD_AT,
    LEADER,
    LED,
    MS_MASK,
    MS_WON,
    NODES,
    NTRICK,
    SOLO,
    TEAM,
    TRICK_SET,
    TRUMP,
    U64,
    W_SIZE,
    get_hand,
    stop_requested,
)
from kernels.core.dd.search import reach
from kernels.core.dd.table import start_deal
from kernels.core.flags import raised

# Drivers


@JIT
def new_workspace():
    return np.zeros(W_SIZE, dtype=np.int64)


@JIT
def setup(W, hands, trump, leader, ms_mask, trick_cards, n_trick):
    """Load a position: ``hands`` uint64[4] (cards still held) and the cards already played to
    the current trick, ``trick_cards[:n_trick]`` in order from ``leader``."""
    for s in range(4):
        W[U64(s)] = np.int64(hands[s])
    W[LEADER] = leader
    W[TRUMP] = trump
    W[MS_MASK] = ms_mask
    W[MS_WON] = 0
    W[NTRICK] = n_trick
    W[TRICK_SET] = 0
    W[NODES] = 0
    if n_trick > 0:
        best = trick_cards[0]
        best_seat = leader
        for k in range(n_trick):
            c = trick_cards[k]
            W[TRICK_SET] |= np.int64(_ONE << U64(c))
            W[U64(CARD_AT + 4 - n_trick + k)] = c
            if k > 0 and beats_card(c, best, trump):
                best = c
                best_seat = (leader + k) & 3
        W[LED] = trick_cards[0] >> 4
        W[BEST_CARD] = best
        W[BEST_SEAT] = best_seat


@jit(inline="always")  # small: inlined before typing, so the whole solver is not one more unit to compile
def solve_position(W, T, guess):
    """Most tricks the max side takes from the loaded position (MTD(f) over :func:`reach`)."""
    leader = W[LEADER]
    n_in = W[NTRICK]
    total = popcount(get_hand(W, leader)) + (1 if n_in > 0 else 0)
    lower = 0
    upper = total
    g = min(max(guess, 0), total)
    while lower < upper:
        beta = g + 1 if g == lower else g
        g = reach(W, T, beta)
        if stop_requested(W):
            break
        if g < beta:
            upper = g
        else:
            lower = g
    return lower


@JIT
def ms_mask_for(mode, player):
    """Max-side seats: ``player``'s partnership (team) or ``player`` alone (solo)."""
    if mode == SOLO:
        return 1 << player
    return (1 << player) | (1 << ((player + 2) & 3))


@JIT
def guess_tricks(hands, trump, ms_mask):
    """A starting guess for MTD(f). A partnership: its share of the high-card points (A 4, K 3,
    Q 2, J 1) and of the trumps still in play, weighted as a least-squares fit of team
    double-dummy tricks on 400 random deals (mean error 0.84 tricks with a trump, 1.06 in no
    trump; the guess it replaces, 2.3 and 4.0, cost about 4.4 searches a solve). One player
    (solo): its aces, kings and long trumps."""
    size = popcount(hands[0])
    if popcount(U64(ms_mask)) == 2:
        side_hcp = 0
        all_hcp = 0
        side_trumps = 0
        all_trumps = 0
        for q in range(4):
            h = hands[q]
            ours = (ms_mask >> q) & 1
            for s in range(4):
                lane = (h >> U64(16 * s)) & _LANE
                hcp = (4 * popcount(lane & U64(0x1000)) + 3 * popcount(lane & U64(0x0800))
                       + 2 * popcount(lane & U64(0x0400)) + popcount(lane & U64(0x0200)))  # fmt: skip
                all_hcp += hcp
                if ours:
                    side_hcp += hcp
                if s == trump:
                    all_trumps += popcount(lane)
                    if ours:
                        side_trumps += popcount(lane)
        share = side_hcp / all_hcp if all_hcp > 0 else 0.5
        if trump > 3:
            p = -0.242 + 1.5769 * share
        else:
            p = -0.6092 + 1.1479 * share + 1.0965 * (side_trumps / all_trumps if all_trumps > 0 else 0.5)
        return min(size, max(0, int(size * p + 0.5)))
    g = 0.0
    for q in range(4):
        if (ms_mask >> q) & 1:
            h = hands[q]
            for s in range(4):
                lane = (h >> U64(16 * s)) & _LANE
                g += popcount(lane & U64(0x1000)) + 0.6 * popcount(lane & U64(0x0800))
                if s == trump:
                    g += 0.9 * max(0, popcount(lane) - 3)
    if popcount(U64(ms_mask)) == 1:
        g *= 0.8
    return min(size, int(g * size / 13.0 + 0.5))


@jit(inline="always")  # a wrapper: inlined before typing, so it is not one more unit to compile
def solve_one(W, T, hands, trump, leader, mode, player):
    """Tricks for ``player``'s side (team) or ``player`` (solo) with ``leader`` on lead."""
    mask = ms_mask_for(mode, player)
    start_deal(T)
    setup(W, hands, trump, leader, mask, np.zeros(4, dtype=np.int64), 0)
    return solve_position(W, T, guess_tricks(hands, trump, mask))


@jit(inline="always")  # small: inlined before typing, so the whole solver is not one more unit to compile
def solve_at(W, T, hands, trump, leader, mode, player, trick_cards, n_trick, guess):
    """Tricks for ``player``'s side (team) or ``player`` (solo) from part way through a trick:
    ``trick_cards[:n_trick]`` were played to it from ``leader`` on (``hands`` no longer hold
    them); the current trick counts. ``guess``: where MTD(f) starts (any value gives the same
    answer; a close one saves searches)."""
    mask = ms_mask_for(mode, player)
    start_deal(T)
    setup(W, hands, trump, leader, mask, trick_cards, n_trick)
    return solve_position(W, T, guess)


@JIT
def solve_worker(hands, trump, leader, mode, player, workspaces, tables, out, nodes, w):
    """Worker ``w`` of ``k = workspaces.shape[0]`` solving many deals: hands uint64[n, 4];
    workspaces int64[k, W_SIZE] and tables int64[k, T_SIZE] (the tables may be reused across
    calls); worker w takes deals w, w + k, ... with its own workspace and table, writing the
    tricks and the nodes searched into ``out`` and ``nodes`` (int64[n]). The workers run on
    threads of their own (``analyzer.core.runtime.on_workers``): a serial kernel is compiled
    once, where a ``prange`` kernel would compile the whole solver twice more."""
    n = hands.shape[0]
    k = workspaces.shape[0]
    W = workspaces[w]
    T = tables[w]
    for i in range(w, n, k):
        out[i] = solve_one(W, T, hands[i], trump, leader, mode, player)
        nodes[i] = W[NODES]


@JIT
def solve_table(W, T, hands, out, stop):
    """All 20 results of a deal, as DDS's ``CalcDDtable``: ``out`` int64[5, 4] receives the
    tricks of seats 0+2 for each strain (0..3, 4 no trump) and leader. The 20 solves share one
    table (after the first trick, positions recur across leaders) and each leader's search starts
    from the answer for the previous leader (a fourth leader expands a quarter of the first's nodes
    or fewer). Between strains it reads ``stop`` (:mod:`kernels.core.flags`): once raised, the
    strains not yet solved are left at -1."""
    mask = ms_mask_for(TEAM, 0)
    start_deal(T)
    no_trick = np.zeros(4, dtype=np.int64)
    nodes = 0
    out[:, :] = -1
    for trump in range(5):
        if raised(stop):
            break
        guess = guess_tricks(hands, trump, mask)
        for leader in range(4):
            setup(W, hands, trump, leader, mask, no_trick, 0)
            guess = solve_position(W, T, guess)
            out[trump, leader] = guess
            nodes += W[NODES]
    return nodes


@PJIT
def solve_table_batch(hands, workspaces, tables, stop):
    """:func:`solve_table` for many deals (hands uint64[n, 4]; workspaces and tables as in
    :func:`solve_batch`). Returns int64[n, 5, 4]; once ``stop`` is raised, the deals not finished
    hold -1."""
    n = hands.shape[0]
    k = workspaces.shape[0]
    out = np.full((n, 5, 4), -1, dtype=np.int64)
    for w in prange(k):
        for i in range(w, n, k):
            if raised(stop):
                break
            solve_table(workspaces[w], tables[w], hands[i], out[i], stop)
    return out


@JIT
def card_scores(W, T, hands, trump, leader, mode, player):
    """Tricks for the max side after each legal card of the leader (int64[64], -1 if not held)."""
    mask = ms_mask_for(mode, player)
    out = np.full(64, -1, dtype=np.int64)
    hand = hands[leader]
    trick = np.zeros(4, dtype=np.int64)
    guess = guess_tricks(hands, trump, mask)
    rest = hand
    while rest:
        c = lowest_bit(rest)
        rest &= rest - _ONE
        after = hands.copy()
        after[leader] = hand & ~(_ONE << U64(c))
        trick[0] = c
        setup(W, after, trump, leader, mask, trick, 1)
        out[c] = solve_position(W, T, guess)
    return out
