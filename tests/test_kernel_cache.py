"""The kernels from an install: a read-only package and home still run (the cache goes where it
can)."""

from pathlib import Path

import pytest


# -- caching ------------------------------------------------------------------------------------
@pytest.mark.parametrize("home_writable", [True, False])
def test_kernels_work_from_a_read_only_install(tmp_path, home_writable):
    """Install the package where nobody can write: kernels still compile and cache (in the user's
    cache directory, or, when the home is read-only too, in the temporary folder, said in one
    line) and nothing is written into the package. Root can write anywhere, so as root the
    package (and the home) are mounted read-only in a private mount namespace."""
    import os
    import shlex
    import shutil
    import stat
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    install = tmp_path / "site"
    for package in ("kernels", "analyzer"):
        shutil.copytree(root / package, install / package, ignore=shutil.ignore_patterns("__pycache__"))
    home = tmp_path / "home"
    home.mkdir()
    temp = tmp_path / "temp"
    temp.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"), PYTHONPATH=str(install), TMPDIR=str(temp))
    read_only = [install] if home_writable else [install, home]
    code = (
        "import numpy as np; from kernels.core.cards import FULL_DECK; from kernels.core.deal import deal_many;"
        "out = deal_many(1, 0, 1, 8, np.zeros(4, np.uint64), FULL_DECK, np.full(4, 13));"
        "print(int(out[0, 0]))"
    )
    command = [sys.executable, "-c", code]
    if os.geteuid() == 0:
        if not shutil.which("unshare"):
            pytest.skip("running as root without unshare: cannot make a read-only install")
        mounts = " && ".join(
            f"mount --bind {shlex.quote(str(d))} {shlex.quote(str(d))} && "
            f"mount -o remount,bind,ro {shlex.quote(str(d))}"
            for d in read_only
        )
        target = shlex.quote(str(install))
        script = f"{mounts} && touch {target}/probe 2>/dev/null && exit 99; exec {shlex.join(command)}"
        command = ["unshare", "-m", "sh", "-c", script]
    else:
        for folder in read_only:
            for path in [folder, *folder.rglob("*")]:
                path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    try:
        runs = [
            subprocess.run(command, env=env, cwd=tmp_path, capture_output=True, text=True) for _ in range(2)
        ]
    finally:
        for folder in read_only:
            for path in [folder, *folder.rglob("*")]:
                path.chmod(path.stat().st_mode | stat.S_IWUSR)
    if runs[0].returncode != 0 and "mount" in runs[0].stderr:
        pytest.skip(f"cannot mount read-only here: {runs[0].stderr.strip()}")
    for run in runs:
        assert run.returncode == 0, run.stderr
    assert runs[0].stdout == runs[1].stdout
    assert not list(install.rglob("*.nbi")), "nothing is written into the read-only package"
    if home_writable:
        assert list((home / ".cache").rglob("*.nbi")), "the kernels were cached in the user cache"
        assert runs[0].stderr == ""
    else:
        assert not list(home.rglob("*.nbi"))
        assert list(temp.rglob("*.nbi")), "the kernels were cached in the temporary folder"
        assert runs[0].stderr.startswith("note: ") and len(runs[0].stderr.splitlines()) == 1


def test_a_process_that_loaded_kernels_still_compiles_new_ones(tmp_path):
    """Loading a cached kernel skips Numba's refresh of its compiler context (``kernels.config``);
    a compile later in the same process, of a kernel that needs the typing and lowering
    registries the refresh installs (NumPy's sort, a list, a dict), still works, in a fresh
    process whose first kernel came from the disk cache."""
    import subprocess
    import sys

    code = (
        "import numpy as np\n"
        "from numba import njit\n"
        "from kernels.t400 import rules\n"
        "from analyzer.games.t400.rules import Variant\n"
        "v = Variant.preset('dananeer')\n"
        "assert rules.is_dead(v.kernel_rules(), 8, np.zeros(4, dtype=np.int64)) == v.is_dead((2, 2, 2, 2), (0, 0, 0, 0))\n"
        "assert type(rules.is_dead._cache).__name__ == 'LoadingCache'\n"
        "print(sum(rules.is_dead._cache_hits.values()))\n"
        "@njit\n"  # a kernel of this process alone (one made in `-c` has no file to cache from)
        "def fresh(a):\n"
        "    d = {1: 2.0}\n"
        "    xs = [float(x) for x in np.sort(a)]\n"
        "    return xs[0] + d[1]\n"
        "print(fresh(np.array([3.0, 1.0])))\n"
    )
    # the first run fills the cache for is_dead (if it was not); the second loads it (a cache
    # hit), then compiles `fresh`
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                              cwd=Path(__file__).resolve().parents[1])  # fmt: skip
        assert done.returncode == 0, done.stderr
        hits, value = done.stdout.split()
    assert int(hits) >= 1 and value == "3.0"


