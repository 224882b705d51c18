"""400's take-or-leave model (kernels/policies/standard_follow.py): its inputs and choice against
the plain-Python twin, its data (each option played out) against a Python replay (``t400
fit-follow``: tests/test_follow_fit.py; the card-by-card twin of ``standard`` and the hidden-card
swap test of every policy, tests/test_play_policies.py, run the shipped model too)."""

import random

import numpy as np
from conftest import random_deal

import naive
from analyzer.core import follow as fit
from analyzer.games.t400.follow import MODEL
from kernels.core.cards import HEARTS
from kernels.policies import follow_rollouts as kv
from kernels.policies import standard_follow as ks
from kernels.policies import team_follow as kf
from kernels.policies.standard_follow_weights import WEIGHTS


def bits_of(cards) -> np.uint64:
    return np.uint64(sum(1 << naive.index_of(c) for c in cards))


def pack(values) -> int:
    return sum(int(x) << (8 * s) for s, x in enumerate(values))


def decision_states(r: random.Random, n_deals: int):
    """Public states of the second, third and fourth hands of deals played by the plain-Python
    ``standard`` (shipped model): (seat, hand, played, voids, bids, taken, leader, trick)."""
    for _ in range(n_deals):
        bits = random_deal(r)
        bids = [r.choice([2, 2, 3, 3, 4, 4, 5, 6, 7]) for _ in range(4)]
        states = []

        def choose(seat, hand, played, voids, taken, leader, trick, bids=bids, states=states):
            if len(trick) in (1, 2, 3):
                states.append((seat, set(hand), set(played), set(voids), bids, list(taken), leader, list(trick)))
            return naive.standard_choice(seat, hand, played, voids, bids, taken, leader, trick, HEARTS)

        naive.play_along([naive.cards_of(b) for b in bits], 0, HEARTS, choose)
        yield from states


def test_the_take_or_leave_model_agrees_with_its_plain_python_twin():
    """At every decision of the second, third and fourth hands of 150 deals: the kind, the two options,
    the features, the score and the card, kernel and twin (the twin written from the module's
    docstring); the model does change the plan's card, in each kind."""
    r = random.Random(18)
    seen = {"ruff": 0, "follow": 0}
    changed = {"ruff": 0, "follow": 0}
    fourth = [0, 0]  # the fourth hand's decisions, and those where the model changes the plan's card
    for seat, hand, played, voids, bids, taken, leader, trick in decision_states(r, 150):
        best_pos = naive.trick_winner(trick, HEARTS)
        h, p, n, led = bits_of(hand), bits_of(played), len(trick), trick[0][0]
        v = sum(1 << (4 * q + s) for q, s in voids)
        best = naive.index_of(trick[best_pos])
        args = (seat, h, p, v, pack(bids), pack(taken), leader, n, led, best, best_pos, HEARTS)
        kind = naive.follow_kind(hand, trick, HEARTS, hands=3)
        assert kf.follow_kind(h, n, led, best, HEARTS, ks.HANDS) == {None: -1, "ruff": kf.RUFF, "follow": kf.FOLLOW}[kind]
        plan = naive.standard_choice(seat, hand, played, voids, bids, taken, leader, trick, HEARTS, follows=[])
        assert naive.card_at(int(ks.standard_follow_card(*args, False, np.zeros(0, dtype=np.int64)))) == plan
        expected = naive.standard_choice(seat, hand, played, voids, bids, taken, leader, trick, HEARTS)
        assert naive.card_at(int(ks.standard_follow_card(*args))) == expected
        assert naive.card_at(int(ks.standard_follow_card(*args, True))) == naive.standard_choice(
            seat, hand, played, voids, bids, taken, leader, trick, HEARTS, plan_only=True)  # standard1
        if kind is None:
            assert expected == plan
            continue
        take, leave = naive.take_leave(kind, seat, hand, played, voids, bids, taken, leader, trick, HEARTS, plan)
        k = kf.RUFF if kind == "ruff" else kf.FOLLOW
        got = kf.take_leave(k, seat, h, p, v, pack(bids), pack(taken), leader, n, led, best, HEARTS,
                            naive.index_of(plan))  # fmt: skip
        assert [naive.card_at(int(c)) for c in got] == [take, leave]
        f = ks.follow_features(seat, h, p, v, pack(bids), pack(taken), HEARTS, leader, n, led, best, best_pos,
                               naive.index_of(take))  # fmt: skip
        short = [max(0, b - t) for b, t in zip(bids, taken)]
        twin = naive.follow_features(seat, hand, played, voids, bids, taken, leader, trick, HEARTS, take)
        extra = naive.standard_follow_features(seat, hand, played, bids, taken, leader, trick, HEARTS)
        assert list(f) == twin + extra and len(f) == ks.N_FEATURES
        row = kf.row(k, short[seat] > 0, n, ks.HANDS)
        assert kf.follow_score(f, WEIGHTS, row * ks.N_WEIGHTS) == naive.follow_score(list(f), WEIGHTS, row)
        seen[kind] += 1
        changed[kind] += expected != plan
        fourth[0] += n == 3
        fourth[1] += n == 3 and expected != plan
    assert all(seen[k] > 150 and changed[k] > 0.05 * seen[k] for k in seen), (seen, changed)
    assert fourth[0] > 100 and fourth[1] > 0.02 * fourth[0], fourth  # the fourth hand decides by the model too


