"""Matches: ``t400 simulate``, ``t400 variants`` and ``t400 duel``, with their shared options and printers."""

from __future__ import annotations

import click

from analyzer.core.errors import Interrupted, T400Error
from analyzer.core.fmt import fmt_value as _fmt
from analyzer.core.fmt import pct as _pct
from analyzer.core.runtime import announce_compiles
from analyzer.core.tables import TableWriter
from analyzer.games import registry
from commands.base import (
    CONTEXT,
    RunClock,
    bidder_model_option,
    emit_json,
    format_table,
    game_option,
    json_option,
    progress_bar,
    variant_options,
)
from commands.files import check_writable, kept_beside, outputs, table_format, write_table, wrote

# t400 simulate, t400 variants, t400 duel: whole matches


def run_options(f):
    """Options shared by the match commands: size, seed, threads, cluster, progress."""
    options = [
        click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True),
        click.option(
            "--threads", type=click.IntRange(1), help="Kernel threads (default: all; on Dask: 1 per task)."
        ),
        click.option(
            "--cap",
            type=click.IntRange(1, 10_000),
            default=200,
            show_default=True,
            help="Deals (dead ones included) after which a match is stopped unfinished.",
        ),
        click.option(
            "--scheduler",
            metavar="ADDRESS|local:N",
            help="Run on a Dask cluster (tcp://host:8786) or a local one of N workers.",
        ),
        click.option(
            "--progress/--no-progress",
            default=None,
            help="Progress bar on stderr (default: on a terminal, off with --json).",
        ),
    ]
    for option in reversed(options):
        f = option(f)
    return f


@click.command(context_settings=CONTEXT)
@variant_options(games=True)
@click.option("--matches", type=click.IntRange(1), default=10_000, show_default=True, help="Matches to play.")
@click.option(
    "--policy", help="Card play: standard (default), basic or greedy; Tarneeb: team (default), greedy, ..."
)
@click.option("--bidder", help="Bot bidder: ev (default), counting, counting-ev or win; Tarneeb: counting.")
@run_options
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), help="Write the summary as a CSV table.")
@click.option("--parquet", "parquet_path", type=click.Path(dir_okay=False),
              help="Write the summary as a Parquet table.")  # fmt: skip
@click.option("--hands", "hands_path", type=click.Path(dir_okay=False),
              help="Write every deal (bids, tricks, scores, cards) to a .parquet or .csv file.")  # fmt: skip
@click.option("--per-match", "matches_path", type=click.Path(dir_okay=False),
              help="Write one row per match (winner, ending, hands, scores, bids) to a .parquet or .csv file.")  # fmt: skip
@click.option("--resume", is_flag=True, help="Continue an interrupted run from its kept chunks.")
@bidder_model_option
@json_option
def simulate(variant, matches, policy, bidder, seed, threads, cap, scheduler, progress, csv_path,
             parquet_path, hands_path, matches_path, resume, bidder_model, as_json):  # fmt: skip
    """Play whole matches with four bots and report what the rules do to the game.

    Match lengths, dead-hand rate, bids and make rates, the first partnership's edge, how
    matches end and the final scores, each with its standard error or 95% interval. With
    --game tarneeb (or a Tarneeb --variant): contracts, make and Kaboot rates, re-deals, draws.
    """
    game = registry.for_variant(variant)
    lineup = game.lineup(variant, bidder, policy, cap, bidder_model)
    announce_compiles(game.compile_groups.get("simulate", "simulate"))
    outs = outputs(csv=csv_path, parquet=parquet_path, hands=hands_path, per_match=matches_path)
    if csv_path:
        table_format(csv_path, "csv")
    hands_fmt = table_format(hands_path, "hands") if hands_path else None
    matches_fmt = table_format(matches_path, "per-match") if matches_path else None
    keep = kept_beside(hands_path, matches_path, parquet_path, csv_path)
    if resume and not keep:
        raise T400Error(
            "--resume needs an output file (--csv, --parquet, --hands or --per-match; not a device or a pipe) "
            "to resume into"
        )
    show = (not as_json) if progress is None else progress
    clock = RunClock()
    writers = {}
    try:
        if hands_path:
            writers["hands"] = TableWriter(hands_path, hands_fmt)
        if matches_path:
            writers["per_match"] = TableWriter(matches_path, matches_fmt)
        with progress_bar("matches", matches, enabled=show) as update:
            summary, run = game.simulate_summary(lineup, matches, seed, threads, scheduler, keep, resume, update,
                                                 **writers)  # fmt: skip
        for path, writer in zip((hands_path, matches_path), (writers.get("hands"), writers.get("per_match"))):
            if writer is not None:
                writer.close()
                wrote(path)
    except BaseException:
        for writer in writers.values():
            writer.abort()
        raise
    elapsed = clock.elapsed_s()
    if "csv" in outs:
        write_table(game.summary_table(summary), csv_path, "csv")
    if "parquet" in outs:
        write_table(game.summary_table(summary), parquet_path, "parquet")
    run.done()
    if as_json:
        emit_json({"game": variant.game, "variant": lineup.variant.label, "switches": lineup.variant.switches,
                   "seed": seed, "bidders": list(lineup.bidders), "policies": list(lineup.policies), "cap": cap,
                   **summary, "elapsed_s": elapsed, "compile_s": clock.compile_s()})  # fmt: skip
        return
    click.echo(game.summary_text(summary, lineup, seed, elapsed, clock.note()))


