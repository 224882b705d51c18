"""400's answers as the commands print them: the bid analysis, the rules and a scored round, a
played hand, a simulate summary and the review's bidding."""

from __future__ import annotations

from analyzer.core.fmt import compiled_note, fmt_value, format_table, pct, reasons_text, tricks_text
from analyzer.core.notation import parse_hand
from analyzer.games.t400 import rules as rules_mod


def bid_text(r) -> str:
    """``t400 bid``'s answer (a :class:`analyzer.games.t400.analysis.BidAnalysis`)."""
    out = []
    hand = parse_hand(r.hand)
    roles = {1: "bids first and leads", 2: "bids second", 3: "bids third", 4: "deals and bids last"}
    out.append(f"Hand {hand.to_symbols()}   seat {r.seat} ({roles[r.seat]})   "
               f"scores {'/'.join(map(str, r.scores))}   variant {r.variant}")  # fmt: skip
    if r.bids:
        out.append(f"Earlier bids: {', '.join(f'seat {i + 1}: {b}' for i, b in enumerate(r.bids))}"
                   f"   (inference {'on' if r.infer else 'off'}; effective sample {r.effective_samples:,.0f})")  # fmt: skip
    model = {"rollout": "rollout, bots bid and all play " + r.policy, "solo-dd": "solo double dummy",
             "dd": "400 double dummy with the bids"}[r.model]  # fmt: skip
    compiled = compiled_note(r.compile_s)
    out.append(f"Model: {model}; {r.samples:,} deal{'s' if r.samples != 1 else ''} (seed {r.seed}), {r.elapsed_s:.2f} s{compiled}"
               + ("" if r.target_met or r.model != "rollout" else "; precision target not reached (cap)"))  # fmt: skip
    out.append(f"Objective: {r.objective_note}")
    if r.note:
        out.append(f"Note: {r.note}")
    if r.warning:
        out.append(f"Warning: {r.warning}")
    if r.tricks_bid == r.recommended:
        heading = f"Your tricks if you bid {r.recommended} (hands played)"
    else:
        heading = f"Your tricks if you bid {r.tricks_bid}, the least bid that plays (hands played)"
    spread = "" if r.tricks_mean_se != r.tricks_mean_se else f" ± {r.tricks_mean_se:.2f}"
    out.append(f"\n{heading}: mean {r.tricks_mean:.2f}{spread}")
    ks = [k for k in range(14) if r.tricks[k] == r.tricks[k] and r.tricks[k] >= 0.0005]
    out.append(format_table(["tricks", *ks], [["P", *(f"{100 * r.tricks[k]:.1f}%" for k in ks)]]))
    out.append("")
    rows = []
    win = r.objective == "win"
    for row in r.rows:
        mark = "*" if row.bid == r.recommended else ""
        rows.append([f"{mark}{row.bid}", row.value, pct(row.p_make, row.p_make_se), pct(row.p_dead, None),
                     f"{row.ev:+.2f} ± {row.ev_se:.2f}", *([pct(row.p_win, row.p_win_se, 2)] if win else []),
                     pct(row.p_best, None, 0)])  # fmt: skip
    heads = [
        "bid",
        "value",
        "P(make)",
        "P(dead)",
        "EV (points)",
        *(["P(win match)"] if win else []),
        "P(best)",
    ]
    out.append(format_table(heads, rows, align="r" * len(heads)))
    killers = r.killing_bids
    if killers:
        playing = [row.bid for row in r.rows if row.bid not in killers]
        span = f"{killers[0]}" if len(killers) == 1 else f"{killers[0]}-{killers[-1]}"
        least = f"; {playing[0]} is the least that plays" if playing else ""
        out.append(f"\nBid{'s' if len(killers) > 1 else ''} {span} kill{'' if len(killers) > 1 else 's'} the hand"
                   f" (the total stays short of the table minimum){least}.")  # fmt: skip
    tied = r.tied
    best = r.row(r.recommended)
    line = f"\nRecommended: bid {r.recommended} (" + (
        f"P(win the match) {100 * best.p_win:.2f}%" if win else f"EV {best.ev:+.2f}"
    )
    if len(tied) > 1:
        line += f"; bids {', '.join(map(str, tied))} tie, the lowest is shown"
    elif r.warning:
        line += "; too uncertain to say how likely it is the best"
    else:
        line += f"; best with probability {100 * r.p_best:.0f}%"
        if r.runner_up is not None:
            if win:
                line += (f"; {100 * r.margin:+.2f} ± {100 * r.margin_se:.2f} percentage points of P(win) "
                         f"over bidding {r.runner_up}")  # fmt: skip
            else:
                line += f"; {r.margin:+.2f} ± {r.margin_se:.2f} points over bidding {r.runner_up}"
    out.append(line + ")")
    out += reasons_text(r.to_dict()["reasons"])
    return "\n".join(out)


