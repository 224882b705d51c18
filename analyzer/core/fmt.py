"""Number formatting shared by the command line and the reports."""


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