def _parse_game_spec(text: str, game_name: str | None):
    """A variant of any game from ``NAME[:switch=value,...]`` (the preset's name says the game)."""
    owner = registry.for_preset(text) or registry.default()
    if game_name is not None and registry.get(game_name) is not owner:
        raise T400Error(f"variant {text!r}: not a {registry.get(game_name).title} preset (--game {game_name})")
    return owner.parse_spec(text)


@click.command(context_settings=CONTEXT)
@click.argument("specs", nargs=-1, required=True, metavar="NAME_OR_SPEC...")
@click.option("--matches", type=click.IntRange(1), default=10_000, show_default=True,
              help="Matches per variant (the same deals for every variant).")  # fmt: skip
@game_option(help_text="The game of the variants (default: the game of their presets).")
@click.option(
    "--policy", help="Card play: standard (default), basic or greedy; Tarneeb: team (default), greedy, ..."
)
@click.option("--bidder", help="Bot bidder: ev (default), counting, counting-ev or win; Tarneeb: counting.")
@run_options
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), help="Write the comparison as CSV.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), help="Draw the main comparisons (PNG).")
@click.option("--resume", is_flag=True, help="Continue an interrupted run (needs --csv).")
@bidder_model_option
@json_option
def variants(specs, matches, game, policy, bidder, seed, threads, cap, scheduler, progress, csv_path, plot_path,
             resume, bidder_model, as_json):  # fmt: skip
    """Compare rule variants on the same random deals (common random numbers).

    Each NAME_OR_SPEC is a preset (dananeer, qahwa, syrian41) with optional switches:
    qahwa:target=31,score-table=classic; Tarneeb presets (tarneeb, tarneeb-dananeer, egyptian):
    tarneeb:one-bid-each=yes,target=41. Differences are against the first variant, with
    standard errors from the paired matches.
    """
    chosen = [_parse_game_spec(spec, game) for spec in specs]
    if len({v.game for v in chosen}) > 1:
        raise T400Error(f"the variants compared must all be of one game ({' or '.join(registry.names())})")
    owner = registry.for_variant(chosen[0])
    lineups = [owner.lineup(v, bidder, policy, cap, bidder_model) for v in chosen]
    stats = owner.compare_stats([lu.variant.label for lu in lineups])
    labels = [lu.variant.label for lu in lineups]
    if len(set(labels)) != len(labels):
        raise T400Error(f"the same variant is given twice: {', '.join(labels)}")
    outputs(csv=csv_path, plot=plot_path)
    if plot_path:
        check_writable(plot_path)
    if csv_path:
        table_format(csv_path, "csv")
    keep = kept_beside(csv_path)
    if resume and not keep:
        raise T400Error("--resume needs --csv (the comparison's file; not a device or a pipe) to resume into")
    show = (not as_json) if progress is None else progress
    clock = RunClock()
    from analyzer.core.runs import run_matches

    with progress_bar("matches", matches * len(lineups), enabled=show) as update:
        run = run_matches(lineups, matches, seed, threads=threads, scheduler=scheduler, keep=keep,
                          resume=resume, command="variants", progress=update,
                          on_block=lambda _, parts: stats.add({lb: p["rows"] for lb, p in zip(labels, parts)}))  # fmt: skip
    elapsed = clock.elapsed_s()
    table = stats.table()
    if csv_path:
        write_table(table, csv_path, "csv")
    if plot_path:
        from analyzer.core.figures import plot_variants

        plot_variants(table, plot_path, title=f"{matches:,} matches per variant, same deals (seed {seed})")
        wrote(plot_path)
    run.done()
    if as_json:
        emit_json({"game": chosen[0].game, "matches": matches, "seed": seed, "variants": labels,
                   "bidders": list(lineups[0].bidders), "policies": list(lineups[0].policies), "elapsed_s": elapsed,
                   "compile_s": clock.compile_s(), "comparison": table.to_dict(orient="records")})  # fmt: skip
        return
    click.echo(f"{len(labels)} variants x {matches:,} matches on the same deals (seed {seed}), "
               f"bidder {lineups[0].bidders[0]}, play {lineups[0].policies[0]}; {elapsed:.1f} s{clock.note()}. "
               f"Differences against {labels[0]} ± SE.\n")  # fmt: skip
    headers = ["", *labels]
    out_rows = []
    for metric, group in table.groupby("metric", sort=False):
        cells = [metric]
        for r in group.itertuples():
            cell = _fmt(r.value, r.se, r.kind)
            if r.variant != labels[0]:
                sign = "+" if r.diff >= 0 else "-"
                d = abs(r.diff)
                cell += f" ({sign}{_fmt(d, r.diff_se, r.kind)})"
            cells.append(cell)
        out_rows.append(cells)
    click.echo(format_table(headers, out_rows))


