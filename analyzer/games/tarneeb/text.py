"""Tarneeb's answers as the commands print them: the call analysis, the rules and a scored hand,
a played hand, a simulate summary and the review's calls."""

from __future__ import annotations

from analyzer.core.fmt import compiled_note, fmt_value, format_table, pct, reasons_text, tricks_text
from analyzer.games.tarneeb import rules as tarneeb_rules


def call_text(r, policy: str) -> str:
    """``t400 bid --game tarneeb``'s answer (a :class:`analyzer.games.tarneeb.advice.CallAnalysis`)."""
    said = ", ".join(r.auction) if r.auction else "none yet"
    out = [f"Hand {r.hand}, seat {r.seat}, {r.variant}; calls so far: {said}"]
    how = "double dummy" if r.model == "dd" else f"{policy} play"
    out.append(f"{r.samples:,} sampled deals (effective {r.effective_samples:,.0f}), seed {r.seed}, EV bots, "
               f"{how}; {r.elapsed_s:.1f} s{compiled_note(r.compile_s)}")  # fmt: skip
    now = f"; your team's P(win) now {pct(r.p_win_now)}" if r.p_win_now is not None else ""
    out.append(f"Scores {r.scores[0]} (seats 1+3) - {r.scores[1]} (seats 2+4){now}")
    out.append(f"Objective: {r.objective_note}\n")
    low = tarneeb_rules.MIN_BID
    rows = []
    for letter, p in r.strains.items():
        mean, se = r.strain_means[letter]
        rows.append([letter, f"{mean:.2f} ± {se:.2f}", *(pct(sum(p[k:])) for k in range(low, 14))])
    out.append("Your team's tricks if you declare (you lead):")
    out.append(format_table(["strain", "mean", *(f">={k}" for k in range(low, 14))], rows) + "\n")
    rows = []
    for c in r.rows:
        mark = "*" if c.call == r.recommended else " "
        ends = pct(c.p_ends, c.p_ends_se) if c.p_ends > 0 else "-"
        made = pct(c.p_make, c.p_make_se) if c.p_ends > 0 else "-"
        win = [] if c.p_win is None else [pct(c.p_win, c.p_win_se)]
        rows.append([f"{mark}{c.call}", c.trump or "-", ends, made, pct(c.p_declare), f"{c.ev:+.2f} ± {c.ev_se:.2f}",
                     *win])  # fmt: skip
    head = ["call", "trump", "ends as contract", "made", "team declares", "EV (points)"]
    out.append(format_table(head + (["P(win match)"] if r.objective == "win" else []), rows))
    trump = f", naming {r.trump}" if r.trump else ""
    out.append(f"\nRecommended: {r.recommended}{trump} (P(best) {pct(r.p_best)})")
    out += reasons_text(r.to_dict()["reasons"])
    out += [f"note: {note}" for note in r.notes]
    return "\n".join(out)


def rules_text(variant, info: dict) -> str:
    """``t400 rules`` of a Tarneeb variant (``info``: :func:`rules.describe`)."""
    description = tarneeb_rules.PRESET_DESCRIPTIONS.get(variant.name, "")
    out = [f"Variant: {variant.label}  ({description})",
           "Partners (seats 1+3 against 2+4) bid together for their team's tricks, 7..13.\n", "Auction:"]  # fmt: skip
    out += [f"  {key.replace('_', ' ')}: {text}" for key, text in info["auction"].items()]
    out.append(f"Trump: {info['trump']} ({', '.join(info['strains'])}). Play: {info['play']}.")
    out.append("\nScoring:")
    out.append(f"  made: {info['scoring']['made']}")
    out.append(f"  failed: {info['scoring']['failed']}")
    rows = [[r["bid"], r["tricks"], tarneeb_rules.TRICKS - r["tricks"], f"{r['declarers']:+d}", f"{r['defenders']:+d}"]
            for r in info["scoring"]["examples"]]  # fmt: skip
    out.append(format_table(["bid", "declarers' tricks", "defenders' tricks", "declarers", "defenders"], rows,
                            align="r" * 5))  # fmt: skip
    out.append(f"\nMatch: {info['match']['end']}.")
    return "\n".join(out)


