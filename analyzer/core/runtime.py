"""Threads and chunk planning for the kernels.

A run is ``(seed, chunks)``: chunk ``i`` always uses the random stream ``(seed, i)`` and its
result depends on nothing else, so the thread count (or a Dask cluster) only decides who computes
which chunk. Results are merged in chunk order.
"""

from __future__ import annotations

import atexit
import concurrent.futures
import contextlib
import functools
import json
import math
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numba
import numba.core.event
import numpy as np

from analyzer.core.errors import Interrupted, T400Error

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


def on_workers(kernel, k: int, *args) -> None:
    """``kernel(*args, w)`` for workers ``w = 0 .. k-1``, each on a thread of its own, all at
    once; returns when all are done (the first error is raised). For worker kernels of the
    double dummy, whose workers each keep a workspace and a table: kernels release the GIL
    (``nogil``), so the threads run in parallel, and the worker kernel compiles once where a
    ``prange`` kernel would compile its body twice more."""
    if k <= 1:
        kernel(*args, 0)
        return
    with concurrent.futures.ThreadPoolExecutor(max_workers=k, thread_name_prefix="t400-worker") as pool:
        for done in [pool.submit(kernel, *args, w) for w in range(k)]:
            done.result()


def over_chunks(kernel, seed, first_chunk: int, n_chunks: int, *args):
    """``kernel(seed, first_chunk, n_chunks, *args)`` for a serial ``nogil`` kernel whose results
    are arrays with one row per chunk: the chunks split into one contiguous block per thread
    (:func:`numba.get_num_threads`), each block on a thread of its own, the rows joined in chunk
    order. Each chunk draws from its own stream (``seed``, chunk), so the answer is the same on any
    number of threads; a ``prange`` kernel would give the same, but compile about twice as long."""
    k = min(numba.get_num_threads(), n_chunks)
    if k <= 1:
        return kernel(seed, first_chunk, n_chunks, *args)
    edges = [first_chunk + (n_chunks * i) // k for i in range(k + 1)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=k, thread_name_prefix="t400-chunks") as pool:
        parts = [f.result() for f in [pool.submit(kernel, seed, a, b - a, *args) for a, b in zip(edges, edges[1:])]]
    if isinstance(parts[0], tuple):
        return tuple(np.concatenate([p[i] for p in parts]) for i in range(len(parts[0])))
    return np.concatenate(parts)


def chunks_for(n: int, chunk_size: int = DEFAULT_CHUNK) -> int:
    """Number of chunks of ``chunk_size`` covering ``n`` items (at least one)."""
    return max(1, math.ceil(n / chunk_size))


#: A flag a long kernel reads while it runs (``stop`` of :func:`kernels.t400.rollout.rollout`):
#: set to 1 by Ctrl-C inside a :func:`deferred_interrupt` region, or by a server whose request ran
#: past its cap, so that a kernel call of minutes ends within moments (its results then unused).
#: One flag for the process: Numba's parallel kernels run one call at a time anyway.
KERNEL_STOP = np.zeros(1, dtype=np.uint8)


def kernel_stopped() -> bool:
    """Whether :data:`KERNEL_STOP` is set: the last kernel call that reads it may have ended early."""
    return bool(KERNEL_STOP[0])


class _CompileClock(numba.core.event.Listener):
    """Seconds Numba has spent compiling in this process (nested compiles counted once), and
    whether it compiles now: a server tells compile time apart from its cap, and Ctrl-C during a
    compile ends the process at once (no finished work can be lost then)."""

    def __init__(self):
        self.depth = 0
        self.total = 0.0
        self.since = 0.0
        self.lock = threading.Lock()

    def on_start(self, ev):
        with self.lock:
            if self.depth == 0:
                self.since = time.monotonic()
                _CompileNotice.first_compile()
            self.depth += 1

    def on_end(self, ev):
        with self.lock:
            self.depth -= 1
            if self.depth == 0:
                self.total += time.monotonic() - self.since

    def seconds(self) -> float:
        with self.lock:
            return self.total + (time.monotonic() - self.since if self.depth else 0.0)

    @property
    def compiling(self) -> bool:
        return self.depth > 0


class _CompileNotice:
    """The command line's one-line notice, said when Numba first compiles in the process (a
    kernel loaded from the disk cache is not compiled, so a warm run says nothing)."""

    key: str | None = None
    said = False

    @classmethod
    def first_compile(cls) -> None:
        if cls.key is None or cls.said:
            return
        cls.said = True
        seconds = first_run_seconds(cls.key)
        about = f"about {seconds:.0f} s, " if seconds else ""
        sys.stderr.write(f"compiling kernels ({about}first run only)...\n")
        sys.stderr.flush()


#: Where ``benchmarks/cold_start.py --write`` keeps what it measured (the notice's figures).
COLD_START_FILE = Path(__file__).resolve().parents[1] / "data" / "cold_start.json"


@functools.lru_cache(maxsize=4)
def _stored(path: Path, section: str) -> dict:
    """The ``section`` of a stored result file (``{}`` when it is missing or unreadable: the
    notices then leave the figure out)."""
    try:
        found = json.loads(path.read_text())[section]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return found if isinstance(found, dict) else {}


def first_run_seconds(key: str) -> float | None:
    """Seconds the first run of command ``key`` (a name of ``benchmarks/cold_start.py``) spent
    compiling when last measured (cold minus warm wall time), or ``None`` if not measured."""
    row = _stored(COLD_START_FILE, "commands").get(key)
    try:
        return max(0.0, float(row["cold_s"]) - float(row["warm_s"]))
    except (TypeError, KeyError, ValueError):
        return None


#: Where ``benchmarks/dd_rates.py --write`` keeps the double-dummy models' measured speed.
DD_RATES_FILE = Path(__file__).resolve().parents[1] / "data" / "dd_rates.json"


def dd_deals_per_second(model: str) -> float | None:
    """Deals a second a thread of double-dummy model ``model`` (``dd``, ``solo-dd``,
    ``tarneeb-dd``) as last measured, or ``None`` if not measured."""
    try:
        rate = float(_stored(DD_RATES_FILE, "models")[model]["deals_per_s"])
    except (TypeError, KeyError, ValueError):
        return None
    return rate if rate > 0 else None


#: The environment variable that turns helpers off (``t400 compile`` counts each group's compile
#: in its own process).
NO_HELPERS = "T400_NO_HELPERS"


def compile_aside(kernel, warm_up: str, *args: int) -> subprocess.Popen | None:
    """Compile ``kernel`` in a helper process, beside this one, when the disk cache does not hold
    it yet: a first run compiles on one core, and a question that needs two independent kernel
    trees (a review's bid analysis and its double dummy) gets the second tree from the other
    core, through the shared cache, by the time it needs it. ``warm_up`` is ``"module:function"``,
    a call (with the integers ``args``) that compiles the kernel as the question will. Returns the helper (``None`` when the
    kernel is cached, the cache cannot be read, or :data:`NO_HELPERS` is set); it ends with this
    process."""
    if os.environ.get(NO_HELPERS) == "1" or getattr(kernel, "overloads", None):
        return None  # helpers off, or the kernel already in this process: no look at the disk
    try:
        if Path(kernel._cache._cache_file._index_path).exists():
            return None
    except (AttributeError, OSError):
        return None
    module, function = warm_up.split(":")
    # the helper imports the package from where this process did: run from a source checkout,
    # ``python -c`` would put the current folder first and compile the checkout's kernels into
    # a cache this process never reads
    code = f"import {module} as m; m.{function}({', '.join(str(int(a)) for a in args)})"
    top = getattr(sys.modules.get(module.split(".")[0]), "__file__", None)
    if top:
        path = Path(top).resolve()
        root = path.parents[1] if path.name == "__init__.py" else path.parent
        code = f"import sys; sys.path.insert(0, {str(root)!r}); {code}"
    helper = subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, NO_HELPERS: "1"},  # a helper is the other core: it starts none of its own
    )  # fmt: skip
    _HELPERS.append(helper)
    return helper


