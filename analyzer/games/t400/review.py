"""Review a played 400 hand: was each bid right, and which card cost the side points?

The bidding: each player in turn, from their own hand and the bids before theirs, gets the
analyzer's answer (:func:`analyzer.games.t400.advice.recommend_bid`, the numbers ``t400 bid``
gives for that question and seed); the bid made is compared with the recommended one by the
objective ``t400 bid`` chooses (expected points, or P(win the match) with the match at stake),
with the standard error of the paired difference.

The play: the 400 double dummy with the bids (:func:`analyzer.core.solve.targets_score_at`:
both partnerships see all cards and play for their points) values the position before each card
and after it. The position before is worth what the best card gives, so the card cost its side
the difference. Double dummy knows all the cards: a card can be right at the table (on what a
player can know) and still cost double dummy.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from analyzer.core.errors import T400Error
from analyzer.core.messages import text
from analyzer.core.records import HandRecord, play_tricks
from analyzer.core.review import card_costs, play_summary, team_summary, verdict
from analyzer.core.runtime import compile_aside
from analyzer.core.solve import targets_score_at
from analyzer.games.t400.advice import recommend_bid
from analyzer.games.t400.rules import (
    FIRST_LEADER,
    TRUMP,
    check_bids,
    check_scores,
    match_winner,
    parse_variant_spec,
)
from analyzer.games.t400.rules import settle_round as settle

#: A bid's verdict: the recommended one; behind it by less than this many standard errors of
#: the paired difference (within the sampling noise); or costly.
NOISE_SE = 2.0


def check_record(record: HandRecord):
    """The record's variant, after checking its scores, bids and cards by the rules of 400."""
    try:
        variant = parse_variant_spec(record.variant)
    except T400Error as exc:
        raise record.error(f"variant: {exc}") from None
    try:
        scores = check_scores(record.scores)
    except T400Error as exc:
        raise record.error(str(exc)) from None
    done, _ = match_winner(variant, scores)
    if done is not None:
        raise record.error(f"scores {list(scores)}: seats {done[0]}+{done[1]} have already won the match; "
                           "no hand follows")  # fmt: skip
    try:
        check_bids(variant, scores, record.bids)
    except T400Error as exc:
        raise record.error(f"bids: {exc}") from None
    if variant.is_dead(record.bids, scores) and record.cards:
        raise record.error(f"bids {list(record.bids)} total {sum(record.bids)}, short of the table minimum "
                           f"{variant.table_minimum(scores)}: the hand is thrown in and no card is played")  # fmt: skip
    play_tricks(record, TRUMP, FIRST_LEADER)
    return variant


#: pimc's layouts for each card's decision cost in a review.
DECISION_LAYOUTS = 16


def review_hand(record: HandRecord, samples: int | None = None, seed: int = 0, threads: int | None = None,
                progress: Callable[[str], None] | None = None, layouts: int = DECISION_LAYOUTS) -> dict:  # fmt: skip
    """The review of a 400 hand (see the module text) as a JSON-ready dict; ``layouts``: pimc's
    layouts for each card's decision cost (0: none)."""
    start = time.perf_counter()
    variant = check_record(record)
    helper = None
    if not variant.is_dead(record.bids, record.scores):
        from kernels.core import bids_dd
        from kernels.core import pimc as kpimc

        # the bid analysis compiles the rollout here; the other core compiles pimc's values (the
        # decision costs, asked last), or with none the cards' double dummy
        if layouts:
            helper = compile_aside(kpimc.values_with_bids, "analyzer.core.pimc:warm_review")
            if helper is not None:
                from analyzer.core.pimc import warm_review_own_parts

                warm_review_own_parts()  # one part of the helper's longer tree, before the bid analysis
        else:
            helper = compile_aside(bids_dd.solve_bids_at, "analyzer.core.solve:warm_bids_at")
    scores = tuple(record.scores)
    bids = tuple(record.bids)
    say = progress or (lambda step: None)
    bidding = _bidding(record, variant, scores, bids, samples, seed, threads, say)
    dead = variant.is_dead(bids, scores)
    if helper is not None:
        helper.wait()  # its search is on disk: loaded, not compiled a second time here
    # with layouts the cards' double dummy is pimc's kernel too (one search compiled, not two)
    cards = [] if dead else _play(record, variant, say, by_pimc=bool(layouts))
    if cards and layouts:
        _decisions(record, variant, cards, layouts, seed, threads, say)
    complete = dead or len(record.cards) == 52
    tricks = _tricks_taken(record) if not dead else None
    result = settle(variant, scores, bids, tricks if complete and not dead else None) if complete else None
    return {
        "game": "400",
        "record": record.to_dict(),
        "variant": variant.label,
        "seed": seed,
        "dead": dead,
        "bidding": bidding,
        "cards": cards,
        "summary": _summary(bidding, cards),
        "result": None if result is None else result.to_dict(),
        "tricks": tricks,
        "note": text("note.review_dd"),
        **({"decision_note": text("note.review_decision")} if cards and layouts else {}),
        "said": {"note": {"key": "note.review_dd", "params": {}},
                 **({"decision_note": {"key": "note.review_decision", "params": {}}} if cards and layouts else {})},
        "elapsed_s": time.perf_counter() - start,
    }


