"""The ``t400`` command line: a thin click layer over the ``analyzer`` API.

Every command reports bad input as one line ``Error: ...`` on stderr with exit status 2.
"""

from __future__ import annotations

import os
import signal
import sys


def _interrupted_while_starting(signum, frame):
    sys.stderr.write("Error: interrupted\n")
    os._exit(130)


# Ctrl-C while the libraries load (a second or so) ends the command like Ctrl-C anywhere else;
# main() then installs the full policy. Not under pytest, whose own Ctrl-C handling stays.
if "pytest" not in sys.modules:
    signal.signal(signal.SIGINT, _interrupted_while_starting)

import contextlib  # noqa: E402
import functools  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import re  # noqa: E402
import time  # noqa: E402

import click  # noqa: E402

import analyzer  # noqa: E402
from analyzer.core.errors import Interrupted, T400Error  # noqa: E402
from analyzer.core.fmt import pct as _pct  # noqa: E402
from analyzer.core.runtime import COMPILE_CLOCK, announce_compiles, exit_on_interrupt, interrupt_at_once  # noqa: E402
from analyzer.core.tables import TableWriter  # noqa: E402
from analyzer.games.t400 import rules as rules_mod  # noqa: E402

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class CommandError(click.ClickException):
    """A failure that is not bad input (for example an unreachable cluster): exit status 1."""

    exit_code = 1


def _one_line(message: str) -> str:
    """``message`` on one line, each very long word (a pasted value) cut short."""
    return " ".join(
        w if len(w) <= 120 else f"{w[:100]}...({len(w):,} characters)" for w in str(message).split()
    )


class FiniteFloat(click.FloatRange):
    """A float option within bounds, and a number (click's range lets NaN through every bound)."""

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a number in the range {self._describe_range()}.", param, ctx)
        return number


class RunClock:
    """A run's wall time without the seconds Numba spent compiling in it, and those seconds
    (a first run's compile is reported apart, never as the run's own time)."""

    def __init__(self):
        self.start = time.perf_counter()
        self.compiled = COMPILE_CLOCK.seconds()

    def compile_s(self) -> float:
        return COMPILE_CLOCK.seconds() - self.compiled

    def elapsed_s(self) -> float:
        return time.perf_counter() - self.start - self.compile_s()

    def note(self) -> str:
        return compiled_note(self.compile_s())


def compiled_note(compile_s: float) -> str:
    """What a run's time line adds when it compiled kernels (nothing under a second)."""
    return f" (and {compile_s:.0f} s compiling the kernels, first run only)" if compile_s >= 1 else ""


class T400Group(click.Group):
    """A click group that turns every error into a one-line ``Error: ...`` and an exit status."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            with exit_on_interrupt():
                super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:
            click.echo(exc.ctx.get_help())
            sys.exit(0)
        except (click.ClickException, T400Error, Interrupted) as exc:
            click.echo(f"Error: {error_line(exc)}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Error: aborted", err=True)
            sys.exit(1)
        except KeyboardInterrupt:
            click.echo("Error: interrupted", err=True)
            sys.exit(130)
        except BrokenPipeError:
            sys.exit(0)
        sys.exit(0)


_SCALAR_LIST = re.compile(r"\[[^\[\]{}]*\]")


def strict(data):
    """``data`` with every NaN or infinite float replaced by ``None`` (JSON ``null``: "no value",
    for example the standard error of a figure measured on no hand)."""
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {k: strict(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [strict(v) for v in data]
    if hasattr(data, "item") and callable(data.item) and getattr(data, "ndim", 1) == 0:
        return strict(data.item())
    return data


def to_json(data) -> str:
    """Indented, strict JSON (no NaN or Infinity: ``null``) with lists of scalars on one line."""
    text = json.dumps(strict(data), indent=2, ensure_ascii=False, allow_nan=False)
    return _SCALAR_LIST.sub(
        lambda m: " ".join(m.group(0).split()).replace("[ ", "[").replace(" ]", "]"), text
    )


class ApiCall:
    """A command run for the JSON API (``t400 serve``): set as the click context's ``obj``, it
    takes the ``--json`` object instead of stdout and the progress instead of a progress bar."""

    def __init__(self, progress=None):
        self.progress = progress
        self.result = None


def _api_call() -> ApiCall | None:
    ctx = click.get_current_context(silent=True)
    obj = ctx.find_object(ApiCall) if ctx is not None else None
    return obj


def emit_json(data) -> None:
    call = _api_call()
    if call is not None:
        call.result = strict(data)
        return
    click.echo(to_json(data))


def error_line(exc: BaseException) -> str:
    """The one line the CLI prints after ``Error: `` for ``exc`` (the API answers the same)."""
    if isinstance(exc, click.ClickException):
        return _one_line(exc.format_message())
    return _one_line(exc)


def run_json(name: str, args: list[str], progress=None) -> dict:
    """Run ``t400 NAME ARGS --json`` and return its JSON object (not printed): the JSON API's
    one way into the commands, so the API and the CLI parse, check and answer alike. Bad input
    raises ``click.ClickException`` or ``T400Error`` (:func:`error_line` gives the message)."""
    command = cli.commands[name]
    call = ApiCall(progress)
    with command.make_context(name, ["--json", *args], obj=call) as ctx:
        command.invoke(ctx)
    return call.result


def bidder_model_option(f):
    """``--bidder-model PATH``: the EV bidder's trick model, as ``t400 fit-bidder --out`` writes it."""
    return click.option(
        "--bidder-model", "bidder_model", metavar="PATH", type=click.Path(dir_okay=False),
        help="EV bidder model file (t400 fit-bidder --out; default: the shipped model).",
    )(f)  # fmt: skip


