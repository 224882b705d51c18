"""The first answer: wall time of each main command in a fresh process, with an empty kernel
cache (what a player who just installed tarneeb400 waits) and with a warm one.

Each command runs as ``python -m cli ...`` with ``NUMBA_CACHE_DIR`` pointing at a new empty
folder (cold), then again with the same folder (warm, ``--repeats`` times, the median). The
kernels a command compiled are the cache files it wrote, counted by their source file. ``serve``
is the first answer of ``/api/bid`` from a server started in the same way (start-up included).
Usage: ``python benchmarks/cold_start.py [--only bid,play] [--repeats 3] [--json] [--write]``.
``--write`` keeps the figures in ``analyzer/data/cold_start.json`` (with the date, the machine
and the stamp of the compile budget they were measured under: re-run it whenever the budget
changes, which a test holds), where a command's first-run notice reads its compile time (cold
minus warm).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from analyzer.bench import machine
from analyzer.core.compiles import budget_stamp

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "analyzer" / "data" / "cold_start.json"
HAND = "AKQ5.KJ4.T93.862"
DEAL = "AKQ5.KJ4.T93.862 J94.A2.KQ86.QJ73 T876.Q9876.54.54 32.T53.AJ72.AKT9"
ENDING = "AKQ.-.-.- 432.-.-.- JT9.-.-.- 876.-.-.-"

#: README's review example: a 400 hand with its bids and first three tricks.
REVIEW = ("game 400; variant dananeer; scores 0,0,0,0; deal AKQ5.KJ4.T93.862 JT9.AQ7.KQ5.AKQ3 8743.T986.A76.T9 "
          "62.532.J842.J754; bids 3,5,2,2; play SA S9 S3 S2 SK ST S4 S6 SQ SJ S7 H2")  # fmt: skip

COMMANDS = {
    "bid": ["bid", HAND],
    "bid-win": ["bid", "--objective", "win", "--scores", "38,0,35,0", "A5.AKQ73.KQ4.J82"],
    "bid-dd": ["bid", HAND, "--model", "dd", "--samples", "16"],
    "bid-tarneeb": ["bid", "--game", "tarneeb", "A5.AKQJ9843.K3.2", "--seat", "2", "--auction", "pass"],
    "solve": ["solve", DEAL],
    "solve-bids": [
        "solve",
        ENDING,
        "--mode",
        "bids",
        "--bids",
        "2,2,2,2",
        "--won",
        "3,3,2,2",
        "--trump",
        "none",
    ],
    "play": ["play", DEAL, "--bids", "4,3,3,3"],
    "simulate": ["simulate", "--matches", "200"],
    "simulate-tarneeb": ["simulate", "--game", "tarneeb", "--matches", "50"],
    "review": ["review", REVIEW, "--samples", "4000"],
    "card": ["card", "62.532.J842.J754", "--seat", "4", "--bids", "3,5,2,2", "--play", "SA S9 S3 S2 SK ST S4 S6 SQ SJ S7 H2"],
    "card-tarneeb": ["card", HAND, "--seat", "1", "--game", "tarneeb", "--auction", "7,pass,pass,pass", "--trump", "S",
                     "--play", "SA S9 S3 S2"],
    "serve": None,
}


def run(args: list[str], cache: Path) -> float:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "cli", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    took = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"t400 {' '.join(args)} failed: {done.stderr.strip()[-500:]}")
    return took


def serve_first_answer(cache: Path) -> float:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", str(port)], cwd=ROOT, env=env,
                            stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        body = json.dumps({"hand": HAND}).encode()
        while True:
            try:
                request = urllib.request.Request(f"http://127.0.0.1:{port}/api/bid", data=body,
                                                 headers={"Content-Type": "application/json"})  # fmt: skip
                with urllib.request.urlopen(request, timeout=600) as answer:
                    answer.read()
                return time.perf_counter() - t0
            except (ConnectionRefusedError, urllib.error.URLError) as exc:
                if not isinstance(getattr(exc, "reason", exc), ConnectionRefusedError):
                    raise
                time.sleep(0.05)
    finally:
        proc.terminate()
        proc.wait(30)


def compiled_kernels(cache: Path) -> dict[str, int]:
    """Cached kernel entries (``.nbc`` files) by kernel source file."""
    counts = collections.Counter()
    for f in cache.rglob("*.nbc"):
        counts[f.name.split(".")[0]] += 1
    return dict(sorted(counts.items()))


def measure(name: str, repeats: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="t400-cold-") as folder:
        cache = Path(folder)
        once = (
            (lambda: serve_first_answer(cache)) if name == "serve" else (lambda: run(COMMANDS[name], cache))
        )
        cold = once()
        kernels = compiled_kernels(cache)
        warm = statistics.median(once() for _ in range(repeats))
    return {"command": name, "args": COMMANDS[name], "cold_s": round(cold, 2), "warm_s": round(warm, 2),
            "kernels": kernels}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated commands: " + ", ".join(COMMANDS))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--write", action="store_true", help="keep the figures in " + str(DATA.relative_to(ROOT))
    )
    opts = parser.parse_args()
    names = opts.only.split(",") if opts.only else list(COMMANDS)
    unknown = [n for n in names if n not in COMMANDS]
    if unknown:
        parser.error(f"unknown commands {unknown}; known: {', '.join(COMMANDS)}")
    rows = []
    for name in names:
        print(f"{name} ...", file=sys.stderr, flush=True)
        try:
            rows.append(measure(name, opts.repeats))
        except SystemExit as failed:  # one failing command does not lose the others' figures
            print(failed, file=sys.stderr, flush=True)
            rows.append({"command": name, "args": COMMANDS[name], "error": str(failed)})
            continue
        r = rows[-1]
        print(f"{name:18} cold {r['cold_s']:7.1f} s  warm {r['warm_s']:5.2f} s  compiled: "
              + ", ".join(f"{k} {v}" for k, v in r["kernels"].items()), flush=True,
              file=sys.stderr if opts.json else sys.stdout)  # fmt: skip
    if opts.json:
        print(json.dumps(rows, indent=1))
    if opts.write:
        write(rows)


def write(rows: list[dict]) -> None:
    """Merge ``rows`` into :data:`DATA` (commands measured before and not now are kept)."""
    try:
        kept = json.loads(DATA.read_text())["commands"]
    except (OSError, ValueError, KeyError):
        kept = {}
    stamp = budget_stamp()
    for r in rows:
        if "error" not in r:
            kept[r["command"]] = {"cold_s": r["cold_s"], "warm_s": r["warm_s"], "kernels": r["kernels"],
                                  "measured": time.strftime("%Y-%m-%d"), "budget": stamp}  # fmt: skip
    data = {
        "made_by": "python benchmarks/cold_start.py --write",
        "machine": machine(),
        "commands": dict(sorted(kept.items())),
    }
    DATA.write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    main()
