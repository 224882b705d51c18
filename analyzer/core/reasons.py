"""The reason for a recommendation, in words made from the numbers the analysis already has:
the words for a choice that every game's advice shares (400's bids, Tarneeb's calls, the card
to play of :mod:`analyzer.core.pimc`).

The *bid point* of two neighbouring bids ``a < b``: the probability of making ``b`` at which
``b``'s expected points equal ``a``'s. A bid that is played scores ``+v`` when made and ``-v``
when not (``v`` its value at the bidder's score) and nothing when the hand is thrown in, so with
``P(dead)`` the chance of a thrown-in hand after bidding ``b``:
``EV(b) = (1 - P(dead)) * v * (2 * P(make) - 1)``, which equals ``EV(a)`` at
``P(make) = (EV(a) / ((1 - P(dead)) * v) + 1) / 2``. As backgammon's take points, it says how
sure a player must be of ``b`` for it to pay. Each reason is data (a message key, its
parameters, and the English text of ``analyzer/data/messages.json``), so that the page can say
it in Arabic too.
"""

from __future__ import annotations

from analyzer.core.messages import text
from analyzer.core.strains import Strain


def reason(key: str, **params) -> dict:
    """A reason as data: its key, parameters and English text."""
    return {"key": key, "params": params, "text": text(key, **params)}


def _pct(p: float) -> str:
    return f"{100 * p:.0f}%"


def break_even(ev_lower: float, value: int, p_dead: float) -> float | None:
    """The P(make) of the higher bid at which its expected points equal ``ev_lower`` (``None``
    when the higher bid always kills the hand), clipped to 0..1."""
    if p_dead >= 1.0 - 1e-12:
        return None
    p = (ev_lower / ((1.0 - p_dead) * value) + 1.0) / 2.0
    return min(max(p, 0.0), 1.0)


def bid_points(analysis) -> list[dict]:
    """For each pair of neighbouring legal bids (``lower``, ``higher``): the higher bid's P(make)
    and its bid point against the lower one."""
    rows = analysis.rows
    out = []
    for a, b in zip(rows, rows[1:]):
        p = break_even(a.ev, b.value, b.p_dead)
        out.append({"lower": a.bid, "higher": b.bid, "p_make": b.p_make,
                    "break_even": None if p is None else round(p, 6)})  # fmt: skip
    return out


def bid_reasons(analysis) -> list[dict]:
    """Why the recommended bid: against its neighbours by the bid points, the dealer's
    keep-or-kill, and with the match at stake, against the bid best in points."""
    r = analysis.row(analysis.recommended)
    points = {(p["lower"], p["higher"]): p for p in bid_points(analysis)}
    bids = [row.bid for row in analysis.rows]
    i = bids.index(r.bid)
    out = []
    killers = analysis.killing_bids
    if analysis.objective == "win":
        best_points = max(analysis.rows, key=lambda row: row.ev)
        if best_points.bid != r.bid:
            out.append(reason("reason.win_not_points", bid=r.bid, points_bid=best_points.bid,
                              points_ev=f"{best_points.ev:+.2f}", ev=f"{r.ev:+.2f}",
                              p_win_loss=f"{100 * (r.p_win - best_points.p_win):.1f} percentage points"))  # fmt: skip
        else:
            out.append(reason("reason.win_and_points", bid=r.bid, p_win=f"{100 * r.p_win:.1f}%"))
    if r.bid in killers:
        playing = [row for row in analysis.rows if row.bid not in killers]
        if playing:
            out.append(reason("reason.kill", bid=r.bid, least=playing[0].bid, ev=f"{playing[0].ev:+.2f}"))
        return out
    if killers:
        span = str(killers[0]) if len(killers) == 1 else f"{killers[0]}-{killers[-1]}"
        out.append(reason("reason.keep_alive", killers=span, bid=r.bid))
    if analysis.objective != "win":
        if i > 0 and bids[i - 1] not in killers:
            p = points[(bids[i - 1], r.bid)]
            if p["break_even"] is not None and r.p_make is not None:
                out.append(reason("reason.bid_over_lower", bid=r.bid, lower=bids[i - 1], p_make=_pct(r.p_make),
                                  break_even=_pct(p["break_even"])))  # fmt: skip
        if i + 1 < len(bids):
            p = points[(r.bid, bids[i + 1])]
            higher = analysis.row(bids[i + 1])
            if p["break_even"] is not None and higher.p_make is not None:
                out.append(reason("reason.bid_over_higher", bid=r.bid, higher=higher.bid, p_make=_pct(higher.p_make),
                                  break_even=_pct(p["break_even"])))  # fmt: skip
    return out


def call_reasons(analysis) -> list[dict]:
    """Why the recommended Tarneeb call: for a pass, what the lowest bid would make; for a bid,
    how often the team makes it in the strain it would name; for a double, what it is worth
    against passing."""
    rows = analysis.rows
    best = next(c for c in rows if c.call == analysis.recommended)
    known = [c for c in rows if c.trump is not None and c.p_make == c.p_make]  # made when it is the contract
    if best.call == "double":  # Egyptian: the opponents' standing bid, doubled
        standing = next((c for c in reversed(analysis.auction) if c not in ("pass", "double")), None)
        passing = next((c for c in rows if c.call == "pass"), None)
        if standing is None or passing is None:
            return []
        return [reason("reason.call_double", contract=standing, ev=f"{best.ev:+.2f}", pass_ev=f"{passing.ev:+.2f}",
                       p_declare=_pct(best.p_declare))]  # fmt: skip
    if best.trump is None:
        if not known or best.call != "pass":
            return []
        low = known[0]
        return [reason("reason.call_pass", level=low.call, strain=Strain.parse(low.trump).word,
                       p_make=_pct(low.p_make), ev=f"{best.ev:+.2f}", level_ev=f"{low.ev:+.2f}")]  # fmt: skip
    if best not in known:
        return []
    return [reason("reason.call_bid", call=best.call, strain=Strain.parse(best.trump).word, p_make=_pct(best.p_make),
                   ev=f"{best.ev:+.2f}")]  # fmt: skip
