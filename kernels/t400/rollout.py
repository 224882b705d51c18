"""Full hands of 400: deal, bot bids, dead-hand check, 13 tricks, scores; chunk by chunk.

Every kernel here runs ``n_chunks`` chunks of ``chunk_size`` deals, in ``prange`` or, for
:func:`rollout` and :func:`deal_and_bid` (the first answer of ``t400 bid`` compiles them),
serially with the caller spreading the chunks over threads
(:func:`analyzer.core.runtime.over_chunks`); chunk ``c`` draws from ``stream(seed, first_chunk +
c)`` and writes only its own rows of the outputs, so the result is
the same for any thread count. :func:`full_hands`, :func:`rollout` and
:func:`duplicate_hands` return per-chunk sums (histograms and weighted moments: their size
grows with the number of chunks, not of deals); :func:`training_hands` and
:func:`deal_and_bid` return one row per deal, so callers size their runs in blocks.

The rules (values, minimums, the dead-hand test, scoring) are read through
:mod:`kernels.t400.rules`; who bids and plays how is the ``lineup`` (:mod:`kernels.t400.lineup`).
"""

import numpy as np
from numba import prange

from kernels.config import JIT, PJIT, jit
from kernels.core.cards import FULL_DECK, LANE, SUIT_BITS, popcount
from kernels.core.deal import deal_around, deal_full, deal_stratified, new_deck, pool_of, scratch
from kernels.core.flags import raised
from kernels.core.rng import below, stream
from kernels.t400.bidder import BOT_SIZE, bid_likelihood
from kernels.t400.equity import (
    O_DEAD,
    O_LIVE,
    O_WIN13,
    O_WIN24,
    equity_after,
    equity_dead,
    has_table,
    settle_hand,
)
from kernels.t400.hand import bot_bids, play_400
from kernels.t400.lineup import BIDDERS, POLICIES, check_lineup
from kernels.t400.match import M_SIZE, rests_won
from kernels.t400.rules import (
    TRUMP,
    bid_value,
    is_dead,
    is_made,
    points_for,
    redeal_advances,
    score_change,
    winner_of,
)  # fmt: skip

hot = jit(forceinline=True)

U64 = np.uint64

# Per-chunk counters of full_hands (int64).
F_PLAYED = 0
F_DEAD = 1
F_TRICKS = 2  # [4 seats x 14]: hands in which the seat took k tricks
F_MADE = F_TRICKS + 56  # [4]: bids made
F_BIDS = F_MADE + 4  # [4 seats x 14]: bids made of each size (dead deals included)
F_POINTS = F_BIDS + 56  # [4]: points won (score changes summed)
F_SIZE = F_POINTS + 4

# Per-chunk, per-candidate weighted sums of rollout (float64).
R_W = 0  # sum w
R_W2 = 1  # sum w^2
R_SCORE = 2  # sum w x, sum w^2 x, sum w^2 x^2 for x = score change (0 when dead)
R_MAKE = 5  # sum w x, sum w^2 x for x = bid made (alive and tricks >= bid)
R_DEAD = 7  # sum w x, sum w^2 x for x = dead hand
R_TRICKS = 9  # [14]: sum w over live hands with k own tricks
R_WIN = R_TRICKS + 14  # sum w x, sum w^2 x, sum w^2 x^2 for x = P(the player's side wins the match)
R_SIZE = R_WIN + 3


@JIT
def _full_hands_chunk(state, row, chunk_size, rules, lineup, kit, bot, scores):
    deck, hands, bids, tricks = scratch()
    bidders = lineup[BIDDERS]
    policies = lineup[POLICIES]
    for _ in range(chunk_size):
        deal_full(state, deck, hands)
        total = bot_bids(rules, bidders, kit, bot, hands, scores, bids, 0, 0)
        for s in range(4):
            row[F_BIDS + 14 * s + bids[s]] += 1
        if is_dead(rules, total, scores):
            row[F_DEAD] += 1
            continue
        play_400(rules, hands, bids, policies, kit, tricks)
        row[F_PLAYED] += 1
        for s in range(4):
            row[F_TRICKS + 14 * s + tricks[s]] += 1
            if is_made(bids[s], tricks[s]):
                row[F_MADE + s] += 1
            row[F_POINTS + s] += score_change(rules, bids[s], tricks[s], scores[s])


