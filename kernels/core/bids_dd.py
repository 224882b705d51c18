"""Double dummy with the bids: both partnerships see all cards and play for their side's points.

Each player ``p`` has a target (their bid, ``target[p]`` tricks) and a value ``value[p]``: the
player's side gains ``value[p]`` if their tricks reach the target, else loses it. Seats 0 and 2
(seats 1+3) maximise, seats 1 and 3 minimise, the *score*: the points of seats 1+3 minus those
of seats 2+4 at the end of the hand. This is 400's perfect-information model (each player
scored on their own bid, partners cooperating); any game where every player has a target of
their own can use it.

Technique: zero-window searches driven MTD(f)-style, with the team solver's machinery
(:mod:`kernels.core.dd`) where it stays exact:

* the outcome only depends on which players reach their targets, so the search works on the
  index of the score among the (at most 16) scores of the made/failed outcomes, and the only
  game state it carries is the tricks each player still *needs* (0 once made, capped at the
  tricks left plus one once out of reach);
* bounds before a trick is searched: players whose target is made or out of reach are
  decided; then the transposition table (below), which decides the most; then the tricks each
  player surely wins with top trumps (in no trump, the other side's sure first tricks); then
  the quick tricks the side on lead may cash, which cap the other side's tricks. The best case
  for a side lets its undecided players make what its tricks allow while the other side's fail;
* partition search: every result carries its rank winners, and the team solver's
  transposition table stores bounds per pattern of relevant cards, keyed besides by the
  leader, trump and every player's needs (emptied at the start of each solve: the bounds are
  indices into that solve's scores);
* the team solver's move ordering (seats 1+3 as its max side) and cut-off cache, one card of
  each run of equivalent cards, and after a card whose rank proved irrelevant no lower card of
  its suit;
* a player's result on a line of best play (:func:`solve_bids_made`): among lines of equal
  score, that player's side prefers the player made and the other side set, a tie-break
  searched with the score (on doubled scores, one more bit of outcome);
* families of such solves (the other players' values the same, the player's bid and value not:
  a bid analysis's candidate bids): where the player is made or set, the position is the same
  game whatever the player's bid, so its bounds are stored as ranks among the other players'
  parts of the score, keyed by the family instead of the solve, and later solves of the
  family find them; a deal's next solve of the family also starts MTD(f) at the last one's
  part of the score for the other players, with the player set;
* a bid analysis asks only the player's result: its zero-window tests aim at the edges between
  runs of scores with the same tie-break bit, and it stops once the bounds hold one result.

Hands are uint64 in the layout of :mod:`kernels.core.cards`; ``trump`` is a suit index or 4 for
no trump; seats are indices 0..3.
"""

import numpy as np

from kernels.config import JIT, jit
from kernels.core import dd
from kernels.core.cards import above, lane, lowest_bit, popcount
from kernels.core.dd.bits import unmanaged, unmanaged_uint64
from kernels.core.dd.layout import EXTRA_BITS, STOP_EVERY, stop_requested
from kernels.core.tricks import legal_moves, power

hot = jit(forceinline=True)
# array indices unsigned where they are not constants, as in kernels.core.dd (no wraparound code)
U64 = np.uint64
_ONE = U64(1)

TT_MEMORY_BYTES = dd.TT_MEMORY_BYTES

# the context array: the workspace the pattern table's helpers read (hands, trick-start key words,
# probes, move lists), then counters, the table look-up's answer, the solve's outcome scores, the
# players' sure tricks, and the searched position's hands and tricks won
CTX_NODES = dd.W_SIZE
CTX_LOOK = CTX_NODES + 1
CTX_SCORES = CTX_LOOK + 5
CTX_SCALE = CTX_SCORES + 16
CTX_FAVOURED = CTX_SCALE + 1
CTX_SURE = CTX_FAVOURED + 1
CTX_HANDS = CTX_SURE + 4  # the position's hands (uint64 words) and tricks won, while a solve runs
CTX_WON = CTX_HANDS + 4
CTX_SOLVE = CTX_WON + 4  # the solve's number (start_solve)
CTX_FAMILY = CTX_SOLVE + 1  # the solve's family (-1: none; see solve_bids_made)
CTX_REST = CTX_FAMILY + 1  # the family's scores of the other players' outcomes, ascending (8)
CTX_N_REST = CTX_REST + 8
CTX_MINE = CTX_N_REST + 1  # the favoured player's part of a score: set, made
# whole cache lines and two spare ones: workers' contexts are rows of one array, and the words
# written at every node end a row, next to the next worker's hands (false sharing between cores)
CTX_SIZE = (CTX_MINE + 2 + 7) // 8 * 8 + 16

# the table's keys ('extra'): the leader, trump and needs, and above them the solve's number or,
# with the top bit, the family's
KEY_META = 7  # where _meta's leader and needs start
SOLVE_SHIFT = 26
SOLVE_MASK = (1 << (EXTRA_BITS - 1 - SOLVE_SHIFT)) - 1
FAMILY_FLAG = 1 << (EXTRA_BITS - 1)
#: How many families a table can tell apart (:func:`solve_bids_made`).
FAMILIES = SOLVE_MASK + 1


#: :func:`_solve_at`'s ``guess`` when there is none (below every score).
NO_GUESS = -(1 << 40)


def new_tables(count):
    """``count`` transposition tables (the team solver's: int64[count, dd.T_SIZE], each on a cache
    line as :func:`kernels.core.dd.new_tables` makes them) and their contexts
    (int64[count, CTX_SIZE])."""
    return dd.new_tables(count), np.zeros((count, CTX_SIZE), dtype=np.int64)


