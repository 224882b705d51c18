"""``t400 report``: a game's report as a folder of Markdown, CSV and PNG (and optionally one
self-contained HTML page).

The sections are computed from seeded simulations by each game's module (:mod:`analyzer.reports.strategy`
for 400: the bidding guide, the variants, the match and the method; :mod:`analyzer.reports.tarneeb`);
this module runs them in the framework of :mod:`analyzer.reports.frame`. The folder is built aside
and moved into place at the end, so an interrupted run leaves the previous report untouched.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from analyzer import config
from analyzer.core.errors import Interrupted, T400Error, WriteError
from analyzer.core.jobs import open_client
from analyzer.core.runs import check_matches
from analyzer.core.runtime import caused_by_interrupt, check_seed, deferred_interrupt
from analyzer.games import registry
from analyzer.reports import strategy, tarneeb
from analyzer.reports.document import to_html, to_markdown
from analyzer.reports.folder import PARTS, Clash, check_out, move_into_place
from analyzer.reports.frame import Context, Parts, remove_partial
from analyzer.version import __version__

#: Each game's sections, by the game's name: a module with ``DOCUMENTS`` (the files it writes,
#: checked against the user's files before any work), ``TITLE``, ``DEFAULT_OUT``,
#: ``SAMPLES_SETTING`` (the config field of its default size), ``documents(ctx, command,
#: scheduler, start)`` (index first) and ``data_fingerprints()``.
GAMES = {"400": strategy, "tarneeb": tarneeb}


def report_of(game: str | None):
    """The report module of ``game`` (``None``: the default game's)."""
    name = registry.get(game).name
    if name not in GAMES:
        raise T400Error(f"{registry.get(game).title} has no report (yet)")
    return GAMES[name]


def report_settings(game: str | None, out, samples, matches, seed, html) -> tuple[str, int, str]:
    """The folder, the size and the command line of a report of ``game`` with the defaults
    filled in (the command names ``--game`` only for a game other than the default)."""
    module = report_of(game)
    samples = getattr(config.get(), module.SAMPLES_SETTING) if samples is None else samples
    out = out or module.DEFAULT_OUT
    name = registry.get(game).name
    parts = ["t400 report"] + ([f"--game {name}"] if name != registry.default().name else [])
    parts += [f"--out {out}", f"--samples {samples}", f"--matches {matches}", f"--seed {seed}"]
    return str(out), samples, " ".join(parts + (["--html"] if html else []))


def build_report(
    out: str | Path | None = None,
    samples: int | None = None,
    matches: int | None = None,
    seed: int = 0,
    scheduler: str | None = None,
    threads: int | None = None,
    html: bool = False,
    command: str | None = None,
    progress: Callable[[str, float], None] | None = None,
    resume: bool = False,
    force: bool = False,
    game: str | None = None,
) -> dict:
    """Write the report into the folder ``out``; returns {"files": [...], "elapsed_s": ...}.

    ``samples``: deals per seat and score bracket for the bidding guide; ``matches``: matches
    per variant (and duplicate pairs per duel) for the variants report. ``out`` may be new, empty,
    or a report folder (its report files are replaced); any other folder needs ``force`` (see
    :func:`check_out`). Only the report's own files are ever written or removed: the report is
    built in a hidden folder inside ``out`` and moved into place file by file when complete.
    Finished parts are kept in ``out/.t400-report-parts`` until then, so after an interruption
    (:class:`analyzer.Interrupted`) ``resume=True`` reuses them. ``game`` names the game (default
    400; ``"tarneeb"``: :mod:`analyzer.reports.tarneeb`, ``samples`` the deals of its trick
    tables); ``out`` defaults to the game's report folder (reports, reports/tarneeb).
    """
    check_seed(seed)
    matches = config.get().report_matches if matches is None else matches
    out, samples, default_command = report_settings(game, out, samples, matches, seed, html)
    game = registry.get(game).name
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1000:
        raise T400Error(f"samples {samples!r}: expected at least 1000 deals per seat and bracket")
    check_matches(matches)
    out = check_out(out, force, GAMES[game].DOCUMENTS + (("report.html",) if html else ()))
    command = command or default_command
    start = time.perf_counter()
    created = not out.exists()
    out.mkdir(exist_ok=True)
    client = cluster = None
    settings = {
        "game": game,
        "samples": samples,
        "matches": matches,
        "seed": seed,
        "version": __version__,
    }
    parts = tmp = None
    try:
        with deferred_interrupt():
            if scheduler:
                client, cluster = open_client(scheduler)
            parts = Parts(out / PARTS, settings, resume)
            tmp = Path(tempfile.mkdtemp(prefix=".t400-report-build-", dir=out))
            umask = os.umask(0)
            os.umask(umask)
            tmp.chmod(0o777 & ~umask)
            (tmp / "figures").mkdir()
            (tmp / "data").mkdir()
            ctx = Context(tmp, samples, matches, seed, threads, client, progress, parts)
            try:
                docs = GAMES[game].documents(ctx, command, scheduler, start)
            except (KeyError, IndexError, TypeError, AttributeError, ValueError) as exc:
                if isinstance(exc, T400Error) or not parts.loaded:
                    raise
                # a kept part that reads as data but is not what its section made (tampered):
                # every part is computed again rather than trusted
                parts = Parts(out / PARTS, settings, resume=False)
                _empty(tmp)
                ctx = Context(tmp, samples, matches, seed, threads, client, progress, parts)
                docs = GAMES[game].documents(ctx, command, scheduler, start)
            title = GAMES[game].TITLE
            for d in docs:
                (tmp / d.name).write_text(to_markdown(d), encoding="utf-8")
            if html:
                (tmp / "report.html").write_text(to_html(docs, tmp, title), encoding="utf-8")
            files = sorted(str(f.relative_to(tmp)) for f in tmp.rglob("*") if f.is_file())
            extra = {"command": command, "version": __version__, **data_fingerprints(game)}
            move_into_place(tmp, out, files, extra)
        parts.remove()
    except (KeyboardInterrupt, SystemError, Interrupted) as exc:
        if not (isinstance(exc, Interrupted) or caused_by_interrupt(exc)):
            remove_partial(tmp, parts, out, created)
            raise
        remove_partial(tmp, None, out, created and parts is None)
        kept = f"; the finished parts are kept in {parts.path} (run again with --resume)" if parts else ""
        raise Interrupted(f"interrupted{kept}") from None
    except Clash as exc:
        remove_partial(
            tmp, None, out, False
        )  # the finished parts stay: a --resume after moving the files is quick
        raise T400Error(f"{exc}; the finished parts are kept in {parts.path}") from None
    except OSError as exc:
        remove_partial(tmp, None, out, created and parts is None)
        where = f" ({exc.filename})" if exc.filename else ""
        kept = f"; the finished parts are kept in {parts.path} (run again with --resume)" if parts else ""
        raise WriteError(f"cannot write the report in {out}: {exc.strerror or exc}{where}{kept}") from None
    except BaseException:
        remove_partial(tmp, parts, out, created)
        raise
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
        if cluster is not None:
            client.close()
            cluster.close()
    return {"out": str(out), "files": files, "elapsed_s": time.perf_counter() - start}


def _empty(folder: Path) -> None:
    """Empty the build folder (it is this run's own) down to its ``figures`` and ``data`` folders."""
    shutil.rmtree(folder)
    folder.mkdir()
    (folder / "figures").mkdir()
    (folder / "data").mkdir()


def data_fingerprints(game: str = "400") -> dict:
    """What the report of ``game`` depends on beyond its command (the data it was made from, as
    hashes), recorded in the report folder so that a test notices stale reports."""
    return GAMES[game].data_fingerprints()
