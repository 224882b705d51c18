"""Tools: ``t400 bench``, ``compile``, ``fit-bidder``, ``fit-lead``, ``fit-later-lead``, ``fit-follow``, ``equity``, ``report`` and ``serve``."""

from __future__ import annotations

import signal

import click

from analyzer.core import output
from analyzer.core.errors import T400Error
from analyzer.core.runtime import interrupt_at_once
from analyzer.games import registry
from commands.base import (
    CONTEXT,
    CommandError,
    FiniteFloat,
    cli,
    emit_json,
    equity_table_option,
    error_line,
    game_option,
    json_option,
    parse_int_list,
    progress_bar,
    run_json,
    variant_options,
)
from commands.files import outputs, wrote

# ---------------------------------------------------------------------------------------------
# t400 bench


@click.command(context_settings=CONTEXT)
@click.option("--seconds", type=FiniteFloat(0.05, 60), default=1.0, show_default=True,
              help="Length of each timed run.")  # fmt: skip
@click.option(
    "--repeats",
    type=click.IntRange(1, 50),
    default=3,
    show_default=True,
    help="Timed runs per figure (the median is shown).",
)
@click.option(
    "--cold/--no-cold",
    default=True,
    show_default=True,
    help="Also measure the cold compile time (a fresh process, empty cache).",
)
@json_option
def bench(seconds, repeats, cold, as_json):
    """Kernel throughput: deals/s, full hands/s (deal + bot bids + 52 cards) and complete
    matches/s, on 1 thread and on all.

    Compilation is excluded from the rates and reported separately.
    """
    from analyzer.bench import bench_text, run_bench

    with progress_bar("benchmarking", 1, enabled=not as_json) as update:
        result = run_bench(seconds=seconds, repeats=repeats, cold=cold, progress=update)
    if as_json:
        emit_json(result)
        return
    click.echo(bench_text(result))


# ---------------------------------------------------------------------------------------------
# t400 compile


@click.command("compile", context_settings=CONTEXT)
@click.argument("groups", nargs=-1)
@click.option("--check-budget", is_flag=True,
              help="Fail (exit status 1) when a group compiled more LLVM instructions than its budget "
                   "(analyzer/data/compile_budget.json); groups loaded from the disk cache are not judged.")
@click.option("--write-budget", is_flag=True,
              help="Record what was compiled as the new budget (from an empty kernel cache; needs --reason).")
@click.option("--reason", help="Why the budget changes (kept in the budget file's history).")
@json_option
def compile_kernels(groups, check_budget, write_budget, reason, as_json):  # fmt: skip
    """Compile the kernels of every main command now (in parallel processes), so that their
    first runs start at once, and say what each group compiled.

    GROUPS limits it to some commands' kernels (bid, bid_win, review, bid_dd, tarneeb_bid, play,
    solve, simulate, duel, simulate_tarneeb, duel_tarneeb, bench, card, card_tarneeb). A group
    compiles what its command runs with default options; another play policy, --continuations
    and the like compile their own kernels when first used. Kernels are cached on disk; this
    only saves the first run's compile time. From an empty cache each group's compile is counted
    in functions and LLVM instructions (the same on any machine), against the budget that
    --check-budget holds (docs/performance.md).
    """
    from analyzer.bench import WARM_UPS, compile_groups
    from analyzer.core import compiles

    unknown = [g for g in groups if g not in WARM_UPS]
    if unknown:
        raise T400Error(f"unknown kernel group {unknown[0]!r} (expected one of {', '.join(WARM_UPS)})")
    if (check_budget or write_budget) and groups:
        raise T400Error("the budget is of all groups compiled in their order: drop the GROUPS")
    if write_budget and not reason:
        raise T400Error("--write-budget needs --reason (kept with the budget)")
    budget = compiles.read_budget() if check_budget else None
    try:
        timing = compile_groups(only=groups or None)
    except RuntimeError as exc:
        raise CommandError(str(exc)) from None
    wall, seconds, compiled = timing["wall_s"], timing["groups_s"], timing["compiled"]
    if write_budget:
        if not compiles.cold(compiled):
            raise T400Error("--write-budget needs an empty kernel cache (NUMBA_CACHE_DIR=$(mktemp -d))")
        compiles.write_budget(compiled, seconds, reason)
        wrote(str(compiles.BUDGET_FILE))
    if as_json:
        emit_json({"wall_s": wall, "groups_s": seconds, "compiled": compiled})
    else:
        click.echo(
            f"kernels ready in {wall:.1f} s (" + ", ".join(f"{k} {v:.1f} s" for k, v in seconds.items()) + ")"
        )
        if compiles.cold(compiled):
            click.echo("compiled: " + ", ".join(
                f"{k} {c['functions']} functions, {c['instructions']:,} instructions" for k, c in compiled.items()))  # fmt: skip
    if budget is not None:
        over = compiles.over_budget(compiled, budget)
        if over:
            raise CommandError(
                "compile budget exceeded: " + "; ".join(over) + f" (raise it in {compiles.BUDGET_FILE.name} in the "
                "same commit, with the reason in CHANGELOG: t400 compile --write-budget --reason ...)"
            )
        if not compiles.cold(compiled):
            click.echo("compile budget not checked: every kernel came from the disk cache", err=True)


