"""The architecture, checked: pyproject.toml's import-linter contracts (the layers commands > web >
analyzer > kernels import one way, nothing imports the entry point ``cli``, and no package's
modules import each other in a circle) hold for the code as it is."""

from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_are_kept(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True)
    report = capsys.readouterr().out
    assert code == 0, report
    assert "0 broken" in report
