"""`t400 report` with tiny sizes: every linked file exists, figures are PNGs, CSVs parse."""

import contextlib
import hashlib
import json
import re

import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer import config
from analyzer.reports.document import links_of
from cli import cli
from interrupt import interrupt_t400

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def tunables():
    """``tunables(name=value, ...)`` changes tunables until the end of the test."""
    with contextlib.ExitStack() as stack:
        yield lambda **changes: stack.enter_context(config.override(**changes))


def test_small_report_is_complete(tmp_path, tunables):
    tunables(report_dd_deals=12, report_example_hands=2, report_equity_states=6, report_match_examples=2)
    out = tmp_path / "rep"
    r = CliRunner().invoke(cli, ["report", "--out", str(out), "--samples", "4096", "--matches", "300",
                                 "--seed", "3", "--html", "--json"])  # fmt: skip
    assert r.exit_code == 0, r.output
    result = json.loads(r.stdout)
    assert json.loads((out / ".t400-report.json").read_text())["files"] == result["files"]
    assert not [p for p in out.iterdir() if p.name.startswith(".t400-report-")], (
        "no build or parts folder left"
    )
    index = (out / "README.md").read_text()
    assert "t400 report" in index and "minutes" in index
    docs = ["README.md"] + [t for t in links_of(index) if t.endswith(".md")]
    assert {"bidding-guide.md", "variants.md", "match.md", "method.md"} <= set(docs)
    linked = set()
    for doc in docs:
        text = (out / doc).read_text()
        for target in links_of(text):
            assert (out / target).is_file(), (doc, target)
            linked.add(target)
    pngs = [t for t in linked if t.endswith(".png")]
    csvs = [t for t in linked if t.endswith((".csv", ".csv.xz"))]
    assert len(pngs) >= 6 and len(csvs) >= 8
    for t in pngs:
        assert (out / t).read_bytes()[:8] == PNG
    for t in csvs:
        assert len(pd.read_csv(out / t)) > 0
    for f in (out / "figures").iterdir():
        assert f"figures/{f.name}" in linked
    html = (out / "report.html").read_text()
    assert html.count("data:image/png;base64,") == len(pngs)
    assert not re.search(r'src="(?!data:)', html)
    assert set(result["files"]) >= {"README.md", "report.html"}
    guide = pd.read_csv(out / "data" / "guide_hearts_top.csv")
    assert set(guide["seat"]) == {1, 2, 3, 4} and set(guide["bracket"]) == {"<=29", ">=30"}
    assert (guide["deals"].groupby([guide["seat"], guide["bracket"]]).sum() == 4096).all()