@PJIT
def full_hands(seed, first_chunk, n_chunks, chunk_size, rules, lineup, kit, bot, scores):
    """Random full deals bid by bots and played out.

    rules: the packed rules (:mod:`kernels.t400.rules`); lineup: int64[2, 4] bidders and
    policies per seat, kit: its :func:`~kernels.t400.lineup.lineup_kit` (:mod:`kernels.t400.lineup`); bot: a bot array
    (``analyzer.games.t400.bidder.bot_array``); scores: int64[4] before the hand, seat order.
    Returns int64[n_chunks, F_SIZE] counters (see the ``F_`` offsets). Dead deals are counted
    and not played.
    """
    check_lineup(lineup, kit)
    out = np.zeros((n_chunks, F_SIZE), dtype=np.int64)
    for c in prange(n_chunks):
        state = stream(seed, first_chunk + c)
        _full_hands_chunk(state, out[c], chunk_size, rules, lineup, kit, bot, scores)
    return out


@PJIT
def training_hands(
    seed, first_chunk, n_chunks, chunk_size, rules, lineup, kit, bot, stratify_every, score_low, score_high
):
    """Hands for fitting the bidder: deals, bot bids and tricks under the lineup's policies.

    Every ``stratify_every``-th deal (0: none) gives a random focal seat a uniformly drawn number
    of hearts, so that rare trump lengths are seen; scores are drawn uniformly from
    ``score_low..score_high``. Returns (hands uint64[n, 4], bids int64[n, 4], tricks int64[n, 4],
    focal int64[n]): ``focal`` is -1 for a plain deal (every seat is a fair sample), the focal
    seat for a stratified one (only it is), and -2 for a dead deal (not played).
    """
    check_lineup(lineup, kit)
    n = n_chunks * chunk_size
    hands_out = np.empty((n, 4), dtype=np.uint64)
    bids_out = np.zeros((n, 4), dtype=np.int64)
    tricks_out = np.zeros((n, 4), dtype=np.int64)
    focal_out = np.empty(n, dtype=np.int64)
    for c in prange(n_chunks):
        state = stream(seed, first_chunk + c)
        deck, hands, bids, tricks = scratch()
        scores = np.empty(4, dtype=np.int64)
        bidders = lineup[BIDDERS]
        policies = lineup[POLICIES]
        for i in range(chunk_size):
            k = c * chunk_size + i
            if stratify_every > 0 and i % stratify_every == 0:
                focal = below(state, 4)
                deal_stratified(state, deck, focal, below(state, 14), hands)
                deck = new_deck()
            else:
                focal = -1
                deal_full(state, deck, hands)
            for s in range(4):
                scores[s] = score_low + below(state, score_high - score_low + 1)
            total = bot_bids(rules, bidders, kit, bot, hands, scores, bids, 0, 0)
            for s in range(4):
                hands_out[k, s] = hands[s]
                bids_out[k, s] = bids[s]
            if is_dead(rules, total, scores):
                focal_out[k] = -2
                continue
            play_400(rules, hands, bids, policies, kit, tricks)
            for s in range(4):
                tricks_out[k, s] = tricks[s]
            focal_out[k] = focal
    return hands_out, bids_out, tricks_out, focal_out


@hot
def weigh_earlier(rules, bot, hands, bids, seat, earlier_bids, scores, infer, tau):
    """Copy the earlier bids into ``bids``; the deal's weight: 1, or with ``infer`` the
    likelihood of those bids under the bot model (a softmax of its expected values)."""
    w = 1.0
    prior = 0
    for s in range(seat):
        bids[s] = earlier_bids[s]
        if infer:
            w *= bid_likelihood(rules, bot, hands[s], s, scores, prior, earlier_bids[s], tau)
        prior += earlier_bids[s]
    return w