def new_table():
    """One table and its context (:func:`new_tables`)."""
    tables, contexts = new_tables(1)
    return tables[0], contexts[0]


@jit(inline="always")  # small: inlined before typing, not one more unit to compile
def start_solve(T, ctx):
    """Start a solve on table ``T``: its bounds are indices into this solve's scores, so its
    entries are keyed by a new solve number (kept in the table, and in ``ctx``) instead of the
    36 MiB table being emptied; older solves' entries never match and are the first replaced
    (:func:`kernels.core.dd.start_deal`). The answers are those of an empty table; the search
    can differ a little (the number moves an entry's home slot, and older entries fill slots),
    and the cut-off cache, which orders the moves, is emptied as a cleared table's is."""
    n = (T[dd.SOLVE_AT] + 1) & SOLVE_MASK
    T[dd.SOLVE_AT] = n
    dd.start_deal(T)
    if n == 0:  # the numbers wrap: an entry of a solve that many solves ago would match
        dd.reset_table(T)
    for i in range(1 << dd.CUT_BITS):
        T[dd.CUT_BASE + i] = 0
    ctx[CTX_SOLVE] = n
    ctx[CTX_FAMILY] = -1


@jit(inline="always")  # small: inlined before typing, not one more unit to compile
def _set_position(H, w, hands, won):
    """Copy the hands and tricks won into the search's slots (a loop: a slice assignment of an
    array compiles Numba's shape-mismatch message, seconds of a first run)."""
    for p in range(4):
        H[U64(p)] = hands[U64(p)]
        w[U64(p)] = won[U64(p)]


@hot
def bounds(won, target, value, left):
    """(lower, upper) bound of the score with ``left`` tricks still to play, from the tricks
    each player still needs alone (the Python face of :func:`bounds_at`)."""
    return bounds_at(won, target, value, left, np.zeros(4, dtype=np.int64), 0, 0, 0, 0)


@hot
def bounds_at(won, target, value, left, sure, sure_a, sure_b, cash, cash_side):
    """(lower, upper) bound of the score with ``left`` tricks still to play.

    What is known: player p wins at least ``sure[p]`` more tricks whatever anyone plays (top
    trumps), and the sides (seats 1+3, seats 2+4) at least ``sure_a``/``sure_b``; and side
    ``cash_side`` (0 or 1), on lead, may cash ``cash`` tricks at once. A player is made if the
    tricks they surely win reach the target, failed if the most the others leave them does not;
    the best case for a side lets its undecided players make what the tricks it may still win
    allow while the other side's fail; a side that cashes its tricks caps the other side's."""
    forced_a = max(sure[0] + sure[2], sure_a)
    forced_b = max(sure[1] + sure[3], sure_b)
    cap_a = left - max(forced_b, cash if cash_side == 1 else 0)  # side A at best
    cap_b = left - max(forced_a, cash if cash_side == 0 else 0)
    hi = _side_net(won, target, value, 0, cap_a, sure, left, True) - _side_net(
        won, target, value, 1, 0, sure, left, False
    )
    lo = _side_net(won, target, value, 0, 0, sure, left, False) - _side_net(
        won, target, value, 1, cap_b, sure, left, True
    )
    return lo, hi


@hot
def _side_net(won, target, value, side, cap, sure, left, best):
    """A side's net points (its made players' values minus its failed ones'): at best, its
    players sharing at most ``cap`` more tricks; at worst, only the surely made ones made."""
    net = np.int64(0)
    n = 0
    need_a = need_b = val_a = val_b = np.int64(0)
    total = sure[0] + sure[1] + sure[2] + sure[3]
    for p in (side, side + 2):
        need = target[U64(p)] - won[U64(p)]
        if need <= sure[U64(p)]:
            net += value[U64(p)]
        elif not best or need > min(cap, left - (total - sure[U64(p)])):
            net -= value[U64(p)]
        elif n == 0:
            need_a, val_a = need, value[U64(p)]
            n = 1
        else:
            need_b, val_b = need, value[U64(p)]
            n = 2
    if best:
        net += _best_subset(n, need_a, val_a, need_b, val_b, cap)
    return net


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
    """The leader (2 bits) and each player's need (4 bits each, capped at ``left`` + 1)."""
    meta = np.int64(leader)
    for p in range(4):
        need = min(max(target[U64(p)] - won[U64(p)], 0), left + 1)
        meta |= np.int64(need) << (2 + 4 * p)
    return meta


@hot
def _outcome_scores(target, value, scores, favoured):
    """The distinct scores of the 16 made/failed outcomes, ascending, into ``scores[:16]``;
    returns how many. The search works on their indices, which fit the table's 4-bit bounds.

    With a ``favoured`` player (>= 0) every score is doubled and 1 added when that player is
    made (subtracted for seats 2+4, who minimise): among lines of equal score, the favoured
    player's side then prefers the player made and the other side prefers them set, which
    decides the player's result on one line of best play."""
    n = 0
    for m in range(16):
        n = _insert_distinct(scores, n, _outcome_score(m, value, favoured))
    return n


@hot
def _insert_distinct(scores, n, sc):
    """Insert ``sc`` into the ascending distinct ``scores[:n]``; returns their new count."""
    i = 0
    while i < n and scores[U64(i)] < sc:
        i += 1
    if i < n and scores[U64(i)] == sc:
        return n
    for j in range(n, i, -1):
        scores[U64(j)] = scores[U64(j - 1)]
    scores[U64(i)] = sc
    return n + 1


