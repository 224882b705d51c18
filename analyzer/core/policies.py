"""Card-play policies by name, and per-seat settings (one value for all seats, or four)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from analyzer.core.errors import T400Error
from kernels.core.kit import Kit, kit_of
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


def policies_kit(policies) -> Kit:
    """The kit (:mod:`kernels.core.kit`) of per-seat policy ids: the policy all four share, or
    the ones they use, so that the kernels compile those only."""
    return kit_of(policies=policies)


def compile_play_aside(kit):
    """On a first run, compile the card play of a kernel that deals, bids and plays
    (``play_tricks`` for ``kit``, the larger half of its compile) in a helper process on the
    other core (:func:`analyzer.core.runtime.compile_aside`); the caller compiles the dealing and
    bidding meanwhile, waits for the helper, and then loads the play from the disk cache. ``None``
    when the play is cached (or helpers are off)."""
    from analyzer.core.runtime import compile_aside
    from kernels.policies.play import play_tricks

    return compile_aside(play_tricks, "analyzer.core.policies:warm_play", kit.policy, kit.policies)


def warm_play(policy: int, policies: int) -> None:
    """Compile ``play_tricks`` as the kernels call it (scalars; the play part of a kit of
    ``policy`` and its mask ``policies``): the helper of :func:`compile_play_aside`."""
    from kernels.policies.play import play_tricks

    kit = Kit(policy, policies=policies).play_part()
    h = [np.uint64(0x1FFF << (16 * s)) for s in range(4)]  # a suit each: dealing is not compiled here
    p = np.int64((kit.policies & -kit.policies).bit_length() - 1)  # the kit's lowest policy id
    b = np.int64(3)
    play_tricks(h[0], h[1], h[2], h[3], b, b, b, b, p, p, p, p, kit, np.int64(0), np.int64(3))


#: The policies whose play the 400 data (bidder model, equity tables, reports/) was made with.
FINGERPRINTED = ("greedy", "standard", "basic")
#: The probe: deals (each played in the five strains) and the seed of their stream.
PROBE_DEALS = 2000
PROBE_SEED = 400


def play_fingerprint(policies: Sequence[str] = FINGERPRINTED) -> str:
    """A hash of what ``policies`` do: every card they play on a fixed probe of deals, each deal
    in every strain with drawn bids and leader (:func:`kernels.policies.play.probe_play`; about
    0.8 million card choices a policy). Data generated from played-out hands (the bidder model,
    the match-equity tables, reports/) records it, and a test flags the data as stale once play
    behaves differently: regenerate it with the command the data also records. A change that
    leaves every probed card the same (a refactoring, a new policy) keeps the data current."""
    digest = hashlib.sha256()
    for name in policies:
        out = np.empty((5 * PROBE_DEALS, 56), dtype=np.int64)
        kp.probe_play(PROBE_SEED, PROBE_DEALS, policy_id(name), Kit(policy=policy_id(name)), out)
        digest.update(name.encode() + b"\0" + out.tobytes())
    return digest.hexdigest()[:16]


def numbers_fingerprint(array: np.ndarray) -> str:
    """A hash of an array's numbers (dtype, shape and values): what generated data depending on a
    model or table records of it, so that re-saving the same numbers keeps that data current."""
    a = np.ascontiguousarray(array)
    digest = hashlib.sha256(f"{a.dtype.str}{a.shape}".encode() + a.tobytes())
    return digest.hexdigest()[:16]
