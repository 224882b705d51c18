"""Hostile files and full disks (issue 58): every reproduction of the audit is one `Error:` line
with the right exit status, and leaves the user's files, devices and pipes untouched.

Each test is one reproduction; a fifo in a temporary folder stands for a pipe, /dev/full (or a
stream that raises ENOSPC) for a full disk.
"""

import errno
import io
import json
import os
import re
import stat
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from conftest import page_app, random_deal, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.core import checkpoint, jsonfile, output
from analyzer.core.checkpoint import CheckpointFolder
from analyzer.core.errors import T400Error, WriteError
from analyzer.games.registry import read_records
from analyzer.reports import folder as report_folder
from cli import cli
from interrupt import interrupt_t400

HAND = "AKQ5.KJ4.T93.862"
DEAL = "AKQ5.KJ4.T93.862 JT98.AQ7.KQ2.A73 7643.T98.A87.KQ5 2.6532.J654.JT94"
RECORD = ("game 400; variant dananeer; scores 0,0,0,0; deal AKQ5.KJ4.T93.862 JT98.AQ7.KQ2.A73 "
          "7643.T98.A87.KQ5 2.6532.J654.JT94; bids 3,4,2,2")  # fmt: skip
DEEP = "[" * 5000 + "]" * 5000
HAS_FULL = os.path.exists("/dev/full")


def one_line(r, code):
    """The failed command's single `Error:` line (after the first-run compile notice, if any)."""
    assert r.exit_code == code, (r.exit_code, r.output)
    err = re.sub(r"^compiling kernels \([^)]*\)\.\.\.\n", "", r.stderr)
    assert err.startswith("Error: ") and err.count("\n") == 1, r.stderr
    assert "Traceback" not in r.output
    return err


def snapshot(folder):
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() and not p.is_symlink() else None)
            for p in sorted(folder.rglob("*"))}  # fmt: skip


# ---------------------------------------------------------------------------------------------
# 1. outputs: a folder the tool did not make, devices, pipes, links, a user's temporary name


@pytest.mark.parametrize("resume", [False, True])
def test_simulate_never_deletes_a_parts_folder_it_did_not_make(tmp_path, resume):
    out = tmp_path / "s2" / "results.csv"
    parts = tmp_path / "s2" / "results.csv.parts"
    parts.mkdir(parents=True)
    (parts / "notes.txt").write_text("the user's notes")
    (parts / "block-0-0.npz").write_bytes(b"the user's block")
    before = snapshot(tmp_path)
    r = run("simulate", "--matches", "20", "--csv", out, *(["--resume"] if resume else []))
    assert "not a t400 checkpoint" in one_line(r, 2)
    assert snapshot(tmp_path) == before and not out.exists()


@pytest.mark.parametrize("what", ["link", "file", "fifo"])
def test_simulate_refuses_a_parts_path_that_is_a_link_a_file_or_a_pipe(tmp_path, what):
    out = tmp_path / "results.csv"
    parts = tmp_path / "results.csv.parts"
    target = tmp_path / "elsewhere"
    target.mkdir()
    (target / "keep.txt").write_text("keep")
    if what == "link":
        parts.symlink_to(target)
    elif what == "file":
        parts.write_text("the user's file")
    else:
        os.mkfifo(parts)
    before = snapshot(tmp_path)
    r = run("simulate", "--matches", "20", "--csv", out)
    assert "not a t400 checkpoint" in one_line(r, 2)
    assert snapshot(tmp_path) == before
    assert os.path.islink(parts) if what == "link" else True


def test_a_checkpoint_folder_the_tool_made_is_cleaned_of_its_own_files_only(tmp_path):
    out = tmp_path / "h.csv"
    cp = CheckpointFolder(tmp_path / "h.csv.parts", "simulate", {"x": 1}, resume=False)
    cp.keep("block-0-0.npz", lambda f: f.write(b"old"))
    (tmp_path / "h.csv.parts" / "mine.txt").write_text("the user's")
    r = run("simulate", "--matches", "20", "--hands", out, "--json")
    assert r.exit_code == 0, r.output
    assert out.exists()
    assert sorted(p.name for p in (tmp_path / "h.csv.parts").iterdir()) == ["mine.txt"]


def reader_of(fifo):
    """Read the fifo in a thread (as `cat fifo` would); returns a list that gets its bytes."""
    got = []

    def read():
        with open(fifo, "rb") as f:
            got.append(f.read())

    t = threading.Thread(target=read, daemon=True)
    t.start()
    return got, t


