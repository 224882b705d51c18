"""How much Tarneeb's later leads could learn from pimc: ``team`` with pimc's leads after the
first trick against ``team``, in duplicate.

Side A plays ``team`` but for its leads of tricks 2 to 12, which pimc chooses (the product's,
reading the auction, the contract's points); side B plays ``team``. Every deal (the EV bots'
contracts, :class:`analyzer.games.tarneeb.pimc.DuelTable`) is played twice with the sides
swapped, and deal ``i``'s layouts come from ``(seed, i)`` as in
:func:`analyzer.core.hand_duel.duel_hands`. The margin bounds what a lead model can gain by
imitating pimc while the rest of the play stays ``team``'s.

Usage: ``python benchmarks/tarneeb_pimc_leads.py [--deals 1000] [--layouts 32] [--seed 11]
[--json] [--write]``; ``--write`` keeps the result in ``benchmarks/results/tarneeb_pimc_leads.json``.
Progress on stderr; Ctrl-C keeps the deals finished.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from results import write

from analyzer.core.hand_duel import deal_rng, margin_stats
from analyzer.games.tarneeb.pimc import DuelTable
from analyzer.games.tarneeb.rules import as_tarneeb_variant
from kernels.policies import play as kp


def play(table: DuelTable, deal, pimc_side: int, rng, tally: dict) -> int:
    """Seats 1+3's points when side ``pimc_side`` (0: seats 1+3) leads by pimc from trick 2 on."""
    pos = table.start(deal)
    for k in range(52):
        if k % 4 == 0 and k >= 4 and (pos.mover & 1) == pimc_side:
            t0 = time.perf_counter()
            card, _ = table.pimc_card(deal, pos, rng)
            tally["decisions"] += 1
            tally["seconds"] += time.perf_counter() - t0
        else:
            card = pos.kernel_card(kp.TEAM)
        pos.play(card)
    return table.points(deal, pos)


def measure(deals: int, layouts: int, seed: int, variant: str = "tarneeb") -> dict:
    table = DuelTable(as_tarneeb_variant(variant), deals, seed, layouts)
    margins: list[float] = []
    tally = {"decisions": 0, "seconds": 0.0}
    start = time.perf_counter()
    try:
        for i, deal in enumerate(table.deals()):
            rng = deal_rng(seed, i)
            first = play(table, deal, 0, rng, tally)
            second = play(table, deal, 1, rng, tally)
            margins.append((first - second) / 2)
            print(f"\r{i + 1}/{deals} deals, {time.perf_counter() - start:.0f} s", end="", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print(f"\ninterrupted: the {len(margins)} deals finished are kept", file=sys.stderr)
    print(file=sys.stderr)
    return {"variant": table.v.label, "layouts": layouts, "seed": seed, "deals": len(margins),
            "pimc_leads_vs_team": margin_stats(margins), "pimc_leads": tally["decisions"],
            "pimc_seconds_per_lead": tally["seconds"] / max(tally["decisions"], 1)}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--layouts", type=int, default=32)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    out = measure(args.deals, args.layouts, args.seed)
    if args.write:
        write("tarneeb_pimc_leads", out)
    if args.json:
        print(json.dumps(out, indent=1))
        return
    m = out["pimc_leads_vs_team"]
    lo, hi = m["ci95"]
    print(f"team with pimc's later leads against team: {m['margin_per_hand']:+.3f} points a deal [{lo:+.2f}, {hi:+.2f}] "
          f"over {m['deals']} deals (ahead on {m['a_better']}, behind on {m['b_better']}); "
          f"{out['pimc_seconds_per_lead']:.3f} s a pimc lead")  # fmt: skip


if __name__ == "__main__":
    main()
