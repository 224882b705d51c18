"""Every figure a reader sees comes from a stored result: the docs, README, the notices and the
page quote the files that benchmarks, builds and reports wrote, and fail here when they differ.

Where the figures live: ``benchmarks/results/bench.json`` (``t400 bench --json``),
``benchmarks/results/bids_dd_speed.json`` (``benchmarks/bids_dd_speed.py --write``),
``benchmarks/results/tarneeb_pimc_objective.json`` (``benchmarks/tarneeb_pimc_objective.py --write``),
``benchmarks/results/strong_hands.json`` (``benchmarks/strong_hands.py --write``),
``benchmarks/results/tarneeb_declarers.json`` (``benchmarks/tarneeb_declarers.py --write``),
``analyzer/data/dd_rates.json`` (``benchmarks/dd_rates.py --write``),
``analyzer/data/cold_start.json`` (``benchmarks/cold_start.py --write``; checked in
``test_compile_budget.py``), the match-equity tables' own records, and the shipped reports.
"""

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from analyzer.bench import bench_text
from analyzer.core import runtime
from analyzer.games.t400 import equity as me
from analyzer.games.t400.equity_build import accuracy_summary

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks" / "results" / "bench.json"


def _doc(name: str) -> str:
    return (ROOT / name).read_text()


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize(
    "path", [BENCH, ROOT / "benchmarks" / "results" / "bids_dd_speed.json", runtime.DD_RATES_FILE, runtime.COLD_START_FILE,
             ROOT / "benchmarks" / "results" / "tarneeb_pimc_objective.json",
             ROOT / "benchmarks" / "results" / "strong_hands.json",
             ROOT / "benchmarks" / "results" / "tarneeb_declarers.json"]
)
def test_each_stored_result_says_when_where_and_how_it_was_made(path):
    data = json.loads(path.read_text())
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", data.get("date", "")) or path == runtime.COLD_START_FILE
    assert "cores" in data["machine"]
    assert data.get("command", data.get("made_by", "")).split()[0] in ("t400", "python")


def test_the_bench_example_is_the_stored_result():
    """docs/commands.md shows what ``t400 bench`` printed for benchmarks/results/bench.json."""
    result = json.loads(BENCH.read_text())
    text = _doc("docs/commands.md")
    block = re.search(r"```\n\$ (t400 bench[^\n]*)\n(.*?)\n```", text, re.S)
    assert block, "docs/commands.md has no t400 bench example"
    assert block.group(1) == result["command"]
    assert block.group(2) == bench_text(result)


def _rate(value: float) -> str:
    return f"{value / 1e6:.2f} M" if value >= 1e5 else f"{value / 1e3:.1f} k"


def test_the_throughput_table_is_the_stored_result():
    result = json.loads(BENCH.read_text())
    section = _doc("docs/performance.md").split("## Throughput", 1)[1].split("\n## ", 1)[0]
    assert f"Measured on {result['date']} with `{result['command']}`" in _flat(section)
    rows = dict(re.findall(r"^\| ([^|]+?) \| ([^|]+ \| [^|]+) \|$", section, re.M))
    figures = {
        "deals/s": result["deals_per_s"],
        "full hands/s (deal, bot bids, 52 cards), `greedy` play": result["hands_per_s"]["greedy"],
        "full hands/s, `standard` play": result["hands_per_s"]["standard"],
        "complete 400 matches/s (dananeer, `ev` bots, `standard` play)": result["matches_per_s"],
        "complete Tarneeb matches/s (preset `tarneeb`, `counting` bots, `team` play)": result["tarneeb_matches_per_s"],
    }
    for name, per in figures.items():
        assert rows[name] == f"{_rate(per['1'])} | {_rate(per['2'])}", name


