"""Tarneeb card play measured against double dummy, and policies against each other in duplicate.

On random deals of classic Tarneeb (preset ``tarneeb``; four EV bots bid, re-deals skipped; the
declarer leads in the trump the bots chose) three figures for a play policy:

* per card, with DDS (endplay) as the oracle: the tricks the mover's side keeps with best play
  after the card, against the best card there (a card *costs* when its side loses a trick), by
  kind (lead, follow, ruff, discard), position in the trick and the opening lead;
* the declaring team's tricks against team double dummy (DDS, the declarer's side, the declarer on
  lead): mean difference, and how often the declarers fall short of what DD makes;
* duplicate: the policy on one side against ``--against`` on the other, on the same deals,
  contracts and trumps, both seatings: the policy's side's Tarneeb points per hand (its points
  minus the other side's, halved over the two seatings), mean and 95% interval;
* with ``--pimc-deals N``: the gap to *pimc*, the reference player (``--pimc-samples`` layouts of
  the unseen cards consistent with the player's hand, the cards played, the voids shown and the
  auction (each other seat's whole hand makes the calls it made and the declarer's chooses its
  trump, as the EV bots did: :class:`AuctionReader`; ``--pimc-blind`` ignores the auction), each
  solved by DDS, the card that keeps most of its side's tricks on average): pimc plays one side
  against the policy on the other, both seatings, on the same deals and contracts; its side's
  Tarneeb points per deal over the policy's (duplicate, 95% interval), and the DD tricks per card
  each loses on the seats pimc played. Tricks are the right yardstick here: every trick a side
  takes counts in Tarneeb once its target is reached (tricks over the contract, or the set).

``--policy pimc`` measures the per-card table and the declarers' shortfall with pimc at all four
seats (``--pimc-samples`` layouts a decision; no duplicate): what the reference player itself
loses against double dummy on the same deals, a yardstick for what play without sight of the
hidden hands can reach. ``--defenders P`` (a policy or pimc) has the defenders played by P in
that part: the shortfall then measures the declarers' play against a fixed defence (a stronger
defence widens it whatever the declarers do). The cards of each side are also reported apart, with
the DD tricks a deal each side loses by kind (the opening lead, leads of tricks 2-4 and 5-13,
follows, ruffs, discards).

Usage: ``python benchmarks/tarneeb_play_vs_dd.py [--policy team] [--defenders P] [--against greedy]
[--deals 200] [--duplicate 40000] [--pimc-deals 0] [--pimc-samples 10] [--pimc-blind] [--seed 1]
[--json]``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np
from endplay.dds import solve_board

sys.path.insert(0, str(Path(__file__).resolve().parent))
from play_vs_dd import Position, dd_scores, loss_table, mean_ci, pimc_card, sample_layouts  # noqa: E402

from analyzer.core.policies import policies_kit, policy_id  # noqa: E402
from analyzer.games.tarneeb.bidders import load_model  # noqa: E402
from analyzer.games.tarneeb.pimc import AuctionReader, bot_auction, bot_contracts  # noqa: E402
from analyzer.games.tarneeb.pimc import side_bids as product_side_bids  # noqa: E402
from analyzer.games.tarneeb.rules import TarneebVariant  # noqa: E402
from kernels.policies import play as kp  # noqa: E402
from kernels.tarneeb import hand as kh  # noqa: E402
from kernels.tarneeb import rules as kr  # noqa: E402


def contracts(n: int, seed: int, rules, model):
    """Deals and the EV bots' contracts: (hands uint64[m, 4], outcomes int64[m, R_SIZE]) of the
    played ones among ``n`` deals (the product's :func:`bot_contracts`)."""
    return bot_contracts(n, seed, rules, model)


def side_bids(rules, res) -> np.ndarray:
    return np.array(product_side_bids(rules, res), dtype=np.int64)


def net_for_declarers(rules, res, team_tricks: int) -> int:
    level = int(res[kh.R_CONTRACT]) >> 3
    return int(
        kr.declarer_points(rules, level, team_tricks, False) - kr.defender_points(rules, level, team_tricks)
    )


def side_cards(rows, deals: int) -> dict:
    """One side's cards (rows: kind, position, opening lead, DD tricks lost, trick 0..12): how
    many, the share costing a DD trick, DD tricks lost a card and a deal, and a deal by kind."""
    lost = sum(r[3] for r in rows)
    kinds = {"opening lead": lambda r: r[2], "lead, tricks 2-4": lambda r: r[0] == "lead" and 1 <= r[4] <= 3,
             "lead, tricks 5-13": lambda r: r[0] == "lead" and r[4] >= 4}  # fmt: skip
    kinds.update({kind: (lambda r, k=kind: r[0] == k) for kind in ("follow", "ruff", "discard")})
    return {"cards": len(rows), "costly": sum(r[3] >= 1 for r in rows) / len(rows),
            "tricks_per_card": lost / len(rows), "tricks_per_deal": lost / deals,
            "tricks_per_deal_by_kind": {k: sum(r[3] for r in rows if keep(r)) / deals for k, keep in kinds.items()}}  # fmt: skip


class BotAuctionReader(AuctionReader):
    """The product's reader of the auction (:class:`analyzer.games.tarneeb.pimc.AuctionReader`)
    given the auction the EV bots made on a deal."""

    def codes(self, hands, res) -> list[int]:
        """The deal's auction replayed: the EV bots' calls, as kernel codes."""
        return bot_auction(self.rules, self.model, hands, res)

    def sampler(self, hands, res):
        """The layouts for pimc's decisions in one deal (see :func:`pimc_card`): fitting its auction."""
        self.read(self.codes(hands, res), int(res[kh.R_DECLARER]), int(res[kh.R_TRUMP]))
        return self.layouts


def play_against_dd(hands, outcomes, rules, declarers: str, defenders: str, samples: int, seed: int, reader=None,
                    progress=None) -> tuple[list[int], dict]:
    """Each deal played out, the declaring side by ``declarers`` and the other by ``defenders``
    (policy names, or ``pimc`` with ``samples`` layouts a decision drawn from
    ``random.Random(seed)``, fitting the auction with a ``reader``), every card scored by DDS.
    Returns the declaring team's tricks minus team double dummy, a deal each, and each side's
    card rows (kind, position in the trick, opening lead, DD tricks lost, trick 0..12): the
    declaring side's under True, the defenders' under False."""
    rng = random.Random(seed)

    def player(name):
        if name == "pimc":
            return lambda pos, sampler: pimc_card(pos, samples, rng, sampler)
        kernel_id = policy_id(name)
        return lambda pos, sampler: pos.kernel_card(kernel_id)

    by_side = {True: player(declarers), False: player(defenders)}
    uses_pimc = "pimc" in (declarers, defenders)
    diffs, sides = [], {True: [], False: []}
    for i, (h, res) in enumerate(zip(hands, outcomes), start=1):
        decl, trump = int(res[kh.R_DECLARER]), int(res[kh.R_TRUMP])
        pos = Position(h, side_bids(rules, res), leader=decl, trump=trump)
        sampler = reader.sampler(h, res) if reader and uses_pimc else sample_layouts
        dd = max(t for _, t in solve_board(pos.ep_deal()))
        for _ in range(52):
            declaring = (pos.mover & 1) == (decl & 1)
            card = by_side[declaring](pos, sampler)
            scores = dd_scores(pos)
            sides[declaring].append((pos.kind(card), len(pos.trick) + 1, pos.played == 0 and not pos.trick,
                                     max(scores.values()) - scores[card], pos.played.bit_count() // 4))  # fmt: skip
            pos.play(card)
        diffs.append(pos.taken[decl] + pos.taken[decl ^ 2] - dd)
        if progress:
            progress(i, len(hands))
    return diffs, sides


def duplicate(hands, outcomes, rules, a: int, b: int) -> dict:
    """Per deal: (A's side's points minus B's side's) averaged over A declaring and A defending."""
    diffs = []
    tricks = np.zeros(4, dtype=np.int64)
    none = np.zeros(0, dtype=np.int64)
    for h, res in zip(hands, outcomes):
        decl = int(res[kh.R_DECLARER])
        bids = side_bids(rules, res)
        total = 0
        for a_declares in (True, False):
            pols = np.array(
                [(a if ((s & 1) == (decl & 1)) == a_declares else b) for s in range(4)], dtype=np.int64
            )
            kp.play_hand(h, bids, decl, pols, policies_kit(pols), int(res[kh.R_TRUMP]), tricks, none)
            net = net_for_declarers(rules, res, int(tricks[decl] + tricks[decl ^ 2]))
            total += net if a_declares else -net
        diffs.append(total / 2)
    return mean_ci(diffs)


def pimc_duplicate(hands, outcomes, rules, policy: int, samples: int, seed: int, progress=None, reader=None) -> dict:
    """pimc on one side against ``policy`` on the other, both seatings, on each deal: pimc's
    side's points over the policy's per deal (halved over the seatings), and the DD tricks lost
    per card by pimc and by the policy on the same seats (the seats pimc played). pimc's layouts
    fit the auction with a ``reader`` (:class:`AuctionReader`)."""
    rng = random.Random(seed)
    diffs, pimc_losses, policy_losses = [], [], []
    for i, (h, res) in enumerate(zip(hands, outcomes), start=1):
        sampler = reader.sampler(h, res) if reader else sample_layouts
        decl, trump = int(res[kh.R_DECLARER]), int(res[kh.R_TRUMP])
        bids = side_bids(rules, res)
        total = 0
        for pimc_declares in (True, False):
            pimc_seats = {s for s in range(4) if ((s & 1) == (decl & 1)) == pimc_declares}
            for players, losses in (("pimc", pimc_losses), ("policy", policy_losses)):
                pos = Position(h, bids, leader=decl, trump=trump)
                for _ in range(52):
                    mover = pos.mover
                    if players == "pimc" and mover in pimc_seats:
                        card = pimc_card(pos, samples, rng, sampler)
                    else:
                        card = pos.kernel_card(policy)
                    if mover in pimc_seats and len(pos.legal()) > 1:
                        scores = dd_scores(pos)
                        losses.append((pos.kind(card), len(pos.trick) + 1, pos.played == 0 and not pos.trick,
                                       max(scores.values()) - scores[card]))  # fmt: skip
                    pos.play(card)
                net = net_for_declarers(rules, res, pos.taken[decl] + pos.taken[decl ^ 2])
                sign = 1 if pimc_declares else -1
                total += sign * net if players == "pimc" else -sign * net
        diffs.append(total / 2)
        if progress:
            progress(i, len(hands))
    return {"samples": samples, "deals": len(hands), "duplicate_vs_policy": mean_ci(diffs),
            "pimc_tricks_per_card": loss_table(pimc_losses)["all"],
            "policy_tricks_per_card": loss_table(policy_losses)["all"]}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policy", default="team")
    ap.add_argument("--against", default="greedy")
    ap.add_argument("--defenders", help="the defenders' player in the per-card part (default: --policy; pimc allowed)")
    ap.add_argument("--deals", type=int, default=200, help="deals measured card by card with DDS")
    ap.add_argument("--duplicate", type=int, default=40_000, help="deals of the duplicate comparison")
    ap.add_argument("--pimc-deals", type=int, default=0, help="deals for the pimc reference (slow)")
    ap.add_argument("--pimc-samples", type=int, default=10, help="layouts pimc solves per decision")
    ap.add_argument("--pimc-blind", action="store_true", help="pimc's layouts ignore the auction")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    v = TarneebVariant.preset("tarneeb")
    rules, model = v.kernel_rules(), load_model().array
    table_pimc = args.policy == "pimc"
    pid = None if table_pimc else policy_id(args.policy)
    defenders = args.defenders or args.policy
    uses_pimc = "pimc" in (args.policy, defenders)
    reader = None if args.pimc_blind else BotAuctionReader(rules, model)
    against = policy_id(args.against)
    start = time.perf_counter()
    hands, outcomes = contracts(args.deals * 2, args.seed, rules, model)
    hands, outcomes = hands[: args.deals], outcomes[: args.deals]

    def progress(i, n):
        print(f"\r{i}/{n} deals ({time.perf_counter() - start:.0f} s)", end="", file=sys.stderr, flush=True)

    diffs, sides = play_against_dd(hands, outcomes, rules, args.policy, defenders, args.pimc_samples, args.seed,
                                   reader, progress if uses_pimc else None)  # fmt: skip
    losses = sides[True] + sides[False]
    short = [d < 0 for d in diffs]
    if uses_pimc:
        print(file=sys.stderr)
    out = {
        "policy": args.policy,
        "defenders": defenders,
        "deals": len(hands),
        "cards": loss_table(losses),
        "declaring_side_cards": side_cards(sides[True], len(hands)),
        "defending_side_cards": side_cards(sides[False], len(hands)),
        "declarers_minus_dd": mean_ci(diffs),
        "declarers_short_of_dd": float(np.mean(short)),
        "declarers_minus_dd_by_deal": diffs,  # for paired comparisons on the same deals
    }
    if uses_pimc:
        out["pimc_samples"] = args.pimc_samples
    if not table_pimc and args.duplicate:
        dup_hands, dup_outcomes = contracts(args.duplicate, args.seed + 1, rules, model)
        out["duplicate"] = {
            "against": args.against,
            "deals": len(dup_hands),
            **duplicate(dup_hands, dup_outcomes, rules, pid, against),
        }
    if args.pimc_deals and not table_pimc:
        ph, po = contracts(args.pimc_deals * 2, args.seed + 2, rules, model)

        def progress(i, n):
            print(
                f"\rpimc {i}/{n} deals ({time.perf_counter() - start:.0f} s)",
                end="",
                file=sys.stderr,
                flush=True,
            )

        out["pimc"] = pimc_duplicate(ph[: args.pimc_deals], po[: args.pimc_deals], rules, pid,
                                     args.pimc_samples, args.seed + 2, progress, reader)  # fmt: skip
        print(file=sys.stderr)
    if uses_pimc or args.pimc_deals:
        out["pimc_reads_auction"] = reader.stats() if reader else False
    out["seconds"] = round(time.perf_counter() - start, 1)
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(
        f"policy {args.policy} (defenders {defenders}): {out['deals']} played deals (EV bots' contracts, tarneeb), seed {args.seed}"
    )
    for k, r in out["cards"].items():
        print(f"  {k:14s} {r['cards']:6d} cards  cost a DD trick {100 * r['costly']:5.1f}%  "
              f"tricks/card {r['tricks_per_card']:.3f}")  # fmt: skip
    for side in ("declaring", "defending"):
        r = out[f"{side}_side_cards"]
        print(f"  {side} side's cards: {r['cards']} cost a DD trick {100 * r['costly']:5.1f}%  "
              f"tricks/card {r['tricks_per_card']:.3f}  tricks/deal {r['tricks_per_deal']:.3f} ("
              + ", ".join(f"{k} {v:.3f}" for k, v in r["tricks_per_deal_by_kind"].items()) + ")")  # fmt: skip
    d = out["declarers_minus_dd"]
    print(f"declaring team minus team DD: {d['mean']:+.3f} [{d['ci95'][0]:+.3f}, {d['ci95'][1]:+.3f}]; "
          f"short of DD on {100 * out['declarers_short_of_dd']:.1f}% of deals")  # fmt: skip
    if "duplicate" in out:
        u = out["duplicate"]
        print(f"duplicate against {u['against']} ({u['deals']} deals): {u['mean']:+.3f} points a deal "
              f"[{u['ci95'][0]:+.3f}, {u['ci95'][1]:+.3f}]")  # fmt: skip
    if "pimc" in out:
        pm = out["pimc"]
        du = pm["duplicate_vs_policy"]
        print(f"pimc ({pm['samples']} samples) against {args.policy} in duplicate, {pm['deals']} deals: "
              f"{du['mean']:+.3f} points a deal [{du['ci95'][0]:+.3f}, {du['ci95'][1]:+.3f}]; DD tricks lost "
              f"per card on the same seats: pimc {pm['pimc_tricks_per_card']['tricks_per_card']:.3f}, "
              f"{args.policy} {pm['policy_tricks_per_card']['tricks_per_card']:.3f}")  # fmt: skip
    print(f"{out['seconds']} s")


if __name__ == "__main__":
    main()
