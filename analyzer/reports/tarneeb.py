"""``t400 report --game tarneeb``: the classic and Egyptian Tarneeb report.

The team's tricks by strength, longest suit and shape (the trump choice), the EV-best opening
call by hand features and seat (the call analyzer on random hands), what the variants change
(whole matches on the same deals), and the team policy against double dummy. Built, kept and
moved into place by :func:`analyzer.reports.build.build_report` like the 400 report.
"""

from __future__ import annotations

import math
import time

import numpy as np
import pandas as pd

from analyzer import config
from analyzer.core import figures as rp
from analyzer.core.dealing import deal_hands
from analyzer.core.fmt import pct as _pct
from analyzer.core.fmt import pm as _pm
from analyzer.core.notation import Hand
from analyzer.core.policies import numbers_fingerprint, play_fingerprint, policy_id
from analyzer.core.runtime import chunks_for
from analyzer.core.solve import solve_team_tasks, solver_space
from analyzer.games.tarneeb.advice import recommend_call
from analyzer.games.tarneeb.bidders import load_model
from analyzer.games.tarneeb.matches import TarneebLineup, compare_stats
from analyzer.games.tarneeb.rules import TarneebVariant, as_tarneeb_variant
from analyzer.reports.document import Document
from analyzer.reports.frame import compare_lineups, variant_rows
from analyzer.version import __version__
from kernels.core.cards import LANE, SUIT_BITS
from kernels.tarneeb import hand as kh

#: The variants compared (the plausibility table of README, as the report measures it).
VARIANT_SPECS = (
    "tarneeb",
    "tarneeb:one-bid-each=yes",
    "tarneeb:all-pass=forced",
    "tarneeb:no-trump=no",
    "tarneeb:trump-lead=yes",
    "tarneeb:worthless-redeal=yes",
    "tarneeb:target=41",
    "tarneeb-dananeer",
    "egyptian",
)
VARIANT_METRICS = ("hands per match", "mean contract", "contracts of 9+", "make rate", "no-trump contracts",
                   "doubled contracts", "dealer forced to bid", "Kaboot (declarers take 13)", "first team wins")  # fmt: skip
#: High-card points (A 4, K 3, Q 2, J 1) groups.
HCP_GROUPS = ((0, 6, "0-6"), (7, 9, "7-9"), (10, 12, "10-12"), (13, 15, "13-15"), (16, 18, "16-18"),
              (19, 40, "19+"))  # fmt: skip
STRAIN_LETTERS = ("S", "H", "D", "C", "NT")
_CHUNK = 1024


def hand_features(hands: np.ndarray) -> pd.DataFrame:
    """Features of hands (uint64[n]): ``hcp``, the four suit lengths ``len_S..len_C``, ``longest``
    (the suit index of the longest suit; ties: the one with more high-card points, then S H D C),
    ``longest_len``, ``second`` (the next longest suit) and ``shape`` (lengths sorted, "5-4-3-1")."""
    hands = np.asarray(hands, dtype=np.uint64)
    lengths = np.zeros((len(hands), 4), dtype=np.int64)
    points = np.zeros((len(hands), 4), dtype=np.int64)
    for s in range(4):
        lane = (hands >> np.uint64(LANE * s)) & SUIT_BITS
        lengths[:, s] = np.bitwise_count(lane)
        for rank, value in ((12, 4), (11, 3), (10, 2), (9, 1)):
            points[:, s] += value * ((lane >> np.uint64(rank)) & np.uint64(1)).astype(np.int64)
    key = lengths * 100 + points * 4 + (3 - np.arange(4))  # longer, then stronger, then S H D C
    order = np.argsort(-key, axis=1)
    shapes = np.sort(lengths, axis=1)[:, ::-1]
    return pd.DataFrame({
        "hcp": points.sum(axis=1),
        **{f"len_{STRAIN_LETTERS[s]}": lengths[:, s] for s in range(4)},
        "longest": order[:, 0],
        "longest_len": lengths[np.arange(len(hands)), order[:, 0]],
        "second": order[:, 1],
        "shape": ["-".join(map(str, row)) for row in shapes],
    })  # fmt: skip


