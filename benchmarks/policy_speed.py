"""Full-hand throughput of play policies, measured in one run (interleaved, median of repeats).

Four EV bots bid random deals and all four seats play with one policy (``kernels.t400.rollout.
full_hands``); the same seeds for every policy. Usage: ``python benchmarks/policy_speed.py
[--policies standard,basic,greedy] [--deals 200000] [--repeats 5] [--threads 1] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from analyzer.core.runtime import threads_used
from analyzer.games.t400 import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--policies", default="standard,basic,greedy")
    parser.add_argument("--deals", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    policies = args.policies.split(",")
    for p in policies:  # compile / load, not timed
        simulate.simulate_full_hands(2048, seed=0, policy=p, threads=args.threads)
    times: dict[str, list[float]] = {p: [] for p in policies}
    with threads_used(args.threads):
        for r in range(args.repeats):
            for p in policies:
                t0 = time.perf_counter()
                simulate.simulate_full_hands(args.deals, seed=r + 1, policy=p, threads=args.threads)
                times[p].append(time.perf_counter() - t0)
    rate = {p: args.deals / statistics.median(t) for p, t in times.items()}
    result = {"deals": args.deals, "repeats": args.repeats, "threads": args.threads, "hands_per_s": rate,
              "ratio_to_first": {p: rate[p] / rate[policies[0]] for p in policies}}  # fmt: skip
    if args.json:
        print(json.dumps(result, indent=2))
        return
    for p in policies:
        print(f"{p:>10}: {rate[p]:>12,.0f} full hands/s (median of {args.repeats}, {args.threads} thread(s)); "
              f"{rate[p] / rate[policies[0]]:.2f}x {policies[0]}")  # fmt: skip


if __name__ == "__main__":
    main()
