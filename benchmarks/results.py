"""Stored results: a benchmark run with ``--write`` keeps its figures in
``benchmarks/results/NAME.json`` with the date, the machine and the command that made them, and
the docs that quote the figures are held to the file by ``tests/test_stored_results.py``."""

from __future__ import annotations

import datetime
import json
import shlex
import sys
import time
from pathlib import Path

from analyzer.bench import machine

FOLDER = Path(__file__).resolve().parent / "results"


def write(name: str, figures: dict, argv: list[str] | None = None) -> Path:
    """Keep ``figures`` as ``benchmarks/results/NAME.json``; the command is this process's
    (``python benchmarks/SCRIPT.py ARGS``) unless ``argv`` says otherwise."""
    argv = sys.argv if argv is None else argv
    script = Path(argv[0])
    command = shlex.join(["python", f"benchmarks/{script.name}", *argv[1:]])
    record = {"date": datetime.date.today().isoformat(), "machine": machine(), "command": command, **figures}
    FOLDER.mkdir(exist_ok=True)
    path = FOLDER / f"{name}.json"
    path.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {path.relative_to(FOLDER.parent.parent)}", file=sys.stderr)
    return path


def seeds_option(parser, text: str) -> list[int]:
    """``--seeds``: comma-separated whole numbers from 0 (else the parser's usage error)."""
    try:
        seeds = [int(s) for s in text.split(",")]
    except ValueError:
        parser.error(f"--seeds {text!r}: whole numbers separated by commas")
    if min(seeds) < 0:
        parser.error(f"--seeds {text!r}: seeds from 0")
    return seeds


def report(name: str, result: dict, start: float, args, text) -> None:
    """A benchmark's end: its seconds since ``start`` added, the result printed (JSON with
    ``--json``, else ``text(result)``) and kept as ``NAME.json`` with ``--write``."""
    result["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(result, indent=1) if args.json else text(result))
    if args.write:
        write(name, result)


def output_options(parser, name: str) -> None:
    """``--json`` (print the result as JSON) and ``--write`` (keep it as ``NAME.json``)."""
    parser.add_argument("--json", action="store_true", help="Print the result as JSON.")
    parser.add_argument("--write", action="store_true", help=f"Keep the result in benchmarks/results/{name}.json.")


def one_side_changes(old: str, new: str, sides: tuple[str, str]) -> list[tuple[str, str, str]]:
    """Two players on two sides, each pairing named ``X/Y`` (X on the first side, Y on the
    second): each side's player changed from ``old`` to ``new`` with the other side's held as
    ``old``, then as ``new``; (side, pairing before, pairing after)."""
    first, second = sides
    return [(first, f"{old}/{old}", f"{new}/{old}"), (first, f"{old}/{new}", f"{new}/{new}"),
            (second, f"{old}/{old}", f"{old}/{new}"), (second, f"{new}/{old}", f"{new}/{new}")]  # fmt: skip


def seeds_text(r: dict) -> str:
    """'N deals (seeds 1,2, M each)' for a result played seed by seed."""
    return f"{r['deals']} deals (seeds {','.join(map(str, r['seeds']))}, {r['deals_per_seed']} each)"
