"""The compile budget (issue 53): counted the same way on any machine, judged by a check that
fails, and published from its data file."""

import json
import re
from pathlib import Path

import numba
import pytest
from conftest import run

from analyzer.bench import PROCESSES, WARM_UPS
from analyzer.core import compiles

ROOT = Path(__file__).resolve().parents[1]


def test_the_meter_counts_each_compiled_function_and_its_instructions():
    def f(x):
        s = 0
        for i in range(x):
            s += i * i
        return s

    g = numba.njit(cache=False)(f)
    with compiles.CompileMeter() as meter:
        g(10)
        g(11)  # the same signature: nothing more compiled
        g(2.5)  # another signature
    assert meter.functions == 2 and meter.instructions > 10
    with compiles.CompileMeter() as warm:
        g(12)
    assert warm.figures() == {"functions": 0, "instructions": 0}


def test_instructions_are_the_lines_of_function_bodies():
    text = """; ModuleID = 'm'
define i64 @f(i64 %x) {
entry:
  %a = add i64 %x, 1
  %b = mul i64 %a, %a
  store i64 %b, ptr @g
  br label %exit
exit:
  ret i64 %b
}
declare i64 @h(i64)
"""
    assert compiles.instructions(text) == 5


BUDGET = {"versions": compiles.versions(), "groups": {"bid": {"functions": 100, "instructions": 50_000},
                                                      "play": {"functions": 0, "instructions": 0}}}  # fmt: skip


def test_a_group_over_its_budget_is_one_line_naming_it_and_its_figures():
    assert compiles.over_budget({"bid": {"functions": 100, "instructions": 51_000},
                                 "play": {"functions": 0, "instructions": 0}}, BUDGET) == []  # fmt: skip
    over = compiles.over_budget({"bid": {"functions": 100, "instructions": 60_000},
                                 "play": {"functions": 0, "instructions": 0}}, BUDGET)  # fmt: skip
    assert len(over) == 1 and over[0].startswith("bid compiles 100 functions of 60,000 LLVM instructions")
    assert "budget of 100 functions of 50,000 (+3%)" in over[0]
    # one more function where the budget had none is over, however small
    over = compiles.over_budget({"bid": {"functions": 100, "instructions": 50_000},
                                 "play": {"functions": 1, "instructions": 40}}, BUDGET)  # fmt: skip
    assert len(over) == 1 and over[0].startswith("play compiles 1 functions")
    # nothing compiled at all: the kernels came from the disk cache, nothing to judge
    assert compiles.over_budget({"bid": {"functions": 0, "instructions": 0}}, BUDGET) == []
    # a group without a budget is named
    assert "no compile budget" in compiles.over_budget({"new": {"functions": 3, "instructions": 9}}, BUDGET)[0]


def test_other_versions_get_a_wider_tolerance_and_say_so():
    other = {**BUDGET, "versions": {"numba": "0.1", "llvmlite": "0.1"}}
    assert compiles.over_budget({"bid": {"functions": 100, "instructions": 55_000}}, other) == []
    over = compiles.over_budget({"bid": {"functions": 100, "instructions": 60_000}}, other)
    assert "(+15%)" in over[0] and "budget with 0.1" in over[0]


def test_the_shipped_budget_covers_every_group_in_the_order_compile_runs_them():
    budget = compiles.read_budget()
    assert list(budget["groups"]) == [g for names in PROCESSES for g in names]
    assert set(budget["groups"]) == set(WARM_UPS)
    for figures in budget["groups"].values():
        assert figures["functions"] >= 0 and figures["instructions"] >= 0
    assert budget["history"] and all(h["reason"] and h["date"] for h in budget["history"])
    assert budget["history"][-1]["instructions"] == {g: f["instructions"] for g, f in budget["groups"].items()}


