"""tarneeb400: a Monte Carlo bidding analyzer for Tarneeb 400.

The Python API. Everything here checks its input and raises :class:`T400Error` (a
``ValueError``) with a message a player understands; the Numba kernels live in ``kernels``.
"""

__version__ = "0.1.0"

from analyzer.errors import T400Error
from analyzer.notation import Card, Deal, Hand, Rank, Suit, parse_deal, parse_hand
from analyzer.rules import (
    PRESETS,
    MatchState,
    RoundResult,
    Variant,
    as_variant,
    match_winner,
    settle_round,
)

__all__ = [
    "__version__",
    "T400Error",
    "Card",
    "Deal",
    "Hand",
    "Rank",
    "Suit",
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
