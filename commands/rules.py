"""``t400 rules`` and ``t400 score``: a variant's rules, and a round scored by them."""

from __future__ import annotations

import click

from analyzer.games import registry
from commands.base import (
    CONTEXT,
    emit_json,
    json_option,
    variant_options,
)

# ---------------------------------------------------------------------------------------------
# t400 rules


@click.command(context_settings=CONTEXT)
@click.argument("preset", required=False, metavar="[VARIANT]")
@variant_options(games=True)
@json_option
def rules(variant, as_json):
    """Show a variant's value table, minimums and match rules.

    VARIANT is a preset (dananeer, qahwa, syrian41; with --game tarneeb: tarneeb,
    tarneeb-dananeer, egyptian); the switches change any rule of it.
    """
    game = registry.for_variant(variant)
    if as_json:
        emit_json(game.describe(variant))
        return
    click.echo(game.rules_text(variant))


# ---------------------------------------------------------------------------------------------
# t400 score


@click.command(context_settings=CONTEXT)
@click.option("--scores", help="Scores before the round: 400 the four players' (default 0,0,0,0), seat 1 "
                               "first; Tarneeb the two teams' (default 0,0), seats 1+3 first.")  # fmt: skip
@click.option("--bids", help="400: the four bids, seat 1 first: 3,4,3,2.")
@click.option("--tricks", help="400: tricks taken, seat 1 first (not needed for a dead hand); "
                               "Tarneeb: the declaring team's tricks.")  # fmt: skip
@click.option("--declarer", type=int, help="Tarneeb: the declarer's seat (1..4).")
@click.option("--bid", "contract", type=int, help="Tarneeb: the contract, 7..13.")
@click.option("--trump", help="Tarneeb: the trump named (S, H, D, C or NT; Egyptian: required).")
@click.option("--doubled", is_flag=True, help="Egyptian Tarneeb: the contract was doubled.")
@variant_options(games=True)
@json_option
def score(variant, scores, bids, tricks, declarer, contract, trump, doubled, as_json):
    """Settle one round: new scores, dead or not, and the match winner if any.

    400: --scores (four), --bids, --tricks. Tarneeb (--game tarneeb or a Tarneeb --variant):
    --scores A,B (teams 1+3 and 2+4), --declarer SEAT --bid N --tricks T [--trump S] [--doubled].
    """
    options = {"bids": bids, "tricks": tricks, "declarer": declarer, "contract": contract, "trump": trump,
               "doubled": doubled}  # fmt: skip
    data, text = registry.for_variant(variant).settle(variant, scores, options)
    if as_json:
        emit_json(data)
        return
    click.echo(text)


#: The commands of this module, as :mod:`commands` adds them to the group.
COMMANDS = (
    rules,
    score,
)
