"""The solver's workspace and table layouts (one int64 array each, indices named here), and the
position's accessors in the workspace."""

import numpy as np

from kernels.config import jit
from kernels.core.cards import SUIT_BITS
from kernels.core.flags import raised_at

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
# the address of the stop flag (:mod:`kernels.core.flags`) the search reads every few thousand
# nodes, or 0 (never stopped); set by the caller that owns the workspace, never by setup
STOP_AT = 14
# how often (in nodes, a power of two less one) the search reads the stop flag
STOP_EVERY = 4095
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
# the number of the bids solver's current solve (kernels.core.bids_dd.start_solve), kept with the
# table whose entries it keys
SOLVE_AT = STAMP_AT + 1
T_SIZE = (STAMP_AT + 8) // 8 * 8  # whole cache lines: every table of a batch starts on one
assert SOLVE_AT < T_SIZE
TT_MEMORY_BYTES = T_SIZE * 8
# 'extra' (the key beside shape and pattern): leader 2 bits, trump 3, max side 4 (team and solo);
# the bids solver (kernels.core.bids_dd) adds the players' needs above, with an empty max side
EXTRA_BITS = 40
EXTRA_MASK = (1 << EXTRA_BITS) - 1
# positions with this few tricks left are searched, not looked up: searching two tricks costs
# less than a look-up
TT_MIN_TRICKS = 2
_EMPTY = 511  # an impossible 'extra' marks an empty slot
@hot
def stop_requested(W):
    """Whether the stop flag whose address is in ``W[STOP_AT]`` is raised (``False`` without one)."""
    return W[STOP_AT] != 0 and raised_at(W[STOP_AT])


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
