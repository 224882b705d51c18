"""What to call in a Tarneeb auction: the rollout behind ``t400 bid --game tarneeb``.

For one known hand in one seat after the calls so far, each sample deals the other three hands
(stream ``(seed, chunk)``), weighs the deal by how likely the bots were to make the calls they
made with it, plays the hand's team declaring in every strain, and, for every candidate call,
finishes the auction with the bots (the known seat's later calls by the EV bot too), plays the
final contract with the team policy and scores it for the known seat's team.
"""

import numpy as np
from numba import prange

from kernels.config import FLAT, JIT, PJIT, jit
from kernels.core import dd
from kernels.core.cards import FULL_DECK, lane, lowest_bit
from kernels.core.deal import deal_around, deal_many, pool_of
from kernels.core.rng import stream
from kernels.policies.play import check_policies
from kernels.tarneeb import rules as kr
from kernels.tarneeb.hand import MAX_CALLS, TRAINING_LEVEL, bot_call, bot_trump, check_bidders, play_contract

#: Weight of a sampled deal per earlier call the bots would not have made with it: a soft
#: rejection (the bots are deterministic; a floor keeps every deal possible, as a player should).
MISMATCH_WEIGHT = 0.05

# per-sample outcome of a candidate call
C_SCORE = 0  # points of the known seat's team minus the other team's
C_ENDS = 1  # 1 when the auction ended with this call as the contract
C_MADE = 2  # 1 when it ended so and was made
C_DECLARE = 3  # 1 when the known seat's team declared the final contract
C_PLAYED = 4  # 0 when the deal was passed out (re-dealt)
C_OURS = 5  # the points of the known seat's team in the hand
C_THEIRS = 6  # the other team's
C_SIZE = 7


# the final contract a candidate call leads to (the auction finished by the bots)
K_PLAYED = 0  # 0 when the deal is passed out (re-dealt)
K_CONTRACT = 1  # the contract's call code
K_DECLARER = 2  # seat index
K_TRUMP = 3  # the declarer's trump (strain index 0..4)
K_DOUBLED = 4  # 1 when doubled
K_SIZE = 5

# a helper called from one place in each kernel: inlined before typing, not one more unit to compile
once = jit(inline="always")


@once
def _weigh(rules, seat, calls, bidders, model, infer, hands, auction):
    """Replay the calls so far into ``auction``; the deal's weight: MISMATCH_WEIGHT for every
    earlier call of another seat its bot would not have made with ``hands`` (1.0 without
    ``infer``)."""
    w = 1.0
    kr.auction_start(auction)
    for call in calls:
        who = kr.next_seat(rules, auction)
        if infer and who != seat and bot_call(bidders[who], rules, auction, hands[who], model) != call:
            w *= MISMATCH_WEIGHT
        kr.auction_call(rules, auction, call)
    return w


@once
def _final_contract(rules, auction, trial, call, bidders, hands, model, row):
    """Make ``call`` after ``auction`` and let the bots finish (in ``trial``); the contract into
    ``row`` (int64[K_SIZE])."""
    for q in range(kr.ST_SIZE):
        trial[q] = auction[q]
    kr.auction_call(rules, trial, call)
    for _ in range(MAX_CALLS):
        who = kr.next_seat(rules, trial)
        if who < 0:
            break
        kr.auction_call(rules, trial, bot_call(bidders[who], rules, trial, hands[who], model))
    for q in range(K_SIZE):
        row[q] = 0
    if trial[kr.ST_REDEAL]:
        return
    contract = trial[kr.ST_HIGH]
    declarer = trial[kr.ST_HIGH_SEAT]
    row[K_PLAYED] = 1
    row[K_CONTRACT] = contract
    row[K_DECLARER] = declarer
    row[K_TRUMP] = bot_trump(bidders[declarer], rules, hands[declarer], contract, model)
    row[K_DOUBLED] = 1 if trial[kr.ST_DOUBLED] == 1 else 0


