"""`t400 bench` and `t400 fit-bidder` through click's CliRunner."""

import json
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.games.t400.bidder import load_model
from cli import cli
from kernels.t400 import bidder as kb


def test_bench_json_has_the_documented_fields():
    r = CliRunner().invoke(cli, ["bench", "--seconds", "0.05", "--repeats", "1", "--no-cold", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    threads = str(data["threads"])
    assert set(data["deals_per_s"]) == {"1", threads}
    for policy in ("greedy", "standard"):
        assert set(data["hands_per_s"][policy]) == {"1", threads}
        assert all(v > 0 for v in data["hands_per_s"][policy].values())
    assert set(data["matches_per_s"]) == {"1", threads} and data["speedup"]["matches"] > 0
    assert data["compile_s"] >= 0


def test_bench_human_table():
    r = CliRunner().invoke(cli, ["bench", "--seconds", "0.05", "--repeats", "1", "--no-cold"])
    assert r.exit_code == 0, r.output
    assert "standard hands/s" in r.stdout and "deals/s" in r.stdout


@pytest.mark.slow  # compiles the fitting kernels (about 30 s): run with -m slow
def test_fit_bidder_writes_a_model(tmp_path):
    out = tmp_path / "model.npz"
    r = CliRunner().invoke(cli, ["fit-bidder", "--deals", "10000", "--iterations", "2", "--seed", "4",
                                 "--out", str(out), "--json"])  # fmt: skip
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["iterations"] == 2 and len(data["history"]) == 2
    model = load_model(out)
    assert model.array.shape == (kb.MODEL_SIZE,)
    cum = model.array[kb.CUM : kb.COUNTING_CUM].reshape(kb.N_BINS, 15)
    assert np.allclose(cum[:, 0], 1.0) and (np.diff(cum, axis=1) <= 1e-12).all()


def test_fit_bidder_rejects_tiny_runs():
    r = CliRunner().invoke(cli, ["fit-bidder", "--deals", "5"])
    assert r.exit_code == 2 and r.stderr.startswith("Error: ")


def test_shipped_model_is_sane():
    model = load_model()
    assert model.meta["history"][-1]["r2"] > 0.85
    # thirteen hearts make thirteen; a hand of twos and threes without hearts makes next to nothing
    from analyzer.core.notation import parse_hand

    assert model.estimate(parse_hand("-.AKQJT98765432.-.-").bits, 0) > 12.5
    assert model.estimate(parse_hand("5432.-.5432.65432").bits, 0) < 0.8


def test_compile_names_its_groups_and_refuses_unknown_ones():
    r = CliRunner().invoke(cli, ["compile", "double-dummy"])
    assert r.exit_code == 2 and r.stderr.startswith("Error: unknown kernel group 'double-dummy'")
    # the Tarneeb match kernels (cached here)
    r = CliRunner().invoke(cli, ["compile", "simulate_tarneeb", "--json"])
    assert r.exit_code == 0, r.output
    assert list(json.loads(r.stdout)["groups_s"]) == ["simulate_tarneeb"]


def test_compile_help_and_the_docs_name_every_group():
    from analyzer.bench import WARM_UPS

    helped = " ".join(CliRunner().invoke(cli, ["compile", "--help"]).output.split())
    docs = " ".join((Path(__file__).resolve().parents[1] / "docs" / "commands.md").read_text().split())
    for group in WARM_UPS:
        assert re.search(rf"[( ]{group}[,)]", helped), f"t400 compile --help does not name {group}"
        assert f"`{group}`" in docs, f"docs/commands.md does not name {group}"