def settle_text(variant, result, data: dict) -> str:
    """``t400 score`` of a Tarneeb hand (a :class:`rules.HandResult` and its dict)."""
    team = "+".join(map(str, data["declaring_team"]))
    trump_text = f", trump {result.trump}" if result.trump else ""
    outcome = "made" if result.made else "failed"
    out = [f"Variant: {variant.label}",
           f"Contract: {result.bid} by seat {result.declarer} (seats {team}){trump_text}"
           f"{', doubled' if result.doubled else ''}: {outcome} with {result.tricks} tricks "
           f"(defenders {13 - result.tricks}){'; Kaboot' if result.kaboot else ''}"]  # fmt: skip
    rows = [[f"seats {label}", before, f"{delta:+d}", after]
            for label, before, delta, after in zip(("1+3", "2+4"), result.scores_before, result.deltas, result.scores)]  # fmt: skip
    out.append(format_table(["", "before", "change", "after"], rows))
    if result.winner:
        out.append(f"Winner: seats {result.winner[0]} and {result.winner[1]} ({result.reason}).")
    elif result.draw:
        out.append(f"Draw: {result.reason}.")
    else:
        out.append("No winner yet." if not result.reason else f"No winner yet: {result.reason}.")
    return "\n".join(out)


def played_text(h) -> str:
    """``t400 play`` of one Tarneeb deal (a :class:`analyzer.games.tarneeb.play.PlayedTarneebHand`)."""
    out = [f"Deal: {h.deal}", f"Calls: {', '.join(h.calls)} ({h.calls_by})"]
    if h.contract is None:
        out.append("Everyone passed: the hand is dealt again, not played.")
        return "\n".join(out)
    result = h.to_dict()["result"]
    doubled = ", doubled" if h.contract.doubled else ""
    out.append(f"Contract: seat {h.contract.declarer} {h.contract.bid} in {h.trump.word}{doubled}; "
               f"seats {'1+3' if h.contract.declarer % 2 else '2+4'} take {h.declarer_tricks} "
               f"({'made' if result['made'] else 'set'}): {result['deltas'][0]:+d} / {result['deltas'][1]:+d}")  # fmt: skip
    out.append(tricks_text(h))
    return "\n".join(out)


def summary_text(s: dict, lineup, seed: int, elapsed: float, compiled: str = "") -> str:
    """``t400 simulate``'s summary of Tarneeb matches."""
    v = lineup.variant
    out = [f"Tarneeb variant {v.label}: {v.auction} auction, target {v.target}, all pass: {v.all_pass}, "
           f"no-trump {'allowed' if v.no_trump else 'not allowed'}",
           f"Bots: bidders {'/'.join(lineup.bidders)}, play {'/'.join(lineup.policies)} (players 1-4); "
           f"{s['matches']:,} matches, seed {seed}, cap {lineup.cap} deals, {elapsed:.1f} s{compiled}"]  # fmt: skip
    h, m = s["hands_per_match"], s["metrics"]
    p = h["percentiles"]
    out.append(f"\nHands per match: mean {h['mean']:.2f} ± {h['se']:.2f}; 5/25/50/75/95%: "
               f"{p['p5']:g}/{p['p25']:g}/{p['p50']:g}/{p['p75']:g}/{p['p95']:g}; longest {h['max']}")  # fmt: skip
    w = s["first_team_win"]
    out.append(f"First-speaking team (players 1+3) wins: {pct(w['rate'])} "
               f"(95% CI {pct(w['ci95'][0])} - {pct(w['ci95'][1])}); draws {s['draws']:,}, "
               f"stopped at the cap {s['cap_hits']:,}")  # fmt: skip
    rows = [
        [name, fmt_value(x["value"], x["se"], x["kind"])]
        for name, x in m.items()
        if name != "hands per match"
    ]
    out.append(format_table(["", "value ± SE"], rows) + "\n")
    rows = []
    for k, share in s["contract_distribution"].items():
        c = s["make_rate_by_contract"].get(k)
        if c:
            rows.append(
                [k, f"{c['contracts']:,}", pct(share, digits=2), fmt_value(c["rate"], c["se"], "rate")]
            )
    out.append(format_table(["contract", "hands", "share", "made"], rows))
    return "\n".join(out)


