"""The 400 report's sections: the bidding guide, the rule variants, the match and the method.

Everything is computed here from seeded simulations (the bidding guide's deal kernel, the bid
analyzer, the match kernel and the double-dummy solver) in the framework of
:mod:`analyzer.reports.frame`; :mod:`analyzer.reports.build` writes the folder.
"""

from __future__ import annotations

import math
import os
import platform
import time

import numpy as np
import pandas as pd

from analyzer import config
from analyzer.core.dealing import deal_hands
from analyzer.core.fmt import pct as _pct
from analyzer.core.fmt import pm as _pm
from analyzer.core.notation import Deal, Hand, parse_hand
from analyzer.core.policies import numbers_fingerprint, play_fingerprint
from analyzer.core.solve import solve_many
from analyzer.games.t400 import equity as me
from analyzer.games.t400 import equity_build as eb
from analyzer.games.t400 import guide as gd
from analyzer.games.t400 import matches as am
from analyzer.games.t400.advice import recommend_bid
from analyzer.games.t400.bidder import load_model
from analyzer.games.t400.equity import table_for
from analyzer.games.t400.rules import MAX_BID, MIN_BID, Variant, as_variant, parse_variant_spec
from analyzer.games.t400.simulate import bot_bid, duplicate_edge, play_deal
from analyzer.reports import figures as rp
from analyzer.reports.document import Document
from analyzer.reports.frame import Context, compare_lineups, variant_rows
from analyzer.version import __version__
from kernels.policies.lead_weights import META as lead_meta

SEAT_NAMES = {1: "seat 1 (bids first, leads)", 2: "seat 2", 3: "seat 3", 4: "seat 4 (dealer)"}
FINE = ["hearts", "top_hearts", "side_aces", "side_kings"]

#: Characteristic hands for the trick distributions (seat 1, scores 0).
EXAMPLE_HANDS = (
    ("weak, five small hearts", "T98.65432.987.62"),
    ("balanced, three hearts to the K J", "AKQ5.KJ4.T93.862"),
    ("two hearts to the ace, side honours", "J94.A2.KQ86.QJ73"),
    ("five hearts to the queen, two side A K", "AK.Q8643.AK72.95"),
    ("strong five hearts A K Q J", "KQ3.AKQJ7.A4.K52"),
    ("one heart, side-suit powerhouse", "AKQJ.A.AKQJ.AK32"),
    ("seven hearts to the A K Q J, two side aces", "A2.AKQJT98.K3.A4"),
    ("seven hearts, a void, side A K Q", "-.AKQ9876.AKQ5.43"),
)

PRESET_SPECS = ("dananeer", "qahwa", "syrian41")
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


# ---------------------------------------------------------------------------------------------
# The bidding guide


