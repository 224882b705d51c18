"""The ``standard`` policy: a plan for the bid, from what the player can know.

The state a policy sees is packed into scalars (see :mod:`kernels.policies.play`): its hand, the
cards played, the voids shown, every bid and the tricks each player has taken. What it does, each
rule kept because it scored more points in duplicate against ``basic`` (benchmarks/play_vs_dd.py):

* **Opening lead** (trick 1): in 400, the card that a model fitted on double-dummy scores of
  every opening lead scores highest (:mod:`kernels.policies.lead`, ``t400 fit-lead``; it reads
  the hand and the four bids); classic Tarneeb's contracts open by a table of lead kinds in an
  order measured against double dummy (an ace with the king, a side singleton, a doubleton's
  top, the top of a sequence, low from nothing ...; away from an ace or an unsupported honour
  last; trumps only with A-K and four). In both, a bidder of 6+ with five or more trumps opens
  with a trump (the top if it is the master, else the top of a sequence to knock out the honour
  above, else the lowest); not the declarer of Tarneeb's ``team``, which opens by the table
  (``trump_opening``, see :mod:`kernels.policies.team`).
* **Later leads**: the plan's lead (the rules below) is corrected by a model fitted on rollouts
  of the plan (:mod:`kernels.policies.later_lead`, ``t400 fit-later-lead``): each card held is
  scored from public information and the best is led, the plan's card on ties; 400's weights,
  or Tarneeb's for a team contract (``team_leads``). In 400 a player still short of its own bid
  of 6 or more leads by the plan alone. ``standard1`` is 400's plan alone.
* **Trumps.** A player who needs tricks draws trumps from the top while holding the master trump
  and at least as many trumps as are missing (or needs four more tricks); with four or more
  trumps but not the top it leads them anyway (the top of a sequence to knock out the missing
  honour, else the lowest). Trumps are drawn only while an opponent may hold one: once both
  opponents have shown out, the trumps still out are partner's.
* **Count.** Sure tricks are the masters of each suit counted down from the top. A player short
  of sure tricks knocks out the one missing honour of a side suit (the top of K-Q, Q-J ...)
  before cashing; then masters are cashed in the suit no opponent is known to ruff.
* **Partner.** A player who has made the bid keeps its masters while partner still needs tricks,
  gives partner ruffs, and as second hand leaves a trick partner needs to partner, who plays
  last; a partner's safe winner is overtaken only by a player who needs the trick, with a card
  no one after can beat, when partner does not need it or my bid is 6+, bigger than partner's
  and at least as far from made.
* **Defence.** A player who has made the bid plays to set opponents who still need tricks; a
  player whose tricks no longer matter to anyone plays its lowest cards.
* **Technique.** Second hand low, third hand high (the cheapest card that no one after can beat),
  fourth hand the cheapest winner; ruff low but above any overruff the player can foresee;
  discard the lowest card of the side suit that matters least: never a master's suit, not the
  small card that guards an honour, not from the long suit of a player who needs tricks.
* **Take or leave** (400's ``standard``, not ``standard1``): where the second or third hand can
  take the trick or leave it (ruff or discard, win or duck), a model fitted on rollouts chooses
  between the plan's two cards (:mod:`kernels.policies.standard_follow`, which wraps this
  player; Tarneeb's ``team`` has its own, :mod:`kernels.policies.team_follow`).
* **Defending a team contract** (``defending``: Tarneeb's defenders, see
  :mod:`kernels.policies.team`): the declaring side chose the trump and holds most of them, so
  a defender's trumps are worth most as stoppers and ruffs. A defender draws trumps only when its
  masters from the top are at least as many as the trumps still out (it draws them all); on a
  trump lead it keeps its master trump (it takes a later trick whatever happens) and plays low;
  second hand, out of the suit led, it leaves the trick to partner, who plays last and may beat
  the card led, and discards instead of ruffing.
"""

import numpy as np

from kernels.config import FLAT, jit
from kernels.core.cards import FULL_DECK, above, highest_bit, lane, lowest_bit, popcount
from kernels.core.tricks import legal_moves, winning_cards
from kernels.policies import later_lead_weights, team_lead_weights
from kernels.policies.common import (
    beatable,
    masters_from_top,
    needs,
    passive_lead,
    safe_master,
    shown_void,
    void_known,
    wants_trick,
    winner_to_play,
)
from kernels.policies.later_lead import by_context, later_lead
from kernels.policies.lead import fitted_lead, lead_kind