@hot
def _outcome_score(m, value, favoured):
    """The score of outcome ``m`` (bit p: player p made), doubled with the tie-break when a
    player is ``favoured`` (see :func:`_outcome_scores`)."""
    sc = np.int64(0)
    for p in range(4):
        sign = 1 if (p & 1) == 0 else -1
        sc += sign * value[U64(p)] if (m >> p) & 1 else -sign * value[U64(p)]
    if favoured >= 0:
        sc = 2 * sc + ((1 if (favoured & 1) == 0 else -1) if (m >> favoured) & 1 else 0)
    return sc


@hot
def _index_at_most(scores, n, sc):
    i = 0
    while i + 1 < n and scores[U64(i + 1)] <= sc:
        i += 1
    return i


@hot
def _index_at_least(scores, n, sc):
    i = n - 1
    while i > 0 and scores[U64(i - 1)] >= sc:
        i -= 1
    return i


@hot
def _decided(lo, hi, beta, scores, n, scale, favoured, won, target, left, sure):
    """(decided, index): the index bound that settles a zero-window test at ``beta``, from
    bounds of the score (``scale`` 2: the scores are doubled with the ``favoured`` player's
    tie-break, which is known once that player is surely made or surely set)."""
    if scale == 1:
        lo2 = lo
        hi2 = hi
    else:
        need = target[U64(favoured)] - won[U64(favoured)]
        made = need <= sure[U64(favoured)]
        failed = need > left - (sure[0] + sure[1] + sure[2] + sure[3] - sure[U64(favoured)])
        if (favoured & 1) == 0:
            lo2 = 2 * lo + (1 if made else 0)
            hi2 = 2 * hi + (0 if failed else 1)
        else:
            lo2 = 2 * lo - (0 if failed else 1)
            hi2 = 2 * hi - (1 if made else 0)
    li = _index_at_most(scores, n, lo2)
    if li >= beta:
        return True, li
    hi_i = _index_at_least(scores, n, hi2)
    if hi_i < beta:
        return True, hi_i
    return False, 0


# The work of a node lives in these kernels, called (not inlined) from the search loop: each
# compiles once, and the search stays small.


@JIT
def _trick_start(H, won, target, value, scores, n_scores, trump, leader, beta, T, ctx):
    """A trick-start node's bounds and table look-up, each computed only when the ones before
    did not decide: what each player needs (nearly free), the pattern table, the top trumps'
    sure tricks, the leader's side's quick tricks. The table comes before the trick counts
    because it decides about half the nodes that get past the needs and the counts a few in
    ten. Returns (decided, index, rank winners, shape, extra, hint suit, hint index from the
    top)."""
    left = popcount(H[U64(leader)])
    scale = ctx[CTX_SCALE]
    favoured = ctx[CTX_FAVOURED]
    sure = ctx[CTX_SURE : CTX_SURE + 4]
    sure[:] = 0
    lo, hi = bounds_at(won, target, value, left, sure, 0, 0, 0, 0)
    done, v = _decided(lo, hi, beta, scores, n_scores, scale, favoured, won, target, left, sure)
    if done:
        return True, v, U64(0), U64(0), np.int64(0), -1, -1
    for s in range(4):
        ctx[U64(s)] = np.int64(H[U64(s)])
    ctx[dd.LEADER] = leader
    shape, k0, k1 = dd.shape_and_keys(ctx)
    ctx[U64(dd.KEYS_AT + 2 * left)] = np.int64(k0)
    ctx[U64(dd.KEYS_AT + 2 * left + 1)] = np.int64(k1)
    extra = np.int64(leader) | (np.int64(trump) << 2) | (_meta(won, target, 0, left) << KEY_META)
    look = ctx[CTX_LOOK : CTX_LOOK + 5]
    family = False
    need = np.int64(1)
    if ctx[CTX_FAMILY] >= 0:  # a family has a favoured player
        need = target[U64(favoured)] - won[U64(favoured)]
        family = need <= 0 or need > left
    mine = np.int64(0)
    at = beta
    if family:
        # the favoured player is decided: the bound is kept in the family's units, the rank of
        # the other players' part of the score (see solve_bids_made)
        mine = ctx[U64(CTX_MINE + (1 if need <= 0 else 0))]
        extra |= FAMILY_FLAG | (ctx[CTX_FAMILY] << SOLVE_SHIFT)
        at = _rest_rank(ctx, scores[U64(beta)] - mine)
    else:
        extra |= ctx[CTX_SOLVE] << SOLVE_SHIFT
    rw = dd.tt_lookup(ctx, T, shape, k0, k1, extra, at, 0, look)
    if look[4] != 0:
        v = look[0] if look[4] == 1 else look[1]
        if family:
            v = _index_at_most(scores, n_scores, ctx[U64(CTX_REST + v)] + mine)
        return True, v, rw, shape, extra, -1, -1
    sure_rw = U64(0)
    sure_a = sure_b = 0
    if trump < 4:
        for p in range(4):
            ctx[dd.MS_MASK] = 1 << p
            sure[U64(p)], srw = dd.sure_trump_tricks(ctx, True)
            sure_rw |= srw
    else:
        ctx[dd.MS_MASK] = 5 << (leader & 1)
        n_other, sure_rw = dd.no_trump_sure_tricks(ctx, leader)
        if leader & 1:
            sure_a = n_other
        else:
            sure_b = n_other
    if sure_rw:
        lo, hi = bounds_at(won, target, value, left, sure, sure_a, sure_b, 0, 0)
        done, v = _decided(lo, hi, beta, scores, n_scores, scale, favoured, won, target, left, sure)
        if done:
            return True, v, sure_rw, U64(0), np.int64(0), -1, -1
    ctx[dd.MS_MASK] = 5 << (leader & 1)
    cash, cash_rw = dd.quick_tricks(ctx, leader)
    if cash > 0:
        lo, hi = bounds_at(won, target, value, left, sure, sure_a, sure_b, cash, leader & 1)
        done, v = _decided(lo, hi, beta, scores, n_scores, scale, favoured, won, target, left, sure)
        if done:
            return True, v, sure_rw | cash_rw, U64(0), np.int64(0), -1, -1
    return False, np.int64(0), U64(0), shape, extra, look[2], look[3]


