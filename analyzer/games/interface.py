"""The interface every game implements, so that the commands and the page use a game they know
only by its name (:mod:`analyzer.games.registry` finds it).

A game is one object: its variants and their switches, its rules and scoring, the question of
``t400 bid``, the play of a deal, whole matches and duels, its hand records and their review.
A method a game does not implement answers with one ``Error`` line saying so, so a new game
can start small (docs/development.md, "Adding a game") and grow one command at a time.
Questions arrive as the plain values a player typed (:class:`BidQuestion`, :class:`PlayQuestion`);
each game checks its own options and says which of them it does not take.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from analyzer.core.errors import T400Error


@dataclass(frozen=True)
class Switch:
    """One rule switch of a game's variants, as the commands offer it.

    ``key`` is the keyword of the game's ``variant(...)``; ``flag`` the option (``--table-min``,
    or ``--fixed-table-min/--rising-table-min`` for a pair); ``kind`` is ``int``, ``choice``
    (one of ``choices``), ``flag`` (on when given) or ``pair`` (on, off or not given)."""

    key: str
    flag: str
    help: str
    kind: str = "int"
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class BidQuestion:
    """``t400 bid``'s question as typed: the hand and seat, the scores (parsed, as many as the
    game keeps, or ``None``), what was said before (``bids`` for a game of individual bids,
    ``auction`` for a game of calls) and the options of the analysis."""

    hand: str
    seat: int
    scores: list[int] | None
    variant: object
    bids: str = ""
    auction: str | None = None
    model: str = "rollout"
    policy: str | None = None
    samples: int | None = None
    seed: int = 0
    threads: int | None = None
    infer: bool = True
    objective: str | None = None
    continuations: int = 0
    equity_table: str | None = None
    bidder_model: str | None = None


@dataclass(frozen=True)
class PlayQuestion:
    """``t400 play``'s options as typed (the deals come apart)."""

    variant: object
    bids: str | None = None
    calls: str | None = None
    trump: str | None = None
    bidder: str = "ev"
    policy: str | None = None
    scores: str | None = None
    bidder_model: str | None = None


@dataclass(frozen=True)
class CardQuestion:
    """``t400 card``'s question as typed: the mover's hand as dealt and seat, the cards played so
    far (in order), what the table said (``bids`` for a game of individual bids; ``auction`` and
    ``trump`` for a game of calls), the scores, and the size of the answer."""

    hand: str
    seat: int
    play: list[str]
    variant: object
    scores: list[int] | None = None
    bids: str | None = None
    auction: str | None = None
    trump: str | None = None
    layouts: int = 32
    seed: int = 0
    threads: int | None = None
    read_auction: bool = True
    stop_early: bool = True


@dataclass
class Plan:
    """A question checked and ready to run: the compile group it announces (see
    :mod:`analyzer.core.compiles`), a notice to print before a long run, the progress bar's
    label, then ``run(progress)`` for the answer, ``text(answer)`` for its printed form and
    ``plot(answer, path)`` for its figure."""

    run: Callable[[Callable], object]
    text: Callable[[object], str]
    plot: Callable[[object, str], None] | None = None
    compile_group: str | None = None
    notice: str | None = None
    progress_label: str = "sampling"


