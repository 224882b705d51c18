"""Tarneeb's take-or-leave model (kernels/policies/team_follow.py): its inputs and choice against the
plain-Python twin, what it may see, its data (each option played out) against a Python replay, and
``t400 fit-follow``'s checks of its input (the command itself: tests/test_follow_fit.py)."""

import random

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import swap_one_card
from test_tarneeb_play import random_deal, side_bytes

import naive
from analyzer.core import follow as fit
from analyzer.games.tarneeb.follow import MODEL
from cli import cli
from kernels.core.kit import Kit
from kernels.policies import follow_rollouts as kv
from kernels.policies import play as kp
from kernels.policies import team_follow as kf
from kernels.policies.team import team_card
from kernels.policies.team_follow_weights import WEIGHTS


def bits_of(cards) -> np.uint64:
    return np.uint64(sum(1 << naive.index_of(c) for c in cards))


def decision_states(r: random.Random, n_deals: int, trump: int = 1):
    """Public states of the second and third hands of deals played by the plain-Python ``team``:
    (seat, hands, played, voids, taken, leader, trick, targets, bids, declarer)."""
    for _ in range(n_deals):
        bits = random_deal(r)
        level, declarer = r.randint(7, 11), r.randrange(4)
        bids = side_bytes(level, declarer, False)
        targets = [b & 15 for b in bids]
        states = []

        def choose(seat, hand, played, voids, taken, leader, trick, targets=targets, declarer=declarer, bids=bids,
                   states=states, hands=None):  # fmt: skip
            if len(trick) in (1, 2):
                states.append((seat, set(hand), set(played), set(voids), list(taken), leader, list(trick), targets,
                               bids, declarer))  # fmt: skip
            return naive.team_choice(seat, hand, played, voids, targets, taken, leader, trick, trump,
                                     declarer=declarer)  # fmt: skip

        naive.play_along([naive.cards_of(b) for b in bits], declarer, trump, choose)
        yield from states


def kernel_args(state, trump):
    seat, hand, played, voids, taken, leader, trick, targets, bids, declarer = state
    best_pos = naive.trick_winner(trick, trump)
    packed_bids = sum(b << (8 * s) for s, b in enumerate(bids))
    packed_taken = sum(t << (8 * s) for s, t in enumerate(taken))
    voids_bits = sum(1 << (4 * q + s) for q, s in voids)
    return (seat, bits_of(hand), bits_of(played), voids_bits, packed_bids, packed_taken, leader, len(trick),
            trick[0][0], naive.index_of(trick[best_pos]), best_pos, trump)  # fmt: skip


@pytest.mark.parametrize("trump", [1, 4])
def test_the_take_or_leave_model_agrees_with_its_plain_python_twin(trump):
    """At every decision of the second and third hands of 150 deals: the kind, the two options, the
    features, the score and the card, kernel and twin (the twin written from the module's
    docstring); the model does change the plan's card, in each kind."""
    r = random.Random(8 + trump)
    seen = {"ruff": 0, "follow": 0}
    changed = {"ruff": 0, "follow": 0}
    for state in decision_states(r, 150, trump):
        seat, hand, played, voids, taken, leader, trick, targets, bids, declarer = state
        args = kernel_args(state, trump)
        kind = naive.follow_kind(hand, trick, trump)
        _, h, p, v, _, _, _, n, led, best, best_pos, _ = args
        assert kf.follow_kind(h, n, led, best, trump) == {None: -1, "ruff": kf.RUFF, "follow": kf.FOLLOW}[kind]
        card = team_card(*args)
        plan = naive.team_choice(seat, hand, played, voids, targets, taken, leader, trick, trump, declarer=declarer,
                                 follows=[])  # fmt: skip
        assert naive.card_at(int(team_card(*args, True, True, np.zeros(0, dtype=np.int64)))) == plan
        expected = naive.team_choice(seat, hand, played, voids, targets, taken, leader, trick, trump,
                                     declarer=declarer)  # fmt: skip
        assert naive.card_at(int(card)) == expected
        if kind is None:
            assert expected == plan
            continue
        side = [taken[s] + taken[s ^ 2] for s in range(4)]
        goals = [13 if side[s] >= targets[s] else targets[s] for s in range(4)]
        take, leave = naive.take_leave(kind, seat, hand, played, voids, goals, side, leader, trick, trump, plan)
        pk = lambda xs: sum(x << (8 * s) for s, x in enumerate(xs))  # noqa: E731
        k = kf.RUFF if kind == "ruff" else kf.FOLLOW
        got = kf.take_leave(k, seat, h, p, v, pk(goals), pk(side), leader, n, led, best, trump, naive.index_of(plan))
        assert [naive.card_at(int(c)) for c in got] == [take, leave]
        f = kf.follow_features(seat, h, p, v, pk(bids), pk(side), trump, leader, n, led, best, best_pos,
                               naive.index_of(take))  # fmt: skip
        assert list(f) == naive.follow_features(seat, hand, played, voids, targets, side, leader, trick, trump, take)
        row = kf.row(k, seat % 2 == declarer % 2, n)
        assert kf.follow_score(f, WEIGHTS, row * kf.N_WEIGHTS) == naive.follow_score(list(f), WEIGHTS, row)
        seen[kind] += 1
        changed[kind] += expected != plan
    kinds = ("ruff", "follow") if trump < 4 else ("follow",)  # no ruffs without trumps
    assert all(seen[kind] > 150 and changed[kind] > 0.05 * seen[kind] for kind in kinds), (seen, changed)


