"""One way to write an output file, for every command: a user's file, device or pipe is never lost.

What a path names decides how it is written:

- nothing yet, or a regular file: the new content goes to a temporary file beside it, made with
  a random name that cannot be a user's file (``O_EXCL``), and is renamed over the path only
  once whole, so a failure (a full disk, Ctrl-C) leaves the old file as it was and nothing else;
- a device, a named pipe or a link (``/dev/stdout``, ``/dev/null``, a fifo, a link to a file):
  written into directly, as a shell redirection would; it is never replaced by a plain file;
- a folder, a socket or a link to nothing: refused with one line.

Every failure is one :class:`analyzer.core.errors.WriteError` naming the path.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from analyzer.core.errors import T400Error, WriteError

#: The suffix of the temporary files this module makes (random names: ``.NAME.XXXXXXXX.t400-part``).
PART_SUFFIX = ".t400-part"


def kind(path: str | os.PathLike) -> str:
    """``"new"``, ``"file"`` (a regular file, replaced whole) or ``"direct"`` (a device, a pipe or
    a link, written into); raises :class:`T400Error` for what cannot be written at all."""
    path = os.fspath(path)
    try:
        link = os.lstat(path)
    except FileNotFoundError:
        return "new"
    except OSError as exc:
        raise T400Error(f"{path}: {exc.strerror or exc}") from None
    try:
        st = os.stat(path)
    except OSError:
        raise T400Error(f"{path}: a link to nothing; remove it or give another path") from None
    if stat.S_ISDIR(st.st_mode):
        raise T400Error(f"{path}: a folder, not a file")
    if stat.S_ISSOCK(st.st_mode):
        raise T400Error(f"{path}: a socket, not a file")
    if stat.S_ISLNK(link.st_mode) or not stat.S_ISREG(st.st_mode):
        return "direct"
    return "file"


def is_stream(path: str | os.PathLike) -> bool:
    """Whether ``path`` exists and is (or leads by links to) something other than a regular file:
    a device or a pipe, written into as a stream."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def check(path: str | os.PathLike, option: str = "") -> str:
    """Check before any work that ``path`` can be written (see :func:`kind`; its folder exists
    and is writable); returns the kind. ``option`` (``--csv``) starts the error line."""
    path = os.fspath(path)
    label = f"{option} {path}" if option else path
    try:
        what = kind(path)
    except T400Error as exc:
        raise T400Error(f"{option + ' ' if option else ''}{exc}") from None
    if what == "direct":
        if not os.access(path, os.W_OK):
            raise T400Error(f"{label}: cannot write to it")
        return what
    folder = os.path.dirname(os.path.abspath(path)) or "."
    if not os.path.isdir(folder):
        raise T400Error(f"{label}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise T400Error(f"{label}: cannot write in {folder}")
    return what


class Output:
    """An output file being written: :attr:`file` takes the content, :meth:`commit` puts it in
    place, :meth:`abort` leaves everything as it was (for a device or a pipe: what was written
    stays written). Use :func:`open_output` unless the writing spans several calls."""

    def __init__(self, path: str | os.PathLike, binary: bool = False, encoding: str = "utf-8"):
        self.path = os.fspath(path)
        self.tmp: str | None = None
        try:
            self.kind = kind(self.path)
        except T400Error as exc:
            raise WriteError(f"cannot write {exc}") from None
        mode = "wb" if binary else "w"
        opts = {} if binary else {"encoding": encoding, "newline": ""}
        try:
            if self.kind == "direct":
                self.file: IO = open(self.path, mode, **opts)  # noqa: SIM115 - closed by commit/abort
            else:
                folder = os.path.dirname(os.path.abspath(self.path))
                fd, self.tmp = tempfile.mkstemp(
                    prefix=f".{os.path.basename(self.path)}.", suffix=PART_SUFFIX, dir=folder
                )
                self.file = os.fdopen(fd, mode, **opts)
        except OSError as exc:
            self._drop()
            raise WriteError(f"cannot write {self.path}: {exc.strerror or exc}") from None

    def commit(self) -> None:
        """Close the file and, for a regular file, rename it over the path (same permissions as
        the file it replaces; a new one gets the usual ones, by the umask)."""
        try:
            self.file.close()
            if self.tmp is not None:
                os.chmod(self.tmp, _mode_for(self.path))
                os.replace(self.tmp, self.path)
                self.tmp = None
        except OSError as exc:
            self._drop()
            raise WriteError(f"cannot write {self.path}: {exc.strerror or exc}") from None

    def abort(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.file.close()
        self._drop()

    def _drop(self) -> None:
        if self.tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.tmp)
            self.tmp = None


def _mode_for(path: str) -> int:
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


@contextlib.contextmanager
def open_output(path: str | os.PathLike, binary: bool = False, encoding: str = "utf-8") -> Iterator[IO]:
    """``with open_output(path) as f: f.write(...)``: the file is in place when the block ends
    without an error, untouched when it raises (an :class:`OSError` becomes one
    :class:`WriteError` naming the path)."""
    out = Output(path, binary=binary, encoding=encoding)
    try:
        yield out.file
    except OSError as exc:
        out.abort()
        raise WriteError(f"cannot write {out.path}: {exc.strerror or exc}") from None
    except BaseException:
        out.abort()
        raise
    out.commit()


def write_text(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` to ``path`` as :func:`open_output` does."""
    with open_output(path) as f:
        f.write(text)


def write_bytes(path: str | os.PathLike, data: bytes) -> None:
    with open_output(path, binary=True) as f:
        f.write(data)


def save_npz(path: str | os.PathLike, compressed: bool = False, **arrays) -> None:
    """``np.savez`` (or ``savez_compressed``) of ``arrays`` to ``path`` as :func:`open_output`
    does (the name is kept as given: no ``.npz`` is added)."""
    import numpy as np

    with open_output(path, binary=True) as f:
        (np.savez_compressed if compressed else np.savez)(f, **arrays)


def is_part(name: str | Path) -> bool:
    """Whether ``name`` is one of this module's temporary files."""
    return str(name).endswith(PART_SUFFIX)