def _bidding_guide(ctx: Context) -> Document:
    t0 = time.perf_counter()
    tables = {name: [] for name in GROUPINGS}
    seat_rows, dealer_rows, dealer_prior = [], [], []
    fine_best = {}
    combos = [(seat, b[0]) for b in gd.BRACKETS for seat in (1, 2, 3, 4)]
    for n, (seat, bracket) in enumerate(combos):
        ctx.progress(f"bidding guide: {SEAT_NAMES[seat]}, score {bracket}", n / len(combos))
        part = ctx.parts.get(f"guide-seat{seat}-{'low' if bracket == gd.LOW else 'high'}",
                             _guide_combo, ctx, seat, bracket)  # fmt: skip
        for name in GROUPINGS:
            tables[name].append(part["tables"][name])
        seat_rows.append(part["seat_row"])
        fine_best[(seat, bracket)] = part["tables"]["fine"]
        if seat == 4:
            dealer_rows.append(part["dealer_row"])
            dealer_prior.append(part["prior_cells"])
    ctx.timings["bidding guide deals"] = time.perf_counter() - t0
    for name in tables:
        tables[name] = pd.concat(tables[name], ignore_index=True)
    seats = pd.DataFrame(seat_rows)
    dealer = pd.DataFrame(dealer_rows)
    prior = pd.concat(dealer_prior, ignore_index=True)

    doc = Document("bidding-guide.md", "Bidding guide for Tarneeb 400")
    doc.p(
        f"What a hand is worth, by its features, for each seat and each score bracket of the value "
        f"table. Each seat and bracket is {ctx.samples:,} random full deals (seed {ctx.seed}); on each deal "
        f"the seats before bid with the EV bot, then **every** bid of the player from 2 to 13 is played "
        f"out on that same deal: the later seats bid by bot, a dead hand scores 0, all four play the "
        f"`standard` policy. A group's **EV-best bid** is the bid with the highest mean points over the "
        f"deals in the group; the figure after ± is a standard error. Dananeer rules (the default). "
        f"See [the method](method.md) for the model and its limits."
    )
    rules = as_variant("dananeer")
    ((_, own, others),) = [b for b in gd.BRACKETS if b[0] == gd.HIGH]
    plain = [b for b in range(MIN_BID, MAX_BID + 1) if rules.bid_value(b, own) == b]
    doc.p(
        f"Score brackets: **{gd.LOW}** means every score is 0 (the start of a match); **{gd.HIGH}** means the "
        f"player is at {own} and the others at {others}, so the player's minimum bid is {rules.min_bid(own)}, "
        f"the table minimum is {rules.table_minimum([own, others, others, others])}, and the value table's "
        f"second row applies (bids {plain[0]}-{plain[-1]} are worth their number: {plain[-2]} is worth "
        f"{rules.bid_value(plain[-2], own)}, not {rules.bid_value(plain[-2], 0)})."
    )
    # Tables: hearts x top hearts
    doc.h(1, "Hearts length and top hearts")
    ht = tables["hearts_top"]
    for bracket in (gd.LOW, gd.HIGH):
        doc.h(2, f"EV-best bid, score {bracket} (seat 1 / 2 / 3 / 4)")
        doc.p("Rows: hearts held (8 means 8 or more); columns: how many of the A, K, Q of hearts. "
              "A dash: too few deals (under 200) to say.")  # fmt: skip
        _wide_bids(doc, ht[ht["bracket"] == bracket], "hearts", "top_hearts", "top hearts")
    doc.h(2, f"Expected own tricks at the EV-best bid, seat 1, score {gd.LOW}")
    _wide_values(doc, ht[(ht["bracket"] == gd.LOW) & (ht["seat"] == 1)], "hearts", "top_hearts",
                 "top hearts", "tricks_mean", "tricks_se")  # fmt: skip
    for quantity, label in (("best_bid", "EV-best bid"), ("tricks_mean", "expected own tricks")):
        path, full = ctx.fig(f"guide_{quantity}_hearts_top")
        rp.plot_heatmaps(_panels(ht), full, "hearts", "top_hearts", quantity,
                         f"{label[0].upper() + label[1:]} by hearts length and top hearts", label,
                         fmt="{:.0f}" if quantity == "best_bid" else "{:.1f}")  # fmt: skip
        doc.figure(path, f"{label[0].upper() + label[1:]} by hearts length (x) and top hearts A/K/Q (y), per seat "
                   "(columns) and score bracket (rows).")  # fmt: skip
    doc.p(f"Numbers for every seat and bracket, with EV of every bid and its SE: "
          f"{ctx.data_link(ht, 'guide_hearts_top')}.")  # fmt: skip

    doc.h(1, "Hearts length and side aces")
    ha = tables["hearts_aces"]
    for bracket in (gd.LOW, gd.HIGH):
        doc.h(2, f"EV-best bid, score {bracket} (seat 1 / 2 / 3 / 4)")
        _wide_bids(doc, ha[ha["bracket"] == bracket], "hearts", "side_aces", "side aces")
    path, full = ctx.fig("guide_best_bid_hearts_aces")
    rp.plot_heatmaps(_panels(ha), full, "hearts", "side_aces", "best_bid",
                     "EV-best bid by hearts length and side aces", "EV-best bid")  # fmt: skip
    doc.figure(path, "EV-best bid by hearts length (x) and side aces (y), per seat and score bracket.")
    doc.p(f"Data: {ctx.data_link(ha, 'guide_hearts_aces')}.")

    doc.h(1, "Side aces and kings")
    ak = tables["aces_kings"]
    doc.p(f"All hands of seat 1 at score {gd.LOW}, whatever their hearts: expected own tricks (± SE) and "
          "the EV-best bid.")  # fmt: skip
    part = ak[(ak["seat"] == 1) & (ak["bracket"] == gd.LOW)]
    kings = sorted(part["side_kings"].unique())
    rows = []
    for a in sorted(part["side_aces"].unique()):
        row = [str(a)]
        for k in kings:
            cell = part[(part["side_aces"] == a) & (part["side_kings"] == k)]
            row.append("-" if cell.empty or cell["best_bid"].iloc[0] < 0 else
                       f"{cell['tricks_mean'].iloc[0]:.2f} ± {cell['tricks_se'].iloc[0]:.2f} → {cell['best_bid'].iloc[0]}")  # fmt: skip
        rows.append(row)
    doc.table(["side aces \\ side kings", *map(str, kings)], rows)
    doc.p(f"Data: {ctx.data_link(ak, 'guide_aces_kings')}.")

    doc.h(1, "Shape")
    sh = tables["shape"]
    part = sh[(sh["bracket"] == gd.LOW)].copy()
    total = part[part["seat"] == 1]["deals"].sum()
    common = part[part["seat"] == 1].sort_values("deals", ascending=False).head(14)["shape"].tolist()
    rows = []
    for code in common:
        cells = part[part["shape"] == code].set_index("seat")
        s1 = cells.loc[1]
        rows.append([gd.shape_label(code), _pct(s1["deals"] / total), _pm(s1["tricks_mean"], s1["tricks_se"]),
                     " / ".join(str(int(cells.loc[s]["best_bid"])) if s in cells.index and cells.loc[s]["best_bid"] > 0
                                else "-" for s in (1, 2, 3, 4))])  # fmt: skip
    doc.p(f"The 14 commonest shapes (longest suit first, any suit), score {gd.LOW}: how often seat 1 holds "
          "them, its expected own tricks, and the EV-best bid for seats 1 / 2 / 3 / 4. Shape alone "
          "says little: hearts length and honours matter far more (see above).")  # fmt: skip
    doc.table(["shape", "share", "tricks, seat 1", "EV-best bid by seat"], rows)
    doc.p(f"Data: {ctx.data_link(sh, 'guide_shape')}.")

    # When is 9 better than 8?
    value = as_variant("dananeer").bid_value
    doc.h(1, f"When is 9 (worth {value(9, 0)}) better than 8 (worth {value(8, 0)})?")
    fine = tables["fine"]
    strong = fine[(fine["seat"] == 1) & (fine["bracket"] == gd.LOW) & (fine["deals"] >= config.get().guide_min_cell)
                  & (fine[["ev_8", "ev_9"]].max(axis=1) > 0)].copy()  # fmt: skip
    strong["nine_minus_eight"] = strong["ev_9"] - strong["ev_8"]
    strong = strong.sort_values(["hearts", "top_hearts", "side_aces", "side_kings"])
    ctx.csv(strong, "nine_vs_eight")
    rows = []
    for r in strong.itertuples():
        if max(r.ev_8, r.ev_9) < 5:
            continue
        rows.append([f"{r.hearts}{'+' if r.hearts >= gd.HEARTS_CAP else ''}", r.top_hearts, r.side_aces, r.side_kings,
                     f"{r.deals:,}", f"{r.ev_7:.1f}", f"{r.ev_8:.1f}", f"{r.ev_9:.1f}", f"{r.ev_10:.1f}",
                     str(r.best_bid)])  # fmt: skip
    doc.p(f"Hands of seat 1 at score {gd.LOW} grouped by hearts, top hearts, side aces and side kings, "
          "among the groups where 8 or 9 is worth 5 points or more: expected points of bidding 7, 8, "
          "9 and 10 (standard errors in the CSV). A 9 scores 27·(2·P(9+) - 1) against 16·(2·P(8+) - 1) "
          "for an 8: when 8 tricks are nearly sure, 9 is the better bid once the hand takes 9 tricks "
          "about 4 times in 5 (P(9+) > 0.80).")  # fmt: skip
    if rows:
        doc.table(
            ["hearts", "top", "side A", "side K", "deals", "EV 7", "EV 8", "EV 9", "EV 10", "best"], rows
        )
    curves = {}
    picks = strong[strong["best_bid"] >= 7].sort_values("best_ev", ascending=False).head(5)
    for r in picks.itertuples():
        bids = np.arange(2, 14)
        evs = [getattr(r, f"ev_{b}") for b in bids]
        ses = [getattr(r, f"ev_{b}_se") for b in bids]
        curves[f"{r.hearts} hearts, {r.top_hearts} top, {r.side_aces} A, {r.side_kings} K"] = (bids, evs, ses)
    if curves:
        path, full = ctx.fig("ev_by_bid_strong")
        rp.plot_lines(
            curves,
            full,
            "bid",
            "expected points",
            f"Expected points of each bid, strong groups (seat 1, {gd.LOW})",
        )
        doc.figure(path, "Expected points of every bid for the strongest groups of seat-1 hands (95% bands).")
    doc.p("The full lookup table (every group of hearts, top hearts, side aces and side kings, every "
          f"seat and bracket, EV of every bid ± SE, trick distribution at the best bid): {ctx.data_link(fine, 'guide_fine')}.")  # fmt: skip

    # Seats
    doc.h(1, "How much does bidding first (and leading) matter?")
    rows = []
    for r in seats.itertuples():
        rows.append([SEAT_NAMES[r.seat], r.bracket, _pm(r.points_per_hand, r.points_per_hand_se, 3),
                     f"{r.mean_tricks:.2f}", f"{r.mean_bid:.2f}", _pct(r.p_dead)])  # fmt: skip
    doc.p("Points per hand a player scores by following this guide (the EV-best bid of its group of "
          "hearts, top hearts, side aces and side kings and of the earlier bids' total; chosen on half "
          "the deals and scored on the other half so that noise does not flatter it), with the mean own "
          "tricks at that bid (hands played), the mean bid, and how often the hand dies at that bid. Seat 1 leads the first trick; seat 4 bids last and "
          "sees every other bid.")  # fmt: skip
    doc.table(["seat", "score", "points per hand", "own tricks", "mean bid", "hand dies"], rows)
    groups = {b: {SEAT_NAMES[r.seat].split(" (")[0]: (r.points_per_hand, r.points_per_hand_se)
                  for r in seats[seats["bracket"] == b].itertuples()} for b in (gd.LOW, gd.HIGH)}  # fmt: skip
    path, full = ctx.fig("seats")
    rp.plot_grouped_bars(groups, full, "points per hand", "Points per hand following the guide, by seat")
    doc.figure(path, "Points per hand following the guide, by seat and score bracket (95% intervals).")
    ctx.csv(seats, "seat_value")
    ctx.facts["seats"] = seats

    # Dealer
    doc.h(1, "What the dealer's last-bid information is worth")
    rows = []
    for r in dealer.itertuples():
        rows.append([r.bracket, _pm(r.ignoring_bids, r.ignoring_bids_se, 3), _pm(r.using_bids, r.using_bids_se, 3),
                     _pm(r.gain, r.gain_se, 3)])  # fmt: skip
    doc.p("The dealer bids last, knowing the three other bids (and so how close the table is to its "
          "minimum). Points per hand of the dealer choosing the EV-best bid of its hand group "
          "*ignoring* the earlier bids, against choosing it for the hand group *and* the earlier "
          "bids' total (both cross-fitted; the gain is a paired difference on the same deals):")  # fmt: skip
    doc.table(["score", "ignoring the bids", "using the bids", "gain per hand"], rows)
    ctx.csv(dealer, "dealer_information")
    ctx.facts["dealer"] = dealer
    part = prior[prior["bracket"] == gd.LOW]
    path, full = ctx.fig("dealer_best_bid_by_prior")
    panels = {(f"score {gd.LOW}", "seat 4 (dealer)"): part.rename(columns={"prior": "earlier_bids_total"})}
    rp.plot_heatmaps(panels, full, "hearts", "earlier_bids_total", "best_bid",
                     "Dealer's EV-best bid by hearts length and the earlier bids' total", "EV-best bid")  # fmt: skip
    doc.figure(path, "The dealer's EV-best bid by hearts length (x) and the total of the three earlier bids (y), "
               f"score {gd.LOW}: low totals push the dealer up to keep the hand alive when that pays.")  # fmt: skip
    ctx.csv(prior, "dealer_best_bid_by_prior")

    # Examples
    t1 = time.perf_counter()
    ctx.progress("bidding guide: example hands", 0.95)
    doc.h(1, "Example hands: the full own-trick distribution")
    examples = []
    rows = []
    records = []
    fine_1 = fine_best[(1, gd.LOW)].set_index(FINE)
    hands = EXAMPLE_HANDS[: config.get().report_example_hands]
    analyses = ctx.parts.get("examples", lambda: [
        recommend_bid(text, seat=1, seed=ctx.seed, threads=ctx.threads) for _, text in hands])  # fmt: skip
    for (label, text), a in zip(hands, analyses):
        examples.append(a)
        feats = gd.hand_features(np.array([parse_hand(text).bits], dtype=np.uint64)).iloc[0]
        key = tuple(int(feats[f]) for f in FINE)
        table_bid = int(fine_1.loc[key]["best_bid"]) if key in fine_1.index else -1
        best = a.row(a.recommended)
        rows.append([f"`{text}`", label, _pm(a.tricks_mean, a.tricks_mean_se, 3), str(a.recommended),
                     _pm(best.ev, best.ev_se), _pct(a.p_best),
                     str(table_bid) if table_bid > 0 else "-"])  # fmt: skip
        rec = {"hand": text, "label": label, "recommended": a.recommended, "tricks_mean": a.tricks_mean,
               "tricks_mean_se": a.tricks_mean_se, "ev": best.ev, "ev_se": best.ev_se, "p_best": best.p_best,
               "samples": a.samples, "guide_table_bid": table_bid}  # fmt: skip
        for k, p in enumerate(a.tricks):
            rec[f"p_tricks_{k}"] = p
        for r in a.rows:
            rec[f"ev_{r.bid}"] = r.ev
            rec[f"ev_{r.bid}_se"] = r.ev_se
        records.append(rec)
    doc.p(f"Each hand analysed by `t400 bid HAND --seed {ctx.seed}` (seat 1, scores 0, rollout model, "
          "sampling until every P(make) has SE <= 0.003): the mean own tricks at the recommended bid, "
          "the recommendation, its expected points, the probability that it is truly the best bid, and "
          "the EV-best bid of the hand's group in the lookup table above, for comparison.")  # fmt: skip
    doc.table(["hand", "kind", "own tricks", "bid", "EV", "P(best)", "group's bid"], rows, align="llrrrrr")
    path, full = ctx.fig("example_trick_distributions")
    rp.plot_trick_distributions(examples, full)
    doc.figure(path, "Own-trick distributions of the example hands at the recommended bid (95% bars).")
    doc.p(f"Data: {ctx.data_link(pd.DataFrame(records), 'example_hands')}.")
    ctx.facts["examples"] = records
    ctx.timings["example hands"] = time.perf_counter() - t1
    return doc


