"""The heuristic against an earlier commit's heuristic, every game at its defaults and two other
option sets (BENCHMARKS.md, "The heuristic, before and after"); the card-play gap to PIMC is
``benchmarks/strength.py``'s.

    python benchmarks/heuristic_gain.py --ref 9814506 [--deals 20000] [--seed 777] [--games ...]

Each line is ``tricksim.compare`` on duplicate deals: today's heuristic (A) against the one of
``--ref`` (B, ``benchmarks/baseline.py``), A's mean score per deal minus B's with a 95 % interval.
"""

from __future__ import annotations

import argparse
import time

import tricksim

OPTION_SETS = {
    "sheepshead": ({}, {"no_call": "unknown", "no_pick": "doubler", "double_on_bump": True},
                   {"partner": "jack_of_diamonds", "no_pick": "forced"}),
    "fiftyfive": ({}, {"players": 4, "teams": 2}, {"players": 6, "exchange": 3, "bid_values": "20 25 30 60"}),
    "shmear": ({}, {"teams": 2}, {"may_trump": True}),
    "nesmear": ({}, {"widow": 0}, {"go_out": "bid_only", "high_low": "in_play"}),
    "bluke": ({}, {"players": 6, "hook": True}, {"players": 3, "min_bid": 0, "bluke_lead": "next_sets_suit"}),
}


def _line(name, options, ref, deals, seed, workers):
    start = time.perf_counter()
    baseline = f"python:benchmarks/baseline.py:Baseline:ref={ref}"
    r = tricksim.compare(name, "heuristic", baseline, hands=deals, seed=seed, workers=workers, **options)
    mean, low, high = r["difference"]
    shown = " ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
    minutes = (time.perf_counter() - start) / 60
    print(f"| {name} | {shown} | heuristic | heuristic of {ref} | {deals:,} | {mean:+.3f} | [{low:+.3f}, {high:+.3f}] "
          f"| {minutes:.1f} |", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ref", required=True, help="the earlier commit")
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=777)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--games", default=",".join(OPTION_SETS))
    args = parser.parse_args()
    print("| game | options | A | B | deals | A − B per deal | 95 % interval | minutes |\n"
          "|---|---|---|---|---:|---:|---|---:|")
    for name in args.games.split(","):
        for options in OPTION_SETS[name]:
            _line(name, options, args.ref, args.deals, args.seed, args.workers)


if __name__ == "__main__":
    main()
