"""Bots of the user's own: what a decision costs tricksim through a trivial Python agent and a
trivial ``exec:`` bot, every seat of Sheepshead the bot, on one worker and on two
(``--workers 2``), and 10,000 duplicate Sheepshead deals of a trivial ``exec:`` bot against the
heuristic (the node bot, where node is installed).

    python benchmarks/bench_bots.py [--hands 4000] [--repeats 3] [--duplicate 10000]

The trivial bots answer their first legal action: the Python agent ``view.legal_ids[0]``, the
programs ``benchmarks/bots/first_legal.py`` and ``first_legal.js`` (node). An ``exec:`` bot's own
time per request is measured apart, by feeding it the same requests from a file, and taken off
its round trip: what is left is tricksim's side (the view, JSON, the pipe and the switch between
the processes). The contenders take turns, repeat after repeat; the figures are medians.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import tricksim

HERE = Path(__file__).parent / "bots"
BOTS = {"exec: python": f"exec:{sys.executable} {HERE / 'first_legal.py'}",
        "exec: node": f"exec:node {HERE / 'first_legal.js'}"}


class FirstLegal:
    """The trivial Python agent; counts its decisions (in this process)."""

    decisions = 0

    def act(self, view):
        FirstLegal.decisions += 1
        return view.legal_ids[0]


class Requests:
    """A Python agent that keeps the ``exec:`` requests it would have been sent."""

    def __init__(self):
        self.lines = []

    def act(self, view):
        self.lines.append(json.dumps({"type": "act", **view.to_dict()}, separators=(",", ":")))
        return view.legal_ids[0]


def own_time(command: str, lines: list[str]) -> float:
    """Seconds a bot takes per request on its own: fed from a file, less its start with no input."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.write("\n".join(lines) + "\n")
    argv = command.removeprefix("exec:").split()

    def run(path):
        start = time.perf_counter()
        with open(path) as given:
            subprocess.run(argv, stdin=given, stdout=subprocess.DEVNULL, check=True)
        return time.perf_counter() - start

    full = statistics.median(run(f.name) for _ in range(3))
    empty = statistics.median(run("/dev/null") for _ in range(3))
    return max(0.0, full - empty) / len(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--duplicate", type=int, default=10_000)
    args = parser.parse_args()
    bots = {name: spec for name, spec in BOTS.items() if "node" not in name or shutil.which("node")}
    agent = FirstLegal()
    contenders = {"python:": agent} | bots
    for spec in contenders.values():  # compile and start once
        tricksim.simulate("sheepshead", hands=20, agents=spec, progress=False)
    FirstLegal.decisions = 0
    tricksim.simulate("sheepshead", hands=args.hands, agents=agent, progress=False)
    decisions = FirstLegal.decisions
    times = {(name, w): [] for name in contenders for w in (1, 2)}
    for _ in range(args.repeats):
        for (name, workers), runs in times.items():
            start = time.perf_counter()
            tricksim.simulate("sheepshead", hands=args.hands, agents=contenders[name], workers=workers,
                              progress=False)
            runs.append(time.perf_counter() - start)
    keeper = Requests()
    tricksim.simulate("sheepshead", hands=min(args.hands, 1000), agents=keeper, progress=False)
    own = {name: own_time(spec, keeper.lines) for name, spec in bots.items()}
    print(f"Sheepshead, every seat the bot, {args.hands:,} hands ({decisions:,} decisions), median of "
          f"{args.repeats}\n")
    print("| bot | workers | decisions/s | µs a decision | the bot's own µs | tricksim's µs |")
    print("|---|---|---|---|---|---|")
    for (name, workers), runs in times.items():
        per = statistics.median(runs) / decisions * 1e6
        mine = own.get(name, 0.0) * 1e6
        print(f"| {name} | {workers} | {decisions / statistics.median(runs):,.0f} | {per:.1f} | "
              f"{mine:.1f} | {per - mine if workers == 1 else per * workers - mine:.1f} |")
    name, spec = list(bots.items())[-1]  # node where it is installed
    for workers in (1, 2):
        start = time.perf_counter()
        r = tricksim.compare("sheepshead", spec, "heuristic", hands=args.duplicate, workers=workers)
        print(f"\n{args.duplicate:,} duplicate Sheepshead deals ({r['hands'] * 5:,} hands), {name} against the "
              f"heuristic, {workers} worker(s): {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