GROUPINGS = {
    "hearts_top": ["hearts", "top_hearts"],
    "hearts_aces": ["hearts", "side_aces"],
    "aces_kings": ["side_aces", "side_kings"],
    "shape": ["shape"],
    "fine": FINE,
}


def _guide_combo(ctx: Context, seat: int, bracket: str) -> dict:
    """One seat and bracket of the guide: its deals, reduced to the tables the report uses."""
    data = gd.simulate_seat(seat, bracket, ctx.samples, ctx.seed, threads=ctx.threads,
                            map_chunks=ctx.map_chunks())  # fmt: skip
    part = {"tables": {name: gd.cell_table(data, by) for name, by in GROUPINGS.items()}}
    # Every seat knows the earlier bids' total (seat 1's is always 0) and bids with it.
    value, value_se, with_prior, chosen = gd.policy_value(data, [*FINE, "prior"], FINE)
    at_bid = data.tricks[np.arange(data.deals), chosen].astype(np.int64)
    live = at_bid >= 0
    part["seat_row"] = {"seat": seat, "bracket": bracket, "deals": data.deals,
                        "points_per_hand": value, "points_per_hand_se": value_se,
                        "mean_bid": float(gd.CANDIDATES[chosen].mean()),
                        "mean_tricks": float(at_bid[live].mean()) if live.any() else float("nan"),
                        "p_dead": float(1 - live.mean())}  # fmt: skip
    if seat == 4:
        plain = gd.policy_value(data, FINE)
        d = with_prior - plain[2]
        part["dealer_row"] = {"bracket": bracket, "deals": data.deals, "ignoring_bids": plain[0],
                              "ignoring_bids_se": plain[1], "using_bids": value, "using_bids_se": value_se,
                              "gain": float(d.mean()), "gain_se": float(d.std(ddof=1) / math.sqrt(len(d)))}  # fmt: skip
        part["prior_cells"] = gd.cell_table(data, ["hearts", "prior"])
    return part


