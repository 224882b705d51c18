"""Matches: ``t400 simulate``, ``t400 variants`` and ``t400 duel``, with their shared options and printers."""

from __future__ import annotations

import math

import click

from analyzer.core.errors import T400Error
from analyzer.core.fmt import pct as _pct
from analyzer.core.runtime import announce_compiles
from analyzer.core.tables import TableWriter
from analyzer.games.t400 import rules as rules_mod
from commands.base import (
    CONTEXT,
    RunClock,
    bidder_model_option,
    emit_json,
    format_table,
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


def _digits_for(se, low: int, high: int) -> int:
    """Decimals that show a standard error ``se`` to one significant digit, within low..high."""
    if se is None or se != se or se <= 0:
        return low
    return int(min(high, max(low, math.ceil(-math.log10(se)))))


def _fmt(value, se=None, kind="mean", digits=None):
    """``value ± se``, as a percentage for rates, with as many decimals as the SE warrants."""
    if value is None or value != value:
        return "-"
    if kind == "rate":
        return _pct(
            value, se, digits if digits is not None else _digits_for(None if se is None else 100 * se, 1, 3)
        )
    digits = digits if digits is not None else _digits_for(se, 2, 4)
    text = f"{value:.{digits}f}"
    if se is not None and se == se:
        text += f" ± {se:.{digits}f}"
    return text


def _summary_table(summary: dict):
    """A tidy (section, key, value, se, low, high) table of a simulate summary."""
    import pandas as pd

    rows = [("run", "matches", summary["matches"], None, None, None)]
    h = summary["hands_per_match"]
    rows.append(("hands_per_match", "mean", h["mean"], h["se"], None, None))
    rows += [("hands_per_match", k, v, None, None, None) for k, v in h["percentiles"].items()]
    rows.append(("hands_per_match", "max", h["max"], None, None, None))
    rows += [("hands_per_match_distribution", k, v, None, None, None) for k, v in h["distribution"].items()]
    for name, m in summary["metrics"].items():
        rows.append(("metric", name, m["value"], m["se"], None, None))
    rows += [("bid_share", k, v, None, None, None) for k, v in summary["bid_distribution"].items()]
    rows += [
        ("make_rate_by_bid", k, v["rate"], v["se"], None, None)
        for k, v in summary["make_rate_by_bid"].items()
    ]
    w = summary["first_partnership_win"]
    rows.append(("first_partnership_win", "rate", w["rate"], None, *w["ci95"]))
    rows += [("ending_share", k, v["share"], None, None, None) for k, v in summary["endings"].items()]
    rows += [
        ("mean_final_score", k, v["mean"], v["se"], None, None)
        for k, v in summary["mean_final_scores"].items()
    ]
    return pd.DataFrame(rows, columns=["section", "key", "value", "se", "low", "high"])


def _print_summary(s: dict, lineup, seed: int, elapsed: float, compiled: str = "") -> None:
    v = lineup.variant
    click.echo(f"Variant {v.label}: target {v.target}, table minimum {v.table_min}"
               f"{' rising' if v.table_min_rises else ' fixed'}, {v.score_table} table, tie-break {v.tie_break}, "
               f"redeal {v.redeal}")  # fmt: skip
    click.echo(f"Bots: bidders {'/'.join(lineup.bidders)}, play {'/'.join(lineup.policies)} (players 1-4); "
               f"{s['matches']:,} matches, seed {seed}, cap {lineup.cap} deals, {elapsed:.1f} s{compiled}")  # fmt: skip
    h = s["hands_per_match"]
    p = h["percentiles"]
    click.echo(f"\nHands per match: mean {h['mean']:.2f} ± {h['se']:.2f}; 5/25/50/75/95%: "
               f"{p['p5']:g}/{p['p25']:g}/{p['p50']:g}/{p['p75']:g}/{p['p95']:g}; longest {h['max']}")  # fmt: skip
    click.echo(f"Dead hands: {_fmt(s['dead_rate']['value'], s['dead_rate']['se'], 'rate')} of deals "
               f"({s['deals_per_match']:.2f} deals per match)")  # fmt: skip
    w = s["first_partnership_win"]
    click.echo(f"First-bidding partnership (players 1+3) wins: {_pct(w['rate'])} "
               f"(95% CI {_pct(w['ci95'][0])} - {_pct(w['ci95'][1])})")  # fmt: skip
    click.echo("Match endings: " + ", ".join(
        f"{k} {_pct(e['share'])}" for k, e in s["endings"].items() if e["matches"] or k == "cap"))  # fmt: skip
    sc = s["mean_final_scores"]
    click.echo("Mean final scores: " + ", ".join(
        f"player {k[-1]} {_fmt(m['mean'], m['se'])}" for k, m in sc.items()))  # fmt: skip
    click.echo(f"Bids: mean {_fmt(s['mean_bid']['value'], s['mean_bid']['se'])}; "
               f"made {_fmt(s['make_rate']['value'], s['make_rate']['se'], 'rate')} overall\n")  # fmt: skip
    rows = []
    for k, share in s["bid_distribution"].items():
        m = s["make_rate_by_bid"].get(k)
        if not share and not m:
            continue
        rows.append([k, f"{m['bids'] if m else 0:,}", _pct(share, digits=2),
                     _fmt(m["rate"], m["se"], "rate") if m else "-"])  # fmt: skip
    click.echo(format_table(["bid", "bids", "share", "made"], rows))


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
    am, lineup = _match_lineup(variant, bidder, policy, cap, bidder_model)
    tarneeb = variant.game == "tarneeb"
    if tarneeb:
        announce_compiles("simulate-tarneeb")
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
            summary, run = am.simulate_summary(lineup, matches, seed, threads, scheduler, keep, resume,
                                               progress=update, **writers)  # fmt: skip
        for path, writer in zip((hands_path, matches_path), (writers.get("hands"), writers.get("per_match"))):
            if writer is not None:
                writer.close()
                wrote(path)
    except BaseException:
        for writer in writers.values():
            writer.abort()
        raise
    elapsed = clock.elapsed_s()
    table_of = _tarneeb_summary_table if tarneeb else _summary_table
    if "csv" in outs:
        write_table(table_of(summary), csv_path, "csv")
    if "parquet" in outs:
        write_table(table_of(summary), parquet_path, "parquet")
    run.done()
    if as_json:
        emit_json({"game": variant.game, "variant": lineup.variant.label, "switches": lineup.variant.switches,
                   "seed": seed, "bidders": list(lineup.bidders), "policies": list(lineup.policies), "cap": cap,
                   **summary, "elapsed_s": elapsed, "compile_s": clock.compile_s()})  # fmt: skip
        return
    (_print_tarneeb_summary if tarneeb else _print_summary)(summary, lineup, seed, elapsed, clock.note())


def _parse_game_spec(text: str, game: str | None):
    """A variant of either game from ``NAME[:switch=value,...]`` (the preset's name says the game)."""
    from analyzer.games.tarneeb.rules import PRESETS as TARNEEB_PRESETS
    from analyzer.games.tarneeb.rules import TarneebVariant

    name = str(text).strip().partition(":")[0].strip().lower()
    is_tarneeb = name in TARNEEB_PRESETS
    if game is not None and (game == "tarneeb") != is_tarneeb:
        raise T400Error(
            f"variant {text!r}: not a {'Tarneeb' if game == 'tarneeb' else '400'} preset (--game {game})"
        )
    return TarneebVariant.parse_spec(text) if is_tarneeb else rules_mod.parse_variant_spec(text)


def _match_lineup(variant, bidder, policy, cap, bidder_model=None):
    """The match module of the variant's game and its lineup (each game's default bots)."""
    if variant.game == "tarneeb":
        from analyzer.games.tarneeb import matches as tm

        if bidder_model:
            raise T400Error("--bidder-model is the model of 400's EV bidder; Tarneeb's bots do not use it")
        return tm, tm.TarneebLineup.make(
            variant, bidder or tm.DEFAULT_BIDDER, policy or tm.DEFAULT_POLICY, cap
        )
    from analyzer.games.t400 import matches as am

    return am, am.Lineup.make(variant, bidder or "ev", policy or "standard", cap, bidder_model)


def _tarneeb_summary_table(summary: dict):
    """A tidy (section, key, value, se, low, high) table of a Tarneeb simulate summary."""
    import pandas as pd

    h = summary["hands_per_match"]
    rows = [("run", "matches", summary["matches"], None, None, None),
            ("hands_per_match", "mean", h["mean"], h["se"], None, None)]  # fmt: skip
    rows += [("hands_per_match", k, v, None, None, None) for k, v in h["percentiles"].items()]
    rows += [("metric", name, m["value"], m["se"], None, None) for name, m in summary["metrics"].items()]
    rows += [("contract_share", k, v, None, None, None) for k, v in summary["contract_distribution"].items()]
    rows += [("make_rate_by_contract", k, v["rate"], v["se"], None, None)
             for k, v in summary["make_rate_by_contract"].items()]  # fmt: skip
    w = summary["first_team_win"]
    rows.append(("first_team_win", "rate", w["rate"], None, *w["ci95"]))
    rows += [
        ("mean_final_score", k, v["mean"], v["se"], None, None)
        for k, v in summary["mean_final_scores"].items()
    ]
    return pd.DataFrame(rows, columns=["section", "key", "value", "se", "low", "high"])


def _print_tarneeb_summary(s: dict, lineup, seed: int, elapsed: float, compiled: str = "") -> None:
    v = lineup.variant
    click.echo(f"Tarneeb variant {v.label}: {v.auction} auction, target {v.target}, all pass: {v.all_pass}, "
               f"no-trump {'allowed' if v.no_trump else 'not allowed'}")  # fmt: skip
    click.echo(f"Bots: bidders {'/'.join(lineup.bidders)}, play {'/'.join(lineup.policies)} (players 1-4); "
               f"{s['matches']:,} matches, seed {seed}, cap {lineup.cap} deals, {elapsed:.1f} s{compiled}")  # fmt: skip
    h, m = s["hands_per_match"], s["metrics"]
    p = h["percentiles"]
    click.echo(f"\nHands per match: mean {h['mean']:.2f} ± {h['se']:.2f}; 5/25/50/75/95%: "
               f"{p['p5']:g}/{p['p25']:g}/{p['p50']:g}/{p['p75']:g}/{p['p95']:g}; longest {h['max']}")  # fmt: skip
    w = s["first_team_win"]
    click.echo(f"First-speaking team (players 1+3) wins: {_pct(w['rate'])} "
               f"(95% CI {_pct(w['ci95'][0])} - {_pct(w['ci95'][1])}); draws {s['draws']:,}, "
               f"stopped at the cap {s['cap_hits']:,}")  # fmt: skip
    rows = [
        [name, _fmt(x["value"], x["se"], x["kind"])] for name, x in m.items() if name != "hands per match"
    ]
    click.echo(format_table(["", "value ± SE"], rows) + "\n")
    rows = []
    for k, share in s["contract_distribution"].items():
        c = s["make_rate_by_contract"].get(k)
        if c:
            rows.append([k, f"{c['contracts']:,}", _pct(share, digits=2), _fmt(c["rate"], c["se"], "rate")])
    click.echo(format_table(["contract", "hands", "share", "made"], rows))


@click.command(context_settings=CONTEXT)
@click.argument("specs", nargs=-1, required=True, metavar="NAME_OR_SPEC...")
@click.option("--matches", type=click.IntRange(1), default=10_000, show_default=True,
              help="Matches per variant (the same deals for every variant).")  # fmt: skip
@click.option("--game", type=click.Choice(["400", "tarneeb"]),
              help="400 (default) or tarneeb (default when the first variant is a Tarneeb preset).")  # fmt: skip
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
    games = {v.game for v in chosen}
    if len(games) > 1:
        raise T400Error("the variants compared must all be of one game (400 or Tarneeb)")
    pairs = [_match_lineup(v, bidder, policy, cap, bidder_model) for v in chosen]
    am, lineups = pairs[0][0], [lu for _, lu in pairs]
    stats = am.compare_stats([lu.variant.label for lu in lineups])
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
        from analyzer.reports.figures import plot_variants

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
@variant_options(games=True)
@run_options
@bidder_model_option
@json_option
def duel(
    config_a, config_b, matches, variant, seed, threads, cap, scheduler, progress, bidder_model, as_json
):
    """Duplicate matches between two bidder/policy configurations: A's win rate with a 95% CI.

    Every deal sequence is played twice with the partnerships' seats swapped, so the cards
    cancel out and what is left is the difference in bidding and play.
    """
    show = (not as_json) if progress is None else progress
    clock = RunClock()
    with progress_bar("matches", 2 * matches, enabled=show) as update:
        if variant.game == "tarneeb":
            from analyzer.games.tarneeb import matches as tm

            if bidder_model:
                raise T400Error(
                    "--bidder-model is the model of 400's EV bidder; Tarneeb's bots do not use it"
                )
            out = tm.duel(config_a or "counting/team", config_b or "counting/greedy", matches, seed, variant, cap,
                          threads, scheduler, update)  # fmt: skip
        else:
            from analyzer.games.t400 import matches as am

            out = am.duel(config_a or "ev/standard", config_b or "counting/standard", matches, seed, variant, cap,
                          threads, scheduler, update, bidder_model)  # fmt: skip
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
               + (f"; drawn: {out['draws']:,}" if out.get("game") == "tarneeb" else ""))  # fmt: skip


#: The commands of this module, as :mod:`commands` adds them to the group.
COMMANDS = (
    simulate,
    variants,
    duel,
)
