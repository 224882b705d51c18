"""``t400 bid``: what to bid with a hand, in 400 or Tarneeb."""

from __future__ import annotations

import click

from analyzer.core.runtime import announce_compiles, interrupt_at_once
from analyzer.games import registry
from analyzer.games.interface import BidQuestion
from commands.base import (
    CONTEXT,
    CardsCommand,
    bidder_model_option,
    emit_json,
    equity_table_option,
    json_option,
    parse_int_list,
    progress_bar,
    variant_options,
)
from commands.files import check_writable, wrote

# ---------------------------------------------------------------------------------------------
# t400 bid


@click.command(cls=CardsCommand, context_settings=CONTEXT)
@click.argument("hand")
@click.option(
    "--seat", type=int, default=1, show_default=True, help="Your seat: 1 bids first and leads, 4 deals."
)
@click.option("--scores", help="Scores before the hand: 400 all four, seat 1 first (default 0,0,0,0); "
                               "Tarneeb the two teams', seats 1+3 first (default 0,0).")  # fmt: skip
@click.option(
    "--bids", "earlier", default="", help="The bids already made by the seats before you, in order."
)
@click.option(
    "--auction", help="Tarneeb: the calls so far from seat 1 (pass,8,pass,9; Egyptian 8H,pass,8S,double)."
)
@variant_options(games=True)
@click.option("--model", type=click.Choice(["rollout", "dd", "solo-dd"]), default="rollout", show_default=True,
              help="rollout: bots bid and play the hand out; dd: double dummy (400: all four see all "
                   "cards and play for their side's points with the bids; Tarneeb: the declaring team "
                   "against the defenders); solo-dd (400): the player alone against the other three, "
                   "a lower bound.")  # fmt: skip
@click.option("--policy", type=click.Choice(["standard", "basic", "greedy", "team"]),
              help="Card play of all four players (rollout; default standard, Tarneeb team).")  # fmt: skip
@click.option(
    "--samples",
    type=int,
    help="Deals to sample (default: rollout until every P(make) has SE <= 0.003; dd 48, solo-dd 512; "
    "Tarneeb dd 128).",
)
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True)
@click.option("--threads", type=int, help="Threads (default: all); the result does not depend on it.")
@click.option(
    "--infer/--no-infer",
    default=True,
    show_default=True,
    help="Weight deals by how likely the earlier bids were.",
)
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False),
    help="Write a PNG: trick distribution and EV per bid.",
)
@click.option(
    "--progress/--no-progress", default=None, help="Progress bar on stderr (default: on, off with --json)."
)
@click.option("--objective", type=click.Choice(["win", "points"]),
              help="win: maximise P(win the match); points: expected points in this hand. "
                   "Default: win when any score is non-zero, else points.")  # fmt: skip
@click.option("--continuations", type=int, default=0, metavar="K",
              help="P(win) from K simulated rests of the match after each sampled hand, not the table.")  # fmt: skip
@equity_table_option
@bidder_model_option
@json_option
def bid(
    hand,
    seat,
    scores,
    earlier,
    auction,
    variant,
    model,
    policy,
    samples,
    seed,
    threads,
    infer,
    plot_path,
    progress,
    objective,
    continuations,
    equity_table,
    bidder_model,
    as_json,
):
    """What should I bid with HAND? Trick distribution, expected value and P(win the match) of
    every legal bid.

    HAND is 13 cards (AKQ5.KJ4.T93.862 or S:AKQ5 H:KJ4 D:T93 C:862). Seats are bidding order:
    1 bids first and leads, 4 is the dealer; partners 1+3 and 2+4. With --game tarneeb (or a
    Tarneeb --variant): every legal call after --auction, the team's tricks in every strain.
    """
    game = registry.for_variant(variant)
    if plot_path:
        check_writable(plot_path)
    plan = game.bid_plan(BidQuestion(
        hand, seat, parse_int_list(scores, "--scores", game.score_count), variant, earlier, auction, model, policy,
        samples, seed, threads, infer, objective, continuations, equity_table, bidder_model,
    ))  # fmt: skip
    if plan.compile_group:
        announce_compiles(plan.compile_group)
    if plan.notice:
        click.echo(plan.notice, err=True)
    show = (not as_json) if progress is None else progress
    with progress_bar(plan.progress_label, 1, enabled=show) as update, interrupt_at_once():
        result = plan.run(update)
    if plot_path:
        plan.plot(result, plot_path)
        wrote(plot_path)
    if as_json:
        emit_json(result.to_dict())
        return
    click.echo(plan.text(result))


#: The commands of this module, as :mod:`commands` adds them to the group.
COMMANDS = (bid,)