def hcp_group(hcp) -> np.ndarray:
    out = np.empty(len(hcp), dtype=object)
    for low, high, label in HCP_GROUPS:
        out[(hcp >= low) & (hcp <= high)] = label
    return out


def _mean_se(x: np.ndarray) -> tuple[float, float]:
    x = np.asarray(x, dtype=np.float64)
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else math.nan


# ---------------------------------------------------------------------------------------------
# The team's tricks


def _trick_deals(ctx, n: int) -> dict:
    """Seat 1's hand and its team's tricks declaring each strain (team play, seat 1 leading) on
    ``n`` random deals (the EV bidder's training plays)."""
    v = as_tarneeb_variant("tarneeb")
    hands, tricks, _, _ = kh.training_deals(ctx.seed, 0, chunks_for(n, _CHUNK), _CHUNK, v.kernel_rules(),
                                            np.full(4, kh.EV, dtype=np.int64), load_model().array)  # fmt: skip
    return {"hands": hands[:, 0].copy(), "tricks": tricks[:, 0, :].copy()}


def _tricks(ctx) -> Document:
    t0 = time.perf_counter()
    ctx.progress("tricks by strength and shape", 0.02)
    n = ctx.samples
    got = ctx.parts.get("tarneeb-tricks", _trick_deals, ctx, n)
    f = hand_features(got["hands"])
    tricks = got["tricks"]
    rows = np.arange(len(f))
    f["trump_longest"] = tricks[rows, f["longest"].to_numpy()]
    f["trump_second"] = tricks[rows, f["second"].to_numpy()]
    f["no_trump"] = tricks[:, 4]
    f["group"] = hcp_group(f["hcp"].to_numpy())
    f["length"] = np.minimum(f["longest_len"], 7)
    doc = Document("tricks.md", "The team's tricks: strength, longest suit, shape")
    doc.p(f"On {len(f):,} random deals (seed {ctx.seed}), the hand in seat 1 declares and leads, and its "
          "team's tricks are played out with the `team` policy by all four players (the contract's target "
          "8 tricks, 6 to set it), in every strain. The hand's partner is a random hand: these are the "
          "tricks to expect before the auction says anything. ± is one standard error.")  # fmt: skip
    table = []
    for (group, length), part in f.groupby(["group", "length"], sort=False):
        if len(part) < 50:
            continue
        m, se = _mean_se(part["trump_longest"])
        nt, nt_se = _mean_se(part["no_trump"])
        table.append({"hcp": group, "longest_suit": length, "deals": len(part), "tricks_longest_trump": m,
                      "se": se, "p_7_plus": float((part["trump_longest"] >= 7).mean()), "tricks_no_trump": nt,
                      "no_trump_se": nt_se})  # fmt: skip
    by_strength = pd.DataFrame(table)
    by_strength["order"] = by_strength["hcp"].map({g[2]: i for i, g in enumerate(HCP_GROUPS)})
    by_strength = (
        by_strength.sort_values(["order", "longest_suit"]).drop(columns="order").reset_index(drop=True)
    )
    doc.h(1, "By high-card points and the longest suit")
    doc.p("The longest suit as trump (ties: the stronger suit). High-card points count A 4, K 3, Q 2, J 1; "
          "a longest suit of 7 means 7 or more. Groups of fewer than 50 deals are left out.")  # fmt: skip
    lengths = sorted(by_strength["longest_suit"].unique())
    wide = []
    for _, _, group in HCP_GROUPS:
        part = by_strength[by_strength["hcp"] == group].set_index("longest_suit")
        wide.append([group] + [_pm(part.loc[k, "tricks_longest_trump"], part.loc[k, "se"], 2) if k in part.index
                               else "" for k in lengths])  # fmt: skip
    doc.table(["HCP"] + [f"longest {k}" + ("+" if k == 7 else "") for k in lengths], wide)
    panel = by_strength.assign(x=by_strength["longest_suit"],
                               y=by_strength["hcp"].map({g[2]: g[0] for g in HCP_GROUPS}))  # fmt: skip
    path, full = ctx.fig("tarneeb_tricks_by_strength")
    rp.plot_heatmaps({("longest suit trump", "team's tricks"): panel}, full, x="x", y="y",
                     value="tricks_longest_trump", title="Team's tricks declaring in the longest suit "
                     "(rows: HCP groups from 0, 7, ... 19; columns: its length, 7 = 7+)", label="mean tricks",
                     fmt="{:.1f}")  # fmt: skip
    doc.figure(path, "Mean team tricks with the longest suit as trump, by HCP group (rows: the group's "
                     "lowest HCP) and the longest suit's length (columns).")  # fmt: skip
    doc.p(f"Data (also P(7+) and no-trump tricks): {ctx.data_link(by_strength, 'tarneeb_tricks_by_strength')}.")
    shapes = []
    counts = f["shape"].value_counts()
    for shape in counts.index[:12]:
        part = f[f["shape"] == shape]
        row = {"shape": shape, "deals": len(part)}
        for name in ("trump_longest", "trump_second", "no_trump"):
            row[name], row[name + "_se"] = _mean_se(part[name])
        row["p_no_trump_best"] = float((part["no_trump"] > part["trump_longest"]).mean())
        row["p_second_best"] = float((part["trump_second"] > part["trump_longest"]).mean())
        shapes.append(row)
    by_shape = pd.DataFrame(shapes)
    doc.h(1, "The trump choice by shape")
    doc.p("For the twelve commonest shapes: the team's tricks with the longest suit, the second longest "
          "suit and no trump, and how often no trump or the second suit takes more tricks than the longest "
          "suit on the same deal.")  # fmt: skip
    doc.table(["shape", "deals", "longest suit", "second suit", "no trump", "NT more", "second more"],
              [[r["shape"], f"{r['deals']:,}", _pm(r["trump_longest"], r["trump_longest_se"], 2),
                _pm(r["trump_second"], r["trump_second_se"], 2), _pm(r["no_trump"], r["no_trump_se"], 2),
                _pct(r["p_no_trump_best"]), _pct(r["p_second_best"])] for r in shapes])  # fmt: skip
    path, full = ctx.fig("tarneeb_trump_by_shape")
    rp.plot_grouped_bars({label: {r["shape"]: (r[key], r[key + "_se"]) for r in shapes}
                          for label, key in (("longest suit", "trump_longest"), ("second suit", "trump_second"),
                                             ("no trump", "no_trump"))},
                         full, "mean team tricks", "Team's tricks by strain and shape")  # fmt: skip
    doc.figure(path, "Mean team tricks by shape: longest suit, second suit, no trump (95% intervals).")
    doc.p(f"Data: {ctx.data_link(by_shape, 'tarneeb_trump_by_shape')}.")
    ctx.facts["tricks"] = {"deals": len(f), "by_strength": by_strength, "by_shape": by_shape}
    ctx.timings["tricks by strength and shape"] = time.perf_counter() - t0
    return doc