def _panels(df: pd.DataFrame) -> dict:
    return {(f"score {b}", SEAT_NAMES[s]): df[(df["seat"] == s) & (df["bracket"] == b)]
            for b in (gd.LOW, gd.HIGH) for s in (1, 2, 3, 4)}  # fmt: skip


def _wide_bids(doc: Document, df: pd.DataFrame, row: str, col: str, col_label: str) -> None:
    cols = sorted(df[col].unique())
    out = []
    for r in sorted(df[row].unique()):
        line = [f"{r}{'+' if row == 'hearts' and r >= gd.HEARTS_CAP else ''}"]
        for c in cols:
            cell = df[(df[row] == r) & (df[col] == c)].set_index("seat")
            bids = [str(int(cell.loc[s]["best_bid"])) if s in cell.index and cell.loc[s]["best_bid"] > 0 else "-"
                    for s in (1, 2, 3, 4)]  # fmt: skip
            line.append("/".join(bids) if any(b != "-" for b in bids) else "-")
        out.append(line)
    doc.table([f"{row} \\ {col_label}", *map(str, cols)], out)


def _wide_values(
    doc: Document, df: pd.DataFrame, row: str, col: str, col_label: str, value: str, se: str
) -> None:
    cols = sorted(df[col].unique())
    out = []
    for r in sorted(df[row].unique()):
        line = [f"{r}{'+' if row == 'hearts' and r >= gd.HEARTS_CAP else ''}"]
        for c in cols:
            cell = df[(df[row] == r) & (df[col] == c)]
            ok = not cell.empty and cell["deals"].iloc[0] >= config.get().guide_min_cell
            line.append(_pm(cell[value].iloc[0], cell[se].iloc[0]) if ok else "-")
        out.append(line)
    doc.table([f"{row} \\ {col_label}", *map(str, cols)], out)


