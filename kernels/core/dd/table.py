"""The transposition table: positions' shapes and key words, patterns (the owners of the cards that
mattered, lower cards as x), the shape table with its chunk pool, and the cut-off cache."""

import numpy as np

from kernels.config import JIT
from kernels.core.cards import below as below_card
from kernels.core.cards import highest_bit, lowest_bit, popcount
from kernels.core.cards import lane as lane_of
from kernels.core.dd.bits import _prefetch, pext, spread2, top_cards
from kernels.core.dd.layout import (
    _EMPTY,
    _LANE,
    _ONE,
    CHAIN,
    CHUNK_HEAD,
    CHUNK_PATTERNS,
    CHUNK_WORDS,
    ENTRY_PATTERNS,
    EXTRA_BITS,
    EXTRA_MASK,
    PAT_WORDS,
    POOL_BASE,
    POOL_CHUNKS,
    POOL_NEXT_AT,
    ST_BITS,
    ST_ENTRIES,
    ST_HINTS,
    ST_MAX_PATTERNS,
    ST_PATTERN,
    ST_STAMP_SHIFT,
    ST_WORDS,
    STAMP_AT,
    T_SIZE,
    U64,
    all_cards,
    get_hand,
    hot,
    owner_of,
)

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