def equity_table_option(f):
    """``--equity-table PATH``: a match-equity table, as ``t400 equity --build --out`` writes it."""
    return click.option(
        "--equity-table", "equity_table", metavar="PATH", type=click.Path(dir_okay=False),
        help="Match-equity table file (t400 equity --build --out; default: the variant's shipped table).",
    )(f)  # fmt: skip


def json_option(f):
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")(f)


_SWITCHES_400 = ("table_min", "fixed_table_min", "fixed_min_bid", "score_table", "tie_break", "redeal")
_SWITCHES_TARNEEB = ("one_bid_each", "forced_dealer_bid", "trump_lead", "worthless_redeal", "no_trump")
_OPTION_NAMES = {
    "fixed_table_min": "--fixed-table-min/--rising-table-min",
    "fixed_min_bid": "--fixed-min-bid/--rising-min-bid",
    "no_trump": "--no-trump/--no-no-trump",
}


def variant_options(f=None, *, games: bool = False):
    """The variant switches every command that takes a variant shares. ``games=True``: also
    ``--game 400|tarneeb`` and the Tarneeb switches, and the variant may be a Tarneeb one."""
    if f is None:
        return functools.partial(variant_options, games=games)
    presets = "dananeer (default), qahwa, syrian41" + (
        "; Tarneeb: tarneeb (default), tarneeb-dananeer, egyptian" if games else ""
    )
    options = [
        click.option("--variant", "variant_name", metavar="NAME", help=f"Preset: {presets}."),
        click.option("--target", type=int, help="Points a partner must reach (31, 41, 61, ...)."),
        click.option(
            "--table-min", type=int, help="Table-minimum base: least total of the four bids (11, 12, 13)."
        ),
        click.option(
            "--fixed-table-min/--rising-table-min",
            default=None,
            help="Keep the table minimum at its base, or raise it by one at 30, 40 and 50.",
        ),
        click.option(
            "--fixed-min-bid/--rising-min-bid",
            default=None,
            help="Keep every player's minimum bid at 2, or raise it to 3/4/5 at 30/40/50.",
        ),
        click.option("--score-table", type=click.Choice(rules_mod.SCORE_TABLES), help="Value table."),
        click.option(
            "--tie-break", type=click.Choice(rules_mod.TIE_BREAKS), help="When both partnerships qualify."
        ),
        click.option("--redeal", type=click.Choice(rules_mod.REDEALS), help="Who re-deals a dead hand."),
    ]
    if games:
        options += [
            click.option("--game", type=click.Choice(["400", "tarneeb"]),
                         help="400 (default) or tarneeb (classic and Egyptian; default for a Tarneeb preset)."),
            click.option("--one-bid-each", is_flag=True, default=None,
                         help="Tarneeb: each player bids once; the dealer only needs to equal (Lebanon)."),
            click.option("--forced-dealer-bid", is_flag=True, default=None,
                         help="Tarneeb: if the first three pass, the dealer must bid 7."),
            click.option("--trump-lead", is_flag=True, default=None,
                         help="Tarneeb: the declarer must lead a trump to the first trick."),
            click.option("--worthless-redeal", is_flag=True, default=None,
                         help="Tarneeb: a player with a worthless hand may ask for a new deal."),
            click.option("--no-trump/--no-no-trump", default=None, help="Tarneeb: whether no-trump may be named."),
        ]  # fmt: skip
    for option in reversed(options):
        f = option(f)

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        name, target = kwargs.pop("variant_name"), kwargs.pop("target")
        preset = kwargs.pop("preset", None)
        switches = {k: kwargs.pop(k) for k in _SWITCHES_400}
        if games:
            game = kwargs.pop("game")
            tarneeb = {k: kwargs.pop(k) for k in _SWITCHES_TARNEEB}
            kwargs["variant"] = make_game_variant(name, preset, game, target, switches, tarneeb)
        else:
            kwargs["variant"] = make_variant(name, target, *switches.values(), preset=preset)
        return f(*args, **kwargs)

    return wrapper