@hot
def record_outcome(a, w, dead, own_tricks, made, x, p_win):
    """Add one weighted outcome of a candidate bid to its sums ``a``: ``x`` is the score change
    (0 when dead), ``p_win`` the player's side's match equity after the hand."""
    w2 = w * w
    a[R_W] += w
    a[R_W2] += w2
    a[R_WIN] += w * p_win
    a[R_WIN + 1] += w2 * p_win
    a[R_WIN + 2] += w2 * p_win * p_win
    if dead:
        a[R_DEAD] += w
        a[R_DEAD + 1] += w2
        return
    a[R_TRICKS + own_tricks] += w
    if made:
        a[R_MAKE] += w
        a[R_MAKE + 1] += w2
    a[R_SCORE] += w * x
    a[R_SCORE + 1] += w2 * x
    a[R_SCORE + 2] += w2 * x * x


@hot
def outcome(rules, dead, bid, own_tricks, own_score):
    """A candidate's score change: 0 for a dead hand, else the player's score change."""
    if dead:
        return 0.0
    return float(score_change(rules, bid, own_tricks, own_score))


@hot
def add_cross(cross_c, w2, x, m):
    for j in range(m):
        for k in range(m):
            cross_c[j, k] += w2 * x[j] * x[k]


@hot
def side_equity(rules, eq, seat, dead, bids, tricks, scores, deltas):
    """P(``seat``'s partnership wins the match) after this hand (thrown in, or played with
    ``tricks``), by the match-equity table ``eq`` (0 without one)."""
    if not has_table(eq):
        return 0.0
    if dead:
        p = equity_dead(rules, eq, scores[0], scores[1], scores[2], scores[3])
    else:
        kind = settle_hand(rules, bids, tricks, scores, deltas)
        if kind == O_WIN13:
            p = 1.0
        elif kind == O_WIN24:
            p = 0.0
        else:
            p = equity_after(
                rules,
                eq,
                scores[0] + deltas[0],
                scores[1] + deltas[1],
                scores[2] + deltas[2],
                scores[3] + deltas[3],
            )
    return p if seat % 2 == 0 else 1.0 - p


@hot
def side_equity_simulated(
    rules, lineup, kit, bot, cap, seat, dead, bids, tricks, scores, deltas, seed, first, k, row, after
):
    """:func:`side_equity` by ``k`` simulated rests of the match instead of the table (the
    players are this hand's seats; the next dealer is seat 1, or seat 4 again after a dead hand
    when the same dealer re-deals)."""
    dealer = 0
    for s in range(4):
        after[s] = scores[s]
    if dead:
        if not redeal_advances(rules):
            dealer = 3
    else:
        kind = settle_hand(rules, bids, tricks, scores, deltas)
        if kind == O_WIN13:
            return 1.0 if seat % 2 == 0 else 0.0
        if kind == O_WIN24:
            return 0.0 if seat % 2 == 0 else 1.0
        for s in range(4):
            after[s] += deltas[s]
        winner, _ = winner_of(rules, after[0], after[1], after[2], after[3])
        if winner >= 0:
            return 1.0 if winner == seat % 2 else 0.0
    p = rests_won(rules, lineup, kit, bot, cap, after, dealer, seed, first, k, row)
    return p if seat % 2 == 0 else 1.0 - p