@click.command(context_settings=CONTEXT)
@click.option("--a", "config_a", metavar="BIDDER/POLICY",
              help="Configuration A (bidder ev|counting|counting-ev|win, policy standard|basic|greedy; "
              "default ev/standard; Tarneeb: counting/team).")  # fmt: skip
@click.option("--b", "config_b", metavar="BIDDER/POLICY",
              help="Configuration B (default counting/standard; Tarneeb: counting/greedy).")  # fmt: skip
@click.option("--matches", type=click.IntRange(1), default=20_000, show_default=True,
              help="Duplicate pairs: each deal sequence is played twice, seats swapped.")  # fmt: skip
@click.option("--deals", type=click.IntRange(1), default=None,
              help="Duplicate single hands instead of matches: the EV bots' bids, A's and B's card "
              "play; the way to measure pimc (policy pimc; A defaults to ev/pimc).")  # fmt: skip
@click.option("--layouts", type=click.IntRange(1, 4096), default=32, show_default=True,
              help="With --deals: pimc's layouts a decision (it stops early when one card is clearly best).")  # fmt: skip
@variant_options(games=True)
@run_options
@bidder_model_option
@json_option
def duel(
    config_a, config_b, matches, deals, layouts, variant, seed, threads, cap, scheduler, progress, bidder_model,
    as_json,
):  # fmt: skip
    """Duplicate matches between two bidder/policy configurations: A's win rate with a 95% CI.

    Every deal sequence is played twice with the partnerships' seats swapped, so the cards
    cancel out and what is left is the difference in bidding and play. With --deals, single hands
    on the EV bots' bids (or contracts), so that pimc, the strong player, can take a seat:
    `t400 duel --deals 300 --b ev/standard` is pimc against standard, points a hand.
    """
    show = (not as_json) if progress is None else progress
    if deals is not None:
        _duel_hands(config_a, config_b, deals, layouts, variant, seed, threads, scheduler, bidder_model, show, as_json)
        return
    clock = RunClock()
    with progress_bar("matches", 2 * matches, enabled=show) as update:
        game = registry.for_variant(variant)
        out = game.duel(config_a, config_b, matches, seed, variant, cap, threads, scheduler, update, bidder_model)
    out["elapsed_s"] = clock.elapsed_s()
    out["compile_s"] = clock.compile_s()
    if as_json:
        emit_json(out)
        return
    click.echo(f"Duel {out['a']} (A) vs {out['b']} (B), {out['variant']}: {out['pairs']:,} duplicate pairs "
               f"= {out['matches']:,} matches, seed {seed}, {out['elapsed_s']:.1f} s{clock.note()}")  # fmt: skip
    lo, hi = out["ci95"]
    click.echo(f"A's match win rate: {_pct(out['win_rate'])} (95% CI {_pct(lo)} - {_pct(hi)})")
    click.echo(f"Points per hand: A {out['points_per_hand']:.3f} ± {out['points_per_hand_se']:.3f}, "
               f"B {out['opponent_points_per_hand']:.3f} ± {out['opponent_points_per_hand_se']:.3f}; "
               f"A - B {out['margin_per_hand']:+.3f} ± {out['margin_per_hand_se']:.3f}")  # fmt: skip
    click.echo(f"Pairs won twice by A: {out['pairs_won_both']:,}; by B: {out['pairs_lost_both']:,}; "
               f"matches stopped at the cap: {out['cap_hits']:,}"
               + (f"; drawn: {out['draws']:,}" if game.has_draws else ""))  # fmt: skip