U64 = np.uint64
_ONE = U64(1)
hot = jit(forceinline=True)
LATER_LEAD_400 = by_context(later_lead_weights.WEIGHTS)
LATER_LEAD_TEAM = by_context(team_lead_weights.WEIGHTS)


@hot
def need_bits(bids, taken):
    """Bit ``s`` set while seat ``s`` has fewer tricks than its bid (bids/taken: 8 bits a seat)."""
    need = 0
    for s in range(4):
        if ((taken >> (8 * s)) & 255) < ((bids >> (8 * s)) & 255):
            need |= 1 << s
    return need


@hot
def short_of(bids, taken, seat):
    """Tricks ``seat`` still needs to make its bid (0 once made)."""
    return max(0, ((bids >> (8 * seat)) & 255) - ((taken >> (8 * seat)) & 255))


@hot
def sure_tricks(hand, unseen):
    """Tricks the hand can cash from the top: the masters of every suit, trumps included
    (ruffs by the others are not foreseen)."""
    total = 0
    for s in range(4):
        cs = hand & lane(s)
        if cs:
            total += masters_from_top(cs, unseen)
    return total


@hot
def knockout_card(cs, unseen):
    """The card to lead from ``cs`` (one side suit) to force out the one unseen card above it:
    the top of a sequence of two or more touching cards with exactly one unseen card higher;
    -1 if the suit has no such sequence."""
    if popcount(cs) < 2:
        return -1
    top = highest_bit(cs)
    if popcount(unseen & above(top)) != 1:
        return -1
    nxt = highest_bit(cs & ~(_ONE << U64(top)))
    if unseen & above(nxt) & ~above(top):
        return -1  # an unseen card between them: not touching
    return top


# The table's opening lead (classic Tarneeb's, and 400's without a fitted model): by kind of lead
# (kernels.policies.lead.lead_kind), in an order measured: how often a lead of each kind keeps
# every double-dummy trick of the partnership, by the project's solver on 600 random live deals
# with EV-bot bids (84% for a side ace with the king, 81% for a side singleton, down to 49% for an
# unsupported trump honour).
SIDE_PRIORITY = (0, 1, 2, 3, 4, 5, 9, 12, 19, 16, 18, 22)
# A bidder of at least LONG_TRUMP_BID with LONG_TRUMPS or more trumps opens with a trump: on strong
# seat-1 hands the table's singleton and sequence leads gave away tricks that drawing trumps keeps
# (solo double dummy, 800 deals).
LONG_TRUMP_BID = 6
# A 400 player whose own bid of at least OWN_PLAN_BID is not yet made leads by the plan alone: the
# later-lead model, fitted on the points of all live deals, gives up tricks a big bid needs
# (strong hands fell below solo double dummy more often) and the plan there costs no points in
# duplicate (docs/card-play.md).
OWN_PLAN_BID = 6
LONG_TRUMPS = 5
TRUMP_PRIORITY = (10, 6, 8, 11, 7, 15, 14, 20, 13, 17, 23, 21)


@hot
def trump_lead(my_trumps, top_trumps, unseen):
    """The trump to lead: the top while it is a master (``top_trumps`` > 0), else the top of a
    sequence that knocks out the one honour above it, else the lowest."""
    if top_trumps:
        return highest_bit(my_trumps)
    ko = knockout_card(my_trumps, unseen)
    return ko if ko >= 0 else lowest_bit(my_trumps)


@hot
def lead_priority(cs, card, is_trump):
    """Rank of ``card`` as a lead (lower is better): see the categories above."""
    kind = lead_kind(cs, card)
    return TRUMP_PRIORITY[kind] if is_trump else SIDE_PRIORITY[kind]


@hot
def discard_card(hand, trump, unseen, keep_suit):
    """The card to throw when neither following nor trumping: the lowest card of the side suit
    that matters least (short, no master, not ``keep_suit``), keeping trumps while possible."""
    best = -1
    best_key = 1 << 30
    for s in range(4):
        if s == trump:
            continue
        cs = hand & lane(s)
        if cs == 0:
            continue
        c = lowest_bit(cs)
        key = (c & 15) * 16 + popcount(cs)
        top = highest_bit(cs)
        if popcount(unseen & above(top)) < popcount(cs) <= popcount(unseen & above(top)) + 1:
            key += 512  # the card guards an honour: keep it
        if masters_from_top(cs, unseen) > 0:
            key += 1024  # holds a master: keep the suit
        if s == keep_suit:
            key += 256
        if key < best_key:
            best_key = key
            best = c
    if best < 0:
        best = lowest_bit(hand)
    return best


