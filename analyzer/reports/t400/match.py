"""When the match score changes the bid: the match-equity table against simulations, the bidders
in duplicate, where the match-aware bid differs, examples."""

from __future__ import annotations

import math
import time

import numpy as np
import pandas as pd

from analyzer import config
from analyzer.core import figures as rp
from analyzer.core.fmt import pct as _pct
from analyzer.core.fmt import pm as _pm
from analyzer.core.notation import Hand
from analyzer.games.t400 import equity as me
from analyzer.games.t400 import equity_build as eb
from analyzer.games.t400 import matches as am
from analyzer.games.t400.advice import recommend_bid
from analyzer.games.t400.rules import as_variant
from analyzer.reports.document import Document
from analyzer.reports.frame import Context
from analyzer.reports.t400.variants import DUEL_BIDDERS, PRESET_SPECS

#: Score brackets of the match-score section (own score, partner's, opponents' higher).
MATCH_BRACKETS = ((-1000, -1, "< 0"), (0, 19, "0-19"), (20, 29, "20-29"), (30, 34, "30-34"),
                  (35, 39, "35-39"), (40, 1000, ">= 40"))  # fmt: skip
MATCH_DUELS = (("win/standard", "ev/standard"), ("ev/standard", "counting-ev/standard"),
               ("ev/standard", "counting/standard"))  # fmt: skip


def _bracket(score: int) -> str:
    return next(label for lo, hi, label in MATCH_BRACKETS if lo <= score <= hi)


