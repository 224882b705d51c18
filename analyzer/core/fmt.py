"""Number formatting shared by the command line and the reports."""

import math


def pct(p, se=None, digits: int = 1) -> str:
    """``p`` as a percentage, with ``± se`` when a standard error is given; "-" for none/NaN.

    >>> pct(0.1234, 0.0021), pct(0.5, digits=0), pct(float("nan"))
    ('12.3% ± 0.2', '50%', '-')
    """
    if p is None or p != p:
        return "-"
    text = f"{100 * p:.{digits}f}%"
    if se is not None and se == se:
        text += f" ± {100 * se:.{digits}f}"
    return text


def pm(value, se, digits: int = 2) -> str:
    """``value ± se``; "-" for none/NaN.

    >>> pm(3.14159, 0.0123)
    '3.14 ± 0.01'
    """
    if value is None or value != value:
        return "-"
    return f"{value:.{digits}f} ± {se:.{digits}f}"


def format_table(headers: list[str], rows: list[list], align: str | None = None) -> str:
    """A plain aligned text table; ``align`` has one ``l``/``r`` per column (default: right)."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    align = align or "l" + "r" * (len(headers) - 1)
    lines = []
    for n, row in enumerate(cells):
        parts = [c.ljust(w) if a == "l" else c.rjust(w) for c, w, a in zip(row, widths, align)]
        lines.append("  ".join(parts).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def compiled_note(compile_s: float) -> str:
    """What a run's time line adds when it compiled kernels (nothing under a second)."""
    return f" (and {compile_s:.0f} s compiling the kernels, first run only)" if compile_s >= 1 else ""


def digits_for(se, low: int, high: int) -> int:
    """Decimals that show a standard error ``se`` to one significant digit, within low..high."""
    if se is None or se != se or se <= 0:
        return low
    return int(min(high, max(low, math.ceil(-math.log10(se)))))


def fmt_value(value, se=None, kind="mean", digits=None):
    """``value ± se``, as a percentage for rates, with as many decimals as the SE warrants.

    >>> fmt_value(0.4321, 0.0123, "rate"), fmt_value(3.14159, 0.0123)
    ('43.2% ± 1.2', '3.14 ± 0.01')
    """
    if value is None or value != value:
        return "-"
    if kind == "rate":
        return pct(value, se, digits if digits is not None else digits_for(None if se is None else 100 * se, 1, 3))
    digits = digits if digits is not None else digits_for(se, 2, 4)
    text = f"{value:.{digits}f}"
    if se is not None and se == se:
        text += f" ± {se:.{digits}f}"
    return text


def reasons_text(reasons) -> list[str]:
    """The ``Why:`` lines under a recommendation (the numbers the analysis already has, in words)."""
    return [f"Why: {item['text']}" for item in reasons]


def tricks_text(h) -> str:
    """Every trick of a played hand (``leaders``, ``winners``, ``cards`` in play order), by seat,
    the leader's card starred, and who won it."""
    rows = []
    for k, (leader, winner) in enumerate(zip(h.leaders, h.winners)):
        by_seat = {(leader - 1 + i) % 4 + 1: h.cards[4 * k + i] for i in range(4)}
        cells = [("*" if s == leader else " ") + by_seat[s].symbol for s in range(1, 5)]
        rows.append([k + 1, *cells, winner])
    return "Tricks (* led):\n" + format_table(["trick", "seat 1", "seat 2", "seat 3", "seat 4", "won by"], rows)
