"""`t400 simulate`, `t400 variants` and `t400 duel` through click's CliRunner (and Ctrl-C
through a real process)."""

import json

import pandas as pd
from conftest import run

from analyzer.core.checkpoint import CheckpointFolder
from analyzer.core.notation import Deal, parse_hand
from interrupt import interrupt_t400

PNG = b"\x89PNG\r\n\x1a\n"


def test_simulate_json_reports_every_figure():
    r = run("simulate", "--variant", "qahwa", "--target", "31", "--matches", "400", "--seed", "2", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["matches"] == 400 and d["variant"] == "qahwa target=31"
    for key in ("hands_per_match", "dead_rate", "bid_distribution", "make_rate_by_bid", "first_partnership_win",
                "endings", "mean_final_scores", "cap_hits", "elapsed_s"):  # fmt: skip
        assert key in d
    assert len(d["first_partnership_win"]["ci95"]) == 2


def test_simulate_table_and_files(tmp_path):
    hands = tmp_path / "hands.csv"
    summary = tmp_path / "summary.parquet"
    per_match = tmp_path / "matches.parquet"
    r = run("simulate", "--matches", "120", "--seed", "1", "--hands", hands, "--parquet", summary,
            "--per-match", per_match)  # fmt: skip
    assert r.exit_code == 0, r.output
    rows = pd.read_parquet(per_match)
    assert list(rows["match"]) == list(range(120)) and set(rows["winner"]) <= {"1+3", "2+4"}
    assert "Hands per match" in r.stdout and "First-bidding partnership" in r.stdout
    rounds = pd.read_csv(hands)
    assert set(rounds["match"]) == set(range(120))
    assert {"bid1", "tricks4", "cards2", "score_before3", "dead"} <= set(rounds.columns)
    for s in range(1, 5):  # every hand in dot notation, 13 cards, the four a whole deck
        assert all(len(parse_hand(h)) == 13 for h in rounds[f"cards{s}"].head(30))
    assert str(Deal(tuple(parse_hand(rounds[f"cards{s}"][0]) for s in range(1, 5))))
    table = pd.read_parquet(summary)
    assert int(table[(table.section == "run") & (table.key == "matches")]["value"].iloc[0]) == 120
    assert not (tmp_path / "hands.csv.parts").exists()


def test_variants_table_plot_and_csv(tmp_path):
    png = tmp_path / "v.png"
    out = tmp_path / "v.csv"
    r = run(
        "variants",
        "dananeer",
        "syrian41",
        "dananeer:target=31",
        "--matches",
        "300",
        "--plot",
        png,
        "--csv",
        out,
    )
    assert r.exit_code == 0, r.output
    assert "dead-hand rate" in r.stdout and "dananeer target=31" in r.stdout
    assert png.read_bytes()[:8] == PNG
    table = pd.read_csv(out)
    assert set(table["variant"]) == {"dananeer", "syrian41", "dananeer target=31"}
    base = table[table["variant"] == "dananeer"]
    assert (base["diff"] == 0).all()


def test_duel_json():
    # seats of two bidders and two players: the kernel test_matches' plain-Python match compiles
    r = run("duel", "--a", "ev/standard", "--b", "counting/greedy", "--matches", "200", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["matches"] == 400 and d["pairs"] == 200
    assert d["ci95"][0] <= d["win_rate"] <= d["ci95"][1]
    assert "points_per_hand" in d


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    cases = [
        ("simulate", "--matches", "-3"),
        ("simulate", "--variant", "nope"),
        ("simulate", "--policy", "clever"),
        ("simulate", "--hands", tmp_path / "missing" / "h.csv"),
        ("simulate", "--hands", tmp_path / "h.xlsx"),
        ("simulate", "--resume"),
        ("variants", "qahwa:target=x"),
        ("variants", "qahwa", "qahwa"),
        ("duel", "--a", "psychic/standard"),
        ("simulate", "--scheduler", "local:zero"),
    ]
    for args in cases:
        r = run(*args)
        assert r.exit_code == 2, (args, r.output)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), (args, r.stderr)
        assert "Traceback" not in r.output


def test_unreachable_scheduler_is_bad_input():
    r = run("simulate", "--matches", "10", "--scheduler", "tcp://127.0.0.1:9")
    assert r.exit_code == 2
    assert r.stderr.startswith("Error: cannot connect to the Dask scheduler")


def test_resume_refuses_other_settings(tmp_path):
    CheckpointFolder(tmp_path / "h.csv.parts", "simulate", {"command": "simulate", "seed": 99}, resume=False)
    r = run("simulate", "--matches", "50", "--hands", tmp_path / "h.csv", "--resume")
    assert r.exit_code == 2
    assert "different settings" in r.stderr


def test_ctrl_c_keeps_finished_chunks_and_resume_finishes(tmp_path):
    out = tmp_path / "summary.csv"
    parts = tmp_path / "summary.csv.parts"
    code, _, err = interrupt_t400(
        ["simulate", "--matches", "60000", "--seed", "5", "--threads", "1", "--csv", out, "--no-progress"],
        lambda: len(list(parts.glob("block-*.npz"))) >= 2,
    )
    assert code == 130, err
    assert err.strip().startswith("Error: interrupted after") and "--resume" in err
    kept = len(list(parts.glob("block-*.npz")))
    assert kept >= 2 and not out.exists()
    r = run("simulate", "--matches", "60000", "--seed", "5", "--csv", out, "--resume", "--json")
    assert r.exit_code == 0, r.output
    resumed = json.loads(r.stdout)
    assert resumed["matches"] == 60_000 and out.exists() and not parts.exists()
    whole = json.loads(run("simulate", "--matches", "60000", "--seed", "5", "--json").stdout)
    for d in (resumed, whole):
        d.pop("elapsed_s"), d.pop("compile_s")
    assert resumed == whole