# ---------------------------------------------------------------------------------------------
# t400 fit-bidder


@click.command("fit-bidder", context_settings=CONTEXT)
@click.option(
    "--deals",
    type=click.IntRange(10_000),
    default=400_000,
    show_default=True,
    help="Simulated deals per iteration.",
)
@click.option(
    "--iterations",
    type=click.IntRange(1, 20),
    default=3,
    show_default=True,
    help="Fit, re-simulate with the fitted bidder, refit.",
)
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=2026, show_default=True)
@click.option("--threads", type=click.IntRange(1), help="Threads (default: all).")
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False),
    help="Where to write the model (default: the package's data file).",
)
@game_option(help_text="Whose EV bidder (default 400's; tarneeb: analyzer/data/tarneeb_bidder.npz).")
@json_option
def fit_bidder(deals, iterations, seed, threads, out_path, game, as_json):
    """Regenerate the EV bidder's trick model from rollouts (analyzer/data/bidder_model.npz, or
    with --game tarneeb analyzer/data/tarneeb_bidder.npz)."""
    if out_path:
        outputs(out=out_path)
    with progress_bar("fitting", iterations, enabled=not as_json) as update:
        model, default_path = registry.get(game).fit_bidder(deals, seed, iterations, threads, update)
    path = out_path or default_path
    model.save(path)
    wrote(path)
    if as_json:
        emit_json({"path": path, **model.meta})
        return
    last = model.meta["history"][-1]
    click.echo(f"wrote {path}: {model.meta['deals_per_iteration']:,} deals x {iterations} iterations, "
               f"rmse {last['rmse']:.3f} tricks, R^2 {last['r2']:.3f}")  # fmt: skip


def _write_weights(path: str, text: str, meta: dict, as_json: bool) -> str:
    """Write a generated weights module whole (a temporary file renamed), announce it, and with
    ``--json`` print its record; returns the path."""
    output.write_text(path, text)
    wrote(path)
    if as_json:
        emit_json({"path": path, **meta})
    return path


# ---------------------------------------------------------------------------------------------
# t400 fit-lead


@click.command("fit-lead", context_settings=CONTEXT)
@click.option("--deals", type=click.IntRange(100, 10**7), default=30_000, show_default=True,
              help="Live deals whose opening leads DDS scores (about 30 ms a deal on 2 cores).")  # fmt: skip
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=2026, show_default=True)
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False),
    help="Where to write the weights module (default: kernels/policies/lead_weights.py).",
)
@game_option(help_text="Whose opening leads (default 400's, the one game with a fitted opening lead).")
@json_option
def fit_lead(deals, seed, out_path, game, as_json):
    """Regenerate standard's opening-lead model from DDS scores of every opening lead of live
    deals (kernels/policies/lead_weights.py; needs the endplay package of the test extra)."""
    if out_path:
        outputs(out=out_path)
    with progress_bar("scoring leads", deals, enabled=not as_json) as update:
        model, default_path, source = registry.get(game).fit_opening_lead(deals, seed, update)
    path = _write_weights(out_path or default_path, source, model["meta"], as_json)
    if as_json:
        return
    meta = model["meta"]
    click.echo(f"wrote {path}: {deals:,} deals; held-out opening leads losing a partnership DD trick "
               f"{meta['held_out_losing_leads']:.1%} of {meta['held_out_deals']:,}")  # fmt: skip


