"""tarneeb400: a Monte Carlo bidding analyzer for Tarneeb 400.

The Python API. Everything here checks its input and raises :class:`T400Error` (a
``ValueError``) with a message a player understands; the Numba kernels live in ``kernels``.
"""

from analyzer.core.errors import ClusterError, Interrupted, T400Error, WriteError
from analyzer.core.notation import Card, Deal, Hand, Rank, Suit, parse_deal, parse_hand
from analyzer.core.seats import Seat, Team
from analyzer.core.strains import Strain
from analyzer.games.t400.rules import (
    PRESETS,
    MatchState,
    RoundResult,
    Variant,
    as_variant,
    match_winner,
    settle_round,
)
from analyzer.version import __version__  # noqa: F401  (re-exported)


def simulate_matches(*args, **kwargs):
    """See :func:`analyzer.games.t400.matches.simulate_matches` (imported lazily: it loads the kernels)."""
    from analyzer.games.t400.matches import simulate_matches as run

    return run(*args, **kwargs)


def summarize_matches(*args, **kwargs):
    """See :func:`analyzer.games.t400.matches.summarize_matches`."""
    from analyzer.games.t400.matches import summarize_matches as run

    return run(*args, **kwargs)


def recommend_bid(*args, **kwargs):
    """See :func:`analyzer.games.t400.advice.recommend_bid`."""
    from analyzer.games.t400.advice import recommend_bid as run

    return run(*args, **kwargs)


__all__ = [
    "__version__",
    "T400Error",
    "WriteError",
    "ClusterError",
    "Interrupted",
    "simulate_matches",
    "summarize_matches",
    "recommend_bid",
    "Card",
    "Deal",
    "Hand",
    "Rank",
    "Suit",
    "Seat",
    "Team",
    "Strain",
    "parse_deal",
    "parse_hand",
    "PRESETS",
    "MatchState",
    "RoundResult",
    "Variant",
    "as_variant",
    "match_winner",
    "settle_round",
]
