"""Exact double-dummy solver over the bitboards.

The *max side* is a set of seats (``ms_mask``, a bit per seat): in ``team`` mode a partnership,
in ``solo`` mode one player whose partner joins the other side. The solver finds the most tricks
the max side takes with best play by everyone, for any trump strain (0..3, or 4 for no trump),
any leader, on full deals and on endings (equal hand sizes, at a trick boundary or part way
through a trick).

Technique (ideas from DDS, Ginsberg's partition search and macroxue's bridge-solver; our code):

* boolean zero-window searches "can the max side reach ``beta`` tricks?", driven MTD(f)-style
  from a guess until the bounds meet;
* the search is iterative (an explicit stack in the workspace), so it compiles once and caches;
* every search result carries its *rank winners*, the cards whose rank mattered (a trick won by
  rank over a card of the same suit, the top cards behind a quick-trick bound); at a trick
  boundary they become a *pattern*: for each suit, the owners of the top cards down to the
  lowest relevant one, every lower card being an indistinguishable "x". The transposition table
  keeps, per shape (suit lengths of every hand), leader, trump and max side, a list of patterns
  with their bounds, so one entry answers for every position sharing the relevant ranks; a
  look-up scans the shape's list, a pattern being two masked compares;
* quick tricks (top winners the side on lead can cash at once, ruff risks respected) and sure
  trump tricks (a trump above all the other side's always wins a trick) bound a trick the table
  did not decide before it is searched; the last two tricks are searched without the table;
* one card of each run of equivalent cards (adjacent among the cards in play, the table
  included), and after a card whose rank proved irrelevant no lower card of its suit;
* moves ordered by double-dummy rules of thumb (finesses, partner's ruffs, second hand low,
  cheapest safe winner, overruffs, discards from length), the table's best lead first, and the
  card that last refuted a position with the same holdings (a cut-off cache).

Memory is fixed: :data:`TT_MEMORY_BYTES` (36 MiB) per solver, in one int64 array: a shape table
of 65,536 entries of one cache line (key and first two patterns), a pool of 131,072 chunks of
four cache lines (14 patterns each, 16 bytes a pattern) holding the entries' further patterns,
and a 2^12-entry cut-off cache. When the pool runs out the table is emptied and filled again, so
a long batch never grows it; patterns hold for any deal, so one table serves a whole batch, but
each entry is stamped with its deal (:func:`start_deal`), those of earlier deals are replaced
first, and a deal starts with an empty table when more than half the pool is used.
"""

import numpy as np
from llvmlite import ir
from numba import carray, prange, types
from numba.extending import intrinsic

from kernels.config import JIT, PJIT, jit
from kernels.core.cards import SUIT_BITS, highest_bit, lowest_bit, popcount
from kernels.core.cards import above as above_card
from kernels.core.cards import beats as beats_card
from kernels.core.cards import below as below_card
from kernels.core.cards import lane as lane_of

hot = jit(forceinline=True)
# Indices into arrays are made unsigned here (``W[U64(i)]``) wherever they are not constants: for
# a signed index Numba adds a negative-index wraparound (a compare and a conditional move) to
# every access (docs and the commit that made them unsigned give the time it saved).
U64 = np.uint64
_ONE = U64(1)
_LANE = SUIT_BITS

NO_TRUMP = 4
TEAM = 0
SOLO = 1

# -- workspace layout (int64) ------------------------------------------------------------------
LEADER = 4
NTRICK = 5
BEST_CARD = 6
BEST_SEAT = 7
MS_WON = 8
TRUMP = 9
MS_MASK = 10
TRICK_SET = 11
NODES = 12
LED = 13
DEPTHS = 56
MOVES = 16  # [depth x 16]: the ordered move list of each node
NMOVES = MOVES + DEPTHS * 16
IDX = NMOVES + DEPTHS
RES = IDX + DEPTHS
RW = RES + DEPTHS  # rank winners gathered at each depth (card bits)
SV_BEST = RW + DEPTHS
SV_BEST_SEAT = SV_BEST + DEPTHS
SV_LED = SV_BEST_SEAT + DEPTHS
SV_SET = SV_LED + DEPTHS
CARD_AT = SV_SET + DEPTHS  # the card played at depth d is at CARD_AT + d + 4
SHAPE_AT = CARD_AT + DEPTHS + 4  # trick-start nodes: shape, key words, extra, remaining
KEYS_AT = SHAPE_AT + DEPTHS  # [depth x 2]
EXTRA_AT = KEYS_AT + 2 * DEPTHS
REM_AT = EXTRA_AT + DEPTHS
MINREL = REM_AT + DEPTHS  # [depth x 4]: lowest rank per suit still worth trying at a node
CUTKEY = MINREL + 4 * DEPTHS  # [depth]: cut-off cache key of the node
CHAIN = CUTKEY + DEPTHS  # [ST_MAX_CHUNKS]: the chunks of the list a look-up scans
W_SIZE = CHAIN + 1000

