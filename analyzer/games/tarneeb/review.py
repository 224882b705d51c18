"""Review a played Tarneeb hand: was each call right, and which card cost the team a trick?

The auction: each call in turn, from the caller's hand and the calls before it, gets the call
analyzer's answer (:func:`analyzer.games.tarneeb.advice.recommend_call`, the numbers ``t400 bid
--game tarneeb`` gives for that question and seed); the call made is compared with the
recommended one by the objective the analyzer chooses, with the standard error of the paired
difference.

The play: the team double dummy (:func:`analyzer.core.solve.team_tricks_at`) counts the tricks
the declaring team takes under best play from the position before each card and after it; the
card cost its team the difference. Double dummy knows all the cards: a card can be right at the
table and still cost double dummy.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from analyzer.core.errors import T400Error
from analyzer.core.messages import text
from analyzer.core.records import HandRecord, play_tricks
from analyzer.core.review import card_costs, play_summary, team_summary, verdict
from analyzer.core.solve import team_tricks_at
from analyzer.core.strains import Strain
from analyzer.games.tarneeb.advice import recommend_call
from analyzer.games.tarneeb.auction import Auction, Call
from analyzer.games.tarneeb.equity import check_scores
from analyzer.games.tarneeb.rules import TarneebVariant, settle_hand

#: A call's verdict: behind the recommended one by less than this many standard errors of the
#: paired difference is within the sampling noise.
NOISE_SE = 2.0


def check_record(record: HandRecord):
    """(variant, auction, trump strain or None) after checking the record by Tarneeb's rules."""
    try:
        variant = TarneebVariant.parse_spec(record.variant)
    except T400Error as exc:
        raise record.error(f"variant: {exc}") from None
    try:
        check_scores(variant, record.scores)
    except T400Error as exc:
        raise record.error(str(exc).replace("--scores", "scores")) from None
    auction = Auction(variant)
    for n, call in enumerate(record.calls, start=1):
        seat = auction.seat
        if auction.over:
            raise record.error(f"call {n} ({call}): the auction was already over")
        try:
            auction.call(call)
        except T400Error as exc:
            raise record.error(f"call {n} ({call}) by seat {seat}: {exc}") from None
    contract = auction.contract if auction.over else None
    strain = None
    if contract is not None:
        strain = contract.strain
        if record.trump is not None:
            named = Strain.parse(record.trump)
            if strain is not None and named != strain:
                raise record.error(f"trump {named.letter}: the contract's strain is {strain.letter}")
            if named not in variant.strains():
                raise record.error(f"trump {named.letter}: no-trump is not played in {variant.label}")
            strain = named
    if record.cards:
        if contract is None:
            raise record.error(
                "cards are given but the auction is not over (or everyone passed): no hand is played"
            )
        if strain is None:
            raise record.error("trump: the declarer's trump is missing (S, H, D, C or NT)")
        play_tricks(record, strain.suit, contract.declarer, variant.trump_lead)
    elif record.trump is not None and contract is None:
        raise record.error("trump is given but the auction is not over")
    return variant, auction, strain


#: pimc's layouts for each card's decision cost in a review.
DECISION_LAYOUTS = 16