_HELPERS: list[subprocess.Popen] = []


@atexit.register
def _end_helpers() -> None:
    for helper in _HELPERS:
        if helper.poll() is None:
            helper.kill()
            helper.wait()


def announce_compiles(key: str) -> None:
    """In the command line, say on stderr when this process first compiles a kernel, with the
    figure measured for command ``key`` (:func:`first_run_seconds`); said once, and only if
    something compiles (a warm cache loads every kernel)."""
    _CompileNotice.key = key


COMPILE_CLOCK = _CompileClock()
numba.core.event.register("numba:compile", COMPILE_CLOCK)


class _Interrupts:
    """Ctrl-C state. In the command line (:func:`exit_on_interrupt`), Ctrl-C ends the process
    at once unless a region that keeps its finished work is running (:func:`deferred_interrupt`),
    where the first Ctrl-C only raises a flag that the region checks between kernel calls."""

    cli = False
    depth = 0
    hit = False
    at_once = 0


def _hard_exit(signum, frame):
    deferred = _Interrupts.depth > 0 and not _Interrupts.at_once and not COMPILE_CLOCK.compiling
    if deferred and not _Interrupts.hit:
        _Interrupts.hit = True
        KERNEL_STOP[0] = 1
        return
    try:
        sys.stderr.write("Error: interrupted\n")
        sys.stderr.flush()
        _end_helpers()  # os._exit runs no exit handlers
    finally:
        os._exit(130)


