"""What Tarneeb's pimc should maximise: the contract's points or the side's tricks, on the same
deals.

The product's pimc (``t400 card``, ``t400 duel --deals``) values each card by the points of the
hand for the mover's side; the per-card benchmarks' valued it by the side's tricks. Points rise
with every trick in each preset, so the two differ only where the contract's jump (made or set)
weighs against one more trick. Both play the same duplicate deals against ``--against`` (the EV
bots' contracts, :class:`analyzer.games.tarneeb.pimc.DuelTable`), with the same layouts (deal
``i``'s random numbers come from ``(seed, i)``, as in :func:`analyzer.core.hand_duel.duel_hands`),
so each deal gives both margins and their paired difference.

Usage: ``python benchmarks/tarneeb_pimc_objective.py [--deals 300] [--layouts 32] [--seed 11]
[--against team] [--json] [--write]``; ``--write`` keeps the result in
``benchmarks/results/tarneeb_pimc_objective.json``. Progress on stderr; Ctrl-C keeps the deals
finished.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from results import write

from analyzer.core.hand_duel import PIMC, deal_rng, margin_stats, play_once
from analyzer.core.policies import policy_id
from analyzer.games.tarneeb.pimc import OBJECTIVES, DuelTable
from analyzer.games.tarneeb.rules import as_tarneeb_variant


def measure(deals: int, layouts: int, seed: int, against: str, variant: str = "tarneeb") -> dict:
    v = as_tarneeb_variant(variant)
    table = DuelTable(v, deals, seed, layouts)  # one table: its deals dealt once, its objective switched
    them = policy_id(against)
    margins: dict[str, list[float]] = {o: [] for o in OBJECTIVES}
    tally = {"decisions": 0, "layouts": 0, "seconds": 0.0}
    start = time.perf_counter()
    try:
        for i, deal in enumerate(table.deals()):
            done = {}
            for o in OBJECTIVES:
                table.objective = o
                rng = deal_rng(seed, i)
                first = play_once(table, deal, [PIMC, them, PIMC, them], rng, tally)
                second = play_once(table, deal, [them, PIMC, them, PIMC], rng, tally)
                done[o] = (first - second) / 2
            for o in OBJECTIVES:
                margins[o].append(done[o])
            print(f"\r{i + 1}/{deals} deals, {time.perf_counter() - start:.0f} s", end="", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print(f"\ninterrupted: the {len(margins['points'])} deals finished are kept", file=sys.stderr)
    print(file=sys.stderr)
    diffs = [p - t for p, t in zip(margins["points"], margins["tricks"])]
    return {
        "variant": v.label, "against": against, "layouts": layouts, "seed": seed, "deals": len(diffs),
        **{f"pimc_{o}_vs_{against}": margin_stats(margins[o]) for o in OBJECTIVES},
        "points_minus_tricks": margin_stats(diffs),
        "same_margin": sum(d == 0 for d in diffs),
        "pimc_seconds_per_decision": tally["seconds"] / max(tally["decisions"], 1),
    }  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--layouts", type=int, default=32)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--against", default="team")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    out = measure(args.deals, args.layouts, args.seed, args.against)
    if args.write:
        write("tarneeb_pimc_objective", out)
    if args.json:
        print(json.dumps(out, indent=1))
        return
    for key in (*(f"pimc_{o}_vs_{args.against}" for o in OBJECTIVES), "points_minus_tricks"):
        m = out[key]
        lo, hi = m["ci95"]
        print(f"{key}: {m['margin_per_hand']:+.3f} points a deal [{lo:+.2f}, {hi:+.2f}] over {m['deals']} deals")
    print(f"same margin on {out['same_margin']} deals; {out['pimc_seconds_per_decision']:.3f} s a pimc decision")


if __name__ == "__main__":
    main()