def test_a_named_pipe_is_written_into_not_replaced(tmp_path):
    fifo = tmp_path / "out.csv"
    os.mkfifo(fifo)
    got, t = reader_of(fifo)
    r = run("simulate", "--matches", "20", "--csv", fifo)
    assert r.exit_code == 0, r.output
    t.join(10)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode), "the pipe is still a pipe"
    assert got and got[0].startswith(b"section,key,value")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv"], "no temporary file, no parts left"


def test_csv_to_dev_stdout_prints_the_table_and_keeps_no_parts_in_dev():
    p = subprocess.run([sys.executable, "-c", "import cli; cli.main()", "simulate", "--matches", "20", "--csv",
                        "/dev/stdout", "--no-progress"], capture_output=True, text=True, timeout=300)  # fmt: skip
    assert p.returncode == 0, p.stderr
    assert "section,key,value,se,low,high" in p.stdout
    assert not os.path.exists("/dev/stdout.parts") and not os.path.exists("/dev/null.parts")
    r = run("simulate", "--matches", "20", "--csv", "/dev/null", "--resume")
    assert "not a device or a pipe" in one_line(r, 2)


def test_a_link_is_written_through_and_stays_a_link(tmp_path):
    target = tmp_path / "real.csv"
    target.write_text("old")
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    r = run("simulate", "--matches", "20", "--csv", link)
    assert r.exit_code == 0, r.output
    assert link.is_symlink() and target.read_text().startswith("section,key,value")


@pytest.mark.skipif(not HAS_FULL, reason="no /dev/full")
def test_a_device_is_written_into_never_replaced_and_a_full_one_is_one_line(tmp_path):
    before = os.lstat("/dev/full")
    r = run("simulate", "--matches", "20", "--csv", "/dev/full")
    assert "No space left on device" in one_line(r, 1)
    after = os.lstat("/dev/full")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev, "/dev/full is still the device"
    r = run("simulate", "--matches", "20", "--csv", "/dev/null")
    assert r.exit_code == 0 and stat.S_ISCHR(os.lstat("/dev/null").st_mode)


def test_play_record_never_touches_a_users_tmp_file(tmp_path):
    rec = tmp_path / "rec.json"
    (tmp_path / "rec.json.tmp").write_text("the user's draft")
    r = run("play", DEAL, "--bids", "3,4,2,2", "--record", rec)
    assert r.exit_code == 0, r.output
    assert (tmp_path / "rec.json.tmp").read_text() == "the user's draft"
    assert json.loads(rec.read_text().splitlines()[0])["deal"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rec.json", "rec.json.tmp"]


def test_output_refuses_a_folder_a_socket_and_a_dangling_link(tmp_path):
    import socket

    (tmp_path / "dir").mkdir()
    (tmp_path / "dangling").symlink_to(tmp_path / "nothing")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(tmp_path / "sock"))
    try:
        for name, words in (("dir", "a folder"), ("dangling", "a link to nothing"), ("sock", "a socket")):
            with pytest.raises(T400Error, match=words):
                output.check(tmp_path / name, "--csv")
            with pytest.raises(WriteError):
                output.write_text(tmp_path / name, "x")
    finally:
        sock.close()
    assert (tmp_path / "dir").is_dir() and (tmp_path / "dangling").is_symlink()


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path):
    path = tmp_path / "table.csv"
    path.write_text("the old table")
    path.chmod(0o640)
    with pytest.raises(RuntimeError), output.open_output(path) as f:
        f.write("half")
        raise RuntimeError("stop")
    assert path.read_text() == "the old table" and os.listdir(tmp_path) == ["table.csv"]
    output.write_text(path, "new")
    assert path.read_text() == "new" and stat.S_IMODE(path.stat().st_mode) == 0o640, "permissions kept"


# ---------------------------------------------------------------------------------------------
# 2. checkpoints validated before use


def simulate_settings(matches, seed=0):
    from analyzer.games.t400 import matches as am

    lineup = am.Lineup.make()
    return {"command": "simulate", "seed": seed, "matches": matches, "record": False, "lineups": [lineup.settings()]}


