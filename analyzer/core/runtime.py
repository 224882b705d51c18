"""Threads and chunk planning for the kernels.

A run is ``(seed, chunks)``: chunk ``i`` always uses the random stream ``(seed, i)`` and its
result depends on nothing else, so the thread count (or a Dask cluster) only decides who computes
which chunk. Results are merged in chunk order.
"""

from __future__ import annotations

import contextlib
import math
import signal
import threading

import numba

from analyzer.core.errors import T400Error

#: Deals per chunk unless a caller needs another size; a chunk's result never depends on threads.
DEFAULT_CHUNK = 2048
MAX_SEED = 2**63 - 1


def max_threads() -> int:
    return numba.config.NUMBA_NUM_THREADS


def check_threads(threads: int | None) -> int:
    """The thread count to use: ``None`` means all; 1..max otherwise."""
    top = max_threads()
    if threads is None:
        return top
    if not isinstance(threads, int) or threads < 1:
        raise T400Error(f"threads {threads!r}: expected a whole number from 1 to {top}")
    if threads > top:
        raise T400Error(f"threads {threads}: this machine allows at most {top}")
    return threads


@contextlib.contextmanager
def threads_used(threads: int | None):
    """Run the kernels inside the block on ``threads`` threads (``None``: all)."""
    n = check_threads(threads)
    before = numba.get_num_threads()
    numba.set_num_threads(n)
    try:
        yield n
    finally:
        numba.set_num_threads(before)


def check_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not (0 <= seed <= MAX_SEED):
        raise T400Error(f"seed {seed!r}: expected a whole number from 0 to 2**63-1")
    return seed


def chunks_for(n: int, chunk_size: int = DEFAULT_CHUNK) -> int:
    """Number of chunks of ``chunk_size`` covering ``n`` items (at least one)."""
    return max(1, math.ceil(n / chunk_size))


@contextlib.contextmanager
def deferred_interrupt():
    """Turn the first Ctrl-C into a flag checked between blocks (a kernel is never cut
    half-way); a second Ctrl-C interrupts at once. Yields ``stop() -> bool``."""
    hit = []
    if threading.current_thread() is not threading.main_thread():
        yield lambda: False
        return

    def handler(signum, frame):
        if hit:
            raise KeyboardInterrupt
        hit.append(signum)

    try:
        before = signal.signal(signal.SIGINT, handler)
    except (ValueError, OSError):
        yield lambda: False
        return
    try:
        yield lambda: bool(hit)
    finally:
        signal.signal(signal.SIGINT, before)


def caused_by_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` is, or was raised because of, a Ctrl-C (Numba wraps a KeyboardInterrupt
    that arrives inside a kernel call in one or more ``SystemError``)."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False
