"""Hand records: one played hand as the review reads it and ``t400 play --record`` writes it.

A record holds the game and its variant, the deal (four hands, seat 1 first), the scores before
the hand (400: the four players'; Tarneeb: the two teams', seats 1+3 first), the bids (400: the
four in seat order) or the calls and the named trump (Tarneeb: calls from seat 1, as ``t400 bid
--game tarneeb --auction`` writes them), and optionally the cards played in order (all 52, or
the first ones). Two spellings, documented in docs/review.md:

* JSON: one object, or one object a line (JSON lines) for a batch such as a whole match::

    {"game": "400", "variant": "dananeer", "scores": [0, 0, 0, 0],
     "deal": "AKQ5.KJ4.T93.862 JT9.AQ7.KQ5.AKQ3 8743.T986.A76.T9 62.532.J842.J754",
     "bids": [3, 6, 2, 2], "cards": "SA S9 S3 S2 SK ST S4 S6"}

* text, one record a line, ``key value`` fields separated by ``;`` (``#`` starts a comment)::

    game 400; variant dananeer; scores 0,0,0,0; deal AKQ5.KJ4.T93.862 JT9.AQ7.KQ5.AKQ3 ...; bids 3,6,2,2; play SA S9 S3 S2 SK ...

Reading checks what every game shares (fields, the deal, the cards: held, played once, in turn,
following suit); each game reads its own fields (``Game.record_fields``: the bids, or the calls
and the trump) and its review checks its own rules (bids, the auction, the scores). Every
error names the record's line and the bad field or trick, as one line.
:func:`analyzer.games.registry.read_records` reads records with the registered games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from analyzer.core import jsonfile
from analyzer.core.errors import T400Error
from analyzer.core.notation import Card, Deal, Suit, as_deal

#: The fields a record may have, and what each holds.
FIELDS = {
    "game": "400 or tarneeb",
    "variant": "a preset or a spec such as qahwa:target=31 (default: the game's default preset)",
    "deal": "four hands, seat 1 first",
    "scores": "the scores before the hand: 400 four players', Tarneeb two teams'",
    "bids": "400: the four bids, seat 1 first",
    "calls": "Tarneeb: the calls from seat 1 (pass, 7..13; Egyptian: 8S, 9NT, double)",
    "trump": "Tarneeb: the trump the declarer named (S, H, D, C or NT)",
    "cards": "the cards played, in order (all 52 or the first ones)",
}
_ALIASES = {"play": "cards", "auction": "calls"}
_RANK_WORDS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "10"}


def card_words(card: Card) -> str:
    """``the 5 of hearts``."""
    rank = card.rank.char
    return f"the {_RANK_WORDS.get(rank, rank)} of {card.suit.name.lower()}"


@dataclass(frozen=True)
class HandRecord:
    """One hand as played (see the module text); ``line`` is where it was read (1 for a single
    record), for the messages."""

    game: str
    variant: str
    deal: Deal
    scores: tuple[int, ...]
    bids: tuple[int, ...] = ()
    calls: tuple[str, ...] = ()
    trump: str | None = None
    cards: tuple[Card, ...] = ()
    line: int = 1

    def to_dict(self) -> dict:
        """The record as JSON (``read_records`` reads it back unchanged)."""
        out = {
            "game": self.game,
            "variant": self.variant,
            "deal": str(self.deal),
            "scores": list(self.scores),
        }
        if self.bids:  # a game of individual bids; the others carry their auction
            out["bids"] = list(self.bids)
        else:
            out["calls"] = list(self.calls)
            if self.trump is not None:
                out["trump"] = self.trump
        out["cards"] = " ".join(str(c) for c in self.cards)
        return out

    def to_text(self) -> str:
        """The record in the text form, one line."""
        d = self.to_dict()
        parts = [f"game {d['game']}", f"variant {d['variant']}", f"scores {','.join(map(str, d['scores']))}",
                 f"deal {d['deal']}"]  # fmt: skip
        if self.bids:
            parts.append(f"bids {','.join(map(str, d['bids']))}")
        else:
            parts.append(f"calls {','.join(d['calls'])}")
            if "trump" in d:
                parts.append(f"trump {d['trump']}")
        if self.cards:
            parts.append(f"play {d['cards']}")
        return "; ".join(parts)

    def error(self, message: str) -> T400Error:
        return T400Error(f"line {self.line}: {message}")


#: The largest text of records read (a long match is a few hundred KB), and the most records.
MAX_RECORDS_BYTES = 8 << 20
MAX_RECORDS = 10_000


def read_records(text: str, game_of) -> list[HandRecord]:
    """The records in ``text``: one JSON object (or a JSON list of them), JSON lines, or text
    lines; blank lines and ``#`` comments are skipped. ``game_of(name)`` is the game called
    ``name`` (:func:`analyzer.games.registry.get`), which reads its own fields."""
    stripped = text.strip()
    if not stripped:
        raise T400Error("no hand record given")
    if len(stripped.encode("utf-8", errors="surrogatepass")) > MAX_RECORDS_BYTES:
        raise jsonfile.InputLimit(f"the hand records are larger than {MAX_RECORDS_BYTES >> 20} MB")
    if stripped[0] in "{[":
        try:
            whole = jsonfile.loads(stripped, "the record text", max_bytes=MAX_RECORDS_BYTES)
        except jsonfile.InputLimit:
            raise
        except T400Error:
            whole = None  # JSON lines, or a JSON object on its first line only
        if isinstance(whole, dict):
            return [_record(whole, 1, game_of)]
        if isinstance(whole, list):
            if not whole:
                raise T400Error("no hand record given (an empty list)")
            if len(whole) > MAX_RECORDS:
                raise T400Error(f"{len(whole):,} hand records: at most {MAX_RECORDS:,} at a time")
            return [_record(item, n, game_of) for n, item in enumerate(whole, start=1)]
    records = []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("{"):
            try:
                item = jsonfile.loads(line, f"line {n}", max_bytes=MAX_RECORDS_BYTES)
            except T400Error as exc:
                raise T400Error(str(exc).replace(f"line {n} is not JSON", f"line {n}: not a JSON object")) from None
        else:
            item = _text_fields(line, n)
        records.append(_record(item, n, game_of))
        if len(records) > MAX_RECORDS:
            raise T400Error(f"more than {MAX_RECORDS:,} hand records: at most {MAX_RECORDS:,} at a time")
    if not records:
        raise T400Error("no hand record given (only blank lines and comments)")
    return records


def _text_fields(line: str, n: int) -> dict:
    out = {}
    for part in line.split("#", 1)[0].split(";"):
        part = part.strip()
        if not part:
            continue
        key, _, value = part.partition(" ")
        key = key.strip().lower().rstrip(":")
        if key in out:
            raise T400Error(f"line {n}: {key} is given twice")
        out[key] = value.strip()
    return out


def _record(item, n: int, game_of) -> HandRecord:
    if not isinstance(item, dict):
        raise T400Error(f"line {n}: a hand record is an object of fields ({', '.join(FIELDS)})")
    fields = {}
    for key, value in item.items():
        name = _ALIASES.get(str(key).lower(), str(key).lower())
        if name not in FIELDS:
            raise T400Error(f"line {n}: unknown field {key!r} (expected {', '.join(FIELDS)})")
        fields[name] = value
    try:
        game = game_of(str(fields.get("game", "")).strip().lower() or None)
    except T400Error as exc:
        raise T400Error(f"line {n}: {exc}") from None
    variant = fields.get("variant")
    variant = game.default_preset if variant in (None, "") else str(variant).strip()
    if "deal" not in fields:
        raise T400Error(f"line {n}: the deal is missing (four hands, seat 1 first)")
    try:
        deal = as_deal(str(fields["deal"]), full=True)
    except T400Error as exc:
        raise T400Error(f"line {n}: deal: {exc}") from None
    scores = _numbers(fields.get("scores"), "scores", n, (0,) * game.score_count)
    if len(scores) != game.score_count:
        raise T400Error(f"line {n}: scores: expected {game.scores_words}, got {len(scores)}")
    own = game.record_fields(fields, n, _words, _numbers)
    cards = []
    for k, token in enumerate(_words(fields.get("cards"), "cards", n), start=1):
        try:
            cards.append(Card.parse(token))
        except T400Error:
            raise T400Error(
                f"line {n}: card {k} of the play, {token!r}, is not a card (such as HK or ♥K)"
            ) from None
    if len(cards) > 52:
        raise T400Error(f"line {n}: {len(cards)} cards played: a hand has 52")
    return HandRecord(game.name, variant, deal, scores, cards=tuple(cards), line=n, **own)


def _words(value, what: str, n: int) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [w for w in value.replace(",", " ").replace("|", " ").replace("/", " ").split() if w]
    if isinstance(value, list) and all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in value):
        return [str(v).strip() for v in value]
    raise T400Error(f"line {n}: {what}: expected a list or a text of words")


def _numbers(value, what: str, n: int, default: tuple[int, ...]) -> tuple[int, ...]:
    if value is None:
        return default
    words = _words(value, what, n)
    try:
        return tuple(int(w) for w in words)
    except ValueError:
        raise T400Error(f"line {n}: {what}: expected whole numbers, got {value!r}") from None


@dataclass(frozen=True)
class Trick:
    """One trick (or the cards of the last, unfinished one): who led, the cards from the
    leader on, and who won it (``None`` while unfinished). Seats 1..4."""

    leader: int
    cards: tuple[Card, ...]
    winner: int | None

    def seat_of(self, k: int) -> int:
        return (self.leader - 1 + k) % 4 + 1


def play_tricks(
    record: HandRecord, trump: Suit | None, leader: int, first_lead_trump: bool = False
) -> list[Trick]:
    """The record's cards as tricks: each card held by the seat to play, following suit when it
    can (and, with ``first_lead_trump``, the first lead a trump when the leader holds one);
    ``trump=None`` is no trump. Errors name the trick and seat."""
    hands = [set(h) for h in record.deal.hands]
    tricks: list[Trick] = []
    lead = leader
    cards: list[Card] = []
    for k, card in enumerate(record.cards):
        t = len(tricks) + 1
        seat = (lead - 1 + len(cards)) % 4 + 1
        held = hands[seat - 1]
        if card not in held:
            where = next((s for s in range(1, 5) if card in record.deal.hands[s - 1]), None)
            if where is None or where == seat:
                raise record.error(f"trick {t}: seat {seat} played {card_words(card)} twice")
            raise record.error(f"trick {t}: seat {seat} played {card_words(card)} but holds no such card "
                               f"(seat {where} was dealt it; card {k + 1} of the play is seat {seat}'s turn)")  # fmt: skip
        if cards:
            led = cards[0].suit
            if card.suit != led and any(c.suit == led for c in held):
                raise record.error(f"trick {t}: seat {seat} revoked: played {card_words(card)} but held "
                                   f"a {led.name.lower()[:-1]}")  # fmt: skip
        elif (
            t == 1
            and first_lead_trump
            and trump is not None
            and card.suit != trump
            and any(c.suit == trump for c in held)
        ):
            raise record.error(
                f"trick 1: seat {seat} must lead a trump (the variant's first lead) and held one"
            )
        held.discard(card)
        cards.append(card)
        if len(cards) == 4:
            win = trick_winner(cards, trump)
            tricks.append(Trick(lead, tuple(cards), (lead - 1 + win) % 4 + 1))
            lead = tricks[-1].winner
            cards = []
    if cards:
        tricks.append(Trick(lead, tuple(cards), None))
    return tricks


def trick_winner(cards: Sequence[Card], trump: Suit | None) -> int:
    """The position (0..3) of the card that wins a full trick."""
    best = 0
    for i in range(1, 4):
        c, b = cards[i], cards[best]
        if c.suit == b.suit:
            if c.rank > b.rank:
                best = i
        elif trump is not None and c.suit == trump:
            best = i
    return best


def legal_cards(held: Sequence[Card], trick: Sequence[Card]) -> list[Card]:
    """The cards of ``held`` that may be played to ``trick`` (the cards played to it so far):
    the led suit when the player holds it, else any."""
    if trick:
        follow = [c for c in held if c.suit == trick[0].suit]
        if follow:
            return follow
    return list(held)