# ---------------------------------------------------------------------------------------------
# t400 fit-later-lead


@click.command("fit-later-lead", context_settings=CONTEXT)
@game_option(help_text="Whose later leads: 400's players (default), or classic Tarneeb's partnerships in a contract.")
@click.option("--deals", type=click.IntRange(100, 10**7), default=100_000, show_default=True,
              help="Played deals whose later leads are replayed card by card (about 1 ms a deal on 2 cores).")  # fmt: skip
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=2026, show_default=True)
@click.option("--iterations", type=click.IntRange(1, 5), default=1, show_default=True,
              help="Steps of policy iteration: each step's deals are played on by the plan corrected by the "
              "previous step's model.")  # fmt: skip
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False),
    help="Where to write the weights module (default: kernels/policies/later_lead_weights.py, "
    "with --game tarneeb kernels/policies/team_lead_weights.py).",
)
@json_option
def fit_later_lead(game, deals, seed, iterations, out_path, as_json):
    """Regenerate the later-lead model from rollouts: every lead after the first of played deals
    replayed with each card held, valued in points when the plan plays on (400: standard's
    leads, kernels/policies/later_lead_weights.py; --game tarneeb: team's,
    kernels/policies/team_lead_weights.py); with --iterations N, N steps of policy iteration,
    each playing on with the plan corrected by the step before."""
    if out_path:
        outputs(out=out_path)
    with progress_bar("valuing leads", deals, enabled=not as_json) as update:
        model, default_path, source = registry.get(game).fit_later_lead(deals, seed, update, iterations)
    path = _write_weights(out_path or default_path, source, model["meta"], as_json)
    if as_json:
        return
    meta = model["meta"]
    click.echo(f"wrote {path}: {deals:,} deals; on {meta.get('held_out_deals', 0):,} held-out deals the model's "
               f"leads gain {meta.get('held_out_gain_per_deal', float('nan')):+.3f} +- "
               f"{meta.get('held_out_gain_se', float('nan')):.3f} points a deal over the plan's")  # fmt: skip


# ---------------------------------------------------------------------------------------------
# t400 fit-follow


@click.command("fit-follow", context_settings=CONTEXT)
@game_option(help_text="Whose play: 400's standard, or classic Tarneeb's partnerships in a contract (--game tarneeb).")
@click.option("--deals", type=click.IntRange(100, 2_000_000), default=1_000_000, show_default=True,
              help="Deals whose take-or-leave decisions are played out both ways (about 0.2 ms a deal "
              "on 2 cores; the fit holds every decision in memory, 3 to 4 MB a thousand deals).")  # fmt: skip
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=2026, show_default=True)
@click.option("--iterations", type=click.IntRange(1, 5), default=1, show_default=True,
              help="Steps of policy iteration: each step's deals are played with the previous step's model.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False),
              help="Where to write the weights module (default: kernels/policies/standard_follow_weights.py, "
              "or team_follow_weights.py for Tarneeb).")  # fmt: skip
@json_option
def fit_follow(game, deals, seed, iterations, out_path, as_json):
    """Regenerate the take-or-leave model of 400's standard (or Tarneeb's team) from rollouts: at
    every decision of the second and third hands (in 400 also the fourth) between taking the trick
    and leaving it (ruff or discard, win or duck), both options are played out by the player, and
    the difference in points fitted on public features for each kind, side and hand."""
    if out_path:
        outputs(out=out_path)
    with progress_bar("valuing follows", deals * iterations, enabled=not as_json) as update:
        model, default_path, source = registry.get(game).fit_follow(deals, seed, update, iterations)
    path = _write_weights(out_path or default_path, source, model["meta"], as_json)
    if as_json:
        return
    meta = model["meta"]
    gains = [f"{name.replace('_', ' ')} {meta[f'held_out_{key}_gain_per_deal']:+.3f} +- "
             f"{meta[f'held_out_{key}_gain_se']:.3f}"
             for key, name in (("declaring", "the declaring side"), ("defending", "the defenders"),
                               ("short", "a player short of its bid"), ("made", "one whose bid is made"))
             if f"held_out_{key}_gain_per_deal" in meta]  # fmt: skip
    click.echo(f"wrote {path}: {deals:,} deals; on {meta['held_out_deals']:,} held-out deals the model's choices "
               f"gain {' and '.join(gains)} points a deal")  # fmt: skip