@pytest.mark.parametrize(
    "block",
    [
        {"rows": "fifty times too many"},
        {"rows": "wrong dtype"},
        {"rows": "wrong width"},
        {"rows": "extra array"},
        {"rows": "objects"},
    ],
)
def test_a_tampered_simulate_block_is_computed_again_never_counted(tmp_path, block):
    from kernels.t400 import match as km

    out = tmp_path / "s.csv"
    fresh = run("simulate", "--matches", "30", "--seed", "4", "--json")
    assert fresh.exit_code == 0
    cp = CheckpointFolder(tmp_path / "s.csv.parts", "simulate", simulate_settings(30, 4), resume=False)
    kind = block["rows"]
    rows = np.ones((30 * 50 if kind.startswith("fifty") else 30, km.M_SIZE + (1 if kind == "wrong width" else 0)),
                   dtype=np.int64 if kind == "wrong dtype" else np.int32)  # fmt: skip
    arrays = {"rows": rows}
    if kind == "extra array":
        arrays["more"] = rows
    if kind == "objects":
        cp.keep("block-0-0.npz", lambda f: np.savez(f, rows=np.array([object()] * 3, dtype=object)))
    else:
        cp.keep("block-0-0.npz", lambda f: np.savez(f, **arrays))
    r = run("simulate", "--matches", "30", "--seed", "4", "--csv", out, "--resume", "--json")
    assert r.exit_code == 0, r.output
    a, b = json.loads(fresh.stdout), json.loads(r.stdout)
    assert b["matches"] == 30 and b["hands_per_match"] == a["hands_per_match"], "the block was computed again"


def test_a_valid_kept_block_is_used_on_resume(tmp_path):
    """The control of the test above: a block of the right shape is taken as it is (here one of
    another seed, so that its use shows in the figures)."""
    from analyzer.games.t400 import matches as am

    other = am.Lineup.make().play_block(5, 0, 30)
    cp = CheckpointFolder(tmp_path / "s.csv.parts", "simulate", simulate_settings(30, 4), resume=False)
    cp.keep("block-0-0.npz", lambda f: np.savez(f, **other))
    r = run("simulate", "--matches", "30", "--seed", "4", "--csv", tmp_path / "s.csv", "--resume", "--json")
    seed5 = run("simulate", "--matches", "30", "--seed", "5", "--json")
    assert json.loads(r.stdout)["hands_per_match"] == json.loads(seed5.stdout)["hands_per_match"]


@pytest.mark.parametrize("content", [b"{not json", b"[1, 2]", b"\xff\xfe\x00", DEEP.encode(), b"{}", b'"text"',
                                     json.dumps({"t400": "checkpoint", "version": 1, "kind": "simulate",
                                                 "settings": [], "settings_sha256": "x"}).encode()])  # fmt: skip
def test_a_tampered_simulate_marker_is_one_line_on_resume(tmp_path, content):
    parts = tmp_path / "s.csv.parts"
    parts.mkdir()
    (parts / checkpoint.MARKER).write_bytes(content)
    for args in (["--resume"], []):
        r = run("simulate", "--matches", "20", "--csv", tmp_path / "s.csv", *args)
        assert "not a t400 checkpoint" in one_line(r, 2)
    assert (parts / checkpoint.MARKER).read_bytes() == content


def test_a_marker_that_is_a_folder_or_a_link_is_one_line(tmp_path):
    parts = tmp_path / "s.csv.parts"
    (parts / checkpoint.MARKER).mkdir(parents=True)
    r = run("simulate", "--matches", "20", "--csv", tmp_path / "s.csv", "--resume")
    assert "not a t400 checkpoint" in one_line(r, 2)
    (parts / checkpoint.MARKER).rmdir()
    real = CheckpointFolder(tmp_path / "real", "simulate", {"x": 1}, resume=False)
    (parts / checkpoint.MARKER).symlink_to(real.path / checkpoint.MARKER)
    r = run("simulate", "--matches", "20", "--csv", tmp_path / "s.csv", "--resume")
    assert "not a t400 checkpoint" in one_line(r, 2)


# ---------------------------------------------------------------------------------------------
# 3. JSON readers: nesting, size, shape


def test_deeply_nested_review_records_are_one_line(tmp_path):
    one_line(run("review", DEEP), 2)
    f = tmp_path / "n.json"
    f.write_text(DEEP)
    assert "nested" in one_line(run("review", "--file", f), 2)
    f.write_text('{"deal": ' + DEEP + "}")
    assert "nested" in one_line(run("review", "--file", f), 2)


def test_an_empty_list_of_records_is_an_error_not_silence(tmp_path):
    assert "no hand record" in one_line(run("review", "[]"), 2)
    f = tmp_path / "e.json"
    f.write_text("# only a comment\n\n")
    assert "no hand record" in one_line(run("review", "--file", f), 2)