def _replay(hands, bids, at=None, forced=None):
    """The plain-Python ``standard`` (shipped model) plays a deal from seat 1; at ``at`` = (trick,
    cards already played to it) it plays ``forced`` if given. Returns (tricks by seat, the public
    state at ``at``)."""
    state = []

    def choose(seat, hand, played, voids, taken, leader, trick):
        if at == (len(played) // 4, len(trick)):
            state.append((seat, set(hand), set(played), set(voids), list(taken), leader, list(trick)))
            if forced is not None:
                return forced
        return naive.standard_choice(seat, hand, played, voids, bids, taken, leader, trick, HEARTS)

    tricks = naive.play_along([set(h) for h in hands], 0, HEARTS, choose)
    return tricks, (state[0] if state else None)


def _side_points(bids, values, tricks, seat):
    points = [v if t >= b else -v for b, v, t in zip(bids, values, tricks)]
    return sum(p if s % 2 == seat % 2 else -p for s, p in enumerate(points))


def test_the_data_plays_each_option_out_with_the_player_of_its_weights():
    """Each row's two values are the mover's side's points minus the other side's when the player
    takes, or leaves, and the deal is finished by ``standard`` with the data's weights: checked
    against the plain-Python ``standard`` (shipped weights) on the rows of 4 live deals; the row of
    the option the player chose holds the points of the deal as played."""
    from analyzer.games.t400.later_lead import deals_data

    data, _ = deals_data(4, 4)
    n = len(data["hands"])
    rows = np.zeros((n * kv.ROWS_PER_DEAL, kv.N_COLUMNS), dtype=np.int64)
    counts = np.zeros(n, dtype=np.int64)
    kv.follow_values(False, data["hands"], data["bids"], data["leaders"], data["trumps"], data["values"],
                     data["net"], np.ascontiguousarray(WEIGHTS), rows, counts)  # fmt: skip
    assert set(data["leaders"]) == {0} and set(data["trumps"]) == {HEARTS}
    checked = 0
    for i in range(n):
        packed, values = int(data["bids"][i]), [int(x) for x in data["values"][i]]
        bids = [(packed >> (8 * s)) & 255 for s in range(4)]
        hands = [naive.cards_of(int(x)) for x in data["hands"][i]]
        tricks, _ = _replay(hands, bids)
        for row in rows[i * kv.ROWS_PER_DEAL : i * kv.ROWS_PER_DEAL + counts[i]]:
            at = (int(row[kv.C_DECISION]) - 16 * i, int(row[kv.C_POSITION]))
            took = row[kv.C_TOOK] == 1
            _, (seat, hand, played, voids, taken, leader, trick) = _replay(hands, bids, at=at)
            assert row[kv.C_TAKE if took else kv.C_LEAVE] == _side_points(bids, values, tricks, seat)
            assert row[kv.C_DECLARING] == (taken[seat] < bids[seat])
            plan = naive.standard_choice(seat, hand, played, voids, bids, taken, leader, trick, HEARTS, follows=[])
            kind = naive.follow_kind(hand, trick, HEARTS, hands=3)
            take, leave = naive.take_leave(kind, seat, hand, played, voids, bids, taken, leader, trick, HEARTS, plan)
            other, _ = _replay(hands, bids, at=at, forced=leave if took else take)
            assert row[kv.C_LEAVE if took else kv.C_TAKE] == _side_points(bids, values, other, seat)
            checked += 1
    assert checked >= 10


def test_the_fits_terms_are_the_kernels_terms_with_400s_features():
    r = np.random.default_rng(3)
    rows = np.zeros((40, kv.C_FEATURES + ks.N_FEATURES), dtype=np.int64)
    rows[:, kv.C_FEATURES :] = r.integers(0, 13, size=(40, ks.N_FEATURES))
    rows[:, kv.C_KIND] = r.integers(0, 2, 40)
    rows[:, kv.C_DECLARING] = r.integers(0, 2, 40)
    rows[:, kv.C_POSITION] = r.integers(1, ks.HANDS + 1, 40)  # the fourth hand's rows too
    weights = r.integers(-5000, 5000, size=ks.N_ROWS * ks.N_WEIGHTS)
    for row, score in zip(rows, fit.scores(MODEL, rows, weights)):
        w_row = kf.row(int(row[kv.C_KIND]), bool(row[kv.C_DECLARING]), int(row[kv.C_POSITION]), ks.HANDS)
        assert score == kf.follow_score(tuple(int(x) for x in row[kv.C_FEATURES :]), weights, w_row * ks.N_WEIGHTS)


def test_the_written_out_sum_is_the_models_sum():
    """The kernels add the model's terms written out one by one (``score_for``): the same integer
    as :func:`kernels.policies.team_follow.follow_score`, term by term, for both games' features."""
    r = np.random.default_rng(5)
    for n, n_weights in ((kf.N_FEATURES, kf.N_WEIGHTS), (ks.N_FEATURES, ks.N_WEIGHTS)):
        score = kf.score_for(n)
        weights = r.integers(-50_000, 50_000, size=3 * n_weights)
        for _ in range(200):
            f = tuple(int(x) for x in r.choice([0, 0, 0, 1, 2, 5, 13], size=n))
            row = int(r.integers(0, 3))
            assert score(f, weights, row * n_weights) == kf.follow_score(f, weights, row * n_weights)
            assert score(f, weights, row * n_weights) == naive.follow_score(list(f), weights, row)
