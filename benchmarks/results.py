"""Stored results: a benchmark run with ``--write`` keeps its figures in
``benchmarks/results/NAME.json`` with the date, the machine and the command that made them, and
the docs that quote the figures are held to the file by ``tests/test_stored_results.py``."""

from __future__ import annotations

import datetime
import json
import shlex
import sys
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