def test_a_huge_record_file_is_refused_before_it_is_read(tmp_path):
    f = tmp_path / "big.json"
    with open(f, "wb") as fh:
        fh.truncate(100 << 20)  # sparse: 100 MB that take no disk
    start = time.perf_counter()
    assert "larger than" in one_line(run("review", "--file", f), 2)
    assert time.perf_counter() - start < 5
    assert "a folder" in one_line(run("review", "--file", tmp_path), 2)


def test_deeply_nested_report_index_is_no_index(tmp_path):
    (tmp_path / report_folder.MARKER).write_text(DEEP)
    assert report_folder.read_index(tmp_path) is None
    (tmp_path / report_folder.MARKER).write_text('{"sha256": ' + "[" * 100 + "]" * 100 + "}")
    assert report_folder.read_index(tmp_path) is None


def test_the_page_answers_400_for_a_deeply_nested_review_record():
    from starlette.testclient import TestClient

    with TestClient(page_app(max_seconds=2), base_url="http://127.0.0.1:8400") as client:
        for body in ({"record": DEEP}, {"record": '{"deal": ' + DEEP + "}"}):
            r = client.post("/api/review", json=body)
            assert r.status_code == 400, r.text
            assert r.json()["error"].startswith("Error: ") and "\n" not in r.json()["error"]
        r = client.post("/api/review", content=b'{"record": ' + b"[" * 3000 + b"]" * 3000 + b"}",
                        headers={"Content-Type": "application/json"})  # fmt: skip
        assert r.status_code == 400 and "nested" in r.json()["error"]


JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False), st.text(max_size=20),
              st.sampled_from(["dananeer", "400", "tarneeb", "AKQ5.KJ4.T93.862", DEAL, "3,4,2,2", "SA"])),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["game", "variant", "scores", "deal", "bids", "calls", "trump", "cards", "sha256", "files",
                         "t400", "version", "kind", "settings", "settings_sha256", "x"]), inner, max_size=5),
    max_leaves=12,
)  # fmt: skip
TEXTS = st.one_of(
    JSON_VALUES.map(json.dumps),
    st.text(max_size=80),
    st.integers(1, 3000).map(lambda n: "[" * n + "]" * n),
    st.integers(1, 3000).map(lambda n: '{"a":' * n + "1" + "}" * n),
    st.binary(max_size=60).map(lambda b: b.decode("latin-1")),
)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(text=TEXTS)
def test_fuzz_every_json_reader_answers_or_says_one_line(tmp_path_factory, text):
    """Random and nested JSON to every reader: a value, ``None`` or one T400Error, never another
    exception (RecursionError, KeyError, TypeError, ...)."""
    from commands import cli as commands_cli
    from web.app import request_args

    folder = tmp_path_factory.mktemp("fuzz")
    for read in (
        lambda: read_records(text),
        lambda: jsonfile.loads(text, "input"),
        lambda: request_args(commands_cli.commands["review"], jsonfile.loads(text, "body")),
    ):
        try:
            read()
        except T400Error as exc:
            assert "\n" not in str(exc)
    for marker, reader in ((report_folder.MARKER, report_folder.read_index), (checkpoint.MARKER, checkpoint.read_marker)):
        (folder / marker).write_text(text, encoding="utf-8", errors="surrogatepass")
        value = reader(folder)
        assert value is None or isinstance(value, dict)


# ---------------------------------------------------------------------------------------------
# 4. a missing optional dependency


def test_a_scheduler_without_dask_says_which_extra_to_install(monkeypatch):
    for name in [m for m in sys.modules if m == "dask" or m.startswith("dask.") or m == "distributed"]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "dask", None)
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    r = run("simulate", "--matches", "2000", "--scheduler", "local:2")
    assert "pip install 'tarneeb400[distributed]'" in one_line(r, 1)


# ---------------------------------------------------------------------------------------------
# 5. standard output and plots that cannot be written


class FullStream(io.TextIOBase):
    """Standard output on a full disk (or, with ``error=BrokenPipeError``, a closed pipe)."""

    def __init__(self, error=None):
        self.error = error or OSError(errno.ENOSPC, "No space left on device")

    def write(self, s):
        raise self.error

    def flush(self):
        raise self.error

    def writable(self):
        return True


@pytest.mark.parametrize("args", [["rules"], ["--help"], ["score", "--bids", "3,4,2,2", "--tricks", "4,4,3,2"],
                                  ["rules", "--json"]])  # fmt: skip
