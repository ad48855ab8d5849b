"""PIMC and ISMCTS against the heuristic agent on duplicate deals, every game (BENCHMARKS.md,
"Search agents' strength").

Each line is ``tricksim.compare``: the same deals played with the search agent in each seat (or
team) in turn and the heuristic in the others, against the heuristic everywhere; the figure is
the search agent's mean score per deal minus the heuristic's, with a 95 % interval. ``card play``
lines leave the decisions before the card play to the heuristic (``bidding=0``), so they measure
card play alone.

    python benchmarks/strength.py [--deals 500] [--workers 2] [--games ...] [--agents ...]
"""

from __future__ import annotations

import argparse
import time

import tricksim

GAMES = {"sheepshead": {}, "fiftyfive": {"players": 4}, "shmear": {}, "nesmear": {}, "bluke": {"players": 4}}
AGENTS = ("pimc:worlds=50:bidding=0", "ismcts:iters=2000:bidding=0", "pimc:worlds=50", "ismcts:iters=2000")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--agents", default=",".join(AGENTS))
    args = parser.parse_args()
    print("| game | agent | deals | search − heuristic per deal | 95 % interval | minutes |\n|---|---|---:|---:|---|---:|")
    for name in args.games.split(","):
        for agent in args.agents.split(","):
            start = time.perf_counter()
            r = tricksim.compare(name, agent, "heuristic", hands=args.deals, seed=2026, workers=args.workers,
                                 **GAMES[name])
            mean, low, high = r["difference"]
            minutes = (time.perf_counter() - start) / 60
            print(f"| {name} | {agent} | {args.deals:,} | {mean:+.3f} | [{low:+.3f}, {high:+.3f}] | {minutes:.1f} |",
                  flush=True)


if __name__ == "__main__":
    main()