# ---------------------------------------------------------------------------------------------
# Opening calls


def _openings(ctx, n_hands: int, samples: int) -> pd.DataFrame:
    """The call analyzer on ``n_hands`` random hands per seat, every earlier seat having passed."""
    rows = []
    dealt = deal_hands(4 * n_hands, seed=ctx.seed + 5)
    for seat in range(1, 5):
        for k in range(n_hands):
            hand = Hand(int(dealt[(seat - 1) * n_hands + k, seat - 1]))
            a = recommend_call(hand, seat=seat, auction=["pass"] * (seat - 1), variant="tarneeb", samples=samples,
                               seed=ctx.seed + k, threads=ctx.threads)  # fmt: skip
            r = a.row(a.recommended)
            pass_row = a.row("pass")
            rows.append({"seat": seat, "hand": a.hand, "recommended": a.recommended, "trump": a.trump,
                         "ev": r.ev, "ev_se": r.ev_se, "ev_pass": pass_row.ev, "p_best": a.p_best})  # fmt: skip
            ctx.progress("opening calls", 0.3 + 0.3 * ((seat - 1) * n_hands + k) / (4 * n_hands))
    return pd.DataFrame(rows)


def _opening(ctx) -> Document:
    t0 = time.perf_counter()
    n_hands, samples = config.get().report_tarneeb_hands, config.get().report_tarneeb_call_samples
    df = ctx.parts.get("tarneeb-openings", _openings, ctx, n_hands, samples)
    f = hand_features(np.array([Hand.parse(h).bits for h in df["hand"]], dtype=np.uint64))
    df = pd.concat([df, f[["hcp", "longest_len", "shape"]]], axis=1)
    longest = np.array(STRAIN_LETTERS)[f["longest"].to_numpy()]
    df["group"] = hcp_group(df["hcp"].to_numpy())
    df["call"] = np.where(df["recommended"] == "pass", "pass",
                          np.where(df["recommended"].isin(["7", "8"]), df["recommended"], "9+"))  # fmt: skip
    doc = Document("opening.md", "The EV-best opening call")
    doc.p(f"{n_hands} random hands per seat (seed {ctx.seed + 5}), each analysed by `t400 bid --game tarneeb` "
          f"({samples:,} sampled deals, every earlier seat having passed, the `tarneeb` preset): the call with "
          "the most expected points for the team when the EV bots finish the auction and all four play the "
          "`team` policy.")  # fmt: skip
    rows, records = [], []
    for seat in range(1, 5):
        part = df[df["seat"] == seat]
        for _, _, group in HCP_GROUPS:
            g = part[part["group"] == group]
            if len(g) == 0:
                continue
            shares = {c: float((g["call"] == c).mean()) for c in ("pass", "7", "8", "9+")}
            records.append({"seat": seat, "hcp": group, "hands": len(g), **{f"p_{c}": v for c, v in shares.items()},
                            "mean_ev": float(g["ev"].mean())})  # fmt: skip
            rows.append([seat, group, len(g)] + [_pct(shares[c]) for c in ("pass", "7", "8", "9+")]
                        + [f"{g['ev'].mean():+.2f}"])  # fmt: skip
    summary = pd.DataFrame(records)
    doc.h(1, "By seat and high-card points")
    doc.table(["seat", "HCP", "hands", "pass", "7", "8", "9+", "mean EV"], rows)
    weak = df[df["hcp"] <= 6]
    bids = weak[weak["call"] != "pass"]
    if len(bids):
        margin = (bids["ev"] - bids["ev_pass"]).median()
        doc.p(f"{_pct(len(bids) / len(weak))} of the {len(weak)} hands with 6 HCP or less have a bid as their "
              f"EV-best call, {_pct((bids['longest_len'] >= 5).mean())} of them with a five-card or longer suit "
              f"(their median margin over passing: {margin:.2f} points). A long trump suit takes tricks without "
              "high cards, and an opening makes the opponents, who hold the values, bid higher. That is a finding "
              "about the opponents modelled (the EV bots, playing the `team` policy), not advice for every "
              "table.")  # fmt: skip
    by_length = []
    for length, g in df.groupby(np.minimum(df["longest_len"], 7)):
        by_length.append([f"{length}" + ("+" if length == 7 else ""), len(g), _pct((g["call"] != "pass").mean()),
                          f"{g['hcp'].mean():.1f}"])  # fmt: skip
    doc.h(1, "By the longest suit (all seats)")
    doc.table(["longest suit", "hands", "bid", "mean HCP"], by_length)
    bidding = (df["call"] != "pass").to_numpy()
    bids = df[bidding]
    if len(bids):
        trumps = bids["trump"].value_counts(normalize=True)
        doc.p("Trumps named with the recommended bids: " + ", ".join(f"{k} {_pct(v)}" for k, v in trumps.items())
              + f"; the named trump is the longest suit in "
              f"{_pct((bids['trump'].to_numpy() == longest[bidding]).mean())} of them.")  # fmt: skip
    path, full = ctx.fig("tarneeb_opening_calls")
    rp.plot_grouped_bars({f"seat {seat}": {r["hcp"]: (100 * (1 - r["p_pass"]), 100 * math.sqrt(
        max((1 - r["p_pass"]) * r["p_pass"], 1e-12) / r["hands"])) for r in records if r["seat"] == seat}
        for seat in range(1, 5)}, full, "hands that open (%)", "Open or pass, by HCP group and seat")  # fmt: skip
    doc.figure(
        path, "Share of hands whose EV-best first call is a bid, by HCP group and seat (95% intervals)."
    )
    doc.p(f"Data: every hand {ctx.data_link(df, 'tarneeb_opening_hands')}, "
          f"by seat and HCP {ctx.data_link(summary, 'tarneeb_opening_by_hcp')}.")  # fmt: skip
    ctx.facts["opening"] = summary
    ctx.timings["opening calls"] = time.perf_counter() - t0
    return doc


