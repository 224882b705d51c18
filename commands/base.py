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
from analyzer.core.fmt import compiled_note, format_table  # noqa: F401 - the commands take them from here
from analyzer.core.numbers import parse_int_list  # noqa: F401
from analyzer.core.runtime import COMPILE_CLOCK, announce_compiles, exit_on_interrupt
from analyzer.games import registry

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


class GameName(click.ParamType):
    """``--game``: the name of a registered game (read at run time, so a game registered later,
    such as a test's, is one too)."""

    name = "game"

    def get_metavar(self, param, ctx=None) -> str:
        return "|".join(registry.names())

    def convert(self, value, param, ctx):
        if value is None or value in registry.names():
            return value
        self.fail(f"{value!r} is not one of {', '.join(registry.names())}.", param, ctx)


def game_option(f=None, *, default=None, help_text: str | None = None):
    """``--game NAME`` (a registered game)."""
    if f is None:
        return functools.partial(game_option, default=default, help_text=help_text)
    text = help_text or (f"{' or '.join(registry.names())}; default {registry.default().name}, or the game of "
                         "the --variant preset.")  # fmt: skip
    return click.option("--game", type=GameName(), default=default, show_default=default is not None, help=text)(f)


def _switch_option(switch):
    if switch.kind == "pair":
        return click.option(switch.flag, switch.key, default=None, help=switch.help)
    if switch.kind == "flag":
        return click.option(switch.flag, switch.key, is_flag=True, default=None, help=switch.help)
    kind = click.Choice(switch.choices) if switch.kind == "choice" else int
    return click.option(switch.flag, switch.key, type=kind, help=switch.help)


def _switches(all_games: bool):
    """The switches of the default game, or of every game (each once, the first game's first)."""
    seen = {}
    for game in registry.games() if all_games else (registry.default(),):
        for switch in game.switches():
            seen.setdefault(switch.key, (switch, game))
    return seen


def variant_options(f=None, *, games: bool = False):
    """The variant switches every command that takes a variant shares. ``games=True``: also
    ``--game`` and every game's switches, and the variant may be of any game."""
    if f is None:
        return functools.partial(variant_options, games=games)
    all_games = games
    switches = _switches(all_games)
    presets = "; ".join(f"{g.title}: {', '.join(n + (' (default)' if n == g.default_preset else '') for n in g.presets())}"
                        for g in (registry.games() if all_games else (registry.default(),)))  # fmt: skip
    options = [
        click.option("--variant", "variant_name", metavar="NAME", help=f"Preset: {presets}."),
        click.option("--target", type=int, help="Points a partner must reach (31, 41, 61, ...)."),
        *(_switch_option(switch) for switch, _ in switches.values()),
    ]
    if all_games:
        options.insert(2, click.option("--game", type=GameName(), help=f"{' or '.join(registry.names())} "
                                       "(default: the game of the --variant preset, else "
                                       f"{registry.default().name})."))  # fmt: skip
    for option in reversed(options):
        f = option(f)

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        name, target = kwargs.pop("variant_name"), kwargs.pop("target")
        preset = kwargs.pop("preset", None)
        game = kwargs.pop("game", None) if all_games else None
        given = {key: kwargs.pop(key) for key in switches}
        kwargs["variant"] = make_variant(name, preset, game, target, given, switches)
        return f(*args, **kwargs)

    return wrapper


def make_variant(name, preset, game_name, target, given: dict, switches: dict):
    """The variant of ``--variant``/the preset argument, ``--game`` (else the preset's game, else
    the default game) and the switches given; a switch of another game is an error."""
    if name and preset and name.lower() != preset.lower():
        raise T400Error(f"two variants given: {preset!r} and --variant {name!r}")
    name = name or preset
    game = registry.get(game_name) if game_name is not None else (registry.for_preset(name) or registry.default())
    own = {s.key for s in game.switches()}
    for key, value in given.items():
        if value is not None and key not in own:
            switch, owner = switches[key]
            flag = switch.flag
            if owner is registry.default():
                raise T400Error(f"{flag} is a switch of {owner.switch_owner}, not of {game.title}")
            raise T400Error(f"{flag} is a switch of {owner.switch_owner}: add --game {owner.name}")
    other = registry.for_preset(name)
    if other is not None and other is not game:
        raise T400Error(f"--variant {name}: a {other.title} variant; {game.title}'s are {', '.join(game.presets())}")
    return game.variant(name, target=target, **{k: v for k, v in given.items() if k in own})


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
