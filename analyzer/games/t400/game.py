"""400 as a :class:`~analyzer.games.interface.Game`: each player bids for their own tricks,
hearts are trump (``t400 ... --game 400``, the default game)."""

from __future__ import annotations

import math

from analyzer.core.errors import T400Error
from analyzer.core.numbers import parse_int_list
from analyzer.games.interface import BidQuestion, CardQuestion, Game, Plan, PlayQuestion, Switch
from analyzer.games.t400 import rules as rules_mod


def _steps(sep: str, last: str) -> str:
    """The scores at which the minimums rise (30, 40 and 50), as the rules define them."""
    steps = [str(s) for s in rules_mod.SCORE_STEPS]
    return sep.join(steps[:-1]) + last + steps[-1]


class FourHundred(Game):
    name = "400"
    title = "400"
    switch_owner = "400"
    default_preset = "dananeer"
    score_count = 4
    scores_words = "four scores, seat 1 first"
    review_unit = "points"
    review_value = "seats 1+3's points minus seats 2+4's"
    review_verdict_head = "bid"
    matches_module = "analyzer.games.t400.matches"
    text_module = "analyzer.games.t400.text"
    review_module = "analyzer.games.t400.review"
    pimc_module = "analyzer.games.t400.pimc"
    default_policy = "standard"
    bidder_module = "analyzer.games.t400.bidder"

    def presets(self) -> dict[str, str]:
        return {name: rules_mod.PRESET_DESCRIPTIONS.get(name, "") for name in rules_mod.PRESETS}

    def switches(self) -> tuple[Switch, ...]:
        return (
            Switch("table_min", "--table-min", "Table-minimum base: least total of the four bids (11, 12, 13)."),
            Switch("fixed_table_min", "--fixed-table-min/--rising-table-min",
                   f"Keep the table minimum at its base, or raise it by one at {_steps(', ', ' and ')}.", "pair"),
            Switch("fixed_min_bid", "--fixed-min-bid/--rising-min-bid",
                   f"Keep every player's minimum bid at {rules_mod.MIN_BID}, or raise it to "
                   f"{'/'.join(str(rules_mod.MIN_BID + k + 1) for k in range(len(rules_mod.SCORE_STEPS)))} "
                   f"at {_steps('/', '/')}.", "pair"),
            Switch("score_table", "--score-table", "Value table.", "choice", rules_mod.SCORE_TABLES),
            Switch("tie_break", "--tie-break", "When both partnerships qualify.", "choice", rules_mod.TIE_BREAKS),
            Switch("redeal", "--redeal", "Who re-deals a dead hand.", "choice", rules_mod.REDEALS),
        )  # fmt: skip

    def variant(self, name, target=None, table_min=None, fixed_table_min=None, fixed_min_bid=None,
                score_table=None, tie_break=None, redeal=None):  # fmt: skip
        return rules_mod.as_variant(
            name or self.default_preset,
            target=target,
            table_min=table_min,
            table_min_rises=None if fixed_table_min is None else not fixed_table_min,
            min_bid_rises=None if fixed_min_bid is None else not fixed_min_bid,
            score_table=score_table,
            tie_break=tie_break,
            redeal=redeal,
        )

    def parse_spec(self, text: str):
        return rules_mod.parse_variant_spec(text)

    # -- rules ----------------------------------------------------------------------------
    def describe(self, variant) -> dict:
        return rules_mod.describe(variant)

    def rules_text(self, variant) -> str:
        from analyzer.games.t400.text import rules_text

        return rules_text(variant, self.describe(variant))

    def settle(self, variant, scores, options: dict) -> tuple[dict, str]:
        from analyzer.games.t400.text import settle_text

        for option, key in (("--declarer", "declarer"), ("--bid", "contract"), ("--trump", "trump")):
            if options.get(key) is not None:
                raise T400Error(
                    f"{option} is for a Tarneeb hand (--game tarneeb); 400 takes --bids for all four"
                )
        if options.get("doubled"):
            raise T400Error("--doubled: there is no doubling in 400 (only Egyptian Tarneeb doubles)")
        if options.get("bids") is None:
            raise T400Error("--bids is required: the four bids, seat 1 first (e.g. --bids 3,4,3,2)")
        result = rules_mod.settle_round(
            variant,
            parse_int_list("0,0,0,0" if scores is None else scores, "--scores", 4),
            parse_int_list(options["bids"], "--bids", 4),
            parse_int_list(options.get("tricks"), "--tricks", 4),
        )
        data = result.to_dict()
        data["variant"] = variant.label
        return data, settle_text(variant, result)

    # -- questions ------------------------------------------------------------------------
    def bid_plan(self, q: BidQuestion) -> Plan:
        from analyzer.games.t400.advice import (
            check_bid_inputs,
            check_continuations,
            choose_objective,
            recommend_bid,
        )

        if q.auction is not None:
            raise T400Error("--auction is for a Tarneeb auction (--game tarneeb); 400 takes --bids")
        if q.policy == "team":
            raise T400Error(
                "--policy team plays Tarneeb's partnership contracts; 400's are standard, basic, greedy"
            )
        if q.model != "rollout" and q.policy is not None:
            raise T400Error(f"--policy plays the rollout's cards; --model {q.model} plays double dummy")
        policy = q.policy or "standard"
        if q.seat not in (1, 2, 3, 4):
            raise T400Error(f"--seat {q.seat}: expected 1..4 (1 bids first and leads, 4 deals)")
        if q.samples is not None and q.samples < 1:
            raise T400Error(f"--samples {q.samples}: expected at least 1")
        if q.threads is not None and q.threads < 1:
            raise T400Error(f"--threads {q.threads}: expected at least 1")
        scores = list(q.scores) if q.scores is not None else [0, 0, 0, 0]
        earlier = parse_int_list(q.bids, "--bids") or []
        *_, checked = check_bid_inputs(q.hand, q.seat, scores, earlier, q.variant, q.model, q.samples)
        choose_objective(
            q.objective, checked, scores, q.model, q.equity_table, check_continuations(q.continuations)
        )
        if q.bidder_model is not None:  # a bad file is bad input: said before anything compiles
            from analyzer.games.t400.bidder import load_model

            load_model(q.bidder_model)

        def run(progress):
            return recommend_bid(
                q.hand, seat=q.seat, scores=scores, bids=earlier, variant=q.variant, model=q.model, policy=policy,
                samples=q.samples, seed=q.seed, threads=q.threads, infer=q.infer, progress=progress,
                bidder_model=q.bidder_model, objective=q.objective, equity_table=q.equity_table,
                continuations=q.continuations,
            )  # fmt: skip

        def plot(result, path):
            from analyzer.core.figures import plot_bid

            plot_bid(result, path)

        from analyzer.games.t400.text import bid_text

        group = "bid-dd" if q.model != "rollout" else "bid-win" if q.objective == "win" else None
        notice = _dd_note(q.model, q.samples, q.threads) if q.model != "rollout" else None
        return Plan(run, bid_text, plot, group, notice)

    def card_plan(self, q: CardQuestion) -> Plan:
        from analyzer.games.t400.pimc import check_card_inputs, recommend_card
        from analyzer.games.t400.text import card_text

        if q.auction is not None or q.trump is not None:
            raise T400Error("--auction and --trump are Tarneeb's: 400 takes --bids")
        if q.bids is None:
            raise T400Error("--bids is needed: the four bids, seat 1 first")
        bids = parse_int_list(q.bids, "--bids", 4)
        scores = list(q.scores) if q.scores is not None else [0, 0, 0, 0]
        check_card_inputs(q.hand, q.seat, bids, q.play, q.variant, scores, q.layouts)

        def run(progress):
            return recommend_card(q.hand, q.seat, bids, q.play, q.variant, scores, q.layouts, q.seed, q.threads,
                                  read_bids=q.read_auction, stop_early=q.stop_early,
                                  progress=progress)  # fmt: skip

        return Plan(run, card_text, None, "card", None, "solving")

    def card_question(self, record, at: int, base: CardQuestion) -> CardQuestion:
        from dataclasses import replace

        from analyzer.core.records import play_tricks

        self.check_record(record)
        _check_at(record, at)
        tricks = play_tricks(record, rules_mod.TRUMP, rules_mod.FIRST_LEADER)
        seat = _seat_after(tricks, rules_mod.FIRST_LEADER, at)
        hand = record.deal.hands[seat - 1]
        return replace(base, hand=str(hand), seat=seat, play=[str(c) for c in record.cards[:at]],
                       variant=rules_mod.parse_variant_spec(record.variant), scores=list(record.scores),
                       bids=",".join(map(str, record.bids)))  # fmt: skip

    def play(self, deals: list, q: PlayQuestion) -> tuple[list, list]:
        from analyzer.core.records import HandRecord
        from analyzer.games.t400.simulate import play_hand

        if q.calls is not None or q.trump is not None:
            raise T400Error("--calls and --trump are Tarneeb's: add --game tarneeb (400 has --bids)")
        bids = parse_int_list(q.bids, "--bids", 4)
        scores = parse_int_list(q.scores or "0,0,0,0", "--scores", 4)
        policy = q.policy or "standard"
        policies = policy.split(",") if "," in policy else policy
        hands = [play_hand(d, bids, policies, q.variant, scores, q.bidder, q.bidder_model) for d in deals]
        records = [
            HandRecord(self.name, q.variant.spec, h.deal, tuple(scores), h.bids, cards=h.cards) for h in hands
        ]
        return hands, records

    def solve_with_bids(self, deal, bids, won, scores, variant, trump, leader):
        from analyzer.games.t400.bids_dd import solve_with_bids

        return solve_with_bids(deal, bids, won, scores, variant, trump=trump, leader=leader)

    # -- matches --------------------------------------------------------------------------
    def lineup(self, variant, bidder, policy, cap, bidder_model):
        from analyzer.games.t400 import matches

        return matches.Lineup.make(variant, bidder or "ev", policy or "standard", cap, bidder_model)

    def duel(
        self, a, b, matches, seed, variant, cap, threads, scheduler, progress, bidder_model=None
    ) -> dict:
        from analyzer.games.t400 import matches as m

        return m.duel(a or "ev/standard", b or "counting/standard", matches, seed, variant, cap, threads, scheduler,
                      progress, bidder_model)  # fmt: skip

    # -- records and review ---------------------------------------------------------------
    def record_fields(self, fields: dict, n: int, words, numbers) -> dict:
        if "calls" in fields or "trump" in fields:
            raise T400Error(f"line {n}: calls and trump are Tarneeb's; a 400 record has bids")
        if "bids" not in fields:
            raise T400Error(f"line {n}: the bids are missing (four, seat 1 first)")
        bids = numbers(fields["bids"], "bids", n, ())
        if len(bids) != 4:
            raise T400Error(f"line {n}: bids: expected four bids, seat 1 first, got {len(bids)}")
        return {"bids": bids}

    def review_auction_text(self, review: dict, loss) -> str:
        from analyzer.games.t400.text import review_bidding_text

        return review_bidding_text(review, loss)

    def review_verdict(self, player: dict) -> str:
        return player["bid_verdict"]

    # -- data made by commands ------------------------------------------------------------
    def fit_later_lead(self, deals, seed, progress, iterations=1):
        from analyzer.core.later_lead import weights_file, weights_source
        from analyzer.games.t400.later_lead import fit_model

        model = fit_model(deals, seed, progress=progress, iterations=iterations)
        return model, str(weights_file("later_lead_weights.py")), weights_source(model, "400")

    def fit_follow(self, deals, seed, progress, iterations=1):
        from analyzer.games.t400.follow import fit_model

        return fit_model(deals, seed, progress, iterations)

    def fit_opening_lead(self, deals, seed, progress):
        from analyzer.games.t400.lead import WEIGHTS_FILE, fit_lead_model, weights_source

        model = fit_lead_model(deals, seed, progress=progress)
        return model, str(WEIGHTS_FILE), weights_source(model)

    def equity_table_path(self, variant) -> str | None:
        from analyzer.games.t400 import equity

        return equity.shipped_path(variant)

    def equity(self, variant, scores, dealer, table, continuations, seed, threads) -> tuple[dict, str]:
        from analyzer.games.t400 import equity
        from analyzer.games.t400.equity_build import simulate_equity

        scores = list(rules_mod.check_scores(scores))
        chart = equity.table_for(variant, table)
        p = chart.equity(scores, dealer)
        out = {"scores": scores, "dealer": dealer, "variant": variant.label, "p_win_13": round(p, 6),
               "p_win_24": round(1 - p, 6), "table": chart.meta.get("command")}  # fmt: skip
        text = [f"Scores {'/'.join(map(str, scores))} (seat 1 first), seat {dealer} deals, variant {variant.label}",
                f"P(seats 1+3 win the match): {100 * p:.1f}%   (table; seats 2+4: {100 * (1 - p):.1f}%)"]  # fmt: skip
        if continuations:
            sim = simulate_equity(scores, dealer, variant, continuations, seed, threads)
            out["simulated"] = {**sim.to_dict(), "seed": seed}
            sim = out["simulated"]
            text.append(f"Simulated: {100 * sim['p_win']:.1f}% ± {100 * sim['p_win_se']:.1f}  "
                        f"({sim['matches']:,} rests of the match by ev/standard bots, seed {seed})")  # fmt: skip
        return out, "\n".join(text)

    def build_equity(self, variant, hands, seed, threads, path, progress) -> tuple[dict, str]:
        from analyzer.games.t400.equity_build import build_table

        table = build_table(variant, hands=hands, seed=seed, threads=threads,
                            progress=lambda _stage, done, total: progress(done, total))  # fmt: skip
        table.save(path)
        m = table.meta
        text = (f"wrote {path}: {len(m['grid'])}^4 states, {m['hands_per_regime']:,} hands x "
                f"{m['regime_combinations']} regime combinations, {m['sweeps']} sweeps, {m['seconds']:.0f} s")  # fmt: skip
        return {"path": path, **m}, text