# -- transposition table -------------------------------------------------------------------------
# A *shape table* keyed by (shape, extra) lists each shape's patterns: the first two in the entry
# itself (one cache line with the key), the others in chunks of CHUNK_PATTERNS, linked in order,
# taken from a pool. A look-up finds the entry and scans its list, a few stretches of memory. When
# the pool runs out the table is emptied.
#
# A pattern is two words, one per key word (:func:`shape_and_keys`): the key word's bits under the
# pattern's mask, and in each suit field's spare low bits (:data:`SPARE`) the field's depth (how
# many top cards the mask covers, 4 bits) and 2 bits of a bound (the lower bound in word 0, the
# upper in word 1). The masks follow from the depths (:func:`word_mask`), so a compare reads 16
# bytes. Each pattern's hint (best lead: valid | suit << 1 | index << 3) is a byte apart, read only
# when the pattern matches.
ST_BITS = 16
ST_ENTRIES = 1 << ST_BITS
# entry: shape; extra | count << 40 | stamp << 55; first chunk | last chunk << 32; the hints of
# its patterns; two patterns
ST_WORDS = 8
ST_HINTS = 3
ST_PATTERN = 4
ENTRY_PATTERNS = 2
PAT_WORDS = 2
CHUNK_HEAD = 4  # next chunk (0: none), the patterns' hints (a byte each), unused
CHUNK_PATTERNS = 14
CHUNK_WORDS = CHUNK_HEAD + CHUNK_PATTERNS * PAT_WORDS
# a list's length limit, within the count's 14 bits: in solo mode (one player against three) a
# shape may gather thousands of patterns, and a shorter list costs many more nodes (team mode
# needs far fewer)
ST_MAX_CHUNKS = 1000
ST_MAX_PATTERNS = ENTRY_PATTERNS + CHUNK_PATTERNS * ST_MAX_CHUNKS
ST_STAMP_SHIFT = 55
POOL_BITS = 17
POOL_BASE = ST_ENTRIES * ST_WORDS
POOL_CHUNKS = 1 << POOL_BITS  # chunk 0 is never used: 0 ends a list
assert CHAIN + ST_MAX_CHUNKS <= W_SIZE
# the cut-off card cache: the card that last refuted a node, keyed by holdings; 2^12 entries
# (32 KiB) stay in the core's nearest caches, which pays more than the few nodes a larger cache
# saves
CUT_BITS = 12
CUT_BASE = POOL_BASE + POOL_CHUNKS * CHUNK_WORDS
POOL_NEXT_AT = CUT_BASE + (1 << CUT_BITS)  # the pool's next free chunk
# the stamp of the deal being solved (5 bits, :func:`start_deal`): entries stamped for another deal
# are still exact (a pattern holds for any deal) but are the first to be replaced, which leaves
# room for the current deal's
STAMP_AT = POOL_NEXT_AT + 1
T_SIZE = (STAMP_AT + 8) // 8 * 8  # whole cache lines: every table of a batch starts on one
TT_MEMORY_BYTES = T_SIZE * 8
# 'extra' (the key beside shape and pattern): leader 2 bits, trump 3, max side 4 (team and solo);
# the bids solver (kernels.core.bids_dd) adds the players' needs above, with an empty max side
EXTRA_BITS = 40
EXTRA_MASK = (1 << EXTRA_BITS) - 1
# positions with this few tricks left are searched, not looked up: searching two tricks costs
# less than a look-up
TT_MIN_TRICKS = 2
_EMPTY = 511  # an impossible 'extra' marks an empty slot


@intrinsic
def _int64_pointer(typingctx, address):
    sig = types.CPointer(types.int64)(types.intp)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(types.CPointer(types.int64)))

    return sig, codegen


