"""The rule variants: the presets and each Qahwa switch compared on the same matches, and the EV
bidder against the counting bidder under each preset."""

from __future__ import annotations

import time

import pandas as pd

from analyzer.core import figures as rp
from analyzer.core.fmt import pm as _pm
from analyzer.games.t400 import matches as am
from analyzer.games.t400.rules import as_variant, parse_variant_spec
from analyzer.reports.document import Document
from analyzer.reports.frame import Context, compare_lineups, variant_rows

PRESET_SPECS = ("dananeer", "qahwa", "syrian41")
#: The bidders of the report's duels (this part's and the match part's): one match kernel for all.
DUEL_BIDDERS = ("ev", "counting", "counting-ev", "win")
QAHWA_SWITCHES = (
    "qahwa",
    "qahwa:target=31",
    "qahwa:target=61",
    "qahwa:table-min=12",
    "qahwa:table-min=13",
    "qahwa:table-min-rises=no",
    "qahwa:min-bid-rises=no",
    "qahwa:score-table=classic",
    "qahwa:score-table=syrian",
    "qahwa:tie-break=leader-then-total",
    "qahwa:redeal=same",
)




def _compare(ctx: Context, specs) -> pd.DataFrame:
    lineups = [am.Lineup.make(parse_variant_spec(s)) for s in specs]
    return compare_lineups(ctx, lineups, am.compare_stats([lu.variant.label for lu in lineups]))


def variants(ctx: Context) -> Document:
    t0 = time.perf_counter()
    doc = Document("variants.md", "Rule variants compared")
    doc.p(f"Each variant plays {ctx.matches:,} complete matches with four EV bots and `standard` play, "
          f"on the **same deals** (match *i* deals its hands from the random stream (seed {ctx.seed}, *i*) "
          "whatever the rules), so differences between variants are measured on paired matches: the "
          "± after a difference is its standard error from the paired per-match differences. This is "
          "`t400 variants` (see the [method](method.md)).")  # fmt: skip
    for n, (title, specs, tag) in enumerate((
        ("The presets", PRESET_SPECS, "presets"),
        ("Each Qahwa switch, one at a time", QAHWA_SWITCHES, "qahwa_switches"),
    )):  # fmt: skip
        ctx.progress(f"variants: {title.lower()}", 0.0 + 0.4 * n)
        table = ctx.parts.get(f"variants-{tag}", _compare, ctx, specs)
        labels = list(dict.fromkeys(table["variant"]))
        doc.h(1, title)
        doc.p(f"Against `{labels[0]}`. Command: `t400 variants {' '.join(specs)} --matches {ctx.matches} "
              f"--seed {ctx.seed}`.")  # fmt: skip
        metrics = list(dict.fromkeys(table["metric"]))
        rows = variant_rows(table, ("hands per match", "dead-hand rate", "mean bid", "make rate",
                                    "first partnership wins", "ended by tie-break", "winners' combined score"))  # fmt: skip
        doc.table(["variant", "hands/match", "dead hands", "mean bid", "bids made", "first pair wins",
                   "tie-breaks", "winners' total"], rows)  # fmt: skip
        path, full = ctx.fig(f"variants_{tag}")
        rp.plot_variants(table, full, title=f"{title} ({ctx.matches:,} matches each, same deals)")
        doc.figure(path, f"{title}: the main figures with 95% intervals.")
        doc.p(f"All {len(metrics)} figures with standard errors and paired differences: "
              f"{ctx.data_link(table, 'variants_' + tag)}.")  # fmt: skip
        ctx.facts[f"variants_{tag}"] = table
    # Duels per preset
    ctx.progress("variants: EV bidder against the counting bidder", 0.8)
    doc.h(1, "The EV bidder against the public apps' counting bidder")
    rows, recs = [], []
    for spec in PRESET_SPECS:
        d = ctx.parts.get(f"duel-{spec}", am.duel, "ev/standard", "counting/standard", ctx.matches, ctx.seed,
                          as_variant(spec), threads=ctx.threads, scheduler=ctx.client,
                          kit_bidders=DUEL_BIDDERS)  # fmt: skip
        recs.append(d)
        rows.append([spec, f"{d['pairs']:,}", f"{100 * d['win_rate']:.1f}% [{100 * d['ci95'][0]:.1f}, {100 * d['ci95'][1]:.1f}]",
                     _pm(d["margin_per_hand"], d["margin_per_hand_se"], 3)])  # fmt: skip
    doc.p("Duplicate matches (`t400 duel --a ev/standard --b counting/standard`): every deal sequence is "
          "played twice with the partnerships' seats swapped. The EV bidder's match win rate with its "
          "95% interval, and its points per hand minus the counting side's:")  # fmt: skip
    doc.table(["rules", "pairs", "EV bidder wins", "points per hand, EV - counting"], rows)
    doc.p(f"Data: {ctx.data_link(pd.DataFrame(recs), 'duels')}.")
    ctx.facts["duels"] = recs
    ctx.timings["variants and duels"] = time.perf_counter() - t0
    return doc