# ---------------------------------------------------------------------------------------------
# t400 equity


@click.command(context_settings=CONTEXT)
@click.option("--scores", help="All four scores before the next hand, seat 1 first (seat 4 deals).")
@click.option(
    "--dealer", type=int, default=4, show_default=True, help="The seat (1..4) dealing the next hand."
)
@click.option("--simulate", "continuations", type=click.IntRange(1, 10**8),
              help="Also simulate this many rests of the match from the scores (P(win) with its SE).")  # fmt: skip
@click.option("--build", is_flag=True, help="Build the variant's match-equity table (--out; minutes).")
@click.option(
    "--hands", type=click.IntRange(1000, 10**8), help="--build: hands sampled per regime combination."
)
@click.option("--out", "out_path", type=click.Path(dir_okay=False),
              help="--build: where to write the table (default: the package's file for a preset).")  # fmt: skip
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True)
@click.option(
    "--threads", type=click.IntRange(1), help="Threads (default: all); the result does not depend on it."
)
@variant_options
@equity_table_option
@json_option
def equity(
    scores, dealer, continuations, build, hands, out_path, seed, threads, variant, equity_table, as_json
):
    """Match equity: P(the partnership of seats 1+3 wins the match) from the four scores.

    From the variant's match-equity table (interpolated between its grid scores), and with
    --simulate N from N simulated rests of the match (bots bid and play; with its SE).
    --build makes the table (value iteration over one hand's sampled outcomes).
    """
    game = registry.for_variant(variant)
    if build:
        path = out_path or game.equity_table_path(variant)
        if path is None:
            raise T400Error(f"variant '{variant.label}' has no shipped table: give --out FILE")
        outputs(out=path)
        with progress_bar("building", 1, enabled=not as_json) as update:
            data, text = game.build_equity(variant, hands, seed, threads, path, update)
        wrote(path)
    else:
        if scores is None:
            raise T400Error("--scores S1,S2,S3,S4 is needed (or --build)")
        if dealer not in (1, 2, 3, 4):
            raise T400Error(f"--dealer {dealer}: expected a seat 1..4")
        score_list = parse_int_list(scores, "--scores", game.score_count)
        with interrupt_at_once():
            data, text = game.equity(variant, score_list, dealer, equity_table, continuations, seed, threads)
    if as_json:
        emit_json(data)
        return
    click.echo(text)


# ---------------------------------------------------------------------------------------------

# ---------------------------------------------------------------------------------------------
# t400 report


@click.command(context_settings=CONTEXT)
@click.option("--out", "out", type=click.Path(file_okay=False),
              help="The report folder: new, empty or an earlier report (--force for any other); default "
                   "reports (400) or reports/tarneeb.")  # fmt: skip
@game_option(help_text="400's strategy report (default), or tarneeb: the classic and Egyptian Tarneeb report "
                       "(--out reports/tarneeb).")  # fmt: skip
@click.option("--samples", type=click.IntRange(1000),
              help="400: deals per seat and score bracket of the bidding guide (default 8,000,000); "
                   "Tarneeb: deals of the trick tables (default 400,000).")  # fmt: skip