def test_docs_quote_the_budget_file():
    """docs/performance.md's table is the budget file's, figure for figure."""
    budget = compiles.read_budget()
    text = (ROOT / "docs" / "performance.md").read_text()
    section = text.split("## The compile budget", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| ([\d,]+) \| ([\d.]+) s \|$", section, re.M)
    assert {g: (int(f), int(i.replace(",", "")), float(s)) for g, f, i, s in rows} == {
        g: (v["functions"], v["instructions"], v["seconds"]) for g, v in budget["groups"].items()
    }
    assert f"recorded on {budget['date']}" in section


@pytest.mark.parametrize(
    "args, words",
    [(["compile", "bid", "--check-budget"], "drop the GROUPS"), (["compile", "--write-budget"], "needs --reason"),
     (["compile", "nope"], "unknown kernel group")],
)  # fmt: skip
def test_compile_options_are_checked_before_any_work(args, words):
    r = run(*args)
    assert r.exit_code == 2 and words in r.stderr and r.stderr.count("\n") == 1


def test_the_check_says_when_it_could_not_judge(tmp_path, monkeypatch):
    """With every kernel in the disk cache (as here, after the suite's first compiles) nothing is
    compiled, so nothing is judged, and the command says so instead of passing in silence."""
    import analyzer.bench as bench

    monkeypatch.setattr(bench, "compile_groups", lambda only=None: {
        "wall_s": 1.0, "groups_s": {g: 0.1 for g in WARM_UPS},
        "compiled": {g: {"functions": 0, "instructions": 0} for g in WARM_UPS}})  # fmt: skip
    r = run("compile", "--check-budget")
    assert r.exit_code == 0 and "not checked" in r.stderr
    big = {g: {"functions": 10_000, "instructions": 10**9} for g in WARM_UPS}
    monkeypatch.setattr(bench, "compile_groups", lambda only=None: {
        "wall_s": 1.0, "groups_s": {g: 0.1 for g in WARM_UPS}, "compiled": big})  # fmt: skip
    r = run("compile", "--check-budget", "--json")
    assert r.exit_code == 1 and r.stderr.startswith("Error: compile budget exceeded: bid compiles 10000 functions")
    assert r.stderr.count("\n") == 1 and "compile_budget.json" in r.stderr
    assert json.loads(r.stdout)["compiled"]["bid"]["instructions"] == 10**9


def test_the_first_run_notices_were_measured_under_the_current_budget():
    """The compile notice reads analyzer/data/cold_start.json: every command's figures there must
    have been measured since the budget last changed (python benchmarks/cold_start.py --write)."""
    from analyzer.core.runtime import COLD_START_FILE

    stamp = compiles.budget_stamp()
    rows = json.loads(COLD_START_FILE.read_text())["commands"]
    stale = sorted(name for name, row in rows.items() if row.get("budget") != stamp)
    assert not stale, f"re-run python benchmarks/cold_start.py --write: {', '.join(stale)} measured before the budget"


def test_docs_and_readme_quote_the_first_run_figures():
    """docs/performance.md's first-run table is analyzer/data/cold_start.json's, and README's
    compile figure for its first command is the one the notice says."""
    from analyzer.core.runtime import COLD_START_FILE, first_run_seconds

    rows = json.loads(COLD_START_FILE.read_text())["commands"]
    text = (ROOT / "docs" / "performance.md").read_text()
    section = text.split("## The first run", 1)[1].split("\n## ", 1)[0]
    shown = sorted((float(a), float(b)) for a, b in re.findall(r"^\| `t400 [^|]*\| ([\d.]+) s \| ([\d.]+) s \|", section, re.M))
    assert shown == sorted((round(r["cold_s"], 1), round(r["warm_s"], 2)) for r in rows.values())
    readme = (ROOT / "README.md").read_text()
    said = re.search(r"The first run compiles the kernels that question needs \(about (\d+) s on two cores", readme)
    assert said and int(said.group(1)) == round(first_run_seconds("bid")), "README's first-run figure"