@JIT  # serial: the caller spreads the chunks over threads (analyzer.core.runtime.over_chunks)
def rollout(
    seed, first_chunk, n_chunks, chunk_size, rules, lineup, kit, bot, hand, seat, scores, earlier_bids,
    candidates, infer, tau, continuations, stop, cap=200,
):  # fmt: skip
    """Evaluate candidate bids for a known hand on the same sampled deals.

    rules, lineup, kit, bot: as :func:`full_hands`; hand: uint64, the player's cards; seat: 0..3;
    scores: int64[4] in seat order; earlier_bids: int64[>= seat], the bids of seats before the
    player; candidates: int64[m]; infer: weight each deal by the likelihood of the earlier bids
    under the bot model (softmax of its expected values, temperature ``tau``).
    Per deal: deal the 39 unseen cards; for each candidate, the later seats bid by bot, a dead
    hand scores 0, else all play out and the player scores +/- the candidate's value.
    With a match-equity table in ``bot`` the player's side's P(win the match) after the hand is
    summed too (``R_WIN``); with ``continuations`` a number (not ``None``) it is instead the mean of that many
    simulated rests of the match from the state after the hand (stopped after ``cap`` deals),
    the same rests (streams) for every candidate of a deal: common random numbers. ``None`` is a
    type of its own to Numba, so that specialisation is compiled without the match simulator.
    stop: uint8[1], set non-zero by another thread to end the run early (Ctrl-C, a server's cap);
    it is read before each deal, and before each candidate's rests, and the sums are then partial.
    Returns (acc float64[n_chunks, m, R_SIZE], cross float64[n_chunks, 2, m, m] = sum w^2 x_a x_b
    of the score changes (0) and of the match equities (1), hearts float64[n_chunks, 4] = sum w *
    trumps held per seat, later float64[n_chunks, m, 4, 14] = sum w over each later seat's bid).
    """
    check_lineup(lineup, kit)
    m = candidates.shape[0]
    acc = np.zeros((n_chunks, m, R_SIZE))
    cross = np.zeros((n_chunks, 2, m, m))
    eq = bot[BOT_SIZE:]
    hearts_out = np.zeros((n_chunks, 4))
    later = np.zeros((n_chunks, m, 4, 14))
    counts = np.full(4, 13, dtype=np.int64)
    counts[seat] = 0
    earlier_sum = 0
    for s in range(seat):
        earlier_sum += earlier_bids[s]
    trump_lane = SUIT_BITS << U64(LANE * rules[TRUMP])
    for c in range(n_chunks):
        state = stream(seed, first_chunk + c)
        pool = pool_of(~hand & FULL_DECK)
        hands = np.empty(4, dtype=np.uint64)
        bids = np.empty(4, dtype=np.int64)
        tricks = np.empty(4, dtype=np.int64)
        x = np.empty(m)
        xw = np.empty(m)
        deltas = np.empty(4, dtype=np.int64)
        after = np.empty(4, dtype=np.int64)
        row = np.zeros(M_SIZE, dtype=np.int32)
        bidders = lineup[BIDDERS]
        policies = lineup[POLICIES]
        for i in range(chunk_size):
            if raised(stop):
                break
            deal_around(state, pool, counts, hand, seat, hands)
            w = weigh_earlier(rules, bot, hands, bids, seat, earlier_bids, scores, infer, tau)
            if w == 0.0:
                continue
            for s in range(4):
                hearts_out[c, s] += w * popcount(hands[s] & trump_lane)
            for j in range(m):
                if continuations is not None and raised(stop):
                    break
                bid = candidates[j]
                bids[seat] = bid
                total = bot_bids(rules, bidders, kit, bot, hands, scores, bids, seat + 1, earlier_sum + bid)
                for s in range(seat + 1, 4):
                    later[c, j, s, bids[s]] += w
                dead = is_dead(rules, total, scores)
                own = 0
                if not dead:
                    play_400(rules, hands, bids, policies, kit, tricks)
                    own = tricks[seat]
                x[j] = outcome(rules, dead, bid, own, scores[seat])
                if continuations is not None:
                    first = ((first_chunk + c) * chunk_size + i) * continuations
                    xw[j] = side_equity_simulated(rules, lineup, kit, bot, cap, seat, dead, bids, tricks, scores, deltas,
                                                  seed, first, continuations, row, after)  # fmt: skip
                else:
                    xw[j] = side_equity(rules, eq, seat, dead, bids, tricks, scores, deltas)
                record_outcome(acc[c, j], w, dead, own, is_made(bid, own), x[j], xw[j])
            add_cross(cross[c, 0], w * w, x, m)
            add_cross(cross[c, 1], w * w, xw, m)
    return acc, cross, hearts_out, later


