"""What a new user meets first: Ctrl-C, strict JSON, bare `t400`, bad input of every kind."""

import json
import math
import time

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.core.errors import T400Error
from analyzer.core.notation import Card, Rank, Suit, parse_deal, parse_hand
from analyzer.core.strains import Strain
from analyzer.games.t400.matches import parse_config
from analyzer.games.t400.rules import PRESETS, Variant, parse_variant_spec
from cli import cli, to_json
from interrupt import interrupt_t400

HAND = "AKQ5.KJ4.T93.862"
TARNEEB_HAND = "A5.AKQJ9843.K3.2"


def strict_json(text: str):
    """Parse JSON the way a browser does: NaN and Infinity are errors."""

    def refuse(name):
        raise ValueError(f"not JSON: {name}")

    return json.loads(text, parse_constant=refuse)


# -- Ctrl-C ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args,wait",
    [
        (["bid", HAND, "--samples", "3000000"], 1.0),  # while compiling or loading
        (["bid", HAND, "--samples", "3000000"], 6.0),  # while sampling
        (["bid", HAND, "--seat", "2", "--bids", "4", "--model", "dd", "--samples", "5000"], 1.5),
        (["bid", HAND, "--seat", "2", "--bids", "4", "--model", "dd", "--samples", "5000"], 8.0),
        # the long runs of the audit (issue 36): each answered Ctrl-C late, or not at all
        (["bid", "--game", "tarneeb", TARNEEB_HAND, "--seat", "2", "--auction", "pass", "--samples", "3000000"], 8.0),
        # 2048 deals: a run of a minute or more even with every kernel cached
        (["bid", "--game", "tarneeb", TARNEEB_HAND, "--seat", "2", "--auction", "pass", "--model", "dd", "--samples", "2048"], 8.0),
        (["bid", HAND, "--objective", "win", "--continuations", "200", "--samples", "4096", "--scores", "10,0,0,0"], 6.0),
        (["equity", "--scores", "10,0,0,0", "--simulate", "10000000"], 6.0),
        # pimc on 4,096 layouts of the opening lead: minutes of double-dummy searches
        (["card", HAND, "--seat", "1", "--bids", "3,5,2,2", "--layouts", "4096", "--all-layouts"], 8.0),
    ],
)  # fmt: skip
def test_ctrl_c_ends_bid_at_once_with_one_line(args, wait):
    start = time.time()
    sent = []

    def ready():
        if time.time() - start >= wait:
            sent.append(time.time())
            return True
        return False

    code, out, err = interrupt_t400(args, ready, timeout=120)
    took = time.time() - sent[0]
    assert code == 130, (code, err)
    assert err.strip().splitlines()[-1].startswith("Error: interrupted"), err
    assert "Traceback" not in err and out == ""
    assert took < 3.0, f"{took:.1f} s to stop"


# -- JSON -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args",
    [
        ["bid", "5432.52.T987.543", "--seat", "4", "--bids", "3,3,2", "--json", "--samples", "2000"],
        ["bid", HAND, "--samples", "1", "--json"],
        ["bid", "-.AKQJT98765432.-.-", "--samples", "300", "--json"],
        ["rules", "--json"],
        ["card", "62.532.J842.J754", "--seat", "4", "--bids", "3,5,2,2", "--play", "SA S9 S3 S2 SK ST S4 S6 SQ SJ S7 H2",
         "--layouts", "4", "--json"],
        ["score", "--bids", "2,2,2,2", "--json"],
        ["solve", "AKQ.-.-.- 432.-.-.- JT9.-.-.- 876.-.-.-", "--trump", "none", "--json", "--cards"],
        ["simulate", "--matches", "3", "--json"],
        ["variants", "dananeer", "qahwa", "--matches", "3", "--json"],
        ["duel", "--matches", "2", "--json"],
        ["play", "AKQ5.KJ4.T93.862 JT98.AQ.AK7.QJ95 7643.T9875.Q5.A4 2.632.J8642.KT73", "--json"],
    ],
)
def test_every_json_output_is_strict_json(args):
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, r.output
    strict_json(r.stdout)