def rules_text(variant, info: dict) -> str:
    """``t400 rules`` of a 400 variant (``info``: :func:`rules.describe`)."""
    out = []
    description = rules_mod.PRESET_DESCRIPTIONS.get(variant.name, "")
    out.append(f"Variant: {variant.label}  ({description})")
    out.append("Trump: hearts, every hand. Each player bids 2..13 tricks for themselves, once.\n")
    out.append("Value of a bid (won if made, lost if failed):")
    bids = list(range(rules_mod.MIN_BID, rules_mod.MAX_BID + 1))
    rows = [[label, *values.values()] for label, values in info["value_table"].items()]
    out.append(format_table(["bid", *bids], rows))
    if variant.score_table == "classic":
        out.append("13: a made 13 wins the match outright, a failed 13 loses it (booked at 39).")
    out.append("\nMinimums by score:")
    brackets = list(info["min_bid"].keys())
    out.append(format_table(["", *brackets], [["own minimum bid (own score)", *info["min_bid"].values()],
                                              ["table minimum (highest score)", *info["table_min"].values()]]))  # fmt: skip
    match = info["match"]
    out.append("\nMatch:")
    out.append(f"  win: {match['win']}")
    out.append(f"  both partnerships qualify: {match['both_qualify']}")
    out.append(
        f"  dead hand (bids short of the table minimum): nothing scored, {match['dead_hand_redeal']} re-deals"
    )
    if "outright" in match:
        out.append(f"  outright: {match['outright']}")
    return "\n".join(out)


def settle_text(variant, result) -> str:
    """``t400 score`` of a 400 round (a :class:`rules.RoundResult`)."""
    rows = []
    for seat in range(4):
        made = "-" if result.made is None else ("made" if result.made[seat] else "set")
        rows.append([f"seat {seat + 1}", result.scores_before[seat], result.bids[seat], result.values[seat],
                     "-" if result.tricks is None else result.tricks[seat], made, f"{result.deltas[seat]:+d}",
                     result.scores[seat]])  # fmt: skip
    out = [f"Variant: {variant.label}",
           format_table(["", "before", "bid", "value", "tricks", "result", "change", "after"], rows)]  # fmt: skip
    total = sum(result.bids)
    if result.dead and result.tricks is not None:
        out.append("Note: the hand is dead, so the tricks given are not scored.")
    if result.dead:
        who = "the next dealer" if result.dealer_advances else "the same dealer"
        out.append(
            f"Dead hand: bids total {total}, under the table minimum of {result.table_minimum}; {who} re-deals."
        )
    else:
        out.append(f"Bids total {total} (table minimum {result.table_minimum}).")
    if result.winner:
        out.append(f"Winner: seats {result.winner[0]} and {result.winner[1]} ({result.reason}).")
    elif result.reason:
        out.append(f"No winner yet: {result.reason}.")
    else:
        out.append("No winner yet.")
    return "\n".join(out)


def played_text(h) -> str:
    """``t400 play`` of one 400 deal (a :class:`analyzer.games.t400.simulate.PlayedHand`)."""
    out = [
        f"Deal: {h.deal}",
        f"Bids: {', '.join(map(str, h.bids))} ({h.bids_by}); play: {', '.join(dict.fromkeys(h.policy))}",
    ]
    if h.dead:
        out.append("Dead hand: the bids miss the table minimum; thrown in, not played.")
        return "\n".join(out)
    rows = [[seat, h.bids[seat - 1], h.tricks[seat - 1], "made" if h.made[seat - 1] else "set",
             f"{h.points[seat - 1]:+d}"] for seat in range(1, 5)]  # fmt: skip
    out.append(format_table(["seat", "bid", "tricks", "", "points"], rows))
    out.append(tricks_text(h))
    return "\n".join(out)


def summary_text(s: dict, lineup, seed: int, elapsed: float, compiled: str = "") -> str:
    """``t400 simulate``'s summary of 400 matches."""
    v = lineup.variant
    out = [f"Variant {v.label}: target {v.target}, table minimum {v.table_min}"
           f"{' rising' if v.table_min_rises else ' fixed'}, {v.score_table} table, tie-break {v.tie_break}, "
           f"redeal {v.redeal}",
           f"Bots: bidders {'/'.join(lineup.bidders)}, play {'/'.join(lineup.policies)} (players 1-4); "
           f"{s['matches']:,} matches, seed {seed}, cap {lineup.cap} deals, {elapsed:.1f} s{compiled}"]  # fmt: skip
    h = s["hands_per_match"]
    p = h["percentiles"]
    out.append(f"\nHands per match: mean {h['mean']:.2f} ± {h['se']:.2f}; 5/25/50/75/95%: "
               f"{p['p5']:g}/{p['p25']:g}/{p['p50']:g}/{p['p75']:g}/{p['p95']:g}; longest {h['max']}")  # fmt: skip
    out.append(f"Dead hands: {fmt_value(s['dead_rate']['value'], s['dead_rate']['se'], 'rate')} of deals "
               f"({s['deals_per_match']:.2f} deals per match)")  # fmt: skip
    w = s["first_partnership_win"]
    out.append(f"First-bidding partnership (players 1+3) wins: {pct(w['rate'])} "
               f"(95% CI {pct(w['ci95'][0])} - {pct(w['ci95'][1])})")  # fmt: skip
    out.append("Match endings: " + ", ".join(
        f"{k} {pct(e['share'])}" for k, e in s["endings"].items() if e["matches"] or k == "cap"))  # fmt: skip
    sc = s["mean_final_scores"]
    out.append(
        "Mean final scores: "
        + ", ".join(f"player {k[-1]} {fmt_value(m['mean'], m['se'])}" for k, m in sc.items())
    )
    out.append(f"Bids: mean {fmt_value(s['mean_bid']['value'], s['mean_bid']['se'])}; "
               f"made {fmt_value(s['make_rate']['value'], s['make_rate']['se'], 'rate')} overall\n")  # fmt: skip
    rows = []
    for k, share in s["bid_distribution"].items():
        m = s["make_rate_by_bid"].get(k)
        if not share and not m:
            continue
        rows.append([k, f"{m['bids'] if m else 0:,}", pct(share, digits=2),
                     fmt_value(m["rate"], m["se"], "rate") if m else "-"])  # fmt: skip
    out.append(format_table(["bid", "bids", "share", "made"], rows))
    return "\n".join(out)