@JIT  # serial: the caller spreads the chunks over threads (analyzer.core.runtime.over_chunks)
def deal_and_bid(
    seed, first_chunk, n_chunks, chunk_size, rules, lineup, kit, bot, hand, seat, scores, earlier_bids,
    candidates, infer, tau,
):  # fmt: skip
    """The deals, weights and later bids of :func:`rollout` (same arguments, same streams),
    without play.

    Returns (hands uint64[n, 4], weights float64[n], later int64[n, m, 4]: each seat's bid
    for each candidate, the player's own seat holding the candidate).
    """
    check_lineup(lineup, kit)
    m = candidates.shape[0]
    n = n_chunks * chunk_size
    hands_out = np.zeros((n, 4), dtype=np.uint64)
    weights = np.zeros(n)
    later = np.zeros((n, m, 4), dtype=np.int64)
    counts = np.full(4, 13, dtype=np.int64)
    counts[seat] = 0
    earlier_sum = 0
    for s in range(seat):
        earlier_sum += earlier_bids[s]
    for c in range(n_chunks):
        state = stream(seed, first_chunk + c)
        pool = pool_of(~hand & FULL_DECK)
        hands = np.empty(4, dtype=np.uint64)
        bids = np.empty(4, dtype=np.int64)
        bidders = lineup[BIDDERS]
        for i in range(chunk_size):
            k = c * chunk_size + i
            deal_around(state, pool, counts, hand, seat, hands)
            w = weigh_earlier(rules, bot, hands, bids, seat, earlier_bids, scores, infer, tau)
            for s in range(4):
                hands_out[k, s] = hands[s]
            weights[k] = w
            if w == 0.0:
                continue
            for j in range(m):
                bids[seat] = candidates[j]
                bot_bids(rules, bidders, kit, bot, hands, scores, bids, seat + 1, earlier_sum + candidates[j])
                for s in range(4):
                    later[k, j, s] = bids[s]
    return hands_out, weights, later


@JIT
def score_solved(rules, hands, weights, later, tricks, made, seat, scores, candidates, n_chunks, chunk_size):
    """The sums of :func:`rollout` for deals whose player's result is known, from
    :func:`deal_and_bid`'s output: ``made`` bool[n, m] whether the player makes candidate bid j
    on deal k, ``tricks`` int64[n] the player's tricks for the trick distribution. Same shapes as
    :func:`rollout`'s results (no match equity: the other players' tricks are not known)."""
    m = candidates.shape[0]
    acc = np.zeros((n_chunks, m, R_SIZE))
    cross = np.zeros((n_chunks, 2, m, m))
    hearts_out = np.zeros((n_chunks, 4))
    later_out = np.zeros((n_chunks, m, 4, 14))
    trump_lane = SUIT_BITS << U64(LANE * rules[TRUMP])
    x = np.empty(m)
    for c in range(n_chunks):
        for i in range(chunk_size):
            k = c * chunk_size + i
            w = weights[k]
            if w == 0.0:
                continue
            for s in range(4):
                hearts_out[c, s] += w * popcount(hands[k, s] & trump_lane)
            for j in range(m):
                total = 0
                for s in range(4):
                    total += later[k, j, s]
                    if s > seat:
                        later_out[c, j, s, later[k, j, s]] += w
                dead = is_dead(rules, total, scores)
                x[j] = 0.0 if dead else float(points_for(rules, candidates[j], made[k, j], scores[seat]))
                record_outcome(acc[c, j], w, dead, tricks[k], made[k, j], x[j], 0.0)
            add_cross(cross[c, 0], w * w, x, m)
    return acc, cross, hearts_out, later_out


