"""Double dummy with the bids: both partnerships see all cards and play for their side's points.

Each player ``p`` has a target (their bid, ``target[p]`` tricks) and a value ``value[p]``: the
player's side gains ``value[p]`` if their tricks reach the target, else loses it. Seats 0 and 2
(seats 1+3) maximise, seats 1 and 3 minimise, the *score*: the points of seats 1+3 minus those
of seats 2+4 at the end of the hand. This is 400's perfect-information model (each player
scored on their own bid, partners cooperating); any game where every player has a target of
their own can use it.

Technique: fail-soft alpha-beta over single cards, with

* the outcome only depends on which players reach their targets, so a position at a trick
  boundary is keyed by the four hands, the leader and the tricks each player still *needs*
  (0 once made, capped at the tricks left plus one once out of reach); those are also the only
  game state the search carries;
* bounds before a trick is searched: players whose target is made or out of reach are decided;
  the best case for a side lets its undecided players make as many targets as the tricks left
  allow while the other side's undecided players all fail;
* a fixed-size transposition table of lower/upper bounds at trick boundaries (replaced, never
  grown; a generation number empties it between solves without clearing memory);
* one card of each run of equivalent cards (adjacent among the cards still in play, the table
  included); cheap move ordering (highest cards on lead, cheapest winner, else cheapest card).

Hands are uint64 in the layout of :mod:`kernels.core.cards`; ``trump`` is a suit index or 4 for
no trump; seats are indices 0..3.
"""

import numpy as np
from numba import prange

from kernels.config import jit
from kernels.core.cards import above, lane, lowest_bit, popcount
from kernels.core.dd import pext
from kernels.core.tricks import legal_moves, power

hot = jit(forceinline=True)
U64 = np.uint64
_ONE = U64(1)
INF = np.int64(1) << 40

TT_BITS = 18
TT_ENTRIES = 1 << TT_BITS
TT_WORDS = (
    8  # hands 0..2 by relative rank, best lead, meta (leader, needs, lengths), lower, upper, generation
)
TT_SIZE = TT_ENTRIES * TT_WORDS
TT_MEMORY_BYTES = TT_SIZE * 8

# the context array: counters and the generation number
CTX_NODES = 0
CTX_GENERATION = 1
CTX_SIZE = 2


def new_table():
    """A transposition table (int64[TT_SIZE], 16 MiB) and its context (int64[CTX_SIZE])."""
    return np.zeros(TT_SIZE, dtype=np.int64), np.zeros(CTX_SIZE, dtype=np.int64)


@hot
def bounds(won, target, value, left):
    """(lower, upper) bound of the score with ``left`` tricks still to play (scalars only: this
    runs at every trick boundary)."""
    base = np.int64(0)
    n0 = n1 = 0
    need0a = need0b = val0a = val0b = np.int64(0)  # seats 1+3's undecided players
    need1a = need1b = val1a = val1b = np.int64(0)  # seats 2+4's
    for p in range(4):
        need = target[p] - won[p]
        sign = 1 if (p & 1) == 0 else -1
        if need <= 0:
            base += sign * value[p]
        elif need > left:
            base -= sign * value[p]
        elif sign == 1:
            if n0 == 0:
                need0a, val0a = need, value[p]
            else:
                need0b, val0b = need, value[p]
            n0 += 1
        else:
            if n1 == 0:
                need1a, val1a = need, value[p]
            else:
                need1b, val1b = need, value[p]
            n1 += 1
    hi = base + _best_subset(n0, need0a, val0a, need0b, val0b, left) + val1a + val1b
    lo = base - _best_subset(n1, need1a, val1a, need1b, val1b, left) - val0a - val0b
    return lo, hi


@hot
def _best_subset(n, need_a, val_a, need_b, val_b, left):
    """The best net value a side's ``n`` undecided players can reach: each makes (+value) or
    fails (-value), and those who make need their tricks out of ``left``."""
    if n == 0:
        return np.int64(0)
    if n == 1:
        return val_a
    if need_a + need_b <= left:
        return val_a + val_b
    return abs(val_a - val_b)