def _option_name(key: str) -> str:
    return _OPTION_NAMES.get(key, "--" + key.replace("_", "-"))


def make_game_variant(name, preset, game, target, switches: dict, tarneeb: dict):
    """A 400 :class:`Variant` or a :class:`TarneebVariant`, by ``--game`` or by the preset's name."""
    from analyzer.games.tarneeb import rules as tarneeb_rules

    if name and preset and name.lower() != preset.lower():
        raise T400Error(f"two variants given: {preset!r} and --variant {name!r}")
    name = name or preset
    if game is None:
        game = "tarneeb" if name and name.strip().lower() in tarneeb_rules.PRESETS else "400"
    if game == "400":
        given = [k for k, v in tarneeb.items() if v is not None]
        if given:
            raise T400Error(f"{_option_name(given[0])} is a switch of classic Tarneeb: add --game tarneeb")
        return make_variant(name, target, *switches.values())
    given = [k for k, v in switches.items() if v is not None]
    if given:
        raise T400Error(f"{_option_name(given[0])} is a switch of 400, not of Tarneeb")
    if name and name.strip().lower() in rules_mod.PRESETS:
        raise T400Error(f"--variant {name}: a 400 variant; Tarneeb's are {', '.join(tarneeb_rules.PRESETS)}")
    forced = tarneeb.pop("forced_dealer_bid")
    return tarneeb_rules.as_tarneeb_variant(
        name or "tarneeb", target=target, all_pass="forced" if forced else None, **tarneeb
    )


def make_variant(
    name, target, table_min, fixed_table_min, fixed_min_bid, score_table, tie_break, redeal, preset=None
):
    if name and preset and name.lower() != preset.lower():
        raise T400Error(f"two variants given: {preset!r} and --variant {name!r}")
    return analyzer.as_variant(
        name or preset or "dananeer",
        target=target,
        table_min=table_min,
        table_min_rises=None if fixed_table_min is None else not fixed_table_min,
        min_bid_rises=None if fixed_min_bid is None else not fixed_min_bid,
        score_table=score_table,
        tie_break=tie_break,
        redeal=redeal,
    )


def parse_int_list(text: str | None, what: str, count: int | None = None) -> list[int] | None:
    """``"3,4,3,2"`` -> ``[3, 4, 3, 2]``, naming ``what`` in the error."""
    if text is None:
        return None
    parts = [p.strip() for p in text.split(",")] if text.strip() else []
    values = []
    for part in parts:
        try:
            values.append(int(part))
        except ValueError:
            raise T400Error(f"{what}: {part!r} is not a whole number (expected e.g. 3,4,3,2)") from None
    if count is not None and len(values) != count:
        raise T400Error(f"{what}: expected {count} values separated by commas, got {len(values)}")
    return values


@contextlib.contextmanager
def progress_bar(label: str, total: int, enabled: bool = True):
    """A progress bar on stderr, drawn only on a terminal; yields ``update(done, total)``."""
    call = _api_call()
    if call is not None and call.progress is not None:
        yield call.progress
        return
    stream = sys.stderr
    if not enabled or not stream.isatty():
        yield lambda done, total=None: None
        return
    with click.progressbar(length=max(total, 1), label=label, file=stream) as bar:
        seen = {"done": 0}

        def update(done, total_=None):
            if total_ and total_ != bar.length:
                bar.length = total_
            bar.update(max(0, done - seen["done"]))
            seen["done"] = max(done, seen["done"])

        yield update


