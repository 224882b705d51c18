"""``t400 review``: was each bid right, and which card cost the side? A played hand of either
game from a hand record (docs/review.md)."""

from __future__ import annotations

import click

from analyzer.core import jsonfile
from analyzer.core.errors import T400Error
from analyzer.core.notation import Card
from analyzer.core.records import MAX_RECORDS_BYTES, card_words
from analyzer.core.runtime import announce_compiles
from analyzer.games import registry
from commands.base import CONTEXT, RunClock, emit_json, format_table, json_option, progress_bar


def read_text(path: str) -> str:
    """The text of file ``path`` ('-': stdin), refused before reading when larger than records
    can be; or one error line."""
    return jsonfile.read_text(path, "record file", max_bytes=MAX_RECORDS_BYTES)


@click.command(context_settings=CONTEXT)
@click.argument("record", required=False)
@click.option(
    "--file",
    "path",
    help="Review a batch: a file of records (JSON, JSON lines or text lines; '-' for stdin).",
)
@click.option(
    "--samples",
    type=click.IntRange(1, 400_000),
    help="Deals each bid's (or call's) analysis samples (default: as t400 bid).",
)
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True)
@click.option(
    "--threads", type=click.IntRange(1), help="Threads (default: all); the result does not depend on it."
)
@click.option("--layouts", type=click.IntRange(0, 4096),
              help="pimc's layouts for each card's decision cost (default 16; 0: double-dummy costs only).")  # fmt: skip
@click.option(
    "--progress/--no-progress", default=None, help="A progress bar on stderr (default: on a terminal)."
)
@json_option
def review(record, path, samples, seed, threads, layouts, progress, as_json):
    """Review a played hand: each bid (or call) against the analyzer's answer for that player,
    and each card against double dummy (all cards seen) and against pimc from the player's seat
    (what they could see): a mistake, or bad luck.

    RECORD is one hand record in the text form (game 400; variant dananeer; scores 0,0,0,0;
    deal ...; bids 3,6,2,2; play SA S9 ...) or JSON; --file reviews a batch such as a whole
    match. t400 play --record FILE writes records of the bots' play. Every record is checked
    before any work: a bad one is one Error line naming its line and field.
    """
    if (record is None) == (path is None):
        raise T400Error("give one RECORD, or --file PATH with the records")
    records = registry.read_records(read_text(path) if path is not None else record)
    for r in records:
        registry.get(r.game).check_record(r)
    announce_compiles("review")
    show = (not as_json) if progress is None else progress
    clock = RunClock()
    out = []
    with progress_bar("hands", len(records), enabled=show and len(records) > 1) as update:
        for n, r in enumerate(records):
            out.append(registry.get(r.game).review(r, samples=samples, seed=seed, threads=threads, layouts=layouts))
            update(n + 1, len(records))
    if as_json:
        emit_json(out if path is not None else out[0])
        return
    for n, (r, rev) in enumerate(zip(records, out)):
        if len(records) > 1:
            click.echo(f"{'' if n == 0 else chr(10)}line {r.line}:")
        _print_review(rev)
    if len(records) > 1:
        click.echo(f"\n{len(records)} hands reviewed in {clock.elapsed_s():.1f} s")


def _loss(value: float, se: float, objective: str) -> str:
    if objective == "win":
        return f"{100 * value:.2f} ± {100 * se:.2f} pp of P(win)"
    return f"{value:.2f} ± {se:.2f} points"


def _print_review(rev: dict) -> None:
    game = registry.get(rev["game"])
    rec = rev["record"]
    scores = "/".join(map(str, rec["scores"]))
    click.echo(f"Review of a {game.title} hand ({rev['variant']}), scores {scores}, "
               f"seed {rev['seed']}; {rev['elapsed_s']:.1f} s")  # fmt: skip
    click.echo(f"Deal: {rec['deal']}")
    click.echo(game.review_auction_text(rev, _loss))
    unit, value = game.review_unit, game.review_value
    if rev["cards"]:
        judged = "verdict" in rev["cards"][0]
        shown = [c for c in rev["cards"] if c["cost"] > 0 or c.get("verdict") == "mistake"]
        click.echo(f"\nPlay ({len(rev['cards'])} cards; double dummy: {value} under best play"
                   + (f"; decision: pimc from the player's seat, {unit} of the player's side" if judged else "") + "):")
        if not shown:
            click.echo("No card cost anything: every card kept the best value"
                       + (", and none was a mistake from its player's seat." if judged else "."))
        else:
            rows = []
            for c in shown:
                row = [c["trick"], c["seat"], Card.parse(c["card"]).symbol, c["value_before"], c["value_after"],
                       f"{c['cost']} {unit}", " ".join(Card.parse(x).symbol for x in c.get("better", [])) or "-"]
                if judged:
                    best = " ".join(Card.parse(x).symbol for x in c["pimc_best"]) or "-"
                    row += [f"{c['decision_cost']:.2f} ± {c['decision_cost_se']:.2f}", best, c["verdict"]]
                rows.append(row)
            head = ["trick", "seat", "card", "before", "after", "DD cost", "better cards"]
            if judged:
                head += ["decision cost", "pimc's best", "verdict"]
            click.echo(format_table(head, rows))
    elif rev.get("dead"):
        click.echo("\nThe bids miss the table minimum: the hand is thrown in, no card is played.")
    click.echo("\nPer player:")
    rows = []
    for p in rev["summary"]["players"]:
        first = p["first_costly"]
        first_text = (
            "-"
            if first is None
            else f"trick {first['trick']}: {card_words(Card.parse(first['card']))} ({first['cost']})"
        )
        extra = [f"{p['mistakes']} / {p['bad_luck']}"] if "verdict" in (rev["cards"] or [{}])[0] else []
        rows.append([p["seat"], game.review_verdict(p), p["costly_cards"], p["play_loss"], *extra, first_text])
    head = ["seat", game.review_verdict_head, "costly cards", f"{unit} lost"]
    click.echo(format_table(head + (["mistakes / bad luck"] if extra else []) + ["first costly card"], rows))
    teams = "; ".join(f"seats {t['seats'][0]}+{t['seats'][1]} lost {t['play_loss']} {unit} in the play"
                      for t in rev["summary"]["teams"])  # fmt: skip
    click.echo(f"Partnerships: {teams}.")
    result = rev["result"]
    if result is not None:
        deltas = " ".join(f"{d:+d}" for d in result["deltas"])
        after = "/".join(map(str, result["scores"]))
        winner = result.get("winner")
        end = f"; seats {winner[0]}+{winner[1]} win the match" if winner else ""
        click.echo(f"Result by the rules: {deltas} -> scores {after}{end}")
    if rev["cards"]:
        click.echo(f"note: {rev['note']}")
    if rev.get("decision_note"):
        click.echo(f"note: {rev['decision_note']}")


#: The commands of this module, as :mod:`commands` adds them to the group.
COMMANDS = (review,)