@click.option("--matches", type=click.IntRange(1), default=200_000, show_default=True,
              help="Variants report: matches per variant (and duplicate pairs per duel).")  # fmt: skip
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True)
@click.option("--threads", type=click.IntRange(1), help="Kernel threads (default: all).")
@click.option("--scheduler", metavar="ADDRESS|local:N", help="Run the simulations on a Dask cluster.")
@click.option("--html", is_flag=True, help="Also write report.html: one page, figures embedded.")
@click.option("--resume", is_flag=True, help="Reuse the parts an interrupted run with the same sizes kept.")
@click.option("--force", is_flag=True,
              help="Write into a folder that holds other files (only the report's files are written).")  # fmt: skip
@click.option(
    "--progress/--no-progress", default=None, help="Progress bar on stderr (default: on a terminal)."
)
@json_option
def report(out, game, samples, matches, seed, threads, scheduler, html, resume, force, progress, as_json):
    """Write the strategy report: a bidding guide, a variants report and the method.

    Markdown with tables, PNG figures and CSV data in --out (default reports/), plus an
    index README.md stating the command and its run time.
    """
    from analyzer.reports.build import build_report, report_settings

    out, samples, command = report_settings(game, out, samples, matches, seed, html)
    show = (not as_json) if progress is None else progress
    with progress_bar("report", 1000, enabled=show) as update:

        def step(label, fraction):
            update(int(1000 * fraction))

        result = build_report(
            out, samples, matches, seed, scheduler, threads, html, command, step, resume, force, game
        )
        update(1000)
    if as_json:
        emit_json(result)
        return
    click.echo(
        f"wrote {result['out']}/ ({len(result['files'])} files) in {result['elapsed_s'] / 60:.1f} minutes"
    )


# ---------------------------------------------------------------------------------------------
# t400 serve


@click.command(context_settings=CONTEXT)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (the default answers this computer only).")  # fmt: skip
@click.option("--port", type=click.IntRange(0, 65535), default=8400, show_default=True,
              help="Port (0: any free port).")  # fmt: skip
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the default browser.")
@click.option("--queue", "queue_size", type=click.IntRange(0, 100), default=4, show_default=True,
              help="Requests that may wait for the analyzer while one runs; more are answered busy.")  # fmt: skip
@click.option("--max-seconds", type=FiniteFloat(1, 3600), default=120, show_default=True,
              help="Cap on one request's sampling time (compiling the kernels does not count).")  # fmt: skip
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="Another host name the page is reached by (with --host 0.0.0.0, say); the server "
                   "refuses requests for names it does not know, as a guard against DNS rebinding.")  # fmt: skip
def serve(host, port, open_browser, queue_size, max_seconds, allow_hosts):
    """A local page: pick a hand and see what to bid; score a round; read the rules.

    The same answers as JSON under /api/ (POST /api/bid, /api/score, /api/rules with the options
    of t400 bid/score/rules as a JSON object; the answer is the command's --json object).
    Needs the serve extra: pip install 'tarneeb400[serve]'.
    """
    try:
        import uvicorn  # noqa: F401

        from web import app as web_app
    except ImportError as exc:
        raise T400Error(f"t400 serve needs the serve extra ({exc.name} is missing): "
                        "pip install 'tarneeb400[serve]'") from None  # fmt: skip
    from web.guard import is_loopback

    sock = web_app.bind(host, port)
    api = web_app.Api(cli.commands, run_json, error_line)
    app = web_app.create_app(api, queue_size=queue_size, max_seconds=max_seconds, host=host,
                             allowed_hosts=tuple(allow_hosts))  # fmt: skip
    url = web_app.url_of(sock)
    click.echo(f"t400 serve: {url}  (Ctrl-C stops it)", err=True)
    if not is_loopback(host):
        click.echo(f"note: listening on {host}: other computers can reach this page", err=True)
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    # uvicorn stops gracefully on Ctrl-C and then re-raises the signal to the handler it found:
    # make that one quiet, so that stopping the server is not reported as an error
    signal.signal(signal.SIGINT, lambda signum, frame: None)
    web_app.server(app, sock).run(sockets=[sock])
    click.echo("t400 serve: stopped", err=True)


#: The commands of this module, as :mod:`commands` adds them to the group.
COMMANDS = (
    bench,
    compile_kernels,
    fit_bidder,
    fit_lead,
    fit_later_lead,
    fit_follow,
    equity,
    report,
    serve,
)
