"""One home for Numba options.

Every kernel is decorated with :data:`JIT` (serial) or :data:`PJIT` (``parallel=True``).
``cache=True`` writes compiled code next to the sources; when the package directory is
read-only, Numba's own cache locator falls back to a per-user cache directory
(``~/.cache/numba`` or ``$NUMBA_CACHE_DIR``), so a read-only install still works.
Floating-point kernels that tolerate reassociation may opt into ``fastmath`` on their own.
"""

from numba import njit

JIT_OPTIONS = {"cache": True, "nogil": True, "error_model": "numpy"}

JIT = njit(**JIT_OPTIONS)
PJIT = njit(parallel=True, **JIT_OPTIONS)


def jit(*args, **kwargs):
    """``njit`` with the project's options; extra keyword arguments override them."""
    options = {**JIT_OPTIONS, **kwargs}
    if args and callable(args[0]):
        return njit(**options)(args[0])
    return njit(*args, **options)