def test_the_fits_terms_are_the_kernels_terms():
    """The fit's design (and its scores) adds the products in the kernel's order: random features
    and weights give the kernel's score."""
    r = np.random.default_rng(2)
    features = r.integers(0, 13, size=(40, kf.N_FEATURES))
    weights = r.integers(-5000, 5000, size=kf.N_ROWS * kf.N_WEIGHTS)
    rows = np.zeros((40, kv.C_FEATURES + kf.N_FEATURES), dtype=np.int64)
    rows[:, kv.C_FEATURES :] = features
    rows[:, kv.C_KIND] = r.integers(0, 2, 40)
    rows[:, kv.C_DECLARING] = r.integers(0, 2, 40)
    rows[:, kv.C_POSITION] = r.integers(1, 3, 40)
    got = fit.scores(MODEL, rows, weights)
    for row, score in zip(rows, got):
        w_row = kf.row(int(row[kv.C_KIND]), bool(row[kv.C_DECLARING]), int(row[kv.C_POSITION]))
        f = tuple(int(x) for x in row[kv.C_FEATURES :])
        assert score == kf.follow_score(f, weights, w_row * kf.N_WEIGHTS)


@pytest.mark.parametrize("trump", [1, 4])
def test_swapping_hidden_cards_changes_no_decision_of_team(trump):
    """Swap one card between two players' hands and replay a contract played by ``team`` (the
    take-or-leave model at both sides' second and third hands): the first move that differs is
    always made by one of those two players, so no choice reads a card its player cannot see."""
    r = random.Random(14 + trump)
    checked = 0
    for _ in range(500):
        bits = random_deal(r)
        declarer = r.randrange(4)
        bids = side_bytes(r.randint(7, 11), declarer, False)
        a, b, swapped = swap_one_card(r, bits)
        seqs = []
        for deal in (bits, swapped):
            rec = np.zeros(52, dtype=np.int64)
            kp.play_hand(np.array(deal, dtype=np.uint64), np.array(bids), declarer, np.full(4, kp.TEAM),
                         Kit(kp.TEAM), trump, np.zeros(4, dtype=np.int64), rec)  # fmt: skip
            seqs.append(list(rec))
        if seqs[0] == seqs[1]:
            continue
        first = next(i for i in range(52) if seqs[0][i] != seqs[1][i])
        _, movers = naive.replay([naive.cards_of(x) for x in bits], seqs[0], declarer, trump)
        assert movers[first] in (a, b)
        checked += 1
    assert checked > 100