# ---------------------------------------------------------------------------------------------
# Variants


def _compare(ctx, specs) -> pd.DataFrame:
    lineups = [TarneebLineup.make(TarneebVariant.parse_spec(s), bidder="ev") for s in specs]
    return compare_lineups(ctx, lineups, compare_stats([lu.variant.label for lu in lineups]))


def _variants(ctx) -> Document:

    t0 = time.perf_counter()
    ctx.progress("variants", 0.65)
    table = ctx.parts.get("tarneeb-variants", _compare, ctx, VARIANT_SPECS)
    labels = list(dict.fromkeys(table["variant"]))
    doc = Document("variants.md", "What the variants change")
    doc.p(f"Each variant plays {ctx.matches:,} complete matches with four EV bots and `team` play on the **same "
          f"deals** (match *i* draws from the stream (seed {ctx.seed}, *i*)), so the differences against "
          f"`{labels[0]}` (in brackets, ± one standard error of the paired difference) are measured on paired "
          f"matches. Command: `t400 variants {' '.join(VARIANT_SPECS)} --bidder ev --matches {ctx.matches} "
          f"--seed {ctx.seed}`.")  # fmt: skip
    rows = variant_rows(table, VARIANT_METRICS)
    doc.table(["variant", "hands/match", "mean contract", "9+", "made", "no trump", "doubled", "dealer forced",
               "Kaboot", "first team wins"], rows)  # fmt: skip
    path, full = ctx.fig("tarneeb_variants")
    rp.plot_variants(table, full, title=f"Tarneeb variants ({ctx.matches:,} matches each, same deals)",
                     metrics=VARIANT_METRICS)  # fmt: skip
    doc.figure(path, "The main figures of each variant with 95% intervals.")
    doc.p(f"Every figure with its standard error and paired difference: {ctx.data_link(table, 'tarneeb_variants')}.")
    ctx.facts["variants"] = table
    ctx.timings["variants"] = time.perf_counter() - t0
    return doc


