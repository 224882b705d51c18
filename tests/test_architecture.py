"""The architecture, checked: pyproject.toml's import-linter contracts (the layers commands > web >
analyzer > kernels import one way, nothing imports the entry point ``cli``, and no package's
modules import each other in a circle) hold for the code as it is, and the code has no dead
functions, classes or variables (vulture, configured in pyproject.toml)."""

import subprocess
import sys
from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_are_kept(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True)
    report = capsys.readouterr().out
    assert code == 0, report
    assert "0 broken" in report


def test_no_dead_code():
    """Every function, method, class and variable of the product's code is used by the product,
    its tests or its benchmarks (Numba's and click's hooks excepted by their decorators; the rest
    that is kept on purpose is named, with why, in tests/vulture_whitelist.py)."""
    done = subprocess.run([sys.executable, "-m", "vulture"], cwd=ROOT,
                          capture_output=True, text=True)  # fmt: skip
    dead = [line for line in done.stdout.splitlines() if not line.startswith(("tests/", "benchmarks/"))]
    assert not dead, "\n".join(dead)
    assert done.returncode in (0, 3), done.stderr  # 3: dead code found, in tests or benchmarks only


def test_a_long_module_says_why_it_is_long():
    """A module of analyzer/ over 500 lines holds one concept and says so in a line of its
    docstring that starts with "Length:"; else it is split where it holds two ideas."""
    import ast

    unexplained = []
    for path in sorted((ROOT / "analyzer").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if text.count("\n") <= 500:
            continue
        doc = ast.get_docstring(ast.parse(text)) or ""
        if not any(line.startswith("Length: ") for line in doc.splitlines()):
            unexplained.append(f"{path.relative_to(ROOT)} ({text.count(chr(10))} lines)")
    assert not unexplained, unexplained
