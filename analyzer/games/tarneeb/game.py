"""The Tarneeb family (classic, the Dananeer app's, Egyptian) as a
:class:`~analyzer.games.interface.Game`: partners bid together for a contract and its trump."""

from __future__ import annotations

from analyzer.core.errors import T400Error
from analyzer.core.numbers import parse_int_list
from analyzer.core.strains import Strain
from analyzer.games.interface import BidQuestion, CardQuestion, Game, Plan, PlayQuestion, Switch
from analyzer.games.tarneeb import rules as tarneeb_rules


class Tarneeb(Game):
    name = "tarneeb"
    title = "Tarneeb"
    switch_owner = "classic Tarneeb"
    default_preset = "tarneeb"
    score_count = 2
    scores_words = "two team scores, seats 1+3 first"
    has_draws = True
    compile_groups = {"bid": "bid-tarneeb", "simulate": "simulate-tarneeb", "card": "card-tarneeb"}
    review_unit = "tricks"
    review_value = "the declaring team's tricks"
    review_verdict_head = "calls"
    matches_module = "analyzer.games.tarneeb.matches"
    text_module = "analyzer.games.tarneeb.text"
    review_module = "analyzer.games.tarneeb.review"
    pimc_module = "analyzer.games.tarneeb.pimc"
    default_policy = "team"
    bidder_module = "analyzer.games.tarneeb.bidders"

    def presets(self) -> dict[str, str]:
        return {name: tarneeb_rules.PRESET_DESCRIPTIONS.get(name, "") for name in tarneeb_rules.PRESETS}

    def switches(self) -> tuple[Switch, ...]:
        return (
            Switch("one_bid_each", "--one-bid-each",
                   "Tarneeb: each player bids once; the dealer only needs to equal (Lebanon).", "flag"),
            Switch("forced_dealer_bid", "--forced-dealer-bid", "Tarneeb: if the first three pass, the dealer must bid 7.",
                   "flag"),
            Switch("trump_lead", "--trump-lead", "Tarneeb: the declarer must lead a trump to the first trick.", "flag"),
            Switch("worthless_redeal", "--worthless-redeal",
                   "Tarneeb: a player with a worthless hand may ask for a new deal.", "flag"),
            Switch("no_trump", "--no-trump/--no-no-trump", "Tarneeb: whether no-trump may be named.", "pair"),
        )  # fmt: skip

    def variant(self, name, target=None, forced_dealer_bid=None, **switches):
        return tarneeb_rules.as_tarneeb_variant(
            name or self.default_preset,
            target=target,
            all_pass="forced" if forced_dealer_bid else None,
            **switches,
        )

    def parse_spec(self, text: str):
        return tarneeb_rules.TarneebVariant.parse_spec(text)

    # -- rules ----------------------------------------------------------------------------
    def describe(self, variant) -> dict:
        return tarneeb_rules.describe(variant)

    def rules_text(self, variant) -> str:
        from analyzer.games.tarneeb.text import rules_text

        return rules_text(variant, self.describe(variant))

    def settle(self, variant, scores, options: dict) -> tuple[dict, str]:
        from analyzer.games.tarneeb.text import settle_text

        if options.get("bids") is not None:
            raise T400Error("--bids is for 400; a Tarneeb hand has one contract: --declarer SEAT --bid N")
        given = {
            "--declarer": options.get("declarer"),
            "--bid": options.get("contract"),
            "--tricks": options.get("tricks"),
        }
        missing = [o for o, v in given.items() if v is None]
        if missing:
            raise T400Error(
                f"{', '.join(missing)} required for a Tarneeb hand (e.g. --declarer 2 --bid 9 --tricks 10)"
            )
        team_scores = parse_int_list("0,0" if scores is None else scores, "--scores", 2)
        taken = parse_int_list(options["tricks"], "--tricks", 1)[0]
        result = tarneeb_rules.settle_hand(variant, team_scores, options["declarer"], options["contract"], taken,
                                           options.get("trump"), options.get("doubled", False))  # fmt: skip
        data = result.to_dict()
        data["variant"] = variant.label
        return data, settle_text(variant, result, data)

    # -- questions ------------------------------------------------------------------------
    def bid_plan(self, q: BidQuestion) -> Plan:
        from analyzer.games.tarneeb.advice import (
            DEFAULT_SAMPLES,
            MAX_SAMPLES,
            MODELS,
            check_call_inputs,
            recommend_call,
        )
        from analyzer.games.tarneeb.equity import check_scores

        given = [name for name, value in (("--bids", q.bids or None), ("--continuations", q.continuations or None),
                 ("--equity-table", q.equity_table), ("--bidder-model", q.bidder_model)) if value is not None]  # fmt: skip
        if given:
            raise T400Error(
                f"{given[0]} is an option of 400's bid; a Tarneeb auction is given with --auction"
            )
        if q.model == "dd" and q.policy is not None:
            raise T400Error("--policy plays the rollout's cards; --model dd plays double dummy")
        policy = q.policy or "team"
        scores = list(q.scores) if q.scores is not None else [0, 0]
        calls = [c.strip() for c in q.auction.split(",") if c.strip()] if q.auction else []
        if q.samples is not None and q.samples < 1:
            raise T400Error(f"--samples {q.samples}: expected at least 1")
        if q.threads is not None and q.threads < 1:
            raise T400Error(f"--threads {q.threads}: expected at least 1")
        if q.model not in MODELS:
            raise T400Error(f"--model {q.model}: Tarneeb's models are {', '.join(MODELS)}")
        _, checked, _ = check_call_inputs(q.hand, q.seat, calls, q.variant)
        check_scores(checked, tuple(scores))
        if q.samples is not None and q.samples > MAX_SAMPLES[q.model]:
            raise T400Error(f"--samples {q.samples}: at most {MAX_SAMPLES[q.model]:,} with --model {q.model}")
        notice = None
        if q.model == "dd":
            from analyzer.core.runtime import check_threads, dd_deals_per_second

            n = q.samples or DEFAULT_SAMPLES["dd"]
            rate = dd_deals_per_second("tarneeb-dd")
            seconds = n / (rate * check_threads(q.threads)) if rate else 0.0
            if seconds > 60:
                notice = (f"note: at {rate:.2g} deals a second a thread (five or more full-deal solves each; "
                          f"measured by benchmarks/dd_rates.py), --model dd takes about {seconds / 60:.0f} minutes "
                          f"for {n:,} deals on {check_threads(q.threads)} thread(s)")  # fmt: skip

        def run(progress):
            return recommend_call(q.hand, seat=q.seat, auction=calls, variant=q.variant, samples=q.samples, seed=q.seed,
                                  threads=q.threads, infer=q.infer, policy=policy, model=q.model, scores=scores,
                                  objective=q.objective, progress=progress)  # fmt: skip

        def text(result):
            from analyzer.games.tarneeb.text import call_text

            return call_text(result, policy)

        def plot(result, path):
            from analyzer.core.figures import plot_call

            plot_call(result, path)

        label = "solving" if q.model == "dd" else "sampling"
        return Plan(run, text, plot, self.compile_groups["bid"], notice, label)

    def card_plan(self, q: CardQuestion) -> Plan:
        from analyzer.games.tarneeb.pimc import check_card_inputs, recommend_card
        from analyzer.games.tarneeb.text import card_text

        if q.bids is not None:
            raise T400Error("--bids is 400's: a Tarneeb hand has --auction (and --trump)")
        if q.scores is not None:
            raise T400Error("--scores: the Tarneeb card advice weighs the points of this hand, not the match")
        calls = [c.strip() for c in (q.auction or "").split(",") if c.strip()]
        check_card_inputs(q.hand, q.seat, calls, q.trump, q.play, q.variant, q.layouts)

        def run(progress):
            return recommend_card(q.hand, q.seat, calls, q.trump, q.play, q.variant, q.layouts, q.seed, q.threads,
                                  read_auction=q.read_auction, stop_early=q.stop_early,
                                  progress=progress)  # fmt: skip

        return Plan(run, card_text, None, self.compile_groups["card"], None, "solving")

    def card_question(self, record, at: int, base: CardQuestion) -> CardQuestion:
        from dataclasses import replace

        from analyzer.core.records import play_tricks
        from analyzer.games.tarneeb import review

        variant, auction, strain = review.check_record(record)
        if auction.contract is None:
            raise record.error("the auction is not over (or everyone passed): no card is played")
        if not 0 <= at <= min(len(record.cards), 51):
            raise T400Error(f"--at {at}: expected 0..{min(len(record.cards), 51)} (the cards of the record played "
                            "before the decision)")  # fmt: skip
        leader = auction.contract.declarer
        tricks = play_tricks(record, strain.suit, leader, variant.trump_lead)
        if at % 4 == 0:
            seat = leader if at == 0 else tricks[at // 4 - 1].winner
        else:
            seat = tricks[at // 4].seat_of(at % 4)
        return replace(base, hand=str(record.deal.hands[seat - 1]), seat=seat,
                       play=[str(c) for c in record.cards[:at]], variant=variant, scores=None,
                       auction=",".join(record.calls), trump=strain.letter)  # fmt: skip

    def play(self, deals: list, q: PlayQuestion) -> tuple[list, list]:
        from analyzer.games.tarneeb.play import play_tarneeb_hand

        if q.bids is not None:
            raise T400Error("--bids is 400's: a Tarneeb hand has --calls (and --trump)")
        if q.bidder_model is not None:
            raise T400Error("--bidder-model is the 400 bidder's; the Tarneeb bots use the shipped model")
        if q.bidder not in ("ev", "counting"):
            raise T400Error(f"--bidder {q.bidder}: Tarneeb's bots are ev and counting")
        scores = parse_int_list(q.scores or "0,0", "--scores", 2)
        calls = None if q.calls is None else [c.strip() for c in q.calls.split(",") if c.strip()]
        hands = [
            play_tarneeb_hand(d, calls, q.trump, q.variant, scores, q.policy or "team", q.bidder)
            for d in deals
        ]
        return hands, [h.record() for h in hands]

    # -- matches --------------------------------------------------------------------------
    def lineup(self, variant, bidder, policy, cap, bidder_model):
        from analyzer.games.tarneeb import matches

        if bidder_model:
            raise T400Error("--bidder-model is the model of 400's EV bidder; Tarneeb's bots do not use it")
        return matches.TarneebLineup.make(
            variant, bidder or matches.DEFAULT_BIDDER, policy or matches.DEFAULT_POLICY, cap
        )

    def duel(
        self, a, b, matches, seed, variant, cap, threads, scheduler, progress, bidder_model=None
    ) -> dict:
        from analyzer.games.tarneeb import matches as m

        if bidder_model:
            raise T400Error("--bidder-model is the model of 400's EV bidder; Tarneeb's bots do not use it")
        return m.duel(a or m.DUEL_A, b or m.DUEL_B, matches, seed, variant, cap, threads, scheduler,
                      progress)  # fmt: skip

    # -- records and review ---------------------------------------------------------------
    def record_fields(self, fields: dict, n: int, words, numbers) -> dict:
        if "bids" in fields:
            raise T400Error(f"line {n}: bids are 400's; a Tarneeb record has calls (and the trump)")
        calls = tuple(words(fields.get("calls"), "calls", n))
        trump = None
        if fields.get("trump") not in (None, ""):
            trump = str(fields["trump"]).strip()
            try:
                trump = Strain.parse(trump).letter
            except T400Error:
                raise T400Error(f"line {n}: trump {trump!r}: expected S, H, D, C or NT") from None
        return {"calls": calls, "trump": trump}

    def review_auction_text(self, review: dict, loss) -> str:
        from analyzer.games.tarneeb.text import review_calls_text

        return review_calls_text(review, loss)

    def review_verdict(self, player: dict) -> str:
        return f"{player['costly_calls']} costly of {player['calls']}"

    # -- data made by commands ------------------------------------------------------------
    def fit_later_lead(self, deals, seed, progress, iterations=1):
        from analyzer.core.later_lead import weights_file, weights_source
        from analyzer.games.tarneeb.later_lead import fit_model

        model = fit_model(deals, seed, progress=progress, iterations=iterations)
        return (
            model,
            str(weights_file("team_lead_weights.py")),
            weights_source(model, "Tarneeb team contracts"),
        )

    def fit_follow(self, deals, seed, progress, iterations=1):
        from analyzer.games.tarneeb.follow import fit_model

        return fit_model(deals, seed, progress, iterations)


GAME = Tarneeb()
