"""``t400 rules`` and ``t400 score``: a variant's rules, and a round scored by them."""

from __future__ import annotations

import click

import analyzer
from analyzer.core.errors import T400Error
from analyzer.games.t400 import rules as rules_mod
from commands.base import (
    CONTEXT,
    emit_json,
    format_table,
    json_option,
    parse_int_list,
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
    if variant.game == "tarneeb":
        _tarneeb_rules(variant, as_json)
        return
    info = rules_mod.describe(variant)
    if as_json:
        emit_json(info)
        return
    description = rules_mod.PRESET_DESCRIPTIONS.get(variant.name, "")
    click.echo(f"Variant: {variant.label}  ({description})")
    click.echo("Trump: hearts, every hand. Each player bids 2..13 tricks for themselves, once.\n")
    click.echo("Value of a bid (won if made, lost if failed):")
    bids = list(range(rules_mod.MIN_BID, rules_mod.MAX_BID + 1))
    rows = [[label, *values.values()] for label, values in info["value_table"].items()]
    click.echo(format_table(["bid", *bids], rows))
    if variant.score_table == "classic":
        click.echo("13: a made 13 wins the match outright, a failed 13 loses it (booked at 39).")
    click.echo("\nMinimums by score:")
    brackets = list(info["min_bid"].keys())
    click.echo(
        format_table(
            ["", *brackets],
            [
                ["own minimum bid (own score)", *info["min_bid"].values()],
                ["table minimum (highest score)", *info["table_min"].values()],
            ],
        )
    )
    match = info["match"]
    click.echo("\nMatch:")
    click.echo(f"  win: {match['win']}")
    click.echo(f"  both partnerships qualify: {match['both_qualify']}")
    click.echo(
        f"  dead hand (bids short of the table minimum): nothing scored, {match['dead_hand_redeal']} re-deals"
    )
    if "outright" in match:
        click.echo(f"  outright: {match['outright']}")


def _tarneeb_rules(variant, as_json) -> None:
    from analyzer.games.tarneeb import rules as tarneeb_rules

    info = tarneeb_rules.describe(variant)
    if as_json:
        emit_json(info)
        return
    description = tarneeb_rules.PRESET_DESCRIPTIONS.get(variant.name, "")
    click.echo(f"Variant: {variant.label}  ({description})")
    click.echo("Partners (seats 1+3 against 2+4) bid together for their team's tricks, 7..13.\n")
    click.echo("Auction:")
    for key, text in info["auction"].items():
        click.echo(f"  {key.replace('_', ' ')}: {text}")
    click.echo(f"Trump: {info['trump']} ({', '.join(info['strains'])}). Play: {info['play']}.")
    click.echo("\nScoring:")
    click.echo(f"  made: {info['scoring']['made']}")
    click.echo(f"  failed: {info['scoring']['failed']}")
    rows = [[r["bid"], r["tricks"], tarneeb_rules.TRICKS - r["tricks"], f"{r['declarers']:+d}", f"{r['defenders']:+d}"]
            for r in info["scoring"]["examples"]]  # fmt: skip
    click.echo(format_table(["bid", "declarers' tricks", "defenders' tricks", "declarers", "defenders"], rows,
                            align="r" * 5))  # fmt: skip
    click.echo(f"\nMatch: {info['match']['end']}.")


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
    if variant.game == "tarneeb":
        if bids is not None:
            raise T400Error("--bids is for 400; a Tarneeb hand has one contract: --declarer SEAT --bid N")
        _score_tarneeb(variant, scores, declarer, contract, tricks, trump, doubled, as_json)
        return
    for option, value in (("--declarer", declarer), ("--bid", contract), ("--trump", trump)):
        if value is not None:
            raise T400Error(f"{option} is for a Tarneeb hand (--game tarneeb); 400 takes --bids for all four")
    if doubled:
        raise T400Error("--doubled: there is no doubling in 400 (only Egyptian Tarneeb doubles)")
    if bids is None:
        raise T400Error("--bids is required: the four bids, seat 1 first (e.g. --bids 3,4,3,2)")
    scores = "0,0,0,0" if scores is None else scores
    result = analyzer.settle_round(
        variant,
        parse_int_list(scores, "--scores", 4),
        parse_int_list(bids, "--bids", 4),
        parse_int_list(tricks, "--tricks", 4),
    )
    data = result.to_dict()
    data["variant"] = variant.label
    if as_json:
        emit_json(data)
        return
    rows = []
    for seat in range(4):
        made = "-" if result.made is None else ("made" if result.made[seat] else "set")
        rows.append(
            [
                f"seat {seat + 1}",
                result.scores_before[seat],
                result.bids[seat],
                result.values[seat],
                "-" if result.tricks is None else result.tricks[seat],
                made,
                f"{result.deltas[seat]:+d}",
                result.scores[seat],
            ]
        )
    click.echo(f"Variant: {variant.label}")
    click.echo(format_table(["", "before", "bid", "value", "tricks", "result", "change", "after"], rows))
    total = sum(result.bids)
    if result.dead and result.tricks is not None:
        click.echo("Note: the hand is dead, so the tricks given are not scored.")
    if result.dead:
        who = "the next dealer" if result.dealer_advances else "the same dealer"
        click.echo(
            f"Dead hand: bids total {total}, under the table minimum of {result.table_minimum}; {who} re-deals."
        )
    else:
        click.echo(f"Bids total {total} (table minimum {result.table_minimum}).")
    if result.winner:
        click.echo(f"Winner: seats {result.winner[0]} and {result.winner[1]} ({result.reason}).")
    elif result.reason:
        click.echo(f"No winner yet: {result.reason}.")
    else:
        click.echo("No winner yet.")


def _score_tarneeb(variant, scores, declarer, contract, tricks, trump, doubled, as_json) -> None:
    from analyzer.games.tarneeb.rules import settle_hand

    missing = [
        o for o, v in (("--declarer", declarer), ("--bid", contract), ("--tricks", tricks)) if v is None
    ]
    if missing:
        raise T400Error(
            f"{', '.join(missing)} required for a Tarneeb hand (e.g. --declarer 2 --bid 9 --tricks 10)"
        )
    team_scores = parse_int_list("0,0" if scores is None else scores, "--scores", 2)
    taken = parse_int_list(tricks, "--tricks", 1)[0]
    result = settle_hand(variant, team_scores, declarer, contract, taken, trump, doubled)
    data = result.to_dict()
    data["variant"] = variant.label
    if as_json:
        emit_json(data)
        return
    team = "+".join(map(str, data["declaring_team"]))
    trump_text = f", trump {result.trump}" if result.trump else ""
    outcome = "made" if result.made else "failed"
    click.echo(f"Variant: {variant.label}")
    click.echo(f"Contract: {result.bid} by seat {result.declarer} (seats {team}){trump_text}"
               f"{', doubled' if result.doubled else ''}: {outcome} with {result.tricks} tricks "
               f"(defenders {13 - result.tricks}){'; Kaboot' if result.kaboot else ''}")  # fmt: skip
    rows = [[f"seats {label}", before, f"{delta:+d}", after]
            for label, before, delta, after in zip(("1+3", "2+4"), result.scores_before, result.deltas, result.scores)]  # fmt: skip
    click.echo(format_table(["", "before", "change", "after"], rows))
    if result.winner:
        click.echo(f"Winner: seats {result.winner[0]} and {result.winner[1]} ({result.reason}).")
    elif result.draw:
        click.echo(f"Draw: {result.reason}.")
    else:
        click.echo("No winner yet." if not result.reason else f"No winner yet: {result.reason}.")


#: The commands of this module, as :mod:`commands` adds them to the group.
COMMANDS = (
    rules,
    score,
)
