"""The method: the model, a double-dummy check of the play policy, sizes, seeds, standard errors,
software versions and the command that regenerates the report."""

from __future__ import annotations

import math
import platform
import time

import numpy as np
import pandas as pd

from analyzer import config
from analyzer.core.dealing import deal_hands
from analyzer.core.notation import Deal, Hand
from analyzer.core.solve import solve_many
from analyzer.games.t400 import guide as gd
from analyzer.games.t400.rules import Variant
from analyzer.games.t400.simulate import bot_bid, duplicate_edge, play_deal
from analyzer.reports.document import Document
from analyzer.reports.frame import Context
from analyzer.version import __version__
from kernels.policies.lead_weights import META as lead_meta


def _dd_check(ctx: Context) -> pd.DataFrame:
    """Bots against perfect play: seat 1's partnership tricks under `standard` play (EV-bot
    bids) and by the team double-dummy solver, on the same random deals."""
    hands = deal_hands(config.get().report_dd_deals, seed=ctx.seed + 1)
    deals = [Deal(tuple(Hand(int(h)) for h in row)) for row in hands]
    dd = solve_many(deals, trump="hearts", leader=1, mode="team", threads=ctx.threads)
    rows = []
    for deal, team in zip(deals, dd):
        bids = []
        for seat in range(1, 5):
            bids.append(bot_bid(deal.hands[seat - 1], seat, (0, 0, 0, 0), bids))
        played = play_deal(deal, bids, "standard")
        rows.append({"deal": str(deal), "bids": ",".join(map(str, bids)), "dd_team_13": int(team),
                     "standard_team_13": played.tricks[0] + played.tricks[2]})  # fmt: skip
    return pd.DataFrame(rows)


