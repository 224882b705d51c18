"""``t400 review``: a played hand of either game reviewed (see :mod:`analyzer.games.t400.review`
and :mod:`analyzer.games.tarneeb.review`), from a hand record (:mod:`analyzer.core.records`)."""

from __future__ import annotations

from collections.abc import Callable

from analyzer.core.records import HandRecord
from analyzer.games.t400 import review as review_400
from analyzer.games.tarneeb import review as review_tarneeb


def check_record(record: HandRecord) -> None:
    """Check ``record`` by its game's rules (one ``Error`` naming its line and field)."""
    (review_400 if record.game == "400" else review_tarneeb).check_record(record)


def review_record(record: HandRecord, samples: int | None = None, seed: int = 0, threads: int | None = None,
                  progress: Callable[[str], None] | None = None) -> dict:  # fmt: skip
    """The review of ``record``: the bidding (or the calls) against the analyzer's answers and
    each card against double dummy, as a JSON-ready dict."""
    module = review_400 if record.game == "400" else review_tarneeb
    return module.review_hand(record, samples=samples, seed=seed, threads=threads, progress=progress)
