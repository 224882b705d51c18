"""Card-play policies by name, and per-seat settings (one value for all seats, or four)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from analyzer.core.errors import T400Error
from kernels.policies import play as kp

#: Policy name -> kernel id.
POLICIES = {name: i for i, name in enumerate(kp.POLICY_NAMES)}


def id_of(name: str, ids: dict[str, int], what: str) -> int:
    """``ids[name]`` for a name read case-insensitively; an error naming the choices if unknown."""
    key = str(name).strip().lower()
    if key not in ids:
        raise T400Error(f"unknown {what} {name!r} (expected one of {', '.join(ids)})")
    return ids[key]


def policy_id(name: str) -> int:
    """The kernel id of play policy ``name`` (an error naming the choices if unknown)."""
    return id_of(name, POLICIES, "play policy")


def per_seat(value, convert, what: str) -> np.ndarray:
    """One value for all seats, or four values in seat order, as an int64[4] array of ids."""
    if isinstance(value, str) or not isinstance(value, Sequence):
        value = [value] * 4
    if len(value) != 4:
        raise T400Error(f"{what}: expected one value or four (one per seat), got {len(value)}")
    return np.array([convert(v) for v in value], dtype=np.int64)


def play_fingerprint() -> str:
    """A hash of the card-play sources (every policy and the trick mechanics). Data generated from
    played-out hands (the bidder model, reports/) records it, and a test flags the data as stale
    when play has changed since: regenerate it with the command the data also records."""
    root = Path(kp.__file__).resolve().parents[1]
    files = sorted((root / "policies").glob("*.py")) + [root / "core" / "tricks.py"]
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.relative_to(root).as_posix().encode() + b"\0" + f.read_bytes())
    return digest.hexdigest()[:16]