def test_a_dealer_whose_best_bid_kills_the_hand_is_told_so():
    args = ["bid", "5432.52.T987.543", "--seat", "4", "--bids", "3,3,2", "--samples", "2000"]
    data = strict_json(CliRunner().invoke(cli, [*args, "--json"]).stdout)
    chosen = next(b for b in data["bids"] if b["bid"] == data["recommended"])
    assert data["recommended"] == 2 and chosen["p_dead"] == 1.0 and chosen["p_make"] is None
    assert data["killing_bids"] == [2] and data["tricks_for_bid"] == 3  # the least bid that plays
    assert data["tricks_mean_se"] is not None and data["tricks_mean_se"] > 0
    text = CliRunner().invoke(cli, args).stdout
    assert "Bid 2 kills the hand" in text and "3 is the least that plays" in text and "± nan" not in text


def test_to_json_writes_null_for_nan_and_infinity():
    assert strict_json(to_json({"a": math.nan, "b": [math.inf, 1.5], "c": -math.inf})) == {
        "a": None, "b": [None, 1.5], "c": None,
    }  # fmt: skip


# -- the command itself -------------------------------------------------------------------------
def test_bare_t400_prints_the_help():
    r = CliRunner().invoke(cli, [])
    assert r.exit_code == 0
    assert "Usage:" in r.stdout and "Commands:" in r.stdout and len(r.stdout.splitlines()) > 10
    assert "Error" not in r.output


def test_a_hand_or_deal_starting_with_a_void_is_an_argument():
    r = CliRunner().invoke(cli, ["bid", "-.AKQJT98765432.-.-", "--samples", "200", "--json"])
    assert r.exit_code == 0, r.output
    assert strict_json(r.stdout)["recommended"] == 10
    r = CliRunner().invoke(cli, ["solve", "-.AKQ.-.- -.432.-.- -.JT9.-.- -.876.-.-", "--trump", "none"])
    assert r.exit_code == 0 and r.stdout.startswith("seats 1+3 take 3"), r.output