@hot
def plan_discard(hand, trump, unseen, me_need):
    """The plan's card out of the suit led when it does not ruff: :func:`discard_card`, keeping
    the longest side suit of four or more while the player needs tricks (its long cards may
    become masters)."""
    keep = -1
    keep_len = 3
    for s in range(4):
        if s != trump and popcount(hand & lane(s)) > keep_len:
            keep_len = popcount(hand & lane(s))
            keep = s
    return discard_card(hand, trump, unseen, keep if me_need else -1)


@hot
def bigger_need(bids, taken, seat):
    """Whether ``seat`` bid 6 or more, more than partner, and is at least as far from its bid:
    its tricks are then worth more to the side than partner's (a bid of 6 swings 12 points)."""
    mine = (bids >> (8 * seat)) & 255
    theirs = (bids >> (8 * (seat ^ 2))) & 255
    return mine >= 6 and mine > theirs and short_of(bids, taken, seat) >= short_of(bids, taken, seat ^ 2)


@hot
def _follow(seat, hand, played, voids, bids, taken, leader, n_played, led, best, best_pos, trump, defending):
    need = need_bits(bids, taken)
    legal = legal_moves(hand, n_played, led)
    led_cards = hand & lane(led)
    unseen = FULL_DECK & ~(hand | played)
    best_seat = (leader + best_pos) & 3
    partner = seat ^ 2
    wins = winning_cards(legal, best, led, trump)
    me_need = needs(need, seat)
    partner_need = needs(need, partner)
    low = lowest_bit(led_cards) if led_cards else plan_discard(hand, trump, unseen, me_need)

    if best_seat == partner:
        safe = not beatable(best, led, trump, seat, leader, n_played, unseen, voids)
        if safe:
            # Partner has it: take it over (third or last to play) only when I need it, and
            # partner does not or my bigger bid needs it more. No one after can beat partner's
            # card, so no one can beat a card of mine that beats it either.
            if wins and me_need and (not partner_need or bigger_need(bids, taken, seat)):
                return lowest_bit(wins)
            return low

    want = wants_trick(need, seat, best_seat, leader, n_played)

    if (
        n_played == 1
        and partner_need
        and not me_need
        and not shown_void(voids, partner, led)
        and (unseen & above(best))
    ):
        return low  # second hand, done: leave the trick to partner, who plays last and needs it
    if (
        defending
        and n_played == 1
        and not led_cards
        and not shown_void(voids, partner, led)
        and unseen & above(best)
    ):
        return low  # second hand, out of the suit: partner, last to play, may beat the card led
    if wins and want:
        c = winner_to_play(wins, led_cards, led, trump, seat, leader, n_played, unseen, voids)
        if c >= 0:
            master_trump = led == trump and c == highest_bit(led_cards) and not (unseen & above(c))
            if defending and master_trump and n_played < 3 and popcount(led_cards) >= 2:
                return low  # the master trump takes a later trick whatever happens
            return c
    return low


