"""Every legal card valued on many layouts of the hidden cards: the hot path of pimc
(perfect-information Monte Carlo, :mod:`analyzer.core.pimc`).

A decision is a position part way through a trick (the cards of the trick so far, who led it,
the tricks each player has won) and the mover's legal cards; each layout gives the four hands
still held. For every layout and card the position after the card is solved double dummy:

* :func:`values_with_bids`: 400's double dummy with the bids (:mod:`kernels.core.bids_dd`),
  the score of seats 1+3 minus seats 2+4 (doubled with the tie-break for a ``favoured``
  player: odd when that player is made on a line of best play). All the positions of one call
  share the same targets and values, so the same outcome scores: the transposition table, whose
  bounds are indices into those scores, is emptied once per call and kept across the cards and
  the layouts (sibling cards share most of their trees);
* :func:`team_tricks`: the partnership double dummy (:mod:`kernels.core.dd`), the tricks the
  mover's side takes from the position on, the current trick included; the team table is
  stamped per solve and keeps what earlier solves stored.

A call solves the layouts ``first .. last - 1`` and the cards ``c_first .. c_last - 1`` with one table; the values are exact whatever the
table holds, so workers on threads, each with its own table, taking blocks of layouts as they
come free give the same values as one worker.
"""

import numpy as np

from kernels.config import JIT
from kernels.core import bids_dd, dd
from kernels.core.tricks import power

U64 = np.uint64
_ONE = U64(1)


@JIT
def _trick_so_far(trick_cards, n_trick, leader, trump):
    """(led suit, winning card, its seat, the trick's cards as bits) of the current trick."""
    led = 0
    best = 0
    best_seat = 0
    bits = U64(0)
    for k in range(n_trick):
        c = trick_cards[k]
        if k == 0:
            led = c >> 4
            best = c
            best_seat = leader
        elif power(c, led, trump) > power(best, led, trump):
            best = c
            best_seat = (leader + k) & 3
        bits |= _ONE << U64(c)
    return led, best, best_seat, bits


@JIT
def values_with_bids(layouts, trump, leader, trick_cards, n_trick, cards, target, value, won, favoured, T, ctx, out,
                     first, last, c_first, c_last, clear):  # fmt: skip
    """``out[i, j]``: the 400 double-dummy score after ``cards[j]`` on ``layouts[i]`` (uint64[n, 4]
    of the cards still held, the mover's included), for ``first <= i < last`` and ``c_first <= j <
    c_last``; ``won``
    the tricks each seat has won, ``trick_cards[:n_trick]`` the current trick from ``leader``. A
    card of -1 values the position itself, no card played (a review's card costs: one compiled
    search serves them and the decision costs).
    ``clear``: start a new solve on the table first (the first call of a decision on this table,
    :func:`kernels.core.bids_dd.start_solve`)."""
    mover = (leader + n_trick) & 3
    led, best, best_seat, bits = _trick_so_far(trick_cards, n_trick, leader, trump)
    if clear:
        bids_dd.start_solve(T, ctx)
    ctx[bids_dd.CTX_NODES] = 0
    w = won.copy()
    for i in range(first, last):
        for j in range(c_first, c_last):
            # start from the card's value on the layout before, or the card's before it here
            guess = out[i - 1, j] if i > first else (out[i, j - 1] if j > c_first else bids_dd.NO_GUESS)
            c = cards[j]
            H = layouts[i].copy()
            if c < 0:
                l2, b2, s2 = led, best, best_seat
            else:
                H[mover] &= ~(_ONE << U64(c))
                if n_trick == 0:
                    l2, b2, s2 = c >> 4, c, mover
                elif power(c, led, trump) > power(best, led, trump):
                    l2, b2, s2 = led, c, mover
                else:
                    l2, b2, s2 = led, best, best_seat
            # one call of the solver (each call site holds a whole copy of the search)
            w[:] = won
            if c < 0:  # the position as it is
                lead, k, trick = leader, n_trick, bits
            elif n_trick == 3:  # the trick is complete: its winner leads the next
                w[s2] += 1
                lead, k, l2, b2, s2, trick = s2, 0, 0, 0, 0, U64(0)
            else:
                lead, k, trick = leader, n_trick + 1, bits | (_ONE << U64(c))
            out[i, j] = bids_dd._solve_at(H, trump, lead, k, l2, b2, s2, trick, target, value, w, favoured, False, guess,
                                          T, ctx, False)  # fmt: skip


@JIT
def team_tricks(layouts, trump, leader, trick_cards, n_trick, cards, W, T, out, first, last, c_first, c_last):
    """``out[i, j]``: the tricks the mover's partnership takes from the position on (the current
    trick included) after ``cards[j]`` on ``layouts[i]``, double dummy; layouts and trick as
    :func:`values_with_bids`."""
    mover = (leader + n_trick) & 3
    led, best, best_seat, _ = _trick_so_far(trick_cards, n_trick, leader, trump)
    tc = np.zeros(4, dtype=np.int64)
    for k in range(n_trick):
        tc[k] = trick_cards[k]
    for i in range(first, last):
        for j in range(c_first, c_last):
            c = cards[j]
            H = layouts[i].copy()
            H[mover] &= ~(_ONE << U64(c))
            # start from the card before's value here (siblings mostly tie), else this card's on
            # the layout before, else the high cards' estimate
            if j > c_first:
                guess = out[i, j - 1]
            elif i > first:
                guess = out[i - 1, j]
            else:
                guess = dd.guess_tricks(layouts[i], trump, dd.ms_mask_for(dd.TEAM, mover))
            # one call of the solver (each call site holds a whole copy of the search)
            lead, n_in, ours = leader, n_trick + 1, 0
            if n_trick < 3:
                tc[n_trick] = c
            else:
                winner = mover if power(c, led, trump) > power(best, led, trump) else best_seat
                ours = 1 if (winner & 1) == (mover & 1) else 0
                if H[winner] == 0:  # the last trick
                    out[i, j] = ours
                    continue
                lead, n_in = winner, 0
            out[i, j] = ours + dd.solve_at(W, T, H, trump, lead, dd.TEAM, mover, tc, n_in, guess - ours)
