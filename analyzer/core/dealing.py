"""Uniform dealing, for any game: full deals or endings around the known hands."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from analyzer import config
from analyzer.core.errors import T400Error
from analyzer.core.notation import Hand, as_hand
from analyzer.core.runtime import check_seed, chunks_for, threads_used
from kernels.core import deal as kd
from kernels.core.cards import DECK_MASK


def deal_hands(
    n: int,
    seed: int = 0,
    known: Sequence[Hand | str | None] | None = None,
    unseen: Hand | str | None = None,
    threads: int | None = None,
) -> np.ndarray:
    """``n`` uniform deals as ``uint64[n, 4]`` hands in seat order, given the known hands.

    ``known`` lists a hand or ``None`` per seat (all known hands the same size); ``unseen`` is
    the set of cards to share evenly among the other seats (default: the rest of the deck). For
    an ending, give the known hand(s) and the unseen cards still in play.
    """
    check_seed(seed)
    if not isinstance(n, int) or n < 1:
        raise T400Error(f"number of deals {n!r}: expected a positive whole number")
    known = list(known) if known is not None else [None] * 4
    if len(known) != 4:
        raise T400Error(f"known hands: expected 4 entries (one per seat), got {len(known)}")
    known_bits = np.zeros(4, dtype=np.uint64)
    seen = 0
    sizes = set()
    for seat, hand in enumerate(known):
        if hand is None:
            continue
        h = as_hand(hand, size=None)
        if seen & h.bits:
            raise T400Error(f"known hands share cards: {Hand(seen & h.bits)}")
        seen |= h.bits
        sizes.add(len(h))
        known_bits[seat] = h.bits
    if len(sizes) > 1:
        raise T400Error(f"known hands have different sizes {sorted(sizes)}; they need the same")
    open_seats = [s for s in range(4) if known[s] is None]
    if not open_seats:
        raise T400Error("every hand is known: nothing to deal")
    pool = as_hand(unseen, size=None).bits if unseen is not None else (2**64 - 1) & ~seen & DECK_MASK
    if pool & seen:
        raise T400Error(f"unseen cards {Hand(pool & seen)} are also in a known hand")
    size = sizes.pop() if sizes else len(Hand(pool)) // len(open_seats)
    if len(Hand(pool)) != size * len(open_seats):
        raise T400Error(f"{len(Hand(pool))} unseen cards cannot give {len(open_seats)} hands of {size} cards")
    counts = np.array([size if known[s] is None else 0 for s in range(4)], dtype=np.int64)
    chunk = config.get().sim_chunk
    n_chunks = chunks_for(n, chunk)
    with threads_used(threads):
        out = kd.deal_many(seed, 0, n_chunks, chunk, known_bits, np.uint64(pool), counts)
    return out[:n]
