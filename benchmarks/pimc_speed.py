"""pimc's speed: seconds a decision at 32 layouts, the product's against the reference as the
per-card benchmarks ran it before pimc moved into the product.

Positions: along live deals of 400 (the EV bots' bids, ``standard`` play, every ``--every``-th
card from the second trick on) and of classic Tarneeb (the EV bots' contracts, ``team`` play),
``--deals`` deals of each, seed ``--seed``. At each position the same 32 layouts (blind: the
cards played and the voids) are valued three ways:

* ``reference``: the values one position at a time, as the benchmarks did (400: the double dummy
  with the bids, :func:`analyzer.core.solve.targets_score_at`, on a copy of the position after
  each card; Tarneeb: DDS through endplay, ``solve_all_boards``, one board a layout);
* ``product``: :func:`analyzer.core.pimc.values_with_bids` and :func:`~analyzer.core.pimc.team_tricks`,
  every legal card of a layout from one table, on all threads;
* ``product, equal cards once``: the same, solving one card of each class of equal cards.

The cards chosen must agree (or be of equal value: the values are exact double dummy). Reported:
median and total seconds a decision, and the ratios, pair by pair. Usage: ``python
benchmarks/pimc_speed.py [--deals 4] [--every 6] [--seed 1] [--layouts 32] [--json] [--write]``;
``--write`` keeps the result in ``benchmarks/results/pimc_speed.json``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from copy import deepcopy

import numpy as np
from results import write

from analyzer.core import pimc
from analyzer.core.dealing import deal_hands
from analyzer.core.layouts import Position, sample_layouts
from analyzer.core.notation import Card
from analyzer.core.policies import policy_id
from analyzer.core.solve import targets_score_at
from analyzer.games.t400 import simulate
from analyzer.games.t400.lead import live_deals
from analyzer.games.t400.rules import Variant


def positions_400(deals: int, seed: int, every: int):
    v = Variant.preset("dananeer")
    hands, bids = live_deals(deals, seed, v, simulate.bot_array(v))
    pid = policy_id("standard")
    for h, b in zip(hands, bids):
        pos = Position(h, b)
        for k in range(48):
            if k >= 4 and k % every == 0 and len(pos.legal()) > 1:
                yield deepcopy(pos), [v.bid_value(int(x), 0) for x in b]
            pos.play(pos.kernel_card(pid))


def positions_tarneeb(deals: int, seed: int, every: int):
    from analyzer.games.tarneeb.bidders import load_model
    from analyzer.games.tarneeb.rules import TarneebVariant
    from kernels.core.kit import Kit
    from kernels.policies import play as kp
    from kernels.tarneeb import hand as kh

    rules, model = TarneebVariant.preset("tarneeb").kernel_rules(), load_model().array
    hands = deal_hands(deals * 2, seed=seed)
    out = np.zeros((len(hands), kh.R_SIZE), dtype=np.int64)
    kh.hands_outcomes(rules, hands, np.full(4, kh.EV), np.full(4, kp.TEAM), Kit(kp.TEAM), out, model)
    played = np.flatnonzero(out[:, kh.R_REDEAL] == kh.PLAYED)[:deals]
    pid = policy_id("team")
    for i in played:
        pos = Position(hands[i], leader=int(out[i, kh.R_DECLARER]), trump=int(out[i, kh.R_TRUMP]))
        for k in range(48):
            if k >= 4 and k % every == 0 and len(pos.legal()) > 1:
                yield deepcopy(pos), None
            pos.play(pos.kernel_card(pid))


def reference_400(pos, layouts, values) -> np.ndarray:
    out = np.zeros((len(layouts), len(pos.legal())), dtype=np.int64)
    for i, layout in enumerate(layouts):
        world = deepcopy(pos)
        world.hands = list(layout)
        for j, c in enumerate(pos.legal()):
            nxt = deepcopy(world)
            nxt.play(c)
            if nxt.played.bit_count() == 52:
                made = [(1 if t >= b else -1) * x for t, b, x in zip(nxt.taken, nxt.bids, values)]
                out[i, j] = made[0] + made[2] - made[1] - made[3]
            else:
                trick = [Card.from_index(x) for x in nxt.trick]
                out[i, j] = targets_score_at(nxt.hands, trick, nxt.leader + 1, nxt.bids, values, nxt.taken,
                                             trump="hearts")  # fmt: skip
    return out


def reference_tarneeb(pos, layouts) -> np.ndarray:
    from endplay.dds import solve_all_boards
    from play_vs_dd import Position as DdsPosition
    from play_vs_dd import card_index

    world = DdsPosition([0, 0, 0, 0])
    world.__dict__.update(deepcopy(pos.__dict__))
    boards = [world.ep_deal(layout) for layout in layouts]
    legal = pos.legal()
    out = np.zeros((len(layouts), len(legal)), dtype=np.int64)
    for i, solved in enumerate(solve_all_boards(boards)):
        got = {card_index(c): t for c, t in solved}
        out[i] = [got[c] for c in legal]
    return out


def choice(cards, values) -> int:
    totals = np.asarray(values).sum(axis=0)
    return max(zip(cards, totals), key=lambda x: (x[1], -(x[0] & 15)))[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=4)
    ap.add_argument("--every", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--layouts", type=int, default=32)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    result = {"command": "python benchmarks/pimc_speed.py " + " ".join(sys.argv[1:]), "layouts": args.layouts,
              "deals": args.deals, "seed": args.seed, "games": {}}  # fmt: skip
    for game, source in (("400", positions_400), ("tarneeb", positions_tarneeb)):
        rows = []
        for n, (pos, values) in enumerate(source(args.deals, args.seed, args.every)):
            layouts = sample_layouts(pos, args.layouts, random.Random(n))
            legal = pos.legal()
            sign = 1 if values is None or pos.mover % 2 == 0 else -1
            t0 = time.perf_counter()
            ref = reference_400(pos, layouts, values) if values else reference_tarneeb(pos, layouts)
            t1 = time.perf_counter()
            new = (pimc.values_with_bids(pos, layouts, legal, values) if values else pimc.team_tricks(pos, layouts, legal))
            t2 = time.perf_counter()
            classes = pimc.card_classes(pos)
            reps = [cls[-1] for cls in classes]
            once = pimc.values_with_bids(pos, layouts, reps, values) if values else pimc.team_tricks(pos, layouts, reps)
            t3 = time.perf_counter()
            assert (ref == new).all(), (game, n)
            expanded = once[:, [next(k for k, cls in enumerate(classes) if c in cls) for c in legal]]
            assert (expanded == new).all(), (game, n)
            a, b = choice(legal, sign * ref), choice(legal, sign * expanded)
            same = a == b or (sign * ref[:, legal.index(a)]).sum() == (sign * ref[:, legal.index(b)]).sum()
            rows.append({"cards": len(legal), "classes": len(reps), "reference_s": t1 - t0, "product_s": t2 - t1,
                         "classes_s": t3 - t2, "same_choice": bool(same)})  # fmt: skip
            print(f"\r{game}: {n + 1} positions", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        med = {k: statistics.median(r[k] for r in rows) for k in ("reference_s", "product_s", "classes_s")}
        ratio = [r["reference_s"] / r["classes_s"] for r in rows]
        result["games"][game] = {
            "positions": len(rows), "median_s": med, "total_s": {k: sum(r[k] for r in rows) for k in med},
            "median_ratio_reference_to_product": statistics.median(r["reference_s"] / r["product_s"] for r in rows),
            "median_ratio_reference_to_classes": statistics.median(ratio),
            "same_choice": sum(r["same_choice"] for r in rows),
        }  # fmt: skip
    if args.write:
        write("pimc_speed", result)
    if args.json:
        import json

        print(json.dumps(result, indent=2))
        return
    for game, g in result["games"].items():
        m = g["median_s"]
        print(f"{game}: {g['positions']} positions at {args.layouts} layouts; ms a decision (median): reference "
              f"{m['reference_s'] * 1e3:.1f}, product {m['product_s'] * 1e3:.1f}, equal cards once "
              f"{m['classes_s'] * 1e3:.1f}; "
              f"ratio {g['median_ratio_reference_to_classes']:.1f}x (median of pairs); same card chosen "
              f"{g['same_choice']}/{g['positions']}")  # fmt: skip


if __name__ == "__main__":
    main()
