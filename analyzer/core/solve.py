"""Double-dummy analysis: the most tricks a partnership (``team``) or one player (``solo``) takes
with perfect play by all four, on a full deal or an ending.

``team`` is what DDS computes (for the leader's partnership unless another player is named).
``solo`` is 400's own question: the named player maximises their own tricks while the other
three, partner included, minimise them; so solo(p) <= team(p's partnership).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence

import numpy as np

from analyzer import config
from analyzer.core.errors import T400Error
from analyzer.core.notation import Card, Deal, as_deal
from analyzer.core.runtime import (
    KERNEL_STOP,
    check_threads,
    compile_aside,
    interruptible,
    on_workers,
    threads_used,
)
from analyzer.core.strains import Strain
from kernels.core import dd

MODES = {"team": dd.TEAM, "solo": dd.SOLO}


def strain_id(trump: str | int | Strain) -> int:
    """The kernels' trump index of a strain (see :class:`analyzer.core.strains.Strain`)."""
    return int(Strain.parse(int(trump) if isinstance(trump, np.integer) else trump))


def _check(mode: str, leader: int, player: int | None) -> tuple[int, int, int]:
    if mode not in MODES:
        raise T400Error(f"unknown mode {mode!r} (expected team or solo)")
    for name, seat in (("leader", leader), ("player", player)):
        if seat is not None and (isinstance(seat, bool) or seat not in (1, 2, 3, 4)):
            raise T400Error(f"{name} {seat!r}: expected a seat 1..4")
    return MODES[mode], leader - 1, (leader if player is None else player) - 1


class _Solvers(threading.local):
    """Per-thread workspaces and transposition tables, kept between calls (a table of ``dd.TT_MEMORY_BYTES`` per worker)."""

    def __init__(self):
        self.workspaces = np.zeros((0, dd.W_SIZE), dtype=np.int64)
        self.tables = np.zeros((0, dd.T_SIZE), dtype=np.int64)

    def get(self, workers: int):
        if self.tables.shape[0] != workers:
            self.workspaces = np.zeros((workers, dd.W_SIZE), dtype=np.int64)
            self.tables = dd.new_tables(workers)
        self.workspaces[:, dd.STOP_AT] = STOP_ADDRESS
        return self.workspaces, self.tables


_SOLVERS = _Solvers()
#: The address of :data:`KERNEL_STOP`, kept in each workspace this process makes (``dd.STOP_AT``):
#: the searches read the flag through it every few thousand nodes, so Ctrl-C or a server's cap
#: ends even one long solve within moments. Set anew at each use, since it is this process's.
STOP_ADDRESS = KERNEL_STOP.ctypes.data


def solver_space(workers: int) -> tuple[np.ndarray, np.ndarray]:
    """This thread's (workspaces int64[workers, dd.W_SIZE], tables int64[workers, dd.T_SIZE]),
    kept between calls, for kernels that run the team solver themselves."""
    return _SOLVERS.get(workers)


def solve_batch(hands, strain, leader, mode_id, player, workspaces, tables) -> tuple[np.ndarray, np.ndarray]:
    """The team or solo solver on many deals (hands uint64[n, 4]), one worker thread per
    workspace (:func:`kernels.core.dd.solve_worker`): (tricks int64[n], nodes int64[n])."""
    n = len(hands)
    out = np.empty(n, dtype=np.int64)
    nodes = np.empty(n, dtype=np.int64)
    compile_search_aside(dd.solve_worker)
    on_workers(dd.solve_worker, len(workspaces), hands, strain, leader, mode_id, player, workspaces, tables, out,
               nodes)  # fmt: skip
    return out, nodes


def solve_team_tasks(hands, tasks, trump_lead: bool, workspaces, tables) -> np.ndarray:
    """Team double dummy for many (deal, strain, leader) tasks (int64[t, 3]; hands uint64[n, 4]),
    one worker thread per workspace (:func:`kernels.tarneeb.advice.team_tasks_worker`): the
    leader's team's tricks, int64[t]."""
    from kernels.tarneeb import advice as ka

    out = np.empty(len(tasks), dtype=np.int64)
    on_workers(ka.team_tasks_worker, len(workspaces), hands, tasks, trump_lead, workspaces, tables, out)
    return out


