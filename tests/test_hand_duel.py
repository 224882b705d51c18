"""`t400 duel --deals`: duplicate single hands, the product's measure of pimc against a policy."""

import dataclasses
import json

import pytest
from conftest import run

from analyzer.core import hand_duel
from analyzer.core.policies import policy_id
from analyzer.games import registry
from analyzer.games.t400.pimc import DuelTable
from analyzer.games.t400.rules import Variant
from analyzer.games.tarneeb.pimc import DuelTable as TarneebTable
from analyzer.games.tarneeb.rules import TarneebVariant


@pytest.fixture(scope="module")
def table():
    return DuelTable(Variant.preset("dananeer"), 40, seed=5, layouts=2)


def test_a_policy_against_itself_scores_zero_on_every_deal(table):
    standard = policy_id("standard")
    margins = []
    for deal in table.deals():
        first = hand_duel.play_once(table, deal, [standard] * 4, None, {})
        margins.append(first - hand_duel.play_once(table, deal, [standard] * 4, None, {}))
    assert margins == [0] * len(margins)
    out = hand_duel.duel_hands(table, standard, standard, seed=1)
    assert (out["deals"], out["margin_per_hand"], out["a_better"], out["b_better"]) == (40, 0.0, 0, 0)


def test_swapping_a_and_b_negates_every_deal(table):
    standard, basic = policy_id("standard"), policy_id("basic")
    ab = hand_duel.duel_hands(table, standard, basic, seed=1)
    ba = hand_duel.duel_hands(table, basic, standard, seed=1)
    assert ab["margin_per_hand"] == pytest.approx(-ba["margin_per_hand"])
    assert ab["margin_per_hand_se"] == pytest.approx(ba["margin_per_hand_se"])
    assert (ab["a_better"], ab["b_better"]) == (ba["b_better"], ba["a_better"])
    assert ab["margin_per_hand"] != 0  # two different players do differ on 40 deals


def test_the_deal_points_are_the_value_table(table):
    """A deal's points are each seat's score change by the variant's table, seats 1+3 minus 2+4."""
    v = Variant.preset("dananeer")
    deal = table.deals()[0]
    pos = table.start(deal)
    for _ in range(52):
        pos.play(pos.kernel_card(policy_id("standard")))
    change = [v.score_change(b, t, 0) for b, t in zip(deal[1], pos.taken)]
    assert sum(pos.taken) == 13
    assert table.points(deal, pos) == change[0] + change[2] - change[1] - change[3]


def test_stop_drops_the_deal_it_may_have_cut(table):
    standard, basic = policy_id("standard"), policy_id("basic")
    asked = []

    def stop():
        asked.append(1)
        return len(asked) == 3

    out = hand_duel.duel_hands(table, standard, basic, seed=1, stop=stop)
    assert out["interrupted"] and out["deals"] == 2 and out["deals_asked"] == 40
    whole = hand_duel.duel_hands(table, standard, basic, seed=1)
    first_two = hand_duel.margin_stats(
        [(hand_duel.play_once(table, d, [standard, basic] * 2, None, {})
          - hand_duel.play_once(table, d, [basic, standard] * 2, None, {})) / 2 for d in table.deals()[:2]]
    )  # fmt: skip
    assert out["margin_per_hand"] == first_two["margin_per_hand"]
    assert whole["deals"] == 40 and not whole["interrupted"]


@pytest.mark.parametrize("game", ["400", "tarneeb"])
def test_pimc_takes_a_seat_the_same_each_run(game):
    # one layout in 400: its first tricks' double dummy with the bids takes a second or more
    args = ["duel", "--game", game, "--deals", 1, "--layouts", 1 if game == "400" else 2, "--seed", 3, "--json"]
    first = run(*args)
    assert first.exit_code == 0, first.output
    out = json.loads(first.output)
    assert out["a"] == "ev/pimc" and out["b"] == f"ev/{registry.get(game).default_policy}"
    # pimc plays two seats of each of the two plays of the deal: 2 x 2 x 13 cards
    assert out["deals"] == 1 and out["pimc_decisions"] == 52
    assert out["reads"] == ("bids" if game == "400" else "auction") and 0 < out["layouts_fit"] <= 1
    if game == "tarneeb":
        again = json.loads(run(*args).output)
        assert again["margin_per_hand"] == out["margin_per_hand"]


def test_the_tarneeb_table_keeps_the_variant_s_trump_lead():
    v = dataclasses.replace(TarneebVariant.preset("tarneeb"), trump_lead=True)
    t = TarneebTable(v, 3, seed=2, layouts=2)
    for deal in t.deals():
        pos = t.start(deal)
        assert pos.first_lead_trump
        hand = pos.hands[pos.mover]
        if hand >> (16 * pos.trump) & 0x1FFF:
            assert all(c >> 4 == pos.trump for c in pos.legal())


@pytest.mark.parametrize(
    "args, message",
    [
        (["--a", "counting/pimc"], "A's bidder must be ev, not counting"),
        (["--b", "ev/foo"], "unknown play policy 'foo' (expected pimc or one of"),
        (["--scheduler", "local:2"], "--scheduler is for duels of matches"),
    ],
)
def test_bad_duels_of_hands_are_one_line(args, message):
    r = run("duel", "--deals", 1, *args)
    assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output