def review_hand(record: HandRecord, samples: int | None = None, seed: int = 0, threads: int | None = None,
                progress: Callable[[str], None] | None = None, layouts: int = DECISION_LAYOUTS) -> dict:  # fmt: skip
    """The review of a Tarneeb hand (see the module text) as a JSON-ready dict; ``layouts``:
    pimc's layouts for each card's decision cost (0: none)."""
    start = time.perf_counter()
    variant, auction, strain = check_record(record)
    say = progress or (lambda step: None)
    calling = []
    replay = Auction(variant)
    for n, made in enumerate(record.calls, start=1):
        seat = replay.seat
        say(f"call {n} (seat {seat})")
        before = [str(c) for c in replay.calls]
        a = recommend_call(record.deal.hands[seat - 1], seat=seat, auction=before, variant=variant,
                           scores=record.scores, samples=samples, seed=seed, threads=threads)  # fmt: skip
        call = str(Call.parse(made))
        loss, se = (0.0, 0.0) if call == a.recommended else a.difference(a.recommended, call)
        calling.append({
            "call_number": n, "seat": seat, "hand": str(record.deal.hands[seat - 1]), "calls_before": before,
            "call": call, "recommended": a.recommended, "objective": a.objective, "loss": loss,
            "loss_se": se, "verdict": verdict(loss, se, call == a.recommended or loss == 0.0, NOISE_SE), "analysis": a.to_dict(),
        })  # fmt: skip
        replay.call(made)
    contract = auction.contract if auction.over else None
    cards = _play(record, contract.declarer, strain, variant, say) if record.cards else []
    if cards and layouts:
        _decisions(record, auction, contract.declarer, strain, cards, layouts, seed, threads, say)
    result = None
    declarer_tricks = None
    if contract is not None and len(record.cards) == 52:
        tricks = play_tricks(record, strain.suit, contract.declarer, variant.trump_lead)
        declarer_tricks = sum(1 for t in tricks if t.winner % 2 == contract.declarer % 2)
        result = settle_hand(variant, record.scores, contract.declarer, contract.bid, declarer_tricks,
                             strain, contract.doubled).to_dict()  # fmt: skip
    return {
        "game": "tarneeb",
        "record": record.to_dict(),
        "variant": variant.label,
        "seed": seed,
        "contract": None
        if contract is None
        else {**contract.to_dict(), "trump": None if strain is None else strain.letter},  # fmt: skip
        "redeal": auction.redeal,
        "calling": calling,
        "cards": cards,
        "summary": _summary(calling, cards),
        "declarer_tricks": declarer_tricks,
        "result": result,
        "note": text("note.review_dd"),
        **({"decision_note": text("note.review_decision")} if cards and layouts else {}),
        "said": {"note": {"key": "note.review_dd", "params": {}},
                 **({"decision_note": {"key": "note.review_decision", "params": {}}} if cards and layouts else {})},
        "elapsed_s": time.perf_counter() - start,
    }


def _play(record: HandRecord, declarer: int, strain: Strain, variant, say) -> list[dict]:
    """Each card's double-dummy cost in tricks: the declaring team's tricks (taken so far plus
    best play from the position) before and after it."""
    ours = declarer % 2

    def value_at(hands, trick, leader, winners):
        taken = sum(w % 2 == ours for w in winners)
        return taken + team_tricks_at(hands, trick, leader, declarer, trump=int(strain))

    tricks = play_tricks(record, strain.suit, declarer, variant.trump_lead)
    return card_costs(record, tricks, strain.suit, value_at, lambda seat: seat % 2 == ours, say)


def _decisions(record: HandRecord, auction, declarer: int, strain: Strain, cards: list[dict], layouts: int, seed: int,
               threads, say) -> None:  # fmt: skip
    """Each card's decision cost in tricks of the player's side: pimc from the player's seat on
    layouts that fit the auction (:mod:`analyzer.games.tarneeb.pimc`)."""
    from analyzer.core.pimc import team_tricks
    from analyzer.core.review import add_decision_costs
    from analyzer.games.tarneeb.bidders import load_model
    from analyzer.games.tarneeb.pimc import AuctionReader

    v = TarneebVariant.parse_spec(record.variant)
    reader = AuctionReader(v.kernel_rules(), load_model().array).read([c.code for c in auction.calls], declarer - 1,
                                                                      int(strain))  # fmt: skip

    def solve(pos, dealt, legal):
        return team_tricks(pos, dealt, legal, threads=threads), None

    add_decision_costs(cards, record, declarer, int(strain), [0, 0, 0, 0], layouts, seed, reader.layouts, solve, say,
                       v.trump_lead)  # fmt: skip


def _summary(calling: list[dict], cards: list[dict]) -> dict:
    players = []
    for seat in range(1, 5):
        calls = [c for c in calling if c["seat"] == seat]
        players.append({"seat": seat, "calls": len(calls), "costly_calls": sum(c["verdict"] == "costly" for c in calls),
                        "call_loss": sum(c["loss"] for c in calls), **play_summary(cards, seat)})  # fmt: skip
    return {"players": players, "teams": team_summary(players, "costly_calls")}
