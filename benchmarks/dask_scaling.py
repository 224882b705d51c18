"""Dask scale-out: complete matches/s on a local cluster of 1 worker and of 2 workers.

Each worker is a process with one thread (and one kernel thread). Workers are started and
warmed up (kernels loaded from the disk cache) before the clock starts; each configuration is
timed ``--repeats`` times on ``--matches`` matches and the median is reported, with the ratio
of the two medians. Run: ``python benchmarks/dask_scaling.py --matches 2000000``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from dask.distributed import Client, LocalCluster

from analyzer.games.t400.matches import simulate_matches, summarize_matches


def timed_runs(workers: int, matches: int, repeats: int, seed: int) -> tuple[list[float], dict]:
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=50) as cluster, Client(cluster) as client:  # fmt: skip
        simulate_matches("dananeer", 64 * workers, seed=seed, scheduler=client)  # warm every worker
        client.run(lambda: simulate_matches("dananeer", 64, seed=seed, threads=1))
        times, summary = [], None
        for _ in range(repeats):
            start = time.perf_counter()
            df = simulate_matches("dananeer", matches, seed=seed, scheduler=client)
            times.append(time.perf_counter() - start)
            summary = summarize_matches(df)
    return times, summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    out = {"matches": args.matches, "repeats": args.repeats}
    summaries = {}
    for workers in (1, 2):
        times, summaries[workers] = timed_runs(workers, args.matches, args.repeats, args.seed)
        out[f"{workers}_worker_s"] = times
        out[f"{workers}_worker_matches_per_s"] = args.matches / statistics.median(times)
    out["speedup"] = out["2_worker_matches_per_s"] / out["1_worker_matches_per_s"]
    out["identical_results"] = summaries[1] == summaries[2]
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