# ---------------------------------------------------------------------------------------------
# Double-dummy check and method


def _dd_check(ctx, n: int, spec: str) -> pd.DataFrame:
    """The EV bots' contracts on ``n`` random deals: the declaring team's tricks under team play
    and by team double dummy (declarer leading, the bot's trump)."""
    v = as_tarneeb_variant(spec)
    deals = np.ascontiguousarray(deal_hands(n, seed=ctx.seed + 7).astype(np.uint64))
    out = np.zeros((n, kh.R_SIZE), dtype=np.int64)
    kh.hands_outcomes(v.kernel_rules(), deals, np.full(4, kh.EV, dtype=np.int64),
                      np.full(4, policy_id("team"), dtype=np.int64), kh.TEAM_KIT, out, load_model().array)  # fmt: skip
    played = np.flatnonzero(out[:, kh.R_REDEAL] == kh.PLAYED)
    tasks = np.stack([played, out[played, kh.R_TRUMP], out[played, kh.R_DECLARER]], 1).astype(np.int64)
    workspaces, tables = solver_space(1)
    dd = solve_team_tasks(deals, np.ascontiguousarray(tasks), bool(v.trump_lead), workspaces, tables)
    level = out[played, kh.R_CONTRACT] >> 3
    return pd.DataFrame({"variant": spec, "deal": played, "declarer": out[played, kh.R_DECLARER] + 1,
                         "contract": level, "trump": np.array(STRAIN_LETTERS)[out[played, kh.R_TRUMP]],
                         "team_play": out[played, kh.R_TRICKS], "double_dummy": dd})  # fmt: skip


