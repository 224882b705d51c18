"""Checkpoint folders: finished work kept on disk for ``--resume``, in a folder only the tool uses.

A checkpoint folder carries a marker (:data:`MARKER`) that the tool wrote: what kind of work it
keeps, the run's settings and their hash; beside it a journal (:data:`JOURNAL`) lists each kept
file's name with the SHA-256 of what was written, a line appended as each finishes (so keeping a
block costs the same however many are kept). The marker is the only proof that a folder is the
tool's:

- a path that does not exist is made (a folder and its marker);
- a folder with a marker of the same kind is the tool's: without ``resume`` its kept files are
  removed (only those the marker lists) and the run starts again; with ``resume`` its settings
  must be the run's;
- anything else (a folder without the marker, a file, a link, a device) is the user's: refused
  with one line, with or without ``--resume`` or ``--force``, and never written into or removed.

A kept file is used only when the marker lists it with the hash of its bytes, and the caller's
check of its content passes (shapes, types, row counts that match the settings); otherwise it is
computed again. The marker is read with :func:`analyzer.core.jsonfile.read_json` (a size cap, a
nesting cap, its shape checked), so a tampered folder is one error line or a recomputation.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from pathlib import Path

from analyzer.core import jsonfile, output
from analyzer.core.errors import T400Error, WriteError

#: The marker file of a checkpoint folder.
MARKER = ".t400-checkpoint.json"
#: The journal of kept files: a line ``NAME SHA256`` each.
JOURNAL = ".t400-checkpoint.files"
#: A marker's largest size (a run's settings).
MARKER_MAX_BYTES = 1 << 20
#: A journal's largest size (far more lines than a run of the largest size keeps).
JOURNAL_MAX_BYTES = 256 << 20

_SHAPE = {"t400": str, "version": int, "kind": str, "settings": dict, "settings_sha256": str}
_HEX = frozenset("0123456789abcdef")


def settings_hash(settings: dict) -> str:
    return hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()


def file_hash(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def read_marker(path: Path) -> dict | None:
    """The marker of checkpoint folder ``path``, or ``None`` when it has no valid one."""
    marker = Path(path) / MARKER
    try:
        if not stat.S_ISREG(os.lstat(marker).st_mode):
            return None
    except OSError:
        return None
    try:
        data = jsonfile.read_json(marker, what="checkpoint marker", max_bytes=MARKER_MAX_BYTES)
        jsonfile.check_shape(data, _SHAPE, "checkpoint marker")
    except T400Error:
        return None
    if data["t400"] != "checkpoint" or data["settings_sha256"] != settings_hash(data["settings"]):
        return None
    return data


def read_journal(path: Path) -> dict[str, str]:
    """The kept files the journal of folder ``path`` lists (name -> SHA-256); lines that are not
    a plain name and a hash are passed over, and a journal that cannot be read lists nothing."""
    journal = Path(path) / JOURNAL
    files: dict[str, str] = {}
    try:
        if not stat.S_ISREG(os.lstat(journal).st_mode) or os.path.getsize(journal) > JOURNAL_MAX_BYTES:
            return files
        text = journal.read_bytes().decode("ascii", errors="replace")
    except OSError:
        return files
    for line in text.splitlines():
        name, _, digest = line.rpartition(" ")
        if _plain(name) and len(digest) == 64 and set(digest) <= _HEX:
            files[name] = digest
    return files


def _plain(name) -> bool:
    """A file name directly inside the folder (no path, not hidden, not the marker)."""
    return isinstance(name, str) and name == os.path.basename(name) and name not in ("", ".", "..") and (
        not name.startswith(".")
    )


class CheckpointFolder:
    """The checkpoint folder ``path`` for work of ``kind`` under ``settings`` (a JSON-able dict)."""

    VERSION = 1

    def __init__(self, path: str | Path, kind: str, settings: dict, resume: bool, option: str = ""):
        self.path = Path(path)
        self.kind = kind
        self.settings = json.loads(json.dumps(settings))
        self.files: dict[str, str] = {}
        label = f"{option} {self.path}" if option else str(self.path)
        try:
            st = os.lstat(self.path)
        except FileNotFoundError:
            st = None
        except OSError as exc:
            raise T400Error(f"{label}: {exc.strerror or exc}") from None
        if st is None:
            self._make()
            return
        marker = read_marker(self.path) if stat.S_ISDIR(st.st_mode) else None
        if marker is None or marker["kind"] != kind or marker["version"] != self.VERSION:
            raise T400Error(
                f"{label}: exists and is not a t400 checkpoint of this run (no marker {MARKER} of "
                f"{kind}); it was left as it is: move it away or give another output path"
            )
        if resume:
            if marker["settings"] != self.settings:
                before = marker["settings"]
                changed = sorted(k for k in set(before) | set(self.settings) if before.get(k) != self.settings.get(k))
                raise T400Error(
                    f"resume folder {self.path} was made with different settings ({', '.join(changed)}); "
                    "run without --resume to start again"
                )
            self.files = read_journal(self.path)
            self._write_journal()
        else:
            self._clear(read_journal(self.path))
            self._write_marker()

    def _make(self) -> None:
        try:
            os.mkdir(self.path, 0o700)
        except OSError as exc:
            raise WriteError(f"cannot make {self.path}: {exc.strerror or exc}") from None
        try:
            self._write_marker()
        except BaseException:
            with contextlib.suppress(OSError):
                os.rmdir(self.path)
            raise

    def _own(self, name: str) -> Path:
        """``self.path / name``, one of the folder's own files, never reached through a link."""
        path = self.path / name
        if os.path.islink(path):
            path.unlink()
        return path

    def _write_journal(self) -> None:
        output.write_text(self._own(JOURNAL), "".join(f"{n} {h}\n" for n, h in self.files.items()))

    def _write_marker(self) -> None:
        """The marker, and the journal (the marker last: a folder is the tool's once it has one)."""
        self._write_journal()
        data = {"t400": "checkpoint", "version": self.VERSION, "kind": self.kind, "settings": self.settings,
                "settings_sha256": settings_hash(self.settings)}  # fmt: skip
        output.write_text(self._own(MARKER), json.dumps(data, indent=1))

    def _clear(self, files) -> None:
        """Remove the kept files the marker lists, and this module's temporary files."""
        for name in files:
            if _plain(name):
                self._unlink(name)
        for entry in os.scandir(self.path):
            if output.is_part(entry.name) and entry.is_file(follow_symlinks=False):
                self._unlink(entry.name)
        self.files = {}

    def _unlink(self, name: str) -> None:
        path = self.path / name
        with contextlib.suppress(OSError):
            if stat.S_ISREG(os.lstat(path).st_mode):
                path.unlink()

    def file(self, name: str) -> Path | None:
        """The kept file ``name`` when the marker lists it with the hash of its bytes, else ``None``."""
        digest = self.files.get(name)
        path = self.path / name
        if digest is None:
            return None
        try:
            if not stat.S_ISREG(os.lstat(path).st_mode) or file_hash(path) != digest:
                return None
        except OSError:
            return None
        return path

    def keep(self, name: str, write) -> None:
        """Keep a finished file: ``write(f)`` writes its bytes to the open binary file ``f``; it
        is put in place whole, then the marker lists it with its hash."""
        if not _plain(name):
            raise ValueError(f"not a plain file name: {name!r}")
        path = self.path / name
        if name not in self.files and os.path.lexists(path):
            raise T400Error(f"{path}: not written by this run; move it away (the checkpoint keeps it)")
        with output.open_output(path, binary=True) as f:
            write(f)
        digest = file_hash(path)
        try:
            fd = os.open(self._own(JOURNAL), os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "a", encoding="ascii") as journal:
                journal.write(f"{name} {digest}\n")
        except OSError as exc:
            raise WriteError(f"cannot write {self.path / JOURNAL}: {exc.strerror or exc}") from None
        self.files[name] = digest

    def remove(self) -> None:
        """Remove the kept files, the marker and the folder (left in place if it holds anything else)."""
        self._clear(self.files)
        for name in (JOURNAL, MARKER):
            self._unlink(name)
        with contextlib.suppress(OSError):
            self.path.rmdir()