def test_a_kernel_not_on_disk_compiles_aside_and_a_cached_one_does_not(tmp_path, monkeypatch):
    """compile_aside starts its helper only for a kernel whose cache index is missing; the helper
    runs the warm-up (here one that leaves a mark) and the run can wait for it."""
    from types import SimpleNamespace

    from analyzer.core.runtime import compile_aside

    def kernel(index: Path):
        return SimpleNamespace(_cache=SimpleNamespace(_cache_file=SimpleNamespace(_index_path=str(index))))

    (tmp_path / "warm_mark.py").write_text(f"def run():\n    open({str(tmp_path / 'ran')!r}, 'w').close()\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    cached = tmp_path / "k.nbi"
    cached.write_bytes(b"")
    assert compile_aside(kernel(cached), "warm_mark:run") is None
    assert not (tmp_path / "ran").exists()
    helper = compile_aside(kernel(tmp_path / "missing.nbi"), "warm_mark:run")
    assert helper is not None and helper.wait(timeout=60) == 0 and (tmp_path / "ran").exists()
    # a warm-up that fails does not fail the question: the question compiles the kernel itself
    helper = compile_aside(kernel(tmp_path / "missing.nbi"), "no_such_module:run")
    assert helper is not None and helper.wait(timeout=60) != 0
    assert compile_aside(object(), "warm_mark:run") is None  # no cache to read: nothing started


@pytest.mark.parametrize("search", ["team", "bids"])
def test_the_search_parts_compiled_aside_are_those_a_solve_compiles(search):
    """A first ``t400 solve`` (or ``card``, ``review``) has the other core compile two parts of the
    search with the argument types of :data:`analyzer.core.solve.SEARCH_PARTS`; the kernel then
    loads them from the disk cache only if its own calls have those types. Each part's cache
    holds one specialisation after the helper's warm-up and a solve: a second one would be a
    compile the helper made for nothing (the types in ``SEARCH_PARTS`` to update)."""
    import importlib

    from numba.core import sigutils

    from analyzer.core.solve import SEARCH_PARTS, solve, solve_targets, warm_search_parts

    warm_search_parts(list(SEARCH_PARTS).index(search))
    if search == "team":
        solve("AKQ5.KJ4.T93.862 J94.A2.KQ86.QJ73 T876.Q9876.54.54 32.T53.AJ72.AKT9")
    else:
        solve_targets("AKQ.-.-.- 432.-.-.- JT9.-.-.- 876.-.-.-", [2, 2, 2, 2], [5, 5, 5, 5], trump="none")
    for module, name, signature in SEARCH_PARTS[search]:
        part = getattr(importlib.import_module(module), name)
        compiled = [key[0] for key in part._cache._cache_file._load_index()]
        assert compiled == [sigutils.normalize_signature(signature)[0]], (name, compiled)


def test_the_equity_compiled_before_the_rollout_is_the_one_it_calls():
    """A first ``t400 bid`` compiles the rollout's match equity by its argument types while the
    helper compiles the play; the rollout loads it only if it calls it with those types: after
    that compile and a bid, its cache holds one specialisation."""
    from analyzer.games.t400.advice import recommend_bid
    from analyzer.games.t400.bid_runs import SIDE_EQUITY_TYPES
    from kernels.t400 import rollout

    rollout.side_equity.compile(SIDE_EQUITY_TYPES)
    recommend_bid("AKQ5.KJ4.T93.862", samples=256)
    assert [key[0] for key in rollout.side_equity._cache._cache_file._load_index()] == [SIDE_EQUITY_TYPES]


def test_the_helper_imports_the_package_from_where_this_process_did(tmp_path, monkeypatch):
    """Run from a source checkout after an install, ``python -c`` would import the checkout (the
    current folder comes first) and compile into a cache this process never reads: the helper
    puts the folder this process imported the package from first on its path."""
    import sys
    from types import SimpleNamespace

    from analyzer.core.runtime import compile_aside

    here, decoy = tmp_path / "installed", tmp_path / "checkout"
    for folder, mark in ((here, "ran_installed"), (decoy, "ran_checkout")):
        (folder / "warm_pkg").mkdir(parents=True)
        (folder / "warm_pkg" / "__init__.py").write_text("")
        (folder / "warm_pkg" / "mod.py").write_text(
            f"def run():\n    open({str(tmp_path / mark)!r}, 'w').close()\n"
        )
    monkeypatch.syspath_prepend(str(here))
    monkeypatch.chdir(decoy)
    monkeypatch.delitem(sys.modules, "warm_pkg", raising=False)
    import warm_pkg.mod  # noqa: F401 - imported from ``here``, as the command imports the package

    kernel = SimpleNamespace(_cache=SimpleNamespace(_cache_file=SimpleNamespace(_index_path=str(tmp_path / "no.nbi"))))
    helper = compile_aside(kernel, "warm_pkg.mod:run")
    assert helper is not None and helper.wait(timeout=60) == 0
    assert (tmp_path / "ran_installed").exists() and not (tmp_path / "ran_checkout").exists()
