"""Files a command writes: checked before the work starts (a bad path costs no simulation), and
said on stderr when written."""

from __future__ import annotations

import os

import click

from analyzer.core.errors import T400Error
from analyzer.core.tables import TableWriter


def check_writable(path: str) -> None:
    from analyzer.reports.figures import figure_format

    figure_format(path)
    folder = os.path.dirname(os.path.abspath(path)) or "."
    if not os.path.isdir(folder):
        raise T400Error(f"--plot {path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise T400Error(f"--plot {path}: cannot write in {folder}")


def outputs(**paths) -> dict:
    """Check output paths (folder exists and is writable; distinct); returns the given ones."""
    given = {k: v for k, v in paths.items() if v}
    seen = {}
    for name, path in given.items():
        folder = os.path.dirname(os.path.abspath(path)) or "."
        option = name.replace("_", "-")
        if not os.path.isdir(folder):
            raise T400Error(f"--{option} {path}: folder {folder} does not exist")
        if not os.access(folder, os.W_OK):
            raise T400Error(f"--{option} {path}: cannot write in {folder}")
        key = os.path.abspath(path)
        if key in seen:
            raise T400Error(f"--{option} and --{seen[key]} both write {path}")
        seen[key] = option
    return given


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