@JIT
def _settle(rules, seat, call, row, tricks, o):
    """The outcome of a candidate ``call`` (``o``: float64[C_SIZE]) for the known seat's team,
    its final contract ``row`` having taken ``tricks`` for the declaring team."""
    for q in range(C_SIZE):
        o[q] = 0.0
    if not row[K_PLAYED]:
        return
    level = kr.level_of(row[K_CONTRACT])
    declarers = kr.declarer_points(rules, level, tricks, row[K_DOUBLED] == 1)
    defenders = kr.defender_points(rules, level, tricks)
    declarer = row[K_DECLARER]
    ours = (declarer & 1) == (seat & 1)
    o[C_PLAYED] = 1.0
    o[C_DECLARE] = 1.0 if ours else 0.0
    o[C_OURS] = declarers if ours else defenders
    o[C_THEIRS] = defenders if ours else declarers
    o[C_SCORE] = o[C_OURS] - o[C_THEIRS]
    if declarer == seat and row[K_CONTRACT] == call:
        o[C_ENDS] = 1.0
        o[C_MADE] = 1.0 if tricks >= level else 0.0


@once
def _sample(rules, hand, seat, calls, candidates, bidders, policies, kit, model, infer, hands, auction, trial, taken,
            row, strain_row, outcome_rows):  # fmt: skip
    """One dealt sample (``hands``): its weight (returned), the strain tricks into ``strain_row``
    (int64[5]) and each candidate's outcome into ``outcome_rows`` (float64[m, C_SIZE]); ``row``
    (int64[K_SIZE]) is scratch for each candidate's contract."""
    w = _weigh(rules, seat, calls, bidders, model, infer, hands, auction)
    code = kr.bid_code(TRAINING_LEVEL, kr.NO_STRAIN)
    for strain in range(5):
        strain_row[strain] = play_contract(rules, hands, policies, kit, code, seat, strain, taken)
    for k in range(candidates.shape[0]):
        _final_contract(rules, auction, trial, candidates[k], bidders, hands, model, row)
        tricks = 0
        if row[K_PLAYED]:
            tricks = play_contract(
                rules, hands, policies, kit, row[K_CONTRACT], row[K_DECLARER], row[K_TRUMP], taken
            )
        _settle(rules, seat, candidates[k], row, tricks, outcome_rows[k])
    return w


@JIT  # serial: the caller spreads the work over threads (analyzer.core.runtime.over_chunks)
def call_rollout(seed, first_chunk, n_chunks, chunk_size, rules, hand, seat, calls, candidates, bidders, policies,
                 kit, model, infer):  # fmt: skip
    """Samples ``n_chunks * chunk_size`` of the rollout (chunk ``c`` from ``stream(seed,
    first_chunk + c)``).

    hand: uint64, the known hand; seat: its seat index; calls: int64[k], the calls so far from
    seat index 0 (legal, ending at ``seat``'s turn); candidates: int64[m], the calls to value;
    bidders, policies: int64[4] by seat (the bots of the other seats, and the known seat's later
    calls); kit: the policies' :class:`~kernels.core.kit.Kit`; infer: weigh deals by the earlier calls.
    Returns (weights float64[n]; strain tricks int64[n, 5]: the known seat's team's tricks
    declaring in each strain, the known seat leading; outcomes float64[n, m, C_SIZE]).
    """
    check_bidders(bidders)
    check_policies(policies, kit)
    n = n_chunks * chunk_size
    m = candidates.shape[0]
    weights = np.empty(n)
    strain_tricks = np.empty((n, 5), dtype=np.int64)
    outcomes = np.zeros((n, m, C_SIZE))
    unseen = FULL_DECK & ~hand
    counts = np.full(4, 13, dtype=np.int64)
    counts[seat] = 0
    for c in range(n_chunks):
        state = stream(seed, first_chunk + c)
        pool = pool_of(unseen)
        hands = np.empty(4, dtype=np.uint64)
        auction = np.empty(kr.ST_SIZE, dtype=np.int64)
        trial = np.empty(kr.ST_SIZE, dtype=np.int64)
        taken = np.empty(4, dtype=np.int64)
        row = np.empty(K_SIZE, dtype=np.int64)
        for j in range(chunk_size):
            i = c * chunk_size + j
            deal_around(state, pool, counts, hand, seat, hands)
            weights[i] = _sample(rules, hand, seat, calls, candidates, bidders, policies, kit, model, infer, hands,
                                 auction, trial, taken, row, strain_tricks[i], outcomes[i])  # fmt: skip
    return weights, strain_tricks, outcomes


