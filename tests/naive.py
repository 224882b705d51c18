"""Slow, obviously-correct references for the kernels, written from the rule text.

Cards are ``(suit, rank)`` pairs (suit 0 spades, 1 hearts, 2 diamonds, 3 clubs; rank 0 = two ..
12 = ace), hands are sets of them. Nothing here is fast or clever on purpose.
"""

from __future__ import annotations

import functools
import math

HEARTS = 1
SIDE_SUITS = (0, 2, 3)


def cards_of(bits: int) -> set[tuple[int, int]]:
    return {(s, r) for s in range(4) for r in range(13) if bits >> (16 * s + r) & 1}


def index_of(card: tuple[int, int]) -> int:
    return 16 * card[0] + card[1]


def card_at(index: int) -> tuple[int, int]:
    return (index // 16, index % 16)


def legal_moves(hand: set, trick: list[tuple[int, int]]) -> set:
    """Any card when leading; otherwise a card of the led suit if the hand has one, else any."""
    if not trick:
        return set(hand)
    led = trick[0][0]
    follow = {c for c in hand if c[0] == led}
    return follow or set(hand)


def trick_winner(trick: list[tuple[int, int]], trump: int) -> int:
    """Position (0 = leader) of the winning card: the highest trump, else the highest of the led suit."""
    trumps = [(c[1], k) for k, c in enumerate(trick) if c[0] == trump]
    if trumps:
        return max(trumps)[1]
    led = trick[0][0]
    return max((c[1], k) for k, c in enumerate(trick) if c[0] == led)[1]


def greedy_choice(hand: set, trick: list, trump: int) -> tuple[int, int]:
    """The greedy policy as stated: lead the highest-ranked side card (highest trump if only
    trumps; first suit in S H D C order on ties); following, win as cheaply as possible, else
    play the lowest-ranked card (keeping trumps when void; first suit on ties)."""
    legal = legal_moves(hand, trick)
    if not trick:
        side = [c for c in legal if c[0] != trump] or list(legal)
        top = max(c[1] for c in side)
        return min(c for c in side if c[1] == top)
    winners = [c for c in legal if trick_winner([*trick, c], trump) == len(trick)]
    if winners:
        # cheapest: lowest rank within the led suit, or the lowest trump when ruffing
        return min(winners, key=lambda c: (c[0] == trump and trick[0][0] != trump, c[1]))
    side = [c for c in legal if c[0] != trump] or list(legal)
    low = min(c[1] for c in side)
    return min(c for c in side if c[1] == low)


def replay(hands: list[set], sequence: list[int], leader: int, trump: int = HEARTS):
    """Check a played sequence (card indices in play order) against the rules.

    Returns (tricks per seat, movers) where movers[i] is the seat that played card i. Raises
    AssertionError on an illegal card, a card not in the mover's hand or a card played twice.
    """
    hands = [set(h) for h in hands]
    tricks = [0, 0, 0, 0]
    movers = []
    trick: list = []
    seats: list = []
    seen = set()
    for index in sequence:
        card = card_at(index)
        seat = (leader + len(trick)) % 4
        assert card not in seen, f"{card} played twice"
        assert card in hands[seat], f"seat {seat} does not hold {card}"
        assert card in legal_moves(hands[seat], trick), f"seat {seat} may not play {card}"
        seen.add(card)
        hands[seat].remove(card)
        trick.append(card)
        seats.append(seat)
        movers.append(seat)
        if len(trick) == 4:
            leader = seats[trick_winner(trick, trump)]
            tricks[leader] += 1
            trick, seats = [], []
    assert not trick, "the last trick is incomplete"
    assert all(not h for h in hands), "cards left unplayed"
    return tricks, movers


def play_along(hands: list[set], leader: int, trump: int, choose) -> list[int]:
    """Play ``hands`` (sets of cards, emptied) out from ``leader``: ``choose(seat, hand, played,
    voids, taken, leader, trick)`` gives each card from the public state (``played`` includes the
    trick so far, ``voids`` holds (seat, suit) pairs). Returns the tricks by seat."""
    played, voids, taken, trick = set(), set(), [0, 0, 0, 0], []
    while any(hands):
        seat = (leader + len(trick)) % 4
        card = choose(seat, hands[seat], played, voids, taken, leader, trick)
        hands[seat].remove(card)
        played.add(card)
        if trick and card[0] != trick[0][0]:
            voids.add((seat, trick[0][0]))
        trick = [*trick, card]
        if len(trick) == 4:
            leader = (leader + trick_winner(trick, trump)) % 4
            taken[leader] += 1
            trick = []
    return taken


def public_states(hands: list[set], sequence: list[int], bids, leader: int, trump: int = HEARTS):
    """For each move, what the mover may know, in the kernels' packed form:
    (seat, own hand bits, played bits, voids, bids, taken, leader, n_played, led, best, best_pos);
    bids and taken (tricks so far) hold 8 bits per seat."""
    hands = [set(h) for h in hands]
    tricks = [0, 0, 0, 0]
    played = 0
    voids = 0
    trick: list = []
    out = []
    for index in sequence:
        card = card_at(index)
        seat = (leader + len(trick)) % 4
        packed_bids = sum(b << (8 * s) for s, b in enumerate(bids))
        taken = sum(t << (8 * s) for s, t in enumerate(tricks))
        if trick:
            led = trick[0][0]
            pos = trick_winner(trick, trump)
            best, best_pos = index_of(trick[pos]), pos
        else:
            led, best, best_pos = 0, 0, 0
        own = sum(1 << index_of(c) for c in hands[seat])
        out.append((seat, own, played, voids, packed_bids, taken, leader, len(trick), led, best, best_pos))
        hands[seat].remove(card)
        played |= 1 << index
        if trick and card[0] != trick[0][0]:
            voids |= 1 << (4 * seat + trick[0][0])
        trick.append(card)
        if len(trick) == 4:
            leader = (leader + trick_winner(trick, trump)) % 4
            tricks[leader] += 1
            trick = []
    return out


def counting_estimate(hand: set) -> float:
    """The counting baseline's trick estimate, line by line from ../shared/baseline-bidder.md."""
    hearts = sorted(r for s, r in hand if s == HEARTS)
    h = len(hearts)
    est = 0.0
    if 12 in hearts:
        est += 1
    if 11 in hearts:
        est += 0.95 if h >= 2 else 0.4
    if 10 in hearts:
        est += 0.8 if h >= 3 else 0.3
    if 9 in hearts:
        est += 0.55 if h >= 4 else 0.15
    est += 0.85 * max(0, h - 4)
    for suit in SIDE_SUITS:
        ranks = {r for s, r in hand if s == suit}
        n = len(ranks)
        if 12 in ranks:
            est += 0.95 if n <= 6 else 0.7
        if 11 in ranks:
            if n >= 2 and 12 in ranks:
                est += 0.85
            elif n >= 2:
                est += 0.6
            else:
                est += 0.2
        if 10 in ranks and n >= 3 and (12 in ranks or 11 in ranks):
            est += 0.35
    spare = max(0, h - 2)
    for suit in SIDE_SUITS:
        n = sum(1 for s, _ in hand if s == suit)
        if n <= 2 and spare > 0:
            ruffs = min(spare, {0: 2, 1: 1, 2: 0.5}[n])
            est += 0.75 * ruffs
            spare -= math.ceil(ruffs)
    return est


def counting_bid(hand: set, seat: int, own_minimum: int, table_minimum: int, earlier: list[int]) -> int:
    """The counting baseline's bid (seat 0..3), from the recipe."""
    est = counting_estimate(hand)
    n = min(max(math.floor(est + 0.2), own_minimum), 13)
    if n >= 7 and est < n + 0.4:
        n = max(n - 1, own_minimum)
    need = table_minimum - sum(earlier)
    if seat == 3 and n < need <= min(est + 2.2, 13):
        n = need
    elif seat == 2 and n + 3 < need and est - n > 0.45:
        n += 1
    return n


# -- the EV bidder, from the model's layout (kernels/t400/bidder.py's docstring) --------------------
# Restated here, not imported: the twin reads the fitted weights, never the kernel's code.
EV_TRUMP = 0  # [14 trump lengths x 16]: which of A K Q J are held, A the high bit
EV_SIDE = EV_TRUMP + 14 * 16  # [14 lengths x 8 (A K Q held) x 4 heart-length buckets]
EV_SEAT = EV_SIDE + 14 * 8 * 4  # [4] intercepts
EV_PRIOR = EV_SEAT + 4  # [4] coefficients on the earlier bids' total
EV_CUM = EV_PRIOR + 4  # [53 quarter-trick bins x 15] P(tricks >= k)


def ev_cells(hand: set, trump: int = HEARTS) -> tuple[int, int, int, int]:
    """The four table cells of a hand: its trump cell, then one per side suit in suit order."""
    trumps = [r for s, r in hand if s == trump]
    n = len(trumps)
    bucket = 0 if n <= 1 else 1 if n <= 3 else 2 if n <= 5 else 3
    cells = [n * 16 + sum(1 << (r - 9) for r in trumps if r >= 9)]  # J Q K A: bits 0..3
    for suit in (s for s in range(4) if s != trump):
        ranks = [r for s, r in hand if s == suit]
        cells.append((len(ranks) * 8 + sum(1 << (r - 10) for r in ranks if r >= 10)) * 4 + bucket)
    return tuple(cells)


def ev_estimate(model, hand: set, seat: int, prior_sum: int, trump: int = HEARTS) -> float:
    """The EV bidder's expected own tricks: the sum of the hand's cells, the seat's intercept and
    its coefficient times the earlier bids (added in this order, as the weights were fitted)."""
    t, a, b, c = ev_cells(hand, trump)
    return (float(model[EV_TRUMP + t]) + float(model[EV_SIDE + a]) + float(model[EV_SIDE + b])
            + float(model[EV_SIDE + c]) + float(model[EV_SEAT + seat]) + float(model[EV_PRIOR + seat]) * prior_sum)  # fmt: skip


def estimate_row(est: float) -> int:
    """The quarter-trick bin of an estimate (0 .. 52), rounded half up."""
    return min(max(int(est * 4 + 0.5), 0), 52)


def ev_values(variant, model, hand: set, seat: int, scores, prior_sum: int) -> dict[int, float]:
    """Each legal bid's expected points: value x (2 P(make) - 1), 0 when the dealer's bid would
    leave the table short (a dead hand)."""
    row = estimate_row(ev_estimate(model, hand, seat, prior_sum))
    own = scores[seat]
    out = {}
    for b in range(variant.min_bid(own), 14):
        if seat == 3 and prior_sum + b < variant.table_minimum(scores):
            out[b] = 0.0
        else:
            p = float(model[EV_CUM + row * 15 + b])
            out[b] = variant.bid_value(b, own) * (2.0 * p - 1.0)
    return out


def ev_bid_reference(variant, model, hand: set, seat: int, scores, prior_sum: int) -> int:
    """The EV bidder's bid: the legal bid of the highest expected points, ties to the lower."""
    best, best_ev = None, -math.inf
    for b, ev in ev_values(variant, model, hand, seat, scores, prior_sum).items():
        if ev > best_ev + 1e-9:
            best, best_ev = b, ev
    return best


def bid_likelihood_reference(variant, model, hand: set, seat: int, scores, prior_sum: int, bid: int,
                             tau: float) -> float:  # fmt: skip
    """P(the EV bot bids ``bid``) as a softmax of the expected points at temperature ``tau``."""
    evs = ev_values(variant, model, hand, seat, scores, prior_sum)
    if bid not in evs:
        return 0.0
    top = max(evs.values())
    return math.exp((evs[bid] - top) / tau) / sum(math.exp((v - top) / tau) for v in evs.values())


def rollout_deal_reference(variant, model, hands: list[set], seat: int, scores, earlier: list[int],
                           candidates: list[int], infer: bool, tau: float):  # fmt: skip
    """One deal of ``t400 bid``'s rollout in plain Python (seat 0..3, scores and bids in seat
    order): the deal's weight (the earlier bids' likelihood under the EV bot with ``infer``, else
    1), and for each candidate (bids of all four, dead, own tricks or None, own score change): the
    later seats bid by the EV bot, the rules engine's dead-hand test, else the hand played out
    by ``standard`` at every seat (seat 1 leads, hearts trump)."""
    w, prior = 1.0, 0
    for s in range(seat):
        if infer:
            w *= bid_likelihood_reference(variant, model, hands[s], s, scores, prior, earlier[s], tau)
        prior += earlier[s]
    outcomes = []
    for bid in candidates:
        bids = [*earlier[:seat], bid]
        for s in range(seat + 1, 4):
            bids.append(ev_bid_reference(variant, model, hands[s], s, scores, sum(bids)))
        if variant.is_dead(bids, scores):
            outcomes.append((bids, True, None, 0))
            continue
        tricks = play_along([set(h) for h in hands], 0, HEARTS, _standard_at(bids))
        outcomes.append((bids, False, tricks[seat], variant.score_change(bid, tricks[seat], scores[seat])))
    return w, outcomes


def _standard_at(bids):
    def choose(seat, hand, played, voids, taken, leader, trick):
        return standard_choice(seat, hand, played, voids, bids, taken, leader, trick)

    return choose


def top_run(mine: int, rem: int) -> int:
    """How many of the highest cards of ``rem`` ``mine`` holds, from the top (dd.top_run)."""
    run = 0
    for k in sorted((c for c in range(64) if rem >> c & 1), reverse=True):
        if not mine >> k & 1:
            break
        run += 1
    return run


def top_cards(rem: int, n: int) -> int:
    """The ``n`` highest cards of ``rem`` (dd.top_cards)."""
    return sum(1 << c for c in sorted((c for c in range(64) if rem >> c & 1), reverse=True)[:n])


def representatives(cards: int, in_play: int) -> int:
    """The highest card of each run of ``cards`` among the cards in play, suit by suit
    (dd.representatives)."""
    out = 0
    for s in range(4):
        previous_mine = False
        for k in range(16 * s + 15, 16 * s - 1, -1):
            if in_play >> k & 1:
                mine = bool(cards >> k & 1)
                if mine and not previous_mine:
                    out |= 1 << k
                previous_mine = mine
    return out


def minimax_tricks(hands: list[frozenset], leader: int, trump: int, max_seats: frozenset) -> int:
    """Brute-force double dummy: the most tricks the seats in ``max_seats`` take when they
    maximise and everyone else minimises (full search of every legal card, with memo)."""

    @functools.cache
    def best(hands: tuple[frozenset, ...], leader: int, trick: tuple) -> int:
        if not any(hands) and not trick:
            return 0
        seat = (leader + len(trick)) % 4
        results = []
        for card in legal_moves(set(hands[seat]), [c for c in trick]):
            rest = list(hands)
            rest[seat] = hands[seat] - {card}
            played = (*trick, card)
            if len(played) == 4:
                winner = (leader + trick_winner(list(played), trump)) % 4
                results.append((1 if winner in max_seats else 0) + best(tuple(rest), winner, ()))
            else:
                results.append(best(tuple(rest), leader, played))
        return max(results) if seat in max_seats else min(results)

    return best(tuple(hands), leader, ())


def minimax_bids(hands: list[frozenset], leader: int, trump: int, bids, values, won=(0, 0, 0, 0),
                 favoured: int | None = None, trick=()):  # fmt: skip
    """Brute-force 400 double dummy with the bids: seats 0 and 2 maximise, 1 and 3 minimise the
    points of seats 0+2 minus those of 1+3, each player scored +value if their tricks (``won``
    included) reach their bid, else -value (full search of every legal card, with memo).
    ``trick``: the cards already played to the current trick from ``leader`` (not in ``hands``).

    With a ``favoured`` player, the sides compare (points, the favoured player made) in order,
    the player's own side wanting them made: returns (points, made) of that best line."""

    def score(tricks):
        points = sum(
            (1 if p % 2 == 0 else -1) * (values[p] if tricks[p] >= bids[p] else -values[p]) for p in range(4)
        )
        if favoured is None:
            return points
        made = tricks[favoured] >= bids[favoured]
        return (points, (1 if made else 0) if favoured % 2 == 0 else (0 if made else 1))

    @functools.cache
    def best(hands: tuple[frozenset, ...], leader: int, trick: tuple, tricks: tuple) -> int:
        if not any(hands) and not trick:
            return score(tricks)
        seat = (leader + len(trick)) % 4
        results = []
        for card in legal_moves(set(hands[seat]), list(trick)):
            rest = list(hands)
            rest[seat] = hands[seat] - {card}
            played = (*trick, card)
            if len(played) == 4:
                winner = (leader + trick_winner(list(played), trump)) % 4
                taken = list(tricks)
                taken[winner] += 1
                results.append(best(tuple(rest), winner, (), tuple(taken)))
            else:
                results.append(best(tuple(rest), leader, played, tricks))
        return max(results) if seat % 2 == 0 else min(results)

    result = best(tuple(hands), leader, tuple(trick), tuple(won))
    if favoured is None:
        return result
    points, flag = result
    return points, bool(flag) if favoured % 2 == 0 else not flag


def own_tricks_range(hands: list[frozenset], leader: int, trump: int, player: int) -> tuple[int, int]:
    """The fewest and the most tricks ``player`` can end with over every legal line of play
    (everyone, the player included, playing any card)."""

    @functools.cache
    def spread(hands: tuple[frozenset, ...], leader: int, trick: tuple) -> tuple[int, int]:
        if not any(hands) and not trick:
            return 0, 0
        seat = (leader + len(trick)) % 4
        lo, hi = 14, -1
        for card in legal_moves(set(hands[seat]), list(trick)):
            rest = list(hands)
            rest[seat] = hands[seat] - {card}
            played = (*trick, card)
            if len(played) == 4:
                winner = (leader + trick_winner(list(played), trump)) % 4
                a, b = spread(tuple(rest), winner, ())
                gain = 1 if winner == player else 0
                a, b = a + gain, b + gain
            else:
                a, b = spread(tuple(rest), leader, played)
            lo, hi = min(lo, a), max(hi, b)
        return lo, hi

    return spread(tuple(hands), leader, ())


def play_match_reference(variant, deals, bidders, policies, cap):
    """A match played in plain Python from a given sequence of deals (each four hands in the
    seat order of its round): bot bids one seat at a time, the rules engine's dead-hand test,
    the hand played out, the round settled by :class:`analyzer.games.t400.rules.MatchState`.

    bidders/policies are per player 1..4. Returns (state, per-round (bids, tricks or None)).
    """
    from analyzer.games.t400.rules import MatchState
    from analyzer.games.t400.simulate import bot_bid, play_deal

    state = MatchState(variant)
    rounds = []
    for hands in deals:
        if state.over or len(rounds) >= cap:
            break
        players = state.seat_players()
        scores = state.seat_scores()
        bids = []
        for seat in range(1, 5):
            bids.append(bot_bid(hands[seat - 1], seat, scores, bids, variant, bidders[players[seat - 1] - 1]))
        tricks = None
        if not variant.is_dead(bids, scores):
            deal = " ".join(str(h) for h in hands)
            tricks = list(play_deal(deal, bids, [policies[p - 1] for p in players]).tricks)
        rounds.append((bids, tricks))
        state = state.play_round(bids, tricks)
    return state, rounds


def seat_outcomes_reference(variant, hands, seat, scores, candidates):
    """The bidding guide's deal seen from ``seat`` (1..4), in plain Python: earlier seats bid by
    the EV bot; for each candidate bid, later seats bid by bot, the rules engine says whether the
    hand dies (-1), else it is played out with ``standard`` and the seat's tricks are returned;
    a candidate below the seat's minimum is -2. Returns (earlier bids' total, [outcome, ...])."""
    from analyzer.games.t400.simulate import bot_bid, play_deal

    earlier = []
    for s in range(1, seat):
        earlier.append(bot_bid(hands[s - 1], s, scores, earlier, variant))
    outcomes = []
    for bid in candidates:
        if bid < variant.min_bid(scores[seat - 1]):
            outcomes.append(-2)
            continue
        bids = [*earlier, bid]
        for s in range(seat + 1, 5):
            bids.append(bot_bid(hands[s - 1], s, scores, bids, variant))
        if variant.is_dead(bids, scores):
            outcomes.append(-1)
            continue
        deal = " ".join(str(h) for h in hands)
        outcomes.append(play_deal(deal, bids, "standard").tricks[seat - 1])
    return sum(earlier), outcomes


# -- the whole-array figures of matches, as first written: references for the block-by-block sums

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from analyzer.core.errors import T400Error  # noqa: E402
from analyzer.core.stats import Z95, ratio, wilson  # noqa: E402
from analyzer.games.t400.matches import _metric_parts, frame_rows  # noqa: E402
from analyzer.games.t400.rules import MAX_BID, MIN_BID  # noqa: E402
from kernels.t400 import match as km  # noqa: E402
from kernels.t400 import rules as kt  # noqa: E402


def summarize_matches_reference(matches: pd.DataFrame | np.ndarray) -> dict:
    """The figures of ``t400 simulate`` from :func:`simulate_matches` rows, with uncertainty.

    Rates are ratios over all matches (standard errors treat each match as a cluster of its
    hands); the first partnership's win rate has a 95% Wilson interval.
    """
    rows = frame_rows(matches) if isinstance(matches, pd.DataFrame) else np.asarray(matches)
    n = len(rows)
    if n == 0:
        raise T400Error("no matches to summarize")
    hands = rows[:, km.M_HANDS]
    deals = hands + rows[:, km.M_DEAD]
    bids = rows[:, km.M_BIDS : km.M_BIDS + 14].sum(axis=0)
    made = rows[:, km.M_MADE : km.M_MADE + 14]
    metrics = {}
    for name, (num, den, kind) in _metric_parts(rows).items():
        value, se, _ = ratio(num, den)
        metrics[name] = {"value": value, "se": se, "kind": kind}
    wins = int((rows[:, km.M_WINNER] == 0).sum())
    low, high = wilson(wins, n)
    make_by_bid = {}
    for k in range(MIN_BID, MAX_BID + 1):
        if bids[k] == 0:
            continue
        r, se, _ = ratio(made[:, k], rows[:, km.M_BIDS + k])
        make_by_bid[str(k)] = {"bids": int(bids[k]), "rate": r, "se": se}
    ends = np.bincount(rows[:, km.M_REASON], minlength=len(kt.END_NAMES))
    scores = rows[:, km.M_SCORE : km.M_SCORE + 4].astype(np.float64)
    pct = np.percentile(hands, [5, 25, 50, 75, 95]) if n else []
    counts = np.bincount(hands)
    return {
        "matches": n,
        "hands_per_match": {
            "mean": float(hands.mean()),
            "se": float(hands.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan,
            "percentiles": dict(zip(["p5", "p25", "p50", "p75", "p95"], (float(x) for x in pct))),
            "max": int(hands.max()),
            "distribution": {str(k): int(c) for k, c in enumerate(counts) if c},
        },
        "deals_per_match": float(deals.mean()),
        "dead_rate": metrics["dead-hand rate"],
        "bid_distribution": {str(k): float(bids[k] / bids.sum()) for k in range(MIN_BID, MAX_BID + 1)},
        "mean_bid": metrics["mean bid"],
        "make_rate": metrics["make rate"],
        "make_rate_by_bid": make_by_bid,
        "first_partnership_win": {"rate": wins / n, "ci95": [low, high], "wins": wins},
        "endings": {name: {"matches": int(c), "share": float(c / n)} for name, c in zip(kt.END_NAMES, ends)},
        "cap_hits": int(ends[kt.END_CAP]),
        "mean_final_scores": {
            f"player{p + 1}": {
                "mean": float(scores[:, p].mean()),
                "se": float(scores[:, p].std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan,
            }
            for p in range(4)
        },
        "metrics": metrics,
    }


def compare_reference(rows_by_label: dict[str, np.ndarray]) -> pd.DataFrame:
    """Side-by-side metrics of runs on the same matches (common random numbers).

    One row per metric and variant: ``value``, ``se``, and against the first variant ``diff``
    and ``diff_se`` (from the paired per-match differences, so shared luck cancels).
    """
    labels = list(rows_by_label)
    parts = {label: _metric_parts(rows) for label, rows in rows_by_label.items()}
    base = labels[0]
    records = []
    for metric in parts[base]:
        base_value, _, z_base = ratio(*parts[base][metric][:2])
        for label in labels:
            num, den, kind = parts[label][metric]
            value, se, z = ratio(num, den)
            if label == base:
                diff, diff_se = 0.0, 0.0
            else:
                diff = value - base_value
                d = z - z_base
                diff_se = float(d.std(ddof=1) / math.sqrt(len(d))) if len(d) > 1 else math.nan
            records.append(
                {"metric": metric, "variant": label, "kind": kind, "value": value, "se": se,
                 "diff": diff, "diff_se": diff_se}
            )  # fmt: skip
    return pd.DataFrame.from_records(records)


def duel_stats_reference(first: np.ndarray, swapped: np.ndarray) -> dict:
    """Duplicate-match figures for configuration A: in ``first`` A holds players 1+3, in
    ``swapped`` players 2+4, on the same deals. A match stopped at the cap (winner -1) or drawn
    (winner 2, Tarneeb) counts half."""
    w1 = first[:, km.M_WINNER]
    w2 = swapped[:, km.M_WINNER]
    half = lambda w: (w < 0) | (w == 2)  # noqa: E731
    score = (
        np.where(w1 == 0, 1.0, np.where(half(w1), 0.5, 0.0))
        + np.where(w2 == 1, 1.0, np.where(half(w2), 0.5, 0.0))
    ) / 2
    n = len(score)
    rate = float(score.mean())
    se = float(score.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    s1 = first[:, km.M_SCORE : km.M_SCORE + 4].astype(np.float64)
    s2 = swapped[:, km.M_SCORE : km.M_SCORE + 4].astype(np.float64)
    a_points = s1[:, 0] + s1[:, 2] + s2[:, 1] + s2[:, 3]
    b_points = s1[:, 1] + s1[:, 3] + s2[:, 0] + s2[:, 2]
    hands = (first[:, km.M_HANDS] + swapped[:, km.M_HANDS]).astype(np.float64)
    a_pph, a_se, _ = ratio(a_points, hands)
    b_pph, b_se, _ = ratio(b_points, hands)
    margin, margin_se, _ = ratio(a_points - b_points, hands)
    both = (w1 == 0) & (w2 == 1)
    neither = (w1 == 1) & (w2 == 0)
    return {
        "pairs": n,
        "matches": 2 * n,
        "win_rate": rate,
        "se": se,
        "ci95": [rate - Z95 * se, rate + Z95 * se],
        "points_per_hand": a_pph,
        "points_per_hand_se": a_se,
        "opponent_points_per_hand": b_pph,
        "opponent_points_per_hand_se": b_se,
        "margin_per_hand": margin,
        "margin_per_hand_se": margin_se,
        "pairs_won_both": int(both.sum()),
        "pairs_lost_both": int(neither.sum()),
        "cap_hits": int((w1 < 0).sum() + (w2 < 0).sum()),
        "draws": int((w1 == 2).sum() + (w2 == 2).sum()),
    }


# -- the ``standard`` play policy, rule by rule (kernels/policies/standard.py) --------------------
DECK = {(s, r) for s in range(4) for r in range(13)}


def _suit(cards, s):
    return {c for c in cards if c[0] == s}


def _above(card, cards):
    return {c for c in cards if c[0] == card[0] and c[1] > card[1]}


def _void_known(voids, seat, suit, unseen):
    return suit > 3 or (seat, suit) in voids or not _suit(unseen, suit)


def _beatable(card, led, trump, seat, leader, n_played, unseen, voids):
    """Could an opponent still to play beat ``card`` (judged from the unseen cards and shown voids)?"""
    higher = _above(card, unseen)
    for k in range(n_played + 1, 4):
        q = (leader + k) % 4
        if q == seat ^ 2:
            continue
        void_led = _void_known(voids, q, led, unseen)
        can_ruff = not _void_known(voids, q, trump, unseen)
        if card[0] == led:
            if higher and not void_led:
                return True
            if card[0] != trump and void_led and _suit(unseen, trump) and can_ruff:
                return True
        elif higher and void_led and can_ruff:
            return True
    return False


def _masters_from_top(cards, unseen):
    n = 0
    for c in sorted(cards, key=lambda c: -c[1]):
        if _above(c, unseen):
            break
        n += 1
    return n


def _knockout(cards, unseen):
    """Top of two touching cards with exactly one unseen card above them, else None."""
    if len(cards) < 2:
        return None
    top, nxt = sorted(cards, key=lambda c: -c[1])[:2]
    if len(_above(top, unseen)) != 1 or len(_above(nxt, unseen) - _above(top, unseen)) > 0:
        return None
    return top


def _trump_lead(my_trumps, top_trumps, unseen):
    """The top trump while it is a master, else the knock-out card, else the lowest."""
    if top_trumps:
        return max(my_trumps, key=lambda c: c[1])
    return _knockout(my_trumps, unseen) or min(my_trumps, key=lambda c: c[1])


def _lowest(cards):
    return min(cards, key=index_of)


def _discard(hand, trump, unseen, keep):
    best, best_key = None, None
    for s in range(4):
        cs = _suit(hand, s)
        if s == trump or not cs:
            continue
        c = min(cs, key=lambda c: c[1])
        top = max(cs, key=lambda c: c[1])
        key = c[1] * 16 + len(cs)
        if len(_above(top, unseen)) < len(cs) <= len(_above(top, unseen)) + 1:
            key += 512
        if _masters_from_top(cs, unseen):
            key += 1024
        if s == keep:
            key += 256
        if best_key is None or key < best_key:
            best, best_key = c, key
    return best if best is not None else _lowest(hand)


_SIDE_PRIORITY = (0, 1, 2, 3, 4, 5, 9, 12, 19, 16, 18, 22)
_TRUMP_PRIORITY = (10, 6, 8, 11, 7, 15, 14, 20, 13, 17, 23, 21)


def _lead_kind(cs, card):
    ranks = {c[1] for c in cs}
    r = card[1]
    if len(cs) == 1:
        return 1  # singleton
    if r == max(ranks):
        if r == 12:
            return 0 if 11 in ranks else 7  # ace with / without the king
        if r >= 8 and r - 1 in ranks:
            return 3  # top of a sequence
        if r >= 9:
            return 10  # an unsupported honour
        return 2 if len(cs) == 2 else 5  # doubleton top, top of nothing
    if r == min(ranks):
        if 12 in ranks:
            return 11  # low under the ace
        if 11 in ranks:
            return 8  # low away from the king
        if 10 in ranks or 9 in ranks:
            return 6  # low away from Q or J
        return 4  # low from nothing
    return 9  # a middle card


def _lead_model_inputs(hand, bids, seat, trump, card):
    """The opening-lead model's inputs for ``card`` (kernels/policies/lead.py, from its table):
    six (table, kind, bucket) look-ups and six whole-number features."""
    suit, rank = card
    cs = _suit(hand, suit)
    kind = _lead_kind(cs, card) + (12 if suit == trump else 0)
    points = sum({12: 4, 11: 3, 10: 2, 9: 1}.get(r, 0) for _, r in hand)
    strength = sum(points >= cut for cut in (8, 11, 14, 17))

    def bucket(bid):  # 2, 3, 4, 5, 6 or more
        return min(max(bid, 2), 6) - 2

    n_trumps = len(_suit(hand, trump))
    look_ups = [(table, kind, b) for table, b in enumerate((
        min(len(cs), 6) - 1, bucket(bids[seat]), bucket(bids[seat ^ 2]),
        bucket(max(bids[seat ^ 1], bids[seat ^ 3])), min(n_trumps, 5), strength))]  # fmt: skip
    short_side = suit != trump and len(cs) <= 2
    features = [
        rank,
        sum(1 for r in range(rank + 1, 13) if (suit, r) not in cs),
        sum({12: 4, 11: 3, 10: 2, 9: 1}.get(r, 0) for _, r in cs),
        n_trumps if short_side else 0,
        bids[seat ^ 2] if short_side and len(cs) == 1 else 0,
        bids[seat ^ 2] if suit == trump else 0,
    ]
    return look_ups, features


def fitted_lead_score(hand, bids, seat, trump, card):
    """The model's score of leading ``card``: the weights of its six look-ups plus each feature
    times its weight (the generated kernels/policies/lead_weights.py)."""
    from kernels.policies.lead import CONTEXT_SIZES, TABLE_OFFSETS
    from kernels.policies.lead_weights import FEATURE_WEIGHTS, TABLE_WEIGHTS

    look_ups, features = _lead_model_inputs(hand, bids, seat, trump, card)
    score = sum(int(TABLE_WEIGHTS[TABLE_OFFSETS[t] + k * CONTEXT_SIZES[t] + b]) for t, k, b in look_ups)
    return score + sum(int(w) * f for w, f in zip(FEATURE_WEIGHTS, features))


def _fitted_lead(hand, bids, seat, trump):
    """The card with the best score; on equal scores the lowest card (spades first, low first)."""
    return max(sorted(hand, key=index_of), key=lambda c: fitted_lead_score(hand, bids, seat, trump, c))


def _opening_lead(hand, trump):
    def key(c):
        cs = _suit(hand, c[0])
        table = _TRUMP_PRIORITY if c[0] == trump else _SIDE_PRIORITY
        return (table[_lead_kind(cs, c)], -len(cs), c[1], c[0])

    return min(hand, key=key)


def _safe_master(hand, trump, unseen, voids, seat):
    best, best_key = None, -1
    for s in range(4):
        cs = _suit(hand, s)
        if s == trump or not cs:
            continue
        top = max(cs, key=lambda c: c[1])
        if _above(top, unseen):
            continue
        ruffer = any(
            _void_known(voids, q, s, unseen) and not _void_known(voids, q, trump, unseen)
            for q in (seat ^ 1, seat ^ 3)
        )
        if _suit(unseen, trump) and ruffer:
            continue
        if len(_suit(unseen, s)) > best_key:
            best, best_key = top, len(_suit(unseen, s))
    return best


def _passive_lead(hand, trump, unseen, my_trumps):
    best, best_key = None, None
    for s in range(4):
        cs = _suit(hand, s)
        if s == trump or not cs:
            continue
        top = max(cs, key=lambda c: c[1])
        key = len(cs)
        if top[1] >= 9 and len(cs) >= 2 and _above(top, unseen):
            key += 40
        if my_trumps and len(cs) <= 2:
            key -= 10 * (3 - len(cs))
        if best_key is None or key < best_key:
            best, best_key = min(cs, key=lambda c: c[1]), key
    if best is not None:
        return best
    top = max(hand, key=lambda c: c[1])
    return top if not _above(top, unseen) else _lowest(hand)


def standard_choice(seat, hand, played, voids, bids, taken, leader, trick, trump=HEARTS, fitted_lead=True,
                    defending=False, plan_only=False, team_leads=False, trump_opening=True, follows=None):  # fmt: skip
    """The card ``standard`` plays: the plan (:func:`_standard_plan_choice`, which says what the
    arguments are), and in 400 (``fitted_lead``, not ``plan_only``) the second and third hands
    take the trick or leave it by the model of kernels/policies/standard_follow.py with
    ``follows`` (None: the shipped weights; empty: the plan's choice), and so does the fourth."""
    plan = _standard_plan_choice(seat, hand, played, voids, bids, taken, leader, trick, trump, fitted_lead,
                                 defending, plan_only, team_leads, trump_opening)  # fmt: skip
    kind = follow_kind(hand, trick, trump, hands=3)
    if not fitted_lead or plan_only or kind is None:
        return plan
    if follows is None:
        from kernels.policies.standard_follow_weights import WEIGHTS as follows
    if not len(follows):
        return plan
    take, leave = take_leave(kind, seat, hand, played, voids, bids, taken, leader, trick, trump, plan)
    f = follow_features(seat, hand, played, voids, bids, taken, leader, trick, trump, take)
    f += standard_follow_features(seat, hand, played, bids, taken, leader, trick, trump)
    short = [max(0, bids[s] - taken[s]) for s in range(4)]
    row = 6 * (kind == "follow") + (0 if short[seat] else 3) + len(trick) - 1
    score = follow_score(f, follows, row)
    return take if score > 0 else leave if score < 0 else plan


def standard_follow_features(seat, hand, played, bids, taken, leader, trick, trump):
    """What 400's model reads beyond Tarneeb's (kernels/policies/standard_follow.py): the tricks
    partner, the opponents, the trick's winner and the next hand still need, the mover's bid, its
    sure tricks (masters from the top of each suit) and partner's bid."""
    short = [max(0, bids[s] - taken[s]) for s in range(4)]
    unseen = DECK - hand - played
    winner = (leader + trick_winner(trick, trump)) % 4
    sure = sum(_masters_from_top(_suit(hand, s), unseen) for s in range(4))
    return [short[seat ^ 2], short[seat ^ 1] + short[seat ^ 3], bids[seat], short[winner], short[(seat + 1) % 4],
            sure, bids[seat ^ 2]]  # fmt: skip


def _standard_plan_choice(seat, hand, played, voids, bids, taken, leader, trick, trump=HEARTS, fitted_lead=True,
                          defending=False, plan_only=False, team_leads=False, trump_opening=True):  # fmt: skip
    """The card ``standard``'s plan plays: ``hand`` and ``played`` are sets of cards (``played`` holds the
    current trick too), ``voids`` a set of (seat, suit) shown out, ``bids`` and ``taken`` four each,
    ``trick`` the cards played to this trick from ``leader``; ``fitted_lead``: open with the fitted
    model (400) rather than the table of lead kinds (classic Tarneeb), and lead later by the plan
    corrected by 400's later-lead model (not with ``plan_only``: ``standard1``; not while the
    player's own bid of 6+ is not made); ``team_leads``:
    a team contract's later leads corrected by Tarneeb's model; ``defending``: a defender of a
    team contract (keeps its trumps: see kernels/policies/standard.py); ``trump_opening``: a big
    bid not yet made opens with a trump from five (False: Tarneeb's ``team``, the table's lead)."""
    unseen = DECK - hand - played
    need = [taken[s] < bids[s] for s in range(4)]
    partner = seat ^ 2
    me_need, partner_need = need[seat], need[partner]
    if not trick:
        fitted = fitted_lead and trump < 4
        plan = _standard_lead(seat, hand, played, voids, bids, taken, need, unseen, trump, fitted, defending,
                              trump_opening)  # fmt: skip
        if plan_only or not played or not (fitted or team_leads):
            return plan
        if fitted and bids[seat] >= 6 and taken[seat] < bids[seat]:
            return plan  # a big bid of one's own not yet made: the plan alone
        return _later_lead(seat, hand, played, voids, bids, taken, trump, plan, "400" if fitted else "tarneeb")
    led = trick[0][0]
    best_pos = trick_winner(trick, trump)
    best = trick[best_pos]
    best_seat = (leader + best_pos) % 4
    n_played = len(trick)
    legal = legal_moves(hand, trick)
    wins = {c for c in legal if trick_winner([*trick, c], trump) == n_played}
    led_cards = _suit(hand, led)
    long_side = [s for s in range(4) if s != trump and len(_suit(hand, s)) >= 4]
    keep = max(long_side, key=lambda s: (len(_suit(hand, s)), -s)) if long_side else -1
    low = (
        min(led_cards, key=lambda c: c[1])
        if led_cards
        else _discard(hand, trump, unseen, keep if me_need else -1)
    )
    last = n_played == 3
    cheapest = min(wins, key=index_of) if wins else None

    if best_seat == partner:
        if not _beatable(best, led, trump, seat, leader, n_played, unseen, voids):
            bigger = (
                bids[seat] >= 6
                and bids[seat] > bids[partner]
                and (bids[seat] - taken[seat] >= bids[partner] - taken[partner])
            )
            if wins and me_need and (not partner_need or bigger):
                return cheapest
            return low
    want = me_need or partner_need
    if not want:
        want = (best_seat != partner and need[best_seat]) or any(
            need[(leader + k) % 4] for k in range(n_played + 1, 4) if (leader + k) % 4 != partner
        )
    if (
        n_played == 1
        and partner_need
        and not me_need
        and (partner, led) not in voids
        and _above(best, unseen)
    ):
        return low
    if defending and n_played == 1 and not led_cards and (partner, led) not in voids and _above(best, unseen):
        return low  # second hand out of the suit: partner, last, may beat the card led

    def keep_master(c):
        # a defender on a trump lead keeps its master trump (if it has another) and plays low
        return (defending and led == trump and not last and len(led_cards) >= 2
                and c == max(led_cards, key=lambda x: x[1]) and not _above(c, unseen))  # fmt: skip

    if wins and want:
        if last:
            return cheapest
        for c in sorted(wins, key=index_of):
            if not _beatable(c, led, trump, seat, leader, n_played, unseen, voids):
                return low if keep_master(c) else c
        if not led_cards:
            return cheapest
        if n_played == 2:
            return max(wins, key=index_of)
    return low


def later_lead_inputs(seat, hand, played, voids, bids, taken, trump, card, plan):
    """The later-lead model's card features and contexts of leading ``card`` (the lists of
    kernels/policies/later_lead.py's CARD_FEATURES and CONTEXTS, as stated there)."""
    unseen = DECK - hand - played
    suit = card[0]
    cs = _suit(hand, suit)
    side = suit != trump
    master = not _above(card, unseen)
    top = max(cs, key=lambda c: c[1])
    below_top = sorted(cs, key=lambda c: -c[1])[1:2]
    knock = (side and card == top and len(_above(top, unseen)) == 1 and bool(below_top)
             and not (_above(below_top[0], unseen) - _above(top, unseen)))  # fmt: skip

    def ruffs(q):
        return (side and bool(_suit(unseen, trump)) and _void_known(voids, q, suit, unseen)
                and not _void_known(voids, q, trump, unseen))  # fmt: skip

    masters = _masters_from_top(cs, unseen)
    n_above = len(_above(card, unseen))
    b = [card == plan, not side, master and side, master and not side, knock,
         side and card == min(cs, key=lambda c: c[1]), not side and card == min(cs, key=lambda c: c[1]),
         card == top and not master, len(cs) if side else 0, len(_suit(unseen, suit)) if side else 0,
         ruffs(seat ^ 1) or ruffs(seat ^ 3), ruffs(seat ^ 2), side and masters > 0, card[1], n_above,
         side and len(cs) == 1, side and len(cs) == 2, card[1] < 9 and n_above > 0 and masters == 0 and len(cs) >= 2]  # fmt: skip
    short = [max(0, bids[s] - taken[s]) for s in range(4)]
    sure = sum(_masters_from_top(_suit(hand, s), unseen) for s in range(4))
    x = [1, short[seat] > 0, short[seat ^ 2] > 0, short[seat ^ 1] > 0 or short[seat ^ 3] > 0,
         min(short[seat], 6), min(short[seat ^ 2], 6), len(_suit(hand, trump)), len(_suit(unseen, trump)),
         sure >= short[seat], len(played) // 4, bids[seat] >= 6]  # fmt: skip
    opponents = min(short[seat ^ 1], 6) + min(short[seat ^ 3], 6)
    x += [opponents, bids[seat ^ 2] >= 6, any(short[q] > 0 and bids[q] >= 6 for q in (seat ^ 1, seat ^ 3)),
          min(short[seat], 6) + min(short[seat ^ 2], 6) + opponents, min(sure, 6)]  # fmt: skip
    return [int(v) for v in b], [int(v) for v in x]


def later_lead_score(seat, hand, played, voids, bids, taken, trump, card, plan, game="400"):
    """sum_i b_i * sum_j W[i, j] * x_j with the game's generated weights
    (kernels/policies/later_lead_weights.py, team_lead_weights.py for Tarneeb)."""
    if game == "400":
        from kernels.policies.later_lead_weights import WEIGHTS
    else:
        from kernels.policies.team_lead_weights import WEIGHTS

    b, x = later_lead_inputs(seat, hand, played, voids, bids, taken, trump, card, plan)
    n = len(x)
    return sum(bi * sum(int(WEIGHTS[i * n + j]) * xj for j, xj in enumerate(x)) for i, bi in enumerate(b))


def _later_lead(seat, hand, played, voids, bids, taken, trump, plan, game="400"):
    """The best-scoring card; the plan's card on equal scores, else the lowest card index."""
    best, best_score = plan, later_lead_score(seat, hand, played, voids, bids, taken, trump, plan, plan, game)
    for c in sorted(hand, key=index_of):
        score = later_lead_score(seat, hand, played, voids, bids, taken, trump, c, plan, game)
        if score > best_score:
            best, best_score = c, score
    return best


def _standard_lead(seat, hand, played, voids, bids, taken, need, unseen, trump, fitted, defending=False,
                   trump_opening=True):  # fmt: skip
    partner = seat ^ 2
    if not any(need):
        return _discard(hand, trump, unseen, -1)
    my_trumps = _suit(hand, trump)
    unseen_trumps = _suit(unseen, trump)
    top_trumps = _masters_from_top(my_trumps, unseen)
    short = max(0, bids[seat] - taken[seat])
    opening = not played
    sure = sum(_masters_from_top(_suit(hand, s), unseen) for s in range(4))
    if need[seat]:
        if opening:  # with the fitted model, its lead decides
            draw = top_trumps >= 2 and len(my_trumps) >= 4 and not fitted
        else:
            draw = top_trumps >= 1 and (
                2 * len(my_trumps) >= len(unseen_trumps) or (len(my_trumps) >= 2 and short >= 4)
            )
            if defending:  # a defender draws trumps only to draw them all
                draw = top_trumps >= len(unseen_trumps)
        # drawn only from the opponents: none of them may still hold one once both showed out
        opp_trumps = not all(_void_known(voids, q, trump, unseen) for q in (seat ^ 1, seat ^ 3))
        if opp_trumps and draw:
            return max(my_trumps, key=lambda c: c[1])
        if opp_trumps and len(my_trumps) >= 4 and top_trumps == 0 and not opening:
            return _trump_lead(my_trumps, top_trumps, unseen)
        if sure < short and not opening:
            options = [
                (len(_suit(hand, s)), -s, _knockout(_suit(hand, s), unseen)) for s in range(4) if s != trump
            ]
            options = [o for o in options if o[2] is not None]
            if options:
                return max(options)[2]
    if not opening and (need[seat] or not need[partner]):
        cash = _safe_master(hand, trump, unseen, voids, seat)
        if cash is not None:
            return cash
        if my_trumps and not unseen_trumps and my_trumps == hand:
            return max(my_trumps, key=lambda c: c[1])
    if need[partner] and unseen_trumps and not _void_known(voids, partner, trump, unseen):
        for s in range(4):
            if s != trump and _suit(hand, s) and (partner, s) in voids:
                return min(_suit(hand, s), key=lambda c: c[1])
    if not opening and not unseen_trumps and my_trumps and my_trumps != hand:
        # the only trumps left are mine: they wait; the longest side suit (first on ties) goes first
        longest = max((s for s in range(4) if s != trump), key=lambda s: (len(_suit(hand, s)), -s))
        return min(_suit(hand, longest), key=lambda c: c[1])
    if not opening:
        return _passive_lead(hand, trump, unseen, my_trumps)
    if trump_opening and need[seat] and bids[seat] >= 6 and len(my_trumps) >= 5:  # a big bid opens with a trump
        return _trump_lead(my_trumps, top_trumps, unseen)
    return _fitted_lead(hand, bids, seat, trump) if fitted else _opening_lead(hand, trump)


# -- match equity ---------------------------------------------------------------------------------


def interpolate_reference(grid, values, scores) -> float:
    """Multilinear interpolation of ``values`` (an array [g, g, g, g]) at four whole scores,
    each clamped to the grid's ends."""
    import bisect
    import itertools

    axes = []
    for s in scores:
        s = min(max(s, grid[0]), grid[-1])
        i = min(bisect.bisect_right(list(grid), s) - 1, len(grid) - 2)
        axes.append((i, (s - grid[i]) / (grid[i + 1] - grid[i])))
    total = 0.0
    for corner in itertools.product((0, 1), repeat=4):
        f = 1.0
        for (_, w), c in zip(axes, corner):
            f *= w if c else 1.0 - w
        total += f * values[tuple(i + c for (i, _), c in zip(axes, corner))]
    return total


def equity_after_reference(variant, grid, values, scores) -> float:
    """P(seats 1+3 win) once a hand is settled at ``scores`` (seat order): decided by the rules
    engine, else one minus the table for the next hand (its seats 1..4 are this hand's 2, 3, 4, 1)."""
    from analyzer.games.t400.rules import match_winner

    team, _ = match_winner(variant, scores)
    if team is not None:
        return 1.0 if team == (1, 3) else 0.0
    s1, s2, s3, s4 = scores
    return 1.0 - interpolate_reference(grid, values, (s2, s3, s4, s1))


def sweep_reference(variant, grid, values, state, outcomes, win13: float, live: float) -> float:
    """One step of the match-equity iteration for one state (scores before a hand, seat 4
    dealing): P(a classic 13 decides it for seats 1+3), plus each played hand's probability
    times the equity after its score changes (``outcomes``: (changes, probability) pairs, all
    probabilities over every deal); a thrown-in hand passes the deal on (the next hand's seats are
    this hand's 2, 3, 4, 1) or, where the same dealer deals again, is dealt again until one is
    played (the played hands' share rescaled to 1)."""
    v = win13
    for changes, p in outcomes:
        v += p * equity_after_reference(variant, grid, values, [s + d for s, d in zip(state, changes)])
    if variant.redeal_advances:
        s1, s2, s3, s4 = state
        v += (1.0 - live) * (1.0 - interpolate_reference(grid, values, (s2, s3, s4, s1)))
    elif live > 0:
        v /= live
    return v


def win_bid_reference(variant, grid, values, cum, seat, scores, prior) -> int:
    """The ``win`` bidder in plain Python: seat 0..3, cum[b] = P(tricks >= b) of the hand."""
    own = scores[seat]
    best, best_p = None, -1.0
    for b in range(variant.min_bid(own), 14):
        if seat == 3 and prior + b < variant.table_minimum(scores):
            if variant.redeal_advances:
                s1, s2, s3, s4 = scores
                p = 1.0 - interpolate_reference(grid, values, (s2, s3, s4, s1))
            else:
                p = interpolate_reference(grid, values, scores)
        else:
            v = variant.bid_value(b, own)
            p = 0.0
            for change, prob in ((v, cum[b]), (-v, 1.0 - cum[b])):
                after = list(scores)
                after[seat] += change
                p += prob * equity_after_reference(variant, grid, values, after)
        if seat % 2 == 1:
            p = 1.0 - p
        if p > best_p + 1e-12:
            best, best_p = b, p
    return best


def team_choice(seat, hand, played, voids, targets, taken, leader, trick, trump, trump_lead=False,
                declarer=None, leads=True, follows=None):  # fmt: skip
    """The card ``team`` plays in a partnership contract: ``targets`` holds each seat's side target
    (the contract for the declaring side, the tricks that set it for the defenders), ``taken`` the
    tricks by seat; the declarer must open with a trump under ``trump_lead`` (the ace if held,
    else the lowest); otherwise ``standard``'s card with each side's tricks pooled and a side's
    target raised to 13 once reached (every further trick still scores), the defenders (the side
    not of ``declarer``) defending and the later leads corrected by Tarneeb's model (not with
    ``leads`` False) and the declarer opening by the table of lead kinds, not with a trump;
    ``declarer`` None: ``team1``, the declarers' plan for both, its leads, its trump opening.
    With a ``declarer``, the second and third hands take the trick or leave it by the model of
    kernels/policies/team_follow.py with ``follows`` (None: the shipped weights, but the plan's
    choice with ``leads`` False; empty: the plan's choice)."""
    if trump_lead and not played and trump < 4:
        trumps = [c for c in hand if c[0] == trump]
        if trumps:
            top = max(trumps, key=lambda c: c[1])
            return top if top[1] == 12 else min(trumps, key=lambda c: c[1])
    side = [taken[s] + taken[s ^ 2] for s in range(4)]
    goals = [13 if side[s] >= targets[s] else targets[s] for s in range(4)]
    defending = declarer is not None and (seat - declarer) % 2 == 1
    plan = standard_choice(seat, hand, played, voids, goals, side, leader, trick, trump, fitted_lead=False,
                           defending=defending, team_leads=leads and declarer is not None,
                           trump_opening=declarer is None)  # fmt: skip
    kind = follow_kind(hand, trick, trump)
    no_model = (follows is None and not leads) or (follows is not None and not len(follows))
    if declarer is None or kind is None or no_model:
        return plan  # team1; no decision; the plan (no models), or no weights
    if follows is None:
        from kernels.policies.team_follow_weights import WEIGHTS as follows
    take, leave = take_leave(kind, seat, hand, played, voids, goals, side, leader, trick, trump, plan)
    f = follow_features(seat, hand, played, voids, targets, side, leader, trick, trump, take)
    row = 4 * (kind == "follow") + (0 if seat % 2 == declarer % 2 else 2) + len(trick) - 1
    score = follow_score(f, follows, row)
    return take if score > 0 else leave if score < 0 else plan


# -- Tarneeb's take-or-leave model (kernels/policies/team_follow.py) ---------------------------------


def follow_kind(hand, trick, trump, hands=2):
    """"ruff" (second or third hand, or with ``hands`` 3 fourth, out of the suit led, holding a
    trump that wins the trick and another suit), "follow" (holding the suit led, a card that wins
    the trick and one that does not), or None."""
    if not 1 <= len(trick) <= hands:
        return None
    led = trick[0][0]
    wins = {c for c in hand if trick_winner([*trick, c], trump) == len(trick)}
    led_cards = _suit(hand, led)
    if led_cards:
        return "follow" if (wins & led_cards) and (led_cards - wins) else None
    if trump > 3:
        return None
    return "ruff" if (wins & _suit(hand, trump)) and (hand - _suit(hand, trump)) else None


def _cheapest_safe(wins, led, trump, seat, leader, n_played, unseen, voids):
    return next((c for c in sorted(wins, key=index_of) if not _beatable(c, led, trump, seat, leader, n_played,
                                                                         unseen, voids)), None)  # fmt: skip


def take_leave(kind, seat, hand, played, voids, goals, side, leader, trick, trump, plan):
    """(take, leave): the plan's card for the option it chose; a ruff: the cheapest trump that wins
    and no opponent still to play can beat, else the lowest that wins, and the plan's discard; a
    follow: the cheapest winner no opponent can beat, else the highest winner, and the lowest card
    of the suit led."""
    unseen = DECK - hand - played
    led = trick[0][0]
    wins = {c for c in hand if trick_winner([*trick, c], trump) == len(trick)}
    if kind == "ruff":
        if plan[0] == trump:
            long_side = [s for s in range(4) if s != trump and len(_suit(hand, s)) >= 4]
            keep = max(long_side, key=lambda s: (len(_suit(hand, s)), -s)) if long_side else -1
            return plan, _discard(hand, trump, unseen, keep if side[seat] < goals[seat] else -1)
        safe = _cheapest_safe(wins, led, trump, seat, leader, len(trick), unseen, voids)
        return (safe or min(wins, key=index_of)), plan
    led_cards = _suit(hand, led)
    if plan in wins:
        return plan, min(led_cards, key=lambda c: c[1])
    wins &= led_cards
    safe = _cheapest_safe(wins, led, trump, seat, leader, len(trick), unseen, voids)
    return (safe or max(wins, key=index_of)), plan


def follow_features(seat, hand, played, voids, targets, side, leader, trick, trump, take):
    """The model's FOLLOW_FEATURES, as stated there (``targets``: the sides' contract targets,
    ``side``: the tricks of each seat's side)."""
    unseen = DECK - hand - played
    led = trick[0][0]
    best_pos = trick_winner(trick, trump)
    best = trick[best_pos]
    n = len(trick)
    return [len(played) // 4, len(_suit(hand, trump)), len(_suit(unseen, trump)), best[1],
            len(_above(best, unseen)), len(_suit(unseen, led)), int(_void_known(voids, seat ^ 2, led, unseen)),
            int(_void_known(voids, (seat + 1) % 4, led, unseen)), side[seat], max(0, targets[seat] - side[seat]),
            take[1], int((leader + best_pos) % 4 == seat ^ 2), int(best[0] == trump and led != trump),
            len(_suit(hand, led)), len(_above(take, unseen)),
            int(_beatable(best, led, trump, seat, leader, n, unseen, voids)),
            int(_beatable(take, led, trump, seat, leader, n, unseen, voids))]  # fmt: skip


def follow_score(f, weights, row):
    """The constant, each feature and each product of two (i < j), by the row's weights."""
    n = len(f)
    terms = [1, *f] + [f[i] * f[j] for i in range(n) for j in range(i + 1, n)]
    return sum(int(weights[row * len(terms) + k]) * t for k, t in enumerate(terms))


# -- Tarneeb's call analysis (kernels/tarneeb/advice.call_rollout), one deal -------------------------

#: The weight a deal keeps per earlier call the EV bot would not have made with it (a soft rejection).
MISMATCH_WEIGHT = 0.05


def team_play(hands: list[set], declarer: int, level: int, trump: int, trump_lead: bool) -> list[int]:
    """A team contract played out by ``team`` at every seat, the declarer leading (seats 0..3):
    the declaring side aims at ``level`` tricks, the defenders at the 14 - level that set it."""
    targets = [level if (s & 1) == (declarer & 1) else 14 - level for s in range(4)]

    def choose(seat, hand, played, voids, taken, leader, trick):
        return team_choice(seat, hand, played, voids, targets, taken, leader, trick, trump,
                           trump_lead=trump_lead and seat == declarer, declarer=declarer)  # fmt: skip

    return play_along([set(h) for h in hands], declarer, trump, choose)


def tarneeb_call_deal_reference(variant, model, hands: list[set], seat: int, calls: list, candidates: list,
                                infer: bool):  # fmt: skip
    """One deal of ``t400 bid --game tarneeb``'s rollout in plain Python, the known seat ``seat``
    (0..3) to call after ``calls`` (the auction from seat 1): the deal's weight, the known seat's
    team's tricks declaring 8 in each strain (spades .. clubs, no trump; it leads), and for each
    candidate call a dict of its outcome for the known seat's team: the EV bots finish the
    auction (the rules engine's :class:`Auction`), the declarer names the trump, ``team`` plays
    it out, the variant scores it."""
    from analyzer.core.notation import Hand
    from analyzer.core.strains import Strain
    from analyzer.games.tarneeb.auction import Auction
    from analyzer.games.tarneeb.bidders import best_strain, ev_call
    from analyzer.games.tarneeb.rules import declarer_points, defender_points

    as_hands = [Hand(sum(1 << index_of(c) for c in h)) for h in hands]
    auction = Auction(variant)
    w = 1.0
    for call in calls:
        who = auction.seat - 1
        if infer and who != seat and ev_call(auction, as_hands[who], model) != call:
            w *= MISMATCH_WEIGHT
        auction.call(call)
    strains = []
    for trump in range(5):
        taken = team_play(hands, seat, 8, trump, variant.trump_lead)
        strains.append(taken[seat] + taken[seat ^ 2])
    outcomes = []
    for cand in candidates:
        trial = Auction(variant, [*auction.calls, cand])
        while not trial.over:
            trial.call(ev_call(trial, as_hands[trial.seat - 1], model))
        contract = trial.contract
        if contract is None:
            outcomes.append({"played": 0})
            continue
        declarer = contract.declarer - 1
        if contract.strain is not None:
            trump = int(contract.strain)
        else:
            trump = int(best_strain(model, variant, as_hands[declarer], contract.bid)[0])
        taken = team_play(hands, declarer, contract.bid, trump, variant.trump_lead)
        tricks = taken[declarer] + taken[declarer ^ 2]
        dec = declarer_points(contract.bid, tricks, contract.doubled)
        dfn = defender_points(variant, contract.bid, tricks)
        ours = (declarer & 1) == (seat & 1)
        mine, theirs = (dec, dfn) if ours else (dfn, dec)
        final = declarer == seat and trial.high == cand
        outcomes.append({"played": 1, "declare": int(ours), "ours": mine, "theirs": theirs, "score": mine - theirs,
                         "ends": int(final), "made": int(final and tricks >= contract.bid),
                         "trump": Strain(trump).letter, "tricks": tricks})  # fmt: skip
    return w, strains, outcomes


def tarneeb_equity_reference(variant, points, p, first, dealer, memo=None):
    """Plain recursion for Tarneeb match equity when every hand raises the totals (no cycles):
    P(the team speaking first wins; a draw half) with totals ``first`` and ``dealer``; the deal
    passes on, so the dealing team speaks first in the next hand."""
    from analyzer.games.tarneeb.rules import match_result

    memo = {} if memo is None else memo
    key = (first, dealer)
    if key not in memo:
        value = 0.0
        for (d_first, d_dealer), q in zip(points, p):
            a, b = first + d_first, dealer + d_dealer
            winner, draw, _ = match_result(variant, [a, b])
            if draw:
                value += q * 0.5
            elif winner is not None:
                value += q * (1.0 if winner == (1, 3) else 0.0)
            elif a >= variant.target or b >= variant.target:  # tied at the target: play on
                tie = 0.5
                for _ in range(500):  # the tied state's equity for the team speaking first, by iteration
                    tie = sum(
                        r * (1.0 if x > y else (1.0 - tie) if x == y else 0.0) for (x, y), r in zip(points, p)
                    )
                value += q * (1.0 - tie)
            else:
                value += q * (1.0 - tarneeb_equity_reference(variant, points, p, b, a, memo))
        memo[key] = value
    return memo[key]


def tarneeb_equity_walk(variant, points, p, p_redeal, first, dealer, walks, rng):
    """Monte Carlo twin of the equity table for any hand distribution: play ``walks`` matches
    from the totals by drawing each hand's points (re-deals keep the state), totals clamped at
    the table's edge as it does. Returns the mean result for the team speaking first."""
    from analyzer.games.tarneeb.equity import LOW
    from analyzer.games.tarneeb.rules import match_result

    total = 0.0
    for _ in range(walks):
        a, b, ours = first, dealer, True  # a: the team speaking first now
        while True:
            if rng.random() < p_redeal:
                continue
            d = points[rng.choice(len(p), p=p)]
            a, b = max(LOW, a + int(d[0])), max(LOW, b + int(d[1]))
            winner, draw, _ = match_result(variant, [a, b])
            if draw or winner is not None:
                won = 0.5 if draw else float(winner == (1, 3))
                total += won if ours else 1.0 - won
                break
            a, b, ours = b, a, not ours
    return total / walks
