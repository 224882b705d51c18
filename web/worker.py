"""One thread that runs every kernel call of the server, with a bounded queue.

Numba's parallel kernels must not be entered from several threads at once, so the request
threads hand their work to this one worker and wait; when ``queue_size`` requests already wait,
a new one is refused at once (:class:`Busy`) instead of piling up. A request's sampling time is
capped: a watchdog ends a job that has run for longer than ``max_seconds``, not counting the time
Numba spends compiling kernels (told apart: the status says ``compiling`` and how long), and a job
whose client went away (:meth:`Job.cancel`) or whose server stops (:meth:`KernelWorker.stop`). It
raises the flag long kernels read while they run (:data:`analyzer.core.runtime.KERNEL_STOP`) and
the progress callback, called between kernel batches, raises; so no request outlives the cap by
more than a batch, or, for the kernels that read the flag, a deal; the double-dummy searches read
it every few thousand nodes, so even one long solve ends within moments.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor

from analyzer.core.errors import Interrupted, T400Error
from analyzer.core.runtime import COMPILE_CLOCK, KERNEL_STOP, first_run_seconds
from analyzer.games import registry


class Busy(Exception):
    """The worker is running one request and ``queue_size`` more wait."""


class Stopped(T400Error):
    """The job was cancelled: its client went away, or the server is stopping."""


CANCELLED = "the request was cancelled (its client went away, or the server is stopping)"


class Job:
    """A submitted request: its ``future`` and a way to cancel it."""

    def __init__(self, number: int):
        self.number = number
        self.future: Future | None = None
        self.cancelled = threading.Event()

    def cancel(self) -> None:
        """Drop the job if it waits; stop it at its next progress call if it runs."""
        self.cancelled.set()
        if self.future is not None:
            self.future.cancel()


class KernelWorker:
    def __init__(self, run, queue_size: int = 4, max_seconds: float = 120.0):
        """``run(name, args, progress) -> dict`` does one request's work (``cli.run_json``)."""
        if queue_size < 0 or max_seconds <= 0:
            raise ValueError("queue_size >= 0 and max_seconds > 0")
        self._run = run
        self.queue_size = queue_size
        self.max_seconds = max_seconds
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="t400-kernels")
        self._lock = threading.Lock()
        self._pending = 0  # running + waiting
        self._jobs = 0
        self._current: dict | None = None
        self._stopping = False
        self._jobs_running: set[Job] = set()

    def submit(self, name: str, args: list[str]) -> Job:
        """Queue ``t400 NAME ARGS``; raises :class:`Busy` when the queue is full or the server
        is stopping."""
        with self._lock:
            if self._stopping:
                raise Busy("the server is stopping")
            if self._pending > self.queue_size:
                raise Busy(
                    f"the analyzer is busy ({self._pending} requests running or waiting); try again shortly"
                )
            self._pending += 1
            self._jobs += 1
            job = Job(self._jobs)
            self._jobs_running.add(job)
        job.future = self._executor.submit(self._work, job, name, args)
        job.future.add_done_callback(lambda _: self._finished(job))
        return job

    def _finished(self, job: Job) -> None:
        with self._lock:
            self._pending -= 1
            self._jobs_running.discard(job)

    def stop(self) -> None:
        """Refuse new jobs and stop the running and waiting ones (the server is stopping)."""
        with self._lock:
            self._stopping = True
            jobs = list(self._jobs_running)
        for job in jobs:
            job.cancel()

    def _work(self, job: Job, name: str, args: list[str]) -> dict:
        state = {"job": job.number, "command": name, "started": time.monotonic(), "compiled": COMPILE_CLOCK.seconds(),
                 "done": 0, "total": 0, "expected": first_compile(name, args)}  # fmt: skip
        why: list[T400Error] = []  # what the watchdog stopped the job for
        finished = threading.Event()

        def sampled() -> float:
            return time.monotonic() - state["started"] - (COMPILE_CLOCK.seconds() - state["compiled"])

        def watchdog():
            while not finished.wait(0.05):
                if job.cancelled.is_set():
                    why.append(Stopped(CANCELLED))
                elif sampled() > self.max_seconds:
                    why.append(T400Error(
                        f"the analysis sampled for more than {self.max_seconds:g} s, this server's cap "
                        "(t400 serve --max-seconds); ask for fewer samples"
                    ))  # fmt: skip
                else:
                    continue
                KERNEL_STOP[0] = 1
                return

        def progress(done, total=None):
            with self._lock:
                state["done"] = int(done)
                state["total"] = int(total or state["total"] or done)
            if why:
                raise why[0]

        if job.cancelled.is_set():
            raise Stopped(CANCELLED)
        KERNEL_STOP[0] = 0
        with self._lock:
            self._current = state
        guard = threading.Thread(target=watchdog, name="t400-watchdog", daemon=True)
        guard.start()
        try:
            result = self._run(name, args, progress)
            if why:  # a kernel that reads the flag ended early: its result is partial
                raise why[0]
            return result
        except Interrupted:
            if why:
                raise why[0] from None
            raise
        finally:
            finished.set()
            guard.join()
            KERNEL_STOP[0] = 0
            with self._lock:
                self._current = None

    def status(self) -> dict:
        """What the worker does now: ``busy``, ``waiting`` requests, and the running request's
        ``command``, ``done``/``total`` (sampling progress; 0/0 while the kernels compile),
        ``compiling`` (Numba compiles now), ``compile_s`` (of the request, apart from the cap),
        ``compile_expected_s`` (what its first run compiled when measured, whole seconds; ``None``
        if not measured) and ``elapsed_s``."""
        with self._lock:
            current = dict(self._current) if self._current else None
            pending = self._pending
        out = {"busy": current is not None, "waiting": max(0, pending - (current is not None)),
               "queue_size": self.queue_size, "max_seconds": self.max_seconds}  # fmt: skip
        if current:
            out.update(
                job=current["job"],
                command=current["command"],
                done=current["done"],
                total=current["total"],
                compiling=COMPILE_CLOCK.compiling,
                compile_s=round(COMPILE_CLOCK.seconds() - current["compiled"], 2),
                compile_expected_s=current["expected"],
                elapsed_s=round(time.monotonic() - current["started"], 2),
            )
        return out

    def close(self) -> None:
        self.stop()
        self._executor.shutdown(wait=False, cancel_futures=True)


def first_compile(name: str, args: list[str]) -> int | None:
    """The first-run compile seconds measured for command ``name`` with ``args`` (the figure of
    ``benchmarks/cold_start.py``: the bid of either game, review, play, solve), whole seconds."""
    game = None
    if "--game" in args and args[args.index("--game") + 1 :]:
        try:
            game = registry.get(args[args.index("--game") + 1])
        except T400Error:
            return None  # the command will answer the bad name
    seconds = first_run_seconds((game or registry.default()).compile_groups.get(name, name))
    return None if seconds is None else round(seconds)
