"""Files that are not what they claim, and disks that fill up: one `Error:` line, never a
traceback, never a half-written file (issue 36, items 11, 12 and 14)."""

import errno
import json
import re

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.core import jobs
from analyzer.games.t400.bidder import load_model, model_path
from analyzer.games.t400.equity import shipped_path
from analyzer.games.t400.rules import Variant
from cli import cli

HAND = "AKQ5.KJ4.T93.862"
DEAL = "AKQJT98765432.-.-.- -.AKQJT98765432.-.- -.-.AKQJT98765432.- -.-.-.AKQJT98765432"


def one_error_line(r, code=2):
    """The error line of a failed command (after the first-run compile notice, when the command
    compiled kernels before it failed)."""
    assert r.exit_code == code, r.output
    stderr = re.sub(r"^compiling kernels \([^)]*\)\.\.\.\n", "", r.stderr)
    assert stderr.startswith("Error: ") and stderr.count("\n") == 1, r.stderr
    assert "Traceback" not in r.output
    return stderr


def broken_copies(tmp_path, source, name):
    data = open(source, "rb").read()
    truncated = tmp_path / f"truncated-{name}"
    truncated.write_bytes(data[: len(data) // 2])
    empty = tmp_path / f"empty-{name}"
    empty.write_bytes(b"")
    return truncated, empty


def test_a_truncated_or_empty_bidder_model_is_one_error_line(tmp_path):
    for path in broken_copies(tmp_path, model_path(), "model.npz"):
        r = CliRunner().invoke(cli, ["play", DEAL, "--bidder-model", str(path)])
        line = one_error_line(r)
        assert "not a bidder model made by t400 fit-bidder" in line and str(path) in line


def test_a_truncated_or_empty_equity_table_is_one_error_line(tmp_path):
    for path in broken_copies(tmp_path, shipped_path(Variant.preset("dananeer")), "table.npz"):
        r = CliRunner().invoke(cli, ["equity", "--scores", "10,0,0,0", "--equity-table", str(path)])
        assert "not a match-equity table" in one_error_line(r)


def test_a_bidder_model_full_of_nan_is_refused(tmp_path):
    model = load_model()
    bad = tmp_path / "bm_nan.npz"
    np.savez_compressed(bad, model=np.full_like(model.array, np.nan), meta=json.dumps(model.meta))
    for args in (["play", DEAL], ["bid", HAND, "--samples", "256"]):
        r = CliRunner().invoke(cli, [*args, "--bidder-model", str(bad)])
        assert "not finite" in one_error_line(r)


def test_an_equity_table_with_nan_is_refused(tmp_path):
    with np.load(shipped_path(Variant.preset("dananeer"))) as data:
        table, meta = data["table"].copy(), str(data["meta"])
    table[-5] = np.nan
    bad = tmp_path / "eq_nan.npz"
    np.savez_compressed(bad, table=table, meta=meta)
    r = CliRunner().invoke(cli, ["equity", "--scores", "10,0,0,0", "--equity-table", str(bad)])
    assert "not finite" in one_error_line(r)


def no_space(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_full_disk_during_simulate_is_one_line_and_leaves_nothing_half_written(tmp_path, monkeypatch):
    out = tmp_path / "hands.csv"
    monkeypatch.setattr(jobs.np, "savez", no_space)
    r = CliRunner().invoke(cli, ["simulate", "--matches", "200", "--hands", str(out)])
    line = one_error_line(r, code=1)
    assert "No space left on device" in line and str(out) in line
    left = [p.name for p in tmp_path.rglob("*")]
    assert not [n for n in left if "tmp" in n or n.endswith(".t400-part")], left
    assert not out.exists()


def test_a_full_disk_while_writing_the_table_is_one_line(tmp_path, monkeypatch):
    import pandas as pd

    out = tmp_path / "hands.csv"
    real = pd.DataFrame.to_csv

    def to_csv(self, path=None, *args, **kwargs):
        if path is not None and hasattr(path, "write"):  # the table's file, opened by analyzer.core.output
            path.write("half a row")
            no_space()
        return real(self, path, *args, **kwargs)

    monkeypatch.setattr(pd.DataFrame, "to_csv", to_csv)
    r = CliRunner().invoke(cli, ["simulate", "--matches", "50", "--hands", str(out)])
    assert "No space left on device" in one_error_line(r, code=1)
    assert not out.exists() and not [p.name for p in tmp_path.rglob("*") if "part" in p.name and p.is_file()]
    # what stays is the finished blocks, whole, as after Ctrl-C (--resume takes them)
    assert [p.name for p in tmp_path.iterdir()] in ([], ["hands.csv.parts"])


@pytest.mark.parametrize("content", [b"", b"PK\x03\x04 not a zip", b"\x80\x04pickle"])
def test_a_damaged_checkpoint_block_is_computed_again(tmp_path, content):
    cp = jobs.Checkpoint(tmp_path / "parts", {"a": 1}, resume=False)
    cp.save("0", {"x": np.arange(3)})
    assert cp.has("0") and (cp.load("0")["x"] == np.arange(3)).all()
    (tmp_path / "parts" / "block-0.npz").write_bytes(content)
    assert not cp.has("0") and cp.load("0") is None
