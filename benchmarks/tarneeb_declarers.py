"""Tarneeb's declarers against team double dummy, by who plays each side.

The per-card benchmark's declarer figure (``tarneeb_play_vs_dd.py``: the declaring team's tricks
minus team double dummy, the declarer's side on lead) is one side's losses against double dummy
less the other's: a stronger defence widens the declarers' shortfall whatever they play. This
benchmark plays the same deals and contracts (the EV bots' contracts of ``tarneeb_play_vs_dd.py
--seed s``) four times, the declaring side and the defenders each played by ``--a`` (a policy) or
``--b`` (a policy, or ``pimc``: the reference player, ``--layouts`` layouts a decision fitting the
auction), and reports for each pairing the declarers' tricks against team DD with its 95%
interval, how often they fall short, and the DD tricks a deal each side's cards lose; then, deal by
deal, what changing one side's player changes. A pairing with pimc gives the same figures as
``tarneeb_play_vs_dd.py --policy P --defenders Q --pimc-samples N --deals D --duplicate 0
--seed s`` (pimc draws its layouts from ``random.Random(s)`` in each pairing).

Usage: ``python benchmarks/tarneeb_declarers.py [--a team] [--b pimc] [--layouts 8] [--deals 200]
[--seeds 1,2] [--json] [--write]``; ``--deals`` is per seed; ``--write`` keeps the result in
``benchmarks/results/tarneeb_declarers.json``. Progress on stderr; Ctrl-C keeps the seeds
finished.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from play_vs_dd import mean_ci  # noqa: E402
from results import one_side_changes, report, seeds_text, two_players_args, two_players_parser  # noqa: E402
from tarneeb_play_vs_dd import BotAuctionReader, contracts, play_against_dd, side_cards  # noqa: E402

from analyzer.games.tarneeb.bidders import load_model  # noqa: E402
from analyzer.games.tarneeb.rules import TarneebVariant  # noqa: E402


def measure(a: str, b: str, layouts: int, deals: int, seeds: list[int]) -> dict:
    v = TarneebVariant.preset("tarneeb")
    rules, model = v.kernel_rules(), load_model().array
    reader = BotAuctionReader(rules, model)
    pairings = [f"{x}/{y}" for x in (a, b) for y in (a, b)]  # declarers/defenders
    diffs: dict = {k: [] for k in pairings}
    sides: dict = {k: {True: [], False: []} for k in pairings}
    done, start = [], time.perf_counter()
    try:
        for seed in seeds:
            hands, outcomes = contracts(deals * 2, seed, rules, model)
            hands, outcomes = hands[:deals], outcomes[:deals]
            got = {}
            for k in pairings:
                declarers, defenders = k.split("/")

                def progress(i, n, k=k, seed=seed):
                    print(f"\rseed {seed}, {k}: {i}/{n} deals ({time.perf_counter() - start:.0f} s)",
                          end="", file=sys.stderr, flush=True)  # fmt: skip

                got[k] = play_against_dd(hands, outcomes, rules, declarers, defenders, layouts, seed, reader, progress)
                print(file=sys.stderr)
            # a seed counts only once all four pairings have played it
            for k, (d, s) in got.items():
                diffs[k].extend(d)
                sides[k][True].extend(s[True])
                sides[k][False].extend(s[False])
            done.append(seed)
            print(f"seed {seed} done ({len(done)}/{len(seeds)})", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print(f"\ninterrupted: the {len(done)} seeds finished are kept", file=sys.stderr)
        if not done:
            raise SystemExit(130) from None
    n = len(done) * deals
    out: dict = {"a": a, "b": b, "layouts": layouts, "deals_per_seed": deals, "seeds": done, "deals": n,
                 "pimc_reads_auction": reader.stats(), "pairings": {}, "changes": {}}  # fmt: skip
    for k in pairings:
        decl, dfn = side_cards(sides[k][True], n), side_cards(sides[k][False], n)
        out["pairings"][k] = {
            "declarers_minus_dd": mean_ci(diffs[k]),
            "declarers_short_of_dd": float(np.mean(np.array(diffs[k]) < 0)),
            "by_seed": {str(seed): mean_ci(diffs[k][i * deals : (i + 1) * deals]) for i, seed in enumerate(done)},
            "declaring_side_dd_tricks_lost": decl["tricks_per_deal"],
            "defenders_dd_tricks_lost": dfn["tricks_per_deal"],
            "declaring_side_by_kind": decl["tricks_per_deal_by_kind"],
            "defenders_by_kind": dfn["tricks_per_deal_by_kind"],
        }
    # one side's player changed from a to b, the other side held
    for side, old, new in one_side_changes(a, b, ("declarers", "defenders")):
        out["changes"][f"{side}: {old} -> {new}"] = mean_ci(np.array(diffs[new]) - np.array(diffs[old]))
    return out


def text(r: dict) -> str:
    width = max(len(k) for k in [*r["pairings"], *r["changes"]])
    lines = [f"Tarneeb declarers against team DD: {seeds_text(r)}; pimc {r['layouts']} layouts a decision",
             f"{'declarers / defenders':{width}s} {'declarers - DD':>25s} {'short':>6s} {'lost, declaring side':>21s} {'lost, defenders':>16s}"]  # fmt: skip
    for k, p in r["pairings"].items():
        d = p["declarers_minus_dd"]
        seeds = ", ".join(f"seed {s} {c['mean']:+.3f}" for s, c in p["by_seed"].items())
        lines.append(f"{k:{width}s} {d['mean']:+8.3f} [{d['ci95'][0]:+.3f}, {d['ci95'][1]:+.3f}] "
                     f"{p['declarers_short_of_dd']:6.1%} {p['declaring_side_dd_tricks_lost']:21.3f} "
                     f"{p['defenders_dd_tricks_lost']:16.3f}  ({seeds})")  # fmt: skip
    lines.append("changing one side's player, the same deals (the declarers' tricks against team DD):")
    for k, c in r["changes"].items():
        lines.append(f"{k:{width}s} {c['mean']:+8.3f} [{c['ci95'][0]:+.3f}, {c['ci95'][1]:+.3f}]")
    return "\n".join(lines)


def main() -> None:
    parser = two_players_parser(__doc__, "tarneeb_declarers", "team", "pimc", 200, "1,2", "a Tarneeb policy, or pimc")
    parser.add_argument("--layouts", type=int, default=8, help="Layouts pimc solves a decision.")
    args, seeds = two_players_args(parser, others=("pimc",))
    if args.layouts < 1:
        parser.error("--layouts at least 1")
    start = time.perf_counter()
    result = measure(args.a, args.b, args.layouts, args.deals, seeds)
    report("tarneeb_declarers", result, start, args, text)


if __name__ == "__main__":
    main()
