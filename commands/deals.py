"""Whole deals: ``t400 solve`` (double dummy) and ``t400 play`` (the bots bid and play a deal)."""

from __future__ import annotations

import click

import analyzer
from analyzer.core import jsonfile, output
from analyzer.core.errors import Interrupted, T400Error
from analyzer.core.runtime import announce_compiles
from analyzer.games import registry
from analyzer.games.interface import PlayQuestion
from commands.base import (
    CONTEXT,
    CardsCommand,
    bidder_model_option,
    emit_json,
    format_table,
    json_option,
    parse_int_list,
    progress_bar,
    to_json,
    variant_options,
)
from commands.files import outputs, wrote

# t400 solve

#: The largest file of deals read (a deal a line: about 200,000 deals).
MAX_DEALS_BYTES = 16 << 20


def _read_deal_lines(path: str) -> list[str]:
    text = jsonfile.read_text(path, "deals file", max_bytes=MAX_DEALS_BYTES)
    deals = []
    for n, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            analyzer.parse_deal(line)
        except T400Error as exc:
            raise T400Error(f"{path} line {n}: {exc}") from None
        deals.append((n, line))
    if not deals:
        raise T400Error(f"{path}: no deals (one deal a line)")
    return deals


@click.command(cls=CardsCommand, context_settings=CONTEXT)
@click.argument("deal", required=False)
@click.option("--trump", default="hearts", show_default=True,
              type=click.Choice(["hearts", "spades", "diamonds", "clubs", "none"]), help="Trump strain.")  # fmt: skip
@click.option("--leader", type=click.IntRange(1, 4), default=1, show_default=True, help="Seat on lead.")
@click.option("--mode", type=click.Choice(["team", "solo", "bids"]), default="team", show_default=True,
              help="team: a partnership's tricks (as DDS); solo: one player's own tricks against the other three; "
                   "bids: 400 with the bids, both partnerships playing for their side's points.")  # fmt: skip
@click.option("--player", type=click.IntRange(1, 4), help="Whose tricks (default: the leader's).")
@click.option(
    "--cards", "show_cards", is_flag=True, help="Also the tricks after each card the leader may lead."
)
@click.option("--table", "full_table", is_flag=True,
              help="All 20 results: seats 1+3's tricks for every trump and leader (as DDS's CalcDDtable).")  # fmt: skip
@click.option("--file", "path", help="Solve a batch: one deal a line ('-' for stdin).")
@click.option("--threads", type=click.IntRange(1), help="Threads for a batch (default: all).")
@click.option("--bids", help="--mode bids: the four bids, seat 1 first.")
@click.option(
    "--won", help="--mode bids: tricks each player took before this ending, seat 1 first (default 0s)."
)
@click.option("--scores", help="--mode bids: the four scores that set each bid's value (default 0s).")
@variant_options
@json_option
def solve(deal, trump, leader, mode, player, show_cards, full_table, path, threads, bids, won, scores, variant,
          as_json):  # fmt: skip
    """Double-dummy tricks of a deal or an ending: DEAL is four hands in seat order.

    Seat 1 is the first hand given; partners are 1+3 and 2+4. In team mode the answer is the
    tricks of the player's partnership with best play by all; in solo mode, the most tricks
    the player takes alone when the other three (partner included) play against them; in bids
    mode (400's perfect-information model), the points of seats 1+3 minus those of seats 2+4
    when both partnerships play for their side's points with the bids given.
    """
    from analyzer.core import solve as dd_solve

    if mode == "bids":
        announce_compiles("solve-bids")
    if (deal is None) == (path is None):
        raise T400Error("give one DEAL, or --file PATH with one deal a line")
    if full_table:
        given = [f"--{name}" for name in ("trump", "leader", "mode", "player", "cards", "bids", "won", "scores")
                 if click.get_current_context().get_parameter_source(name if name != "cards" else "show_cards")
                 is not click.core.ParameterSource.DEFAULT]  # fmt: skip
        if given:
            raise T400Error(f"--table solves every trump and leader in team mode; drop {', '.join(given)}")
        _solve_tables(deal, path, threads, as_json)
        return
    if mode == "bids":
        _solve_bids(deal, path, trump, leader, player, show_cards, bids, won, scores, variant, as_json)
        return
    for option, value in (("--bids", bids), ("--won", won), ("--scores", scores)):
        if value is not None:
            raise T400Error(f"{option} is for --mode bids")
    who = leader if player is None else player
    side = dd_solve.side_of(mode, leader, player)
    if path is not None:
        _solve_batch(_read_deal_lines(path), trump, leader, mode, player, threads, as_json, who, side)
        return
    parsed = analyzer.parse_deal(deal)
    tricks = dd_solve.solve(parsed, trump=trump, leader=leader, mode=mode, player=player)
    record = _solve_record(str(parsed), tricks, trump, leader, mode, who, side)
    scores = None
    if show_cards:
        scores = dd_solve.card_scores(parsed, trump=trump, leader=leader, mode=mode, player=player)
        record["cards"] = {str(c): v for c, v in scores.items()}
    if as_json:
        emit_json(record)
        return
    whose = f"seat {who} takes" if mode == "solo" else f"seats {side[0]}+{side[1]} take"
    strain = "no trump" if trump == "none" else f"{trump} trump"
    click.echo(f"{whose} {tricks} of {parsed.size} tricks ({strain}, seat {leader} leads, "
               f"{mode}: double dummy, perfect play by all)")  # fmt: skip
    if scores:
        click.echo(f"After each lead by seat {leader}:")
        click.echo(format_table(["card", "tricks"], [[c.symbol, v] for c, v in scores.items()]))


