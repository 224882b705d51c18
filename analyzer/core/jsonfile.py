"""One way to read JSON, from a file, a request or a command line: capped in size and in nesting
before it is parsed, and its shape checked by the reader, so that hostile input is one error line.

Python's parser recurses once a level: a few thousand nested brackets raise ``RecursionError``
(and code that walks the value would recurse as deep), so the nesting is counted first, by a scan
that does not recurse. Every failure is a :class:`analyzer.core.errors.T400Error` naming ``what``.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from pathlib import Path

from analyzer.core.errors import T400Error

#: Deepest nesting of lists and objects any reader accepts (the deepest the tool writes is 5).
MAX_DEPTH = 64
#: Largest input a reader takes unless it says otherwise.
MAX_BYTES = 16 << 20

class InputLimit(T400Error):
    """Input over a reader's size or nesting cap: refused whatever the reader would make of it."""


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)


def depth(data: bytes) -> int:
    """How deep lists and objects nest in the JSON text ``data`` (strings do not count)."""
    import numpy as np

    codes = np.frombuffer(_STRING.sub(b"", data), dtype=np.uint8)
    steps = (np.isin(codes, (ord("["), ord("{"))).astype(np.int64) - np.isin(codes, (ord("]"), ord("}"))))
    return int(np.cumsum(steps).max(initial=0))


def loads(data: str | bytes, what: str, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH):
    """The JSON value of ``data``; one :class:`T400Error` when it is too large, nested too deeply,
    not UTF-8 or not JSON."""
    raw = data.encode("utf-8", errors="surrogatepass") if isinstance(data, str) else bytes(data)
    if len(raw) > max_bytes:
        raise InputLimit(f"{what} is larger than {_size(max_bytes)}")
    if depth(raw) > max_depth:
        raise InputLimit(f"{what} is nested more than {max_depth} levels deep")
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise T400Error(f"{what} is not UTF-8 text") from None
    except RecursionError:  # the scan above should have caught it; never a traceback
        raise InputLimit(f"{what} is nested too deeply") from None
    except ValueError as exc:
        raise T400Error(f"{what} is not JSON ({exc})") from None


def read_bytes(path: str | os.PathLike, what: str, max_bytes: int = MAX_BYTES) -> bytes:
    """The bytes of file ``path`` (``-``: standard input), refused before reading when larger
    than ``max_bytes``; a folder or an unreadable file is one error line."""
    name = os.fspath(path)
    try:
        if name == "-":
            raw = sys.stdin.buffer.read(max_bytes + 1)
        else:
            st = os.stat(name)
            if stat.S_ISDIR(st.st_mode):
                raise T400Error(f"cannot read {what} {name}: a folder, not a file")
            if stat.S_ISREG(st.st_mode) and st.st_size > max_bytes:
                raise InputLimit(f"{what} {name}: larger than {_size(max_bytes)}")
            with open(name, "rb") as fh:
                raw = fh.read(max_bytes + 1)
    except OSError as exc:
        raise T400Error(f"cannot read {what} {name}: {exc.strerror or exc}") from None
    if len(raw) > max_bytes:
        raise InputLimit(f"{what} {name}: larger than {_size(max_bytes)}")
    return raw


def read_text(path: str | os.PathLike, what: str, max_bytes: int = MAX_BYTES) -> str:
    """The UTF-8 text of file ``path`` (``-``: standard input), capped as :func:`read_bytes`."""
    raw = read_bytes(path, what, max_bytes)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise T400Error(f"{what} {os.fspath(path)}: not UTF-8 text") from None


def read_json(path: str | os.PathLike | Path, what: str, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH):
    """The JSON value in file ``path``, read as :func:`read_bytes` and parsed as :func:`loads`."""
    return loads(read_bytes(path, what, max_bytes), f"{what} {os.fspath(path)}", max_bytes, max_depth)


def check_shape(value, shape, what: str) -> None:
    """Check that ``value`` has ``shape``: a type (``int``, ``str``, ``dict``, ...; ``float``
    takes whole numbers too, ``int`` never takes ``True``), a tuple of types, a list of one shape
    (every item), or a dict of key to shape (each key required, others allowed)."""
    problem = _mismatch(value, shape, "")
    if problem:
        raise T400Error(f"{what}: {problem}")


def _mismatch(value, shape, at: str) -> str | None:
    where = at or "the value"
    if isinstance(shape, dict):
        if not isinstance(value, dict):
            return f"{where} is not an object"
        for key, sub in shape.items():
            if key not in value:
                return f"{at + '.' if at else ''}{key} is missing"
            problem = _mismatch(value[key], sub, f"{at + '.' if at else ''}{key}")
            if problem:
                return problem
        return None
    if isinstance(shape, list):
        if not isinstance(value, list):
            return f"{where} is not a list"
        for n, item in enumerate(value):
            problem = _mismatch(item, shape[0], f"{at}[{n}]")
            if problem:
                return problem
        return None
    types = shape if isinstance(shape, tuple) else (shape,)
    if float in types:
        types = (*types, int)
    if isinstance(value, bool) and bool not in types:
        return f"{where} is not a {_names(shape)}"
    if not isinstance(value, types):
        return f"{where} is not a {_names(shape)}"
    return None


def _names(shape) -> str:
    types = shape if isinstance(shape, tuple) else (shape,)
    words = {dict: "object", list: "list", str: "string", int: "whole number", float: "number", bool: "true/false"}
    return " or ".join(words.get(t, t.__name__) for t in types)


def _size(n: int) -> str:
    return f"{n / (1 << 20):g} MB" if n >= 1 << 20 else f"{n:,} bytes"