def solve(deal: Deal | str, trump: str | int = "hearts", leader: int = 1, mode: str = "team",
          player: int | None = None) -> int:  # fmt: skip
    """Double-dummy tricks for ``player``'s partnership (team) or ``player`` (solo).

    ``player`` defaults to the leader. The deal may be an ending (equal hand sizes).

    >>> solve("AKQ.-.-.- 432.-.-.- JT9.-.-.- 876.-.-.-", trump="none")
    3
    >>> solve("AKQ.-.-.- 432.-.-.- JT9.-.-.- 876.-.-.-", trump="none", mode="solo", player=3)
    0
    """
    return int(solve_many([deal], trump=trump, leader=leader, mode=mode, player=player, threads=1)[0])


def solve_many(
    deals: Iterable[Deal | str],
    trump: str | int = "hearts",
    leader: int = 1,
    mode: str = "team",
    player: int | None = None,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> np.ndarray:
    """:func:`solve` for many deals (int64 array, input order), in parallel on ``threads``."""
    hands = deals_array(deals)
    out = np.empty(len(hands), dtype=np.int64)
    for start, block in solve_blocks(hands, trump, leader, mode, player, threads):
        out[start : start + len(block)] = block
        if progress:
            progress(start + len(block), len(hands))
    return out


def solve_blocks(
    deals: Iterable[Deal | str] | np.ndarray,
    trump: str | int = "hearts",
    leader: int = 1,
    mode: str = "team",
    player: int | None = None,
    threads: int | None = None,
    batch: int | None = None,
) -> Iterator[tuple[int, np.ndarray]]:
    """:func:`solve_many` block by block: yields (index of the block's first deal, its tricks)
    as each block of up to ``config.get().solve_batch`` deals is solved, so a caller can keep finished work."""
    strain = strain_id(trump)
    mode_id, lead, who = _check(mode, leader, player)
    hands = deals if isinstance(deals, np.ndarray) else deals_array(deals)
    workers = min(check_threads(threads), max(1, len(hands)))
    workspaces, tables = _SOLVERS.get(workers)
    batch = batch or config.get().solve_batch
    for start in range(0, len(hands), batch):
        block = hands[start : start + batch]
        tricks, _ = solve_batch(block, strain, lead, mode_id, who, workspaces, tables)
        yield start, tricks


def solve_table(deal: Deal | str) -> np.ndarray:
    """All 20 team results of a deal (DDS's ``CalcDDtable``): int64[5, 4], the tricks of seats
    1+3 for each strain (rows spades, hearts, diamonds, clubs, no trump; see
    :class:`~analyzer.core.strains.Strain`) and each leader (columns seat 1..4); seats 2+4 take
    the rest. The deal may be an ending.

    >>> solve_table("AKQ.-.-.- 432.-.-.- JT9.-.-.- 876.-.-.-")[4].tolist()  # no trump
    [3, 3, 3, 3]
    """
    return solve_tables([deal], threads=1)[0]


def solve_tables(deals: Iterable[Deal | str] | np.ndarray, threads: int | None = None,
                 progress: Callable[[int, int], None] | None = None) -> np.ndarray:  # fmt: skip
    """:func:`solve_table` for many deals: int64[n, 5, 4], input order, in parallel on ``threads``."""
    hands = deals if isinstance(deals, np.ndarray) else deals_array(deals)
    out = np.empty((len(hands), 5, 4), dtype=np.int64)
    for start, block in solve_table_blocks(hands, threads):
        out[start : start + len(block)] = block
        if progress:
            progress(start + len(block), len(hands))
    return out


def solve_table_blocks(deals: Iterable[Deal | str] | np.ndarray, threads: int | None = None,
                       batch: int | None = None) -> Iterator[tuple[int, np.ndarray]]:  # fmt: skip
    """:func:`solve_tables` block by block, as :func:`solve_blocks`: yields (index of the block's
    first deal, int64[block, 5, 4])."""
    hands = deals if isinstance(deals, np.ndarray) else deals_array(deals)
    workers = min(check_threads(threads), max(1, len(hands)))
    workspaces, tables = _SOLVERS.get(workers)
    batch = batch or max(1, config.get().solve_batch // 8)
    for start in range(0, len(hands), batch):
        with threads_used(workers):
            # a helper thread, so that Ctrl-C is handled while it runs; the kernel reads the
            # stop flag between strains and leaves what it did not finish at -1
            block = interruptible(dd.solve_table_batch, hands[start : start + batch], workspaces, tables,
                                  KERNEL_STOP)  # fmt: skip
        done = block.reshape(len(block), -1).min(axis=1) >= 0
        if not done.all():
            first_missing = int(np.argmin(done))
            if first_missing:
                yield start, block[:first_missing]
            return
        yield start, block


def card_scores(deal: Deal | str, trump: str | int = "hearts", leader: int = 1, mode: str = "team",
                player: int | None = None) -> dict[Card, int]:  # fmt: skip
    """Tricks for the side (or player) after each card the leader may lead, best first."""
    strain = strain_id(trump)
    mode_id, lead, who = _check(mode, leader, player)
    hands = deals_array([deal])[0]
    workspaces, tables = _SOLVERS.get(1)
    scores = dd.card_scores(workspaces[0], tables[0], hands, strain, lead, mode_id, who)
    found = {Card.from_index(i): int(v) for i, v in enumerate(scores) if v >= 0}
    return dict(sorted(found.items(), key=lambda kv: (-kv[1], kv[0].suit, -kv[0].rank)))


def side_of(mode: str, leader: int = 1, player: int | None = None) -> list[int]:
    """The seats whose tricks are counted."""
    p = leader if player is None else player
    return [p] if mode == "solo" else sorted({p, (p + 1) % 4 + 1})


def deals_array(deals: Iterable[Deal | str] | Sequence) -> np.ndarray:
    rows = []
    for n, deal in enumerate(deals, start=1):
        try:
            rows.append(as_deal(deal).bits)
        except T400Error as exc:
            raise T400Error(f"deal {n}: {exc}") from None
    if not rows:
        return np.zeros((0, 4), dtype=np.uint64)
    return np.ascontiguousarray(np.stack(rows))


class _BidsSolvers(threading.local):
    """Per-thread tables and contexts of the with-bids solver (the team solver's pattern table,
    ``dd.TT_MEMORY_BYTES`` per worker), kept between calls."""

    def __init__(self):
        self.tables = self.contexts = None
        self.families_seen: dict[tuple[int, ...], int] = {}

    def get(self, workers: int):
        from kernels.core import bids_dd

        if self.tables is None or self.tables.shape[0] != workers:
            # not stacked from single tables: a copy would lose their cache-line alignment
            self.tables, self.contexts = bids_dd.new_tables(workers)
            self.families_seen = {}
        self.contexts[:, dd.STOP_AT] = STOP_ADDRESS
        return self.tables, self.contexts

    def families(self, workers: int, player: int, values: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[int]]:
        """:meth:`get`, and the number of each row of ``values``' family of solves for ``player``
        (the other players' values count; :func:`kernels.core.bids_dd.solve_bids_made`), the
        same for this thread's tables' lifetime. When the numbers would run out the tables are
        made anew."""
        from kernels.core import bids_dd

        keys = [(player, *(int(v) for p, v in enumerate(row) if p != player)) for row in values.tolist()]
        if len(self.families_seen.keys() | set(keys)) > bids_dd.FAMILIES:
            self.tables = None  # what the tables hold is keyed by numbers that will be given again
        tables, contexts = self.get(workers)
        return tables, contexts, [self.families_seen.setdefault(key, len(self.families_seen)) for key in keys]


_BIDS_SOLVERS = _BidsSolvers()


def solve_targets(deal: Deal | str, targets: Sequence[int], values: Sequence[int], trump: str | int = "hearts",
                  leader: int = 1, won: Sequence[int] = (0, 0, 0, 0)) -> tuple[int, list[int], list[Card]]:  # fmt: skip
    """Double dummy where each player has a target of their own: seats 1+3 maximise, seats 2+4
    minimise, the score (seats 1+3 minus seats 2+4) in which each player counts +value if their
    tricks (``won`` before this ending included) reach their target, else -value.

    Returns (score, each player's tricks at the end of one line of best play, that line's cards).

    >>> solve_targets("A.-.-.- K.-.-.- Q.-.-.- J.-.-.-", targets=[1, 1, 0, 0], values=[5, 3, 1, 1], trump="none")
    (8, [1, 0, 0, 0], [Card('SA'), Card('SK'), Card('SQ'), Card('SJ')])
    """
    from kernels.core import bids_dd

    strain = strain_id(trump)
    _, lead, _ = _check("team", leader, None)
    hands = deals_array([deal])[0]
    arrays = []
    for name, four in (("targets", targets), ("values", values), ("won", won)):
        row = np.asarray(list(four), dtype=np.int64) if len(list(four)) == 4 else None
        if row is None:
            raise T400Error(f"{name}: expected four values, seat 1 first")
        arrays.append(row)
    tables, contexts = _BIDS_SOLVERS.get(1)
    table, context = tables[0], contexts[0]
    line = np.zeros(4 * int(bin(int(hands[0])).count("1")), dtype=np.int64)
    compile_search_aside(bids_dd.solve_bids_line, "bids")
    score, tricks = bids_dd.solve_bids_line(hands, strain, lead, *arrays, table, context, line)
    return int(score), [int(t) for t in tricks], [Card.from_index(int(c)) for c in line]


def _position(hands: Sequence[int], trick: Sequence[Card]) -> tuple[np.ndarray, np.ndarray]:
    cards = np.zeros(4, dtype=np.int64)
    for k, c in enumerate(trick):
        cards[k] = c.index
    return np.asarray([int(h) for h in hands], dtype=np.uint64), cards


def team_tricks_at(hands: Sequence[int], trick: Sequence[Card], leader: int, player: int,
                   trump: str | int = "hearts") -> int:  # fmt: skip
    """Double-dummy tricks of ``player``'s partnership from a position part way through a trick:
    ``hands`` the four hands' cards still held (bits, seat 1 first), ``trick`` the cards played
    to the current trick from ``leader`` (seat 1..4) on; the current trick counts.

    >>> top = [0b111 << 10, 0b111 << 3, 0b111 << 6, 0b111]  # seat 1 holds the spade A K Q
    >>> team_tricks_at(top, [], leader=1, player=1, trump="none")
    3
    >>> team_tricks_at([0b11 << 10, *top[1:]], [Card.parse("SA")], leader=1, player=2, trump="none")
    0
    """
    strain = strain_id(trump)
    _, lead, who = _check("team", leader, player)
    h, cards = _position(hands, trick)
    workspaces, tables = _SOLVERS.get(1)
    return int(dd.solve_at(workspaces[0], tables[0], h, strain, lead, dd.TEAM, who, cards, len(trick), 0))


def targets_score_at(hands: Sequence[int], trick: Sequence[Card], leader: int, targets: Sequence[int],
                     values: Sequence[int], won: Sequence[int], trump: str | int = "hearts") -> int:  # fmt: skip
    """:func:`solve_targets`' score (seats 1+3 minus seats 2+4 under best play) from a position
    part way through a trick (as :func:`team_tricks_at`; ``won``: the finished tricks' winners).

    >>> targets_score_at([1 << 12, 1 << 11, 1 << 10, 1 << 9], [], 1, [1, 1, 0, 0], [5, 3, 1, 1], [0, 0, 0, 0],
    ...                  trump="none")
    8
    """
    from kernels.core import bids_dd

    strain = strain_id(trump)
    _, lead, _ = _check("team", leader, None)
    h, cards = _position(hands, trick)
    arrays = [np.asarray([int(x) for x in four], dtype=np.int64) for four in (targets, values, won)]
    tables, contexts = _BIDS_SOLVERS.get(1)
    return int(bids_dd.solve_bids_at(h, strain, lead, cards, len(trick), *arrays, tables[0], contexts[0]))


#: The parts of each double-dummy search that :func:`warm_search_parts` compiles aside, with the
#: argument types their callers give them (a test holds these to the types a solve compiles), in
#: the order the helper takes them: the one a kernel's compile reaches last first. ``team``: the
#: team and solo solver (:mod:`kernels.core.dd`); ``bids``: 400's double dummy with the bids.
SEARCH_PARTS = {
    "team": (
        ("kernels.core.dd.search", "finish", "(int64[::1], int64[::1], int64, int64, int64, uint64, int64)"),
        ("kernels.core.dd.moves", "order_moves", "(int64[::1], int64[::1], int64, int64, uint64, int64, int64)"),
    ),
    "bids": (
        ("kernels.core.bids_dd", "_store",
         "(uint64[::1], uint64, int64, uint64, int64, int64, int64, int64, int64[::1], int64[::1])"),
        ("kernels.core.bids_dd", "_ordered_moves",
         "(uint64[::1], int64, int64, int64, int64, int64, uint64, int64, int64, int64, int64[::1], int64[::1])"),
        ("kernels.core.bids_dd", "_remember_cut", "(int64[::1], int64[::1], int64, int64)"),
        ("kernels.core.bids_dd", "_trick_start",
         "(uint64[::1], int64[::1], int64[::1], int64[::1], int64[::1], int64, int64, int64, int64, int64[::1], "
         "int64[::1])"),
        ("kernels.core.bids_dd", "_last_trick",
         "(uint64[::1], int64[::1], int64[::1], int64[::1], int64[::1], int64, int64, int64, int64, int64)"),
    ),
}  # fmt: skip


def compile_search_aside(kernel, search: str = "team"):
    """Before ``kernel`` (one that runs ``search``, a key of :data:`SEARCH_PARTS`) first compiles:
    a helper process on the other core compiles the search's parts meanwhile, the last a compile
    reaches first (:func:`analyzer.core.runtime.compile_aside`; ``None`` when the kernel is
    cached). A caller with other work to compile first may wait for the helper: the kernel then
    compiles only the search's loop."""
    return compile_aside(kernel, "analyzer.core.solve:warm_search_parts", list(SEARCH_PARTS).index(search))


def warm_search_parts(search: int = 0, only: tuple[str, ...] | None = None, skip: tuple[str, ...] = ()) -> None:
    """Compile the parts of search number ``search`` of :data:`SEARCH_PARTS` (the helper process
    of :func:`compile_search_aside`), or those named in ``only``, but none named in ``skip``. A
    kernel compiles its callees in the order its code calls them, each into the disk cache:
    meanwhile the helper compiles the parts it reaches last, and the kernel loads them when it
    gets there (or, if the helper is late, compiles them itself)."""
    import importlib

    from numba.core import sigutils

    for module, name, signature in list(SEARCH_PARTS.values())[search]:
        if (only is not None and name not in only) or name in skip:
            continue
        # types, not the text: the cache keys a compile on what it is given
        getattr(importlib.import_module(module), name).compile(sigutils.normalize_signature(signature)[0])


def warm_bids_at() -> None:
    """Compile :func:`targets_score_at`'s search, a review's without decision costs: in the
    helper process of :func:`analyzer.core.runtime.compile_aside` (with decision costs the
    review values its cards by pimc's kernel, :func:`analyzer.core.pimc.score_at`)."""
    targets_score_at([1 << 12, 1 << 11, 1 << 10, 1 << 9], [], 1, [1, 1, 0, 0], [5, 3, 1, 1], [0, 0, 0, 0], trump="none")
