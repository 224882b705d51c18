"""Fitting ``standard``'s opening lead (``t400 fit-lead``): every opening lead of many live deals
scored by double dummy, and a model of which leads keep every trick fitted to them.

The deals are 400 as the benchmark plays it: four EV bots bid (dead hands skipped), seat 1 leads,
hearts are trumps. DDS (the ``endplay`` package, the project's oracle in the tests) scores every
card seat 1 may lead: the tricks its partnership keeps with best play after it. A lead *keeps*
when it scores as well as the best lead. The model (:mod:`kernels.policies.lead`) gives each card
a score from public information; the chance that a card is chosen is a softmax of the scores
over the hand (a conditional logit), and the weights maximise the likelihood that the chosen
card is one that keeps (L2 penalty, Adam). The weights are rounded to integers so that the kernel
and its twin in the tests add exactly the same numbers.

The EV bots' bids depend on the card play they were fitted on, and the lead is part of that play:
refitting the lead after every refit of the bidder would never end. The lead model is therefore
regenerated when its inputs change (the features, the rules of the lead), and records the bidder
model it was fitted with; a later bidder moves the bids a little, which the model tolerates.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np

from analyzer.core.dealing import deal_hands
from analyzer.core.errors import T400Error
from analyzer.core.notation import Card, dot_strings
from kernels.core.cards import HEARTS
from kernels.core.kit import Kit
from kernels.policies import lead as kl
from kernels.t400 import bidder as kb
from kernels.t400.rules import is_dead

WEIGHTS_FILE = Path(kl.__file__).with_name("lead_weights.py")
SCALE = 1000  # weights are kept in thousandths
LEADER = 0
BATCH = 200  # deals per DDS call


def features_fingerprint() -> str:
    """A hash of what the model reads: the source of :mod:`kernels.policies.lead` (the shipped
    weights record it; a test flags them as stale when it changes)."""
    return hashlib.sha256(inspect.getsource(kl).encode()).hexdigest()[:16]


def live_deals(n: int, seed: int, variant, bot, min_bid: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``n`` live deals with the EV bots' bids, seat 1's at least ``min_bid``: (hands
    uint64[n, 4], bids int64[n, 4]). The benchmark (benchmarks/play_vs_dd.py) plays these too."""
    rules = variant.kernel_rules()
    zeros = np.zeros(4, dtype=np.int64)
    out_h, out_b = [], []
    batch = 0
    while len(out_h) < n:
        for row in deal_hands(max(n, 1000), seed=seed * 1000 + batch):
            bids = np.zeros(4, dtype=np.int64)
            for s in range(4):
                bids[s] = kb.bid_of(
                    rules, Kit(bidder=kb.EV_BIDDER), kb.EV_BIDDER, bot, row[s], s, zeros, int(bids.sum())
                )
            if not is_dead(rules, int(bids.sum()), zeros) and bids[0] >= min_bid:
                out_h.append(row)
                out_b.append(bids)
                if len(out_h) == n:
                    break
        batch += 1
    return np.array(out_h), np.array(out_b)


def score_leads(hands: np.ndarray, progress: Callable[[int, int], None] | None = None) -> np.ndarray:
    """DDS's partnership tricks after each opening lead of seat 1 (hearts trump): int8[n, 64],
    -1 for cards seat 1 does not hold."""
    try:
        from endplay.dds import solve_all_boards
        from endplay.types import Deal as EpDeal
        from endplay.types import Denom, Player
    except ImportError as exc:  # pragma: no cover - the test extra installs it
        raise T400Error("fit-lead needs DDS: pip install endplay (it is in the test extra)") from exc

    scores = np.full((len(hands), 64), -1, dtype=np.int8)
    for start in range(0, len(hands), BATCH):
        boards = []
        for row in dot_strings(hands[start : start + BATCH]).reshape(-1, 4):
            board = EpDeal("N:" + " ".join(h.replace("-", "") for h in row))
            board.trump = Denom.hearts
            board.first = Player(LEADER)
            boards.append(board)
        for j, solved in enumerate(solve_all_boards(boards)):
            for card, tricks in solved:
                scores[start + j, Card.parse(str(card)).index] = tricks
        if progress is not None:
            progress(start + len(boards), len(hands))
    return scores


def lead_inputs(hands: np.ndarray, bids: np.ndarray):
    """The model's inputs for seat 1's cards: cards int64[n, 13], contexts and features
    int64[n, 13, 6] (see :func:`kernels.policies.lead.lead_rows`)."""
    n = len(hands)
    cards = np.empty((n, 13), dtype=np.int64)
    contexts = np.empty((n, 13, 6), dtype=np.int64)
    features = np.empty((n, 13, 6), dtype=np.int64)
    kl.lead_rows(np.ascontiguousarray(hands), np.ascontiguousarray(bids, dtype=np.int64), LEADER, HEARTS,
                 cards, contexts, features)  # fmt: skip
    return cards, contexts, features