@pytest.mark.parametrize(
    "args,message",
    [
        (["bid", HAND, "--scores", "20,-12,100000000000000000000,-14"], "not a score"),
        (["bid", HAND, "--target", "99999999999999999999"], "target"),
        (["bid", "AKQ5.KJ4.T93.86ǰ"], "unknown rank 'ǰ'"),
        (["bid", HAND, "--samples", "100000000000"], "more than a day"),
        (["simulate", "--matches", "1000000000000"], "more than a day"),
        (["simulate", "--matches", "5", "--per-match", "/nonexistent/x.csv"], "--per-match"),
        (["fit-bidder", "--deals", "10000", "--out", "/nonexistent/model.npz"], "does not exist"),
        (["bid", HAND, "--bidder-model", "/nonexistent/model.npz"], "no bidder model"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message):
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("Error: ") and message in r.stderr and len(r.stderr.splitlines()) == 1
    assert "Traceback" not in r.output


def test_variant_switches_have_their_types():
    v = PRESETS["dananeer"]
    for bad in ({"table_min_rises": "no"}, {"target": True}, {"name": 13}, {"target": 10**20}):
        with pytest.raises(T400Error):
            v.with_(**bad)


# -- fuzz: every public parser either reads its input or raises T400Error ----------------------------
_TEXT = st.text(alphabet=st.sampled_from("AKQJT98765432akqjt10.-: |/,;SHDCshdc♠♥♦♣♤♡♢♧xǰßﬁ\t\n"), max_size=60)
_PARSERS = [
    lambda s: parse_hand(s),
    lambda s: parse_hand(s, size=None),
    lambda s: parse_deal(s),
    Card.parse,
    Suit.parse,
    Rank.parse,
    Strain.parse,
    parse_variant_spec,
    parse_config,
]


@settings(max_examples=400, deadline=None)
@given(text=st.one_of(_TEXT, st.text(max_size=40)), which=st.integers(0, len(_PARSERS) - 1))
def test_parsers_never_fail_with_anything_but_a_t400_error(text, which):
    try:
        _PARSERS[which](text)
    except T400Error:
        pass


_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.text(max_size=8), st.floats())


@settings(max_examples=300, deadline=None)
@given(
    changes=st.dictionaries(st.sampled_from([f for f in Variant.__dataclass_fields__]), _VALUES, max_size=3)
)
def test_variant_switches_are_checked(changes):
    try:
        v = PRESETS["qahwa"].with_(**changes)
    except T400Error:
        return
    v.kernel_rules()  # whatever is accepted also packs for the kernels
    assert isinstance(v.table_min_rises, bool) and isinstance(v.target, int) and 1 <= v.target <= 1000


EVERY_COMMAND_BAD_INPUT = [
    ["bid"],
    ["bid", "AKQ5.KJ4.T93.86"],
    ["bid", HAND, "--seat", "5"],
    ["bid", HAND, "--seat", "2"],
    ["bid", HAND, "--scores", "1,2,x,4"],
    ["bid", HAND, "--plot", "x.gif"],
    ["rules", "nosuch"],
    ["rules", "--target", "0"],
    ["score", "--bids", "2,2,2"],
    ["score", "--bids", "14,2,2,2"],
    ["score", "--bids", "4,4,4,4", "--tricks", "4,4,4,4"],
    ["score", "--scores", "41,0,3,0", "--bids", "2,2,2,2"],
    ["solve", "AK.-.-.- QJ.-.-.-"],
    ["solve"],
    ["solve", "--file", "/nonexistent/deals.txt"],
    ["play", "AK.-.-.- QJ.-.-.-"],
    ["play", "--file", "/nonexistent/deals.txt"],
    ["play", "AKQ5.KJ4.T93.862 JT98.AQ.AK7.QJ95 7643.T9875.Q5.A4 2.632.J8642.KT73", "--bids", "2,2,2,1"],
    ["simulate", "--matches", "0"],
    ["simulate", "--bidder", "nosuch"],
    ["simulate", "--csv", "x.xlsx"],
    ["variants", "nosuch"],
    ["variants", "qahwa:target=x"],
    ["duel", "--a", "nosuch/standard"],
    ["report", "--samples", "10"],
    ["report", "--out", "/nonexistent/dir/rep"],
    ["fit-bidder", "--deals", "10"],
    ["bench", "--seconds", "0"],
    ["nosuch"],
]


@pytest.mark.parametrize("args", EVERY_COMMAND_BAD_INPUT, ids=lambda a: " ".join(a) or "bare")
def test_every_command_answers_bad_input_in_one_line(args):
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("Error: ") and len(r.stderr.splitlines()) == 1, r.stderr
    assert "Traceback" not in r.output and r.stdout == ""


@pytest.mark.slow  # a whole report and a model fit: about a minute
def test_report_and_fit_bidder_json_is_strict(tmp_path):
    from analyzer import config

    with config.override(report_dd_deals=4, report_example_hands=1):
        r = CliRunner().invoke(cli, ["report", "--out", str(tmp_path / "r"), "--samples", "1000", "--matches", "5",
                                     "--json", "--no-progress"])  # fmt: skip
    assert r.exit_code == 0, r.output
    strict_json(r.stdout)
    r = CliRunner().invoke(cli, ["fit-bidder", "--deals", "10000", "--iterations", "1", "--out",
                                 str(tmp_path / "m.npz"), "--json"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert strict_json(r.stdout)["path"].endswith("m.npz")
    r = CliRunner().invoke(
        cli, ["bid", HAND, "--samples", "500", "--bidder-model", str(tmp_path / "m.npz"), "--json"]
    )
    assert r.exit_code == 0, r.output  # a fitted model is usable by the commands
