"""Which files of a report folder the report owns, so that a run never loses a user's file.

A report folder carries an index (:data:`MARKER`): every file the report wrote, as a path inside
the folder, with the SHA-256 of what it wrote. A file is the report's to replace or remove only
when the index lists it, its path stays inside the folder (no ``..``, not absolute, no link on the
way) and it still holds exactly what the report wrote. Everything else is the user's: a folder
holding any such file is not taken without ``--force``, and even with it no user file is
overwritten or removed. A folder inside that carries its own index is another report, left alone.
"""

from __future__ import annotations

import json
import os
from pathlib import Path, PurePosixPath

from analyzer.core import jsonfile, output
from analyzer.core.checkpoint import file_hash
from analyzer.core.errors import T400Error

#: The index a report folder carries of the files its report wrote.
MARKER = ".t400-report.json"
#: The folder of finished parts kept for ``--resume``.
PARTS = ".t400-report-parts"
#: An index's largest size (a few hundred files with their hashes).
INDEX_MAX_BYTES = 4 << 20
#: The prefix of the hidden folder a report is built in before it moves into place.
BUILD_PREFIX = ".t400-report-build-"


class Clash(T400Error):
    """A file the report would write is the user's."""


def safe_name(name) -> bool:
    """Whether ``name`` is a plain relative path that stays inside its folder."""
    if not isinstance(name, str) or not name or "\\" in name or "\0" in name:
        return False
    return all(part not in ("", ".", "..") for part in name.split("/"))


def _inside(folder: Path, name: str) -> Path | None:
    """``folder / name`` if it is a regular file reached through no link, else ``None``."""
    path = folder
    for part in PurePosixPath(name).parts:
        path = path / part
        if path.is_symlink():
            return None
    return path if path.is_file() else None


def read_index(folder: Path) -> dict[str, str] | None:
    """The index of the report in ``folder`` (path -> SHA-256 of what the report wrote), or
    ``None`` when the folder carries no readable index. Listed paths that could leave the folder
    are dropped: an index is data the folder's owner could have edited."""
    marker = Path(folder) / MARKER
    if not marker.is_file() or marker.is_symlink():
        return None
    try:
        data = jsonfile.read_json(marker, "report index", max_bytes=INDEX_MAX_BYTES)
        jsonfile.check_shape(data, {"sha256": dict}, "report index")
    except T400Error:
        return None
    hashes = data["sha256"]
    return {n: h for n, h in hashes.items() if safe_name(n) and isinstance(h, str)}


def owned_files(folder: Path) -> set[str]:
    """The files in ``folder`` that its report wrote and nobody has changed since."""
    index = read_index(folder) or {}
    owned = set()
    for name, digest in index.items():
        path = _inside(folder, name)
        if path is not None and file_hash(path) == digest:
            owned.add(name)
    return owned


def user_files(folder: Path) -> list[str]:
    """Every file in ``folder`` that is not its report's own (see :func:`owned_files`): the
    user's files, report files changed since, links. A nested folder with a valid index of its own
    is another report, not listed (whether the report may write a file is :func:`clash`'s to say,
    file by file, and never skips a folder)."""
    folder = Path(folder)
    owned = owned_files(folder)
    found = []

    def walk(d: Path, prefix: str):
        for entry in sorted(os.scandir(d), key=lambda e: e.name):
            name = f"{prefix}{entry.name}"
            if not prefix and (
                entry.name in (MARKER, PARTS) or output.is_part(entry.name) or entry.name.startswith(BUILD_PREFIX)
            ):
                continue
            if entry.is_dir(follow_symlinks=False):
                if read_index(Path(entry.path)) is None:
                    walk(Path(entry.path), f"{name}/")
            elif name not in owned:
                found.append(name)

    walk(folder, "")
    return found


def check_out(out: str | Path, force: bool = False, names: tuple[str, ...] = ()) -> Path:
    """Check that a report may be written to ``out``: a new or empty folder, a report folder
    holding nothing but its report's unchanged files, or with ``force`` any folder, as long as
    none of ``names`` (files the report will write) would replace a file that is not the report's.
    Raises :class:`T400Error`, changing nothing."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise T400Error(f"--out {out}: not a folder")
    if out.is_dir():
        if (out / PARTS).is_symlink() or (out / MARKER).is_symlink():
            raise T400Error(f"--out {out}: {PARTS} or {MARKER} in it is a link; remove it first")
        mine = user_files(out)
        if mine and not force:
            raise T400Error(
                f"--out {out}: the folder holds files that are not a t400 report's ({_few(mine)}); give a "
                "new or empty folder, or --force to add the report's files to it (nothing else is touched)"
            )
        clash(out, names)
        if not os.access(out, os.W_OK):
            raise T400Error(f"--out {out}: cannot write in {out}")
        return out
    parent = out.resolve().parent
    if not parent.is_dir():
        raise T400Error(f"--out {out}: folder {parent} does not exist")
    if not os.access(parent, os.W_OK):
        raise T400Error(f"--out {out}: cannot write in {parent}")
    return out


def clash(out: Path, names) -> None:
    """Refuse when a file the report would write (one of ``names``) exists and is not one this
    folder's report wrote and nobody changed since (see :func:`owned_files`), or is a link."""
    owned = owned_files(out)
    taken = []
    for name in names:
        path = out / name
        if os.path.lexists(path) and (name not in owned or path.is_symlink() or not path.is_file()):
            taken.append(name)
        else:
            parent = out
            for part in PurePosixPath(name).parts[:-1]:
                parent = parent / part
                if parent.is_symlink() or (parent.exists() and not parent.is_dir()):
                    taken.append(name)
                    break
    if taken:
        raise Clash(
            f"--out {out}: the report would replace {_few(taken)}, which t400 report did not write (or "
            "that changed since); move them away and run again (with --resume to reuse finished parts)"
        )


def move_into_place(tmp: Path, out: Path, files: list[str], extra: dict) -> None:
    """Move the new report's ``files`` from ``tmp`` into ``out``, remove the previous report's
    files that the new one does not have (only those it owns), and write the index last."""
    owned = owned_files(out)
    clash(out, files)
    hashes = {}
    for name in files:
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        hashes[name] = file_hash(tmp / name)
        os.replace(tmp / name, target)
    for name in sorted(owned - set(files)):
        (out / name).unlink(missing_ok=True)
    for folder in ("figures", "data"):
        d = out / folder
        if d.is_dir() and not d.is_symlink() and not any(d.iterdir()):
            d.rmdir()
    output.write_text(out / MARKER, json.dumps({**extra, "files": files, "sha256": hashes}, indent=1))


def _few(names, most: int = 3) -> str:
    names = list(names)
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")
