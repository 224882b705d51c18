"""Match equity: P(a partnership wins the match) from the four scores and who deals.

Two forms, each with its precision:

* :func:`simulate_equity`, on demand: the rest of the match played out many times from the
  given state by the bots (the match kernel), with a standard error.
* :class:`EquityTable`, precomputed for fast use (the ``win`` bidder, ``t400 bid --objective
  win``): P(seats 1+3 win) before a hand dealt by seat 4, for scores in seat order on a grid,
  interpolated multilinearly between grid scores (layout in :mod:`kernels.t400.equity`). Any
  state is rotated so that its dealer is seat 4; P(seats 2+4 win) is one minus the table (a
  match stopped by no one is not modelled: it needs thousands of hands). It is built by value
  iteration over one hand: the hands are sampled once for every combination of the players'
  rule regimes (what their scores change: own minimum bid, value row, table minimum), since
  the bots' bids and so the hands' outcomes depend on the scores only through those; each
  state's value is the mean value after its regime's sampled hands. Shipped for the presets
  in ``analyzer/data/equity_<preset>.npz``; ``t400 equity --build`` regenerates them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from analyzer.core import output
from analyzer.core.datafile import ShippedKind, read_shipped
from analyzer.core.errors import T400Error
from analyzer.games.t400.rules import PRESETS, SCORE_STEPS, Variant, as_variant
from kernels.t400 import equity as ke
from kernels.t400 import rules as krules

#: Scores below this are treated as this score (rare: a player this far down rarely matters).
LOW_CLAMP = -30
#: Grid step away from the rule thresholds.
GRID_STEP = 5


def equity_grid(variant: Variant) -> np.ndarray:
    """The grid scores of ``variant``'s table (int64, increasing).

    Every score where a rule changes (0 and 1 for "the partner is above 0", each minimum/value
    threshold and one below it, the target and one below it); where the equity jumps, measured
    against simulations (-3 and -1: a small made bid lifts a partner above 0; 14, 8 and 6 to 2
    below the target: the least bid that reaches it changes there; 4 above it: a failed bid of
    4 keeps the player above the target); every :data:`GRID_STEP` points from -5 up to the
    target; and -10, :data:`LOW_CLAMP` and 19 above the target as ends (above the target a
    score only matters through the tie-break and the minimums)."""
    v = as_variant(variant)
    t = v.target
    high = t + 19
    points = {LOW_CLAMP, -10, -3, -1, high, t - 14, t - 8, t + 4}
    points.update(range(-5, t, GRID_STEP))
    points.update(range(t - 6, t - 1))
    for step in (*SCORE_STEPS, t, 1):
        points.update((step - 1, step))
    return np.array(sorted(p for p in points if LOW_CLAMP <= p <= high), dtype=np.int64)


def axis_tables(grid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(cell float64[span], weight float64[span]) for the whole scores ``grid[0]..grid[-1]``:
    the grid index below each score and the weight of the one above (part of the table)."""
    scores = np.arange(grid[0], grid[-1] + 1)
    cell = np.minimum(np.searchsorted(grid, scores, side="right") - 1, len(grid) - 2)
    weight = (scores - grid[cell]) / (grid[cell + 1] - grid[cell])
    return cell.astype(np.float64), weight.astype(np.float64)


def table_size(g: int, span: int) -> int:
    """Length of a table array with ``g`` grid scores spanning ``span`` whole scores."""
    return 1 + g + g**4 + 2 * span


def _regime(rules: np.ndarray, score: int) -> tuple[int, int]:
    return int(krules.score_step(rules, score)), int(krules.value_row(rules, score))


@dataclass(frozen=True, eq=False)
class EquityTable:
    """A match-equity table (kernel layout in :mod:`kernels.t400.equity`) and how it was made."""

    array: np.ndarray
    meta: dict

    @property
    def grid(self) -> np.ndarray:
        g = int(self.array[0])
        return self.array[1 : 1 + g].astype(np.int64)

    @property
    def values(self) -> np.ndarray:
        g = int(self.array[0])
        return self.array[1 + g : 1 + g + g**4].reshape(g, g, g, g)

    def equity(self, scores: Sequence[int], dealer: int = 4) -> float:
        """P(the partnership of seats 1+3 wins) before a hand dealt by ``dealer`` (seat 1..4)
        with ``scores`` in seat order (interpolated between grid scores)."""
        s = [int(x) for x in scores]
        shift = dealer % 4  # rotate so that the dealer is seat 4
        rotated = s[shift:] + s[:shift]
        p = float(ke.equity_at(self.array, *rotated))
        return p if shift % 2 == 0 else 1.0 - p

    def save(self, path: str | Path) -> None:
        output.save_npz(path, compressed=True, table=self.array, meta=json.dumps(self.meta))


def table_file(variant: Variant) -> str:
    return f"equity_{variant.name}.npz"


def _valid(array: np.ndarray) -> bool:
    g = int(array[0]) if array.size and np.isfinite(array[0]) else 0
    return g >= 2 and array.size >= 1 + g and array.shape == (table_size(g, int(array[g] - array[1]) + 1),)


#: The table file as :func:`analyzer.core.datafile.read_shipped` reads it.
TABLE_KIND = ShippedKind("match-equity table", "table", "t400 equity --build", _valid, EquityTable)


def load_table(path: str | Path) -> EquityTable:
    """The table in the file at ``path``."""
    return read_shipped(path, TABLE_KIND)


def shipped_path(variant: Variant) -> str | None:
    """The shipped table's path for a preset (its switches unchanged), else ``None``."""
    v = as_variant(variant)
    if PRESETS.get(v.name) != v:
        return None
    return str(resources.files("analyzer.data") / table_file(v))


def table_for(variant, path: str | Path | None = None) -> EquityTable:
    """The table at ``path``, or the shipped one of ``variant``; an error if there is none or it
    was made for other rules."""
    v = as_variant(variant)
    if path is None:
        path = shipped_path(v)
        if path is None or not Path(path).is_file():
            raise T400Error(
                f"no shipped match-equity table for variant '{v.label}': make one with "
                f"`t400 equity --build --variant {v.name} [switches] --out FILE` and pass it with --equity-table FILE"
            )
    table = load_table(path)
    if table.meta.get("variant") != v.switches:
        raise T400Error(
            f"{path}: a match-equity table for other rules ({table.meta.get('label')}), not '{v.label}'"
        )
    return table


def shipped_table(variant) -> EquityTable | None:
    """The shipped table of a preset variant, or ``None`` (another variant, or not made yet)."""
    path = shipped_path(variant)
    if path is None or not Path(path).is_file():
        return None
    return load_table(path)


def require_table(variant, bidders: Sequence[str] = ("win",), path: str | Path | None = None) -> None:
    """An error when ``bidders`` include ``win`` and there is no match-equity table for it."""
    if "win" in [str(b).strip().lower() for b in bidders]:
        table_for(variant, path)
