"""Lists of whole numbers as a player types them (``3,4,3,2``), for every game's options."""

from __future__ import annotations

from analyzer.core.errors import T400Error


def parse_int_list(text: str | None, what: str, count: int | None = None) -> list[int] | None:
    """``"3,4,3,2"`` -> ``[3, 4, 3, 2]``, naming ``what`` in the error.

    >>> parse_int_list("3, 4,3,2", "--bids", 4), parse_int_list(None, "--bids")
    ([3, 4, 3, 2], None)
    """
    if text is None:
        return None
    parts = [p.strip() for p in text.split(",")] if text.strip() else []
    values = []
    for part in parts:
        try:
            values.append(int(part))
        except ValueError:
            raise T400Error(f"{what}: {part!r} is not a whole number (expected e.g. 3,4,3,2)") from None
    if count is not None and len(values) != count:
        raise T400Error(f"{what}: expected {count} values separated by commas, got {len(values)}")
    return values