@JIT
def hands_to_solve(rules, weights, later, scores):
    """The (deal, candidate) pairs of :func:`deal_and_bid`'s output whose hand is played (weight
    above 0, bids reaching the table minimum), with every seat's bid value in them: (deals
    int64[J], candidates int64[J], values int64[J, 4])."""
    n, m, _ = later.shape
    deals = np.empty(n * m, dtype=np.int64)
    cands = np.empty(n * m, dtype=np.int64)
    values = np.empty((n * m, 4), dtype=np.int64)
    J = 0
    for k in range(n):
        if weights[k] == 0.0:
            continue
        for j in range(m):
            total = 0
            for s in range(4):
                total += later[k, j, s]
            if is_dead(rules, total, scores):
                continue
            deals[J] = k
            cands[J] = j
            for s in range(4):
                values[J, s] = bid_value(rules, later[k, j, s], scores[s])
            J += 1
    return deals[:J], cands[:J], values[:J]


@PJIT
def duplicate_hands(seed, first_chunk, n_chunks, chunk_size, rules, lineup, kit, bot):
    """Duplicate comparison of two play policies on random deals bid once by bots.

    The lineup's policies give seating one (X on seats 1+3 = ``lineup[POLICIES, 0]``, Y on 2+4
    = ``lineup[POLICIES, 1]``). Each live deal is played twice: so, then with the partnerships'
    policies swapped. ``d`` is X's edge in points per hand, averaged over both seatings:
    ((P13 - P24) with X on 1+3  -  (P13 - P24) with X on 2+4) / 2.
    Returns float64[n_chunks, 3]: (live deals, sum d, sum d^2). Scores are 0 before each hand.
    """
    check_lineup(lineup, kit)
    policy_x = lineup[POLICIES, 0]
    policy_y = lineup[POLICIES, 1]
    out = np.zeros((n_chunks, 3))
    for c in prange(n_chunks):
        state = stream(seed, first_chunk + c)
        deck, hands, bids, tricks = scratch()
        scores = np.zeros(4, dtype=np.int64)
        pol = np.empty(4, dtype=np.int64)
        bidders = lineup[BIDDERS]
        for _ in range(chunk_size):
            deal_full(state, deck, hands)
            total = bot_bids(rules, bidders, kit, bot, hands, scores, bids, 0, 0)
            if is_dead(rules, total, scores):
                continue
            margin = 0.0
            for seating in range(2):
                for s in range(4):
                    pol[s] = policy_x if (s % 2) == seating else policy_y
                play_400(rules, hands, bids, pol, kit, tricks)
                diff = 0.0
                for s in range(4):
                    points = score_change(rules, bids[s], tricks[s], 0)
                    diff += points if s % 2 == 0 else -points
                margin += diff if seating == 0 else -diff
            d = margin / 2.0
            out[c, 0] += 1.0
            out[c, 1] += d
            out[c, 2] += d * d
    return out


@PJIT
def hand_outcomes(seed, first_chunk, n_chunks, chunk_size, rules, lineup, kit, bot, scores):
    """Random hands at fixed scores (seat order; seat 4 deals), bid by the lineup's bidders and
    played by its policies. Chunk ``c`` draws from ``stream(seed, first_chunk + c)``.

    Returns (kind int64[n]: the ``O_`` kinds, deltas int64[n, 4]: score changes in seat order,
    zero unless the kind is :data:`O_LIVE`).
    """
    check_lineup(lineup, kit)
    n = n_chunks * chunk_size
    kind = np.zeros(n, dtype=np.int64)
    deltas = np.zeros((n, 4), dtype=np.int64)
    for c in prange(n_chunks):
        state = stream(seed, first_chunk + c)
        deck, hands, bids, tricks = scratch()
        bidders = lineup[BIDDERS]
        policies = lineup[POLICIES]
        d = np.zeros(4, dtype=np.int64)
        for i in range(chunk_size):
            k = c * chunk_size + i
            deal_full(state, deck, hands)
            total = bot_bids(rules, bidders, kit, bot, hands, scores, bids, 0, 0)
            if is_dead(rules, total, scores):
                kind[k] = O_DEAD
                continue
            play_400(rules, hands, bids, policies, kit, tricks)
            kind[k] = settle_hand(rules, bids, tricks, scores, d)
            if kind[k] == O_LIVE:
                for s in range(4):
                    deltas[k, s] = d[s]
    return kind, deltas
