"""The reference player's layouts (benchmarks/play_vs_dd.py, play_vs_bids_dd.py): what pimc
deals the unseen cards from must fit what the table has shown, the voids and, in 400, the bids."""

import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from play_vs_bids_dd import BidReader  # noqa: E402
from play_vs_dd import Position, deal_batch  # noqa: E402

from analyzer.core.policies import policy_id  # noqa: E402
from analyzer.games.t400 import simulate  # noqa: E402
from analyzer.games.t400.lead import live_deals  # noqa: E402
from analyzer.games.t400.rules import Variant  # noqa: E402
from kernels.core.cards import lane  # noqa: E402

VARIANT = Variant.preset("dananeer")
BOT = simulate.bot_array(VARIANT)


def positions(n_deals: int, seed: int):
    """Positions along live deals played by ``standard``: every fifth card of each deal."""
    hands, bids = live_deals(n_deals, seed, VARIANT, BOT)
    pid = policy_id("standard")
    for h, b in zip(hands, bids):
        pos = Position(h, b)
        for k in range(52):
            if k % 5 == 0:
                yield pos
            pos.play(pos.kernel_card(pid))


def hcp(hand: int) -> int:
    return sum(max(0, r - 8) for r in range(13) for s in range(4) if hand >> (16 * s + r) & 1)


def test_a_batch_deals_each_unseen_card_once_to_a_seat_that_can_hold_it():
    gen = np.random.default_rng(3)
    for pos in positions(4, 21):
        me = pos.mover
        batch = deal_batch(pos, 200, gen)
        assert len(batch) > 0
        for row in batch[:40]:
            row = [int(x) for x in row]
            assert row[me] == pos.hands[me]
            assert sum(row) == sum(pos.hands)  # each card once: no overlaps, none lost
            for q in range(4):
                assert row[q].bit_count() == pos.hands[q].bit_count()
                for s in range(4):
                    if q != me and pos.voids >> (4 * q + s) & 1:
                        assert row[q] & int(lane(s)) == 0, "a seat that showed out got the suit"


def test_layouts_fit_the_bids_and_the_real_deal_fits():
    reader = BidReader(VARIANT, BOT)
    rng = random.Random(4)
    for pos in positions(4, 22):
        misfits = reader.misfits(pos)
        assert misfits(np.array([pos.hands], dtype=np.uint64))[0] == 0, "the real hands bid as bid"
        layouts = reader.layouts(pos, 6, rng)
        assert len(layouts) == 6
        assert (misfits(np.array(layouts, dtype=np.uint64)) == 0).all()
    assert reader.all_fit == reader.decisions > 0


def test_reading_the_bids_places_the_high_cards_with_the_high_bidder():
    """A seat that bid 6 or more holds more high-card points in the fitted layouts than in
    layouts that ignore the bids (and as many as the bid suggests)."""
    hands, bids = live_deals(300, 23, VARIANT, BOT)
    picks = [i for i in range(len(bids)) if bids[i, 1] >= 6][:5]
    assert picks
    reader = BidReader(VARIANT, BOT)
    gen = np.random.default_rng(5)
    for i in picks:
        pos = Position(hands[i], bids[i])  # seat 1 on lead: seat 2's cards are unseen
        fitted = np.array(reader.layouts(pos, 40, random.Random(i)), dtype=np.uint64)
        blind = deal_batch(pos, 40, gen)
        fit_hcp = np.mean([hcp(int(x)) for x in fitted[:, 1]])
        blind_hcp = np.mean([hcp(int(x)) for x in blind[:, 1]])
        assert fit_hcp > blind_hcp + 2, (bids[i], fit_hcp, blind_hcp)


def test_tarneeb_layouts_fit_the_auction_and_give_the_declarer_its_trumps():
    """Every layout makes the calls the EV bots made and the declarer's trump choice; the real deal
    does; and, seen from the declarer's left, the fitted layouts give the declarer more trumps
    than layouts that ignore the auction."""
    from tarneeb_play_vs_dd import AuctionReader, contracts, side_bids

    from analyzer.games.tarneeb.bidders import load_model
    from analyzer.games.tarneeb.rules import TarneebVariant
    from kernels.tarneeb import hand as kh

    rules, model = TarneebVariant.preset("tarneeb").kernel_rules(), load_model().array
    hands, outcomes = contracts(12, 24, rules, model)
    reader = AuctionReader(rules, model)
    gen = np.random.default_rng(6)
    fitted_trumps, blind_trumps = [], []
    for h, res in zip(hands, outcomes):
        decl, trump = int(res[kh.R_DECLARER]), int(res[kh.R_TRUMP])
        pos = Position(h, side_bids(rules, res), leader=decl, trump=trump)
        pos.play(int(h[decl]).bit_length() - 1)  # the declarer's top card: the next seat decides
        calls = reader.auction(h, res)
        misfits = reader.misfits(pos, calls, res)
        assert misfits(np.array([pos.hands], dtype=np.uint64))[0] == 0, "the real hands call as they called"
        layouts = np.array(reader.sampler(h, res)(pos, 20, random.Random(7)), dtype=np.uint64)
        assert (misfits(layouts) == 0).all()
        whole = layouts[:, decl] | np.uint64(pos.played_by[decl])
        fitted_trumps += [(int(x) & int(lane(trump))).bit_count() for x in whole]
        blind = deal_batch(pos, 20, gen)[:, decl] | np.uint64(pos.played_by[decl])
        blind_trumps += [(int(x) & int(lane(trump))).bit_count() for x in blind]
    assert reader.all_fit == reader.decisions == len(hands)
    assert np.mean(fitted_trumps) > np.mean(blind_trumps) + 1, (np.mean(fitted_trumps), np.mean(blind_trumps))
