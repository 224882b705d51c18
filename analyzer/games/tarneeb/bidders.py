"""Tarneeb bot bidders (Python originals; the kernels' twins are in ``kernels/tarneeb/bidder.py``).

``counting``: seed 004's advice for beginners, as a bot. "Count your sure tricks before bidding:
Aces, protected Kings and a long, strong suit you could make trump. Your partner will usually
add two or three more." "Choose your longest suit as trumps." Choices where the text is silent
(listed in :data:`COUNTING_CHOICES`) are made here, once.
"""

from __future__ import annotations

from analyzer.core.notation import Hand, Rank, Suit
from analyzer.core.seats import Seat
from analyzer.core.strains import Strain
from analyzer.games.tarneeb.rules import MAX_BID, MIN_BID, Auction, Call

#: Tricks expected from partner ("usually two or three").
PARTNER_TRICKS = 2.5
#: High-card points that break a tie between equally long suits for the trump choice.
_HCP = {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1}

COUNTING_CHOICES = {
    "sure-tricks": "an ace is a trick, a king with at least one more card of its suit is a trick, "
    "and every trump beyond the third is a trick (the long suit made trump)",
    "partner": "partner adds 2.5 tricks; the team's estimate is the whole part of the sum (sure tricks + 2)",
    "trump": "the longest suit; equal lengths: more high-card points (A 4, K 3, Q 2, J 1), then the "
    "higher suit (spades, hearts, diamonds, clubs); never no-trump",
    "bid": "the lowest bid that overcalls, if the estimate reaches it (Egyptian: in the chosen "
    "trump); the dealer under one-bid-each equals the highest bid if the estimate reaches it",
    "partner-holds": "never overcall partner's standing bid; never double",
    "forced": "when it may not pass, the lowest bid it may make",
}


def trump_suit(hand: Hand) -> Suit:
    """The counting bot's trump: the longest suit, then the most high-card points, then the higher suit."""

    def key(suit: Suit):
        ranks = hand.ranks(suit)
        return (len(ranks), sum(_HCP.get(r, 0) for r in ranks), -int(suit))

    return max(Suit, key=key)


def sure_tricks(hand: Hand, trump: Suit) -> int:
    """Aces, protected kings, and the trumps beyond the third.

    >>> from analyzer.core.notation import parse_hand
    >>> h = parse_hand("AK5.AQJ9876.K3.2")
    >>> trump_suit(h), sure_tricks(h, trump_suit(h))
    (<Suit.HEARTS: 1>, 8)
    """
    tricks = 0
    for suit in Suit:
        ranks = hand.ranks(suit)
        tricks += Rank.ACE in ranks
        tricks += Rank.KING in ranks and len(ranks) >= 2
    return tricks + max(0, len(hand.ranks(trump)) - 3)


def team_estimate(hand: Hand) -> int:
    """The tricks the counting bot expects its team to take with its trump."""
    return int(sure_tricks(hand, trump_suit(hand)) + PARTNER_TRICKS)


def counting_call(auction: Auction, hand: Hand) -> Call:
    """The counting bot's call for the seat to speak in ``auction``."""
    seat = auction.seat
    legal = auction.legal_calls()
    bids = [c for c in legal if c.kind == "bid"]
    if not any(c.kind == "pass" for c in legal):
        return _in_trump(bids, hand, auction)[0]  # forced: the lowest bid it may make
    if auction.high_seat is not None and Seat(auction.high_seat).team == Seat(seat).team:
        return Call("pass")
    estimate = min(team_estimate(hand), MAX_BID)
    candidates = [c for c in _in_trump(bids, hand, auction) if c.level <= estimate]
    if estimate < MIN_BID or not candidates:
        return Call("pass")
    return candidates[0]


def _in_trump(bids: list[Call], hand: Hand, auction: Auction) -> list[Call]:
    """The bids in the bot's trump (all of them in the number auction), lowest first."""
    if auction.variant.auction != "strain":
        return bids
    strain = Strain(int(trump_suit(hand)))
    return [c for c in bids if c.strain is strain]