# ---------------------------------------------------------------------------------------------
# Variants


def _compare(ctx: Context, specs) -> pd.DataFrame:
    lineups = [am.Lineup.make(parse_variant_spec(s)) for s in specs]
    return compare_lineups(ctx, lineups, am.compare_stats([lu.variant.label for lu in lineups]))


def _variants(ctx: Context) -> Document:
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
                          as_variant(spec), threads=ctx.threads, scheduler=ctx.client)  # fmt: skip
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


# ---------------------------------------------------------------------------------------------
# When the match score changes the bid

#: Score brackets of the match-score section (own score, partner's, opponents' higher).
MATCH_BRACKETS = ((-1000, -1, "< 0"), (0, 19, "0-19"), (20, 29, "20-29"), (30, 34, "30-34"),
                  (35, 39, "35-39"), (40, 1000, ">= 40"))  # fmt: skip
MATCH_DUELS = (("win/standard", "ev/standard"), ("ev/standard", "counting-ev/standard"),
               ("ev/standard", "counting/standard"))  # fmt: skip


def _bracket(score: int) -> str:
    return next(label for lo, hi, label in MATCH_BRACKETS if lo <= score <= hi)


def _match(ctx: Context) -> Document:
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
                              as_variant("dananeer"), threads=ctx.threads, scheduler=ctx.client)  # fmt: skip
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
    doc.p(f"Data: {ctx.data_link(diffs.drop(columns=['bids']), 'match_bid_differences')}.")
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