def _team_replay(hands, declarer, trump, targets, lead_trump, at=None, forced=None):
    """The plain-Python ``team`` (shipped weights) plays a contract; at ``at`` = (trick, cards
    already played to it) it plays ``forced`` if given. Returns (tricks by seat, the public state at
    ``at``: seat, hand, played, voids, taken, leader, trick)."""
    state = []

    def choose(seat, hand, played, voids, taken, leader, trick):
        if at == (len(played) // 4, len(trick)):
            state.append((seat, set(hand), set(played), set(voids), list(taken), leader, list(trick)))
            if forced is not None:
                return forced
        return naive.team_choice(seat, hand, played, voids, targets, taken, leader, trick, trump,
                                 trump_lead=lead_trump and seat == declarer, declarer=declarer)  # fmt: skip

    tricks = naive.play_along([set(h) for h in hands], declarer, trump, choose)
    return tricks, (state[0] if state else None)


def test_the_data_plays_each_option_out_with_the_player_of_its_weights():
    """Each row's two values are the contract's points for the mover's side when the player
    takes, or leaves, and the deal is finished by the player with the data's weights: checked
    against the plain-Python team (shipped weights) on the rows of 6 contracts; the row of the
    option the player chose holds the points of the deal as played."""
    from analyzer.games.tarneeb.later_lead import deals_data

    data, _ = deals_data(6, 4)
    n = len(data["hands"])
    rows = np.zeros((n * kv.ROWS_PER_DEAL, kv.N_COLUMNS), dtype=np.int64)
    counts = np.zeros(n, dtype=np.int64)
    kv.follow_values(True, data["hands"], data["bids"], data["leaders"], data["trumps"], data["values"],
                     data["net"], np.ascontiguousarray(WEIGHTS), rows, counts)  # fmt: skip
    checked = 0
    for i in range(n):
        packed, declarer, trump = int(data["bids"][i]), int(data["leaders"][i]), int(data["trumps"][i])
        bids = [(packed >> (8 * s)) & 255 for s in range(4)]
        targets = [b & 15 for b in bids]
        game = ([naive.cards_of(int(x)) for x in data["hands"][i]], declarer, trump, targets, bool(bids[declarer] & 16))
        net = data["net"][i]
        tricks, _ = _team_replay(*game)
        as_played = int(net[tricks[declarer] + tricks[declarer ^ 2]])
        for row in rows[i * kv.ROWS_PER_DEAL : i * kv.ROWS_PER_DEAL + counts[i]]:
            at = (int(row[kv.C_DECISION]) - 16 * i, int(row[kv.C_POSITION]))
            sign = 1 if row[kv.C_DECLARING] else -1
            took = row[kv.C_TOOK] == 1
            assert row[kv.C_TAKE if took else kv.C_LEAVE] == sign * as_played
            _, (seat, hand, played, voids, taken, leader, trick) = _team_replay(*game, at=at)
            side = [taken[s] + taken[s ^ 2] for s in range(4)]
            goals = [13 if side[s] >= targets[s] else targets[s] for s in range(4)]
            plan = naive.team_choice(seat, hand, played, voids, targets, taken, leader, trick, trump,
                                     declarer=declarer, follows=[])  # fmt: skip
            kind = naive.follow_kind(hand, trick, trump)
            take, leave = naive.take_leave(kind, seat, hand, played, voids, goals, side, leader, trick, trump, plan)
            tricks, _ = _team_replay(*game, at=at, forced=leave if took else take)
            assert row[kv.C_LEAVE if took else kv.C_TAKE] == sign * int(net[tricks[declarer] + tricks[declarer ^ 2]])
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("args, words", [
    (["--game", "400", "--deals", "5"], "--deals"),
    (["--game", "tarneeb", "--deals", "5"], "--deals"),
    (["--game", "tarneeb", "--deals", "300", "--iterations", "6"], "--iterations"),
])  # fmt: skip
def test_fit_follow_rejects_bad_input_with_one_line(args, words, tmp_path):
    out = tmp_path / "w.py"
    result = CliRunner().invoke(cli, ["fit-follow", *args, "--out", str(out)])
    assert result.exit_code == 2
    assert words in result.output and "Traceback" not in result.output and not out.exists()
