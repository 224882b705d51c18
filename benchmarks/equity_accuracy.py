"""How close the match-equity table is to fresh simulations of the rest of the match.

Score states are drawn at random from the rounds of simulated matches (ev/standard bots), so
they are the states a player meets; for each, the table's P(seats 1+3 win) is compared with
``--continuations`` simulated rests of the match from that state. Prints each state and the
mean absolute difference (and the part of it the simulations' own noise explains).

    python benchmarks/equity_accuracy.py --states 50 --continuations 20000 --seed 7
"""

from __future__ import annotations

import argparse
import json
import time

from analyzer.games.t400.equity import table_for
from analyzer.games.t400.equity_build import accuracy_summary, table_accuracy


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="dananeer")
    ap.add_argument("--states", type=int, default=50)
    ap.add_argument("--continuations", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    start = time.perf_counter()
    df = table_accuracy(args.variant, args.states, args.continuations, args.seed)
    for r in df.itertuples():
        print(f"{r.score1:4d} {r.score2:4d} {r.score3:4d} {r.score4:4d}  table {100 * r.table:5.1f}%  "
              f"simulated {100 * r.simulated:5.1f}% ± {100 * r.se:.1f}  diff {100 * r.diff:+5.1f}")  # fmt: skip
    out = {"variant": args.variant, "continuations": args.continuations, "seed": args.seed,
           **{k: round(v, 3) for k, v in accuracy_summary(df).items()},
           "table": table_for(args.variant).meta.get("command"), "seconds": round(time.perf_counter() - start, 1)}  # fmt: skip
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