@hot
def _index_if_won(won, target, value, scores, n_scores, favoured, winner):
    """The index of the score if ``winner`` takes the one trick left."""
    m = 0
    for p in range(4):
        if won[U64(p)] + (1 if p == winner else 0) >= target[U64(p)]:
            m |= 1 << p
    return _index_at_most(scores, n_scores, _outcome_score(m, value, favoured))


@JIT
def _last_trick(H, won, target, value, scores, n_scores, trump, leader, favoured, beta):
    """The index of the score when each player has one card left, and the trick's rank winner
    (none when any seat winning the trick would give the same answer to the test at ``beta``)."""
    best = lowest_bit(H[U64(leader)])
    winner = leader
    led = best >> 4
    same = 1
    for k in range(1, 4):
        seat = (leader + k) & 3
        c = lowest_bit(H[U64(seat)])
        if (c >> 4) == led:
            same += 1
        if power(c, led, trump) > power(best, led, trump):
            best = c
            winner = seat
    if (best >> 4) != led:  # a trump won: its rank matters if another trump is in the trick
        same = 0
        for seat in range(4):
            if (lowest_bit(H[U64(seat)]) >> 4) == (best >> 4):
                same += 1
    result = _index_if_won(won, target, value, scores, n_scores, favoured, winner)
    relevant = False
    for w in range(4):
        if w != winner:
            other = _index_if_won(won, target, value, scores, n_scores, favoured, w)
            relevant = relevant or (other >= beta) != (result >= beta)
    rw = (_ONE << U64(best)) if same > 1 and relevant else U64(0)
    return result, rw


@JIT
def _ordered_moves(H, leader, k, led, best, best_seat, trick_bits, depth, hint_suit, hint_index, T, ctx):
    """The moves worth trying, best first, into the team solver's move list of ``depth`` (seats
    1+3 as its max side: its rules of thumb and cut-off cache); returns how many."""
    for s in range(4):
        ctx[U64(s)] = np.int64(H[U64(s)])
    ctx[dd.LEADER] = leader
    ctx[dd.NTRICK] = k
    ctx[dd.LED] = led
    ctx[dd.BEST_CARD] = best
    ctx[dd.BEST_SEAT] = best_seat
    ctx[dd.TRICK_SET] = np.int64(trick_bits)
    ctx[dd.MS_MASK] = 5
    seat = (leader + k) & 3
    legal = legal_moves(H[U64(seat)], k, led)
    in_play = H[0] | H[1] | H[2] | H[3] | trick_bits
    return dd.order_moves(ctx, T, depth, seat, dd.representatives(legal, in_play), hint_suit, hint_index)


@hot
def _rest_rank(ctx, least):
    """The rank of the first of the family's other players' scores (CTX_REST) at least
    ``least``; how many there are if none is."""
    n = ctx[CTX_N_REST]
    r = 0
    while r < n and ctx[U64(CTX_REST + r)] < least:
        r += 1
    return r


@JIT
def _store(H, shape, extra, rank_winners, result, beta, n_scores, cut_card, T, ctx):
    """Store a trick-start node's bound for its pattern; returns the cards the pattern fixes."""
    reached = result >= beta
    if extra & FAMILY_FLAG:  # in the family's units (see _trick_start)
        need = (extra >> (KEY_META + 2 + 4 * ctx[CTX_FAVOURED])) & 15  # _meta's field
        beta = _rest_rank(ctx, ctx[U64(CTX_SCORES + beta)] - ctx[U64(CTX_MINE + (1 if need == 0 else 0))])
        n_scores = ctx[CTX_N_REST]
    for s in range(4):
        ctx[U64(s)] = np.int64(H[U64(s)])
    left = popcount(H[0])
    m0, m1, fixed = dd.pattern_masks(ctx, rank_winners)
    v0 = U64(ctx[U64(dd.KEYS_AT + 2 * left)]) & m0
    v1 = U64(ctx[U64(dd.KEYS_AT + 2 * left + 1)]) & m1
    hs = -1
    hi_ = -1
    if cut_card >= 0:
        hs = cut_card >> 4
        hi_ = popcount((H[0] | H[1] | H[2] | H[3]) & above(cut_card))
    # the pattern (the rank winners) holds for the answer at beta, so the bound stored for every
    # position of the pattern is the answer's, not the searched value
    if reached:
        dd.tt_store(T, shape, extra, m0, v0, m1, v1, beta, n_scores - 1, hs, hi_)
    else:
        dd.tt_store(T, shape, extra, m0, v0, m1, v1, 0, beta - 1, hs, hi_)
    return fixed


@JIT
def _remember_cut(T, ctx, depth, card):
    key = U64(ctx[U64(dd.CUTKEY + depth)])
    if key != 0:
        T[U64(dd.CUT_BASE + np.int64(key >> U64(64 - dd.CUT_BITS)))] = np.int64(
            ((key >> U64(8)) << U64(8)) | U64(card)
        )