def _method(ctx, command: str) -> Document:
    t0 = time.perf_counter()
    ctx.progress("double-dummy check", 0.85)
    n = config.get().report_dd_deals
    dd = pd.concat(
        [ctx.parts.get(f"tarneeb-dd-{spec}", _dd_check, ctx, n, spec) for spec in ("tarneeb", "egyptian")]
    )
    ctx.timings["double-dummy check"] = time.perf_counter() - t0
    doc = Document("method.md", "Method")
    doc.h(1, "The model")
    doc.bullets([
        "**Rules**: classic Tarneeb (`tarneeb`, `tarneeb-dananeer`) and Egyptian Tarneeb (`egyptian`) as in "
        "`t400 rules --game tarneeb`; the rules engine settles every hand and is tested against the rule texts.",
        "**Bidding**: the EV bot (`t400 fit-bidder --game tarneeb`): the team's tricks in each strain from hand "
        "features and the standing bid, the call with the most expected points for the team.",
        "**Play**: the `team` policy for all four: 400's `standard` plan with the partnership's tricks pooled "
        "and each side's target (the contract, or the tricks that set it); only public information.",
        "**Sampling**: seeded streams per chunk of deals or per match, so every figure is a function of the "
        "seed alone, whatever the number of threads.",
    ])  # fmt: skip
    doc.h(1, "Double-dummy check of the team policy")
    rows = []
    records = []
    for spec, g in dd.groupby("variant", sort=False):
        diff = (g["team_play"] - g["double_dummy"]).to_numpy()
        m, se = _mean_se(diff)
        made_play = float((g["team_play"] >= g["contract"]).mean())
        made_dd = float((g["double_dummy"] >= g["contract"]).mean())
        records.append({"variant": spec, "contracts": len(g), "mean_play": float(g["team_play"].mean()),
                        "mean_dd": float(g["double_dummy"].mean()), "diff": m, "diff_se": se,
                        "equal": float((diff == 0).mean()), "below": float((diff < 0).mean()),
                        "made_play": made_play, "made_dd": made_dd})  # fmt: skip
        rows.append([spec, len(g), f"{g['team_play'].mean():.2f}", f"{g['double_dummy'].mean():.2f}", _pm(m, se, 2),
                     _pct((diff == 0).mean()), _pct((diff < 0).mean()), _pct(made_play), _pct(made_dd)])  # fmt: skip
    doc.p(f"The EV bots' contracts on {n} random deals per variant (seed {ctx.seed + 7}): the declaring team's "
          "tricks when all four play the `team` policy, and by team double dummy (both sides see all cards and "
          "play perfectly; the declarer leads, in the bot's trump; the solver agrees with DDS in the tests).")  # fmt: skip
    doc.table(["variant", "contracts", "team play", "double dummy", "play - DD", "equal", "play below DD",
               "made (play)", "made (DD)"], rows)  # fmt: skip
    doc.p(f"Data: {ctx.data_link(dd, 'tarneeb_dd_check')}. Every card against DDS is "
          "measured by `benchmarks/tarneeb_play_vs_dd.py` (README).")  # fmt: skip
    ctx.facts["dd"] = records
    doc.h(1, "Sizes, seeds and uncertainty")
    doc.bullets([
        f"Tricks: {ctx.facts['tricks']['deals']:,} deals, seed {ctx.seed}.",
        f"Opening calls: {config.get().report_tarneeb_hands} hands per seat (seed {ctx.seed + 5}), "
        f"{config.get().report_tarneeb_call_samples:,} sampled deals each (seed {ctx.seed} + the hand's number).",
        f"Variants: {ctx.matches:,} matches per variant, seed {ctx.seed}, paired differences.",
        "Every ± is one standard error; intervals in figures are 95%.",
    ])  # fmt: skip
    doc.h(1, "Software and regeneration")
    doc.p(f"tarneeb400 {__version__}. The same seed and sizes give the same numbers (run times differ):")
    doc.code(command)
    return doc