def _solve_bids(deal, path, trump, leader, player, show_cards, bids, won, scores, variant, as_json) -> None:
    if path is not None or show_cards or player is not None:
        raise T400Error("--mode bids solves one DEAL; --file, --cards and --player do not apply")
    if bids is None:
        raise T400Error("--mode bids needs --bids B1,B2,B3,B4")
    parsed = analyzer.parse_deal(deal)
    solution = registry.for_variant(variant).solve_with_bids(
        parsed, parse_int_list(bids, "--bids", 4), parse_int_list(won or "0,0,0,0", "--won", 4),
        parse_int_list(scores or "0,0,0,0", "--scores", 4), variant, trump, leader,
    )  # fmt: skip
    record = {"deal": str(parsed), "trump": trump, "leader": leader, "mode": "bids", "variant": variant.label,
              "bids": parse_int_list(bids, "--bids", 4), **solution.to_dict()}  # fmt: skip
    if as_json:
        emit_json(record)
        return
    strain = "no trump" if trump == "none" else f"{trump} trump"
    click.echo(f"Best play by both partnerships for their points ({strain}, seat {leader} leads, {variant.label}): "
               f"seats 1+3 minus seats 2+4 = {solution.value:+d}")  # fmt: skip
    rows = [[f"seat {p + 1}", record["bids"][p], solution.values[p], solution.tricks[p],
             "made" if solution.made[p] else "set"] for p in range(4)]  # fmt: skip
    click.echo(format_table(["", "bid", "value", "tricks", "result"], rows))
    cards = [c.symbol for c in solution.cards]
    tricks = [" ".join(cards[i : i + 4]) for i in range(0, len(cards), 4)]
    click.echo("One line of best play: " + " | ".join(tricks))


def _solve_batch(lines, trump, leader, mode, player, threads, as_json, who, side) -> None:
    """Solve a batch (``(line number, deal)`` pairs), one result a line."""
    from analyzer.core import solve as dd_solve

    hands = dd_solve.deals_array([deal for _, deal in lines])
    _print_batch(
        lines, dd_solve.solve_blocks(hands, trump, leader, mode, player, threads), as_json, len(lines) > 1,
        lambda deal, t: _solve_record(deal, t, trump, leader, mode, who, side), lambda t: str(int(t)),
    )  # fmt: skip


def _print_batch(lines, blocks, as_json, show_progress, record, text) -> None:
    """Print a batch's results block by block as each finishes (``blocks`` yields (index of the
    block's first deal, its results)): Ctrl-C stops after the current block, and everything
    finished stays printed (a JSON list is closed properly). Each result names its line:
    ``record(deal, result)`` is its JSON object, ``text(result)`` its text after ``line N:``."""
    from analyzer.core.runtime import deferred_interrupt

    done = 0
    enabled = show_progress and not as_json
    with deferred_interrupt() as stop, progress_bar("solving", len(lines), enabled=enabled) as update:
        for start, block in blocks:
            for i, result in enumerate(block):
                line, deal = lines[start + i]
                if as_json:
                    body = to_json({"line": line, **record(deal, result)})
                    click.echo(("[\n  " if done == 0 else ",\n  ") + body.replace("\n", "\n  "), nl=False)
                else:
                    click.echo(f"line {line}: {text(result)}")
                done += 1
            update(done, len(lines))
            if stop():
                break
    if as_json:
        click.echo("\n]" if done else "[]")
    if done < len(lines):
        raise Interrupted(
            f"interrupted after {done:,} of {len(lines):,} deals; their results are printed above"
        )