@PJIT
def call_contracts(seed, first_chunk, n_chunks, chunk_size, rules, hand, seat, calls, candidates, bidders,
                   model, infer):  # fmt: skip
    """The double-dummy model's samples: the same deals and weights as :func:`call_rollout`
    (same seed and chunks: :func:`kernels.core.deal.deal_many` draws them as it does), and each
    candidate's final contract without playing it.

    Returns (hands uint64[n, 4]; weights float64[n]; contracts int64[n, m, K_SIZE])."""
    check_bidders(bidders)
    known = np.zeros(4, dtype=np.uint64)
    known[seat] = hand
    counts = np.full(4, 13, dtype=np.int64)
    counts[seat] = 0
    all_hands = deal_many(seed, first_chunk, n_chunks, chunk_size, known, FULL_DECK & ~hand,
                          counts)  # fmt: skip
    n = all_hands.shape[0]
    m = candidates.shape[0]
    weights = np.empty(n)
    contracts = np.zeros((n, m, K_SIZE), dtype=np.int64)
    for c in prange(n_chunks):
        auction = np.empty(kr.ST_SIZE, dtype=np.int64)
        trial = np.empty(kr.ST_SIZE, dtype=np.int64)
        for i in range(c * chunk_size, (c + 1) * chunk_size):
            weights[i] = _weigh(rules, seat, calls, bidders, model, infer, all_hands[i], auction)
            for k in range(m):
                _final_contract(
                    rules, auction, trial, candidates[k], bidders, all_hands[i], model, contracts[i, k]
                )
    return all_hands, weights, contracts


@FLAT  # its one caller holds the solver once, not a module that holds it again
def _team_tricks(W, T, hands, strain, leader, trump_lead):
    """Double-dummy tricks of ``leader``'s team with ``leader`` on lead in ``strain``; with
    ``trump_lead`` (the variant's rule) the opening lead is the best of the leader's trumps."""
    mask = dd.ms_mask_for(dd.TEAM, leader)
    guess = dd.guess_tricks(hands, strain, mask)
    trick = np.zeros(4, dtype=np.int64)
    trumps = hands[leader] & lane(strain) if trump_lead and strain < 4 else np.uint64(0)
    best = 0
    after = hands.copy()
    rest = trumps
    # one call of the solver (each call site holds a whole copy of the search): the deal as it
    # is, or each trump led in turn
    while True:
        n_in = 0
        if rest:
            c = lowest_bit(rest)
            rest &= rest - np.uint64(1)
            after[leader] = hands[leader] & ~(np.uint64(1) << np.uint64(c))
            trick[0] = c
            n_in = 1
        dd.setup(W, after, strain, leader, mask, trick, n_in)
        best = max(best, dd.solve_position(W, T, guess))
        if rest == 0:
            return best


@JIT
def team_tasks_worker(hands, tasks, trump_lead, workspaces, tables, out, w):
    """Worker ``w`` of ``k = workspaces.shape[0]`` solving team double dummy for many (deal,
    strain, leader) tasks: hands uint64[n, 4]; tasks int64[t, 3]; workspaces int64[k, dd.W_SIZE]
    and tables int64[k, dd.T_SIZE]; worker w takes tasks w, w + k, ... and writes the leader's
    team's tricks into ``out`` (int64[t]). Run on threads as :func:`kernels.core.dd.solve_worker`."""
    t = tasks.shape[0]
    k = workspaces.shape[0]
    for i in range(w, t, k):
        if i < k or tasks[i, 0] != tasks[i - k, 0]:  # a new deal for this worker's table
            dd.start_deal(tables[w])
        out[i] = _team_tricks(
            workspaces[w], tables[w], hands[tasks[i, 0]], tasks[i, 1], tasks[i, 2], trump_lead
        )


@JIT
def score_contracts(rules, seat, candidates, contracts, team_tricks):
    """Outcomes (float64[n, m, C_SIZE]) of the candidates' contracts (int64[n, m, K_SIZE], from
    :func:`call_contracts`) given team_tricks int64[n, 5, 4]: the declaring team's tricks by
    strain and declarer (the declarer leading)."""
    n, m = contracts.shape[0], contracts.shape[1]
    outcomes = np.zeros((n, m, C_SIZE))
    for i in range(n):
        for k in range(m):
            row = contracts[i, k]
            tricks = team_tricks[i, row[K_TRUMP], row[K_DECLARER]] if row[K_PLAYED] else 0
            _settle(rules, seat, candidates[k], row, tricks, outcomes[i, k])
    return outcomes
