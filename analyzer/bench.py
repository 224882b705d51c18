"""``t400 bench``: kernel throughput, measured after compilation, on 1 thread and on all.

Each figure is the median of ``repeats`` timed runs of a kernel sized to take about
``seconds`` each; compilation (or loading from the disk cache) happens first and is timed on
its own. The cold compile time is measured in a fresh process with an empty kernel cache.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

from analyzer import config
from analyzer.core.fmt import format_table
from analyzer.core.runtime import NO_HELPERS, max_threads, threads_used
from analyzer.games.t400.bidder import bot_array
from analyzer.games.t400.rules import Variant
from analyzer.games.t400.simulate import lineup_array
from kernels.core import deal as kd
from kernels.core.cards import FULL_DECK
from kernels.t400 import rollout as kr
from kernels.t400.lineup import lineup_kit

CHUNK = 2048
MATCHES_PER_UNIT = 64


DEAL = "AKQ5.KJ4.T93.862 J94.A2.KQ86.QJ73 T876.Q9876.54.54 32.T53.AJ72.AKT9"
ENDING = "AKQ.-.-.- 432.-.-.- JT9.-.-.- 876.-.-.-"


def _warm_bid() -> None:
    """``t400 bid``: the rollout of the default lineup (EV bidders, ``standard`` play)."""
    from analyzer.games.t400.advice import recommend_bid

    recommend_bid("AKQ5.KJ4.T93.862", seat=2, bids=[3], samples=4)


def _warm_bid_win() -> None:
    """``t400 bid --objective win`` (the default when a score is not 0): the match-equity
    look-ups on top of the rollout."""
    from analyzer.games.t400.advice import recommend_bid

    recommend_bid("AKQ5.KJ4.T93.862", seat=2, bids=[3], scores=[12, 30, 5, 22], samples=4, objective="win")


def _warm_review() -> None:
    """``t400 review`` of README's example: each bid's analysis and each card against the
    double dummy with the bids."""
    from analyzer.games import registry

    text = ("game 400; variant dananeer; scores 0,0,0,0; deal AKQ5.KJ4.T93.862 JT9.AQ7.KQ5.AKQ3 8743.T986.A76.T9 "
            "62.532.J842.J754; bids 3,5,2,2; play SA S9 S3 S2 SK ST S4 S6 SQ SJ S7 H2")  # fmt: skip
    record = registry.read_records(text)[0]
    registry.get(record.game).review(record, samples=16, layouts=2)


def _warm_bid_dd() -> None:
    """``t400 bid --model dd`` and ``--model solo-dd``: the deals and bids without play, the
    scoring, and the solvers."""
    from analyzer.games.t400.advice import recommend_bid

    for model in ("dd", "solo-dd"):
        recommend_bid("AKQJT98765432.-.-.-", seat=1, samples=1, model=model)


def _warm_play() -> None:
    """``t400 play``: the bots' bids and the trick loop of ``standard`` play."""
    from analyzer.games.t400.simulate import play_hand

    play_hand(DEAL)
    play_hand(DEAL, bids=[4, 3, 3, 3])


def _warm_solve() -> None:
    """``t400 solve`` in its three modes (team and solo share one kernel; ``--cards`` and
    ``--table`` compile their own when first used)."""
    from analyzer.core.solve import solve, solve_targets

    solve(ENDING, trump="none")
    solve_targets(ENDING, [2, 1, 1, 1], [2, 1, 1, 1], trump="none")


def _match_args(variant: Variant):
    from analyzer.games.t400.matches import Lineup

    return Lineup.make(variant).kernel_args()


def _warm_simulate() -> None:
    """``t400 simulate``: whole matches of the default lineup, and their records."""
    from kernels.t400 import match as km

    args = _match_args(Variant.preset("dananeer"))
    rows = km.play_matches(1, 0, 2, 1, *args, 10)
    offsets = np.concatenate([[0], np.cumsum(rows[:, km.M_HANDS] + rows[:, km.M_DEAD])]).astype(np.int64)
    km.record_matches(1, 0, offsets, 1, *args, 10)


def _warm_duel() -> None:
    """``t400 duel``: whole matches of its default configurations, whose seats mix two bidders."""
    from analyzer.games.t400.matches import duel_lineups
    from kernels.t400 import match as km

    first, _ = duel_lineups("ev/standard", "counting/standard")
    km.play_matches(1, 0, 2, 1, *first.kernel_args(), 10)


def _tarneeb_match_args(lineup=None):
    from analyzer.games.tarneeb.matches import TarneebLineup, bidder_array

    lineup = lineup or TarneebLineup.make("tarneeb")
    return lineup.variant.kernel_rules(), lineup.lineup_array(), lineup.kit(), bidder_array(lineup.bidders)


