"""Jobs: work cut into units that run locally or on a Dask cluster, with checkpoints.

A :class:`Job` is a picklable task and a size; :func:`run_jobs` runs a list of them on the
local kernel threads or on a cluster, keeps each finished result in a :class:`Checkpoint`
(so that Ctrl-C loses nothing and ``--resume`` picks up the rest), and returns the results by
key. The results never depend on where a job ran: every task draws from its own random streams.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from analyzer.core.checkpoint import CheckpointFolder
from analyzer.core.datafile import NPZ_ERRORS
from analyzer.core.errors import ClusterError, Interrupted, T400Error
from analyzer.core.runtime import caused_by_interrupt, deferred_interrupt


class Checkpoint:
    """Finished blocks of arrays (``block-<key>.npz``) kept in a
    :class:`analyzer.core.checkpoint.CheckpointFolder` of ``kind``, tied to ``settings``.

    ``check(key, result) -> bool`` tells whether a kept block is one this run could have made
    (its arrays, shapes, dtypes and row counts); a block that fails it, that the folder's journal
    does not list with its hash, or that cannot be read is computed again, never counted."""

    def __init__(self, path: str | Path, settings: dict, resume: bool, kind: str = "blocks",
                 check: Callable[[str, dict], bool] | None = None):  # fmt: skip
        self.folder = CheckpointFolder(path, kind, settings, resume)
        self.path = self.folder.path
        self.check = check

    @staticmethod
    def _name(key: str) -> str:
        return f"block-{key}.npz"

    def has(self, key: str) -> bool:
        """Whether block ``key`` is kept, whole and as this run would make it."""
        return self.load(key) is not None

    def load(self, key: str) -> dict | None:
        f = self.folder.file(self._name(key))
        if f is None:
            return None
        try:
            with np.load(f, allow_pickle=False) as data:
                result = {k: data[k] for k in data.files}
        except NPZ_ERRORS:
            return None  # a block that cannot be read is computed again
        if not result or any(a.dtype.hasobject for a in result.values()):
            return None
        if self.check is not None and not self.check(key, result):
            return None
        return result

    def save(self, key: str, result: dict) -> None:
        """Keep a finished block (whole or not at all; a failure such as a full disk is one
        :class:`WriteError` naming the file)."""
        self.folder.keep(self._name(key), lambda f: np.savez(f, **result))

    def remove(self) -> None:
        self.folder.remove()


@dataclass(frozen=True)
class Job:
    """One unit of work: ``task(threads)`` returns a dict of arrays (picklable, hashable, so it
    can run on a Dask worker and be kept in a checkpoint); ``size`` counts it for progress."""

    key: str
    task: Callable[[int | None], dict]
    size: int


def run_jobs(
    jobs: Iterable[Job],
    threads: int | None = None,
    scheduler: str | None = None,
    checkpoint: Checkpoint | None = None,
    progress: Callable[[int, int], None] | None = None,
    unit: str = "matches",
    consume: Callable[[Job, dict], None] | None = None,
) -> dict[str, dict]:
    """Every job's result by key, locally (kernel threads) or on a Dask cluster.

    Finished jobs are written to ``checkpoint`` as they arrive and taken from it when present.
    With ``consume``, each result is handed to ``consume(job, result)`` in job order, as soon as
    it and every earlier one are finished, and not kept (memory stays flat in the number of
    jobs); the returned dict is then empty. Ctrl-C raises :class:`Interrupted` after saving what
    was finished.
    """
    jobs = list(jobs)
    results: dict[str, dict] = {}
    total = sum(j.size for j in jobs)
    stored = {j.key for j in jobs if checkpoint is not None and checkpoint.has(j.key)}
    done = sum(j.size for j in jobs if j.key in stored)
    todo = [j for j in jobs if j.key not in stored]
    waiting: dict[str, dict] = {}  # finished, but an earlier job is not yet
    delivered = 0

    def deliver() -> None:
        nonlocal delivered
        while delivered < len(jobs):
            job = jobs[delivered]
            if job.key in waiting:
                result = waiting.pop(job.key)
            elif job.key in stored:
                result = checkpoint.load(job.key)
                if result is None:
                    raise T400Error(
                        f"{checkpoint.path}: block {job.key} cannot be read; run again without --resume"
                    )
            else:
                return
            if consume is None:
                results[job.key] = result
            else:
                consume(job, result)
            delivered += 1

    def finish(job: Job, result: dict) -> None:
        nonlocal done
        if checkpoint:
            checkpoint.save(job.key, result)
        waiting[job.key] = result
        done += job.size
        if progress:
            progress(done, total)
        deliver()

    if progress:
        progress(done, total)
    with deferred_interrupt() as stop:
        try:
            deliver()
            if scheduler is None:
                for job in todo:
                    if stop():
                        break
                    finish(job, job.task(threads))
            else:
                _run_on_dask(todo, scheduler, threads, finish, stop)
        except KeyboardInterrupt:
            pass
        except SystemError as exc:  # a second Ctrl-C inside a kernel call surfaces like this
            if not caused_by_interrupt(exc):
                raise
        if stop() or done < total:
            kept = ""
            if checkpoint:
                kept = f"; {done:,} finished {unit} kept in {checkpoint.path} (run again with --resume)"
            raise Interrupted(f"interrupted after {done:,} of {total:,} {unit}{kept}")
    return results


def open_client(scheduler: str):
    """A Dask client for ``ADDRESS`` or ``local:N`` (a local cluster of N one-thread workers)."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError(
            "--scheduler needs dask.distributed: pip install 'tarneeb400[distributed]'"
        ) from None
    text = str(scheduler).strip()
    if text.startswith("local:"):
        try:
            workers = int(text[6:])
        except ValueError:
            workers = 0
        if workers < 1:
            raise T400Error(f"scheduler {scheduler!r}: expected local:N with N a positive number of workers")
        try:
            cluster = LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                silence_logs=50,
            )  # fmt: skip
        except Exception as exc:  # noqa: BLE001 - any failure to start is reported the same way
            raise ClusterError(f"cannot start a local Dask cluster of {workers} workers: {exc}") from None
        return Client(cluster), cluster
    try:
        return Client(text, timeout="5s"), None
    except (OSError, TimeoutError, ValueError) as exc:
        # the address given does not answer: bad input, like any other (exit status 2)
        raise T400Error(f"cannot connect to the Dask scheduler at {text}: {exc}") from None


def _on_worker(task, threads):
    """A job on a Dask worker: one kernel thread unless told otherwise."""
    return task(threads or 1)


def _run_on_dask(jobs: list[Job], scheduler, threads, finish, stop) -> None:
    client, cluster = open_client(scheduler) if isinstance(scheduler, str) else (scheduler, None)
    from dask.distributed import as_completed  # there, since open_client found it
    try:
        by_future = {}
        for job in jobs:
            fut = client.submit(
                _on_worker, job.task, threads, key=f"t400-{job.key}-{abs(hash(job.task))}", pure=False
            )
            by_future[fut] = job
        try:
            for fut in as_completed(by_future):
                finish(by_future[fut], fut.result())
                if stop():
                    break
        finally:
            client.cancel(list(by_future))
    finally:
        if cluster is not None:
            client.close()
            cluster.close()