def test_a_full_standard_output_is_one_line_and_exit_1(monkeypatch, capsys, args):
    monkeypatch.setattr(sys, "stdout", FullStream())
    with pytest.raises(SystemExit) as ended:
        cli.main(args, prog_name="t400")
    assert ended.value.code == 1
    err = capsys.readouterr().err
    assert err == "Error: cannot write the output: No space left on device\n", err


def test_a_closed_pipe_ends_quietly(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdout", FullStream(BrokenPipeError(errno.EPIPE, "Broken pipe")))
    with pytest.raises(SystemExit) as ended:
        cli.main(["rules"], prog_name="t400")
    # quiet: no line at all (click's own convention gives status 1 to a closed pipe)
    assert ended.value.code in (0, 1) and capsys.readouterr().err == ""


@pytest.mark.skipif(not HAS_FULL, reason="no /dev/full")
@pytest.mark.parametrize("args", [["bid", HAND, "--samples", "256"], ["rules"], ["--help"],
                                  ["solve", "AKQ.-.-.- 432.-.-.- JT9.-.-.- 876.-.-.-"]])  # fmt: skip
def test_standard_output_on_dev_full_in_a_real_process(args):
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-c", "import cli; cli.main()", *args], stdout=full,
                           stderr=subprocess.PIPE, text=True, timeout=300)  # fmt: skip
    err = re.sub(r"^compiling kernels \([^)]*\)\.\.\.\n", "", p.stderr)
    assert p.returncode == 1 and err == "Error: cannot write the output: No space left on device\n", p.stderr


def test_a_closed_pipe_in_a_real_process_ends_quietly():
    p = subprocess.Popen([sys.executable, "-c", "import cli; cli.main()", "rules", "--json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    p.stdout.read(10)
    p.stdout.close()  # `t400 rules --json | head -c 10`
    err = p.stderr.read().decode()
    p.wait(60)
    assert err == "" and p.returncode in (0, 1), err


@pytest.mark.skipif(not HAS_FULL, reason="no /dev/full")
def test_a_plot_on_a_full_disk_is_one_line(tmp_path):
    link = tmp_path / "plot.png"
    link.symlink_to("/dev/full")
    r = run("variants", "dananeer", "qahwa", "--matches", "20", "--plot", link)
    assert "No space left on device" in one_line(r, 1)
    assert link.is_symlink() and stat.S_ISCHR(os.stat("/dev/full").st_mode)


# ---------------------------------------------------------------------------------------------
# 6. the kernel cache is never a shared, predictable folder


def test_the_fallback_kernel_cache_is_private_and_checked(tmp_path):
    from kernels.config import private_folder

    mine = tmp_path / "cache"
    assert private_folder(mine) and stat.S_IMODE(mine.stat().st_mode) == 0o700
    assert private_folder(mine), "the same folder again"
    open_to_all = tmp_path / "open"
    open_to_all.mkdir()
    open_to_all.chmod(0o777)
    assert not private_folder(open_to_all)
    link = tmp_path / "link"
    link.symlink_to(mine)
    assert not private_folder(link)
    if os.geteuid() == 0:  # a folder another account made first
        theirs = tmp_path / "theirs"
        theirs.mkdir(mode=0o700)
        os.chown(theirs, 65534, 65534)
        assert not private_folder(theirs)


# ---------------------------------------------------------------------------------------------
# 7. Ctrl-C within about a second, in a batch of full tables


def test_ctrl_c_during_a_batch_of_tables_ends_within_seconds(tmp_path):
    import random

    from analyzer.core.notation import Deal, Hand

    rng = random.Random(5)
    deals = [str(Deal(tuple(Hand(h) for h in random_deal(rng)))) for _ in range(400)]
    f = tmp_path / "deals.txt"
    f.write_text("\n".join(deals) + "\n")
    printed = tmp_path / "out.txt"
    sent = {}

    def ready():  # the batch has printed its first results: Ctrl-C lands in the solving
        if printed.exists() and printed.read_text().count("\n") >= 1:
            sent["at"] = time.time()
            return True
        return False

    code, out, err = interrupt_t400(["solve", "--file", f, "--table", "--threads", "2"], ready, stdout=printed)
    elapsed = time.time() - sent["at"]
    assert code == 130 and err.strip().splitlines()[-1].startswith("Error: interrupted after"), err
    assert elapsed < 3.0, f"{elapsed:.1f} s from Ctrl-C to the end"
    lines = out.splitlines()
    assert 1 <= len(lines) < 400 and all(line.startswith("line ") for line in lines)
    assert f"after {len(lines):,} of 400 deals" in err, "every finished deal printed, and said"