# The search's frames (one per node on the path from the root, at most 53): int64 fields, and
# the uint64 ones apart.
F_LEADER = 0
F_K = 1
F_LED = 2
F_BEST = 3
F_BEST_SEAT = 4
F_N = 5  # moves in the node's list
F_I = 6  # the next move to try
F_TRIED = 7  # the index of the move being searched
F_CARD = 8  # that move's card
F_NEXT_BEST = 9  # the card winning the trick after it, and its seat (a trick's last card)
F_NEXT_SEAT = 10
F_RESULT = 11
F_CUT = 12
F_MIN_RANK = 13  # 5 bits a suit: lower cards of the suit give the same answer
F_EXTRA = 14
F_DEPTH = 15
F_SIZE = 16
U_TRICK = 0
U_SHAPE = 1
U_RW_ALL = 2
U_RW_OUT = 3
U_SIZE = 4

_ENTER = 0  # search the node given by the e_ variables
_NEXT = 1  # the top frame tries its next move
_BACK = 2  # a child's answer (v, rw) comes back to the top frame
_DONE = 3  # the top frame has its answer


@jit(inline="always")  # inlined before typing: its callers hold one copy each, not one more
def search(H, won, target, value, scores, n_scores, trump, leader, k, led, best, best_seat, trick_bits,
           beta, T, ctx):  # fmt: skip
    """Zero-window test of the position: a fail-soft bound on the index (into ``scores``) of
    the score with best play, at least ``beta`` if seats 1+3 can reach ``scores[beta]``, else
    below it; and the rank winners (cards whose rank the answer relied on). H: uint64[4] hands
    (restored on return); won: int64[4] tricks taken (restored); k: cards already in the
    current trick, led by ``leader``; ``ctx``: the workspace of :func:`new_table`.

    A depth-first search with its own stack of frames instead of recursion (a recursive kernel
    cannot be loaded from Numba's disk cache): a node is entered, tries its moves in order,
    each child's answer comes back to it, and a cut-off or its last move ends it."""
    frames = np.empty((53, F_SIZE), dtype=np.int64)
    uframes = np.empty((53, U_SIZE), dtype=np.uint64)
    sp = -1
    e_leader, e_k, e_led, e_best, e_seat, e_trick = leader, k, led, best, best_seat, trick_bits
    v = np.int64(0)
    rw = U64(0)
    state = _ENTER
    # once the stop flag is seen, every node answers beta at once and its parent takes it as a
    # cut-off, storing nothing: the search unwinds in a few steps and the table stays true
    stopping = stop_requested(ctx)
    while True:
        if state == _ENTER:
            ctx[CTX_NODES] += 1
            if (ctx[CTX_NODES] & STOP_EVERY) == 0 and stop_requested(ctx):
                stopping = True
            if stopping:
                v = beta
                rw = U64(0)
                if sp < 0:
                    return v, rw
                state = _BACK
                continue
            shape = U64(0)
            extra = np.int64(0)
            hint_suit = -1
            hint_index = -1
            leaf = False
            if e_k == 0:
                if popcount(H[U64(e_leader)]) == 1:
                    v, rw = _last_trick(
                        H, won, target, value, scores, n_scores, trump, e_leader, ctx[CTX_FAVOURED], beta
                    )
                    leaf = True
                else:
                    done, dv, drw, shape, extra, hint_suit, hint_index = _trick_start(
                        H, won, target, value, scores, n_scores, trump, e_leader, beta, T, ctx
                    )
                    if done:
                        v = dv
                        rw = drw
                        leaf = True
            if leaf:
                if sp < 0:
                    return v, rw
                state = _BACK
                continue
            depth = 52 - popcount(H[0] | H[1] | H[2] | H[3])
            n = _ordered_moves(
                H, e_leader, e_k, e_led, e_best, e_seat, e_trick, depth, hint_suit, hint_index, T, ctx
            )
            sp += 1
            spu = U64(sp)
            frames[spu, F_LEADER] = e_leader
            frames[spu, F_K] = e_k
            frames[spu, F_LED] = e_led
            frames[spu, F_BEST] = e_best
            frames[spu, F_BEST_SEAT] = e_seat
            frames[spu, F_N] = n
            frames[spu, F_I] = 0
            frames[spu, F_RESULT] = -1 if (((e_leader + e_k) & 3) & 1) == 0 else n_scores
            frames[spu, F_CUT] = -1
            frames[spu, F_MIN_RANK] = 0
            frames[spu, F_EXTRA] = extra
            frames[spu, F_DEPTH] = depth
            uframes[spu, U_TRICK] = e_trick
            uframes[spu, U_SHAPE] = shape
            uframes[spu, U_RW_ALL] = 0
            uframes[spu, U_RW_OUT] = 0
            state = _NEXT
        elif state == _NEXT:
            spu = U64(sp)
            base = dd.MOVES + 16 * frames[spu, F_DEPTH]
            i = frames[spu, F_I]
            c = np.int64(0)
            while i < frames[spu, F_N]:
                c = ctx[U64(base + i)]
                if (c & 15) >= ((frames[spu, F_MIN_RANK] >> (5 * (c >> 4))) & 31):
                    break
                i += 1
            if i >= frames[spu, F_N]:
                state = _DONE
                continue
            frames[spu, F_I] = i + 1
            frames[spu, F_TRIED] = i
            frames[spu, F_CARD] = c
            kk = frames[spu, F_K]
            seat = (frames[spu, F_LEADER] + kk) & 3
            bit = _ONE << U64(c)
            H[U64(seat)] &= ~bit
            nled, nbest, nseat = _after(
                c, kk, frames[spu, F_LED], frames[spu, F_BEST], frames[spu, F_BEST_SEAT], seat, trump
            )
            if kk == 3:
                won[U64(nseat)] += 1
                frames[spu, F_NEXT_BEST] = nbest
                frames[spu, F_NEXT_SEAT] = nseat
                e_leader, e_k, e_led, e_best, e_seat, e_trick = nseat, 0, 0, 0, 0, U64(0)
            else:
                e_leader, e_k, e_led, e_best, e_seat, e_trick = (
                    frames[spu, F_LEADER],
                    kk + 1,
                    nled,
                    nbest,
                    nseat,
                    uframes[spu, U_TRICK] | bit,
                )
            state = _ENTER
        elif state == _BACK:
            spu = U64(sp)
            c = frames[spu, F_CARD]
            kk = frames[spu, F_K]
            seat = (frames[spu, F_LEADER] + kk) & 3
            bit = _ONE << U64(c)
            if kk == 3:
                nbest = frames[spu, F_NEXT_BEST]
                won[U64(frames[spu, F_NEXT_SEAT])] -= 1
                if popcount((uframes[spu, U_TRICK] | bit) & lane(nbest >> 4)) > 1:
                    rw |= _ONE << U64(nbest)  # the trick was won by rank
            H[U64(seat)] |= bit
            maximizing = (seat & 1) == 0
            if stopping or (v >= beta) == maximizing:
                frames[spu, F_RESULT] = v
                uframes[spu, U_RW_OUT] = rw
                frames[spu, F_CUT] = c
                if frames[spu, F_TRIED] > 0 and not stopping:
                    _remember_cut(T, ctx, frames[spu, F_DEPTH], c)
                state = _DONE
                continue
            frames[spu, F_RESULT] = max(frames[spu, F_RESULT], v) if maximizing else min(frames[spu, F_RESULT], v)
            uframes[spu, U_RW_ALL] |= rw
            s = c >> 4
            min_rank = frames[spu, F_MIN_RANK]
            suit_rw = rw & lane(s)
            if suit_rw == 0:  # no rank of this suit mattered: its other cards answer the same
                min_rank |= np.int64(31) << (5 * s)
            elif c < lowest_bit(suit_rw):
                low = np.int64(lowest_bit(suit_rw) & 15)
                if low > ((min_rank >> (5 * s)) & 31):
                    min_rank = (min_rank & ~(np.int64(31) << (5 * s))) | (low << (5 * s))
            frames[spu, F_MIN_RANK] = min_rank
            state = _NEXT
        else:  # _DONE
            spu = U64(sp)
            rw_out = uframes[spu, U_RW_OUT] if frames[spu, F_CUT] >= 0 else uframes[spu, U_RW_ALL]
            v = frames[spu, F_RESULT]
            if frames[spu, F_K] == 0 and not stopping:
                rw = _store(
                    H, uframes[spu, U_SHAPE], frames[spu, F_EXTRA], rw_out, v, beta, n_scores, frames[spu, F_CUT], T, ctx
                )
            else:
                rw = rw_out
            sp -= 1
            if sp < 0:
                return v, rw
            state = _BACK