def _duel_hands(config_a, config_b, deals, layouts, variant, seed, threads, scheduler, bidder_model, show, as_json):
    """``t400 duel --deals``: single hands, in this process (pimc runs from Python); Ctrl-C ends
    with the result over the deals finished."""
    from analyzer.core.runtime import deferred_interrupt

    if scheduler:
        raise T400Error("--deals runs in this process: --scheduler is for duels of matches")
    if bidder_model:
        raise T400Error("--deals plays the shipped EV bots' bids: --bidder-model is for duels of matches")
    game = registry.for_variant(variant)
    clock = RunClock()
    with progress_bar("deals", deals, enabled=show) as update, deferred_interrupt() as stop:
        out = game.duel_hands(config_a, config_b, deals, seed, variant, layouts, threads, update, stop)
    out["elapsed_s"] = clock.elapsed_s()
    out["compile_s"] = clock.compile_s()
    if as_json:
        emit_json(out)
    else:
        click.echo(hands_duel_text(out, seed) + clock.note())
    if out["interrupted"]:
        raise Interrupted(f"interrupted after {out['deals']:,} of {out['deals_asked']:,} deals; "
                          "the result over them is printed above")  # fmt: skip


def hands_duel_text(out: dict, seed: int) -> str:
    """The answer of ``t400 duel --deals`` in words."""
    lo, hi = out["ci95"]
    lines = [f"Duel of hands {out['a']} (A) vs {out['b']} (B), {out['variant']}: {out['deals']:,} deals, each "
             f"played twice with the seats swapped (the EV bots' {out['reads']}), seed {seed}, {out['elapsed_s']:.1f} s",
             f"A - B: {out['margin_per_hand']:+.3f} ± {out['margin_per_hand_se']:.3f} points a hand "
             f"(95% CI {lo:+.3f} to {hi:+.3f})",
             f"Deals where A did better: {out['a_better']:,}; B: {out['b_better']:,}; the same: "
             f"{out['deals'] - out['a_better'] - out['b_better']:,}"]  # fmt: skip
    if out["pimc_decisions"]:
        lines.append(f"pimc: {out['pimc_decisions']:,} decisions, {out['pimc_layouts_per_decision']:.1f} layouts "
                     f"and {out['pimc_seconds_per_decision']:.2f} s a decision (at most {out['layouts']}); "
                     f"every layout fitted the {out['reads']} at {100 * out['layouts_fit']:.1f}% of them")  # fmt: skip
    return "\n".join(lines)

#: The commands of this module, as :mod:`commands` adds them to the group.
COMMANDS = (
    simulate,
    variants,
    duel,
)