def _play_check(ctx: Context) -> dict:
    """The card player measured: duplicate points of ``standard`` against ``basic`` (same deals and
    bids, partnerships swapped) and strong seat-1 hands (EV bot bids 6+) against solo double dummy."""
    v = Variant.preset("dananeer")
    chunks = max(1, config.get().report_samples // 100 // 2048)
    n, mean, se = duplicate_edge("standard", "basic", chunks, seed=ctx.seed + 2, variant=v, chunk_size=2048,
                                 threads=ctx.threads)  # fmt: skip
    strong_rows = []
    for row in deal_hands(40 * config.get().report_dd_deals, seed=ctx.seed + 3):
        bids = []
        for seat in range(4):
            bids.append(bot_bid(Hand(int(row[seat])), seat + 1, (0, 0, 0, 0), bids))
        if bids[0] >= 6 and not v.is_dead(bids, (0, 0, 0, 0)):
            strong_rows.append((row, bids))
        if len(strong_rows) == config.get().report_dd_deals:
            break
    deals = [Deal(tuple(Hand(int(h)) for h in row)) for row, _ in strong_rows]
    solo = solve_many(deals, trump="hearts", leader=1, mode="solo", player=1, threads=ctx.threads)
    got = np.array([play_deal(d, b, "standard").tricks[0] for d, (_, b) in zip(deals, strong_rows)])
    below = got < solo
    return {"dup_deals": int(n), "dup_mean": float(mean), "dup_se": se, "strong_deals": len(deals),
            "strong_below": float(below.mean()), "strong_below_se": float(math.sqrt(below.mean() * (1 - below.mean()) / len(deals))),
            "strong_tricks": float(got.mean()), "strong_solo": float(solo.mean())}  # fmt: skip


def method(ctx: Context, command: str) -> Document:
    t0 = time.perf_counter()
    ctx.progress("method: double-dummy check", 0.9)
    dd = ctx.parts.get("dd-check", _dd_check, ctx)
    ctx.timings["double-dummy check"] = time.perf_counter() - t0
    diff = dd["standard_team_13"] - dd["dd_team_13"]
    ctx.facts["dd"] = {"deals": len(dd), "mean_diff": float(diff.mean()),
                       "se": float(diff.std(ddof=1) / math.sqrt(len(dd))),
                       "equal": float((diff == 0).mean()), "mean_abs": float(diff.abs().mean())}  # fmt: skip
    doc = Document("method.md", "Method")
    doc.h(1, "The model")
    doc.bullets([
        "**Rules**: Tarneeb 400 as in `t400 rules` (Dananeer unless a variant is named), hearts trump; "
        "the rules engine settles every round and is tested against the rule texts.",
        "**Sampling**: full deals are dealt uniformly from a seeded xoshiro256** stream per chunk of "
        "deals (or per match), so every figure is a function of the seed alone, whatever the number of "
        "threads or Dask workers.",
        "**Bot bidding**: the EV bidder estimates its own tricks from hand features with a table fitted "
        "from simulated hands (`t400 fit-bidder`), turns it into a trick distribution and bids the legal "
        "number with the best expected value; the dealer counts a bid that kills the hand as 0.",
        "**Play**: all four players use the `standard` policy: bid-aware card play that uses only what a "
        "player can see (own hand, bids, cards played, shown voids).",
        "**Bidding guide**: for each seat and bracket, every candidate bid is played out on the same deals "
        "(common random numbers); groups of hands are compared by mean points, a dead hand counting 0.",
        "**Example hands**: the bid analyzer (`t400 bid`), which also weights deals by how likely the "
        "earlier bids were (none here: seat 1).",
        "**Matches**: the match kernel plays whole matches (rotation, dead hands and re-deals, settling, "
        "the target rule and tie-breaks, the classic outright 13, a cap of 200 deals); its rounds are "
        "checked against the rules engine in the tests.",
    ])  # fmt: skip
    f = ctx.facts["dd"]
    doc.h(1, "Double-dummy check")
    doc.p(f"How far are the bots from perfect play? On {f['deals']} random deals (seed {ctx.seed + 1}), "
          f"hearts trump, seat 1 leading, the partnership of seats 1 and 3 took {f['mean_diff']:+.2f} ± "
          f"{f['se']:.2f} tricks per deal under `standard` play (with EV-bot bids) compared with the "
          f"team double-dummy result (both sides perfect and seeing all cards); the two agree exactly on "
          f"{100 * f['equal']:.0f}% of deals, and differ by {f['mean_abs']:.2f} tricks on average. The "
          "double-dummy solver agrees with DDS on every deal of the test suite.")  # fmt: skip
    doc.p(f"Data: {ctx.data_link(dd, 'dd_check')}.")
    t0 = time.perf_counter()
    ctx.progress("method: card play check", 0.95)
    pc = ctx.parts.get("play-check", _play_check, ctx)
    ctx.timings["card play check"] = time.perf_counter() - t0
    doc.h(1, "Card play")
    doc.p(f"The `standard` policy plans for the bid (the opening lead by a model fitted on double-dummy scores "
          f"of every opening lead of {lead_meta['deals']:,} live deals, `t400 fit-lead`; trumps drawn with length, the missing honour knocked out when sure tricks are "
          f"short, a done player leaving partner's tricks to partner). Against `basic`, the first policy of "
          f"this project, with the same cards and EV-bot bids and the partnerships swapped, it scores "
          f"{pc['dup_mean']:+.3f} ± {pc['dup_se']:.3f} points per hand for its partnership over "
          f"{pc['dup_deals']:,} live deals (seed {ctx.seed + 2}). On {pc['strong_deals']} strong seat-1 hands "
          f"(EV bot bid 6 or more, seed {ctx.seed + 3}) seat 1 takes fewer tricks than solo double dummy "
          f"(seat 1 against the other three, all seeing all cards) on {100 * pc['strong_below']:.1f}% ± "
          f"{100 * pc['strong_below_se']:.1f}% of deals ({pc['strong_tricks']:.2f} tricks against "
          f"{pc['strong_solo']:.2f}). Every card against DDS, by kind and position, and a sampling "
          "reference player (PIMC) are measured by `benchmarks/play_vs_dd.py` (README, Card play).")  # fmt: skip
    doc.h(1, "Limits")
    doc.bullets([
        "The figures are what happens when four bots of this project bid and play. Better players "
        "take more of their tricks and defend better, so absolute trick counts are model-bound; "
        "comparisons (between bids on the same deals, between variants on the same matches) are "
        "far more robust than levels.",
        "A group of the guide averages over all hands that share its features; the full analysis of "
        "one hand (`t400 bid`) can differ, as the example-hand table shows where the two columns "
        "disagree (weak side suits, long side suits, voids).",
        f"The {gd.HIGH} bracket fixes the other players at 15; their scores move the table minimum, so "
        "other score combinations give somewhat different dealer figures.",
        "The guide's bots (`ev`) bid for the points of the hand, not for the match situation; the "
        "match-aware `win` bidder and `t400 bid --objective win` are measured in "
        "[When the match score changes the bid](match.md). Hearts are always trump.",
    ])  # fmt: skip
    doc.h(1, "Sizes, seeds and uncertainty")
    doc.bullets([
        f"Bidding guide: {ctx.samples:,} deals per seat and score bracket (8 runs), seed {ctx.seed}; each "
        "run draws from its own part of the seed's stream space. Groups with fewer than "
        f"{config.get().guide_min_cell} deals show no bid.",
        f"Variants and duels: {ctx.matches:,} matches per variant and {ctx.matches:,} duplicate pairs per "
        f"duel, seed {ctx.seed}.",
        "Every ± is one standard error: of a mean over deals (guide), of a ratio over matches with each "
        "match as a cluster of hands (variants), of a paired difference (variants against the first one, "
        "bids within a group, the dealer's gain, duels). Intervals in brackets are 95%.",
        "The EV-best bid of a group is the bid with the highest mean; where its lead over the runner-up "
        "is within noise, the `lead` and `lead_se` columns of the CSVs say so.",
    ])  # fmt: skip
    doc.h(1, "Software")
    import numba
    import numpy

    versions = [["tarneeb400", __version__], ["Python", platform.python_version()],
                ["numba", numba.__version__], ["numpy", numpy.__version__], ["pandas", pd.__version__]]  # fmt: skip
    try:
        import matplotlib

        versions.append(["matplotlib", matplotlib.__version__])
    except ImportError:  # pragma: no cover
        pass
    doc.table(["package", "version"], versions)
    doc.h(1, "Regenerating this folder")
    doc.code(command)
    doc.p("The same seed and sizes give the same numbers (run times differ).")
    return doc