@contextlib.contextmanager
def exit_on_interrupt():
    """The command line's Ctrl-C policy for the block: exit status 130 and one line, at once
    (compiling, sampling or solving: no traceback, no half-written file, since every file is
    written aside and renamed); inside :func:`deferred_interrupt` regions, stop cleanly."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, _hard_exit)
    _Interrupts.cli, _Interrupts.hit, _Interrupts.depth = True, False, 0
    KERNEL_STOP[0] = 0
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
        _Interrupts.cli, _Interrupts.hit, _Interrupts.depth = False, False, 0


@contextlib.contextmanager
def interrupt_at_once():
    """In the command line, Ctrl-C ends the process at once inside this block even where a
    :func:`deferred_interrupt` region runs: for work that keeps nothing (an answer to a question),
    where waiting for the end of a kernel call would only make the user wait."""
    _Interrupts.at_once += 1
    try:
        yield
    finally:
        _Interrupts.at_once -= 1


@contextlib.contextmanager
def deferred_interrupt():
    """Turn the first Ctrl-C into a flag checked between blocks (a kernel is never cut
    half-way); a second Ctrl-C interrupts at once. Yields ``stop() -> bool``; code anywhere
    inside may call :func:`check_interrupt`. Regions nest."""
    if _Interrupts.cli or _Interrupts.depth > 0:
        _Interrupts.depth += 1
        try:
            yield _stopped
        finally:
            _Interrupts.depth -= 1
        return
    if threading.current_thread() is not threading.main_thread():
        yield lambda: False
        return

    def handler(signum, frame):
        if _Interrupts.hit:
            raise KeyboardInterrupt
        _Interrupts.hit = True
        KERNEL_STOP[0] = 1

    try:
        before = signal.signal(signal.SIGINT, handler)
    except (ValueError, OSError):
        yield lambda: False
        return
    _Interrupts.depth, _Interrupts.hit = 1, False
    KERNEL_STOP[0] = 0
    try:
        yield _stopped
    finally:
        signal.signal(signal.SIGINT, before)
        _Interrupts.depth, _Interrupts.hit = 0, False
        KERNEL_STOP[0] = 0


def interruptible(kernel, *args):
    """``kernel(*args)`` (a ``nogil`` kernel) run so that Ctrl-C is handled while it runs: Python
    runs signal handlers only in the main thread and only between bytecodes, so a kernel call of
    minutes in the main thread would hold Ctrl-C until it returns. In the main thread under a
    Ctrl-C policy the call runs in a helper thread (with the caller's thread count) while the main
    thread waits; the handler then exits at once, or raises :data:`KERNEL_STOP`, which the kernel
    reads. Elsewhere it is a plain call."""
    if threading.current_thread() is not threading.main_thread() or not (
        _Interrupts.cli or _Interrupts.depth
    ):
        return kernel(*args)
    threads = numba.get_num_threads()
    out: dict = {}

    def run():
        numba.set_num_threads(threads)
        try:
            out["value"] = kernel(*args)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
            out["error"] = exc

    helper = threading.Thread(target=run, name="t400-kernel", daemon=True)
    helper.start()
    while helper.is_alive():
        helper.join(0.05)
    if "error" in out:
        raise out["error"]
    return out["value"]


def _stopped() -> bool:
    return _Interrupts.hit


def check_interrupt() -> None:
    """Raise :class:`analyzer.Interrupted` if Ctrl-C was pressed inside the current
    :func:`deferred_interrupt` region."""
    if _Interrupts.hit and _Interrupts.depth > 0:
        raise Interrupted("interrupted")


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