def test_the_double_dummy_notices_read_the_measured_rates():
    """The time ``t400 bid --model dd`` announces is the stored rate's, and no rate is written in
    the code."""
    from analyzer.games.t400.game import _dd_note

    rates = json.loads(runtime.DD_RATES_FILE.read_text())["models"]
    assert set(rates) == {"dd", "solo-dd", "tarneeb-dd"}
    err = _dd_note("dd", 20_000, 1)
    rate = rates["dd"]["deals_per_s"]
    assert f"at {rate:.2g} deals a second a thread" in err
    assert f"about {20_000 / rate / 60:.0f} minutes for 20,000 deals on 1 thread(s)" in err
    for source in ("commands/bid.py", "analyzer/games/t400/game.py", "analyzer/games/tarneeb/game.py",
                   "analyzer/games/t400/advice.py", "analyzer/games/tarneeb/advice.py"):
        assert not re.search(r"DEALS_PER_S\s*=", _doc(source)), source


def test_docs_quote_the_double_dummy_time_from_the_measured_rates():
    from analyzer import config
    from analyzer.games.tarneeb.advice import DEFAULT_SAMPLES

    rates = json.loads(runtime.DD_RATES_FILE.read_text())["models"]
    deals = config.get().advice_dd_deals
    seconds = deals / (2 * rates["dd"]["deals_per_s"])
    said = re.search(r"(\d+) deals by default, about (\d+) s on two cores", _flat(_doc("docs/bidding.md")))
    assert said and int(said.group(1)) == deals and int(said.group(2)) == round(seconds)
    assert f"measured {rates['dd']['deals_per_s']:.2f} deals a second a thread" in _flat(_doc("docs/bidding.md"))
    tarneeb = DEFAULT_SAMPLES["dd"] / (2 * rates["tarneeb-dd"]["deals_per_s"])
    said = re.search(r"--model dd +# double dummy, about (\d+) s", _doc("docs/tarneeb.md"))
    assert said and int(said.group(1)) == round(tarneeb)


def test_docs_quote_the_equity_tables_build_times_and_accuracy():
    text = _flat(_doc("docs/bidding.md"))
    for name in ("dananeer", "qahwa", "syrian41"):
        seconds = me.table_for(name).meta["seconds"]
        assert f"{name} {seconds:.0f} s" in text, name
    summary = accuracy_summary(pd.read_csv(ROOT / "reports" / "data" / "equity_accuracy.csv"))
    assert (f"by {summary['mean_abs_diff_pp']:.2f} percentage points on average (largest "
            f"{summary['max_abs_diff_pp']:.2f}; the simulations' own noise alone gives "
            f"{summary['noise_mean_abs_pp']:.2f})") in text  # fmt: skip


def _report_minutes(folder: str) -> str:
    said = re.search(r"in \*\*([\d.]+) minutes\*\*", _doc(f"{folder}/README.md"))
    assert said, folder
    return said.group(1)


def test_docs_quote_the_reports_run_times():
    tarneeb, four = _report_minutes("reports/tarneeb"), _report_minutes("reports")
    assert f"with the defaults ({tarneeb} minutes on two cores" in _flat(_doc("docs/commands.md"))
    assert f"[`reports/tarneeb/`](../reports/tarneeb/README.md), {tarneeb} minutes)" in _flat(_doc("docs/tarneeb.md"))
    assert f"(the shipped ones {four} and {tarneeb} minutes on two cores)" in _flat(_doc("README.md"))
    for page in sorted((ROOT / "docs").glob("*.md")):
        for figure in re.findall(r"report[^.]{0,80}?([\d.]+) minutes", _flat(page.read_text())):
            assert figure in (tarneeb, four), (page.name, figure)


def test_the_page_says_the_measured_compile_time(monkeypatch):
    """The page's "preparing" line shows the first-run figure of the question's command."""
    from web.worker import first_compile

    messages = json.loads((ROOT / "analyzer" / "data" / "messages.json").read_text())
    for lang in ("en", "ar"):
        assert "{expected}" in messages[lang]["progress.compiling"], lang
    assert first_compile("bid", ["--hand", "AKQ5.KJ4.T93.862"]) == round(runtime.first_run_seconds("bid"))
    assert first_compile("bid", ["--game", "tarneeb"]) == round(runtime.first_run_seconds("bid-tarneeb"))
    assert first_compile("review", []) == round(runtime.first_run_seconds("review"))
    assert "compile_expected_s" in _doc("web/static/app.js")


