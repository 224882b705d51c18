"""Kits: a kernel compiles the policies and bidders its seats use, and refuses seats outside them."""

import json
import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from numba import typeof

from kernels.core.kit import ALL, MIXED, Kit, kit_of
from kernels.policies import play as kp
from kernels.t400 import bidder as kb
from kernels.t400.lineup import check_lineup, lineup_kit, make_lineup

ROOT = Path(__file__).resolve().parent.parent


def test_a_kit_says_the_one_id_or_the_ids_the_seats_use():
    assert kit_of(policies=[kp.STANDARD] * 4) == Kit(policy=kp.STANDARD)
    duel = lineup_kit(make_lineup([kb.EV_BIDDER, kb.COUNTING_BIDDER] * 2, [kp.STANDARD, kp.GREEDY] * 2))
    assert (duel.policy, duel.policies) == (MIXED, 1 << kp.STANDARD | 1 << kp.GREEDY)
    assert (duel.bidder, duel.bidders) == (MIXED, 1 << kb.EV_BIDDER | 1 << kb.COUNTING_BIDDER)
    assert Kit().policies == ALL and kit_of(policies=[kp.TEAM]).bidders == ALL
    assert pickle.loads(pickle.dumps(duel)) == duel  # helpers compile the caller's kit
    # kernels that only play (or only bid) take that part: lineups that differ in the other share them
    assert duel.play_part() == kit_of(policies=[kp.GREEDY, kp.STANDARD])
    assert duel.bid_part() == kit_of(bidders=[kb.COUNTING_BIDDER, kb.EV_BIDDER])
    # each kit is a type of its own, so a kernel's compile for one is never used for another
    kits = [Kit(), duel, kit_of(policies=[kp.STANDARD, kp.BASIC]), Kit(policy=kp.STANDARD)]
    assert len({typeof(k) for k in kits}) == len(kits)


def test_a_kernel_refuses_seats_outside_its_kit():
    kit = kit_of(policies=[kp.STANDARD, kp.GREEDY], bidders=[kb.EV_BIDDER])
    kp.check_policies(np.array([kp.GREEDY, kp.STANDARD, kp.GREEDY, kp.GREEDY]), kit)
    with pytest.raises(ValueError, match="kit does not match"):
        kp.check_policies(np.array([kp.GREEDY, kp.STANDARD, kp.BASIC, kp.GREEDY]), kit)
    with pytest.raises(ValueError, match="kit does not match"):
        check_lineup(make_lineup([kb.EV_BIDDER, kb.WIN_BIDDER] * 2, [kp.GREEDY] * 4), kit)


def test_a_mixed_kit_compiles_only_the_policies_and_bidders_of_its_seats(tmp_path):
    """From an empty kernel cache, the card play of seats playing ``greedy`` and ``basic`` and a
    bid of seats bidding ``counting`` and ``counting-ev``: Numba types (compiles) those and none
    of the others (no function of the modules of ``team`` and ``standard``, nor the other
    bidders)."""
    code = textwrap.dedent(
        """
        import json, sys
        import numpy as np
        from numba.core.registry import CPUDispatcher
        from analyzer.games.t400.bidder import bot_array
        from analyzer.games.t400.rules import parse_variant_spec
        from kernels.core.kit import kit_of
        from kernels.policies import play as kp
        from kernels.t400 import bidder as kb

        h = [np.uint64(0x1FFF << (16 * s)) for s in range(4)]
        b, p = np.int64(3), np.int64(kp.GREEDY)
        kit = kit_of(policies=[kp.GREEDY, kp.BASIC])
        kp.play_tricks(h[0], h[1], h[2], h[3], b, b, b, b, p, p, p, p, kit, np.int64(0), np.int64(3))
        v = parse_variant_spec("qahwa")
        kit = kit_of(bidders=[kb.COUNTING_BIDDER, kb.COUNTING_EV_BIDDER])
        kb.bid_of(v.kernel_rules(), kit, kb.COUNTING_BIDDER, bot_array(v), np.uint64(0x1FFF), 0,
                  np.zeros(4, dtype=np.int64), 0)
        typed = sorted(f"{m}.{k}" for m, module in list(sys.modules.items()) if m.startswith("kernels.")
                       for k, f in vars(module).items()
                       if isinstance(f, CPUDispatcher) and f.__module__ == m and f.overloads)
        print(json.dumps(typed))
        """
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "T400_NO_HELPERS": "1"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    typed = json.loads(out.stdout)
    modules = {name.rsplit(".", 1)[0] for name in typed}
    assert {"kernels.policies.greedy", "kernels.policies.basic"} <= modules
    others = {"team", "team_follow", "standard_follow", "lead", "later_lead"}
    assert not modules & {f"kernels.policies.{m}" for m in others}, typed
    bids = {"counting_bid", "counting_ev_bid", "ev_bid", "win_bid"}
    assert {name for name in typed if name.startswith("kernels.t400.bidder.") and name.rsplit(".", 1)[1] in bids} == {
        "kernels.t400.bidder.counting_bid", "kernels.t400.bidder.counting_ev_bid",
    }  # fmt: skip
