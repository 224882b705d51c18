"""Seeded random streams for kernels: xoshiro256** seeded by SplitMix64 from ``(seed, chunk)``.

A stream's state is a ``uint64[4]`` array. Chunk ``i`` of a run with seed ``s`` always uses
``stream(s, i)``, whichever thread or machine computes it, so results do not depend on the
thread count. Numba's ``np.random`` is never used inside kernels (its per-thread state is not
reproducible under ``prange``).
"""

import numpy as np

from kernels.config import JIT, jit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_CHUNK_KEY = np.uint64(0xD1B54A32D192ED03)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S17 = np.uint64(17)
_S45 = np.uint64(45)
_S19 = np.uint64(19)
_S7 = np.uint64(7)
_S57 = np.uint64(57)
_S32 = np.uint64(32)
_FIVE = np.uint64(5)
_NINE = np.uint64(9)
_LOW32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)


@JIT
def splitmix64(x):
    """One SplitMix64 output for input ``x`` (a ``uint64``)."""
    z = x + _GOLDEN
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@JIT
def stream(seed, chunk):
    """The xoshiro256** state (``uint64[4]``) of chunk ``chunk`` of a run seeded ``seed``."""
    state = np.empty(4, dtype=np.uint64)
    x = splitmix64(np.uint64(seed)) ^ (np.uint64(chunk) * _CHUNK_KEY)
    for i in range(4):
        x = splitmix64(x + np.uint64(i))
        state[i] = x
    if state[0] == 0 and state[1] == 0 and state[2] == 0 and state[3] == 0:
        state[0] = _GOLDEN
    return state


@jit(forceinline=True)
def _rotl(x, k):
    return (x << k) | (x >> (np.uint64(64) - k))


@jit(forceinline=True)
def next_u64(state):
    """Next 64 random bits from a xoshiro256** state (updated in place)."""
    result = _rotl(state[1] * _FIVE, _S7) * _NINE
    t = state[1] << _S17
    state[2] ^= state[0]
    state[3] ^= state[1]
    state[1] ^= state[2]
    state[0] ^= state[3]
    state[2] ^= t
    state[3] = _rotl(state[3], _S45)
    return result


@JIT
def below(state, n):
    """A uniform integer in ``[0, n)`` for ``1 <= n < 2**32`` (Lemire's method, unbiased)."""
    bound = np.uint64(n)
    m = (next_u64(state) >> _S32) * bound
    low = m & _LOW32
    if low < bound:
        threshold = (_TWO32 - bound) % bound
        while low < threshold:
            m = (next_u64(state) >> _S32) * bound
            low = m & _LOW32
    return np.int64(m >> _S32)


@jit(forceinline=True)
def below_from_bits(bits32, n):
    """``(value, ok)``: Lemire's map of 32 random bits to ``[0, n)``; ``ok`` is False in the rare
    case (probability below n / 2**32) where the value must be redrawn to stay unbiased."""
    bound = np.uint64(n)
    m = bits32 * bound
    low = m & _LOW32
    if low < bound and low < (_TWO32 - bound) % bound:
        return np.int64(0), False
    return np.int64(m >> _S32), True
