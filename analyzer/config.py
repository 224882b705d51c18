"""One home for the tunables: chunk and block sizes, precision targets, report sizes.

Modules read them at call time through :func:`get`, never copy them at import, so a test (or a
caller) can change any of them for a block of code without touching module globals::

    from analyzer import config
    with config.override(match_block=700):
        ...

Sizes that decide which random stream a deal comes from (chunk sizes) change results when they
change; the defaults are the ones every documented result was made with.
"""

from __future__ import annotations

import contextlib
import dataclasses
from dataclasses import dataclass


@dataclass(frozen=True)
class Tunables:
    #: Deals per chunk (one random stream each) for plain simulations: dealing, full hands.
    sim_chunk: int = 2048
    #: Bid advice, rollout: deals per chunk, chunks per batch between precision checks, the
    #: precision target for every P(make) and the cap on deals without --samples.
    advice_chunk: int = 256
    advice_batch_chunks: int = 16
    advice_target_se: float = 0.003
    advice_max_deals: int = 400_000
    #: Bid advice, double dummy: deals solved without --samples (400 double dummy with the bids,
    #: every candidate bid solved on each deal; the solo lower bound, one solve a deal).
    advice_dd_deals: int = 48
    advice_solo_dd_deals: int = 512
    #: Matches per block (progress step, Dask task, checkpoint file) and per prange chunk.
    match_block: int = 4096
    match_kernel_chunk: int = 32
    #: Bidding guide: deals per chunk, chunks per task, deals a group needs before its best bid
    #: is shown.
    guide_chunk: int = 1024
    guide_task_chunks: int = 64
    guide_min_cell: int = 200
    #: Double dummy: deals handed to the solver kernel at a time (progress between blocks).
    solve_batch: int = 64
    #: Strategy report: the default sizes and the deals of its double-dummy check.
    report_samples: int = 8_000_000
    report_matches: int = 200_000
    report_dd_deals: int = 300
    #: Strategy report: how many of its example hands to analyse (all eight by default).
    report_example_hands: int = 8
    #: Strategy report, match score: score states checked against simulations, and decisions
    #: analysed by rollout where the win and EV bidders differ.
    report_equity_states: int = 50
    report_match_examples: int = 8
    #: Tarneeb report (``t400 report --game tarneeb``): deals of the trick tables, random hands
    #: per seat for the opening calls and the call analyzer's samples for each.
    report_tarneeb_deals: int = 400_000
    report_tarneeb_hands: int = 150
    report_tarneeb_call_samples: int = 2048


_current = Tunables()


def get() -> Tunables:
    """The tunables in force."""
    return _current


@contextlib.contextmanager
def override(**changes):
    """Change some tunables inside the ``with`` block (unknown names are an error)."""
    global _current
    before = _current
    unknown = set(changes) - {f.name for f in dataclasses.fields(Tunables)}
    if unknown:
        raise TypeError(f"unknown tunable(s): {', '.join(sorted(unknown))}")
    _current = dataclasses.replace(_current, **changes)
    try:
        yield _current
    finally:
        _current = before
