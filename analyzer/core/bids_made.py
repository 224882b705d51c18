"""A bid analysis's questions to the 400 double dummy with the bids: for each deal and candidate
bid, whether the player is made on a line of best play (``t400 bid --model dd``), answered in a
batch across worker threads, with what spares most searches: players settled by their top trumps,
and bids worth more than the other players' open bids, which are the player's bid alone.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

import numpy as np

from analyzer.core.runtime import check_threads
from analyzer.core.solve import _BIDS_SOLVERS, _check, deals_array, strain_id


def made_on_best_lines(hands: np.ndarray, targets: np.ndarray, values: np.ndarray, player: int,
                       trump: str | int = "hearts", leader: int = 1, threads: int | None = None,
                       done: Callable[[int, int], None] | None = None) -> np.ndarray:  # fmt: skip
    """Whether ``player`` is made on a line of best play of 400 double dummy with the bids (see
    :func:`solve_targets`; among lines of equal score the player's side prefers them made, the
    other side set) in each of many deals: hands uint64[n, 4], targets and values int64[n, 4],
    seat 1 first. Returns bool[n].

    Deals the top trumps settle are not searched. The others go to ``threads`` workers, each with
    its own table: a worker solves a deal's rows one after the other (a bid analysis's candidate
    bids, which share the table where the player is made or set: the families of
    :func:`kernels.core.bids_dd.solve_bids_made`), then takes the next deal, and at the end helps
    with the rows another worker has not started (a few deals take thousands of times the
    median); the answers do not depend on the order. ``done(finished, n)`` is called from this
    thread about four times a second; an exception it raises (Ctrl-C) stops the workers after
    the solves under way, and is raised once those end.

    Where the player's value exceeds the sum of the values of the others still open (not
    settled by top trumps), every score with the player made is above every score with them
    set: the sides play for the player's bid first, so it is made on a best line exactly when
    the player's side can force the player's tricks to the bid against the other side. Those
    rows are searched as that game alone (the others' targets dropped), which is faster and,
    being monotone in the bid, answers a deal's higher such bids after the first one failed
    (and lower ones after one made) without a search."""
    from kernels.core import bids_dd

    strain = strain_id(trump)
    _, lead, who = _check("solo", leader, player)
    n = len(hands)
    workers = min(check_threads(threads), max(1, n))
    tables, contexts = _BIDS_SOLVERS.get(workers)
    settled = bids_dd.settled_players(hands, strain, lead, targets, who, contexts[0])
    made = settled == 1
    won = np.zeros(4, dtype=np.int64)
    todo = np.flatnonzero(settled < 0)
    targets, values, alone = _player_alone(hands, strain, lead, targets, values, who, contexts[0])
    tables, contexts, families = _BIDS_SOLVERS.families(workers, who, values[todo])
    # a deal's rows are adjacent (as a bid analysis gives them)
    deals: list[list[tuple[int, int, int]]] = []
    for i, family in zip(todo.tolist(), families):
        if deals and np.array_equal(hands[deals[-1][-1][0]], hands[i]):
            deals[-1].append((i, family, len(deals) - 1))
        else:
            deals.append([(i, family, len(deals))])
    # per deal, for the rows searched alone: the highest bid forced and the lowest not forced
    forced = np.zeros(len(deals), dtype=np.int64)
    not_forced = np.full(len(deals), 99, dtype=np.int64)
    # per deal and family, the others' part of the last solve's score: where the next starts
    rests: dict[tuple[int, int], int] = {}
    lock = threading.Lock()
    state = {"next": 0, "finished": int((settled >= 0).sum()), "stop": False}

    def known(i: int, deal: int) -> bool:
        """Whether an alone row's answer follows from its deal's others (under the lock)."""
        bid = targets[i, who]
        if alone[i] and (bid <= forced[deal] or bid >= not_forced[deal]):
            made[i] = bid <= forced[deal]
            state["finished"] += 1
            return True
        return False

    def take(mine: list | None) -> tuple[tuple[int, int, int] | None, list | None]:
        with lock:
            item, mine = _take(mine)
            while item is not None and known(item[0], item[2]):
                item, mine = _take(mine)
            return item, mine

    def _take(mine: list | None) -> tuple[tuple[int, int, int] | None, list | None]:
        if state["stop"]:
            return None, None
        if mine:
            return mine.pop(0), mine
        if state["next"] < len(deals):
            state["next"] += 1
            deal = deals[state["next"] - 1]
            return deal.pop(0), deal
        rest = max(deals, key=len, default=[])  # another worker's deal: its last row
        return (rest.pop(), None) if rest else (None, None)

    def work(w: int) -> None:
        item, mine = take(None)
        while item is not None:
            i, family, deal = item
            with lock:
                guess = rests.get((deal, family), bids_dd.NO_GUESS)
            got = bids_dd.solve_bids_made(hands[i], strain, lead, targets[i], values[i], won, who, family, tables[w],
                                          contexts[w], guess, False)  # fmt: skip
            with lock:
                made[i] = bool(got[1])
                rests[(deal, family)] = int(got[2])
                state["finished"] += 1
                if alone[i] and made[i]:
                    forced[deal] = max(forced[deal], targets[i, who])
                elif alone[i]:
                    not_forced[deal] = min(not_forced[deal], targets[i, who])
            item, mine = take(mine)

    with ThreadPoolExecutor(workers) as pool:
        futures = [pool.submit(work, w) for w in range(workers)]
        try:
            while True:
                if done:
                    done(state["finished"], n)
                running = [f for f in futures if not f.done()]
                if not running:
                    break
                wait(running, timeout=0.25, return_when=FIRST_COMPLETED)
            for f in futures:
                f.result()
        except BaseException:
            with lock:
                state["stop"] = True
            wait(futures)
            raise
    return made


def _player_alone(hands, strain, lead, targets, values, who, ctx):
    """(targets, values, alone bool[n]): the rows where the player's value exceeds the sum of
    the others' values still open (see :func:`made_on_best_lines`) become the player's bid
    alone: the others' targets 0 (made whatever is played) and their values 1, so that every
    such row of every deal is one family of solves."""
    from kernels.core import bids_dd

    rest = np.zeros(len(hands), dtype=np.int64)
    for other in range(4):
        if other != who:
            open_ = bids_dd.settled_players(hands, strain, lead, targets, other, ctx) < 0
            rest += np.where(open_, values[:, other], 0)
    alone = values[:, who] > rest
    targets, values = targets.copy(), values.copy()
    others = [p for p in range(4) if p != who]
    targets[np.ix_(alone, others)] = 0
    values[np.ix_(alone, others)] = 1
    return targets, values, alone


def warm_made_on_best_lines() -> None:
    """Compile :func:`made_on_best_lines`' searches (``t400 bid --model dd``, after its sampling
    kernels)."""
    ending = deals_array(["AKQ.-.-.- 432.-.-.- JT9.-.-.- 876.-.-.-"])
    bids = np.array([[2, 1, 1, 1]], dtype=np.int64)
    made_on_best_lines(ending, bids, bids, 1, trump="none", threads=1)