def _solve_tables(deal, path, threads, as_json) -> None:
    """``t400 solve --table``: one deal's 20 results as a table, or a batch's, one deal a line."""
    from analyzer.core import solve as dd_solve
    from analyzer.core.strains import WORDS

    if path is None:
        parsed = analyzer.parse_deal(deal)
        table = dd_solve.solve_table(parsed)
        if as_json:
            emit_json(_table_record(str(parsed), table))
            return
        click.echo(f"Double-dummy tricks of seats 1+3 ({parsed.size} tricks; seats 2+4 take the rest), "
                   "by trump and leader, team mode: perfect play by all")  # fmt: skip
        rows = [[word, *(int(t) for t in table[s])] for s, word in enumerate(WORDS)]
        click.echo(format_table(["trump", *(f"seat {q} leads" for q in range(1, 5))], rows))
        return
    lines = _read_deal_lines(path)
    hands = dd_solve.deals_array([d for _, d in lines])
    _print_batch(
        lines, dd_solve.solve_table_blocks(hands, threads), as_json, True, _table_record,
        lambda table: " | ".join(f"{word} " + " ".join(str(int(t)) for t in table[s]) for s, word in enumerate(WORDS)),
    )  # fmt: skip


def _table_record(deal, table):
    from analyzer.core.strains import WORDS

    return {"deal": str(deal), "mode": "team", "side": [1, 3], "leaders": [1, 2, 3, 4],
            "table": {word: [int(t) for t in table[s]] for s, word in enumerate(WORDS)}}  # fmt: skip


def _solve_record(deal, tricks, trump, leader, mode, player, side):
    return {"deal": str(deal), "trump": trump, "leader": leader, "mode": mode, "player": player,
            "side": side, "tricks": int(tricks)}  # fmt: skip


# ---------------------------------------------------------------------------------------------
# t400 play


@click.command(cls=CardsCommand, context_settings=CONTEXT)
@click.argument("deal", required=False)
@click.option("--bids", help="400: the four bids, seat 1 first (default: the bots' bids).")
@click.option(
    "--calls",
    help="Tarneeb: the calls from seat 1 (default: the bots' auction), e.g. pass,7,8,pass,pass,pass.",
)
@click.option(
    "--trump", help="Tarneeb: the trump the declarer names (S, H, D, C or NT; default: the declarer bot's)."
)
@click.option("--bidder", type=click.Choice(["ev", "counting", "counting-ev", "win"]), default="ev", show_default=True,
              help="Bots that bid when --bids (--calls) is not given; Tarneeb: ev or counting.")  # fmt: skip
@click.option("--policy", metavar="POLICY",
              help="Card play for all four seats, or four comma-separated (standard, basic, greedy; "
                   "Tarneeb: team). Default: standard; Tarneeb: team.")  # fmt: skip
@click.option("--scores", help="Scores before the hand: 400 all four, seat 1 first (default 0,0,0,0); "
              "Tarneeb the two teams' (default 0,0).")  # fmt: skip
@click.option("--file", "path", help="Play a batch: one deal a line ('-' for stdin).")
@click.option(
    "--record",
    "record_path",
    type=click.Path(dir_okay=False),
    help="Also write each hand as a record for t400 review (.json: JSON lines; else text lines).",
)
@variant_options(games=True)
@bidder_model_option
@json_option
def play(deal, bids, calls, trump, bidder, policy, scores, path, record_path, variant, bidder_model, as_json):
    """Bid and play one deal out, card by card: DEAL is four hands in seat order.

    400: seat 1 bids first and leads; hearts are trump. Shows the bids, whether the hand is dead
    (the bids miss the table minimum: not played), the tricks and points of each player and
    every trick in play order with its winner. --game tarneeb: the auction (the bots', or
    --calls), the contract and trump, and the team play from the declarer's lead.
    --record FILE writes the hands as records that t400 review reads.
    """
    if (deal is None) == (path is None):
        raise T400Error("give one DEAL, or --file PATH with one deal a line")
    game = registry.for_variant(variant)
    if record_path:
        outputs(record=record_path)
    lines = _read_deal_lines(path) if path is not None else [(None, deal)]
    question = PlayQuestion(variant, bids, calls, trump, bidder, policy, scores, bidder_model)
    hands, records = game.play([d for _, d in lines], question)
    if record_path:
        _write_records(record_path, records)
    if as_json:
        out = [({"line": n} if n is not None else {}) | h.to_dict() for (n, _), h in zip(lines, hands)]
        emit_json(out if path is not None else out[0])
        return
    for (n, _), h in zip(lines, hands):
        if n is not None:
            click.echo(f"line {n}:")
        click.echo(game.played_text(h))


def _write_records(path: str, records) -> None:
    import json

    text = "".join((json.dumps(r.to_dict(), ensure_ascii=False) if path.lower().endswith((".json", ".jsonl"))
                    else r.to_text()) + "\n" for r in records)  # fmt: skip
    output.write_text(path, text)
    wrote(path)


#: The commands of this module, as :mod:`commands` adds them to the group.
COMMANDS = (
    solve,
    play,
)