class Game:
    """The base of every game: names, presets and switches as attributes; every method a
    command calls, answering "not in this game" until the game implements it."""

    #: The name ``--game`` takes and the records carry (``400``, ``tarneeb``).
    name: str = ""
    #: The game's name in a sentence (``400``, ``Tarneeb``).
    title: str = ""
    #: Whose switches these are, in a message (``400``, ``classic Tarneeb``).
    switch_owner: str = ""
    #: The preset a question without ``--variant`` plays.
    default_preset: str = ""
    #: How many scores a hand starts from (400: each player's; Tarneeb: each team's), and in words.
    score_count: int = 4
    scores_words: str = "four scores, seat 1 first"
    #: Whether a match can end drawn.
    has_draws: bool = False
    #: The compile group (:mod:`analyzer.core.compiles`) of a command whose kernels differ in
    #: this game, by command name; a command not listed uses its own name.
    compile_groups: dict = {}
    #: The game's modules that the base methods forward to, imported on first use: ``matches``
    #: (``simulate_summary``, ``compare_stats``) and ``text`` (``summary_table``,
    #: ``summary_text``, ``played_text``); empty: the game has none.
    matches_module: str = ""
    text_module: str = ""
    #: ``review`` (``check_record``, ``review_hand``, ``DECISION_LAYOUTS``) and ``bidder``
    #: (``MODEL_FILE``, ``fit_model``), the same way.
    review_module: str = ""
    bidder_module: str = ""
    #: ``pimc`` (``DuelTable``, see :mod:`analyzer.core.hand_duel`), the same way; and the card
    #: player a duel of hands sets pimc against by default.
    pimc_module: str = ""
    default_policy: str = ""

    # -- variants -------------------------------------------------------------------------
    def presets(self) -> dict[str, str]:
        """Each preset's name and a line describing it."""
        raise NotImplementedError

    def switches(self) -> tuple[Switch, ...]:
        """The rule switches of this game's variants (none by default)."""
        return ()

    def variant(self, name: str | None, target: int | None = None, **switches):
        """The variant called ``name`` (a preset or a spec such as ``qahwa:target=31``; the
        default preset when ``None``) with ``switches`` (the keys of :meth:`switches`) set."""
        raise NotImplementedError

    def parse_spec(self, text: str):
        """A variant from ``NAME[:switch=value,...]``, as ``t400 variants`` takes them."""
        return self.variant(text)

    def owns(self, name: str | None) -> bool:
        """Whether ``name`` (a preset or a spec) names one of this game's presets."""
        return bool(name) and str(name).partition(":")[0].strip().lower() in self.presets()

    # -- rules ----------------------------------------------------------------------------
    def describe(self, variant) -> dict:
        """The variant's rules as a JSON-ready dict (``t400 rules --json``)."""
        raise NotImplementedError

    def rules_text(self, variant) -> str:
        """The variant's rules as ``t400 rules`` prints them."""
        raise NotImplementedError

    def settle(self, variant, scores: str | None, options: dict) -> tuple[dict, str]:
        """One round scored (``t400 score``): its JSON and its text. ``options`` holds the
        command's round options by name (``bids``, ``tricks``, ``declarer``, ...)."""
        raise self.unsupported("scoring of a round")

    # -- questions ------------------------------------------------------------------------
    def bid_plan(self, question: BidQuestion) -> Plan:
        """``t400 bid``: the question checked (bad input raises before anything compiles)."""
        raise self.unsupported("bid analysis")

    def card_plan(self, question: CardQuestion) -> Plan:
        """``t400 card``: what to play now, checked (bad input raises before anything compiles)."""
        raise self.unsupported("card play advice")

    def card_question(self, record, at: int, base: CardQuestion) -> CardQuestion:
        """``t400 card --record``: the question of the player to move after ``at`` cards of
        ``record`` (their hand only; the others' stay hidden), ``base`` giving the options."""
        raise self.unsupported("card play advice")

    def play(self, deals: list, question: PlayQuestion) -> tuple[list, list]:
        """``t400 play``: each deal bid and played by bots; the hands and their records."""
        raise self.unsupported("play of a deal")

    def played_text(self, hand) -> str:
        """One played hand as ``t400 play`` prints it."""
        return self._module(self.text_module, "play of a deal").played_text(hand)

    def solve_with_bids(self, deal, bids, won, scores, variant, trump, leader):
        """``t400 solve --mode bids``: the game's double dummy of a deal with its bids."""
        raise self.unsupported("double dummy with the bids")

    # -- matches --------------------------------------------------------------------------
    def lineup(self, variant, bidder: str | None, policy: str | None, cap: int, bidder_model: str | None):
        """The four bots of a match of ``variant`` (the game's defaults where ``None``)."""
        raise self.unsupported("matches")

    def simulate_summary(self, lineup, matches, seed, threads, scheduler, keep, resume, progress, **writers):
        """``t400 simulate``: the summary of ``matches`` matches and the run (see analyzer.core.runs)."""
        module = self._module(self.matches_module, "matches")
        return module.simulate_summary(lineup, matches, seed, threads, scheduler, keep, resume, progress=progress,
                                      **writers)  # fmt: skip

    def summary_table(self, summary: dict):
        """A tidy (section, key, value, se, low, high) table of a simulate summary."""
        return self._module(self.text_module, "matches").summary_table(summary)

    def summary_text(self, summary: dict, lineup, seed: int, elapsed: float, compiled: str = "") -> str:
        """A simulate summary as ``t400 simulate`` prints it."""
        return self._module(self.text_module, "matches").summary_text(summary, lineup, seed, elapsed, compiled)

    def compare_stats(self, labels: list[str]):
        """The paired statistics ``t400 variants`` keeps, one column a variant."""
        return self._module(self.matches_module, "matches").compare_stats(labels)

    def duel(
        self, a, b, matches, seed, variant, cap, threads, scheduler, progress, bidder_model=None
    ) -> dict:
        """``t400 duel``: duplicate matches between two bot configurations."""
        raise self.unsupported("duels")

    def duel_hands(self, a, b, deals, seed, variant, layouts, threads=None, progress=None, stop=None) -> dict:
        """``t400 duel --deals``: duplicate single hands between two card players on the EV bots'
        bids or contracts (``a``, ``b``: ``ev/POLICY``, the policy a kernel policy or ``pimc``;
        default ``ev/pimc`` against ``ev/`` the game's default player); see
        :mod:`analyzer.core.hand_duel`."""
        from analyzer.core import hand_duel
        from analyzer.core.policies import POLICIES, policy_id

        module = self._module(self.pimc_module, "duels of single hands")
        players, names = [], []
        for label, text, default in (("A", a, hand_duel.PIMC), ("B", b, self.default_policy)):
            parts = [p.strip().lower() for p in str(text or f"ev/{default}").split("/")]
            if len(parts) > 2 or not parts[0]:
                raise T400Error(f"configuration {text!r}: expected BIDDER/POLICY, e.g. ev/{hand_duel.PIMC}")
            bidder, policy = parts[0], (parts[1] if len(parts) == 2 and parts[1] else default)
            if bidder != "ev":
                raise T400Error(f"--deals plays the EV bots' bids, so {label}'s bidder must be ev, not {bidder}")
            if policy != hand_duel.PIMC and policy not in POLICIES:
                raise T400Error(f"unknown play policy {policy!r} (expected {hand_duel.PIMC} or one of {', '.join(POLICIES)})")
            players.append(policy if policy == hand_duel.PIMC else policy_id(policy))
            names.append(f"ev/{policy}")
        if not 1 <= deals <= hand_duel.MAX_DEALS:
            raise T400Error(f"--deals {deals}: expected 1..{hand_duel.MAX_DEALS:,}")
        table = module.DuelTable(variant, deals, seed, layouts, threads)
        out = hand_duel.duel_hands(table, players[0], players[1], seed, progress, stop)
        uses_pimc = hand_duel.PIMC in players
        out.update({"a": names[0], "b": names[1], "seed": seed, "variant": variant.label,
                    "layouts": layouts if uses_pimc else None,
                    "layouts_fit": table.reader.stats()["all_layouts_fit"] if uses_pimc else None,
                    "reads": table.reads})  # fmt: skip
        return out

    # -- records and review ---------------------------------------------------------------
    def record_fields(self, fields: dict, n: int, words, numbers) -> dict:
        """The game's own fields of a hand record read on line ``n`` (``bids``, or ``calls`` and
        ``trump``) as :class:`analyzer.core.records.HandRecord` keywords; ``words`` and
        ``numbers`` read a field's list as the records do."""
        raise self.unsupported("hand records")

    def check_record(self, record) -> None:
        """Check ``record`` by this game's rules (one ``Error`` naming its line and field)."""
        self._module(self.review_module, "review").check_record(record)

    def review(self, record, samples=None, seed=0, threads=None, progress=None, layouts=None) -> dict:
        """``t400 review`` of one record, JSON-ready; ``layouts``: pimc's layouts for each card's
        decision cost (``None``: the game's default; 0: none)."""
        module = self._module(self.review_module, "review")
        size = module.DECISION_LAYOUTS if layouts is None else layouts
        return module.review_hand(record, samples=samples, seed=seed, threads=threads, progress=progress, layouts=size)

    def review_auction_text(self, review: dict, loss) -> str:
        """The review's bidding (or calls) part as ``t400 review`` prints it; ``loss(value, se,
        objective)`` words a choice's loss."""
        raise self.unsupported("review")

    #: The review's words: the unit of the play's value, what that value is, and the column
    #: of the per-player table that judges the bidding.
    review_unit = "points"
    review_value = ""
    review_verdict_head = "bid"

    def review_verdict(self, player: dict) -> str:
        """A player's bidding verdict in the review's per-player table."""
        raise self.unsupported("review")

    # -- data made by commands ------------------------------------------------------------
    def fit_bidder(self, deals, seed, iterations, threads, progress):
        """``t400 fit-bidder``: the bot bidder's model refitted; returns (model, default path)."""
        from importlib import resources

        module = self._module(self.bidder_module, "a fitted bidder")
        model = module.fit_model(deals=deals, seed=seed, iterations=iterations, threads=threads, progress=progress)
        return model, str(resources.files("analyzer.data") / module.MODEL_FILE)

    def fit_later_lead(self, deals, seed, progress, iterations=1):
        """``t400 fit-later-lead``: the later-lead model refitted (``iterations`` steps of policy
        iteration); returns (model, default path, the weights module's text)."""
        raise self.unsupported("later-lead model")

    def fit_follow(self, deals, seed, progress, iterations=1):
        """``t400 fit-follow``: the later hands' take-or-leave model refitted
        (``iterations`` steps of policy iteration); returns (model, default path, the weights
        module's text)."""
        raise self.unsupported("take-or-leave model")

    def fit_opening_lead(self, deals, seed, progress):
        """``t400 fit-lead``: the opening-lead model refitted; returns (model, default path, the
        weights module's text)."""
        raise self.unsupported("opening-lead model")

    def equity_table_path(self, variant) -> str | None:
        """Where the match-equity table of ``variant`` ships (``None``: it does not)."""
        return None

    def equity(self, variant, scores, dealer, table, continuations, seed, threads) -> tuple[dict, str]:
        """``t400 equity``: P(seats 1+3 win the match) from the scores; its JSON and its text."""
        raise self.unsupported("match equity")

    def build_equity(self, variant, hands, seed, threads, path, progress) -> tuple[dict, str]:
        """``t400 equity --build``: the variant's match-equity table written to ``path``."""
        raise self.unsupported("match equity")

    # -- the page -------------------------------------------------------------------------
    def page(self) -> dict:
        """What the page needs to offer this game: its presets and the choices of its switches."""
        return {
            "title": self.title,
            "presets": self.presets(),
            "choices": {s.key: list(s.choices) for s in self.switches() if s.kind == "choice"},
        }

    # -- helpers --------------------------------------------------------------------------
    def _module(self, path: str, what: str):
        """The module at dotted ``path``, or the error that the game has no ``what``."""
        if not path:
            raise self.unsupported(what)
        return importlib.import_module(path)

    def unsupported(self, what: str) -> T400Error:
        """The one-line error of a question this game does not answer."""
        return T400Error(f"{self.title} has no {what} (yet)")

    def __repr__(self) -> str:
        return f"<game {self.name}>"