# ---------------------------------------------------------------------------------------------
# Method


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


def _method(ctx: Context, command: str) -> Document:
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


# ---------------------------------------------------------------------------------------------
# Index


def _index(ctx: Context, command: str, elapsed: float, scheduler: str | None) -> Document:
    doc = Document("README.md", "tarneeb400 strategy report")
    where = f"on the Dask cluster `{scheduler}`" if scheduler else f"on this machine ({os.cpu_count()} cores)"
    resumed = f", resumed after an interruption ({ctx.parts.loaded} parts reused)" if ctx.parts.loaded else ""
    doc.p(f"Generated by `{command}` {where} in **{elapsed / 60:.1f} minutes**{resumed} "
          f"(tarneeb400 {__version__}).")  # fmt: skip
    doc.h(1, "Contents")
    doc.bullets([
        "[Bidding guide](bidding-guide.md): expected tricks and the EV-best bid by hearts length, top "
        "hearts, side aces and kings and shape, for each seat and score bracket; when 9 beats 8; the "
        "value of bidding first and of the dealer's information; example hands.",
        "[Rule variants](variants.md): the presets and each Qahwa switch compared on the same deals; the "
        "EV bidder against the counting bidder.",
        "[When the match score changes the bid](match.md): match equity, the match-aware `win` bidder "
        "against the points-maximising `ev` bidder, where and how much their bids differ; the EV "
        "bidder against `counting-ev` (its decision rule on the counting estimate).",
        "[Method](method.md): the model, the double-dummy check, sizes, seeds, standard errors, software.",
        "`data/`: every table as CSV; `figures/`: every figure as PNG.",
    ])  # fmt: skip
    doc.h(1, "Key findings")
    items = []
    seats = ctx.facts.get("seats")
    if seats is not None:
        low = seats[seats["bracket"] == gd.LOW].set_index("seat")
        items.append(f"Points per hand following the guide, score {gd.LOW}: " + ", ".join(
            f"seat {s} {_pm(low.loc[s]['points_per_hand'], low.loc[s]['points_per_hand_se'], 3)}" for s in (1, 2, 3, 4)) + ".")  # fmt: skip
    dealer = ctx.facts.get("dealer")
    if dealer is not None:
        r = dealer[dealer["bracket"] == gd.LOW].iloc[0]
        items.append(f"Knowing the other three bids is worth {_pm(r['gain'], r['gain_se'], 3)} points per hand "
                     f"to the dealer at score {gd.LOW}.")  # fmt: skip
    duels = ctx.facts.get("duels")
    if duels:
        d = duels[0]
        items.append(f"The EV bidder wins {100 * d['win_rate']:.1f}% of duplicate matches against the counting "
                     f"bidder (95% CI {100 * d['ci95'][0]:.1f}-{100 * d['ci95'][1]:.1f}%, dananeer).")  # fmt: skip
    table = ctx.facts.get("variants_qahwa_switches")
    if table is not None:
        hands = table[table["metric"] == "hands per match"].set_index("variant")
        dead = table[table["metric"] == "dead-hand rate"].set_index("variant")
        items.append(f"A 31 target shortens a Qahwa match from {hands.loc['qahwa']['value']:.1f} to "
                     f"{hands.loc['qahwa target=31']['value']:.1f} hands; a table minimum of 13 raises the dead-hand "
                     f"rate from {100 * dead.loc['qahwa']['value']:.1f}% to {100 * dead.loc['qahwa table-min=13']['value']:.1f}%.")  # fmt: skip
    f = ctx.facts.get("dd")
    if f:
        items.append(
            f"Standard play is within {f['mean_abs']:.2f} tricks per deal of double-dummy play on average."
        )
    doc.bullets(items)
    doc.h(1, "Run time")
    doc.table(
        ["part", "seconds"], [[k, f"{v:.0f}"] for k, v in ctx.timings.items()] + [["total", f"{elapsed:.0f}"]]
    )
    return doc


#: The files this report writes, and its title.
DOCUMENTS = ("README.md", "bidding-guide.md", "variants.md", "match.md", "method.md")
TITLE = "tarneeb400 strategy report"


def documents(ctx: Context, command: str, scheduler: str | None, start: float) -> list[Document]:
    """The report's documents, index first."""
    guide_doc = _bidding_guide(ctx)
    variants_doc = _variants(ctx)
    match_doc = _match(ctx)
    method_doc = _method(ctx, command)
    index = _index(ctx, command, time.perf_counter() - start, scheduler)
    return [index, guide_doc, variants_doc, match_doc, method_doc]


def data_fingerprints() -> dict:
    """What the report's figures depend on beyond its command: the card play (a hash of its
    behaviour), the shipped bidder model and the dananeer match-equity table (hashes of their
    numbers)."""
    return {"play_fingerprint": play_fingerprint(), "bidder_model_sha256": numbers_fingerprint(load_model().array),
            "equity_table_sha256": numbers_fingerprint(table_for("dananeer").array)}  # fmt: skip