def _tree(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.slow  # whole report runs (kept under the suite's 10 minutes; run with -m slow)
def test_report_never_touches_files_it_did_not_write(tmp_path, tunables):
    tunables(report_dd_deals=4, report_example_hands=1, report_equity_states=2, report_match_examples=1)
    mine = tmp_path / "mine"
    (mine / "sub").mkdir(parents=True)
    (mine / "keep.txt").write_text("x")
    (mine / "sub" / "notes.md").write_text("my notes")
    before = _tree(mine)
    args = ["--samples", "1000", "--matches", "10"]
    r = CliRunner().invoke(cli, ["report", "--out", str(mine), *args])
    assert r.exit_code == 2 and "not a t400 report" in r.stderr and "--force" in r.stderr
    assert _tree(mine) == before and sorted(p.name for p in mine.iterdir()) == ["keep.txt", "sub"]
    r = CliRunner().invoke(cli, ["report", "--out", str(mine), "--force", *args])
    assert r.exit_code == 0, r.output
    after = _tree(mine)
    assert all(after[name] == content for name, content in before.items()), "every user file survives"
    assert "README.md" in after and "data/seat_value.csv" in after
    # a second run: the user's files are still there, so --force again; it keeps them
    (mine / "data" / "old_table.csv").write_text("from a previous report\n")
    marker = json.loads((mine / ".t400-report.json").read_text())
    marker["files"].append("data/old_table.csv")
    marker["sha256"]["data/old_table.csv"] = hashlib.sha256(b"from a previous report\n").hexdigest()
    (mine / ".t400-report.json").write_text(json.dumps(marker))
    r = CliRunner().invoke(cli, ["report", "--out", str(mine), *args])
    assert r.exit_code == 2 and "keep.txt" in r.stderr, "user files: refused without --force"
    r = CliRunner().invoke(cli, ["report", "--out", str(mine), "--force", *args])
    assert r.exit_code == 0, r.output
    assert not (mine / "data" / "old_table.csv").exists(), "the previous report's own stale file goes"
    assert all((mine / name).read_bytes() == content for name, content in before.items())


@pytest.mark.slow  # whole report runs (kept under the suite's 10 minutes; run with -m slow)
def test_report_into_the_current_folder(tmp_path, tunables, monkeypatch):
    tunables(report_dd_deals=4, report_example_hands=1, report_equity_states=2, report_match_examples=1)
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["report", "--out", ".", "--samples", "1000", "--matches", "10"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "README.md").is_file() and (tmp_path / ".t400-report.json").is_file()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == [".t400-report.json"]
    assert not list(tmp_path.parent.glob(".*-parts")), "nothing written beside the folder"


def test_report_bad_input():
    r = CliRunner().invoke(cli, ["report", "--samples", "10"])
    assert r.exit_code == 2 and r.stderr.startswith("Error: ")
    r = CliRunner().invoke(cli, ["report", "--out", "/nonexistent/dir/rep"])
    assert r.exit_code == 2 and "does not exist" in r.stderr


@pytest.mark.slow  # two report runs (kept under the suite's 10 minutes; run with -m slow)
def test_same_seed_same_numbers_whatever_the_threads(tmp_path, tunables):
    import analyzer.reports.build as sr

    tunables(report_dd_deals=6, report_example_hands=1, report_equity_states=2, report_match_examples=1)
    a = sr.build_report(tmp_path / "a", samples=3000, matches=200, seed=5, threads=1)
    b = sr.build_report(tmp_path / "b", samples=3000, matches=200, seed=5, threads=2)
    csvs = [f for f in a["files"] if f.endswith(".csv")]
    assert csvs and csvs == [f for f in b["files"] if f.endswith(".csv")]
    for f in csvs:
        assert (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes(), f


def test_smallest_sizes_still_make_a_report(tmp_path, tunables):
    """With too few deals for any group to show a bid, the tables and figures are empty, not broken."""
    tunables(report_dd_deals=4, report_example_hands=1, report_equity_states=2, report_match_examples=1)
    r = CliRunner().invoke(
        cli, ["report", "--out", str(tmp_path / "r"), "--samples", "1000", "--matches", "2"]
    )
    assert r.exit_code == 0, r.output
    assert (tmp_path / "r" / "figures" / "dealer_best_bid_by_prior.png").read_bytes()[:8] == PNG


@pytest.mark.slow  # two report runs (kept under the suite's 10 minutes; run with -m slow)
def test_ctrl_c_keeps_finished_parts_and_resume_reuses_them(tmp_path, tunables):
    out = tmp_path / "rep"
    parts = out / ".t400-report-parts"
    code, _, err = interrupt_t400(
        ["report", "--out", out, "--samples", "100000", "--matches", "200", "--seed", "2", "--no-progress"],
        lambda: len(list(parts.glob("guide-*.npz"))) >= 2,
    )
    assert code == 130, err
    last = err.strip().splitlines()[-1]  # after the compile notice, on a first run
    assert last.startswith("Error: interrupted") and "--resume" in last
    kept = len(list(parts.glob("*.npz")))
    assert kept >= 2 and sorted(p.name for p in out.iterdir()) == [".t400-report-parts"]
    tunables(report_dd_deals=4, report_example_hands=1, report_equity_states=2, report_match_examples=1)
    r = CliRunner().invoke(cli, ["report", "--out", str(out), "--samples", "100000", "--matches", "200",
                                 "--seed", "2", "--resume"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert f"{kept} parts reused" in (out / "README.md").read_text()
    assert not parts.exists()
    assert len(pd.read_csv(out / "data" / "seat_value.csv")) == 8
    other = tmp_path / "other"
    r = CliRunner().invoke(
        cli, ["report", "--out", str(other), "--samples", "5000", "--matches", "50", "--resume"]
    )
    assert r.exit_code == 0, r.output  # nothing kept for these settings: a fresh run
    assert "parts reused" not in (other / "README.md").read_text()


@pytest.mark.slow  # compiles the Tarneeb call analyzer and solver kernels (run with -m slow)
def test_small_tarneeb_report_is_complete(tmp_path, tunables):
    tunables(report_dd_deals=8, report_tarneeb_hands=3, report_tarneeb_call_samples=256)
    out = tmp_path / "tarneeb"
    r = CliRunner().invoke(cli, ["report", "--game", "tarneeb", "--out", str(out), "--samples", "4096",
                                 "--matches", "200", "--seed", "3", "--html", "--json"])  # fmt: skip
    assert r.exit_code == 0, r.output
    result = json.loads(r.stdout)
    marker = json.loads((out / ".t400-report.json").read_text())
    assert marker["files"] == result["files"] and "--game tarneeb" in marker["command"]
    assert "tarneeb_bidder_model_sha256" in marker
    index = (out / "README.md").read_text()
    docs = ["README.md"] + [t for t in links_of(index) if t.endswith(".md")]
    assert {"tricks.md", "opening.md", "variants.md", "method.md"} <= set(docs)
    linked = set()
    for doc in docs:
        for target in links_of((out / doc).read_text()):
            assert (out / target).is_file(), (doc, target)
            linked.add(target)
    assert sum(t.endswith(".png") for t in linked) == 4 and sum(t.endswith(".csv") for t in linked) == 6
    opening = pd.read_csv(out / "data" / "tarneeb_opening_hands.csv")
    assert sorted(opening["seat"]) == [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]
    variants = pd.read_csv(out / "data" / "tarneeb_variants.csv")
    assert variants["variant"].nunique() == 9
    dd = pd.read_csv(out / "data" / "tarneeb_dd_check.csv")
    assert set(dd["variant"]) == {"tarneeb", "egyptian"} and (dd["double_dummy"].between(0, 13)).all()


def test_tarneeb_hand_features_count_like_a_player():
    import numpy as np

    from analyzer.core.notation import Hand
    from analyzer.reports.tarneeb import hand_features, hcp_group

    hands = [
        "AKQ5.KJ4.T93.862",
        "A5.AKQJ9843.K3.2",
        "JT9.J987.T876.52",
        "AKQJ.A.AKQJ.AK32",
        "-.AKQ9876.AKQ5.43",
    ]
    f = hand_features(np.array([Hand.parse(h).bits for h in hands], dtype=np.uint64))
    assert list(f["hcp"]) == [13, 17, 2, 31, 18]
    assert list(f["shape"]) == ["4-3-3-3", "8-2-2-1", "4-4-3-2", "4-4-4-1", "7-4-2-0"]
    # the longest suit; ties go to the stronger suit (J987 hearts over T876 diamonds), then S H D C
    assert list(f["longest"]) == [0, 1, 1, 0, 1] and list(f["longest_len"]) == [4, 8, 4, 4, 7]
    assert list(hcp_group(f["hcp"].to_numpy())) == ["13-15", "16-18", "0-6", "19+", "16-18"]


def test_tarneeb_report_bad_input():
    r = CliRunner().invoke(cli, ["report", "--game", "tarneeb", "--samples", "10"])
    assert r.exit_code == 2 and r.stderr.startswith("Error: ")
    r = CliRunner().invoke(cli, ["report", "--game", "bridge"])
    assert r.exit_code == 2 and "bridge" in r.stderr


def test_a_large_table_is_kept_compressed_and_reads_back_the_same(tmp_path, monkeypatch):
    """Tables over COMPRESS_OVER bytes are written as .csv.xz (the same table, the same bytes, run
    after run); pandas reads them by name; small ones stay plain CSV."""
    import lzma

    from analyzer.reports import frame

    (tmp_path / "data").mkdir()
    ctx = frame.Context(tmp_path, 0, 0, 0, 1, None, None, None)
    small = pd.DataFrame({"a": [1, 2], "b": [0.5, 0.25]})
    big = pd.DataFrame({"hand": range(40_000), "ev": [i / 7 for i in range(40_000)]})
    assert ctx.data_link(small, "small") == "[data/small.csv](data/small.csv)"
    path = ctx.csv(big, "big")
    assert path == "data/big.csv.xz"
    first = (tmp_path / path).read_bytes()
    assert lzma.decompress(first) == big.to_csv(index=False, float_format="%.6g").encode()
    assert ctx.csv(big, "big") == path and (tmp_path / path).read_bytes() == first
    back = pd.read_csv(tmp_path / path)
    assert list(back["hand"]) == list(big["hand"]) and len(first) < frame.COMPRESS_OVER
    assert pd.read_csv(tmp_path / "data" / "small.csv").equals(small)
