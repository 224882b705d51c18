"""pimc, perfect-information Monte Carlo: what should I play now?

From what the mover can see (their own hand, the cards played, who showed out of a suit, and
what the auction said) deal layouts of the hidden cards, solve each legal card double dummy on
every layout, and play the card that is best on average. The classic reference player of
trick-taking games (Ginsberg's GIB for bridge; BEN's and WBridge5's card play rest on it): it
errs where hidden information matters in a way no layout shows (it assumes it will see the
cards from the next trick on), and it is otherwise strong.

The table as the mover sees it and the layouts are :mod:`analyzer.core.layouts`; this module
holds what every game shares of the decision:

* the values: :func:`values_with_bids` (400: the double dummy with the bids) and
  :func:`team_tricks` (the partnership double dummy) over the layouts on all threads, every
  legal card from one table per thread (:mod:`kernels.core.pimc`);
* :func:`card_table`: each card's mean value, its standard error over the layouts (paired: the
  layouts are common to every card) and the probability it is the best card (the share of
  bootstrap resamples of the layouts on which it has the highest mean).

Each game turns values into its answer (:mod:`analyzer.games.t400.pimc`,
:mod:`analyzer.games.tarneeb.pimc`). Every random draw comes from ``rng`` (a seeded
:class:`random.Random`): the same seed gives the same layouts and the same answer with any
number of threads.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field

import numpy as np

from analyzer.core.layouts import Position
from analyzer.core.runtime import check_threads

#: Layouts a decision solves by default (``t400 card --layouts``), and the most it may ask for.
DEFAULT_LAYOUTS = 32
MAX_LAYOUTS = 4096
#: Bootstrap resamples for the probability that a card is best.
BOOTSTRAP = 400


# ---------------------------------------------------------------------------------------------
# The question


def check_player(hand, seat: int):
    """The hand as dealt (13 cards, those played included) of seat ``seat`` (1..4), checked: a
    :class:`analyzer.core.notation.Hand`."""
    from analyzer.core.errors import T400Error
    from analyzer.core.notation import as_hand

    h = as_hand(hand)
    if len(h) != 13:
        raise T400Error(f"hand: expected 13 cards (the hand as dealt, the cards played included), got {len(h)}")
    if seat not in (1, 2, 3, 4):
        raise T400Error(f"--seat {seat}: expected 1..4")
    return h


def check_play(play, layouts: int) -> list[int]:
    """The cards played so far (symbols or card indices) as indices, and ``layouts`` checked."""
    from analyzer.core.errors import T400Error
    from analyzer.core.notation import Card

    if not 1 <= layouts <= MAX_LAYOUTS:
        raise T400Error(f"--layouts {layouts}: expected 1..{MAX_LAYOUTS}")
    return [Card.parse(c).index if isinstance(c, str) else int(c) for c in (play or [])]


# ---------------------------------------------------------------------------------------------
# Values


#: Layouts a worker takes at a time (the first of a block starts from no guess).
BLOCK = 4


def _on_workers(n: int, cards: int, threads: int | None, run: Callable[..., None], split_cards: bool = True,
                block: int = BLOCK) -> None:  # fmt: skip
    """``run(worker, first, last, c_first, c_last, clear)`` for blocks of ``block`` layouts of
    ``n`` (and, with ``split_cards`` on several workers, each block's cards in two halves: one
    layout may take many times the others' time), each task to the first worker to come free;
    ``clear`` is true for a worker's first task (its table is emptied)."""
    import queue

    workers = max(1, min(check_threads(threads), n * cards))
    halves = [(0, cards)] if workers == 1 or cards < 2 or not split_cards else [(0, cards // 2), (cards // 2, cards)]
    tasks = [(first, min(n, first + block), c0, c1) for first in range(0, n, block) for c0, c1 in halves]
    if workers == 1 or len(tasks) == 1:
        for k, task in enumerate(tasks):
            run(0, *task, k == 0)
        return
    free: queue.SimpleQueue[int] = queue.SimpleQueue()
    for w in range(workers):
        free.put(w)
    used = set()

    def task(first, last, c0, c1):
        w = free.get()
        try:
            clear = w not in used
            used.add(w)
            run(w, first, last, c0, c1, clear)
        finally:
            free.put(w)

    futures = [_pool(workers).submit(task, *t) for t in tasks]
    try:
        for f in futures:
            f.result()
    except BaseException:
        # the tables are the next call's: none of this call's tasks may still be running then
        for f in futures:
            f.cancel()
        wait(futures)
        raise


@functools.cache
def _pool(workers: int) -> ThreadPoolExecutor:
    """A lasting pool of ``workers`` threads: a decision is a few milliseconds, a pool started
    for each would be a good part of it."""
    return ThreadPoolExecutor(workers, thread_name_prefix="pimc")


def _arrays(pos: Position, layouts, cards):
    hands = np.asarray(layouts, dtype=np.uint64).reshape(-1, 4)
    trick = np.zeros(4, dtype=np.int64)
    trick[: len(pos.trick)] = pos.trick
    return hands, trick, np.asarray(cards, dtype=np.int64)


def values_with_bids(pos: Position, layouts, cards, values, favoured: int = -1, threads: int | None = None
                     ) -> np.ndarray:  # fmt: skip
    """int64[layouts, cards]: 400's double dummy with the bids (targets ``pos.bids``, ``values``
    each bid's points) after each card on each layout: seats 1+3's points minus seats 2+4's, or
    with ``favoured`` a seat 0..3, that doubled plus 1 when the seat is made on a line of best
    play (see :func:`kernels.core.bids_dd.solve_bids_made`)."""
    from analyzer.core.solve import _BIDS_SOLVERS, compile_search_aside
    from kernels.core import pimc as kpimc

    compile_search_aside(kpimc.values_with_bids, "bids")
    hands, trick, cards = _arrays(pos, layouts, cards)
    out = np.zeros((len(hands), len(cards)), dtype=np.int64)
    target = np.asarray(pos.bids, dtype=np.int64)
    value = np.asarray(values, dtype=np.int64)
    won = np.asarray(pos.taken, dtype=np.int64)
    workers = max(1, min(check_threads(threads), len(hands)))
    tables, contexts = _BIDS_SOLVERS.get(workers)

    def run(w, first, last, c0, c1, clear):
        kpimc.values_with_bids(hands, pos.trump, pos.leader, trick, len(pos.trick), cards, target, value, won, favoured,
                               tables[w], contexts[w], out, first, last, c0, c1, clear)  # fmt: skip

    # a layout's cards on one worker (siblings share most of their trees in its table), a layout
    # a task: a full hand's layouts differ many times over in cost, and the workers stay even
    _on_workers(len(hands), len(cards), workers, run, split_cards=False, block=1)
    return out


def score_at(hands, trick, leader: int, targets, values, won, trump: int, keep: bool = False) -> int:
    """:func:`analyzer.core.solve.targets_score_at`'s score (seats 1+3 minus seats 2+4 under best
    play from a position part way through a trick) by pimc's kernel, valuing the position with no
    card played: a review that also has decision costs then compiles one search, not two.
    ``keep``: go on with the table of the call before, which had the same ``targets`` and
    ``values`` (its bounds are indices into the same scores; the positions of one hand share
    much of their trees)."""
    from analyzer.core.solve import _BIDS_SOLVERS, _position
    from kernels.core import pimc as kpimc

    h, cards = _position(hands, trick)
    out = np.zeros((1, 1), dtype=np.int64)
    arrays = [np.asarray([int(x) for x in four], dtype=np.int64) for four in (targets, values, won)]
    tables, contexts = _BIDS_SOLVERS.get(1)
    kpimc.values_with_bids(h.reshape(1, 4), trump, leader - 1, cards, len(trick), np.full(1, -1, dtype=np.int64),
                           *arrays, -1, tables[0], contexts[0], out, 0, 1, 0, 1, not keep)  # fmt: skip
    return int(out[0, 0])


def team_tricks(pos: Position, layouts, cards, threads: int | None = None) -> np.ndarray:
    """int64[layouts, cards]: the tricks the mover's partnership takes double dummy from the
    position on after each card on each layout (the current trick included)."""
    from analyzer.core.solve import _SOLVERS, compile_search_aside
    from kernels.core import pimc as kpimc

    compile_search_aside(kpimc.team_tricks)
    hands, trick, cards = _arrays(pos, layouts, cards)
    out = np.zeros((len(hands), len(cards)), dtype=np.int64)
    workers = max(1, min(check_threads(threads), len(hands)))
    workspaces, tables = _SOLVERS.get(workers)

    def run(w, first, last, c0, c1, clear):
        kpimc.team_tricks(hands, pos.trump, pos.leader, trick, len(pos.trick), cards, workspaces[w], tables[w], out,
                          first, last, c0, c1)  # fmt: skip

    # every card of a layout on one worker: siblings share most of their trees in its table
    _on_workers(len(hands), len(cards), workers, run, split_cards=False)
    return out


@dataclass(frozen=True)
class CardValue:
    """One legal card's value over the layouts: the mean, its standard error, and the
    probability that it is the best card."""

    card: int
    mean: float
    se: float
    p_best: float


def card_table(cards, values: np.ndarray, seed: int = 0) -> list[CardValue]:
    """Each card's mean of ``values`` (float[layouts, cards], higher better) with its standard
    error over the layouts, and P(best): the share of ``BOOTSTRAP`` resamples of the layouts in
    which the card has the highest mean (ties shared). Ordered as ``cards``."""
    values = np.asarray(values, dtype=np.float64)
    n = values.shape[0]
    means = values.mean(axis=0)
    se = values.std(axis=0, ddof=1) / math.sqrt(n) if n > 1 else np.full(len(cards), math.nan)
    gen = np.random.default_rng(seed)
    picks = gen.integers(0, n, size=(BOOTSTRAP, n))
    boot = values[picks].mean(axis=1)  # [resamples, cards]
    top = boot.max(axis=1, keepdims=True)
    wins = (boot >= top - 1e-12).astype(np.float64)
    p_best = (wins / wins.sum(axis=1, keepdims=True)).mean(axis=0)
    return [CardValue(int(c), float(m), float(s), float(p)) for c, m, s, p in zip(cards, means, se, p_best)]


# ---------------------------------------------------------------------------------------------
# A decision


def card_classes(pos: Position) -> list[list[int]]:
    """The mover's legal cards in classes of equal value on every layout: cards of one suit
    with no card between them that another seat may still hold or that is in the current trick
    (each card between is the mover's or played to an earlier trick: a card of the current
    trick between them, such as the one winning it, is beaten by the higher and not by the
    lower), so whichever of them is played, every line of play goes the same way. Highest card
    of each class first."""
    gone = pos.played | pos.hands[pos.mover]
    for c in pos.trick:
        gone &= ~(1 << c)
    classes: list[list[int]] = []
    for c in sorted(pos.legal(), reverse=True):
        last = classes[-1][-1] if classes else None
        if last is not None and last >> 4 == c >> 4 and all(gone >> x & 1 for x in range(c + 1, last)):
            classes[-1].append(c)
        else:
            classes.append([c])
    return classes


@dataclass
class Decision:
    """The cards of one decision valued on the layouts solved: ``values[i, j]`` for layout i and
    ``cards[j]``, one card of each class of equal cards (``classes[j]``, highest first; the
    game's value, higher better for the mover), ``extra`` the game's other figure per layout and
    card (e.g. the mover made), and how many layouts were solved."""

    cards: list[int]
    classes: list[list[int]]
    values: np.ndarray
    extra: np.ndarray | None
    layouts: int

    def table(self, seed: int = 0) -> list[CardValue]:
        return card_table(self.cards, self.values, seed)


@dataclass(kw_only=True)
class Advice:
    """What every game's ``t400 card`` answer holds: the player, the position, the layouts
    solved (and asked for, and the share that fitted the auction), the rows (one per class of
    equal cards, best first), the recommended card, its reasons and the time it took."""

    hand: str
    seat: int
    variant: str
    played: list[str]
    trick: list[str]
    taken: list[int]
    layouts: int
    layouts_asked: int
    fitted: float
    seed: int
    rows: list
    recommended: str
    reasons: list[dict] = field(default_factory=list)
    elapsed_s: float = 0.0
    compile_s: float = 0.0

    def row(self, card: str):
        return next(r for r in self.rows if r.card == card)

    def common(self) -> dict:
        """The JSON of the fields every game has (the game adds its own)."""
        return {"hand": self.hand, "seat": self.seat, "variant": self.variant, "played": self.played,
                "trick": self.trick, "taken": self.taken, "layouts": self.layouts,
                "layouts_asked": self.layouts_asked, "seed": self.seed, "cards": [r.__dict__ for r in self.rows],
                "recommended": self.recommended, "reasons": self.reasons, "elapsed_s": self.elapsed_s,
                "compile_s": self.compile_s}  # fmt: skip


def ranked(decision: Decision, seed: int = 0) -> tuple[list[dict], str]:
    """The rows of a decision, one per class of equal cards, best mean first: ``card`` (the
    class's lowest, as a symbol), ``equal`` (the others), ``mean``, ``se``, ``extra`` (the mean
    of the game's other figure) and ``p_best``; and the recommended card: the best mean, among
    equal means the likelier best, then the lowest card (the one that gives least away)."""
    from analyzer.core.notation import Card

    table = decision.table(seed)
    extra = decision.extra.mean(axis=0) if decision.extra is not None else [math.nan] * len(table)
    rows = [{"card": Card.from_index(t.card).symbol, "equal": [Card.from_index(c).symbol for c in cls if c != t.card],
             "mean": t.mean, "se": t.se, "extra": float(x), "p_best": t.p_best}
            for t, x, cls in zip(table, extra, decision.classes)]  # fmt: skip
    best = max(range(len(rows)), key=lambda i: (round(rows[i]["mean"], 9), rows[i]["p_best"], -(table[i].card & 15)))
    recommended = rows[best]["card"]
    return sorted(rows, key=lambda r: -r["mean"]), recommended


def first_reason(rows: list[dict], recommended: str, layouts: int, best_key: str) -> dict:
    """Why the recommended card, against the next best (catalogue keys ``card.why.only``,
    ``card.why.equal`` and ``best_key``), as ``{"key", "params", "text"}``."""
    from analyzer.core.fmt import pct
    from analyzer.core.reasons import reason

    best = next(r for r in rows if r["card"] == recommended)
    others = [r for r in rows if r["card"] != recommended]
    if not others:
        return reason("card.why.only", card=recommended)
    runner = max(others, key=lambda r: r["mean"])
    gap = best["mean"] - runner["mean"]
    if gap < 1e-9:
        return reason("card.why.equal", card=recommended, runner=runner["card"], n=layouts)
    return reason(best_key, card=recommended, gap=f"{gap:.2f}", runner=runner["card"], n=layouts,
                p=pct(best["p_best"], digits=0))  # fmt: skip


def clear_best(values: np.ndarray, z: float = 3.0) -> bool:
    """Whether one card is best beyond doubt on the layouts so far: its mean beats every other
    card's by more than ``z`` standard errors of the paired difference, or by a margin no layout
    contradicts (it is at least as good on every layout)."""
    n = values.shape[0]
    if values.shape[1] == 1:
        return True
    means = values.mean(axis=0)
    top = int(np.argmax(means))
    for j in range(values.shape[1]):
        if j == top:
            continue
        d = values[:, top] - values[:, j]
        if (d >= 0).all():
            continue
        se = d.std(ddof=1) / math.sqrt(n)
        if d.mean() <= z * se:
            return False
    return True


#: :func:`decide`'s layouts a block.
DECIDE_BLOCK = 8


def decide(pos: Position, layouts: list, solve, stop_early: bool = True, block: int = DECIDE_BLOCK,
           progress: Callable[[int, int], None] | None = None) -> Decision:  # fmt: skip
    """Value the mover's legal cards on ``layouts``, in blocks of ``block``; with ``stop_early``,
    stop once :func:`clear_best` says one card is best (at least two blocks solved; one block
    when all the legal cards are equal). ``solve(pos, layouts, cards)`` returns (int64[layouts,
    cards] values, the game's extra figure or None); it is asked for the lowest card of each
    class of :func:`card_classes` (the others are worth the same). ``progress(done, total)``
    after each block: the layouts solved."""
    classes = card_classes(pos)
    reps = [cls[-1] for cls in classes]
    parts, extras = [], []
    done = 0
    while done < len(layouts):
        chunk = layouts[done : done + block]
        values, extra = solve(pos, chunk, reps)
        parts.append(values)
        if extra is not None:
            extras.append(extra)
        done += len(chunk)
        if progress is not None:
            progress(done, len(layouts))
        if stop_early and (len(reps) == 1 or done >= 2 * block and clear_best(np.concatenate(parts))):
            break
    extra = np.concatenate(extras) if extras else None
    return Decision(reps, classes, np.concatenate(parts), extra, done)


def best_card(decision: Decision) -> int:
    """The card pimc plays: the lowest card of the class with the best mean (among equal means,
    the lowest card), without :func:`ranked`'s bootstrap."""
    means = decision.values.mean(axis=0)
    best = max(range(len(decision.cards)), key=lambda i: (round(float(means[i]), 9), -(decision.cards[i] & 15)))
    return decision.cards[best]


def decision_cost(pos: Position, played: int, layouts: Callable[[], list], solve) -> dict:
    """What a card cost from what its player could see: pimc's value of the best card against
    the card played (``played``), on the layouts ``layouts()`` deals (see :func:`decide`), with
    the standard error of the paired difference; and pimc's best cards. Zero, with no layout
    dealt, when every legal card is worth the same."""
    classes = card_classes(pos)
    if len(classes) == 1:
        return {"decision_cost": 0.0, "decision_cost_se": 0.0, "pimc_best": [], "layouts": 0}
    dealt = layouts()
    # no early stop before two blocks: up to two blocks' layouts are one block, the same values
    # from one call (the workers keep their tables across the layouts and stay even)
    d = decide(pos, dealt, solve, block=len(dealt) if len(dealt) <= 2 * DECIDE_BLOCK else DECIDE_BLOCK)
    mine = next(i for i, cls in enumerate(d.classes) if played in cls)
    means = d.values.mean(axis=0)
    best = int(np.argmax(means))
    diff = (d.values[:, best] - d.values[:, mine]).astype(np.float64)
    se = float(diff.std(ddof=1) / math.sqrt(len(diff))) if len(diff) > 1 else math.nan
    return {"decision_cost": float(diff.mean()), "decision_cost_se": se,
            "pimc_best": [c for c in d.classes[best]], "layouts": d.layouts}  # fmt: skip


#: The parts of the double dummy with the bids that a review's own process compiles before its
#: bid analysis, while the helper compiles the rest of pimc's tree (:func:`warm_review`): the
#: helper's tree is the longer, and the move ordering evens the two cores' work.
REVIEW_OWN_PARTS = ("_ordered_moves",)


def warm_review() -> None:
    """Compile the parts of the double dummy with the bids (the last a compile reaches first) but
    :data:`REVIEW_OWN_PARTS`, then pimc's values of a 400 decision, which a review asks last (the
    helper process of :func:`analyzer.core.runtime.compile_aside`; by then the review's process
    has compiled its part, loaded here from the disk cache)."""
    from analyzer.core.solve import SEARCH_PARTS, warm_search_parts

    warm_search_parts(list(SEARCH_PARTS).index("bids"), skip=REVIEW_OWN_PARTS)
    pos = Position([1 << 12 | 1 << 2, 1 << 11 | 1 << 1, 1 << 10 | 1 << 3, 1 << 9 | 1 << 4], bids=(1, 0, 1, 0), trump=4)
    values_with_bids(pos, [pos.hands], pos.legal(), [2, 2, 2, 2], favoured=0, threads=1)


def warm_review_own_parts() -> None:
    """Compile :data:`REVIEW_OWN_PARTS` in the review's own process while its helper compiles
    the rest (:func:`warm_review`)."""
    from analyzer.core.solve import SEARCH_PARTS, warm_search_parts

    warm_search_parts(list(SEARCH_PARTS).index("bids"), only=REVIEW_OWN_PARTS)