@hot
def _after(c, k, led, best, best_seat, seat, trump):
    """The trick's (led suit, winning card, its seat) after ``seat`` plays ``c`` as card ``k``."""
    if k == 0:
        return c >> 4, c, seat
    if power(c, led, trump) > power(best, led, trump):
        return led, c, seat
    return led, best, best_seat


@hot
def _meta(won, target, leader, left):
    meta = np.int64(leader)
    for p in range(4):
        need = min(max(target[p] - won[p], 0), left + 1)
        meta |= np.int64(need) << (2 + 4 * p)
    return meta


@hot
def _relative(H):
    """The hands by relative rank: hands 1..3's cards as positions among the cards still in play
    (the fourth hand is the rest), so that positions differing only in cards already gone share
    an entry; and the suit lengths of the cards in play (which make the positions mean the same
    suits), packed 4 bits a suit."""
    universe = H[0] | H[1] | H[2] | H[3]
    lengths = np.int64(0)
    for s in range(4):
        lengths |= np.int64(popcount(universe & lane(s))) << (4 * s)
    return pext(H[0], universe), pext(H[1], universe), pext(H[2], universe), lengths


@hot
def _slot(k0, k1, k2, meta):
    h = (k0 * U64(0x9E3779B97F4A7C15)) ^ (k1 * U64(0xC2B2AE3D27D4EB4F)) ^ (k2 * U64(0x165667B19E3779F9))
    h ^= U64(meta) * U64(0xFF51AFD7ED558CCD)
    h ^= h >> U64(29)
    return np.int64(h >> U64(64 - TT_BITS)) * TT_WORDS


@hot
def _candidates(H, seat, k, led, best, best_seat, trick_bits, trump, out):
    """The cards worth trying for ``seat`` (one per run of equivalent cards), ordered; returns
    how many were written to ``out``."""
    hand = H[seat]
    moves = legal_moves(hand, k, led)
    universe = H[0] | H[1] | H[2] | H[3] | trick_bits
    kept = U64(0)
    rest = moves
    while rest:
        c = lowest_bit(rest)
        rest &= rest - _ONE
        nxt = above(c) & universe
        if nxt and (hand >> U64(lowest_bit(nxt))) & _ONE:
            continue  # the next card up is ours too: the same card for every purpose
        kept |= _ONE << U64(c)
    n = 0
    if k == 0:  # lead: highest first
        while kept:
            c = 63 - _leading(kept)
            kept &= ~(_ONE << U64(c))
            out[n] = c
            n += 1
        return n
    partner_wins = (best_seat & 1) == (seat & 1)
    if not partner_wins:
        bp = power(best, led, trump)
        winners = U64(0)
        scan = kept
        while scan:
            c = lowest_bit(scan)
            scan &= scan - _ONE
            if power(c, led, trump) > bp:
                winners |= _ONE << U64(c)
        kept &= ~winners
        while winners:  # the cheapest winner first
            c = _cheapest(winners, led, trump)
            winners &= ~(_ONE << U64(c))
            out[n] = c
            n += 1
    while kept:
        c = _cheapest(kept, led, trump)
        kept &= ~(_ONE << U64(c))
        out[n] = c
        n += 1
    return n


@hot
def _to_front(moves, n, card):
    """Move ``card`` to the front of ``moves[:n]`` if it is there (the rest keep their order)."""
    for i in range(n):
        if moves[i] == card:
            for j in range(i, 0, -1):
                moves[j] = moves[j - 1]
            moves[0] = card
            return


@hot
def _leading(x):
    n = 0
    while not (x >> U64(63 - n)) & _ONE:
        n += 1
    return n


