"""What every command shares: the group that turns errors into one line, the JSON output and
the API's way in, the option decorators, the variant built from options, tables and progress bars."""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import re
import sys
import time

import click

import analyzer
from analyzer.core.errors import Interrupted, T400Error
from analyzer.core.fmt import format_table  # noqa: F401 - the commands take it from here
from analyzer.core.runtime import COMPILE_CLOCK, announce_compiles, exit_on_interrupt
from analyzer.games.t400 import rules as rules_mod

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
                try:
                    super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
                except click.exceptions.NoArgsIsHelpError as exc:
                    click.echo(exc.ctx.get_help())
                sys.stdout.flush()  # a full disk or a closed pipe shows here, not at exit
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
            _drop_stdout()  # `t400 ... | head`: the reader has all it wanted; end quietly
            sys.exit(0)
        except OSError as exc:  # standard output on a full disk, or any file the commands did not catch
            _drop_stdout()
            what = f"cannot write {exc.filename}" if exc.filename else "cannot write the output"
            click.echo(f"Error: {what}: {exc.strerror or exc}", err=True)
            sys.exit(1)
        sys.exit(0)


def _drop_stdout() -> None:
    """Point standard output at /dev/null, so that what is still buffered cannot fail again (with
    a traceback) when the interpreter flushes it at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass  # no file descriptor (a test's captured stream): nothing will be flushed to it


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


def _steps(sep: str, last: str) -> str:
    """The scores at which the minimums rise (30, 40 and 50), as the rules define them."""
    steps = [str(s) for s in rules_mod.SCORE_STEPS]
    return sep.join(steps[:-1]) + last + steps[-1]


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
            help=f"Keep the table minimum at its base, or raise it by one at {_steps(', ', ' and ')}.",
        ),
        click.option(
            "--fixed-min-bid/--rising-min-bid",
            default=None,
            help=f"Keep every player's minimum bid at {rules_mod.MIN_BID}, or raise it to "
            f"{'/'.join(str(rules_mod.MIN_BID + k + 1) for k in range(len(rules_mod.SCORE_STEPS)))} at {_steps('/', '/')}.",
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
