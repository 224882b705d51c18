"""One home for Numba options and the on-disk kernel cache.

Every kernel is decorated with :data:`JIT` (serial), :data:`PJIT` (``parallel=True``),
:data:`FLAT` (thin steps inlined before typing) or ``jit(...)`` for special options (small hot
helpers use ``forceinline``).

Caching: ``cache=True`` writes compiled code to ``__pycache__`` beside the sources; when the
package directory is read-only, the user-wide cache directory (``~/.cache/numba``) is used
instead, so a read-only install still works (``$NUMBA_CACHE_DIR`` overrides both). Numba keys a
cached kernel on its own source file only, so a change in a helper it calls from another file
would leave it stale; for the files of this package the key is a hash of *all* kernel sources,
in every subfolder.
"""

import functools
import hashlib
import os
import stat
import sys
import tempfile
from pathlib import Path

import numba
from numba.core import caching, types
from numba.core.registry import CPUDispatcher

KERNELS_DIR = Path(__file__).resolve().parent


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def private_folder(path: Path) -> bool:
    """Make ``path`` a folder only this account can use (mode 0700), or check that it is one:
    a real folder (not a link), owned by this account, that no one else can write or read. In a
    shared temporary directory another account could make the folder first and fill it; Numba's
    cache index files are pickles, so such a folder must never be used."""
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return False
    try:
        st = os.lstat(path)
    except OSError:
        return False
    uid = os.getuid() if hasattr(os, "getuid") else None
    return (
        stat.S_ISDIR(st.st_mode)
        and (uid is None or st.st_uid == uid)
        and stat.S_IMODE(st.st_mode) & 0o077 == 0
        and _writable(path)
    )


def _cache_setting() -> bool:
    """Whether kernels are cached on disk. When neither the package folder nor the user cache
    directory can be written (a read-only install used by an account whose home is read-only),
    the cache goes to a private folder of this account in the temporary directory
    (:func:`private_folder`), or is off: said in one line."""
    if numba.config.CACHE_DIR or _writable(KERNELS_DIR / "__pycache__"):
        return True
    try:
        from numba.misc.appdirs import AppDirs

        user = Path(AppDirs(appname="numba", appauthor=False).user_cache_dir)
    except Exception:  # noqa: BLE001 - an unknown Numba layout: try the temporary folder
        user = None
    if user is not None and _writable(user):
        return True
    fallback = Path(tempfile.gettempdir()) / f"t400-numba-cache-{os.getuid() if hasattr(os, 'getuid') else 0}"
    if private_folder(fallback):
        numba.config.CACHE_DIR = str(fallback)
        print(
            f"note: the package and the user cache are read-only; kernels are cached in {fallback}",
            file=sys.stderr,
        )
        return True
    print(
        f"note: no private writable folder for the kernel cache ({fallback} is missing, not this "
        "account's or open to others); kernels compile on every run",
        file=sys.stderr,
    )
    return False


class Dispatcher(CPUDispatcher):
    """Numba's CPU dispatcher, except that a call from another kernel compiles for the plain
    types of its arguments. Numba types a constant argument as a literal (``Literal[int](3)``),
    so each constant passed (a suit, a flag, an offset) would compile the callee once more, and
    a loop variable whose first value is a constant would compile it twice (once for the
    literal, once for the loop's type). Branches that must be decided at compile time use
    types, not values (``None`` and the play kits of :mod:`kernels.policies.kit`)."""

    def get_call_template(self, args, kws):
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)

    def enable_caching(self):
        if _LoadingCache is None:
            super().enable_caching()
        else:
            self._cache = _LoadingCache(self.py_func)


def _loading_cache():
    """Numba's function cache, except that loading a cached kernel initialises only the runtime
    it links against: Numba first refreshes the whole compiler context (importing and installing
    every typing and lowering registry), which a process that only loads kernels never uses and
    which a compile does for itself anyway (``CompilerBase`` refreshes both contexts). ``None``
    for a Numba whose cache is laid out otherwise: its own loading then stays."""
    base = getattr(caching, "FunctionCache", None)
    try:
        from numba.core.runtime import rtsys
    except ImportError:
        return None
    if base is None or not all(hasattr(base, a) for a in ("_load_overload", "_guard_against_spurious_io_errors")):
        return None

    class LoadingCache(base):
        def load_overload(self, sig, target_context):
            rtsys.initialize(target_context)  # the NRT the loaded code calls
            with self._guard_against_spurious_io_errors():
                return self._load_overload(sig, target_context)
            return None  # an I/O error the guard swallowed: compile instead

    return LoadingCache


_LoadingCache = _loading_cache()


def njit(**options):
    """``numba.njit(**options)`` made with :class:`Dispatcher`."""
    options = dict(options)
    cache = options.pop("cache", False)
    targetoptions = {"nopython": True, **options}

    def decorate(func):
        dispatcher = Dispatcher(py_func=func, locals={}, targetoptions=targetoptions)
        if cache:
            dispatcher.enable_caching()
        return dispatcher

    return decorate


JIT_OPTIONS = {"cache": _cache_setting(), "nogil": True, "error_model": "numpy"}

JIT = njit(**JIT_OPTIONS)
PJIT = njit(parallel=True, **JIT_OPTIONS)
#: For thin steps (a dispatch, a wrapper choosing between two calls): inlined into the caller
#: before typing, so not one more function to compile, and not one more module whose
#: optimisation goes over everything it calls again (a ``forceinline`` level does). Not for
#: large bodies, whose typing at each call site costs more than a separate compile.
FLAT = njit(inline="always", **JIT_OPTIONS)


def jit(*args, **kwargs):
    """``njit`` with the project's options; extra keyword arguments override them."""
    options = {**JIT_OPTIONS, **kwargs}
    if args and callable(args[0]):
        return njit(**options)(args[0])
    if args:
        raise TypeError("jit takes options as keywords (signatures are not used here)")
    return njit(**options)


@functools.lru_cache(maxsize=1)
def kernels_source_hash() -> bytes:
    """SHA-256 over every kernel source file (name and content), in name order."""
    digest = hashlib.sha256()
    for path in sorted(KERNELS_DIR.rglob("*.py")):
        digest.update(path.relative_to(KERNELS_DIR).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.digest()


@functools.cache  # asked for each kernel (a path resolved on disk)
def _ours(py_file: str) -> bool:
    try:
        return Path(py_file).resolve().is_relative_to(KERNELS_DIR)
    except OSError:
        return False


def _package_stamped(base):
    class Locator(base):
        """Numba's ``base`` locator, keyed on all kernel sources for this package's files."""

        @classmethod
        def from_function(cls, py_func, py_file):
            if not _ours(py_file):
                return None
            return super().from_function(py_func, py_file)

        def get_source_stamp(self):
            return kernels_source_hash()

    Locator.__name__ = f"T400{base.__name__.lstrip('_')}"
    return Locator


def _install_locators() -> None:
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    if impl is None:
        return  # an unknown Numba layout: plain per-file caching still works
    if any(getattr(c, "__name__", "").startswith("T400") for c in impl._locator_classes):
        return
    bases = []
    for name in ("UserProvidedCacheLocator", "InTreeCacheLocator", "UserWideCacheLocator"):
        base = getattr(caching, name, None) or getattr(caching, "_" + name, None)
        if base is not None:
            bases.append(base)
    # Same order as Numba's own: $NUMBA_CACHE_DIR, then __pycache__, then the user cache.
    impl._locator_classes = [_package_stamped(b) for b in bases] + list(impl._locator_classes)


_install_locators()
