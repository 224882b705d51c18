"""Exact double-dummy solver over the bitboards.

A package along the solver's parts: :mod:`.layout` (the workspace and the table as int64
arrays), :mod:`.bits` (intrinsics and bit helpers), :mod:`.table` (patterns and the
transposition table), :mod:`.bounds`, :mod:`.moves` (move ordering), :mod:`.search` and
:mod:`.solve` (the entry points). What other kernels, the API and the tests use is re-exported
here.

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

from kernels.core.dd.bits import (
    HAS_BMI2,
    representatives,
    representatives_bmi2,
    representatives_loop,
    top_cards_bmi2,
    top_cards_loop,
    top_run_bmi2,
    top_run_loop,
)
from kernels.core.dd.bounds import no_trump_sure_tricks, quick_tricks, sure_trump_tricks
from kernels.core.dd.layout import (
    BEST_CARD,
    BEST_SEAT,
    CUT_BASE,
    CUT_BITS,
    CUTKEY,
    KEYS_AT,
    LEADER,
    LED,
    MOVES,
    MS_MASK,
    NO_TRUMP,
    NTRICK,
    POOL_CHUNKS,
    POOL_NEXT_AT,
    SOLO,
    SOLVE_AT,
    ST_MAX_PATTERNS,
    STOP_AT,
    T_SIZE,
    TEAM,
    TRICK_SET,
    TRUMP,
    TT_MEMORY_BYTES,
    W_SIZE,
)
from kernels.core.dd.moves import order_moves
from kernels.core.dd.solve import (
    card_scores,
    guess_tricks,
    ms_mask_for,
    new_workspace,
    setup,
    solve_at,
    solve_one,
    solve_position,
    solve_table,
    solve_table_batch,
    solve_worker,
)
from kernels.core.dd.table import (
    clear_table,
    field_mask,
    key_field,
    new_table,
    new_tables,
    pattern_masks,
    reset_table,
    shape_and_keys,
    st_count,
    st_find,
    start_deal,
    tt_lookup,
    tt_store,
)

__all__ = [
    "BEST_CARD",
    "BEST_SEAT",
    "CUTKEY",
    "CUT_BASE",
    "CUT_BITS",
    "HAS_BMI2",
    "KEYS_AT",
    "LEADER",
    "LED",
    "STOP_AT",
    "MOVES",
    "MS_MASK",
    "NO_TRUMP",
    "NTRICK",
    "POOL_CHUNKS",
    "POOL_NEXT_AT",
    "SOLO",
    "SOLVE_AT",
    "ST_MAX_PATTERNS",
    "TEAM",
    "TRICK_SET",
    "TRUMP",
    "TT_MEMORY_BYTES",
    "T_SIZE",
    "W_SIZE",
    "card_scores",
    "clear_table",
    "field_mask",
    "guess_tricks",
    "key_field",
    "ms_mask_for",
    "new_table",
    "new_tables",
    "new_workspace",
    "no_trump_sure_tricks",
    "order_moves",
    "pattern_masks",
    "quick_tricks",
    "representatives",
    "representatives_bmi2",
    "representatives_loop",
    "reset_table",
    "setup",
    "shape_and_keys",
    "solve_at",
    "solve_one",
    "solve_position",
    "solve_table",
    "solve_table_batch",
    "solve_worker",
    "st_count",
    "st_find",
    "start_deal",
    "sure_trump_tricks",
    "top_cards_bmi2",
    "top_cards_loop",
    "top_run_bmi2",
    "top_run_loop",
    "tt_lookup",
    "tt_store",
]
