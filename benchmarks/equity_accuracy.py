"""How close the match-equity table is to fresh simulations of the rest of the match.

Score states are drawn at random from the rounds of simulated matches (ev/standard bots), so
they are the states a player meets; for each, the table's P(seats 1+3 win) is compared with
``--continuations`` simulated rests of the match from that state. Prints each state and the
mean absolute difference (and the part of it that the simulations' own noise explains).

    python benchmarks/equity_accuracy.py --states 50 --continuations 20000 --seed 7
"""

from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np

from analyzer.games.t400.equity import simulate_equity, table_for
from analyzer.games.t400.matches import simulate_rounds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="dananeer")
    ap.add_argument("--states", type=int, default=50)
    ap.add_argument("--continuations", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    start = time.perf_counter()
    table = table_for(args.variant)
    rounds = simulate_rounds(args.variant, matches=2000, seed=args.seed)
    rng = np.random.default_rng(args.seed)
    picks = rng.choice(len(rounds), size=args.states, replace=False)
    rows = []
    for i, k in enumerate(picks):
        r = rounds.iloc[int(k)]
        scores = [int(r[f"score_before{s}"]) for s in range(1, 5)]
        p_table = table.equity(scores, dealer=4)
        sim = simulate_equity(scores, 4, args.variant, args.continuations, seed=args.seed * 1000 + i)
        rows.append({"scores": scores, "table": p_table, "simulated": sim.p, "se": sim.se,
                     "diff": p_table - sim.p})  # fmt: skip
        if not args.json:
            print(f"{str(scores):>22}  table {100 * p_table:5.1f}%  simulated {100 * sim.p:5.1f}% ± {100 * sim.se:.1f}"
                  f"  diff {100 * (p_table - sim.p):+5.1f}")  # fmt: skip
    diffs = np.array([r["diff"] for r in rows])
    ses = np.array([r["se"] for r in rows])
    noise = float(np.mean(ses) * math.sqrt(2 / math.pi))  # E|N(0, se)|
    out = {
        "variant": args.variant,
        "states": args.states,
        "continuations": args.continuations,
        "seed": args.seed,
        "mean_abs_diff_pp": round(100 * float(np.mean(np.abs(diffs))), 3),
        "mean_diff_pp": round(100 * float(np.mean(diffs)), 3),
        "max_abs_diff_pp": round(100 * float(np.max(np.abs(diffs))), 3),
        "noise_mean_abs_pp": round(100 * noise, 3),
        "table": table.meta.get("command"),
        "seconds": round(time.perf_counter() - start, 1),
    }
    if args.json:
        out["rows"] = rows
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
