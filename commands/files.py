"""Files a command writes: checked before the work starts (a bad path costs no simulation), and
said on stderr when written."""

from __future__ import annotations

import os

import click

from analyzer.core import output
from analyzer.core.errors import T400Error
from analyzer.core.tables import TableWriter


def check_writable(path: str) -> None:
    from analyzer.core.figures import figure_format

    figure_format(path)
    output.check(path, "--plot")


def outputs(**paths) -> dict:
    """Check output paths (:func:`analyzer.core.output.check`: a file whose folder exists and
    is writable, or a device, pipe or link written into; distinct); returns the given ones."""
    given = {k: v for k, v in paths.items() if v}
    seen = {}
    for name, path in given.items():
        option = name.replace("_", "-")
        output.check(path, f"--{option}")
        key = os.path.abspath(path)
        if key == os.devnull:
            continue  # many outputs may go nowhere
        if key in seen:
            raise T400Error(f"--{option} and --{seen[key]} both write {path}")
        seen[key] = option
    return given


def kept_beside(*paths) -> str | None:
    """The first of the output ``paths`` that is a file (new, regular, or a link to one): a run's
    finished work is kept beside it (``PATH.parts``) for ``--resume``. A device or a pipe
    (``/dev/stdout``, a fifo) has no folder of its own to keep work in: ``None`` if all are such."""
    for path in paths:
        if path and not output.is_stream(path):
            return path
    return None


def table_format(path: str, option: str) -> str:
    ext = os.path.splitext(path)[1].lower()
    if ext == ".parquet":
        return "parquet"
    if ext in (".csv", ".txt", ""):
        return "csv"
    raise T400Error(f"--{option} {path}: expected a .csv or .parquet file")


def wrote(path: str) -> None:
    """Announce a written file on stderr (stdout stays for the results)."""
    click.echo(f"wrote {path}", err=True)


def write_table(df, path: str, fmt: str) -> None:
    """Write a DataFrame atomically (a temporary file renamed into place), and say so."""
    writer = TableWriter(path, fmt)
    try:
        writer.write(df)
        writer.close()
    except BaseException:
        writer.abort()
        raise
    wrote(path)