@hot
def _plan_lead(seat, hand, played, voids, bids, taken, trump, fitted, defending, trump_opening):
    need = need_bits(bids, taken)
    unseen = FULL_DECK & ~(hand | played)
    partner = seat ^ 2
    opp1 = seat ^ 1
    opp2 = seat ^ 3
    me_need = needs(need, seat)
    team_need = me_need or needs(need, partner)
    if not (team_need or needs(need, opp1) or needs(need, opp2)):
        return discard_card(hand, trump, unseen, -1)
    trump_lane = lane(trump)
    my_trumps = hand & trump_lane
    unseen_trumps = unseen & trump_lane
    n_trumps = popcount(my_trumps)
    top_trumps = masters_from_top(my_trumps, unseen) if my_trumps else 0
    short = short_of(bids, taken, seat)
    opening = popcount(played) == 0
    sure = sure_tricks(hand, unseen)

    if me_need:
        # Draw trumps from the top only with length.
        if opening:
            draw = top_trumps >= 2 and n_trumps >= 4 and not fitted
        else:
            draw = top_trumps >= 1 and (
                2 * n_trumps >= popcount(unseen_trumps) or (n_trumps >= 2 and short >= 4)
            )
            if defending:
                draw = top_trumps >= popcount(unseen_trumps)  # only to draw every trump still out
        # Trumps are drawn from the opponents: once both have shown out, the rest are partner's.
        opp_trumps = not (void_known(voids, opp1, trump, unseen) and void_known(voids, opp2, trump, unseen))
        if opp_trumps and draw:
            return highest_bit(my_trumps)
        if opp_trumps and n_trumps >= 4 and top_trumps == 0 and not opening:
            return trump_lead(my_trumps, top_trumps, unseen)
        # Short of sure tricks: knock out the missing honour of a side suit while trumps control.
        if sure < short and not opening:
            ko = -1
            ko_len = -1
            for s in range(4):
                if s == trump:
                    continue
                cs = hand & lane(s)
                c = knockout_card(cs, unseen)
                if c >= 0 and popcount(cs) > ko_len:
                    ko = c
                    ko_len = popcount(cs)
            if ko >= 0:
                return ko

    # Cash the side-suit master that the opponents are least likely to ruff (a player who has
    # made the bid keeps masters for later while partner still needs tricks).
    if not opening and (me_need or not needs(need, partner)):
        cash = safe_master(hand, trump, unseen, voids, seat)
        if cash >= 0:
            return cash

        # No trumps left out: every trump is a winner.
        if my_trumps and not unseen_trumps and popcount(hand) == n_trumps:  # only trumps left
            return highest_bit(my_trumps)

    # Give partner a ruff: a suit partner has shown out of while maybe holding trumps.
    if needs(need, partner) and unseen_trumps and not void_known(voids, partner, trump, unseen):
        for s in range(4):
            if s != trump and (hand & lane(s)) and shown_void(voids, partner, s):
                return lowest_bit(hand & lane(s))

    # The only trumps left are mine: each wins whenever it is played, so they wait (entries and
    # ruffs) while the longest side suit is played for the tricks it can still make.
    if not opening and not unseen_trumps and my_trumps and popcount(hand) > n_trumps:
        best = -1
        best_len = -1
        for s in range(4):
            cs = hand & lane(s)
            if s != trump and popcount(cs) > best_len:
                best_len = popcount(cs)
                best = lowest_bit(cs)
        return best
    if not opening:
        return passive_lead(hand, trump, unseen, my_trumps)
    if trump_opening and me_need and short >= LONG_TRUMP_BID and n_trumps >= LONG_TRUMPS:
        return trump_lead(my_trumps, top_trumps, unseen)
    if fitted:
        return fitted_lead(hand, bids, seat, trump)
    # The opening lead that costs least: see lead_priority.
    best = -1
    best_key = 1 << 30
    rest = hand
    while rest:
        c = lowest_bit(rest)
        rest &= rest - _ONE
        cs = hand & lane(c >> 4)
        key = (lead_priority(cs, c, c >> 4 == trump) * 16 + 13 - popcount(cs)) * 16 + (c & 15)
        if key < best_key:
            best_key = key
            best = c
    return best


@FLAT
def _lead(seat, hand, played, voids, bids, taken, trump, fitted, defending, plan_only, team_leads, trump_opening):
    plan = _plan_lead(seat, hand, played, voids, bids, taken, trump, fitted, defending, trump_opening)
    if plan_only or played == 0:
        return plan
    if fitted:
        if ((bids >> (8 * seat)) & 255) >= OWN_PLAN_BID and short_of(bids, taken, seat):
            return plan
        weights = LATER_LEAD_400
    elif team_leads:
        weights = LATER_LEAD_TEAM
    else:
        return plan
    return later_lead(seat, hand, played, voids, bids, taken, trump, plan, weights)  # one copy of the model


@FLAT
def standard_card(seat, hand, played, voids, bids, taken, leader, n_played, led, best, best_pos, trump,
                  fitted_lead=True, defending=False, plan_only=False, team_leads=False,
                  trump_opening=True):  # fmt: skip
    """The card ``seat`` plays (see the module's docstring). ``fitted_lead``: 400's leads, the
    opening one by the model fitted on 400's deals (:mod:`kernels.policies.lead`), the later ones
    by the plan corrected by the model fitted on rollouts of 400 (:mod:`kernels.policies.later_lead`;
    not with ``plan_only``: the first round's player, ``standard1``); False for classic Tarneeb's
    contracts, which open by the table of lead kinds and lead later by the plan, corrected by the
    model fitted on Tarneeb's contracts with ``team_leads``. ``defending``: ``seat`` defends a
    team contract. ``trump_opening``: a player still short of a bid of 6+ who holds five trumps
    opens with a trump (False: Tarneeb's ``team``, whose declarer opens as the table says)."""
    if n_played == 0:
        fitted = fitted_lead and trump < 4
        return _lead(
            seat, hand, played, voids, bids, taken, trump, fitted, defending, plan_only, team_leads, trump_opening
        )
    return _follow(
        seat, hand, played, voids, bids, taken, leader, n_played, led, best, best_pos, trump, defending
    )
