"""The heuristic against an earlier commit's heuristic, every game at its defaults and two other
option sets, and the card-play gap to PIMC (BENCHMARKS.md, "The heuristic, before and after").

    python benchmarks/heuristic_gain.py --ref 9814506 [--deals 20000] [--gap-deals 300] [--games ...]

Each line is ``tricksim.compare`` on duplicate deals: today's heuristic (A) against the one of
``--ref`` (B, ``benchmarks/baseline.py``), A's mean score per deal minus B's with a 95 % interval.
With ``--gap-deals`` it also measures ``pimc:worlds=50:bidding=0`` against the heuristic at the
defaults (card play alone: PIMC's bids are the heuristic's); the earlier gaps are BENCHMARKS.md's
"Search agents' strength".
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
GAP_OPTIONS = {"fiftyfive": {"players": 4}, "bluke": {"players": 4}}  # as BENCHMARKS.md's strength table
GAP_AGENT = "pimc:worlds=50:bidding=0"


def _line(name, options, a, b, deals, seed, workers):
    start = time.perf_counter()
    r = tricksim.compare(name, a, b, hands=deals, seed=seed, workers=workers, **options)
    mean, low, high = r["difference"]
    shown = " ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
    minutes = (time.perf_counter() - start) / 60
    shown_b = "heuristic of " + b.rsplit("=", 1)[1] if b.startswith("python:") else b
    print(f"| {name} | {shown} | {a} | {shown_b} | {deals:,} | {mean:+.3f} | [{low:+.3f}, {high:+.3f}] | {minutes:.1f} |",
          flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ref", required=True, help="the earlier commit")
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--gap-deals", type=int, default=0)
    parser.add_argument("--seed", type=int, default=777)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--games", default=",".join(OPTION_SETS))
    args = parser.parse_args()
    baseline = f"python:benchmarks/baseline.py:Baseline:ref={args.ref}"
    print("| game | options | A | B | deals | A − B per deal | 95 % interval | minutes |\n|---|---|---|---|---:|---:|---|---:|")
    for name in args.games.split(","):
        for options in OPTION_SETS[name]:
            _line(name, options, "heuristic", baseline, args.deals, args.seed, args.workers)
        if args.gap_deals:
            _line(name, GAP_OPTIONS.get(name, {}), GAP_AGENT, "heuristic", args.gap_deals, args.seed, args.workers)


if __name__ == "__main__":
    main()