def match(ctx: Context) -> Document:
    t0 = time.perf_counter()
    doc = Document("match.md", "When the match score changes the bid")
    table = me.table_for("dananeer")
    doc.p("Players play to win the match, not to maximise one hand's points. The **match equity** of a "
          "state is the probability that a partnership wins the match from the four scores, the dealer "
          "known, with the bots bidding and playing. `t400 bid --objective win` (the default whenever a "
          "score is non-zero) rates every bid by its P(win the match) after the hand; the `win` bot "
          "bidder does the same from its trick estimate. Both read a precomputed table (grid scores "
          f"{', '.join(map(str, table.grid))}; multilinear in between; made by `{table.meta['command']}`, "
          f"value iteration over {table.meta['hands_per_regime']:,} sampled hands for each of the "
          f"{table.meta['regime_combinations']} combinations of the players' rule regimes). "
          "`t400 equity --scores ... --simulate N` gives the same figure by simulating the rest of the "
          "match.")  # fmt: skip
    # 1. The table against fresh simulations
    ctx.progress("match: table against simulations", 0.0)
    n_states, n_cont = config.get().report_equity_states, max(200, min(20_000, ctx.matches // 10))
    acc = ctx.parts.get("match-accuracy", eb.table_accuracy, "dananeer", n_states, n_cont, ctx.seed + 7,
                        ctx.threads, matches=max(200, min(2000, ctx.matches)))  # fmt: skip
    summary = eb.accuracy_summary(acc)
    doc.h(1, "How exact the table is")
    doc.p(f"{n_states} score states drawn at random from the rounds of simulated matches, each simulated "
          f"{n_cont:,} times to the end of the match (dananeer): the table differs from the simulation by "
          f"**{summary['mean_abs_diff_pp']:.2f} percentage points** on average (largest "
          f"{summary['max_abs_diff_pp']:.2f}; mean signed {summary['mean_diff_pp']:+.2f}); the simulations' "
          f"own noise alone would give {summary['noise_mean_abs_pp']:.2f}. Data: "
          f"{ctx.data_link(acc, 'equity_accuracy')}.")  # fmt: skip
    ctx.facts["equity_accuracy"] = summary
    # 2. Duels
    ctx.progress("match: duels", 0.3)
    doc.h(1, "Bidders against each other")
    rows, recs = [], []
    for a, b in MATCH_DUELS:
        if (a, b) == ("ev/standard", "counting/standard"):  # the variants part ran this duel already
            d = ctx.facts["duels"][PRESET_SPECS.index("dananeer")]
        else:
            d = ctx.parts.get(f"duel-{a}-{b}".replace("/", "_"), am.duel, a, b, ctx.matches, ctx.seed,
                              as_variant("dananeer"), threads=ctx.threads, scheduler=ctx.client,
                              kit_bidders=DUEL_BIDDERS)  # fmt: skip
        d = {**d, "a": a, "b": b}
        recs.append(d)
        rows.append([a, b, f"{d['pairs']:,}", f"{100 * d['win_rate']:.1f}% [{100 * d['ci95'][0]:.1f}, "
                     f"{100 * d['ci95'][1]:.1f}]", _pm(d["margin_per_hand"], d["margin_per_hand_se"], 3)])  # fmt: skip
    doc.p(f"Duplicate matches on the same deal sequences (seed {ctx.seed}, dananeer; `t400 duel --a A --b B "
          f"--matches {ctx.matches} --seed {ctx.seed}`): A's match win rate with its 95% interval and A's "
          "points per hand minus B's. `counting-ev` is the EV decision rule on the counting bidder's trick "
          "estimate: the gap between `ev` and `counting-ev` is what the fitted trick model adds, the gap "
          "between `counting-ev` and `counting` what the decision rule adds.")  # fmt: skip
    doc.table(["A", "B", "pairs", "A wins", "points per hand, A - B"], rows)
    doc.p(f"Data: {ctx.data_link(pd.DataFrame(recs), 'match_duels')}.")
    ctx.facts["match_duels"] = recs
    # 3. Where the bids differ
    ctx.progress("match: where the bids differ", 0.6)
    n_matches = max(100, min(4000, ctx.matches // 50))
    diffs = ctx.parts.get(
        "match-differences", eb.bid_differences, "dananeer", n_matches, ctx.seed, ctx.threads
    )
    diffs = diffs.assign(
        differs=diffs["win_bid"] != diffs["ev_bid"], lower=diffs["win_bid"] < diffs["ev_bid"]
    )
    doc.h(1, "Where the win bidder bids differently")
    doc.p(f"Every bidding decision of {n_matches:,} simulated matches (four `ev` bots), asked again of the "
          "`win` bidder with the same hand, scores and earlier bids: the share of decisions where it bids "
          "otherwise (± SE), and of those, how often it bids lower.")  # fmt: skip
    for column, title in (
        ("own", "own score"),
        ("partner", "partner's score"),
        ("opp_high", "opponents' higher score"),
    ):
        rows, groups = [], {}
        for _, _, label in MATCH_BRACKETS:
            part = diffs[diffs[column].map(_bracket) == label]
            if len(part) == 0:
                continue
            row = [label, f"{len(part):,}"]
            for seat in (1, 2, 3, 4):
                p = part[part["seat"] == seat]["differs"]
                se = math.sqrt(p.mean() * (1 - p.mean()) / len(p)) if len(p) > 1 else float("nan")
                row.append(_pct(p.mean(), se) if len(p) else "")
                groups.setdefault(f"seat {seat}", {})[label] = (
                    (100 * p.mean(), 100 * se) if len(p) else (np.nan, 0)
                )
            lower = part[part["differs"]]["lower"]
            row.append(_pct(lower.mean()) if len(lower) else "")
            rows.append(row)
        doc.h(2, f"By {title}")
        doc.table(
            [title, "decisions", "seat 1", "seat 2", "seat 3", "seat 4 (dealer)", "win bids lower"], rows
        )
        if column == "own":
            path, full = ctx.fig("match_differences_by_own_score")
            rp.plot_grouped_bars(groups, full, "decisions where win bids otherwise (%)",
                                 "The win bidder against the EV bidder, by own score")  # fmt: skip
            doc.figure(path, "Share of bidding decisions where the match-aware bidder bids otherwise, by own "
                             "score and seat, with 95% intervals.")  # fmt: skip
    # only the differing decisions are kept: the tables above give every bracket's count, and the
    # whole set would be most of the report's bytes
    differing = diffs[diffs["differs"]].drop(columns=["bids", "differs"])
    doc.p(f"Data: {ctx.data_link(differing, 'match_bid_differences')} (the {len(differing):,} decisions "
          f"where the bidders differ, of {len(diffs):,}).")  # fmt: skip
    # 4. Examples: P(win) of both bids by rollout
    ctx.progress("match: examples", 0.8)
    n_examples = min(config.get().report_match_examples, int(diffs["differs"].sum()))
    example_samples = max(1000, min(20_000, ctx.matches // 10))
    picks = diffs[diffs["differs"]].sample(n=n_examples, random_state=ctx.seed)
    rows, recs = [], []
    for r in picks.itertuples():
        scores = [r.score1, r.score2, r.score3, r.score4]
        a = ctx.parts.get(f"match-example-{r.Index}", recommend_bid, Hand(int(r.hand)), seat=int(r.seat),
                          scores=scores, bids=list(r.bids), objective="win", samples=example_samples, seed=ctx.seed,
                          threads=ctx.threads)  # fmt: skip
        diff, se = a.difference(int(r.win_bid), int(r.ev_bid))
        ev_points = a.row(int(r.win_bid)).ev - a.row(int(r.ev_bid)).ev
        rows.append([Hand(int(r.hand)).to_dot(), r.seat, "/".join(map(str, scores)), ",".join(map(str, r.bids)) or "-",
                     f"{r.ev_bid}: {100 * a.row(int(r.ev_bid)).p_win:.1f}%", f"{r.win_bid}: {100 * a.row(int(r.win_bid)).p_win:.1f}%",
                     f"{100 * diff:+.1f} ± {100 * se:.1f}", f"{ev_points:+.2f}", a.recommended])  # fmt: skip
        recs.append({"hand": Hand(int(r.hand)).to_dot(), "seat": int(r.seat), "scores": scores, "bids": list(r.bids),
                     "ev_bid": int(r.ev_bid), "win_bid": int(r.win_bid), "p_win_diff": diff, "p_win_diff_se": se,
                     "points_diff": ev_points, "recommended": a.recommended})  # fmt: skip
    doc.h(2, "Examples, by rollout")
    doc.p("Decisions drawn at random among those where the bidders differ, each analysed by `t400 bid "
          f"--objective win --samples {example_samples}` ({example_samples:,} deals, all bids on the same deals): P(win the match) "
          "after the EV bot's bid and after the win bot's, their difference (paired SE), the points the "
          "win bot's bid gives up (or gains) in this hand, and the bid the rollout itself recommends.")  # fmt: skip
    doc.table(["hand", "seat", "scores", "earlier bids", "EV bot: P(win)", "win bot: P(win)",
               "difference (pp)", "points difference", "rollout's choice"], rows)  # fmt: skip
    doc.p(f"Data: {ctx.data_link(pd.DataFrame(recs), 'match_examples')}.")
    ctx.timings["match score"] = time.perf_counter() - t0
    return doc
