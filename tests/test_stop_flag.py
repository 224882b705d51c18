"""Both double-dummy searches read the stop flag while they run (issue 58, item 5): Ctrl-C or a
server's cap ends even one long solve within moments, and a stopped search leaves its table true.

The flag is raised by a watcher thread once the search has counted a given number of nodes (read
from the workspace while the kernel runs), so the tests do not depend on the machine's speed: a
search that did not read the flag would go on to its full count.
"""

import random
import threading
import time

import numpy as np
from conftest import random_deal

from analyzer.core import solve as dd_solve
from analyzer.core.runtime import KERNEL_STOP
from kernels.core import bids_dd, dd
from kernels.core.dd.layout import NODES

RAISE_AT = 200_000


def stopped_midway(run, counter):
    """Run ``run()`` in a thread; raise the flag once ``counter()`` passes :data:`RAISE_AT`.
    Returns (the nodes counted at the end, seconds from the flag to the end)."""
    KERNEL_STOP[0] = 0
    done = threading.Event()
    worker = threading.Thread(target=lambda: (run(), done.set()), daemon=True)
    worker.start()
    raised_at = None
    try:
        while not done.is_set():
            if raised_at is None and counter() >= RAISE_AT:
                KERNEL_STOP[0] = 1
                raised_at = time.perf_counter()
            time.sleep(0.0002)
        worker.join()
    finally:
        KERNEL_STOP[0] = 0
    assert raised_at is not None, "the search ended before the flag was raised: pick a longer one"
    return counter(), time.perf_counter() - raised_at


def long_solo_deal():
    rng = random.Random(3)
    deals = [random_deal(rng) for _ in range(5)]
    return np.array(deals[4], dtype=np.uint64)  # 2.3 million nodes in solo mode from an empty table


def test_the_team_solver_stops_inside_one_long_solve_and_its_table_stays_true():
    hands = long_solo_deal()
    W, T = dd_solve.solver_space(1)
    assert W[0, dd.STOP_AT] == dd_solve.STOP_ADDRESS
    dd.clear_table(T[0])
    out = np.zeros(1, dtype=np.int64)
    nodes = np.zeros(1, dtype=np.int64)
    full = dd_solve.solve_batch(hands[None, :], 1, 0, dd.SOLO, 0, W, T)
    assert full[1][0] > 10 * RAISE_AT
    dd.clear_table(T[0])
    counted, after = stopped_midway(
        lambda: dd.solve_worker(hands[None, :], 1, 0, dd.SOLO, 0, W, T, out, nodes, 0), lambda: W[0, NODES]
    )
    assert counted < full[1][0] // 2, (counted, full[1][0])
    assert after < 1.0
    # what the stopped search stored is still exact: every answer from that table is the same
    rng = random.Random(11)
    others = np.array([random_deal(rng) for _ in range(20)], dtype=np.uint64)
    again = dd_solve.solve_batch(np.vstack([hands[None, :], others]), 1, 0, dd.SOLO, 0, W, T)[0]
    fresh_W, fresh_T = np.zeros_like(W), dd.new_tables(1)
    fresh = dd_solve.solve_batch(np.vstack([hands[None, :], others]), 1, 0, dd.SOLO, 0, fresh_W, fresh_T)[0]
    assert again.tolist() == fresh.tolist()


def long_bids_deal():
    rng = random.Random(7)
    deals = [random_deal(rng) for _ in range(8)]
    return np.array(deals[7], dtype=np.uint64)  # 3.5 million nodes with bids 4,4,3,3


def test_the_bids_solver_stops_inside_one_long_solve():
    hands = long_bids_deal()
    target = np.array([4, 4, 3, 3], dtype=np.int64)
    won = np.zeros(4, dtype=np.int64)
    T, ctx = bids_dd.new_table()
    ctx[dd.STOP_AT] = dd_solve.STOP_ADDRESS
    answer = {}

    def solve():
        answer["score"] = bids_dd.solve_bids(hands, 1, 0, target, target, won, T, ctx)

    counted, after = stopped_midway(solve, lambda: ctx[bids_dd.CTX_NODES])
    assert counted < 5 * RAISE_AT, counted
    assert after < 1.0
    # unstopped, the same solve counts its millions and gives the exact answer again
    T2, ctx2 = bids_dd.new_table()
    exact = bids_dd.solve_bids(hands, 1, 0, target, target, won, T2, ctx2)
    assert ctx2[bids_dd.CTX_NODES] > 10 * RAISE_AT
    assert bids_dd.solve_bids(hands, 1, 0, target, target, won, T, ctx) == exact, "the flag lowered: exact again"


def test_a_workspace_without_the_address_never_stops():
    """Workspaces made inside kernels (and by callers that keep no flag) hold 0: never read."""
    hands = long_solo_deal()
    W, T = np.zeros((1, dd.W_SIZE), dtype=np.int64), dd.new_tables(1)
    KERNEL_STOP[0] = 1
    try:
        tricks, nodes = dd_solve.solve_batch(hands[None, :], 1, 0, dd.SOLO, 0, W, T)
    finally:
        KERNEL_STOP[0] = 0
    assert nodes[0] > 10 * RAISE_AT
    assert tricks[0] == dd_solve.solve(_deal_text(hands), trump="hearts", leader=1, mode="solo")


def _deal_text(hands):
    from analyzer.core.notation import Deal, Hand

    return str(Deal(tuple(Hand(int(h)) for h in hands)))
