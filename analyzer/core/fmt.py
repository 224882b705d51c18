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
