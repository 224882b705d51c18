"""``t400 bid``: what to bid with a hand, in 400 or Tarneeb."""

from __future__ import annotations

import math

import click

import analyzer
from analyzer.core.errors import T400Error
from analyzer.core.fmt import pct as _pct
from analyzer.core.runtime import announce_compiles, interrupt_at_once
from commands.base import (
    CONTEXT,
    CardsCommand,
    bidder_model_option,
    compiled_note,
    emit_json,
    equity_table_option,
    format_table,
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
    if variant.game == "tarneeb":
        given = [name for name, value in (("--bids", earlier or None), ("--continuations", continuations or None),
                 ("--equity-table", equity_table), ("--bidder-model", bidder_model)) if value is not None]  # fmt: skip
        if given:
            raise T400Error(
                f"{given[0]} is an option of 400's bid; a Tarneeb auction is given with --auction"
            )
        if model == "dd" and policy is not None:
            raise T400Error("--policy plays the rollout's cards; --model dd plays double dummy")
        policy = policy or "team"
        totals = parse_int_list(scores, "--scores", 2) if scores is not None else [0, 0]
        announce_compiles("bid-tarneeb")
        _bid_tarneeb(hand, seat, auction, variant, model, policy, samples, seed, threads, infer, plot_path,
                     progress, as_json, totals, objective)  # fmt: skip
        return
    if auction is not None:
        raise T400Error("--auction is for a Tarneeb auction (--game tarneeb); 400 takes --bids")
    if policy == "team":
        raise T400Error(
            "--policy team plays Tarneeb's partnership contracts; 400's are standard, basic, greedy"
        )
    if model != "rollout" and policy is not None:
        raise T400Error(f"--policy plays the rollout's cards; --model {model} plays double dummy")
    policy = policy or "standard"
    scores = "0,0,0,0" if scores is None else scores
    from analyzer.games.t400.advice import (
        check_bid_inputs,
        check_continuations,
        choose_objective,
        recommend_bid,
    )

    if seat not in (1, 2, 3, 4):
        raise T400Error(f"--seat {seat}: expected 1..4 (1 bids first and leads, 4 deals)")
    if samples is not None and samples < 1:
        raise T400Error(f"--samples {samples}: expected at least 1")
    if threads is not None and threads < 1:
        raise T400Error(f"--threads {threads}: expected at least 1")
    if plot_path:
        check_writable(plot_path)
    score_list = parse_int_list(scores, "--scores", 4)
    earlier_bids = parse_int_list(earlier, "--bids") or []
    _, _, _, checked_variant = check_bid_inputs(hand, seat, score_list, earlier_bids, variant, model, samples)
    choose_objective(
        objective, checked_variant, score_list, model, equity_table, check_continuations(continuations)
    )
    if bidder_model is not None:  # a bad file is bad input: said before anything compiles
        from analyzer.games.t400.bidder import load_model

        load_model(bidder_model)
    show = (not as_json) if progress is None else progress
    if model != "rollout":
        announce_compiles("bid-dd")
    elif objective == "win":
        announce_compiles("bid-win")
    if model != "rollout":
        _dd_note(model, samples, threads)
    with progress_bar("sampling", 1, enabled=show) as update, interrupt_at_once():
        result = recommend_bid(
            hand, seat=seat, scores=score_list, bids=earlier_bids, variant=variant, model=model, policy=policy,
            samples=samples, seed=seed, threads=threads, infer=infer, progress=update, bidder_model=bidder_model,
            objective=objective, equity_table=equity_table, continuations=continuations,
        )  # fmt: skip
    if plot_path:
        from analyzer.reports.figures import plot_bid

        plot_bid(result, plot_path)
        wrote(plot_path)
    if as_json:
        emit_json(result.to_dict())
        return
    _print_bid(result, variant)


def _bid_tarneeb(
    hand, seat, auction, variant, model, policy, samples, seed, threads, infer, plot_path, progress, as_json,
    scores, objective,
):  # fmt: skip
    from analyzer.games.tarneeb.advice import MODELS, check_call_inputs, recommend_call
    from analyzer.games.tarneeb.equity import check_scores
    from analyzer.games.tarneeb.rules import MIN_BID as MIN_TARNEEB_BID

    calls = [c.strip() for c in auction.split(",") if c.strip()] if auction else []
    if samples is not None and samples < 1:
        raise T400Error(f"--samples {samples}: expected at least 1")
    if threads is not None and threads < 1:
        raise T400Error(f"--threads {threads}: expected at least 1")
    if model not in MODELS:
        raise T400Error(f"--model {model}: Tarneeb's models are {', '.join(MODELS)}")
    _, checked, _ = check_call_inputs(hand, seat, calls, variant)
    check_scores(checked, tuple(scores))
    if plot_path:
        check_writable(plot_path)
    from analyzer.games.tarneeb.advice import DEFAULT_SAMPLES, MAX_SAMPLES

    if samples is not None and samples > MAX_SAMPLES[model]:
        raise T400Error(f"--samples {samples}: at most {MAX_SAMPLES[model]:,} with --model {model}")
    if model == "dd":
        from analyzer.core.runtime import check_threads, dd_deals_per_second

        n = samples or DEFAULT_SAMPLES["dd"]
        rate = dd_deals_per_second("tarneeb-dd")
        seconds = n / (rate * check_threads(threads)) if rate else 0.0
        if seconds > 60:
            click.echo(f"note: at {rate:.2g} deals a second a thread (five or more full-deal solves each; "
                       f"measured by benchmarks/dd_rates.py), --model dd takes about {seconds / 60:.0f} minutes "
                       f"for {n:,} deals on {check_threads(threads)} thread(s)", err=True)  # fmt: skip
    show = (not as_json) if progress is None else progress
    with (
        progress_bar("solving" if model == "dd" else "sampling", 1, enabled=show) as update,
        interrupt_at_once(),
    ):
        r = recommend_call(hand, seat=seat, auction=calls, variant=variant, samples=samples, seed=seed,
                           threads=threads, infer=infer, policy=policy, model=model, scores=scores,
                           objective=objective, progress=update)  # fmt: skip
    if plot_path:
        from analyzer.reports.figures import plot_call

        plot_call(r, plot_path)
        wrote(plot_path)
    if as_json:
        emit_json(r.to_dict())
        return
    said = ", ".join(r.auction) if r.auction else "none yet"
    click.echo(f"Hand {r.hand}, seat {r.seat}, {r.variant}; calls so far: {said}")
    how = "double dummy" if r.model == "dd" else f"{policy} play"
    click.echo(f"{r.samples:,} sampled deals (effective {r.effective_samples:,.0f}), seed {r.seed}, EV bots, "
               f"{how}; {r.elapsed_s:.1f} s{compiled_note(r.compile_s)}")  # fmt: skip
    now = f"; your team's P(win) now {_pct(r.p_win_now)}" if r.p_win_now is not None else ""
    click.echo(f"Scores {r.scores[0]} (seats 1+3) - {r.scores[1]} (seats 2+4){now}")
    click.echo(f"Objective: {r.objective_note}\n")
    rows = []
    for letter, p in r.strains.items():
        mean, se = r.strain_means[letter]
        at_least = [sum(p[k:]) for k in range(MIN_TARNEEB_BID, 14)]
        rows.append([letter, f"{mean:.2f} ± {se:.2f}", *(_pct(x) for x in at_least)])
    click.echo("Your team's tricks if you declare (you lead):")
    click.echo(format_table(["strain", "mean", *(f">={k}" for k in range(MIN_TARNEEB_BID, 14))], rows) + "\n")
    rows = []
    for c in r.rows:
        mark = "*" if c.call == r.recommended else " "
        ends = _pct(c.p_ends, c.p_ends_se) if c.p_ends > 0 else "-"
        made = _pct(c.p_make, c.p_make_se) if c.p_ends > 0 else "-"
        win = [] if c.p_win is None else [_pct(c.p_win, c.p_win_se)]
        rows.append(
            [
                f"{mark}{c.call}",
                c.trump or "-",
                ends,
                made,
                _pct(c.p_declare),
                f"{c.ev:+.2f} ± {c.ev_se:.2f}",
                *win,
            ]
        )
    head = ["call", "trump", "ends as contract", "made", "team declares", "EV (points)"]
    click.echo(format_table(head + (["P(win match)"] if r.objective == "win" else []), rows))
    trump = f", naming {r.trump}" if r.trump else ""
    click.echo(f"\nRecommended: {r.recommended}{trump} (P(best) {_pct(r.p_best)})")
    _print_reasons(r.to_dict()["reasons"])
    for note in r.notes:
        click.echo(f"note: {note}")


def _dd_note(model: str, samples: int | None, threads: int | None) -> None:
    """Say, before a long double-dummy run, how long it takes and what its size buys."""
    from analyzer import config
    from analyzer.core.runtime import check_threads, dd_deals_per_second

    cfg = config.get()
    n = samples or (cfg.advice_dd_deals if model == "dd" else cfg.advice_solo_dd_deals)
    measured = dd_deals_per_second(model)
    if measured is None:
        return
    rate = measured * check_threads(threads)
    seconds = n / rate
    if seconds > 30:
        click.echo(f"note: at {measured:.2g} deals a second a thread (measured by benchmarks/dd_rates.py), "
                   f"--model {model} takes about {seconds / 60:.0f} minutes for {n:,} deals on "
                   f"{check_threads(threads)} thread(s) and gives each P(make) to within about "
                   f"±{50 / math.sqrt(n):.1f} percentage points (one SE)", err=True)  # fmt: skip


def _print_bid(r, variant) -> None:
    hand = analyzer.parse_hand(r.hand)
    roles = {1: "bids first and leads", 2: "bids second", 3: "bids third", 4: "deals and bids last"}
    click.echo(f"Hand {hand.to_symbols()}   seat {r.seat} ({roles[r.seat]})   "
               f"scores {'/'.join(map(str, r.scores))}   variant {r.variant}")  # fmt: skip
    if r.bids:
        click.echo(f"Earlier bids: {', '.join(f'seat {i + 1}: {b}' for i, b in enumerate(r.bids))}"
                   f"   (inference {'on' if r.infer else 'off'}; effective sample {r.effective_samples:,.0f})")  # fmt: skip
    model = {"rollout": "rollout, bots bid and all play " + r.policy, "solo-dd": "solo double dummy",
             "dd": "400 double dummy with the bids"}[r.model]  # fmt: skip
    compiled = compiled_note(r.compile_s)
    click.echo(f"Model: {model}; {r.samples:,} deal{'s' if r.samples != 1 else ''} (seed {r.seed}), {r.elapsed_s:.2f} s{compiled}"
               + ("" if r.target_met or r.model != "rollout" else "; precision target not reached (cap)"))  # fmt: skip
    click.echo(f"Objective: {r.objective_note}")
    if r.note:
        click.echo(f"Note: {r.note}")
    if r.warning:
        click.echo(f"Warning: {r.warning}")
    if r.tricks_bid == r.recommended:
        heading = f"Your tricks if you bid {r.recommended} (hands played)"
    else:
        heading = f"Your tricks if you bid {r.tricks_bid}, the least bid that plays (hands played)"
    spread = "" if r.tricks_mean_se != r.tricks_mean_se else f" ± {r.tricks_mean_se:.2f}"
    click.echo(f"\n{heading}: mean {r.tricks_mean:.2f}{spread}")
    ks = [k for k in range(14) if r.tricks[k] == r.tricks[k] and r.tricks[k] >= 0.0005]
    click.echo(format_table(["tricks", *ks], [["P", *(f"{100 * r.tricks[k]:.1f}%" for k in ks)]]))
    click.echo("")
    rows = []
    win = r.objective == "win"
    for row in r.rows:
        mark = "*" if row.bid == r.recommended else ""
        rows.append([f"{mark}{row.bid}", row.value, _pct(row.p_make, row.p_make_se), _pct(row.p_dead, None),
                     f"{row.ev:+.2f} ± {row.ev_se:.2f}", *([_pct(row.p_win, row.p_win_se, 2)] if win else []),
                     _pct(row.p_best, None, 0)])  # fmt: skip
    heads = [
        "bid",
        "value",
        "P(make)",
        "P(dead)",
        "EV (points)",
        *(["P(win match)"] if win else []),
        "P(best)",
    ]
    click.echo(format_table(heads, rows, align="r" * len(heads)))
    killers = r.killing_bids
    if killers:
        playing = [row.bid for row in r.rows if row.bid not in killers]
        span = f"{killers[0]}" if len(killers) == 1 else f"{killers[0]}-{killers[-1]}"
        least = f"; {playing[0]} is the least that plays" if playing else ""
        click.echo(f"\nBid{'s' if len(killers) > 1 else ''} {span} kill{'' if len(killers) > 1 else 's'} the hand"
                   f" (the total stays short of the table minimum){least}.")  # fmt: skip
    tied = r.tied
    best = r.row(r.recommended)
    line = f"\nRecommended: bid {r.recommended} (" + (
        f"P(win the match) {100 * best.p_win:.2f}%" if win else f"EV {best.ev:+.2f}"
    )
    if len(tied) > 1:
        line += f"; bids {', '.join(map(str, tied))} tie, the lowest is shown"
    elif r.warning:
        line += "; too uncertain to say how likely it is the best"
    else:
        line += f"; best with probability {100 * r.p_best:.0f}%"
        if r.runner_up is not None:
            if win:
                line += (f"; {100 * r.margin:+.2f} ± {100 * r.margin_se:.2f} percentage points of P(win) "
                         f"over bidding {r.runner_up}")  # fmt: skip
            else:
                line += f"; {r.margin:+.2f} ± {r.margin_se:.2f} points over bidding {r.runner_up}"
    click.echo(line + ")")
    _print_reasons(r.to_dict()["reasons"])


def _print_reasons(reasons) -> None:
    """The reasons under a recommendation (the numbers the analysis already has, in words)."""
    for item in reasons:
        click.echo(f"Why: {item['text']}")


#: The commands of this module, as :mod:`commands` adds them to the group.
COMMANDS = (bid,)