def format_table(headers: list[str], rows: list[list], align: str | None = None) -> str:
    """A plain aligned text table; ``align`` has one ``l``/``r`` per column (default: right)."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    align = align or "l" + "r" * (len(headers) - 1)
    lines = []
    for n, row in enumerate(cells):
        parts = [c.ljust(w) if a == "l" else c.rjust(w) for c, w, a in zip(row, widths, align)]
        lines.append("  ".join(parts).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


_STARTS_WITH_VOID = re.compile(r"^-[.|/ ]")


class CardsCommand(click.Command):
    """A command whose argument is a hand or a deal, which may start with a void written ``-``
    (``-.AKQ...``): such a token is an argument, not an option."""

    def parse_args(self, ctx, args):
        return super().parse_args(ctx, [" " + a if _STARTS_WITH_VOID.match(a) else a for a in args])


@click.group(cls=T400Group, context_settings=CONTEXT)
@click.version_option(analyzer.__version__, "--version", prog_name="t400")
def cli():
    """tarneeb400: a Monte Carlo bidding analyzer for Tarneeb 400.

    Seats are numbered by bidding order: seat 1 bids first and leads, seat 4 deals and bids
    last; partners are seats 1+3 and 2+4. Hearts are trump.
    """
    # the first kernel compile of the command says so on stderr (the figure of the command)
    announce_compiles(click.get_current_context().invoked_subcommand or "")


# ---------------------------------------------------------------------------------------------
# t400 rules


@cli.command(context_settings=CONTEXT)
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


@cli.command(context_settings=CONTEXT)
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


# ---------------------------------------------------------------------------------------------
# t400 bid


@cli.command(cls=CardsCommand, context_settings=CONTEXT)
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
        _check_writable(plot_path)
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
        _wrote(plot_path)
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
        _check_writable(plot_path)
    from analyzer.games.tarneeb.advice import DEFAULT_SAMPLES, MAX_SAMPLES

    if samples is not None and samples > MAX_SAMPLES[model]:
        raise T400Error(f"--samples {samples}: at most {MAX_SAMPLES[model]:,} with --model {model}")
    if model == "dd":
        from analyzer.core.runtime import check_threads

        n = samples or DEFAULT_SAMPLES["dd"]
        seconds = n / (TARNEEB_DD_DEALS_PER_S * check_threads(threads))
        if seconds > 60:
            click.echo(f"note: --model dd solves about {TARNEEB_DD_DEALS_PER_S} deals a second a thread here "
                       f"(five or more full-deal solves each): {n:,} deals take about {seconds / 60:.0f} minutes",
                       err=True)  # fmt: skip
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
        _wrote(plot_path)
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
    for note in r.notes:
        click.echo(f"note: {note}")


#: Solo double-dummy solves per second and thread, measured (benchmarks/dd_vs_dds.py: 163 ms a deal).
#: 400 double dummy with the bids, every candidate bid of a deal solved: deals per second and thread,
#: measured (t400 bid AKQ5.KJ4.T93.862 --model dd: 24 deals in 27.8 s on one thread, 13.8 s on two).
DD_DEALS_PER_S = {"solo-dd": 6, "dd": 0.85}
#: Tarneeb --model dd: sampled deals per second and thread, measured (256 deals in 47 s on 2 threads).
TARNEEB_DD_DEALS_PER_S = 2.5


def _dd_note(model: str, samples: int | None, threads: int | None) -> None:
    """Say, before a long double-dummy run, how long it takes and what its size buys."""
    from analyzer import config
    from analyzer.core.runtime import check_threads

    cfg = config.get()
    n = samples or (cfg.advice_dd_deals if model == "dd" else cfg.advice_solo_dd_deals)
    rate = DD_DEALS_PER_S[model] * check_threads(threads)
    seconds = n / rate
    if seconds > 30:
        click.echo(f"note: --model {model} solves about {rate:g} deals a second here: {n:,} deals take about "
                   f"{seconds / 60:.0f} minutes and give each P(make) to within about "
                   f"±{50 / math.sqrt(n):.1f} percentage points (one SE)", err=True)  # fmt: skip


def _check_writable(path: str) -> None:
    from analyzer.reports.figures import figure_format

    figure_format(path)
    folder = os.path.dirname(os.path.abspath(path)) or "."
    if not os.path.isdir(folder):
        raise T400Error(f"--plot {path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise T400Error(f"--plot {path}: cannot write in {folder}")


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


# ---------------------------------------------------------------------------------------------
# t400 solve


def _read_deal_lines(path: str) -> list[str]:
    stream = sys.stdin if path == "-" else None
    try:
        if stream is None:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        else:
            text = stream.read()
    except OSError as exc:
        raise T400Error(f"cannot read {path}: {exc.strerror}") from None
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


@cli.command(cls=CardsCommand, context_settings=CONTEXT)
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
    from analyzer.games.t400.bids_dd import solve_with_bids

    if path is not None or show_cards or player is not None:
        raise T400Error("--mode bids solves one DEAL; --file, --cards and --player do not apply")
    if bids is None:
        raise T400Error("--mode bids needs --bids B1,B2,B3,B4")
    parsed = analyzer.parse_deal(deal)
    solution = solve_with_bids(
        parsed, parse_int_list(bids, "--bids", 4), parse_int_list(won or "0,0,0,0", "--won", 4),
        parse_int_list(scores or "0,0,0,0", "--scores", 4), variant, trump=trump, leader=leader,
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


@cli.command(cls=CardsCommand, context_settings=CONTEXT)
@click.argument("deal", required=False)
@click.option("--bids", help="The four bids, seat 1 first (default: the bots' bids).")
@click.option("--bidder", type=click.Choice(["ev", "counting", "counting-ev", "win"]), default="ev", show_default=True,
              help="Bots that bid when --bids is not given.")  # fmt: skip
@click.option("--policy", default="standard", show_default=True, metavar="POLICY",
              help="Card play for all four seats, or four comma-separated (standard, basic, greedy).")  # fmt: skip
@click.option("--scores", default="0,0,0,0", show_default=True, help="Scores before the hand, seat 1 first.")
@click.option("--file", "path", help="Play a batch: one deal a line ('-' for stdin).")
@variant_options
@bidder_model_option
@json_option
def play(deal, bids, bidder, policy, scores, path, variant, bidder_model, as_json):
    """Bid and play one deal of 400 out, card by card: DEAL is four hands in seat order.

    Seat 1 bids first and leads; hearts are trump. Shows the bids, whether the hand is dead
    (the bids miss the table minimum: not played), the tricks and points of each player and
    every trick in play order with its winner.
    """
    from analyzer.games.t400.simulate import play_hand

    if (deal is None) == (path is None):
        raise T400Error("give one DEAL, or --file PATH with one deal a line")
    bid_list = parse_int_list(bids, "--bids", 4)
    score_list = parse_int_list(scores, "--scores", 4)
    policies = policy.split(",") if "," in policy else policy
    lines = _read_deal_lines(path) if path is not None else [(None, deal)]
    hands = [play_hand(d, bid_list, policies, variant, score_list, bidder, bidder_model) for _, d in lines]
    if as_json:
        records = [({"line": n} if n is not None else {}) | h.to_dict() for (n, _), h in zip(lines, hands)]
        emit_json(records if path is not None else records[0])
        return
    for (n, _), h in zip(lines, hands):
        if n is not None:
            click.echo(f"line {n}:")
        _print_played(h)


def _print_played(h) -> None:
    click.echo(f"Deal: {h.deal}")
    click.echo(
        f"Bids: {', '.join(map(str, h.bids))} ({h.bids_by}); play: {', '.join(dict.fromkeys(h.policy))}"
    )
    if h.dead:
        click.echo("Dead hand: the bids miss the table minimum; thrown in, not played.")
        return
    rows = [[seat, h.bids[seat - 1], h.tricks[seat - 1], "made" if h.made[seat - 1] else "set",
             f"{h.points[seat - 1]:+d}"] for seat in range(1, 5)]  # fmt: skip
    click.echo(format_table(["seat", "bid", "tricks", "", "points"], rows))
    trick_rows = []
    for k, (leader, winner) in enumerate(zip(h.leaders, h.winners)):
        by_seat = {(leader - 1 + i) % 4 + 1: h.cards[4 * k + i] for i in range(4)}
        cells = [("*" if s == leader else " ") + by_seat[s].symbol for s in range(1, 5)]
        trick_rows.append([k + 1, *cells, winner])
    click.echo("Tricks (* led):")
    click.echo(format_table(["trick", "seat 1", "seat 2", "seat 3", "seat 4", "won by"], trick_rows))


# ---------------------------------------------------------------------------------------------
# t400 bench


@cli.command(context_settings=CONTEXT)
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
    from analyzer.bench import run_bench

    with progress_bar("benchmarking", 1, enabled=not as_json) as update:
        result = run_bench(seconds=seconds, repeats=repeats, cold=cold, progress=update)
    if as_json:
        emit_json(result)
        return
    top = str(result["threads"])
    cols = ["1"] if top == "1" else ["1", top]
    rows = [
        ["deals/s", *(f"{result['deals_per_s'][c]:,.0f}" for c in cols), f"{result['speedup']['deals']:.2f}x"],
        ["greedy hands/s", *(f"{result['hands_per_s']['greedy'][c]:,.0f}" for c in cols),
         f"{result['speedup']['greedy']:.2f}x"],
        ["standard hands/s", *(f"{result['hands_per_s']['standard'][c]:,.0f}" for c in cols),
         f"{result['speedup']['standard']:.2f}x"],
        ["standard matches/s", *(f"{result['matches_per_s'][c]:,.0f}" for c in cols),
         f"{result['speedup']['matches']:.2f}x"],
        ["tarneeb matches/s", *(f"{result['tarneeb_matches_per_s'][c]:,.0f}" for c in cols),
         f"{result['speedup']['tarneeb']:.2f}x"],
    ]  # fmt: skip
    click.echo(
        f"tarneeb400 bench: medians of {repeats} runs of ~{seconds:g} s; full hands = deal + EV bot bids + play;"
        " matches = complete dananeer matches (EV bots) and Tarneeb matches (preset tarneeb, counting bots, team play)"
    )
    click.echo(format_table(["", *(f"{c} thread{'s' if c != '1' else ''}" for c in cols), "speedup"], rows))
    line = f"compile (this process, from the disk cache when warm): {result['compile_s']:.1f} s"
    if "cold_compile_s" in result:
        groups = ", ".join(f"{k} {v:.1f} s" for k, v in result["cold_compile_groups_s"].items())
        line += f"; cold compile of all kernels (empty cache, groups in parallel): {result['cold_compile_s']:.1f} s ({groups})"
    click.echo(line)


# ---------------------------------------------------------------------------------------------
# t400 compile


@cli.command("compile", context_settings=CONTEXT)
@click.argument("groups", nargs=-1)
@json_option
def compile_kernels(groups, as_json):
    """Compile the kernels of every main command now (in parallel processes), so that their
    first runs start at once.

    GROUPS limits it to some commands' kernels (bid, bid_dd, tarneeb_bid, play, solve, simulate,
    simulate_tarneeb, bench). A group compiles what its command runs with default options;
    another play policy, --continuations and the like compile their own kernels when first used.
    Kernels are cached on disk; this only saves the first run's compile time.
    """
    from analyzer.bench import WARM_UPS, compile_groups

    unknown = [g for g in groups if g not in WARM_UPS]
    if unknown:
        raise T400Error(f"unknown kernel group {unknown[0]!r} (expected one of {', '.join(WARM_UPS)})")
    try:
        timing = compile_groups(only=groups or None)
    except RuntimeError as exc:
        raise CommandError(str(exc)) from None
    wall, groups = timing["wall_s"], timing["groups_s"]
    if as_json:
        emit_json({"wall_s": wall, "groups_s": groups})
    else:
        click.echo(
            f"kernels ready in {wall:.1f} s (" + ", ".join(f"{k} {v:.1f} s" for k, v in groups.items()) + ")"
        )


# ---------------------------------------------------------------------------------------------
# t400 fit-bidder


@cli.command("fit-bidder", context_settings=CONTEXT)
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
@click.option("--game", type=click.Choice(["400", "tarneeb"]), default="400", show_default=True,
              help="Whose EV bidder: 400's, or classic Tarneeb's (analyzer/data/tarneeb_bidder.npz).")  # fmt: skip
@json_option
def fit_bidder(deals, iterations, seed, threads, out_path, game, as_json):
    """Regenerate the EV bidder's trick model from rollouts (analyzer/data/bidder_model.npz, or
    with --game tarneeb analyzer/data/tarneeb_bidder.npz)."""
    from importlib import resources

    if game == "tarneeb":
        from analyzer.games.tarneeb.bidders import MODEL_FILE, fit_model
    else:
        from analyzer.games.t400.bidder import MODEL_FILE, fit_model

    if out_path:
        _outputs(out=out_path)
    with progress_bar("fitting", iterations, enabled=not as_json) as update:
        model = fit_model(deals=deals, seed=seed, iterations=iterations, threads=threads, progress=update)
    path = out_path or str(resources.files("analyzer.data") / MODEL_FILE)
    tmp = path + ".tmp.npz"
    model.save(tmp)
    os.replace(tmp, path)
    _wrote(path)
    if as_json:
        emit_json({"path": path, **model.meta})
        return
    last = model.meta["history"][-1]
    click.echo(f"wrote {path}: {model.meta['deals_per_iteration']:,} deals x {iterations} iterations, "
               f"rmse {last['rmse']:.3f} tricks, R^2 {last['r2']:.3f}")  # fmt: skip


# ---------------------------------------------------------------------------------------------
# t400 fit-lead


@cli.command("fit-lead", context_settings=CONTEXT)
@click.option("--deals", type=click.IntRange(100, 10**7), default=30_000, show_default=True,
              help="Live deals whose opening leads DDS scores (about 30 ms a deal on 2 cores).")  # fmt: skip
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=2026, show_default=True)
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False),
    help="Where to write the weights module (default: kernels/policies/lead_weights.py).",
)
@json_option
def fit_lead(deals, seed, out_path, as_json):
    """Regenerate standard's opening-lead model from DDS scores of every opening lead of live
    deals (kernels/policies/lead_weights.py; needs the endplay package of the test extra)."""
    from analyzer.games.t400.lead import WEIGHTS_FILE, fit_lead_model, weights_source

    if out_path:
        _outputs(out=out_path)
    with progress_bar("scoring leads", deals, enabled=not as_json) as update:
        model = fit_lead_model(deals, seed, progress=update)
    path = out_path or str(WEIGHTS_FILE)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(weights_source(model))
    os.replace(tmp, path)
    _wrote(path)
    if as_json:
        emit_json({"path": path, **model["meta"]})
        return
    meta = model["meta"]
    click.echo(f"wrote {path}: {deals:,} deals; held-out opening leads losing a partnership DD trick "
               f"{meta['held_out_losing_leads']:.1%} of {meta['held_out_deals']:,}")  # fmt: skip


# ---------------------------------------------------------------------------------------------
# t400 equity


@cli.command(context_settings=CONTEXT)
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
    from analyzer.games.t400 import equity as me

    if build:
        return _build_equity(variant, hands, seed, threads, out_path, as_json)
    if scores is None:
        raise T400Error("--scores S1,S2,S3,S4 is needed (or --build)")
    if dealer not in (1, 2, 3, 4):
        raise T400Error(f"--dealer {dealer}: expected a seat 1..4")
    score_list = list(rules_mod.check_scores(parse_int_list(scores, "--scores", 4)))
    table = me.table_for(variant, equity_table)
    p = table.equity(score_list, dealer)
    out = {"scores": score_list, "dealer": dealer, "variant": variant.label, "p_win_13": round(p, 6),
           "p_win_24": round(1 - p, 6), "table": table.meta.get("command")}  # fmt: skip
    if continuations:
        with interrupt_at_once():
            sim = me.simulate_equity(score_list, dealer, variant, continuations, seed, threads)
        out["simulated"] = {**sim.to_dict(), "seed": seed}
    if as_json:
        emit_json(out)
        return
    click.echo(
        f"Scores {'/'.join(map(str, score_list))} (seat 1 first), seat {dealer} deals, variant {variant.label}"
    )
    click.echo(f"P(seats 1+3 win the match): {100 * p:.1f}%   (table; seats 2+4: {100 * (1 - p):.1f}%)")
    if continuations:
        sim = out["simulated"]
        click.echo(f"Simulated: {100 * sim['p_win']:.1f}% ± {100 * sim['p_win_se']:.1f}  "
                   f"({sim['matches']:,} rests of the match by ev/standard bots, seed {seed})")  # fmt: skip


def _build_equity(variant, hands, seed, threads, out_path, as_json):
    from analyzer.games.t400 import equity as me

    path = out_path or me.shipped_path(variant)
    if path is None:
        raise T400Error(f"variant '{variant.label}' has no shipped table: give --out FILE")
    _outputs(out=path)
    with progress_bar("building", 1, enabled=not as_json) as update:
        table = me.build_table(variant, hands=hands, seed=seed, threads=threads,
                               progress=lambda _stage, done, total: update(done, total))  # fmt: skip
    tmp = path + ".tmp.npz"
    table.save(tmp)
    os.replace(tmp, path)
    _wrote(path)
    if as_json:
        emit_json({"path": path, **table.meta})
        return
    m = table.meta
    click.echo(f"wrote {path}: {len(m['grid'])}^4 states, {m['hands_per_regime']:,} hands x "
               f"{m['regime_combinations']} regime combinations, {m['sweeps']} sweeps, {m['seconds']:.0f} s")  # fmt: skip


# ---------------------------------------------------------------------------------------------
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


def _outputs(**paths) -> dict:
    """Check output paths (folder exists and is writable; distinct); returns the given ones."""
    given = {k: v for k, v in paths.items() if v}
    seen = {}
    for name, path in given.items():
        folder = os.path.dirname(os.path.abspath(path)) or "."
        option = name.replace("_", "-")
        if not os.path.isdir(folder):
            raise T400Error(f"--{option} {path}: folder {folder} does not exist")
        if not os.access(folder, os.W_OK):
            raise T400Error(f"--{option} {path}: cannot write in {folder}")
        key = os.path.abspath(path)
        if key in seen:
            raise T400Error(f"--{option} and --{seen[key]} both write {path}")
        seen[key] = option
    return given


def _table_format(path: str, option: str) -> str:
    ext = os.path.splitext(path)[1].lower()
    if ext == ".parquet":
        return "parquet"
    if ext in (".csv", ".txt", ""):
        return "csv"
    raise T400Error(f"--{option} {path}: expected a .csv or .parquet file")


def _wrote(path: str) -> None:
    """Announce a written file on stderr (stdout stays for the results)."""
    click.echo(f"wrote {path}", err=True)


def _write_table(df, path: str, fmt: str) -> None:
    """Write a DataFrame atomically (a temporary file renamed into place), and say so."""
    writer = TableWriter(path, fmt)
    try:
        writer.write(df)
        writer.close()
    except BaseException:
        writer.abort()
        raise
    _wrote(path)


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


@cli.command(context_settings=CONTEXT)
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
    outs = _outputs(csv=csv_path, parquet=parquet_path, hands=hands_path, per_match=matches_path)
    if csv_path:
        _table_format(csv_path, "csv")
    hands_fmt = _table_format(hands_path, "hands") if hands_path else None
    matches_fmt = _table_format(matches_path, "per-match") if matches_path else None
    keep = hands_path or matches_path or parquet_path or csv_path
    if resume and not keep:
        raise T400Error(
            "--resume needs an output file (--csv, --parquet, --hands or --per-match) to resume into"
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
                _wrote(path)
    except BaseException:
        for writer in writers.values():
            writer.abort()
        raise
    elapsed = clock.elapsed_s()
    table_of = _tarneeb_summary_table if tarneeb else _summary_table
    if "csv" in outs:
        _write_table(table_of(summary), csv_path, "csv")
    if "parquet" in outs:
        _write_table(table_of(summary), parquet_path, "parquet")
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


@cli.command(context_settings=CONTEXT)
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
    _outputs(csv=csv_path, plot=plot_path)
    if plot_path:
        _check_writable(plot_path)
    if csv_path:
        _table_format(csv_path, "csv")
    if resume and not csv_path:
        raise T400Error("--resume needs --csv (the comparison's file) to resume into")
    show = (not as_json) if progress is None else progress
    clock = RunClock()
    with progress_bar("matches", matches * len(lineups), enabled=show) as update:
        run = am.run_matches(lineups, matches, seed, threads=threads, scheduler=scheduler, keep=csv_path,
                             resume=resume, command="variants", progress=update,
                             on_block=lambda _, parts: stats.add({lb: p["rows"] for lb, p in zip(labels, parts)}))  # fmt: skip
    elapsed = clock.elapsed_s()
    table = stats.table()
    if csv_path:
        _write_table(table, csv_path, "csv")
    if plot_path:
        from analyzer.reports.figures import plot_variants

        plot_variants(table, plot_path, title=f"{matches:,} matches per variant, same deals (seed {seed})")
        _wrote(plot_path)
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


@cli.command(context_settings=CONTEXT)
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


# ---------------------------------------------------------------------------------------------
# t400 report


@cli.command(context_settings=CONTEXT)
@click.option("--out", "out", type=click.Path(file_okay=False),
              help="The report folder: new, empty or an earlier report (--force for any other); default "
                   "reports (400) or reports/tarneeb.")  # fmt: skip
@click.option("--game", type=click.Choice(["400", "tarneeb"]), default="400", show_default=True,
              help="400's strategy report, or the classic and Egyptian Tarneeb report (--out reports/tarneeb).")  # fmt: skip
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
    from analyzer import config
    from analyzer.reports.strategy import build_report

    if samples is None:
        samples = config.get().report_tarneeb_deals if game == "tarneeb" else config.get().report_samples
    out = out or ("reports/tarneeb" if game == "tarneeb" else "reports")
    parts = ["t400 report"] + (["--game tarneeb"] if game == "tarneeb" else [])
    parts += [f"--out {out}", f"--samples {samples}", f"--matches {matches}", f"--seed {seed}"]
    if html:
        parts.append("--html")
    show = (not as_json) if progress is None else progress
    with progress_bar("report", 1000, enabled=show) as update:

        def step(label, fraction):
            update(int(1000 * fraction))

        result = build_report(
            out, samples, matches, seed, scheduler, threads, html, " ".join(parts), step, resume, force, game
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


@cli.command(context_settings=CONTEXT)
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
    app = web_app.create_app(queue_size=queue_size, max_seconds=max_seconds, host=host,
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


def main():
    cli(prog_name="t400")


if __name__ == "__main__":
    main()
