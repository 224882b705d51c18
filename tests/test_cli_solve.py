"""`t400 solve` through click's CliRunner."""

import json

import pytest
from conftest import run

DEAL = "AKQ5.KJ4.T93.862 JT98.AQ.AK7.QJ95 7643.T9875.Q5.A4 2.632.J8642.KT73"


def test_solve_one_deal_json():
    r = run("solve", DEAL, "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["tricks"] == 7 and data["side"] == [1, 3] and data["mode"] == "team"


def test_solve_solo_and_other_leader():
    r = run("solve", DEAL, "--mode", "solo", "--player", "3", "--json")
    assert json.loads(r.stdout)["tricks"] == 3
    r = run("solve", DEAL, "--leader", "2", "--trump", "none", "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["side"] == [2, 4]


def test_solve_cards():
    r = run("solve", DEAL, "--cards", "--json")
    cards = json.loads(r.stdout)["cards"]
    assert cards["HK"] == 7 and cards["S5"] == 4 and len(cards) == 13
    r = run("solve", DEAL, "--cards")
    assert "♥K" in r.stdout and "seats 1+3 take 7 of 13 tricks" in r.stdout


def test_solve_batch_from_stdin_in_input_order(tmp_path):
    text = f"# two deals\n{DEAL}\n\nA.-.-.- -.A.-.- -.-.A.- -.-.-.A\n"
    r = run("solve", "--file", "-", "--trump", "none", input=text)
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines() == ["line 2: 4", "line 4: 1"]  # each result names its line
    path = tmp_path / "deals.txt"
    path.write_text(text)
    r = run("solve", "--file", str(path), "--json")
    data = json.loads(r.stdout)
    assert [d["tricks"] for d in data] == [7, 0]  # hearts: seat 2 ruffs the spade ace
    assert [d["line"] for d in data] == [2, 4]


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["AKQ5.KJ4.T93.86 JT98.AQ.AK7.QJ95 7643.T9875.Q5.A4 2.632.J8642.KT73"], "hand 1"),
        (
            ["AKQ5.KJ4.T93.862 AT98.AQ.AK7.QJ95 7643.T9875.Q5.A4 2.632.J8642.KT73"],
            "card SA is in hand 1 and in hand 2",
        ),
        (["AK.-.-.- QJ.-.-.- T9.-.-.- 8.-.-.-"], "the same number of cards"),
        (["AK.-.-.- QJ.-.-.-"], "a deal needs 4 hands"),
        ([DEAL, "--trump", "purple"], "--trump"),
        ([], "give one DEAL"),
    ],
)
def test_solve_bad_input(args, fragment):
    r = run("solve", *args)
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("Error: ") and fragment in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_solve_bad_batch_line():
    r = run("solve", "--file", "-", input=f"{DEAL}\nAK.-.-.- QJ.-.-.-\n")
    assert r.exit_code == 2 and "- line 2" in r.stderr


def test_ctrl_c_keeps_the_finished_results(tmp_path):
    import json

    from analyzer.core.notation import Hand
    from analyzer.games.t400.simulate import deal_hands
    from interrupt import interrupt_t400

    hands = deal_hands(3000, seed=9)
    path = tmp_path / "deals.txt"
    path.write_text("\n".join(" ".join(str(Hand(int(h))) for h in row) for row in hands) + "\n")
    for as_json in (False, True):
        printed = tmp_path / f"out-{as_json}.txt"

        def ready(printed=printed):  # a block of results printed: Ctrl-C lands while it solves
            return printed.exists() and "line" in printed.read_text()

        code, out, err = interrupt_t400(
            ["solve", "--file", path, "--threads", "1", *(["--json"] if as_json else [])], ready, stdout=printed
        )
        assert code == 130, err
        assert err.startswith("Error: interrupted after") and "of 3,000 deals" in err
        done = int(err.split("after ")[1].split(" of")[0].replace(",", ""))
        assert 0 < done < 3000 and done % 64 == 0
        results = (
            [r["tricks"] for r in json.loads(out)]
            if as_json
            else [int(x.split(": ")[1]) for x in out.splitlines()]
        )
        assert len(results) == done


def test_solve_table_gives_every_trump_and_leader():
    r = run("solve", DEAL, "--table", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["side"] == [1, 3] and data["leaders"] == [1, 2, 3, 4]
    assert list(data["table"]) == ["spades", "hearts", "diamonds", "clubs", "none"]
    for trump, row in data["table"].items():  # each cell is the one-result solve
        for leader in (1, 2):
            one = json.loads(run("solve", DEAL, "--trump", trump, "--leader", str(leader), "--json").stdout)
            assert row[leader - 1] == (one["tricks"] if leader % 2 else 13 - one["tricks"])
    text = run("solve", DEAL, "--table").stdout
    assert "seat 4 leads" in text and text.splitlines()[4].split() == ["hearts", "7", "6", "7", "6"]


def test_solve_table_batch_and_what_does_not_apply():
    r = run(
        "solve", "--file", "-", "--table", input=f"{DEAL}\n# an ending\nA.-.-.- -.A.-.- -.-.A.- -.-.-.A\n"
    )
    assert r.exit_code == 0, r.output
    assert (
        r.stdout.splitlines()[1]
        == "line 3: spades 1 1 1 1 | hearts 0 0 0 0 | diamonds 1 1 1 1 | clubs 0 0 0 0 | none 1 0 1 0"
    )
    r = run("solve", DEAL, "--table", "--trump", "none", "--mode", "solo")
    assert (
        r.exit_code == 2
        and r.stderr == "Error: --table solves every trump and leader in team mode; drop --trump, --mode\n"
    )