def _warm_simulate_tarneeb() -> None:
    """``t400 simulate --game tarneeb``: whole Tarneeb matches (team play) and their records."""
    from kernels.tarneeb import match as ktm

    rows = ktm.play_matches(1, 0, 2, 1, *_tarneeb_match_args(), 10)
    offsets = np.concatenate(
        [[0], np.cumsum(rows[:, ktm.M_HANDS] + rows[:, ktm.M_PASSED] + rows[:, ktm.M_WORTHLESS])]
    )
    ktm.record_matches(1, 0, offsets.astype(np.int64), 1, *_tarneeb_match_args(), 10)


def _warm_duel_tarneeb() -> None:
    """``t400 duel --game tarneeb``: whole Tarneeb matches of its default configurations, whose
    seats mix two players' card play."""
    from analyzer.games.tarneeb.matches import DUEL_A, DUEL_B, duel_lineups
    from kernels.tarneeb import match as ktm

    first, _ = duel_lineups(DUEL_A, DUEL_B)
    ktm.play_matches(1, 0, 2, 1, *_tarneeb_match_args(first), 10)


def _warm_tarneeb_bid() -> None:
    """``t400 bid --game tarneeb``: the call rollout and the double-dummy model (with scores
    other than 0 the objective is the match, whose equity table is built, and its kernels
    compiled, on first use)."""
    from analyzer.games.tarneeb.advice import recommend_call

    recommend_call("AKQ5.KJ4.T93.862", seat=1, samples=4)
    recommend_call("AKQJT98765432.-.-.-", seat=1, samples=1, model="dd")


def _warm_card() -> None:
    """``t400 card``: the bids read from the layouts (the EV bidder) and pimc's values by the 400
    double dummy with the bids."""
    from analyzer.games.t400.pimc import recommend_card

    recommend_card("JT9.AQ7.KQ5.AKQ3", 2, [3, 5, 2, 2], ["SA"], layouts=2)


def _warm_card_tarneeb() -> None:
    """``t400 card --game tarneeb``: the auction read from the layouts (the EV calls and trump)
    and pimc's values by the partnership double dummy."""
    from analyzer.games.tarneeb.pimc import recommend_card

    recommend_card("AKQ5.KJ4.T93.862", 1, ["7", "pass", "pass", "pass"], "S", ["SA", "S2", "S3", "S4"], layouts=2)


def _warm_bench() -> None:
    """``t400 bench``: dealing and full hands of ``greedy`` and ``standard`` play (its matches
    are ``simulate``'s and ``simulate_tarneeb``'s)."""
    variant = Variant.preset("dananeer")
    rules = variant.kernel_rules()
    bot = bot_array(variant)
    zeros = np.zeros(4, dtype=np.int64)
    full = FULL_DECK
    counts = np.full(4, 13, dtype=np.int64)
    known = np.zeros(4, dtype=np.uint64)
    kd.deal_checksum(1, 0, 1, 4, known, full, counts)
    for policy in ("greedy", "standard"):
        lineup = lineup_array("ev", policy)
        kr.full_hands(1, 0, 1, 4, rules, lineup, lineup_kit(lineup), bot, zeros)


#: Kernel groups: what each main command compiles on its first run (its default options; other
#: options, such as another play policy or --continuations, compile their own kernels when first
#: used). ``t400 compile`` compiles them all, in parallel processes (:data:`PROCESSES`).
WARM_UPS = {
    "bid": _warm_bid,
    "bid_win": _warm_bid_win,
    "review": _warm_review,
    "bid_dd": _warm_bid_dd,
    "tarneeb_bid": _warm_tarneeb_bid,
    "play": _warm_play,
    "solve": _warm_solve,
    "simulate": _warm_simulate,
    "duel": _warm_duel,
    "simulate_tarneeb": _warm_simulate_tarneeb,
    "duel_tarneeb": _warm_duel_tarneeb,
    "bench": _warm_bench,
    "card": _warm_card,
    "card_tarneeb": _warm_card_tarneeb,
}


def warm_up(groups=None) -> float:
    """Compile (or load from the disk cache) the kernels of ``groups`` (default: all); seconds."""
    start = time.perf_counter()
    for name in groups or WARM_UPS:
        WARM_UPS[name]()
    return time.perf_counter() - start


