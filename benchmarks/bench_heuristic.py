"""Heuristic self-play: every seat the game's heuristic agent, hands/s on one core for each of the
five games (the random agents measured in the same run for scale), and Sheepshead on two cores:
numba's two threads in one process, and two worker processes through ``tricksim.simulate``, into a
DataFrame and streamed to a Parquet file.

    python benchmarks/bench_heuristic.py [--hands 1000000] [--repeats 5] [--worker-hands 8000000]

The contenders take turns, repeat after repeat, so that drift of this noisy machine hits all of
them; the figures quoted are medians and ratios of medians.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import tricksim  # first: it picks numba's workqueue threading layer, which lets workers fork

import numba
import numpy as np
from tricksim.agents import agent_module, seat_agents, seat_arrays
from tricksim.agents.loops import play_hands, play_random_hands

GAMES = {"Sheepshead": ("sheepshead", {}), "Fifty-five, 5 players": ("fiftyfive", {}),
         "Bluke, 4 players, all 25 hand sizes": ("bluke", {}), "Shmear, 6 players": ("shmear", {}),
         "NE Smear, 4 players": ("nesmear", {})}


class Loop:
    """The heuristic batch loop with every seat the game's heuristic, or the random loop (``agents.loops``)."""

    def __init__(self, name: str, options: dict, hands: int):
        self.game = tricksim.make_game(name, **options)
        seated, _ = seat_agents(name, "heuristic", self.game.players)
        self.kinds, self.params = seat_arrays(name, seated)
        record = len(self.game.kernels.RECORD)
        self.out = np.zeros((hands, record + len(agent_module(name).FEATURES)), dtype=np.int64)
        self.random_out = np.zeros((hands, record), dtype=np.int64)
        self.heuristic(1000, 0), self.random(1000, 0)  # compile, or load the cache

    def heuristic(self, hands: int, seed: int) -> float:
        start = time.perf_counter()
        play_hands(self.game, seed, 0, self.kinds, self.params, self.out[:hands])
        return hands / (time.perf_counter() - start)

    def random(self, hands: int, seed: int) -> float:
        start = time.perf_counter()
        play_random_hands(self.game, seed, 0, self.random_out[:hands])
        return hands / (time.perf_counter() - start)


def _row(label: str, figures: list[float]) -> str:
    return (f"  {label:<34} median {statistics.median(figures):>11,.0f} hands/s"
            f"  (min {min(figures):,.0f}, max {max(figures):,.0f})")


def simulate_rate(hands: int, workers: int, seed: int, out: Path | None = None) -> float:
    if out is not None:
        out.unlink(missing_ok=True)  # else the same run finds itself complete
    start = time.perf_counter()
    tricksim.simulate("sheepshead", hands, seed, agents="heuristic", workers=workers, out=out, progress=False)
    return hands / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--worker-hands", type=int, default=8_000_000)
    args = parser.parse_args()

    numba.set_num_threads(1)
    loops = {label: Loop(name, options, args.hands) for label, (name, options) in GAMES.items()}
    heuristic = {label: [] for label in loops}
    random = {label: [] for label in loops}
    for r in range(args.repeats):
        for label, loop in loops.items():
            heuristic[label].append(loop.heuristic(args.hands, r))
            random[label].append(loop.random(args.hands, r))
    print("Heuristic self-play, one core")
    for label in loops:
        print(_row(label, heuristic[label]))
        print(_row("  (random agents, same run)", random[label]))

    sheepshead = loops["Sheepshead"]
    threads = {1: [], 2: []}
    for r in range(args.repeats):
        for n in threads:
            numba.set_num_threads(n)
            threads[n].append(sheepshead.heuristic(args.hands, r))
    numba.set_num_threads(1)
    print("Sheepshead heuristic self-play, numba threads in one process")
    for n, figures in threads.items():
        print(_row(f"{n} thread{'s' if n > 1 else ''}", figures))
    print(f"  two threads / one: {statistics.median(threads[2]) / statistics.median(threads[1]):.2f}")

    with tempfile.TemporaryDirectory() as folder:
        for into, out in (("a DataFrame", None), ("a Parquet file", Path(folder) / "run.parquet")):
            workers = {1: [], 2: []}
            for r in range(max(1, args.repeats // 2)):
                for n in workers:
                    workers[n].append(simulate_rate(args.worker_hands, n, r, out))
            print(f"Sheepshead heuristic self-play, tricksim.simulate of {args.worker_hands:,} hands into {into} "
                  "(worker processes of one thread each; with one worker, one thread in-process)")
            for n, figures in workers.items():
                print(_row(f"{n} worker{'s' if n > 1 else ''}", figures))
            print(f"  two workers / one: {statistics.median(workers[2]) / statistics.median(workers[1]):.2f}")


if __name__ == "__main__":
    main()