@jit(inline="always")  # a wrapper: inlined before typing, so it is not one more unit to compile
def _solve(hands, trump, leader, target, value, won, favoured, T, ctx):
    """The best score (doubled, with the tie-break, for a ``favoured`` player >= 0)."""
    return _solve_at(hands, trump, leader, 0, 0, 0, 0, U64(0), target, value, won, favoured, True, NO_GUESS, T, ctx,
                     False)


def _mtd(settles):
    """MTD(f) from a position (:func:`_solve_at`), one copy of the source for two functions:
    with ``settles`` (``_made_at``: :func:`solve_bids_made`'s) it may stop once the favoured
    player's result is known; without (``_solve_at``: every other caller's), ``settles`` is a
    constant False of the closure, so Numba prunes that code before typing and those callers
    compile none of it (as an argument it cost ``t400 card``'s first run time and memory)."""

    @jit(inline="always")  # small: inlined before typing, so the whole search is not one more unit to compile
    def _solve_at(hands, trump, leader, k, led, best, best_seat, trick_bits, target, value, won, favoured, clear, guess,
                  T, ctx, result_only):  # fmt: skip
        """:func:`_solve` from a position with ``k`` cards of the current trick played (``led``,
        ``best``, ``best_seat`` and ``trick_bits`` as :func:`search` takes them). ``clear``: start a
        new solve (:func:`start_solve`: what the table holds no longer counts); a caller that solves
        several positions with the same targets, values and ``favoured`` (the same scores, so the
        same meaning of the bounds stored) may keep the table's, after one :func:`start_solve`.
        ``guess``: a likely answer (a sibling position's; :data:`NO_GUESS` for none), where MTD(f)
        starts: a right guess answers in one or two zero-window tests. ``result_only`` (read only
        with ``settles``): stop once the ``favoured`` player's result is known."""
        if clear:
            start_solve(T, ctx)
        # views without a reference count (kernels.core.dd.bits.unmanaged) of the arguments, and of
        # the context's slots for the position: the search hands them to its parts at every node
        T = unmanaged(T)
        ctx = unmanaged(ctx)
        target = unmanaged(target)
        value = unmanaged(value)
        ctx[dd.TRUMP] = trump
        ctx[CTX_SCALE] = 2 if favoured >= 0 else 1
        ctx[CTX_FAVOURED] = favoured
        H = unmanaged_uint64(ctx, CTX_HANDS, 4)
        w = ctx[CTX_WON : CTX_WON + 4]
        _set_position(H, w, hands, won)
        scores = ctx[CTX_SCORES : CTX_SCORES + 16]
        n_scores = _outcome_scores(target, value, scores, favoured)
        # the tricks still to play, the current one included: the last to play to it has all of them
        lo, hi = bounds(w, target, value, popcount(H[U64((leader + 3) & 3)]))
        scale = ctx[CTX_SCALE]
        lower = _index_at_most(scores, n_scores, scale * lo - (scale - 1))
        upper = _index_at_least(scores, n_scores, scale * hi + (scale - 1))
        if guess == NO_GUESS:
            g = _index_at_most(scores, n_scores, scale * max(lo, min(hi, 0)))
        else:
            g = _index_at_most(scores, n_scores, guess)
        g = min(max(g, lower), upper)
        while lower < upper:
            # MTD(f): zero-window tests "index >= beta?" until the bounds meet. Only a test's answer
            # moves a bound: the value a test returns is exact for the lines it searched, but a card
            # skipped as equivalent (the rank winners, the cards of a suit below them) was
            # equivalent for the answer at this beta only; the value only guides the next test
            beta = g + 1 if g == lower else g
            if settles and result_only:
                # the favoured player's result is a score's tie-break bit: test at an edge of the
                # run of scores around g with g's bit, where one answer may leave only that run
                # (or only the scores beyond it); a test off the true score cuts sooner
                bit = scores[U64(g)] & 1
                a = g
                while a > lower and (scores[U64(a - 1)] & 1) == bit:
                    a -= 1
                b = g
                while b < upper and (scores[U64(b + 1)] & 1) == bit:
                    b += 1
                beta = a if a > lower else b + 1
            v, _ = search(H, w, target, value, scores, n_scores, trump, leader, k, led, best, best_seat, trick_bits,
                          beta, T, ctx)  # fmt: skip
            if stop_requested(ctx):
                break
            if v < beta:
                upper = beta - 1
            else:
                lower = beta
            g = min(max(v, lower), upper)
            if settles and result_only and _one_result(scores, lower, upper):
                break
        return scores[U64(lower)]

    return _solve_at