def fit_weights(contexts, features, keeps, penalty: float = 10.0, steps: int = 600, rate: float = 0.05):
    """Conditional-logit fit: ``contexts``/``features`` int64[n, 13, 6], ``keeps`` bool[n, 13]
    (False for absent cards too). Returns (table weights float[N], feature weights float[6])
    on the scale of the scores (natural-log odds)."""
    n = len(keeps)
    scale = np.maximum(np.abs(features).reshape(-1, 6).max(axis=0), 1).astype(float)
    x = features / scale
    tables = np.zeros(kl.N_TABLE_WEIGHTS)
    coef = np.zeros(kl.N_FEATURES)
    m = np.zeros(len(tables) + len(coef))
    v = np.zeros_like(m)
    for step in range(1, steps + 1):
        s = tables[contexts].sum(axis=2) + x @ coef
        s -= s.max(axis=1, keepdims=True)
        e = np.exp(s)
        p = e / e.sum(axis=1, keepdims=True)
        ek = e * keeps
        q = ek / np.maximum(ek.sum(axis=1, keepdims=True), 1e-300)
        d = q - p  # the gradient of the log-likelihood with respect to each card's score
        g_tables = np.bincount(contexts.reshape(-1, 6).ravel(), np.repeat(d.ravel(), 6), len(tables))
        g_coef = np.einsum("nk,nkf->f", d, x)
        g = np.concatenate([g_tables, g_coef]) / n - penalty * np.concatenate([tables, coef]) / n
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        step_vec = rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        tables += step_vec[: len(tables)]
        coef += step_vec[len(tables) :]
    return tables, coef / scale


def loss_rate(cards, contexts, features, tricks, table_w, feature_w) -> float:
    """Share of deals where the model's lead (integer weights, ties to the lowest card index, as
    in the kernel) loses a partnership trick against the best lead."""
    s = table_w[contexts].sum(axis=2) + features @ feature_w
    s = np.where(cards >= 0, s, np.iinfo(np.int64).min)
    pick = s.argmax(axis=1)  # cards are in index order: the first maximum is the lowest index
    return float((tricks[np.arange(len(s)), pick] < tricks.max(axis=1)).mean())


def fit_lead_model(deals: int, seed: int, progress: Callable[[int, int], None] | None = None,
                   held_out: float = 0.2) -> dict:  # fmt: skip
    """Deal, score, fit; returns what :func:`weights_source` writes. The deals are bid by the EV
    bots of the shipped bidder model under the default rules (``dananeer``), which the weights
    record. ``held_out`` of the deals are kept out of the fit to measure it: the weights are then
    refitted on all deals."""
    from analyzer.core.policies import numbers_fingerprint
    from analyzer.games.t400 import simulate
    from analyzer.games.t400.bidder import load_model
    from analyzer.games.t400.rules import Variant

    if deals < 100:
        raise T400Error(f"--deals {deals}: at least 100 deals are needed")
    variant = Variant.preset("dananeer")
    hands, bids = live_deals(deals, seed, variant, simulate.bot_array(variant))
    scores = score_leads(hands, progress)
    cards, contexts, features = lead_inputs(hands, bids)
    tricks = np.where(
        cards >= 0, np.take_along_axis(scores.astype(np.int64), np.maximum(cards, 0), axis=1), -1
    )
    keeps = (tricks == tricks.max(axis=1, keepdims=True)) & (cards >= 0)
    cut = int(deals * (1 - held_out))

    def rounded(t, c):
        return np.rint(t * SCALE).astype(np.int64), np.rint(c * SCALE).astype(np.int64)

    tw, fw = rounded(*fit_weights(contexts[:cut], features[:cut], keeps[:cut]))
    test = slice(cut, None)
    held = loss_rate(cards[test], contexts[test], features[test], tricks[test], tw, fw)
    tw, fw = rounded(*fit_weights(contexts, features, keeps))
    meta = {
        "command": f"t400 fit-lead --deals {deals} --seed {seed}",
        "deals": deals,
        "seed": seed,
        "features": features_fingerprint(),
        "bidder_model": numbers_fingerprint(load_model().array),
        "held_out_deals": deals - cut,
        "held_out_losing_leads": round(held, 4),
        "losing_leads_in_fit": round(loss_rate(cards, contexts, features, tricks, tw, fw), 4),
    }
    return {"meta": meta, "table_weights": tw, "feature_weights": fw}


def weights_source(model: dict) -> str:
    """The text of kernels/policies/lead_weights.py for ``model``."""
    from analyzer.version import __version__

    meta = {**model["meta"], "version": __version__}

    def numbers(a):
        return "\n".join(
            "    " + ", ".join(str(int(x)) for x in a[i : i + 16]) + "," for i in range(0, len(a), 16)
        )

    return (
        '"""Generated by ``t400 fit-lead``: do not edit. The opening-lead model of ``standard``\n'
        '(see kernels/policies/lead.py); weights in thousandths of a natural-log odds."""\n\n'
        "import numpy as np\n\n"
        f"META = {json.dumps(meta, indent=4)}\n"
        f"TABLE_WEIGHTS = np.array([\n{numbers(model['table_weights'])}\n], dtype=np.int64)\n"
        f"FEATURE_WEIGHTS = np.array([{', '.join(str(int(x)) for x in model['feature_weights'])}], dtype=np.int64)\n"
    )
