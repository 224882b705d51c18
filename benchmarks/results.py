"""Stored results: a benchmark run with ``--write`` keeps its figures in
``benchmarks/results/NAME.json`` with the date, the machine and the command that made them, and
the docs that quote the figures are held to the file by ``tests/test_stored_results.py``."""

from __future__ import annotations

import argparse
import datetime
import json
import shlex
import sys
import time
from pathlib import Path

from analyzer.bench import machine
from analyzer.core.errors import T400Error
from analyzer.core.policies import policy_id

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


def two_players_parser(doc: str, name: str, a: str, b: str, deals: int, seeds: str, players: str):
    """The options of a benchmark that plays two players side by side, seed by seed: ``--a`` and
    ``--b`` (``players`` says what they may be), ``--deals`` per seed, ``--seeds``, ``--json`` and
    ``--write`` (``NAME.json``); a benchmark adds its own before :func:`two_players_args`."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", default=a, help=f"One player ({players}).")
    parser.add_argument("--b", default=b, help="The other.")
    parser.add_argument("--deals", type=int, default=deals, help="Deals per seed.")
    parser.add_argument("--seeds", default=seeds, help="Comma-separated seeds.")
    output_options(parser, name)
    return parser


def two_players_args(parser, others: tuple[str, ...] = ()):
    """The options of :func:`two_players_parser` read and checked, a usage error for bad ones:
    (args, seeds). A player is a play policy or one of ``others`` (such as ``pimc``)."""
    args = parser.parse_args()
    seeds = seeds_option(parser, args.seeds)
    if args.deals < 2 or args.a == args.b:
        parser.error("--deals at least 2, --a and --b two different players")
    for player in (args.a, args.b):
        if player not in others:
            try:
                policy_id(player)
            except T400Error as e:  # its message names the players it knows
                parser.error(f"--a/--b {player!r}: {e}")
    return args, seeds
