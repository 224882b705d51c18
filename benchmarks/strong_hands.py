"""Strong hands against solo double dummy, by who plays each side.

The per-card benchmark's strong-hand figure (``play_vs_dd.py --strong``) is the share of deals
where seat 1, having bid 6 or more, takes fewer tricks than solo double dummy gives it (seat 1
alone against the other three, all cards seen), with one policy at all four seats. That share
moves with both sides' play: stronger defenders hold seat 1 to fewer tricks, and in 400 a trick
beyond the bid scores nothing, so a player that stops chasing tricks once its bid is made (for
partner's bid, or to set an opponent) is below solo double dummy without losing a point.

This benchmark plays the same deals and bids (``analyzer.games.t400.lead.live_deals``, the EV
bots' bids, seat 1's 6 or more, hearts trump: the deals of ``play_vs_dd.py --strong`` with the
same seed) four times: the bidder's side (seats 1 and 3) and the defenders (2 and 4) each played
by ``--a`` or ``--b``. For each pairing it reports the share below solo double dummy, the share of
bids made, the share *set though solo double dummy makes the bid* (the failures that cost points)
and the share below solo double dummy with the bid made (tricks that score nothing); then, deal
by deal, what changing one side's player changes, with standard errors.

Usage: ``python benchmarks/strong_hands.py [--a standard] [--b standard1] [--deals 800]
[--seeds 1,2,3,4] [--json] [--write]``; ``--deals`` is per seed (seed ``s`` plays the deals of
``play_vs_dd.py --strong N --seed s``); ``--write`` keeps the result in
``benchmarks/results/strong_hands.json``. Progress on stderr, a line a seed; Ctrl-C keeps the
seeds finished.
"""

from __future__ import annotations

import sys
import time

import numpy as np
from results import one_side_changes, report, seeds_text, two_players_args, two_players_parser

from analyzer.core.policies import policy_id
from analyzer.core.runs import mean_se
from analyzer.core.solve import solve_many
from analyzer.games.t400 import simulate
from analyzer.games.t400.lead import live_deals
from analyzer.games.t400.rules import Variant
from kernels.core.cards import HEARTS
from kernels.core.kit import kit_of
from kernels.policies import play as kp

#: What each pairing reports, per deal (0/1): below solo DD, bid made, set though solo DD makes it,
#: below solo DD with the bid made (tricks that score nothing in 400).
MEASURES = ("below_solo_dd", "made", "set_though_makeable", "below_but_made")


def play_side_by_side(hands: np.ndarray, bids: np.ndarray, bidder_side: int, defenders: int) -> np.ndarray:
    """Seat 1's tricks on each deal, ``bidder_side`` at seats 1 and 3, ``defenders`` at 2 and 4."""
    seats = np.array([bidder_side, defenders, bidder_side, defenders], dtype=np.int64)
    kit = kit_of(seats)
    tricks = np.zeros(4, dtype=np.int64)
    none = np.zeros(0, dtype=np.int64)
    got = np.zeros(len(hands), dtype=np.int64)
    for i, (h, b) in enumerate(zip(hands, bids)):
        kp.play_hand(h, b, 0, seats, kit, HEARTS, tricks, none)
        got[i] = tricks[0]
    return got


def _share(x: np.ndarray) -> dict:
    share, se = mean_se(len(x), float(x.sum()), float((x * x).sum()))
    return {"share": share, "se": se}


def measure(a: str, b: str, deals: int, seeds: list[int]) -> dict:
    v = Variant.preset("dananeer")
    bot = simulate.bot_array(v)
    ids = {a: policy_id(a), b: policy_id(b)}
    pairings = [(x, y) for x in (a, b) for y in (a, b)]
    per: dict = {f"{x}/{y}": {m: [] for m in MEASURES} | {"tricks": []} for x, y in pairings}
    solo_all, done = [], []
    try:
        for seed in seeds:
            hands, bids = live_deals(deals, seed + 1, v, bot, min_bid=6)
            solo = solve_many(hands, trump="hearts", leader=1, mode="solo", player=1)
            played = {f"{x}/{y}": play_side_by_side(hands, bids, ids[x], ids[y]) for x, y in pairings}
            # a seed counts only once all four pairings have played it
            solo_all.append(solo)
            for k, got in played.items():
                row = per[k]
                row["below_solo_dd"].append(got < solo)
                row["made"].append(got >= bids[:, 0])
                row["set_though_makeable"].append((got < bids[:, 0]) & (solo >= bids[:, 0]))
                row["below_but_made"].append((got < solo) & (got >= bids[:, 0]))
                row["tricks"].append(got)
            done.append(seed)
            print(f"seed {seed} done ({len(done)}/{len(seeds)})", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print(f"interrupted: the {len(done)} seeds finished are kept", file=sys.stderr)
        if not done:
            raise SystemExit(130) from None
    cols = {k: {m: np.concatenate(v_).astype(float) for m, v_ in row.items()} for k, row in per.items()}
    solo = np.concatenate(solo_all)
    out: dict = {"a": a, "b": b, "deals_per_seed": deals, "seeds": done, "deals": int(len(solo)),
                 "solo_dd_tricks": float(solo.mean()), "pairings": {}, "changes": {}}  # fmt: skip
    for k, c in cols.items():
        out["pairings"][k] = {m: _share(c[m]) for m in MEASURES} | {"tricks": float(c["tricks"].mean())}
    # each side's player changed from b to a, the other side held
    for side, old, new in one_side_changes(b, a, ("bidder_side", "defenders")):
        out["changes"][f"{side}: {old} -> {new}"] = {m: _share(cols[new][m] - cols[old][m]) for m in MEASURES}
    return out


def text(r: dict) -> str:
    width = max(len(k) for k in [*r["pairings"], *r["changes"]])
    lines = [f"strong seat 1 (bid >= 6): {seeds_text(r)}; solo DD {r['solo_dd_tricks']:.2f} tricks",
             f"{'bidder side / defenders':{width}s} {'below solo DD':>16s} {'made':>16s} {'set, DD makes':>16s} {'below, made':>16s} {'tricks':>7s}"]  # fmt: skip
    for k, p in r["pairings"].items():
        cells = " ".join(f"{p[m]['share']:>8.2%} ± {p[m]['se']:.2%}" for m in MEASURES)
        lines.append(f"{k:{width}s} {cells} {p['tricks']:7.2f}")
    lines.append("changing one side's player, the same deals (percentage points):")
    for k, c in r["changes"].items():
        cells = " ".join(f"{100 * c[m]['share']:>+8.2f} ± {100 * c[m]['se']:.2f}" for m in MEASURES)
        lines.append(f"{k:{width}s} {cells}")
    return "\n".join(lines)


def main() -> None:
    parser = two_players_parser(__doc__, "strong_hands", "standard", "standard1", 800, "1,2,3,4", "a 400 policy")
    args, seeds = two_players_args(parser)
    start = time.perf_counter()
    result = measure(args.a, args.b, args.deals, seeds)
    report("strong_hands", result, start, args, text)


if __name__ == "__main__":
    main()
