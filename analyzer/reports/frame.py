"""The report framework below each game's sections: the context a section computes in (its
folder, sizes, seed, threads, Dask client, progress and the kept parts), the finished parts kept
for ``--resume``, and the helpers the games share (variants compared on the same matches)."""

from __future__ import annotations

import contextlib
import lzma
import shutil
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from analyzer.core import datafile
from analyzer.core.checkpoint import CheckpointFolder
from analyzer.core.fmt import pct as _pct
from analyzer.core.fmt import pm as _pm
from analyzer.core.runs import run_matches
from analyzer.core.runtime import check_interrupt

#: A data table of more bytes than this is kept compressed (xz): small tables stay readable on
#: GitHub, large ones (a row per bidding decision of 200,000 matches) a quarter of their size.
COMPRESS_OVER = 256 * 1024


class _Dask:
    """Runs chunk jobs on a Dask client (the guide's deals; matches go through run_jobs)."""

    def __init__(self, client):
        self.client = client

    def __call__(self, fn, items):
        futures = self.client.map(fn, items, pure=False)
        return self.client.gather(futures)


class Context:
    def __init__(self, folder, samples, matches, seed, threads, client, progress, parts):
        self.folder = folder
        self.samples = samples
        self.matches = matches
        self.seed = seed
        self.threads = threads
        self.client = client
        self.progress = progress or (lambda step, fraction: None)
        self.parts = parts
        self.timings: dict[str, float] = {}
        self.facts: dict = {}

    def csv(self, df: pd.DataFrame, name: str) -> str:
        """Write ``df`` as ``data/NAME.csv``, or as ``data/NAME.csv.xz`` when the text is larger than
        :data:`COMPRESS_OVER` (pandas reads either by its name); returns the path written."""
        text = df.to_csv(index=False, float_format="%.6g").encode()
        path = f"data/{name}.csv"
        if len(text) > COMPRESS_OVER:
            path += ".xz"
            text = lzma.compress(text, preset=9)  # xz keeps no time stamp: the same table, the same bytes
        (self.folder / path).write_bytes(text)
        return path

    def data_link(self, df: pd.DataFrame, name: str) -> str:
        """:meth:`csv`, and a Markdown link to the file written."""
        path = self.csv(df, name)
        return f"[{path}]({path})"

    def fig(self, name: str) -> tuple[str, str]:
        path = f"figures/{name}.png"
        return path, str(self.folder / path)

    def map_chunks(self):
        return _Dask(self.client) if self.client is not None else None


class Parts:
    """Finished parts of a report kept on disk (one data file each, :mod:`analyzer.core.datafile`:
    never a pickle, since the folder is the user's and reading a part must run nothing) so that an
    interrupted run can be resumed, in a :class:`analyzer.core.checkpoint.CheckpointFolder` tied
    to the settings that made them. A part that the folder's journal does not list with its hash,
    or that cannot be read as data, is computed again."""

    def __init__(self, path: Path, settings: dict, resume: bool):
        self.folder = CheckpointFolder(path, "report-parts", settings, resume, option="--out")
        self.path = self.folder.path
        self.loaded = 0

    def get(self, key: str, compute: Callable, *args, **kwargs):
        """The kept part ``key``, or ``compute(*args, **kwargs)``, kept."""
        check_interrupt()
        name = f"{key}.npz"
        f = self.folder.file(name)
        if f is not None:
            with contextlib.suppress(datafile.BadDataFile):
                value = datafile.load(f)
                self.loaded += 1
                return value
        value = compute(*args, **kwargs)
        self.folder.keep(name, lambda fh: datafile.write(fh, value))
        return value

    def remove(self) -> None:
        self.folder.remove()


def remove_partial(tmp: Path | None, parts: Parts | None, out: Path, remove_out: bool) -> None:
    """After a failure: remove what this run made (its build folder, its parts when not
    resumable, the folder itself if this run created it and it is empty)."""
    if tmp is not None:
        shutil.rmtree(tmp, ignore_errors=True)
    if parts is not None:
        parts.remove()
    if remove_out:
        with contextlib.suppress(OSError):
            out.rmdir()


def compare_lineups(ctx: Context, lineups, stats) -> pd.DataFrame:
    """Play ``lineups`` (any game's) on the same ``ctx.matches`` matches; ``stats`` (a
    ``CompareStats`` with their labels) as a table of figures and paired differences."""
    labels = [lu.variant.label for lu in lineups]
    run_matches(lineups, ctx.matches, ctx.seed, threads=ctx.threads, scheduler=ctx.client,
                   on_block=lambda _, parts: stats.add({lb: p["rows"] for lb, p in zip(labels, parts)}))  # fmt: skip
    return stats.table()


def variant_rows(table: pd.DataFrame, metrics) -> list[list[str]]:
    """One row per variant of a comparison table: each metric with its SE and, after the first
    variant, the paired difference against it."""
    labels = list(dict.fromkeys(table["variant"]))
    rows = []
    for label in labels:
        part = table[table["variant"] == label].set_index("metric")
        row = [label]
        for metric in metrics:
            r = part.loc[metric]
            cell = _fmt_metric(r["value"], r["se"], r["kind"])
            if label != labels[0]:
                cell += f" ({_signed(r['diff'], r['diff_se'], r['kind'])})"
            row.append(cell)
        rows.append(row)
    return rows


def _fmt_metric(value, se, kind) -> str:
    if kind == "rate":
        return _pct(value, se, 2 if se < 0.001 else 1)
    return _pm(value, se, 2 if se >= 0.005 else 3)


def _signed(diff, se, kind) -> str:
    if kind == "rate":
        digits = 2 if se < 0.001 else 1
        return f"{100 * diff:+.{digits}f} ± {100 * se:.{digits}f}"
    digits = 2 if se >= 0.005 else 3
    return f"{diff:+.{digits}f} ± {se:.{digits}f}"