@intrinsic
def _prefetch(typingctx, address):
    sig = types.void(types.intp)

    def codegen(context, builder, signature, args):
        ptr = builder.inttoptr(args[0], ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32])
        fn = builder.module.declare_intrinsic("llvm.prefetch.p0", fnty=fnty)
        builder.call(fn, [ptr, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


@hot
def unmanaged(a):
    """A view of int64 array ``a`` without a reference count: the search loop touches its
    workspace millions of times, and Numba's reference counting (atomic operations on every
    array handed to a helper) would cost more than the work. ``a`` must outlive the view."""
    return carray(_int64_pointer(a.ctypes.data), a.shape[0])


@hot
def get_hand(W, seat):
    return U64(W[U64(seat)])


@hot
def all_cards(W):
    return U64(W[0]) | U64(W[1]) | U64(W[2]) | U64(W[3])


@hot
def in_ms(W, seat):
    return (W[MS_MASK] >> seat) & 1 == 1


@hot
def owner_of(W, b):
    return (1 if U64(W[1]) & b else 0) + (2 if U64(W[2]) & b else 0) + (3 if U64(W[3]) & b else 0)


# ---------------------------------------------------------------------------------------------
# Positions, shapes and patterns


@hot
def shape_of(W):
    """The position's shape: the 4-bit suit lengths of every hand."""
    shape = U64(0)
    for q in range(4):
        h = get_hand(W, q)
        for s in range(4):
            shape |= U64(popcount(h & lane_of(s))) << U64(4 * (4 * q + s))
    return shape


@hot
def keys_of(W):
    """The position's two key words: per suit, the owners of its remaining cards from the top
    down (2 bits each, :func:`key_field`)."""
    h0 = get_hand(W, 0)
    h1 = get_hand(W, 1)
    h2 = get_hand(W, 2)
    h3 = get_hand(W, 3)
    k0 = U64(0)
    k1 = U64(0)
    for s in range(4):
        sh = U64(16 * s)
        rem = ((h0 | h1 | h2 | h3) >> sh) & _LANE
        # owner (2 bits) per remaining card, the top card in the highest field
        c1 = spread2(pext(((h1 | h3) >> sh) & _LANE, rem))  # low bit of the owner: seats 1, 3
        c2 = spread2(pext(((h2 | h3) >> sh) & _LANE, rem))  # high bit: seats 2, 3
        field = key_field(s, c1 | (c2 << U64(1)), popcount(rem))
        if s < 2:
            k0 |= field
        else:
            k1 |= field
    return k0, k1


@hot
def shape_and_keys(W):
    """(shape, key word 0, key word 1) of the position (:func:`shape_of`, :func:`keys_of`)."""
    k0, k1 = keys_of(W)
    return shape_of(W), k0, k1


def _bmi2_intrinsic(name):
    """A Numba intrinsic for the BMI2 instruction ``name`` (uint64, uint64) -> uint64."""

    def bmi2(typingctx, value, mask):
        sig = types.uint64(types.uint64, types.uint64)

        def codegen(context, builder, signature, args):
            i64 = ir.IntType(64)
            fn = builder.module.declare_intrinsic(name, fnty=ir.FunctionType(i64, [i64, i64]))
            return builder.call(fn, args)

        return sig, codegen

    return intrinsic(bmi2)


_pext = _bmi2_intrinsic("llvm.x86.bmi.pext.64")
_pdep = _bmi2_intrinsic("llvm.x86.bmi.pdep.64")


def _host_has_bmi2() -> bool:
    try:
        from llvmlite import binding

        return bool(binding.get_host_cpu_features().get("bmi2", False))
    except Exception:  # an unknown llvmlite: take the portable path
        return False


HAS_BMI2 = _host_has_bmi2()


# Bit helpers: a portable loop each, and with BMI2 the same by pext/pdep (tests/test_dd.py checks
# that the two agree).


@hot
def pext_loop(value, mask):
    """Parallel bit extract: the bits of ``value`` at the set bits of ``mask``, packed."""
    out = U64(0)
    k = U64(0)
    while mask:
        b = mask & (~mask + _ONE)
        if value & b:
            out |= _ONE << k
        k += _ONE
        mask &= mask - _ONE
    return out


@hot
def top_run_loop(mine, rem):
    """How many of the highest cards of ``rem`` (one suit) ``mine`` holds, counted from the top."""
    run = 0
    while rem:
        b = _ONE << U64(highest_bit(rem))
        if not (mine & b):
            break
        run += 1
        rem &= ~b
    return run


@hot
def top_cards_loop(rem, n):
    """The ``n`` highest cards of ``rem`` (one suit)."""
    out = U64(0)
    for _ in range(n):
        if rem == 0:
            break
        b = _ONE << U64(highest_bit(rem))
        out |= b
        rem &= ~b
    return out


@hot
def representatives_loop(cards, in_play):
    """One card per run of ``cards`` adjacent among ``in_play`` (the highest of each run)."""
    out = U64(0)
    for s in range(4):
        mine = cards & lane_of(s)
        if mine == 0:
            continue
        rem = in_play & lane_of(s)
        prev_mine = False
        while rem:
            b = _ONE << U64(highest_bit(rem))
            if mine & b:
                if not prev_mine:
                    out |= b
                prev_mine = True
            else:
                prev_mine = False
            rem &= ~b
    return out


@hot
def top_run_bmi2(mine, rem):
    """:func:`top_run_loop` packed to the ranks of ``rem``: the bits above the highest one
    ``mine`` lacks."""
    n = popcount(rem)
    gaps = ~_pext(mine, rem) & ((_ONE << U64(n)) - _ONE)
    return n if gaps == 0 else n - 1 - highest_bit(gaps)


@hot
def top_cards_bmi2(rem, n):
    have = popcount(rem)
    n = min(n, have)
    return _pdep(((_ONE << U64(n)) - _ONE) << U64(have - n), rem)


@hot
def representatives_bmi2(cards, in_play):
    """:func:`representatives_loop` packed to the ranks in play: a run's top is a bit whose next
    is clear, and a suit's top card in play ends a run whatever the next suit holds."""
    x = _pext(cards, in_play)
    out = _pdep(x & ~(x >> _ONE), in_play)
    for s in range(4):
        lane = in_play & lane_of(s)
        if lane:
            out |= cards & (_ONE << U64(highest_bit(lane)))
    return out & cards


if HAS_BMI2:
    pext = _pext
    top_run = top_run_bmi2
    top_cards = top_cards_bmi2
    representatives = representatives_bmi2
else:
    pext = pext_loop
    top_run = top_run_loop
    top_cards = top_cards_loop
    representatives = representatives_loop


@hot
def spread2(x):
    """Bits 0..12 of ``x`` moved to the even bits 0, 2, .., 24."""
    x = (x | (x << U64(8))) & U64(0x00FF00FF)
    x = (x | (x << U64(4))) & U64(0x0F0F0F0F)
    x = (x | (x << U64(2))) & U64(0x33333333)
    x = (x | (x << U64(1))) & U64(0x55555555)
    return x


@hot
def suit_lengths(shape):
    """The four suits' lengths (cards still in play), 4 bits each: the four hands' 16-bit fields
    of the shape added (a suit never holds more than 13 cards, so no nibble carries)."""
    return shape + (shape >> U64(16)) + (shape >> U64(32)) + (shape >> U64(48))


@hot
def field_mask(depth):
    """The mask of a suit's top ``depth`` owners in its 32-bit field (the top 2 * depth bits)."""
    return (U64(0xFFFFFFFF) << U64(32 - 2 * depth)) & U64(0xFFFFFFFF)


@hot
def field_shift(s):
    """Where suit ``s``'s 32-bit field sits in its key word (suits 0 and 2 high, 1 and 3 low)."""
    return U64(32 * (1 - (s & 1)))


@hot
def key_field(s, code, n):
    """Suit ``s``'s part of its key word: ``code``, the owners of its ``n`` remaining cards from
    the top (2 bits each, the top card's highest), at the high end of the suit's 32-bit field.
    Suits 0 and 1 are in the first key word, 2 and 3 in the second. At most 26 bits of a field are
    used: its low 6 bits are spare (:data:`SPARE`)."""
    return (U64(code) << (U64(32) - U64(2) * U64(n))) << field_shift(s)


@hot
def pattern_masks(W, rank_winners):
    """(mask0, mask1, cards the pattern fixes) from the rank winners at a trick start: a position
    matches the pattern if its key words agree with the pattern's values under the masks.

    For each suit the pattern keeps the owners of the top cards down to the lowest relevant one,
    extended down through that card's holder's next equivalent cards.
    """
    everyone = all_cards(W)
    m0 = U64(0)
    m1 = U64(0)
    fixed = U64(0)
    for s in range(4):
        rem = everyone & lane_of(s)
        rel = rank_winners & rem
        depth = 0
        if rel:
            bottom = lowest_bit(rel)
            holder = get_hand(W, owner_of(W, _ONE << U64(bottom)))
            lower = rem & below_card(bottom)
            while lower:
                nxt = highest_bit(lower)
                if not (holder >> U64(nxt)) & _ONE:
                    break
                bottom = nxt
                lower = rem & below_card(bottom)
            depth = popcount(rem & ~below_card(bottom))
            fixed |= rem & ~below_card(bottom)
        if s < 2:
            m0 |= field_mask(depth) << field_shift(s)
        else:
            m1 |= field_mask(depth) << field_shift(s)
    return m0, m1, fixed


@hot
def pattern_cards(W, m0, m1):
    """The cards a pattern with masks ``m0``, ``m1`` fixes in the current position (the top
    cards of each suit, as many as its field's mask covers)."""
    everyone = all_cards(W)
    out = U64(0)
    for s in range(4):
        m = m0 if s < 2 else m1
        field = (m >> field_shift(s)) & U64(0xFFFFFFFF)
        out |= top_cards(everyone & lane_of(s), popcount(field) >> 1)
    return out


@hot
def mix(a, b, c, d):
    h = a * U64(0x9E3779B97F4A7C15) ^ U64(b) * U64(0xC2B2AE3D27D4EB4F)
    h ^= U64(c) * U64(0x165667B19E3779F9) ^ U64(d) * U64(0xD6E8FEB86659FD93)
    h ^= h >> U64(29)
    h *= U64(0xBF58476D1CE4E5B9)
    return h ^ (h >> U64(32))


@hot
def st_home(shape, extra):
    """The first slot of the shape table where (shape, extra)'s entry may be."""
    return np.int64(mix(shape, U64(extra), U64(1), U64(0)) >> U64(64 - ST_BITS))


@hot
def st_find(T, shape, extra, create):
    """Slot of the shape-table entry for (shape, extra); -1 if absent and not ``create``."""
    h = st_home(shape, extra)
    for k in range(4):
        j = (h + k) & (ST_ENTRIES - 1)
        if U64(T[U64(ST_WORDS * j)]) == shape and (T[U64(ST_WORDS * j + 1)] & EXTRA_MASK) == extra:
            if create:  # in use for this deal
                T[U64(ST_WORDS * j + 1)] = (T[U64(ST_WORDS * j + 1)] & ~(np.int64(31) << ST_STAMP_SHIFT)) | (
                    T[STAMP_AT] << ST_STAMP_SHIFT
                )
            return j
    if not create:
        return -1
    j = h
    stamp = T[STAMP_AT]
    for k in range(4):  # an empty slot, else one stamped for another deal, else the first
        word = T[U64(ST_WORDS * ((h + k) & (ST_ENTRIES - 1)) + 1)]
        if (word & EXTRA_MASK) == _EMPTY or ((word >> ST_STAMP_SHIFT) & 31) != stamp:
            j = (h + k) & (ST_ENTRIES - 1)
            break
    T[U64(ST_WORDS * j)] = np.int64(shape)
    T[U64(ST_WORDS * j + 1)] = extra | (stamp << ST_STAMP_SHIFT)
    T[U64(ST_WORDS * j + 2)] = 0
    return j


@hot
def st_count(T, j):
    """How many patterns shape entry ``j`` lists."""
    return (T[U64(ST_WORDS * j + 1)] >> EXTRA_BITS) & 16383


@hot
def st_set_count(T, j, count):
    T[U64(ST_WORDS * j + 1)] = (T[U64(ST_WORDS * j + 1)] & ~(np.int64(16383) << EXTRA_BITS)) | (
        count << EXTRA_BITS
    )


@hot
def chunk_at(c):
    """The word of chunk ``c``'s first pattern (its header is the CHUNK_HEAD words before)."""
    return POOL_BASE + CHUNK_WORDS * c + CHUNK_HEAD


# the spare bits of a key word (below every suit's owners): in a pattern, each field's depth in
# the low 4 (DEPTH_BITS) and 2 bits of a bound above them (BOUND_BITS)
SPARE = U64(0x0000003F0000003F)
DEPTH_BITS = U64(0x0000000F0000000F)
BOUND_BITS = U64(0x0000003000000030)


def _word_masks():
    fields = [(0xFFFFFFFF << (32 - 2 * d)) & 0xFFFFFFFF for d in range(16)]
    return np.array([(fields[i >> 4] << 32) | fields[i & 15] for i in range(256)], dtype=np.uint64)


# the mask of a pattern word by its two depths (high field's << 4 | low field's)
WORD_MASKS = _word_masks()


@hot
def word_mask(p):
    """The mask of pattern word ``p`` (uint64), from the depths in its spare bits."""
    return WORD_MASKS[(p & U64(15)) | ((p >> U64(28)) & U64(0xF0))]


@hot
def depth_bits(m):
    """The spare bits holding mask word ``m``'s two depths."""
    return (U64(popcount(m >> U64(32)) >> 1) << U64(32)) | U64(popcount(m & U64(0xFFFFFFFF)) >> 1)


@hot
def bound_bits(b):
    """Bound ``b`` (0..13) in a pattern word's bound bits."""
    return (U64(b & 3) << U64(4)) | (U64(b >> 2) << U64(36))


@hot
def bound_of(p):
    """The bound held in pattern word ``p`` (uint64)."""
    return np.int64(((p >> U64(4)) & U64(3)) | (((p >> U64(36)) & U64(3)) << U64(2)))


@hot
def hint_place(e):
    """(word, shift) of the hint byte of the pattern at word ``e``."""
    if e < POOL_BASE:
        return (e & ~7) + ST_HINTS, 8 * (((e & 7) - ST_PATTERN) >> 1)
    offset = (e - POOL_BASE) & (CHUNK_WORDS - 1)
    i = (offset - CHUNK_HEAD) >> 1
    return e - offset + 1 + (i >> 3), 8 * (i & 7)


@hot
def get_hint(T, e):
    w, shift = hint_place(e)
    return (T[U64(w)] >> shift) & 255


@hot
def set_hint(T, e, hint):
    w, shift = hint_place(e)
    T[U64(w)] = (T[U64(w)] & ~(np.int64(255) << shift)) | (np.int64(hint) << shift)


@hot
def swap_patterns(T, ea, eb):
    for w in range(PAT_WORDS):
        t = T[U64(ea + w)]
        T[U64(ea + w)] = T[U64(eb + w)]
        T[U64(eb + w)] = t
    ha = get_hint(T, ea)
    set_hint(T, ea, get_hint(T, eb))
    set_hint(T, eb, ha)


@hot
def _matches(T, e, k0, k1):
    """Whether the pattern at word ``e`` matches key words ``k0``, ``k1``."""
    p0 = U64(T[U64(e)])
    p1 = U64(T[U64(e + 1)])
    return not (((k0 ^ p0) & word_mask(p0)) | ((k1 ^ p1) & word_mask(p1)))


@hot
def _cuts_or_narrows(T, e, beta, ms, out):
    """A matching pattern's bounds: True if they decide the test at ``beta`` (``out`` as in
    :func:`tt_lookup`), else they narrow ``out``'s bounds and give a hint if it has none."""
    elo = bound_of(U64(T[U64(e)]))
    ehi = bound_of(U64(T[U64(e + 1)]))
    cut = 1 if ms + elo >= beta else (2 if ms + ehi < beta else 0)
    if cut:
        out[0] = elo
        out[1] = ehi
        out[4] = cut
        return True
    out[0] = max(out[0], elo)
    out[1] = min(out[1], ehi)
    if out[2] < 0:
        h = get_hint(T, e)
        if h & 1:
            out[2] = (h >> 1) & 3
            out[3] = (h >> 3) & 15
    return False


@hot
def _slot(W, entry, k):
    """The word of the ``k``-th pattern of the list a look-up is scanning (its chunks in CHAIN)."""
    if k < ENTRY_PATTERNS:
        return entry + PAT_WORDS * k
    k -= ENTRY_PATTERNS
    return chunk_at(W[U64(CHAIN + k // CHUNK_PATTERNS)]) + PAT_WORDS * (k % CHUNK_PATTERNS)


@hot
def tt_lookup(W, T, shape, k0, k1, extra, beta, ms, out):
    """Look the position up (its shape and key words, :func:`shape_and_keys`). ``out`` receives
    [lo, hi, hint suit, hint index, cut (0 none, 1 lower bound reaches beta, 2 upper bound below
    beta)]; the cards fixed by a cutting pattern are returned. A pattern that cuts moves halfway
    to the front of the list, so that such patterns are tried early."""
    out[0] = 0
    out[1] = 13
    out[2] = -1
    out[3] = -1
    out[4] = 0
    j = st_find(T, shape, extra, False)
    if j < 0:
        return U64(0)
    count = st_count(T, j)
    entry = ST_WORDS * j + ST_PATTERN
    in_entry = min(count, ENTRY_PATTERNS)
    for i in range(in_entry):
        e = entry + PAT_WORDS * i
        if _matches(T, e, k0, k1) and _cuts_or_narrows(T, e, beta, ms, out):
            fixed = pattern_cards(W, word_mask(U64(T[U64(e)])), word_mask(U64(T[U64(e + 1)])))
            swap_patterns(T, e, entry)
            return fixed
    left = count - in_entry
    chunk = T[U64(ST_WORDS * j + 2)] & 0xFFFFFFFF
    n_chunk = 0
    while left > 0:
        W[U64(CHAIN + n_chunk)] = chunk
        n_chunk += 1
        base = chunk_at(chunk)
        chunk = T[U64(base - CHUNK_HEAD)]
        if chunk:
            ahead = T.ctypes.data + 8 * (chunk_at(chunk) - CHUNK_HEAD)
            for line in range(CHUNK_WORDS // 8):
                _prefetch(ahead + 64 * line)
        n = min(left, CHUNK_PATTERNS)
        left -= n
        for i in range(n):
            e = base + PAT_WORDS * i
            if _matches(T, e, k0, k1) and _cuts_or_narrows(T, e, beta, ms, out):
                fixed = pattern_cards(W, word_mask(U64(T[U64(e)])), word_mask(U64(T[U64(e + 1)])))
                k = ENTRY_PATTERNS + CHUNK_PATTERNS * (n_chunk - 1) + i
                swap_patterns(T, e, _slot(W, entry, k >> 1))
                return fixed
    return U64(0)


@hot
def reset_table(T):
    """Empty the shape table and the pool (the cut-off cache stays: it only orders moves)."""
    for j in range(ST_ENTRIES):
        T[U64(ST_WORDS * j)] = 0
        T[U64(ST_WORDS * j + 1)] = _EMPTY
    T[POOL_NEXT_AT] = 1


@hot
def tt_store(T, shape, extra, m0, v0, m1, v1, lo, hi, hint_suit, hint_index):
    """Store bounds for a pattern (:func:`pattern_masks`' masks, the key words under them): into
    its own place in the shape's list if there; else over a more specific pattern whose bounds
    are no tighter (it would never cut where the new one does not); else at the list's end (over
    its last pattern when full)."""
    j = st_find(T, shape, extra, True)
    count = st_count(T, j)
    w0 = v0 | depth_bits(m0)
    w1 = v1 | depth_bits(m1)
    chunk = T[U64(ST_WORDS * j + 2)] & 0xFFFFFFFF
    e = ST_WORDS * j + ST_PATTERN
    slot = -1
    for k in range(count):
        if k >= ENTRY_PATTERNS and (k - ENTRY_PATTERNS) % CHUNK_PATTERNS == 0:
            e = chunk_at(chunk)
            chunk = T[U64(e - CHUNK_HEAD)]
        q0 = U64(T[U64(e)])
        q1 = U64(T[U64(e + 1)])
        if (q0 & ~BOUND_BITS) == w0 and (q1 & ~BOUND_BITS) == w1:
            slot = e
            lo = max(lo, bound_of(q0))
            hi = min(hi, bound_of(q1))
            h = get_hint(T, e)
            if hint_suit < 0 and h & 1:
                hint_suit = (h >> 1) & 3
                hint_index = (h >> 3) & 15
            break
        if (
            lo >= bound_of(q0)
            and hi <= bound_of(q1)
            and (q0 & m0) == v0
            and (q1 & m1) == v1
            and (m0 & ~word_mask(q0)) == 0
            and (m1 & ~word_mask(q1)) == 0
        ):  # the new pattern is more general and as tight: it replaces this one
            slot = e
            break
        e += PAT_WORDS
    if slot < 0:
        if count >= ST_MAX_PATTERNS:
            slot = e - PAT_WORDS  # the list's last pattern
        elif count < ENTRY_PATTERNS or (count - ENTRY_PATTERNS) % CHUNK_PATTERNS != 0:
            slot = e
            st_set_count(T, j, count + 1)
        else:  # a new chunk at the end of the list
            c = T[POOL_NEXT_AT]
            if c >= POOL_CHUNKS:
                reset_table(T)
                j = st_find(T, shape, extra, True)
                slot = ST_WORDS * j + ST_PATTERN
                st_set_count(T, j, 1)
            else:
                T[POOL_NEXT_AT] = c + 1
                T[U64(chunk_at(c) - CHUNK_HEAD)] = 0
                links = T[U64(ST_WORDS * j + 2)]
                last = links >> 32
                if last:
                    T[U64(chunk_at(last) - CHUNK_HEAD)] = c
                    T[U64(ST_WORDS * j + 2)] = (links & 0xFFFFFFFF) | (c << 32)
                else:
                    T[U64(ST_WORDS * j + 2)] = c | (c << 32)
                slot = chunk_at(c)
                st_set_count(T, j, count + 1)
    T[U64(slot)] = np.int64(w0 | bound_bits(lo))
    T[U64(slot + 1)] = np.int64(w1 | bound_bits(hi))
    hint = 0
    if hint_suit >= 0:
        hint = 1 | (hint_suit << 1) | (hint_index << 3)
    set_hint(T, slot, hint)


@JIT
def clear_table(T):
    """Empty a transposition table in place (int64[T_SIZE])."""
    T[:] = 0
    reset_table(T)


@hot
def start_deal(T):
    """Stamp the table for a new deal: what earlier deals stored stays usable but is replaced
    first; a table whose pool is more than half used is emptied."""
    T[STAMP_AT] = (T[STAMP_AT] + 1) & 31
    if T[POOL_NEXT_AT] > POOL_CHUNKS // 2:
        reset_table(T)


def new_tables(count):
    """``count`` empty transposition tables (int64[count, T_SIZE], :data:`TT_MEMORY_BYTES` bytes
    each), each starting on a cache line so that a shape entry is one line and a chunk four.

    Allocated by NumPy, which asks Linux for transparent huge pages for large arrays: the
    table's random accesses then miss the TLB far less (about 7% faster than a table allocated
    inside a kernel). Kernels take tables as arguments for that reason."""
    raw = np.empty(count * T_SIZE + 8, dtype=np.int64)
    start = (-raw.ctypes.data % 64) // 8
    tables = raw[start : start + count * T_SIZE].reshape(count, T_SIZE)
    for T in tables:
        clear_table(T)
    return tables


def new_table():
    """An empty transposition table (int64[T_SIZE]), as :func:`new_tables` makes them."""
    return new_tables(1)[0]


# ---------------------------------------------------------------------------------------------
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


@JIT
def _reach(W, T, beta, scratch):
    scratch = unmanaged(scratch)
    look = scratch[0:5]
    # per-depth state needed to undo: leader, cards in trick, max-side tricks before the move
    leaders = scratch[5 : 5 + DEPTHS]
    n_ins = scratch[5 + DEPTHS : 5 + 2 * DEPTHS]
    mss = scratch[5 + 2 * DEPTHS : 5 + 3 * DEPTHS]
    depth = 0
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
            resolved, value, rw = enter(W, T, beta, depth, look)
            if not resolved:
                continue
        else:
            # every move searched without a cut-off
            value = W[U64(RES + depth)]
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


@JIT
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
def solve_table(W, T, hands, out):
    """All 20 results of a deal, as DDS's ``CalcDDtable``: ``out`` int64[5, 4] receives the
    tricks of seats 0+2 for each strain (0..3, 4 no trump) and leader. The 20 solves share one
    table (after the first trick, positions recur across leaders) and each leader's search starts
    from the answer for the previous leader (a fourth leader expands a quarter of the first's nodes
    or fewer)."""
    mask = ms_mask_for(TEAM, 0)
    start_deal(T)
    no_trick = np.zeros(4, dtype=np.int64)
    nodes = 0
    for trump in range(5):
        guess = guess_tricks(hands, trump, mask)
        for leader in range(4):
            setup(W, hands, trump, leader, mask, no_trick, 0)
            guess = solve_position(W, T, guess)
            out[trump, leader] = guess
            nodes += W[NODES]
    return nodes


@PJIT
def solve_table_batch(hands, workspaces, tables):
    """:func:`solve_table` for many deals (hands uint64[n, 4]; workspaces and tables as in
    :func:`solve_batch`). Returns int64[n, 5, 4]."""
    n = hands.shape[0]
    k = workspaces.shape[0]
    out = np.empty((n, 5, 4), dtype=np.int64)
    for w in prange(k):
        for i in range(w, n, k):
            solve_table(workspaces[w], tables[w], hands[i], out[i])
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