def _bidding(record: HandRecord, variant, scores, bids, samples, seed, threads, say) -> list[dict]:
    """Each seat's bid against the bid analysis of its hand (the bids before it known)."""
    bidding = []
    for seat in range(1, 5):
        say(f"bid of seat {seat}")
        hand = record.deal.hands[seat - 1]
        a = recommend_bid(hand, seat=seat, scores=scores, bids=bids[: seat - 1], variant=variant,
                          samples=samples, seed=seed, threads=threads)  # fmt: skip
        made = bids[seat - 1]
        loss, se = (0.0, 0.0) if made == a.recommended else a.difference(a.recommended, made)
        bidding.append({
            "seat": seat, "hand": str(hand), "bids_before": list(bids[: seat - 1]), "bid": made,
            "recommended": a.recommended, "objective": a.objective, "loss": loss, "loss_se": se,
            "verdict": verdict(loss, se, made == a.recommended or made in a.tied, NOISE_SE), "p_best_of_bid": a.row(made).p_best, "analysis": a.to_dict(),
        })  # fmt: skip
    return bidding


def _tricks_taken(record: HandRecord) -> list[int]:
    won = [0, 0, 0, 0]
    for t in play_tricks(record, TRUMP, FIRST_LEADER):
        if t.winner is not None:
            won[t.winner - 1] += 1
    return won


def _play(record: HandRecord, variant, say, by_pimc: bool = False) -> list[dict]:
    """Each card's double-dummy cost: the position's value (seats 1+3's points minus seats 2+4's
    under best play) before and after it; ``by_pimc``: by pimc's kernel (the same values), which
    the decision costs compile anyway."""
    from analyzer.core.pimc import score_at

    targets = list(record.bids)
    values = [variant.bid_value(b, s) for b, s in zip(record.bids, record.scores)]

    def value_at(hands, trick, leader, winners):
        won = [winners.count(s) for s in range(1, 5)]
        if not by_pimc:
            return targets_score_at(hands, trick, leader, targets, values, won, trump=int(TRUMP))
        # one table for the hand's positions (the same bids and values, so the same scores),
        # started at the first, where no card is played
        keep = bool(trick or winners)
        return score_at(hands, trick, leader, targets, values, won, trump=int(TRUMP), keep=keep)

    tricks = play_tricks(record, TRUMP, FIRST_LEADER)
    return card_costs(record, tricks, TRUMP, value_at, lambda seat: seat % 2 == 1, say)


def _decisions(record: HandRecord, variant, cards: list[dict], layouts: int, seed: int, threads, say) -> None:
    """Each card's decision cost in points: pimc from the player's seat on layouts that fit the
    bids (:mod:`analyzer.games.t400.pimc`)."""
    from analyzer.core.review import add_decision_costs
    from analyzer.games.t400.bidder import bot_array
    from analyzer.games.t400.pimc import BidReader, solver

    values = [variant.bid_value(b, s) for b, s in zip(record.bids, record.scores)]
    reader = BidReader(variant, bot_array(variant), record.scores)
    add_decision_costs(cards, record, FIRST_LEADER, int(TRUMP), list(record.bids), layouts, seed, reader.layouts,
                       solver(values, threads), say)  # fmt: skip


def _summary(bidding: list[dict], cards: list[dict]) -> dict:
    """Per player and per partnership: what the bidding lost (in its objective's units) and the
    points the costly cards lost, with each player's first costly card."""
    players = [{"seat": b["seat"], "bid_verdict": b["verdict"], "costly_bids": int(b["verdict"] == "costly"),
                "bid_loss": b["loss"], "bid_loss_se": b["loss_se"], "objective": b["objective"],
                **play_summary(cards, b["seat"])} for b in bidding]  # fmt: skip
    return {"players": players, "teams": team_summary(players, "costly_bids")}


