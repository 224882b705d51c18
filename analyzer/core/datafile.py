"""Values kept on disk as data, never as code: one ``.npz`` file holds a JSON tree and its arrays.

A report's finished parts (dicts, lists, DataFrames, arrays, the analyzer's dataclasses) are
written with :func:`save` and read back with :func:`load`. Unlike a pickle, reading a file runs
nothing it names: arrays load with ``allow_pickle=False``, and a dataclass is rebuilt only when it
is one of the analyzer's own, already imported, and then field by field without calling its code.
A file that is not such a value (truncated, crafted, of another version) raises
:class:`BadDataFile`; callers treat it as missing.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import sys
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from analyzer.core import jsonfile
from analyzer.core.errors import T400Error
from analyzer.core.output import open_output

#: The tree's format; a file of another version is not read.
VERSION = 1

#: What ``np.load`` raises on a file that is not a whole ``.npz`` (missing, truncated, empty,
#: another format): catch these to say "not a ... file" in one line.
NPZ_ERRORS = (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile)


class BadDataFile(ValueError):
    """The file is not a value written by :func:`save` (of this version)."""


def write(fh, value) -> None:
    """Write ``value`` to the open binary file ``fh`` (see :func:`save`)."""
    arrays: dict[str, np.ndarray] = {}
    tree = {"version": VERSION, "value": _encode(value, arrays)}
    arrays["tree"] = np.frombuffer(json.dumps(tree).encode(), dtype=np.uint8)
    np.savez(fh, **arrays)


def save(path: str | Path, value) -> None:
    """Write ``value`` to ``path`` through :func:`analyzer.core.output.open_output` (whole or
    not at all; a failure is one :class:`WriteError`)."""
    with open_output(path, binary=True) as fh:
        write(fh, value)


def load(path: str | Path):
    """The value :func:`save` wrote to ``path``; :class:`BadDataFile` if the file is anything else."""
    try:
        with np.load(Path(path), allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
        tree = jsonfile.loads(arrays.pop("tree").tobytes(), "data tree", max_bytes=1 << 30)
        if not isinstance(tree, dict) or tree.get("version") != VERSION:
            raise BadDataFile(f"{path}: not a data file of version {VERSION}")
        return _decode(tree["value"], arrays)
    except BadDataFile:
        raise
    except T400Error as exc:
        raise BadDataFile(f"{path}: {exc}") from None
    except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError, EOFError,
            zipfile.BadZipFile, RecursionError) as exc:  # fmt: skip
        raise BadDataFile(f"{path}: {type(exc).__name__}: {exc}") from None


def _encode(v, arrays: dict):
    import pandas as pd

    if v is None or isinstance(v, (bool, str)):
        return v
    if type(v) is int or type(v) is float:
        return v if not isinstance(v, float) or np.isfinite(v) else {"$float": repr(v)}
    if isinstance(v, np.generic):
        if v.dtype.kind not in "biuf":
            raise TypeError(f"cannot keep a numpy scalar of dtype {v.dtype}")
        return {"$scalar": v.dtype.str, "value": _encode(v.item(), arrays)}
    if isinstance(v, np.ndarray):
        if v.dtype.hasobject:
            return {"$objects": [_encode(x, arrays) for x in v.tolist()], "shape": list(v.shape)}
        key = f"a{len(arrays)}"
        arrays[key] = v
        return {"$array": key}
    if isinstance(v, list):
        return [_encode(x, arrays) for x in v]
    if isinstance(v, tuple):
        return {"$tuple": [_encode(x, arrays) for x in v]}
    if isinstance(v, dict):
        if all(isinstance(k, str) and not k.startswith("$") for k in v):
            return {k: _encode(x, arrays) for k, x in v.items()}
        return {"$dict": [[_encode(k, arrays), _encode(x, arrays)] for k, x in v.items()]}
    if isinstance(v, pd.DataFrame):
        return {
            "$frame": [[_encode(c, arrays), _encode(v[c].to_numpy(), arrays)] for c in v.columns],
            "index": _encode(v.index.to_numpy(), arrays),
            "range_index": isinstance(v.index, pd.RangeIndex) and v.index.equals(pd.RangeIndex(len(v))),
        }
    if isinstance(v, pd.Series):
        return {"$series": _encode(v.to_numpy(), arrays), "index": _encode(v.index.to_numpy(), arrays),
                "name": _encode(v.name, arrays)}  # fmt: skip
    if dataclasses.is_dataclass(v) and not isinstance(v, type) and type(v).__module__.startswith("analyzer."):
        fields = {f.name: _encode(getattr(v, f.name), arrays) for f in dataclasses.fields(v)}
        return {"$dataclass": f"{type(v).__module__}:{type(v).__qualname__}", "fields": fields}
    raise TypeError(f"cannot keep a {type(v).__name__} as data")


def _decode(t, arrays: dict):
    import pandas as pd

    if t is None or isinstance(t, (bool, int, float, str)):
        return t
    if isinstance(t, list):
        return [_decode(x, arrays) for x in t]
    if not isinstance(t, dict):
        raise BadDataFile(f"unexpected {type(t).__name__} in the tree")
    if "$float" in t:
        text = t["$float"]
        if text not in ("nan", "inf", "-inf"):
            raise BadDataFile(f"bad float {text!r}")
        return float(text)
    if "$scalar" in t:
        return np.dtype(_dtype(t["$scalar"])).type(_decode(t["value"], arrays))
    if "$array" in t:
        return arrays[t["$array"]]
    if "$objects" in t:
        items = [_decode(x, arrays) for x in t["$objects"]]
        out = np.empty(len(items), dtype=object)
        out[:] = items
        return out.reshape([int(n) for n in t["shape"]])
    if "$tuple" in t:
        return tuple(_decode(x, arrays) for x in t["$tuple"])
    if "$dict" in t:
        return {_decode(k, arrays): _decode(x, arrays) for k, x in t["$dict"]}
    if "$frame" in t:
        columns = [(_decode(c, arrays), _decode(x, arrays)) for c, x in t["$frame"]]
        index = None if t.get("range_index") else _decode(t["index"], arrays)
        frame = pd.DataFrame({i: col for i, (_, col) in enumerate(columns)}, index=index)
        if not columns and index is None:
            frame = pd.DataFrame(index=pd.RangeIndex(len(_decode(t["index"], arrays))))
        frame.columns = [c for c, _ in columns]
        return frame
    if "$series" in t:
        return pd.Series(_decode(t["$series"], arrays), index=_decode(t["index"], arrays),
                         name=_decode(t["name"], arrays))  # fmt: skip
    if "$dataclass" in t:
        cls = _dataclass(t["$dataclass"])
        obj = object.__new__(cls)
        names = {f.name for f in dataclasses.fields(cls)}
        fields = t["fields"]
        if set(fields) != names:
            raise BadDataFile(f"{cls.__name__}: fields {sorted(fields)} are not {sorted(names)}")
        for name, x in fields.items():
            object.__setattr__(obj, name, _decode(x, arrays))
        return obj
    return {k: _decode(x, arrays) for k, x in t.items()}


def _dtype(text) -> np.dtype:
    dtype = np.dtype(str(text))
    if dtype.kind not in "biuf":
        raise BadDataFile(f"bad scalar dtype {text!r}")
    return dtype


def _dataclass(name) -> type:
    """The analyzer's own dataclass called ``name`` (``module:qualname``); its module must be
    imported already, so that a file can never make this process import anything."""
    module, _, qualname = str(name).partition(":")
    if not module.startswith("analyzer.") or module not in sys.modules or "." in qualname:
        raise BadDataFile(f"{name!r} is not one of the analyzer's dataclasses")
    cls = getattr(sys.modules[module], qualname, None)
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == module):
        raise BadDataFile(f"{name!r} is not one of the analyzer's dataclasses")
    return cls


@dataclass(frozen=True)
class ShippedKind:
    """A kind of generated array file (a bidder model, a match-equity table): the npz holds the
    array under ``key`` and its JSON ``meta`` (the command that made it, the data's fingerprints)."""

    what: str  #: "bidder model"
    key: str  #: the array's name in the file
    made_by: str  #: the command that makes one
    valid: Callable[[np.ndarray], bool]  #: the array's shape is this version's
    make: Callable  #: ``make(array, meta)``: the object the file stands for


def read_shipped(path: str | Path, kind: ShippedKind):
    """``kind.make(array, meta)`` of the ``kind`` file at ``path``: read once (the same object
    each time) and again only when the file changes on disk; a missing, damaged, foreign or
    non-finite file is one :class:`T400Error`."""
    path = str(path)
    try:
        st = Path(path).stat()
    except OSError:
        raise T400Error(f"no {kind.what} at {path}: run `{kind.made_by}` to make it") from None
    if not Path(path).is_file():
        raise T400Error(f"{kind.what} {path}: not a file")
    return _read_shipped(path, kind, (st.st_mtime_ns, st.st_size))


@functools.lru_cache(maxsize=16)
def _read_shipped(path: str, kind: ShippedKind, stamp: tuple[int, int]):
    try:
        with np.load(path) as data:
            array = np.ascontiguousarray(data[kind.key], dtype=np.float64)
            meta = json.loads(str(data["meta"]))
    except NPZ_ERRORS as exc:
        raise T400Error(f"{path}: not a {kind.what} made by {kind.made_by} ({exc})") from None
    if not kind.valid(array):
        raise T400Error(f"{path}: not a {kind.what} of this version (run {kind.made_by})")
    if not np.isfinite(array).all():
        raise T400Error(f"{path}: the {kind.what} holds numbers that are not finite (NaN or infinity)")
    return kind.make(array, meta)
