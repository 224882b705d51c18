"""What the kernels cost to compile, counted the same way on any machine, and the budget that
holds it.

Numba compiles a kernel by generating its LLVM module, linking in the modules of every kernel it
calls and optimising the whole (so a caller's optimisation covers its callees again). The work a
compile does is therefore measured by the LLVM instructions of each compiled kernel's final
module, summed over the kernels a command's first run compiles. Unlike seconds, the count does not
depend on the machine's speed or load; it depends only on the code and on the versions of Numba
and llvmlite, which the budget records.

``t400 compile`` measures each group of kernels (:data:`analyzer.bench.WARM_UPS`) from an empty
cache as it compiles them, in its fixed order: a group's figure is what it adds to the groups
compiled before it in the same process (:data:`analyzer.bench.PROCESSES`), so that every kernel is
counted once. With ``--check-budget`` it fails when a group exceeds its budget in
:data:`BUDGET_FILE`; a change that needs more raises the budget in the same commit (``t400
compile --write-budget --reason ...``), with the reason in CHANGELOG.
"""

from __future__ import annotations

import datetime
import json
import re
import threading
from pathlib import Path

import numba
import numba.core.event

from analyzer.core import jsonfile, output

#: The budgets: per group the functions compiled (each is typed and lowered: a cost of its own)
#: and their LLVM instructions, with the versions,
#: the date and the reason of each change.
BUDGET_FILE = Path(__file__).resolve().parents[1] / "data" / "compile_budget.json"
#: How far over its budget a group may go before the check fails (code generation wobbles a
#: little with unrelated changes, such as a constant's value).
TOLERANCE = 0.03
#: The same, when the installed Numba or llvmlite is not the one the budget was measured with.
OTHER_VERSIONS_TOLERANCE = 0.15

_INSTRUCTION = re.compile(r"^  (?:%[-\w.$\"]+ = )?[a-z]", re.M)


def versions() -> dict:
    import llvmlite

    return {"numba": numba.__version__, "llvmlite": llvmlite.__version__}


def instructions(llvm_ir: str) -> int:
    """The instructions in an LLVM module's text (one a line inside function bodies)."""
    return len(_INSTRUCTION.findall(llvm_ir))


class CompileMeter(numba.core.event.Listener):
    """Counts, while registered, each kernel Numba compiles (not those loaded from the disk
    cache) and the LLVM instructions of its final module."""

    def __init__(self):
        self.lock = threading.Lock()
        self.functions = 0
        self.instructions = 0

    def on_start(self, event):
        pass

    def on_end(self, event):
        data = event.data or {}
        dispatcher, args = data.get("dispatcher"), data.get("args")
        cres = getattr(dispatcher, "overloads", {}).get(tuple(args)) if args is not None else None
        count = 0
        if cres is not None:
            try:
                count = instructions(cres.library.get_llvm_str())
            except Exception:  # noqa: BLE001 - a library without text (never seen): counted as a function
                count = 0
        with self.lock:
            self.functions += 1
            self.instructions += count

    def __enter__(self):
        numba.core.event.register("numba:compile", self)
        return self

    def __exit__(self, *exc):
        numba.core.event.unregister("numba:compile", self)

    def figures(self) -> dict:
        return {"functions": self.functions, "instructions": self.instructions}


def read_budget(path: Path | str = BUDGET_FILE) -> dict:
    data = jsonfile.read_json(path, "compile budget")
    jsonfile.check_shape(data, {"groups": dict, "versions": dict}, f"compile budget {path}")
    return data


def budget_stamp(budget: dict | None = None) -> str:
    """A short hash of the budget's figures: the first-run figures that
    ``benchmarks/cold_start.py --write`` keeps carry the stamp of the budget they were measured
    under, so that a test notices figures older than the kernels' latest budget."""
    import hashlib

    groups = (budget or read_budget())["groups"]
    plain = {g: [f["functions"], f["instructions"]] for g, f in groups.items()}
    return hashlib.sha256(json.dumps(plain, sort_keys=True).encode()).hexdigest()[:12]


def over_budget(measured: dict, budget: dict) -> list[str]:
    """One line for each group of ``measured`` (group -> {"functions", "instructions"}) that
    compiled more than its budget allows; nothing is judged when no group compiled anything (the
    kernels came from the disk cache: see :func:`cold`)."""
    if not cold(measured):
        return []
    same = budget.get("versions") == versions()
    tolerance = TOLERANCE if same else OTHER_VERSIONS_TOLERANCE
    lines = []
    for group, got in measured.items():
        allowed = budget["groups"].get(group)
        if allowed is None:
            lines.append(f"{group}: no compile budget recorded (t400 compile --write-budget --reason ...)")
            continue
        over = [what for what in ("instructions", "functions") if got[what] > allowed[what] * (1 + tolerance)]
        if over:
            note = "" if same else f"; measured with Numba {versions()['numba']}, budget with {budget['versions'].get('numba')}"
            lines.append(
                f"{group} compiles {got['functions']} functions of {got['instructions']:,} LLVM instructions, over its "
                f"budget of {allowed['functions']} functions of {allowed['instructions']:,} (+{tolerance:.0%}){note}"
            )
    return lines


def cold(measured: dict) -> bool:
    """Whether a run compiled from an empty cache: a kernel edit changes the key of every cached
    kernel (:mod:`kernels.config`), so a run compiles all of its groups or none."""
    return any(got.get("functions") for got in measured.values())


def write_budget(measured: dict, seconds: dict, reason: str, path: Path | str = BUDGET_FILE) -> dict:
    """Record ``measured`` as the budget (each group's figures, its compile seconds on this
    machine for information, the versions, the date and ``reason``), keeping the history."""
    try:
        before = read_budget(path)
    except Exception:  # noqa: BLE001 - no budget yet, or a broken one: start the history again
        before = {"history": []}
    today = datetime.date.today().isoformat()
    groups = {g: {**f, "seconds": round(seconds.get(g, 0.0), 1)} for g, f in measured.items()}
    data = {
        "made_by": "python -m cli compile --write-budget --reason ... (from an empty kernel cache)",
        "versions": versions(),
        "date": today,
        "reason": reason,
        "tolerance": TOLERANCE,
        "groups": groups,
        "history": [*before.get("history", []),
                    {"date": today, "reason": reason, "instructions": {g: f["instructions"] for g, f in groups.items()}}],
    }  # fmt: skip
    output.write_text(path, json.dumps(data, indent=1) + "\n")
    return data