_solve_at = _mtd(False)
_made_at = _mtd(True)


@jit(inline="always")  # small: inlined before typing, not one more unit to compile
def _one_result(scores, lower, upper):
    """Whether the scores ``lower .. upper`` (indices) all have the same tie-break bit: the same
    result for the favoured player."""
    for i in range(lower + 1, upper + 1):
        if (scores[U64(i)] & 1) != (scores[U64(lower)] & 1):
            return False
    return True


@jit(inline="always")  # a wrapper: inlined before typing, so it is not one more unit to compile
def solve_bids(hands, trump, leader, target, value, won, T, ctx):
    """The score under best play: hands uint64[4] (equal sizes, a trick boundary), ``leader``
    seat index, target/value/won int64[4] (``won``: tricks already taken before this ending);
    T, ctx: a table and workspace of :func:`new_table` (the table is emptied first: its bounds
    are indices into this solve's scores)."""
    ctx[CTX_NODES] = 0
    return _solve(hands, trump, leader, target, value, won, -1, T, ctx)


@JIT
def solve_bids_at(hands, trump, leader, trick_cards, n_trick, target, value, won, T, ctx):
    """:func:`solve_bids` from part way through a trick: ``trick_cards[:n_trick]`` were played
    to it from ``leader`` on (``hands`` no longer hold them; ``won`` counts the finished tricks)."""
    led = 0
    best = 0
    best_seat = 0
    trick_bits = U64(0)
    for k in range(n_trick):
        c = trick_cards[k]
        led, best, best_seat = _after(c, k, led, best, best_seat, (leader + k) & 3, trump)
        trick_bits |= _ONE << U64(c)
    ctx[CTX_NODES] = 0
    return _solve_at(hands, trump, leader, n_trick, led, best, best_seat, trick_bits, target, value, won, -1, True,
                     NO_GUESS, T, ctx, False)  # fmt: skip


@JIT
def solve_bids_made(hands, trump, leader, target, value, won, player, family, T, ctx, rest_guess, exact):
    """:func:`solve_bids` and whether ``player`` is made on a line of best play: among the best
    lines, the player's side prefers one where the player is made, the other side one where
    they are set. Returns (score, made, rest): ``rest`` is the other players' part of the doubled
    score, which a later solve of the same deal and family may pass as ``rest_guess``
    (:data:`NO_GUESS`: none): MTD(f) then starts there with the player set, the likelier outcome
    of the next higher bid (a guess only moves where the zero-window tests start, never the
    answer).

    ``exact`` False: the search stops as soon as the player's result is known, which is all a
    bid analysis asks (its tests aim at the edges between scores of the two results rather
    than at the score itself). ``made`` is the same; ``score`` is then only a lower bound, the
    lowest score still possible (one with that result), and ``rest`` its part, a guess.

    ``family`` (0 .. FAMILIES - 1, or -1 for none): solves of the same family, which have the
    same values for the other three players (the player's target and value may differ, as
    they do between a player's candidate bids), share what the table learns where the player
    is made or set. There a score is the player's part, fixed, plus the others' part; the
    position is the same game whatever the player's bid, so its bound is kept as a rank among
    the others' parts, which the family's solves share. The caller gives each family its own
    number for the table's lifetime (the table is keyed by it)."""
    # One search on the doubled scores: searching the score first and then the tie-break
    # inside its window costs about twice the nodes (the second search starts from an empty
    # table, its bounds being indices into other scores, and repeats the costly last test).
    ctx[CTX_NODES] = 0
    start_solve(T, ctx)
    if family >= 0:
        _family_scores(value, player, family, ctx)
    mine_set, mine_made = _player_parts(value, player)
    guess = NO_GUESS if rest_guess == NO_GUESS else rest_guess + mine_set
    doubled = _made_at(hands, trump, leader, 0, 0, 0, 0, U64(0), target, value, won, player, False, guess, T, ctx,
                       not exact)
    made = (doubled & 1) == 1
    if not made:
        return doubled // 2, False, doubled - mine_set
    score = (doubled - 1) // 2 if (player & 1) == 0 else (doubled + 1) // 2
    return score, True, doubled - mine_made