def _check_at(record, at: int) -> None:
    if not 0 <= at <= min(len(record.cards), 51):
        raise T400Error(f"--at {at}: expected 0..{min(len(record.cards), 51)} (the cards of the record played before "
                        "the decision)")  # fmt: skip


def _seat_after(tricks, leader: int, at: int) -> int:
    """The seat (1..4) to play card ``at + 1`` of a hand whose tricks are ``tricks``."""
    if at % 4 == 0:
        k = at // 4
        return leader if k == 0 else tricks[k - 1].winner
    return tricks[at // 4].seat_of(at % 4)


def _dd_note(model: str, samples: int | None, threads: int | None) -> str | None:
    """What to say before a long double-dummy run: how long it takes and what its size buys."""
    from analyzer import config
    from analyzer.core.runtime import check_threads, dd_deals_per_second

    cfg = config.get()
    n = samples or (cfg.advice_dd_deals if model == "dd" else cfg.advice_solo_dd_deals)
    measured = dd_deals_per_second(model)
    if measured is None:
        return None
    seconds = n / (measured * check_threads(threads))
    if seconds <= 30:
        return None
    return (f"note: at {measured:.2g} deals a second a thread (measured by benchmarks/dd_rates.py), "
            f"--model {model} takes about {seconds / 60:.0f} minutes for {n:,} deals on "
            f"{check_threads(threads)} thread(s) and gives each P(make) to within about "
            f"±{50 / math.sqrt(n):.1f} percentage points (one SE)")  # fmt: skip


GAME = FourHundred()
