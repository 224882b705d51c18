"""How fast the double-dummy bid models go: deals a second a thread, the rate behind the time
that ``t400 bid --model dd`` (and ``solo-dd``, and ``--game tarneeb --model dd``) says a long
run will take.

Each model answers a fixed set of questions (the hands below, one thread, seed 0) after one
throw-away answer that compiles its kernels; a question's rate is its deals over its seconds not
counting compiling, and a model's figure is all its deals over all its seconds. Usage:
``python benchmarks/dd_rates.py [--deals 16] [--json] [--write]``. ``--write`` keeps the figures in
``analyzer/data/dd_rates.json`` (with the date, the machine and this command), where the commands
read them.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path

from analyzer.bench import machine

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "analyzer" / "data" / "dd_rates.json"

#: (hand, seat, earlier bids): a seat-1 hand with no earlier bids, and later seats after bids.
HANDS_400 = [
    ("AKQ5.KJ4.T93.862", 1, ()),
    ("73.AK542.A2.KQ93", 1, ()),
    ("QJ9.Q97.AKJ5.T84", 2, (4,)),
    ("A5.AKQ73.KQ4.J82", 4, (3, 4, 2)),
]
#: (hand, seat, the calls so far) for Tarneeb (preset ``tarneeb``).
HANDS_TARNEEB = [
    ("A5.AKQJ9843.K3.2", 2, ("pass",)),
    ("K84.Q73.J652.K94", 3, ("7", "pass")),
    ("AK5.KQ73.Q84.J82", 1, ()),
]


def rate_400(model: str, deals: int) -> list[tuple[int, float]]:
    from analyzer.games.t400.advice import recommend_bid

    recommend_bid(HANDS_400[0][0], model=model, samples=1, threads=1)  # compile
    runs = []
    for hand, seat, bids in HANDS_400:
        r = recommend_bid(hand, seat=seat, bids=bids, model=model, samples=deals, threads=1)
        runs.append((deals, r.elapsed_s))
    return runs


def rate_tarneeb(deals: int) -> list[tuple[int, float]]:
    from analyzer.games.tarneeb.advice import recommend_call

    recommend_call(HANDS_TARNEEB[0][0], seat=2, auction=["pass"], model="dd", samples=1, threads=1)  # compile
    runs = []
    for hand, seat, calls in HANDS_TARNEEB:
        r = recommend_call(hand, seat=seat, auction=list(calls), model="dd", samples=deals, threads=1)
        runs.append((deals, r.elapsed_s))
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=16, help="deals a question (default 16)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--write", action="store_true", help="keep the figures in analyzer/data/dd_rates.json")
    a = parser.parse_args()
    models = {}
    for key, runs in (
        ("dd", rate_400("dd", a.deals)),
        ("solo-dd", rate_400("solo-dd", 4 * a.deals)),
        ("tarneeb-dd", rate_tarneeb(2 * a.deals)),
    ):
        rate = sum(n for n, _ in runs) / sum(s for _, s in runs)
        models[key] = {"deals_per_s": round(rate, 3),
                       "questions": [{"deals": n, "seconds": round(s, 2)} for n, s in runs]}  # fmt: skip
        print(f"{key:10s} {rate:8.3f} deals/s a thread (each question, deals a second: "
              f"{', '.join(f'{n / s:.2f}' for n, s in runs)})", file=sys.stderr)  # fmt: skip
    out = {
        "made_by": "python benchmarks/dd_rates.py --write" + ("" if a.deals == 16 else f" --deals {a.deals}"),
        "date": datetime.date.today().isoformat(),
        "machine": machine(),
        "threads": 1,
        "models": models,
    }
    if a.json:
        print(json.dumps(out, indent=1))
    if a.write:
        DATA.write_text(json.dumps(out, indent=1) + "\n")
        print(f"wrote {DATA.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