def bids_dd_table(result: dict) -> str:
    """docs/performance.md's table of the 400 double dummy's speed, from its stored result."""
    sets = result["sets"]
    names = [f"{n} cards" for n in range(6, 11)] + ["13 cards (full deal)", "13 cards, seat 1 made or not"]
    heads = ["6", "7", "8", "9", "10", "13 (full deal)", "13, and seat 1 made or not"]

    def ms(x: float) -> str:
        return f"{x * 1e3:.3g} ms"

    rows = [
        "| cards a hand | " + " | ".join(heads) + " |",
        "|---" * (len(heads) + 1) + "|",
        "| median | " + " | ".join(ms(sets[n]["median_s"]) for n in names) + " |",
        "| mean | " + " | ".join(ms(sets[n]["mean_s"]) for n in names) + " |",
        "| slowest | " + " | ".join(ms(sets[n]["max_s"]) for n in names) + " |",
        "| nodes a solve (mean) | " + " | ".join(f"{sets[n]['mean_nodes']:,.0f}" for n in names) + " |",
    ]
    return "\n".join(rows)


def test_the_double_dummy_speed_table_is_the_stored_result():
    result = json.loads((ROOT / "benchmarks" / "results" / "bids_dd_speed.json").read_text())
    text = _doc("docs/performance.md")
    assert bids_dd_table(result) in text
    assert f"`{result['command']}`" in _flat(text) and result["date"] in text
    assert f"{result['sets']['memory_per_thread_bytes'] / 2**20:.1f} MiB of table a thread" in _flat(text)


def test_the_pimc_speed_table_is_the_stored_result():
    """docs/performance.md's table of pimc's speed, from benchmarks/results/pimc_speed.json."""
    stored = json.loads((ROOT / "benchmarks" / "results" / "pimc_speed.json").read_text())
    text = _doc("docs/performance.md")
    for name, key in (("400", "400"), ("Tarneeb", "tarneeb")):
        g = stored["games"][key]
        row = re.search(rf"^\| {name} \| (\d+) \| ([\d.]+) s \| ([\d.]+) s \| ([\d.]+) s \| ([\d.]+)x \|", text, re.M)
        assert row, name
        assert int(row.group(1)) == g["positions"]
        for shown, k in zip(row.groups()[1:4], ("reference_s", "product_s", "classes_s")):
            digits = max(3, len(shown.partition(".")[2]))  # a sub-millisecond figure shows more
            assert float(shown) == round(g["median_s"][k], digits), (name, k)
        assert float(row.group(5)) == round(g["median_ratio_reference_to_classes"], 1)
    assert stored["date"] in text and stored["command"] in text


def test_the_tarneeb_objective_row_is_the_stored_result():
    """docs/card-play.md's row on what Tarneeb's pimc maximises, from
    benchmarks/results/tarneeb_pimc_objective.json."""
    stored = json.loads((ROOT / "benchmarks" / "results" / "tarneeb_pimc_objective.json").read_text())
    row = next(line for line in _doc("docs/card-play.md").splitlines() if "tarneeb_pimc_objective.py" in line)

    def quoted(key: str) -> str:
        m = stored[key]
        return f"{m['margin_per_hand']:+.2f} [{m['ci95'][0]:+.2f}, {m['ci95'][1]:+.2f}]"

    assert f"points of the contract {quoted('pimc_points_vs_team')}" in row
    assert f"the side's tricks {quoted('pimc_tricks_vs_team')}" in row
    assert f"**{quoted('points_minus_tricks')}**" in row
    assert f"the same margin on {stored['same_margin']} deals" in row
    assert stored["date"] in row and stored["deals"] == 300 and stored["layouts"] == 32
    # the command of the row is the one that wrote the file, less its --json
    assert stored["command"].replace(" --json", "") in row