#: Kernel groups by compiling process: groups that share callees (a trick loop, the bidders, a
#: solver) compile in one process, one after the other, so that the shared code compiles once.
#: ``duel_tarneeb`` shares next to nothing with ``simulate_tarneeb`` (its mixed kit types a match
#: kernel of its own), so it goes to the process that ends first.
PROCESSES = (("bid", "bid_win", "play", "simulate", "duel", "bench", "simulate_tarneeb"),
             ("solve", "tarneeb_bid", "bid_dd", "card", "review", "card_tarneeb", "duel_tarneeb"))  # fmt: skip


def _warm_each(groups) -> dict:
    """Each group compiled (or loaded), in order, in this process: its seconds, and the functions
    it compiled with their LLVM instructions (:mod:`analyzer.core.compiles`; none when loaded
    from the disk cache)."""
    from analyzer.core.compiles import CompileMeter

    out = {}
    for name in groups:
        with CompileMeter() as meter:
            seconds = warm_up([name])
        out[name] = {"seconds": seconds, **meter.figures()}
    return out


def compile_groups(env: dict | None = None, only=None) -> dict:
    """Compile (or load) every kernel group (or those named in ``only``), in parallel processes
    (:data:`PROCESSES`), as ``t400 compile`` does: the wall-clock seconds and each group's own.
    Raises RuntimeError naming the group that failed."""
    start = time.perf_counter()
    chosen = [tuple(n for n in names if only is None or n in only) for names in PROCESSES]
    procs = [
        (names, subprocess.Popen(
            [sys.executable, "-c", f"import json; from analyzer.bench import _warm_each; "
                                   f"print(json.dumps(_warm_each({list(names)!r})))"],
            # no helper processes: each group's compile is counted where it happens
            env={**(os.environ if env is None else env), NO_HELPERS: "1"},
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        ))
        for names in chosen
        if names
    ]  # fmt: skip
    groups = {}
    for names, proc in procs:
        out, err = proc.communicate()
        if proc.returncode != 0:
            raise RuntimeError(
                f"compiling {'+'.join(names)} failed: {' '.join(err.strip().splitlines()[-1:])}"
            )
        groups.update(json.loads(out.strip().splitlines()[-1]))
    return {
        "wall_s": time.perf_counter() - start,
        "groups_s": {name: g["seconds"] for name, g in groups.items()},
        "compiled": {name: {"functions": g["functions"], "instructions": g["instructions"]} for name, g in groups.items()},
    }


def cold_compile_seconds() -> dict:
    """:func:`compile_groups` from an empty kernel cache."""
    with tempfile.TemporaryDirectory(prefix="t400-cold-cache-") as cache:
        return compile_groups({**os.environ, "NUMBA_CACHE_DIR": cache})