@hot
def _cheapest(cards, led, trump):
    """The card of ``cards`` with the least power (ties: the lowest index)."""
    best = -1
    best_power = 1 << 20
    scan = cards
    while scan:
        c = lowest_bit(scan)
        scan &= scan - _ONE
        p = power(c, led, trump) * 4 + (c & 15) // 4
        if p < best_power:
            best_power = p
            best = c
    return best


# The search is recursive, and Numba cannot load a recursive function from its on-disk cache
# (the symbol of the recursive call stays unresolved), so these compile in each process.
NO_CACHE = jit(cache=False)
NO_CACHE_PARALLEL = jit(cache=False, parallel=True)


@NO_CACHE
def search(H, won, target, value, trump, leader, k, led, best, best_seat, trick_bits, alpha, beta, T, ctx):
    """The score (seats 1+3 minus seats 2+4) with best play from this position, fail-soft
    within (alpha, beta). H: uint64[4] hands (restored on return); won: int64[4] tricks taken
    (restored); k: cards already in the current trick, led by ``leader``."""
    ctx[CTX_NODES] += 1
    alpha0 = alpha
    beta0 = beta
    slot = -1
    meta = np.int64(0)
    k0 = k1 = k2 = U64(0)
    if k == 0:
        left = popcount(H[0])
        lo, hi = bounds(won, target, value, left)
        if lo == hi or hi <= alpha:
            return hi
        if lo >= beta:
            return lo
        k0, k1, k2, lengths = _relative(H)
        meta = _meta(won, target, leader, left) | (lengths << 32)
        slot = _slot(k0, k1, k2, meta)
        if (
            T[slot + 7] == ctx[CTX_GENERATION]
            and T[slot + 4] == meta
            and T[slot] == np.int64(k0)
            and T[slot + 1] == np.int64(k1)
            and T[slot + 2] == np.int64(k2)
        ):
            lo = max(lo, T[slot + 5])
            hi = min(hi, T[slot + 6])
            if lo == hi or hi <= alpha:
                return hi
            if lo >= beta:
                return lo
        alpha = max(alpha, lo)
        beta = min(beta, hi)
        alpha0 = alpha
        beta0 = beta
    seat = (leader + k) & 3
    maximizing = (seat & 1) == 0
    moves = np.empty(13, dtype=np.int64)
    n = _candidates(H, seat, k, led, best, best_seat, trick_bits, trump, moves)
    if slot >= 0 and T[slot + 7] == ctx[CTX_GENERATION] and T[slot + 4] == meta:
        _to_front(moves, n, T[slot + 3])  # the lead that decided this position last time
    result = -INF if maximizing else INF
    chosen = moves[0]
    for i in range(n):
        c = moves[i]
        bit = _ONE << U64(c)
        H[seat] &= ~bit
        nled, nbest, nseat = _after(c, k, led, best, best_seat, seat, trump)
        if k == 3:
            won[nseat] += 1
            v = search(H, won, target, value, trump, nseat, 0, 0, 0, 0, U64(0), alpha, beta, T, ctx)
            won[nseat] -= 1
        else:
            v = search(H, won, target, value, trump, leader, k + 1, nled, nbest, nseat, trick_bits | bit,
                       alpha, beta, T, ctx)  # fmt: skip
        H[seat] |= bit
        if maximizing:
            if v > result:
                result = v
                chosen = c
            if v > alpha:
                alpha = v
        else:
            if v < result:
                result = v
                chosen = c
            if v < beta:
                beta = v
        if alpha >= beta:
            break
    if slot >= 0:
        lower = result if result > alpha0 else -INF
        upper = result if result < beta0 else INF
        if (
            T[slot + 7] == ctx[CTX_GENERATION]
            and T[slot + 4] == meta
            and T[slot] == np.int64(k0)
            and T[slot + 1] == np.int64(k1)
            and T[slot + 2] == np.int64(k2)
        ):
            lower = max(lower, T[slot + 5])
            upper = min(upper, T[slot + 6])
        T[slot] = np.int64(k0)  # the fourth hand is the rest of the cards in play
        T[slot + 1] = np.int64(k1)
        T[slot + 2] = np.int64(k2)
        T[slot + 3] = chosen
        T[slot + 4] = meta
        T[slot + 5] = lower
        T[slot + 6] = upper
        T[slot + 7] = ctx[CTX_GENERATION]
    return result