def summary_table(summary: dict):
    """A tidy (section, key, value, se, low, high) table of a Tarneeb simulate summary."""
    import pandas as pd

    h = summary["hands_per_match"]
    rows = [("run", "matches", summary["matches"], None, None, None),
            ("hands_per_match", "mean", h["mean"], h["se"], None, None)]  # fmt: skip
    rows += [("hands_per_match", k, v, None, None, None) for k, v in h["percentiles"].items()]
    rows += [("metric", name, m["value"], m["se"], None, None) for name, m in summary["metrics"].items()]
    rows += [("contract_share", k, v, None, None, None) for k, v in summary["contract_distribution"].items()]
    rows += [("make_rate_by_contract", k, v["rate"], v["se"], None, None)
             for k, v in summary["make_rate_by_contract"].items()]  # fmt: skip
    w = summary["first_team_win"]
    rows.append(("first_team_win", "rate", w["rate"], None, *w["ci95"]))
    rows += [
        ("mean_final_score", k, v["mean"], v["se"], None, None)
        for k, v in summary["mean_final_scores"].items()
    ]
    return pd.DataFrame(rows, columns=["section", "key", "value", "se", "low", "high"])


def review_calls_text(rev: dict, loss) -> str:
    """The calls part of a Tarneeb review and its contract; ``loss(value, se, objective)`` words a loss."""
    out = ["\nCalls (each call against the analyzer's answer from that seat's hand and the calls before it):"]
    rows = [[c["call_number"], c["seat"], ",".join(c["calls_before"]) or "-", c["call"], c["recommended"],
             "" if c["verdict"] == "best" else loss(c["loss"], c["loss_se"], c["objective"]), c["verdict"]]
            for c in rev["calling"]]  # fmt: skip
    out.append(format_table(["call", "seat", "calls before", "called", "best", "loss", "verdict"], rows))
    contract = rev["contract"]
    if contract is None:
        out.append(
            "Everyone passed: the hand is dealt again." if rev["redeal"] else "The auction is not over."
        )
    else:
        doubled = ", doubled" if contract["doubled"] else ""
        out.append(
            f"Contract: seat {contract['declarer']} {contract['bid']} in {contract['trump'] or '?'}{doubled}"
        )
    return "\n".join(out)


def card_text(a) -> str:
    """``t400 card --game tarneeb``'s answer (a :class:`analyzer.games.tarneeb.pimc.CardAdvice`)."""
    c = a.contract
    doubled = ", doubled" if c["doubled"] else ""
    side = "declaring" if (a.seat - c["declarer"]) % 2 == 0 else "defending"
    out = [f"Seat {a.seat} ({side}), hand {a.hand}; {a.variant}; contract: seat {c['declarer']} {c['bid']} in "
           f"{c['trump']}{doubled} (calls {','.join(a.auction)})"]  # fmt: skip
    if not a.played:
        out.append("No card played yet.")
    else:
        done = len(a.played) - len(a.trick)
        out.append(f"Played: {done // 4} trick{'s' if done // 4 != 1 else ''}; tricks won by seat: "
                   f"{' '.join(f'{s + 1}:{t}' for s, t in enumerate(a.taken))}")  # fmt: skip
        if a.trick:
            out.append(f"This trick so far: {' '.join(a.trick)}")
    fit = f"{pct(a.fitted, digits=0)} of the decisions' layouts fit the auction" if a.fitted < 1 else "all fit the auction"
    out.append(f"pimc: {a.layouts} layouts of the hidden cards ({fit}; asked {a.layouts_asked}), seed {a.seed}; "
               f"{a.elapsed_s:.2f} s{compiled_note(a.compile_s)}\n")  # fmt: skip
    rows = [[("*" if r.card == a.recommended else " ") + r.card, " ".join(r.equal) or "-",
             f"{r.points:+.2f} ± {r.points_se:.2f}", pct(r.p_contract_made, digits=0), pct(r.p_best, digits=0)]
            for r in a.rows]  # fmt: skip
    out.append(format_table(["card", "equal cards", "your side's points", "contract made", "P(best)"], rows,
                            align="llrrr"))  # fmt: skip
    out.append(f"\nRecommended: {a.recommended}")
    out += reasons_text(a.reasons)
    return "\n".join(out)