def test_the_strong_hands_row_is_the_stored_result():
    """docs/card-play.md's row on strong hands by who plays each side, from
    benchmarks/results/strong_hands.json."""
    stored = json.loads((ROOT / "benchmarks" / "results" / "strong_hands.json").read_text())
    row = next(line for line in _doc("docs/card-play.md").splitlines() if "strong_hands.py" in line)
    pairs, changes = stored["pairings"], stored["changes"]

    def change(side: str, old: str, new: str, measure: str) -> str:
        c = changes[f"{side}: {old} -> {new}"][measure]
        return f"{100 * c['share']:+.2f} ± {100 * c['se']:.2f}"

    below = pairs["standard/standard"]["below_solo_dd"]
    assert f"**{below['share']:.2%} ± {below['se']:.2%}**" in row
    for measure in ("made", "set_though_makeable"):
        shares = ", ".join(f"{pairs[k][measure]['share']:.2%}" for k in
                           ("standard/standard", "standard1/standard1", "standard/standard1", "standard1/standard"))
        assert shares in row, measure
    for measure in ("below_solo_dd", "below_but_made", "made", "set_though_makeable"):
        both = [change("bidder_side", "standard1/standard1", "standard/standard1", measure),
                change("bidder_side", "standard1/standard", "standard/standard", measure)]
        assert " and ".join(both) in row, measure
    for measure in ("made", "set_though_makeable"):
        both = [change("defenders", "standard1/standard1", "standard1/standard", measure),
                change("defenders", "standard/standard1", "standard/standard", measure)]
        assert " and ".join(both) in row, measure
    assert f"the same {stored['deals']:,} deals" in row
    assert f"`{stored['command']}`" in row and stored["date"] in row


def test_the_tarneeb_declarers_row_is_the_stored_result():
    """docs/card-play.md's row on Tarneeb's declarers by who plays each side, from
    benchmarks/results/tarneeb_declarers.json."""
    stored = json.loads((ROOT / "benchmarks" / "results" / "tarneeb_declarers.json").read_text())
    row = next(line for line in _doc("docs/card-play.md").splitlines() if line.startswith("|") and "tarneeb_declarers.py" in line)
    pairs, changes = stored["pairings"], stored["changes"]

    def ci(c: dict) -> str:
        return f"{c['mean']:+.3f} [{c['ci95'][0]:+.3f}, {c['ci95'][1]:+.3f}]"

    for k in ("team/team", "pimc/pimc"):
        assert f"**{ci(pairs[k]['declarers_minus_dd'])}**" in row, k
        assert ", ".join(f"{pairs[k]['by_seed'][s]['mean']:+.3f}" for s in map(str, stored["seeds"])) in row, k
        assert f"{pairs[k]['declaring_side_dd_tricks_lost']:.3f} and {pairs[k]['defenders_dd_tricks_lost']:.3f}" in row
    for k in ("pimc/team", "team/pimc"):
        assert ci(pairs[k]["declarers_minus_dd"]) in row, k
    for side, a, b in (("declarers", "team/team -> pimc/team", "team/pimc -> pimc/pimc"),
                       ("defenders", "team/team -> team/pimc", "pimc/team -> pimc/pimc")):  # fmt: skip
        assert f"{ci(changes[f'{side}: {a}'])} and {ci(changes[f'{side}: {b}'])}" in row, side
    assert f"({stored['layouts']} layouts" in row and f"the same {stored['deals']} deals" in row
    assert f"`{stored['command']}`" in row and stored["date"] in row


def test_the_tarneeb_pimc_leads_row_is_the_stored_result():
    """docs/card-play.md's row on pimc's later leads inside team's play, from
    benchmarks/results/tarneeb_pimc_leads.json."""
    stored = json.loads((ROOT / "benchmarks" / "results" / "tarneeb_pimc_leads.json").read_text())
    row = next(line for line in _doc("docs/card-play.md").splitlines() if "tarneeb_pimc_leads.py" in line)
    m = stored["pimc_leads_vs_team"]
    assert f"{m['margin_per_hand']:+.3f} points a deal [{m['ci95'][0]:+.2f}, {m['ci95'][1]:+.2f}], {m['deals']} deals" in row
    assert f"ahead on {m['a_better']}, behind on {m['b_better']}" in row
    assert f"{stored['pimc_seconds_per_lead']:.3f} s a lead" in row
    assert f"`{stored['command']}`" in row and stored["date"] in row
    assert f"(+{m['margin_per_hand']:.2f} [{m['ci95'][0]:+.2f}, {m['ci95'][1]:+.2f}])" in _flat(_doc("docs/card-play.md"))