def _timed(run, repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return times


def _rate(make_run, work_of, seconds: float, repeats: int) -> dict:
    """Median rate of ``make_run(n_chunks)``: calibrate the size, then time ``repeats`` runs."""
    n_chunks = 2
    while True:
        start = time.perf_counter()
        result = make_run(n_chunks)()
        took = time.perf_counter() - start
        if took > seconds / 4 or n_chunks > 1 << 16:
            break
        n_chunks *= 2
    n_chunks = max(2, int(n_chunks * seconds / max(took, 1e-6)))
    run = make_run(n_chunks)
    holder = {}

    def go():
        holder["result"] = run()

    times = _timed(go, repeats)
    work = work_of(holder["result"], n_chunks)
    rates = [work / t for t in times]
    del result
    return {"median": statistics.median(rates), "runs": rates, "work": work}


def run_bench(seconds: float = 1.0, repeats: int = 3, cold: bool = True, progress=None) -> dict:
    """Measure deals/s, full hands/s (greedy and standard), complete 400 matches/s and complete
    Tarneeb matches/s (preset tarneeb, counting bots, team play) on 1 thread and on all threads."""
    from kernels.t400 import match as km
    from kernels.tarneeb import match as ktm

    compile_s = warm_up(["bench", "simulate", "simulate_tarneeb"])
    tarneeb_args = _tarneeb_match_args()
    match_args = _match_args(Variant.preset("dananeer"))
    match_chunk = config.get().match_kernel_chunk
    variant = Variant.preset("dananeer")
    rules = variant.kernel_rules()
    bot = bot_array(variant)
    known = np.zeros(4, dtype=np.uint64)
    counts = np.full(4, 13, dtype=np.int64)
    full = FULL_DECK
    zeros = np.zeros(4, dtype=np.int64)
    all_threads = max_threads()
    thread_counts = sorted({1, all_threads})
    result = {
        "date": datetime.date.today().isoformat(),
        "machine": machine(),
        "command": f"t400 bench --seconds {seconds:g} --repeats {repeats}" + ("" if cold else " --no-cold"),
        "threads": all_threads,
        "compile_s": compile_s,
        "deals_per_s": {},
        "hands_per_s": {"greedy": {}, "standard": {}},
        "matches_per_s": {},
        "tarneeb_matches_per_s": {},
        "repeats": repeats,
        "seconds_per_run": seconds,
        "chunk_size": CHUNK,
        "bidder": "ev",
    }
    runs = {}
    steps = len(thread_counts) * 5 + (1 if cold else 0)
    done = []

    def measure(threads, slot, key, make_run, work_of):
        r = _rate(make_run, work_of, seconds, repeats)
        slot[str(threads)] = r["median"]
        runs[f"{key}/{threads}"] = r["runs"]
        done.append(key)
        if progress:
            progress(len(done), steps)

    for threads in thread_counts:
        with threads_used(threads):
            measure(threads, result["deals_per_s"], "deals",
                    lambda n: lambda: kd.deal_checksum(1, 0, n, CHUNK, known, full, counts),
                    lambda out, n: n * CHUNK)  # fmt: skip
            for name in ("greedy", "standard"):
                lineup = lineup_array("ev", name)
                measure(threads, result["hands_per_s"][name], name,
                        lambda n, lineup=lineup: lambda: kr.full_hands(1, 0, n, CHUNK, rules, lineup, lineup_kit(lineup), bot,
                                                                      zeros),
                        lambda out, n: int(out[:, kr.F_PLAYED].sum()))  # fmt: skip
            measure(threads, result["matches_per_s"], "matches",
                    lambda n: lambda: km.play_matches(1, 0, n * MATCHES_PER_UNIT, match_chunk, *match_args, 200),
                    lambda out, n: n * MATCHES_PER_UNIT)  # fmt: skip
            measure(threads, result["tarneeb_matches_per_s"], "tarneeb",
                    lambda n: lambda: ktm.play_matches(1, 0, n * MATCHES_PER_UNIT, match_chunk, *tarneeb_args, 200),
                    lambda out, n: n * MATCHES_PER_UNIT)  # fmt: skip
    top = str(all_threads)
    result["speedup"] = {
        "deals": result["deals_per_s"][top] / result["deals_per_s"]["1"],
        "greedy": result["hands_per_s"]["greedy"][top] / result["hands_per_s"]["greedy"]["1"],
        "standard": result["hands_per_s"]["standard"][top] / result["hands_per_s"]["standard"]["1"],
        "matches": result["matches_per_s"][top] / result["matches_per_s"]["1"],
        "tarneeb": result["tarneeb_matches_per_s"][top] / result["tarneeb_matches_per_s"]["1"],
    }
    result["runs"] = runs
    if cold:
        cold_info = cold_compile_seconds()
        result["cold_compile_s"] = cold_info["wall_s"]
        result["cold_compile_groups_s"] = cold_info["groups_s"]
        if progress:
            progress(steps, steps)
    return result


def machine() -> str:
    """The machine a measurement was made on, as the stored results name it."""
    return f"{os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}"


def bench_text(result: dict) -> str:
    """``t400 bench``'s table for a :func:`run_bench` result (also a stored one)."""
    top = str(result["threads"])
    cols = ["1"] if top == "1" else ["1", top]
    figures = [
        ("deals/s", result["deals_per_s"], "deals"),
        ("greedy hands/s", result["hands_per_s"]["greedy"], "greedy"),
        ("standard hands/s", result["hands_per_s"]["standard"], "standard"),
        ("standard matches/s", result["matches_per_s"], "matches"),
        ("tarneeb matches/s", result["tarneeb_matches_per_s"], "tarneeb"),
    ]
    rows = [[name, *(f"{per[c]:,.0f}" for c in cols), f"{result['speedup'][key]:.2f}x"] for name, per, key in figures]
    lines = [
        f"tarneeb400 bench: medians of {result['repeats']} runs of ~{result['seconds_per_run']:g} s; full hands = "
        "deal + EV bot bids + play; matches = complete dananeer matches (EV bots) and Tarneeb matches (preset "
        "tarneeb, counting bots, team play)",
        format_table(["", *(f"{c} thread{'s' if c != '1' else ''}" for c in cols), "speedup"], rows),
    ]
    line = f"compile (this process, from the disk cache when warm): {result['compile_s']:.1f} s"
    if "cold_compile_s" in result:
        groups = ", ".join(f"{k} {v:.1f} s" for k, v in result["cold_compile_groups_s"].items())
        line += f"; cold compile of all kernels (empty cache, groups in parallel): {result['cold_compile_s']:.1f} s ({groups})"
    lines.append(line)
    return "\n".join(lines)
