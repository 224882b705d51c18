"""The bidding guide: expected tricks and the EV-best bid by hand features, seat and score bracket,
when 9 beats 8, what bidding first and the dealer's information are worth, example hands."""

from __future__ import annotations

import math
import time

import numpy as np
import pandas as pd

from analyzer import config
from analyzer.core import figures as rp
from analyzer.core.fmt import pct as _pct
from analyzer.core.fmt import pm as _pm
from analyzer.core.notation import parse_hand
from analyzer.games.t400 import guide as gd
from analyzer.games.t400.advice import recommend_bid
from analyzer.games.t400.rules import MAX_BID, MIN_BID, as_variant
from analyzer.reports.document import Document
from analyzer.reports.frame import Context

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



def bidding_guide(ctx: Context) -> Document:
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