@jit(inline="always")  # small: inlined before typing, not one more unit to compile
def _player_parts(value, player):
    """The player's part of a doubled score when set and when made (with the tie-break bit)."""
    sign = 1 if (player & 1) == 0 else -1
    return -2 * sign * value[U64(player)], 2 * sign * value[U64(player)] + sign


@jit(inline="always")  # small: inlined before typing, not one more unit to compile
def _family_scores(value, player, family, ctx):
    """The family's units (see :func:`solve_bids_made`): the other players' parts of the doubled
    scores, ascending and distinct, and the player's part when set and when made (with the
    tie-break)."""
    ctx[CTX_MINE], ctx[CTX_MINE + 1] = _player_parts(value, player)
    rest = ctx[CTX_REST : CTX_REST + 8]
    n = 0
    for m in range(16):
        if ((m >> player) & 1) == 0:  # the outcomes with the player set, less the player's part
            n = _insert_distinct(rest, n, _outcome_score(m, value, player) - ctx[CTX_MINE])
    ctx[CTX_N_REST] = n
    ctx[CTX_FAMILY] = family


@JIT
def solve_bids_line(hands, trump, leader, target, value, won, T, ctx, line):
    """:func:`solve_bids` and one line of best play: the cards in play order go to ``line``
    (int64[4 * cards a hand]); returns (score, tricks int64[4] at the end including ``won``)."""
    score = solve_bids(hands, trump, leader, target, value, won, T, ctx)
    T = unmanaged(T)  # as in _solve_at
    ctx = unmanaged(ctx)
    target = unmanaged(target)
    value = unmanaged(value)
    scores = ctx[CTX_SCORES : CTX_SCORES + 16]
    n_scores = _outcome_scores(target, value, scores, -1)
    at = _index_at_most(scores, n_scores, score)
    H = unmanaged_uint64(ctx, CTX_HANDS, 4)
    w = ctx[CTX_WON : CTX_WON + 4]
    _set_position(H, w, hands, won)
    n_cards = 4 * popcount(hands[0])
    lead = leader
    k = 0
    led = 0
    best = 0
    best_seat = 0
    trick_bits = U64(0)
    for i in range(n_cards):
        seat = (lead + k) & 3
        # the search's move list for this many cards played (its children use deeper ones)
        n = _ordered_moves(H, lead, k, led, best, best_seat, trick_bits, i, -1, -1, T, ctx)
        base = dd.MOVES + 16 * i
        chosen = ctx[U64(base)]
        for j in range(n):
            c = ctx[U64(base + j)]
            bit = _ONE << U64(c)
            H[U64(seat)] &= ~bit
            nled, nbest, nseat = _after(c, k, led, best, best_seat, seat, trump)
            # the best score is kept if the child reaches it (for seats 1+3's cards: no child
            # exceeds it) and, for seats 2+4's, does not exceed it
            beta = at if (seat & 1) == 0 else at + 1
            # one call of the search (each call site holds a whole copy of it)
            if k == 3:
                w[nseat] += 1
                sl, sk, sled, sbest, sseat, sbits = nseat, 0, 0, 0, 0, U64(0)
            else:
                sl, sk, sled, sbest, sseat, sbits = lead, k + 1, nled, nbest, nseat, trick_bits | bit
            v, _ = search(H, w, target, value, scores, n_scores, trump, sl, sk, sled, sbest, sseat, sbits, beta, T,
                          ctx)  # fmt: skip
            if k == 3:
                w[nseat] -= 1
            H[U64(seat)] |= bit
            if (v >= beta) == ((seat & 1) == 0):
                chosen = c
                break
        line[U64(i)] = chosen
        bit = _ONE << U64(chosen)
        H[U64(seat)] &= ~bit
        led, best, best_seat = _after(chosen, k, led, best, best_seat, seat, trump)
        trick_bits |= bit
        k += 1
        if k == 4:
            w[best_seat] += 1
            lead = best_seat
            k = 0
            trick_bits = U64(0)
    return score, w


@JIT
def player_settled(hands, trump, leader, target, won, player, ctx):
    """Whether ``player`` surely reaches their target whatever anyone plays (1), surely fails it
    (0), or only a search can tell (-1): from the tricks still needed, the tricks the player
    surely wins with top trumps, and those the other three surely win with theirs."""
    left = popcount(hands[0])
    need = target[U64(player)] - won[U64(player)]
    if need <= 0:
        return 1
    if need > left:
        return 0
    if trump > 3:
        return -1
    for s in range(4):
        ctx[U64(s)] = np.int64(hands[U64(s)])
    ctx[dd.LEADER] = leader
    ctx[dd.TRUMP] = trump
    others = 0
    for p in range(4):
        ctx[dd.MS_MASK] = 1 << p
        sure, _ = dd.sure_trump_tricks(ctx, True)
        if p == player and need <= sure:
            return 1
        if p != player:
            others += sure
    return 0 if need > left - others else -1


@JIT
def settled_players(hands, trump, leader, targets, player, ctx):
    """:func:`player_settled` for many deals at their start: hands uint64[n, 4], targets
    int64[n, 4]; returns int8[n] (1 made, 0 failed, -1 to be searched)."""
    n = hands.shape[0]
    out = np.empty(n, dtype=np.int8)
    won = np.zeros(4, dtype=np.int64)
    for i in range(n):
        out[U64(i)] = player_settled(hands[U64(i)], trump, leader, targets[i], won, player, ctx)
    return out
