"""``t400 card``: what should I play now? pimc on layouts that fit what the table has shown."""

from __future__ import annotations

import click

from analyzer.core.errors import T400Error
from analyzer.core.runtime import announce_compiles, interrupt_at_once
from analyzer.games import registry
from analyzer.games.interface import CardQuestion
from commands.base import (
    CONTEXT,
    CardsCommand,
    emit_json,
    json_option,
    parse_int_list,
    progress_bar,
    variant_options,
)


@click.command(cls=CardsCommand, context_settings=CONTEXT)
@click.argument("hand", required=False)
@click.option("--seat", type=int, help="Your seat (1..4; 400: seat 1 leads the first trick; Tarneeb: the declarer).")
@click.option("--bids", help="400: the four bids, seat 1 first (3,5,2,2).")
@click.option("--auction", help="Tarneeb: the calls from seat 1 (7,pass,pass,pass).")
@click.option("--trump", help="Tarneeb: the trump the declarer named (S, H, D, C or NT), if the contract names none.")
@click.option("--play", "play", default="", help="The cards played so far, in order (SA S9 S3 S2 SK ...).")
@click.option("--scores", help="400: the four scores before the hand, seat 1 first (default 0,0,0,0).")
@click.option("--record", help="A hand record (as t400 review reads it): ask for the player to move after --at cards.")
@click.option("--at", type=click.IntRange(0, 51), help="With --record: the cards of the record played before the decision.")
@variant_options(games=True)
@click.option("--layouts", type=click.IntRange(1, 4096), default=32, show_default=True,
              help="Layouts of the hidden cards to solve (fewer when one card is clearly best).")  # fmt: skip
@click.option("--blind", is_flag=True, help="Layouts that ignore the bids or the auction (only the play).")
@click.option("--all-layouts", is_flag=True,
              help="Solve every layout asked for (by default the rest are left once one card is clearly best).")  # fmt: skip
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True)
@click.option("--threads", type=click.IntRange(1), help="Threads (default: all); the result does not depend on it.")
@click.option("--progress/--no-progress", default=None, help="A progress line on stderr (default: on a terminal).")
@json_option
def card(hand, seat, bids, auction, trump, play, scores, record, at, variant, layouts, blind, all_layouts, seed, threads,
         progress, as_json):  # fmt: skip
    """What should I play now? Each legal card with its value on layouts of the hidden cards.

    HAND is your 13 cards as dealt (the cards you played included). pimc deals --layouts layouts
    of the cards you cannot see that fit the play (the cards played, who showed out of a suit)
    and the bids (400) or the auction (Tarneeb), solves each legal card double dummy on each,
    and recommends the best on average. Or --record with --at N: the player to move after N
    cards of a hand record (only that player's hand is read).
    """
    game = registry.for_variant(variant)
    base = CardQuestion(hand or "", seat or 0, play.replace(",", " ").split(), variant,
                        None, bids, auction, trump, layouts, seed, threads, not blind, not all_layouts)  # fmt: skip
    if record is not None:
        if hand is not None or seat is not None or play or bids is not None or auction is not None:
            raise T400Error("--record gives the hand, the seat, the bids or auction and the play: give none of them")
        if at is None:
            raise T400Error("--record needs --at N: the cards of the record played before the decision")
        records = registry.read_records(record)
        if len(records) != 1:
            raise T400Error(f"--record: one hand record, not {len(records)}")
        game = registry.get(records[0].game)
        question = game.card_question(records[0], at, base)
    else:
        if at is not None:
            raise T400Error("--at is the position in a --record")
        if hand is None or seat is None:
            raise T400Error("give HAND and --seat (or --record RECORD --at N)")
        parsed = parse_int_list(scores, "--scores", game.score_count) if scores is not None else None
        question = CardQuestion(hand, seat, base.play, variant, parsed, bids, auction, trump, layouts, seed, threads,
                                not blind, not all_layouts)  # fmt: skip
    plan = game.card_plan(question)
    announce_compiles(plan.compile_group)
    show = (not as_json) if progress is None else progress
    with progress_bar(plan.progress_label, 1, enabled=show) as update, interrupt_at_once():
        result = plan.run(update)
    if as_json:
        emit_json(result.to_dict())
        return
    click.echo(plan.text(result))


#: The commands of this module, as :mod:`commands` adds them to the group.
COMMANDS = (card,)