@NO_CACHE
def solve_bids(hands, trump, leader, target, value, won, T, ctx):
    """The score under best play: hands uint64[4] (equal sizes, a trick boundary), ``leader``
    seat index, target/value/won int64[4] (``won``: tricks already taken before this ending)."""
    ctx[CTX_GENERATION] += 1
    ctx[CTX_NODES] = 0
    H = hands.copy()
    w = won.copy()
    lower, upper = bounds(w, target, value, popcount(H[0]))
    g = np.int64(0) if lower <= 0 <= upper else lower
    while lower < upper:  # MTD(f): zero-window tests "score >= beta?" until the bounds meet
        beta = g + 1 if g == lower else g
        g = search(H, w, target, value, trump, leader, 0, 0, 0, 0, U64(0), beta - 1, beta, T, ctx)
        if g < beta:
            upper = g
        else:
            lower = g
    return lower


@NO_CACHE
def solve_bids_line(hands, trump, leader, target, value, won, T, ctx, line):
    """:func:`solve_bids` and one line of best play: the cards in play order go to ``line``
    (int64[4 * cards a hand]); returns (score, tricks int64[4] at the end including ``won``)."""
    score = solve_bids(hands, trump, leader, target, value, won, T, ctx)
    H = hands.copy()
    w = won.copy()
    moves = np.empty(13, dtype=np.int64)
    n_cards = 4 * popcount(hands[0])
    lead = leader
    k = 0
    led = 0
    best = 0
    best_seat = 0
    trick_bits = U64(0)
    for i in range(n_cards):
        seat = (lead + k) & 3
        n = _candidates(H, seat, k, led, best, best_seat, trick_bits, trump, moves)
        chosen = moves[0]
        for j in range(n):
            c = moves[j]
            bit = _ONE << U64(c)
            H[seat] &= ~bit
            nled, nbest, nseat = _after(c, k, led, best, best_seat, seat, trump)
            if k == 3:
                w[nseat] += 1
                v = search(
                    H, w, target, value, trump, nseat, 0, 0, 0, 0, U64(0), score - 1, score + 1, T, ctx
                )
                w[nseat] -= 1
            else:
                v = search(H, w, target, value, trump, lead, k + 1, nled, nbest, nseat, trick_bits | bit,
                           score - 1, score + 1, T, ctx)  # fmt: skip
            H[seat] |= bit
            if v == score:
                chosen = c
                break
        line[i] = chosen
        bit = _ONE << U64(chosen)
        H[seat] &= ~bit
        led, best, best_seat = _after(chosen, k, led, best, best_seat, seat, trump)
        trick_bits |= bit
        k += 1
        if k == 4:
            w[best_seat] += 1
            lead = best_seat
            k = 0
            trick_bits = U64(0)
    return score, w


@NO_CACHE_PARALLEL
def solve_bids_batch(hands, trump, leader, targets, values, won, tables, contexts):
    """:func:`solve_bids` for many deals in parallel: hands uint64[n, 4], targets/values/won
    int64[n, 4]; tables int64[k, TT_SIZE] and contexts int64[k, CTX_SIZE] for k workers (worker
    w takes deals w, w + k, ...). Returns the scores (int64[n])."""
    n = hands.shape[0]
    k = tables.shape[0]
    out = np.empty(n, dtype=np.int64)
    for w in prange(k):
        for i in range(w, n, k):
            out[i] = solve_bids(
                hands[i], trump, leader, targets[i], values[i], won[i], tables[w], contexts[w]
            )
    return out