def _index(ctx, command: str, elapsed: float, scheduler: str | None) -> Document:
    import os

    doc = Document("README.md", "tarneeb400 report: classic and Egyptian Tarneeb")
    where = f"on the Dask cluster `{scheduler}`" if scheduler else f"on this machine ({os.cpu_count()} cores)"
    doc.p(f"Generated by `{command}` {where} in **{elapsed / 60:.1f} minutes** (tarneeb400 {__version__}).")
    doc.h(1, "Contents")
    doc.bullets([
        "[The team's tricks](tricks.md): by high-card points and the longest suit; the trump choice by shape.",
        "[The EV-best opening call](opening.md): pass or bid, by seat, strength and the longest suit.",
        "[What the variants change](variants.md): no trump, one bid each, the dealer's forced bid, the trump "
        "lead, worthless hands, targets, Dananeer and Egyptian rules, on the same deals.",
        "[Method](method.md): the model, the double-dummy check of the team policy, sizes and seeds.",
        "`data/`: every table as CSV; `figures/`: every figure as PNG.",
    ])  # fmt: skip
    doc.h(1, "Key findings")
    items = []
    t = ctx.facts["tricks"]["by_strength"]
    strong = t[(t["hcp"] == "13-15") & (t["longest_suit"] == 5)]
    if len(strong):
        r = strong.iloc[0]
        items.append(f"With 13-15 HCP and a five-card suit, the team takes {_pm(r['tricks_longest_trump'], r['se'], 2)} "
                     f"tricks with that suit as trump (7 or more on {_pct(r['p_7_plus'])} of deals) before the "
                     "auction says anything about partner.")  # fmt: skip
    o = ctx.facts["opening"]
    seat1 = o[o["seat"] == 1].set_index("hcp")
    if "10-12" in seat1.index:
        items.append(f"Seat 1 opens {_pct(1 - seat1.loc['10-12', 'p_pass'])} of 10-12 HCP hands as the EV-best "
                     "call against the EV bots.")  # fmt: skip
    v = ctx.facts["variants"]
    hands = v[v["metric"] == "hands per match"].set_index("variant")
    if "egyptian" in hands.index:
        items.append(f"An Egyptian match lasts {hands.loc['egyptian', 'value']:.2f} hands against "
                     f"{hands.loc['tarneeb', 'value']:.2f} for classic Tarneeb.")  # fmt: skip
    for r in ctx.facts["dd"]:
        items.append(f"{r['variant']}: declarers take {r['diff']:+.2f} ± {r['diff_se']:.2f} tricks against double "
                     f"dummy under `team` play (equal on {_pct(r['equal'])} of contracts).")  # fmt: skip
    doc.bullets(items)
    doc.h(1, "Run time")
    doc.table(
        ["part", "seconds"], [[k, f"{v:.0f}"] for k, v in ctx.timings.items()] + [["total", f"{elapsed:.0f}"]]
    )
    return doc


#: The files this report writes, and its title.
DOCUMENTS = ("README.md", "tricks.md", "opening.md", "variants.md", "method.md")
TITLE = "tarneeb400 report: classic and Egyptian Tarneeb"
#: Where ``t400 report --game tarneeb`` writes it by default, and the config field of its default size.
DEFAULT_OUT = "reports/tarneeb"
SAMPLES_SETTING = "report_tarneeb_deals"


def documents(ctx, command: str, scheduler: str | None, start: float) -> list[Document]:
    """The report's documents, index first."""
    docs = [_tricks(ctx), _opening(ctx), _variants(ctx)]
    docs.append(_method(ctx, command))
    return [_index(ctx, command, time.perf_counter() - start, scheduler), *docs]


def data_fingerprints() -> dict:
    """What the Tarneeb report depends on beyond its command: the card play (team included) and
    the Tarneeb bidder model."""
    return {"play_fingerprint": play_fingerprint(("team",)),
            "tarneeb_bidder_model_sha256": numbers_fingerprint(load_model().array)}  # fmt: skip