def summary_table(summary: dict):
    """A tidy (section, key, value, se, low, high) table of a 400 simulate summary."""
    import pandas as pd

    rows = [("run", "matches", summary["matches"], None, None, None)]
    h = summary["hands_per_match"]
    rows.append(("hands_per_match", "mean", h["mean"], h["se"], None, None))
    rows += [("hands_per_match", k, v, None, None, None) for k, v in h["percentiles"].items()]
    rows.append(("hands_per_match", "max", h["max"], None, None, None))
    rows += [("hands_per_match_distribution", k, v, None, None, None) for k, v in h["distribution"].items()]
    for name, m in summary["metrics"].items():
        rows.append(("metric", name, m["value"], m["se"], None, None))
    rows += [("bid_share", k, v, None, None, None) for k, v in summary["bid_distribution"].items()]
    rows += [
        ("make_rate_by_bid", k, v["rate"], v["se"], None, None)
        for k, v in summary["make_rate_by_bid"].items()
    ]
    w = summary["first_partnership_win"]
    rows.append(("first_partnership_win", "rate", w["rate"], None, *w["ci95"]))
    rows += [("ending_share", k, v["share"], None, None, None) for k, v in summary["endings"].items()]
    rows += [
        ("mean_final_score", k, v["mean"], v["se"], None, None)
        for k, v in summary["mean_final_scores"].items()
    ]
    return pd.DataFrame(rows, columns=["section", "key", "value", "se", "low", "high"])


def review_bidding_text(rev: dict, loss) -> str:
    """The bidding part of a 400 review; ``loss(value, se, objective)`` words a loss."""
    out = ["\nBidding (each bid against the analyzer's answer from that seat's hand and the bids before it):"]
    rows = [[b["seat"], b["hand"], ",".join(map(str, b["bids_before"])) or "-", b["bid"], b["recommended"],
             "" if b["verdict"] == "best" else loss(b["loss"], b["loss_se"], b["objective"]), b["verdict"]]
            for b in rev["bidding"]]  # fmt: skip
    out.append(format_table(["seat", "hand", "bids before", "bid", "best", "loss", "verdict"], rows))
    return "\n".join(out)


def card_text(a) -> str:
    """``t400 card``'s answer for 400 (a :class:`analyzer.games.t400.pimc.CardAdvice`)."""
    out = [f"Seat {a.seat} (bid {a.bids[a.seat - 1]}), hand {a.hand}; {a.variant}; bids {','.join(map(str, a.bids))}; "
           f"scores {'/'.join(map(str, a.scores))}"]  # fmt: skip
    out += _position_lines(a.played, a.trick, a.taken)
    fit = f"{pct(a.fitted, digits=0)} of the decisions' layouts fit the bids" if a.fitted < 1 else "all fit the bids"
    out.append(f"pimc: {a.layouts} layouts of the hidden cards ({fit}; asked {a.layouts_asked}), seed {a.seed}; "
               f"{a.elapsed_s:.2f} s{compiled_note(a.compile_s)}\n")  # fmt: skip
    rows = [[("*" if r.card == a.recommended else " ") + r.card, " ".join(r.equal) or "-",
             f"{r.points:+.2f} ± {r.points_se:.2f}", pct(r.p_made, digits=0), pct(r.p_best, digits=0)] for r in a.rows]  # fmt: skip
    out.append(format_table(["card", "equal cards", "your side's points", "your bid made", "P(best)"], rows,
                            align="llrrr"))  # fmt: skip
    out.append(f"\nRecommended: {a.recommended}")
    out += reasons_text(a.reasons)
    return "\n".join(out)


def _position_lines(played, trick, taken) -> list[str]:
    """The play so far in words: the tricks, the current one and the tricks each seat won."""
    if not played:
        return ["No card played yet."]
    done = len(played) - len(trick)
    out = [f"Played: {done // 4} trick{'s' if done // 4 != 1 else ''}; tricks won by seat: "
           f"{' '.join(f'{s + 1}:{t}' for s, t in enumerate(taken))}"]  # fmt: skip
    if trick:
        out.append(f"This trick so far: {' '.join(trick)}")
    return out
